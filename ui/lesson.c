#include "ui/lesson.h"
#include "ui/app.h"
#include <stdio.h>
#include <string.h>

const struct lesson_page lesson_pages[] = {
	{ "Measure", "reference-case", "", { NULL },
	  "The reference case: 4 servers of 8 x A100 (NVSwitch inside), 4 x 100 Gb/s RoCE NICs each, one top-of-rack "
	  "switch, GPT-2 1.5B trained data-parallel on {gpus} GPUs. The panel is the model: the gradients' AllReduce runs "
	  "at {busbw} GB/s busbw with {pick} (NCCL's choice), a training step takes {step} ms, the speedup is {speedup} "
	  "of {gpus}: {eff}% efficiency. About half of the GPUs' time is lost. Where?" },
	{ "The ceiling", "reference-case", "", { NULL },
	  "Between servers each one has {ports} x {port_gbps} Gb/s = {ceiling} GB/s, shared by its 8 GPUs. busbw "
	  "counts what every GPU must move across that, so no algorithm gets more than {ceiling} GB/s here. NCCL's own "
	  "model predicts {nccl_ring} GB/s for Ring: it knows the NICs, but not the switch. The panel says {ring}." },
	{ "Why Ring falls short", "reference-case", "", { NULL },
	  "Ring opens {flows} connections per server (its channels, doubled at run time). Static ECMP hashes each onto "
	  "one of the {links} links; on average the busiest link carries {emax} of them, and every connection waits for "
	  "the slowest, so Ring gets {ring} GB/s instead of {nccl_ring}. Press t, then c, to see one draw. The model: "
	  "{bottleneck}" },
	{ "Try Tree", "reference-case", "", { "set job.algo tree", NULL },
	  "NCCL_ALGO=Tree (job.algo tree): a tree's few connections per server collide less than the ring's {flows}. "
	  "AllReduce now runs at {busbw} GB/s; the step takes {step} ms, speedup {speedup}, efficiency {eff}%. Better, "
	  "but the links are still hashed." },
	{ "Bond the links", "reference-case", "", { "select a100->tor", "set lag true", NULL },
	  "Back to NCCL's choice, with the four links of each server bonded into a LAG that the switch balances: the "
	  "connections spread evenly. Ring {ring} GB/s, Tree {tree} GB/s of the {ceiling} GB/s ceiling; NCCL picks {pick} "
	  "at {busbw} GB/s. The step takes {step} ms: efficiency {eff}%, from about half. Topology and algorithm must "
	  "match." },
	{ "Rule: data parallel", "leaf-spine", "", { NULL },
	  "Data parallelism sends the whole gradient through AllReduce every step, across every tier. Keep the leaves "
	  "at 1:1 (here {oversub_leaf}), give each GPU enough network ({ceiling} GB/s per node here) and keep flows from "
	  "colliding (rails, LAG or adaptive routing). This design: {gpus} GPUs, AllReduce {busbw} GB/s, "
	  "efficiency {eff}%." },
	{ "Rule: hybrid parallel", "superpod", "", { NULL },
	  "A 70B model does not fit one GPU: tensor parallelism (every layer, heavy) stays inside the server's NVLink "
	  "({nvlink} GB/s per GPU as NCCL counts it), data parallelism crosses the network. Rail-optimised wiring gives GPU k of every "
	  "server the same leaf, so rings stay on one rail. {gpus} GPUs: AllReduce {busbw} GB/s, step {step} ms, "
	  "efficiency {eff}%." },
	{ "Rule: huge models", "nvl72", "", { NULL },
	  "The largest models put tensor and expert parallelism inside one NVLink domain of 72 GPUs (GB200 NVL72: "
	  "{nvlink} GB/s per GPU as NCCL counts it), so the network between racks carries the data-parallel part only. {gpus} GPUs: "
	  "AllReduce {busbw} GB/s across racks, step {step} ms, efficiency {eff}%. Esc ends the lesson; u undoes it." },
};
const int lesson_npages = (int)(sizeof lesson_pages / sizeof lesson_pages[0]);

/* The value of {key}, or NULL if the key is unknown. */
static const char *field(const struct app *app, const char *key, char *buf, size_t size)
{
	const struct metrics *m = &app->metrics;
	const struct fabric *f = &m->fabric;
	const struct coll_result *ar = &m->colls[COLL_ALLREDUCE];
	const struct algo_result *pick = coll_pick(ar, app->design.job.algo);
	int t;
	if (!strcmp(key, "gpus"))
		snprintf(buf, size, "%d", m->work.gpus ? m->work.gpus : f->gpus);
	else if (!strcmp(key, "busbw"))
		snprintf(buf, size, "%.1f", pick->busbw_GBps);
	else if (!strcmp(key, "pick"))
		snprintf(buf, size, "%s", ualgo_labels[pick - ar->algo]);
	else if (!strcmp(key, "ring") || !strcmp(key, "tree")) {
		const struct algo_result *a = &ar->algo[key[0] == 'r' ? UA_RING : UA_TREE];
		snprintf(buf, size, a->available ? "%.1f" : "n/a", a->busbw_GBps);
	} else if (!strcmp(key, "nccl_ring"))
		snprintf(buf, size, "%.1f", ar->algo[UA_RING].nccl_busbw_GBps);
	else if (!strcmp(key, "step"))
		snprintf(buf, size, "%.1f", m->work.step_ms);
	else if (!strcmp(key, "speedup"))
		snprintf(buf, size, "%.1f", m->work.speedup);
	else if (!strcmp(key, "eff"))
		snprintf(buf, size, "%.0f", 100.0 * m->work.efficiency);
	else if (!strcmp(key, "ports"))
		snprintf(buf, size, "%d", f->ports);
	else if (!strcmp(key, "port_gbps"))
		snprintf(buf, size, "%d", f->port_gbps);
	else if (!strcmp(key, "ceiling"))
		snprintf(buf, size, "%.1f", f->node_ceiling_GBps);
	else if (!strcmp(key, "nvlink"))
		snprintf(buf, size, "%.0f", f->node.nvl);
	else if (!strcmp(key, "flows"))
		snprintf(buf, size, "%d", app->cong.flows);
	else if (!strcmp(key, "links"))
		snprintf(buf, size, "%d", app->cong.links);
	else if (!strcmp(key, "emax"))
		snprintf(buf, size, "%.2f", app->cong.emax);
	else if (!strcmp(key, "bottleneck"))
		snprintf(buf, size, "%s", m->bottleneck);
	else if (!strcmp(key, "oversub_leaf")) {
		snprintf(buf, size, "no uplinks");
		for (t = 0; t < f->ntiers; t++)
			if (f->tiers[t].role == ROLE_LEAF && f->tiers[t].ratio > 0)
				snprintf(buf, size, "%.3g:1", f->tiers[t].ratio);
	} else
		return NULL;
	return buf;
}

void lesson_text(const struct app *app, int i, char *buf, size_t size)
{
	const char *p = lesson_pages[i].text;
	size_t used = 0;
	buf[0] = '\0';
	while (*p && used + 1 < size) {
		const char *end = *p == '{' ? strchr(p, '}') : NULL;
		char key[32], val[400];
		const char *v = NULL;
		if (end && end - p - 1 < (long)sizeof key) {
			snprintf(key, sizeof key, "%.*s", (int)(end - p - 1), p + 1);
			v = field(app, key, val, sizeof val);
		}
		if (v) {
			used += (size_t)snprintf(buf + used, size - used, "%s", v);
			p = end + 1;
		} else {
			buf[used++] = *p++;
			buf[used] = '\0';
		}
		if (used >= size)
			used = size - 1;
	}
}
