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

void metrics_at(const struct metrics *m, enum coll c, double bytes, struct coll_result *out)
{
	collective_eval(&m->fabric, &m->nccl, c, bytes, 1, out);
}

int sweep_sizes(double *out, int max)
{
	int n = 0;
	double s;
	for (s = 8; s <= 16.0 * 1024 * 1024 * 1024 && n < max; s *= 2)
		out[n++] = s;
	return n;
}

static const char *tier_name(const struct tier *t)
{
	return switch_role_names[t->role];
}

/* The one constraint that binds the main pattern, in words with its numbers. */
static void find_bottleneck(const struct design *d, struct metrics *m)
{
	const struct fabric *f = &m->fabric;
	const struct coll_result *ar = &m->colls[COLL_ALLREDUCE];
	const struct algo_result *a = coll_pick(ar, d->job.algo);
	const char *alg = a->available ? ualgo_labels[a - ar->algo] : "-";
	double got = a->busbw_GBps;
	if (!f->gpus || !a->available) {
		snprintf(m->bottleneck, sizeof m->bottleneck, "%s", f->note[0] ? f->note : "no AllReduce can run");
		return;
	}
	if (f->node.nnodes <= 1) {
		if (f->node.nvl > 0)
			snprintf(m->bottleneck, sizeof m->bottleneck,
				 "AllReduce (%s) stays on NVLink: %.0f GB/s busbw, NCCL's NVLink %.0f of %.0f GB/s line rate per GPU",
				 alg, got, f->node.nvl, f->nvlink_GBps);
		else
			snprintf(m->bottleneck, sizeof m->bottleneck,
				 "AllReduce (%s) is limited by PCIe between the GPUs: %.1f GB/s busbw", alg, got);
		return;
	}
	if (a->loss.binding >= 0 && a->loss.binding < 3 && a->loss.factor < 0.999) {
		const struct tier *t = &f->tiers[a->loss.binding];
		snprintf(m->bottleneck, sizeof m->bottleneck,
			 "AllReduce (%s) is limited by %s uplinks at %.3g:1%s: %.1f of %.1f GB/s", alg, tier_name(t), t->ratio,
			 (f->routing == ROUTE_ECMP || t->lag) ? " with static hashing" : "", got, f->node_ceiling_GBps);
		return;
	}
	if (a->loss.binding == 3 && a->loss.factor < 0.999) {
		snprintf(m->bottleneck, sizeof m->bottleneck,
			 "AllReduce (%s) is limited by flows colliding on each node's %d links (static ECMP): %.1f of %.1f GB/s",
			 alg, f->ports, got, f->node_ceiling_GBps);
		return;
	}
	if (a - ar->algo == UA_NVLS || a - ar->algo == UA_COLLNET) {
		snprintf(m->bottleneck, sizeof m->bottleneck,
			 "AllReduce (%s) reduces in the network: %.1f GB/s busbw (nccl-tests' busbw; the wires carry about half the bytes of a ring)",
			 alg, got);
		return;
	}
	if (f->slot_GBps > 0 && f->slot_GBps * f->node.cards < f->ports * f->port_GBps - 1e-9)
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
			advise(m, "%s oversubscription is %.3g:1 (above 4:1): add uplinks or %s switches; no tuning knob fixes this",
			       tier_name(t), t->ratio, i + 1 < f->ntiers ? tier_name(&f->tiers[i + 1]) : "spine");
		if (t->ratio > 1.0 + 1e-9)
			oversub = true;
	}
	if (!f->connected && f->node.nnodes > 1)
		advise(m, "%s: add a switch tier above the leaves", f->note);
	if (used->available && used->loss.binding == 3 && used->loss.edge < 0.9)
		advise(m, "flows collide on each node's %d links under static ECMP (%.0f%% of their capacity): bond them as a LAG (RoCE LAG spreads connections evenly), enable adaptive routing, or wire rail-optimised",
		       f->ports, 100 * used->loss.edge);
	if (oversub && f->wiring != WIRE_RAIL && f->node.nnodes > 1 && ar->algo[UA_RING].available &&
	    ar->algo[UA_RING].loss.factor < 0.999)
		advise(m, "Ring on a non-rail-aligned, oversubscribed fabric loses %.0f%%: wire rail-optimised, or use Tree",
		       100 * (1 - ar->algo[UA_RING].loss.factor));
	if (ar->auto_algo >= 0 && ar->best_algo >= 0 && ar->auto_algo != ar->best_algo &&
	    ar->algo[ar->best_algo].time_us < 0.95 * ar->algo[ar->auto_algo].time_us)
		advise(m, "NCCL would pick %s (it does not see the switches), but %s is faster on this fabric: %.1f vs %.1f GB/s busbw; set NCCL_ALGO=%s",
		       ualgo_labels[ar->auto_algo], ualgo_labels[ar->best_algo], ar->algo[ar->best_algo].busbw_GBps,
		       ar->algo[ar->auto_algo].busbw_GBps, ualgo_labels[ar->best_algo]);
	if ((j->algo == ALGO_NVLS || j->algo == ALGO_NVLSTREE) && !ar->algo[UA_NVLS].available &&
	    !ar->algo[UA_NVLSTREE].available)
		advise(m, "NVLS is asked for but cannot run: %s", ar->algo[UA_NVLS].reason ? ar->algo[UA_NVLS].reason : "");
	if (j->algo == ALGO_COLLNET && !ar->algo[UA_COLLNET].available)
		advise(m, "CollNet (SHARP) is asked for but cannot run: %s",
		       ar->algo[UA_COLLNET].reason ? ar->algo[UA_COLLNET].reason : "");
	if (f->slot_GBps > 0 && f->node.cards && f->ports &&
	    f->slot_GBps < f->port_GBps * f->ports / (f->node.cards > 0 ? f->node.cards : 1) - 1e-9)
		advise(m, "the NICs' PCIe slots (%.1f GB/s) are slower than their ports (%.1f GB/s): use a faster slot or NIC",
		       f->slot_GBps, f->port_GBps * f->ports / f->node.cards);
	if (m->work.valid) {
		const struct workload *w = &m->work;
		int G = f->node.ppn;
		if (w->tp > G)
			advise(m, "TP %d spans %s: keep tensor parallelism inside the NVLink domain (%d GPUs)", w->tp,
			       f->domain_node ? "NVLink domains" : "servers", G);
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
		advise(m, "SHARP is on, but not every switch and NIC on the path supports it (InfiniBand, Quantum and ConnectX-6 or later)");
	(void)cat;
}

void metrics_compute(const struct design *d, const struct catalog *cat, double bytes, int gpus, struct metrics *m)
{
	int c;
	memset(m, 0, sizeof *m);
	m->bytes = bytes > 0 ? bytes : 1024.0 * 1024 * 1024;
	fabric_build(d, cat, gpus, &m->fabric);
	nccl_model_build(&m->fabric.node, &m->nccl);
	for (c = 0; c < PATTERNS; c++)
		collective_eval(&m->fabric, &m->nccl, (enum coll)c, m->bytes, 1, &m->colls[c]);
	workload_compute(d, cat, &m->fabric, &m->work);
	find_bottleneck(d, m);
	find_advice(d, cat, m);
}
