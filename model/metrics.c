/* metrics.c: the model's results for a design, and the bottleneck and advice in words. */
#include "model/metrics.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void advise(struct metrics *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void advise(struct metrics *m, const char *fmt, ...)
{
	va_list ap;
	if (m->nadvice >= ADVICE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(m->advice[m->nadvice++], sizeof m->advice[0], fmt, ap);
	va_end(ap);
}

/* Advice that names a change one edit can make: cmd is that edit as ':' commands. */
static void advise_do(struct metrics *m, const char *cmd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void advise_do(struct metrics *m, const char *cmd, const char *fmt, ...)
{
	va_list ap;
	if (m->nadvice >= ADVICE_MAX)
		return;
	snprintf(m->advice_do[m->nadvice], sizeof m->advice_do[0], "%s", cmd);
	va_start(ap, fmt);
	vsnprintf(m->advice[m->nadvice++], sizeof m->advice[0], fmt, ap);
	va_end(ap);
}

/* "select FROM->TO; set lag VALUE" for every bundle from a server group whose lag is not
 * VALUE yet: the servers' own links. What does not fit in out is left out whole. */
static void lag_commands(const struct design *d, bool value, char *out, size_t size)
{
	size_t i, used = 0, k;
	out[0] = '\0';
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		int n;
		if (design_find(d, b->from, &k) != GK_SERVER || b->lag == value)
			continue;
		n = snprintf(out + used, size - used, "%sselect %s->%s; set lag %s", used ? "; " : "", b->from, b->to,
			     value ? "true" : "false");
		if (n < 0 || (size_t)n >= size - used) {
			out[used] = '\0';
			break;
		}
		used += (size_t)n;
	}
}

void metrics_at(const struct metrics *m, enum coll c, double bytes, struct coll_result *out)
{
	collective_eval(&m->fabric, &m->nccl, c, bytes, &m->loss[c], out);
}

int sweep_sizes(double *out, int max)
{
	int n = 0;
	double s;
	for (s = 8; s <= 16.0 * 1024 * 1024 * 1024 && n < max; s *= 2)
		out[n++] = s;
	return n;
}


static const char *hash_words(const struct fabric_loss *l, char *buf, size_t size)
{
	switch (l->hash) {
	case HASH_ECMP:
		snprintf(buf, size, " with static ECMP: %ld flows hashed on %ld links", l->flows, l->links);
		break;
	case HASH_IB_STATIC:
		snprintf(buf, size, " with static routing: %ld destinations on %ld links", l->flows, l->links);
		break;
	default:
		buf[0] = 0;
	}
	if (!l->hashed)
		buf[0] = 0;
	return buf;
}

/* The one constraint that binds the main pattern, in words with its numbers. */
static void find_bottleneck(const struct design *d, struct metrics *m)
{
	const struct fabric *f = &m->fabric;
	const struct coll_result *ar = &m->colls[COLL_ALLREDUCE];
	const struct algo_result *a = coll_pick(ar, d->job.algo);
	const char *alg = a->available ? ualgo_labels[a - ar->algo] : "-";
	double got = a->busbw_GBps;
	char hw[120];
	if (!f->connected && f->node.nnodes > 1) {
		snprintf(m->bottleneck, sizeof m->bottleneck, "%s", f->note);
		return;
	}
	if (!f->gpus || !a->available) {
		snprintf(m->bottleneck, sizeof m->bottleneck, "%s",
			 a->reason ? a->reason : f->note[0] ? f->note : "no AllReduce can run");
		return;
	}
	if (f->node.nnodes <= 1) {
		if (f->node.nvl > 0)
			snprintf(m->bottleneck, sizeof m->bottleneck,
				 "AllReduce (%s) stays on NVLink: %.0f GB/s busbw, NCCL's NVLink %.0f of %.0f GB/s line rate per GPU",
				 alg, got, f->node.nvl, f->nvlink_GBps);
		else
			snprintf(m->bottleneck, sizeof m->bottleneck,
				 "AllReduce (%s) is limited by the host path between the GPUs, %s: %.1f GB/s busbw", alg,
				 host_path_names[f->node.intra_path], got);
		return;
	}
	if (a->loss.factor < 0.999 && a->loss.direct) {
		snprintf(m->bottleneck, sizeof m->bottleneck,
			 "AllReduce (%s) is limited by the direct links between servers: %.1f of %.1f GB/s per node", alg, got,
			 f->node_ceiling_GBps);
		return;
	}
	if (a->loss.factor < 0.999 && a->loss.binding >= 0) {
		const struct tier *t = &f->tiers[a->loss.binding];
		if (t->peer)
			snprintf(m->bottleneck, sizeof m->bottleneck,
				 "AllReduce (%s) is limited by the peer links of '%s'%s: %.1f of %.1f GB/s", alg, t->group,
				 hash_words(&a->loss, hw, sizeof hw), got, f->node_ceiling_GBps);
		else
			snprintf(m->bottleneck, sizeof m->bottleneck,
				 "AllReduce (%s) is limited by '%s' (%s) uplinks at %.3g:1%s: %.1f of %.1f GB/s", alg, t->group,
				 switch_role_names[t->role], t->ratio, hash_words(&a->loss, hw, sizeof hw), got,
				 f->node_ceiling_GBps);
		return;
	}
	if (a - ar->algo == UA_NVLS || a - ar->algo == UA_COLLNET) {
		snprintf(m->bottleneck, sizeof m->bottleneck,
			 "AllReduce (%s) reduces in the network: %.1f GB/s busbw (nccl-tests' busbw; the wires carry about half the bytes of a ring)",
			 alg, got);
		return;
	}
	if (f->lag)
		snprintf(m->bottleneck, sizeof m->bottleneck,
			 "AllReduce (%s) is limited by the bonded links: NCCL sees one device per LAG at one port's speed: %.1f of %.1f GB/s",
			 alg, got, f->node_ceiling_GBps);
	else if (f->slot_GBps > 0 && f->slot_GBps * f->cards < f->ports * f->port_GBps - 1e-9)
		snprintf(m->bottleneck, sizeof m->bottleneck,
			 "AllReduce (%s) is limited by the NICs' PCIe slots: %.1f of %.1f GB/s the ports could carry", alg, got,
			 f->ports * f->port_GBps);
	else
		snprintf(m->bottleneck, sizeof m->bottleneck,
			 "AllReduce (%s) is limited by the NICs: %.1f of %.1f GB/s per node (%d x %d Gb/s)", alg, got,
			 f->node_ceiling_GBps, f->ports, f->port_gbps);
}

static void find_advice(const struct design *d, const struct catalog *cat, struct metrics *m)
{
	const struct fabric *f = &m->fabric;
	const struct job *j = &d->job;
	const struct coll_result *ar = &m->colls[COLL_ALLREDUCE];
	const struct algo_result *used = coll_pick(ar, j->algo);
	int i;
	bool oversub = false;
	for (i = 0; i < f->ntiers; i++) {
		const struct tier *t = &f->tiers[i];
		if (t->ratio > 4.0 + 1e-9)
			advise(m, "'%s' oversubscription is %.3g:1 (above 4:1): add uplinks or switches above it; no tuning knob fixes this",
			       t->group, t->ratio);
		if (t->ratio > 1.0 + 1e-9)
			oversub = true;
	}
	if (!f->connected && f->node.nnodes > 1)
		advise(m, "%s: add the bundles or a switch tier that joins them", f->note);
	if (f->lag) {
		char unbond[240];
		lag_commands(d, false, unbond, sizeof unbond);
		advise_do(m, unbond, "a LAG hides the server's ports from NCCL: it sees one device at one port's speed and uses one port per queue pair (nccl#1015); give NCCL the NICs unbonded");
	}
	if (used->available && used->loss.hashed && used->loss.hash == HASH_ECMP && used->loss.factor < 0.9 &&
	    used->loss.binding >= 0)
		advise_do(m, d->fabric.routing == ROUTE_ECMP ? "set fabric.routing adaptive" : "",
			  "'%s' hashes %ld flows onto %ld uplinks by static ECMP (%.0f%% of their capacity): adaptive routing, more queue pairs per connection (fabric.qps_per_connection) or more uplinks spread them",
		       f->tiers[used->loss.binding].group, used->loss.flows, used->loss.links, 100 * used->loss.factor);
	if (oversub && f->wiring != WIRE_RAIL && f->node.nnodes > 1 && ar->algo[UA_RING].available &&
	    ar->algo[UA_RING].loss.factor < 0.999)
		advise_do(m, ar->algo[UA_TREE].available && j->algo != ALGO_TREE ? "set job.algo tree" : "", "Ring on a non-rail-aligned, oversubscribed fabric loses %.0f%%: wire rail-optimised, or use Tree",
		       100 * (1 - ar->algo[UA_RING].loss.factor));
	if (ar->auto_algo >= 0 && ar->best_algo >= 0 && ar->auto_algo != ar->best_algo &&
	    ar->algo[ar->best_algo].time_us < 0.95 * ar->algo[ar->auto_algo].time_us &&
	    used != &ar->algo[ar->best_algo]) { /* not when the job forces it already */
		char cmd[64];
		snprintf(cmd, sizeof cmd, "set job.algo %s", ualgo_names[ar->best_algo]);
		advise_do(m, cmd, "NCCL would pick %s (it does not see the switches), but %s is faster on this fabric: %.1f vs %.1f GB/s busbw; set NCCL_ALGO=%s",
		       ualgo_labels[ar->auto_algo], ualgo_labels[ar->best_algo], ar->algo[ar->best_algo].busbw_GBps,
		       ar->algo[ar->auto_algo].busbw_GBps, ualgo_labels[ar->best_algo]);
	}
	if ((j->algo == ALGO_NVLS || j->algo == ALGO_NVLSTREE) && !ar->algo[UA_NVLS].available &&
	    !ar->algo[UA_NVLSTREE].available)
		advise_do(m, "set job.algo auto", "NVLS is asked for but cannot run: %s", ar->algo[UA_NVLS].reason ? ar->algo[UA_NVLS].reason : "");
	if (j->algo == ALGO_COLLNET && !ar->algo[UA_COLLNET].available)
		advise_do(m, "set job.algo auto", "CollNet (SHARP) is asked for but cannot run: %s",
		       ar->algo[UA_COLLNET].reason ? ar->algo[UA_COLLNET].reason : "");
	if (f->slot_GBps > 0 && f->cards && f->ports &&
	    f->slot_GBps < f->port_GBps * f->ports / f->cards - 1e-9)
		advise(m, "the NICs' PCIe slots (%.1f GB/s) are slower than their ports (%.1f GB/s): use a faster slot or NIC",
		       f->slot_GBps, f->port_GBps * f->ports / f->cards);
	if (m->work.valid) {
		const struct workload *w = &m->work;
		int G = f->node.ppn;
		if (w->tp > G) {
			char cmd[64];
			snprintf(cmd, sizeof cmd, "set job.tp %d", G);
			advise_do(m, cmd, "TP %d spans %s: keep tensor parallelism inside the NVLink domain (%d GPUs)", w->tp,
			       f->domain_node ? "NVLink domains" : "servers", G);
		}
		if (w->efficiency < 0.7)
			advise(m, "scaling efficiency is %.0f%% (under 70%%): communication is exposed; more cross-node bandwidth, overlap or a matching algorithm would help",
			       100 * w->efficiency);
		if (j->params_b >= 500) {
			if (!ar->algo[UA_COLLNET].available && !ar->algo[UA_NVLS].available)
				advise(m, "trillion-parameter class: ReduceScatter/AllGather dominate; in-network reduction (NVLS, SHARP) takes reduction traffic off the GPUs");
		} else if (w->tp > 1 || w->ep > 1) {
			advise(m, "hybrid parallelism: NVSwitch inside the node for TP, many high-radix links between nodes for DP (a two-level fabric)");
		} else if (f->node.nnodes > 1) {
			advise(m, "mostly data-parallel: protect cross-server bandwidth and keep oversubscription low (fat tree or full mesh)");
		}
	}
	if (d->fabric.sharp && !f->node.collnet && f->node.nnodes > 1)
		advise_do(m, "set fabric.sharp false", "SHARP is on, but not every switch and NIC on the path supports it (InfiniBand, Quantum and ConnectX-6 or later)");
	(void)cat;
}

void metrics_compute(const struct design *d, const struct catalog *cat, double bytes, int gpus, struct metrics *m)
{
	int c;
	struct topo t;
	struct comm_layout world;
	memset(m, 0, sizeof *m);
	m->bytes = bytes > 0 ? bytes : 1024.0 * 1024 * 1024;
	topo_build(d, cat, gpus, &t);
	fabric_summarize(d, cat, &t, &m->fabric);
	fabric_nccl(&m->fabric, m->fabric.node.nnodes, m->fabric.gpus > 0 ? m->fabric.gpus : 1, 0, &m->nccl);
	world = layout_world(&m->fabric);
	for (c = 0; c < COLL_COUNT; c++)
		collective_losses(&t, &m->fabric, &m->nccl, (enum coll)c, &world, &m->loss[c]);
	for (c = 0; c < PATTERNS; c++)
		collective_eval(&m->fabric, &m->nccl, (enum coll)c, m->bytes, &m->loss[c], &m->colls[c]);
	workload_compute(d, cat, &t, &m->fabric, &m->work);
	topo_free(&t);
	find_bottleneck(d, m);
	find_advice(d, cat, m);
}

void metrics_problems(const struct metrics *m, struct ncf_diag *diag)
{
	int i;
	for (i = 0; i < m->fabric.nproblems; i++)
		diag_add(diag, m->fabric.problems[i].severity, m->fabric.problems[i].path, "%s", m->fabric.problems[i].msg);
}
