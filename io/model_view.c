#include "io/model_view.h"
#include "model/metrics.h"
#include "model/topo.h"
#include <stdio.h>
#include <string.h>

void model_view_compute(const struct design *d, const struct catalog *cat, struct model_view *v)
{
	static struct metrics m; /* large: not on the stack */
	const struct fabric *f;
	const struct coll_result *ar;
	const struct algo_result *a;
	int t;
	memset(v, 0, sizeof *v);
	metrics_compute_some(d, cat, 1024.0 * 1024 * 1024, 0, 0, &m); /* no scaling curve */
	f = &m.fabric;
	v->connected = f->connected;
	v->heterogeneous = f->heterogeneous;
	v->hashed = f->lag;
	for (t = 0; t < f->ntiers && t < MV_TIERS; t++)
		if ((f->tiers[t].hash == HASH_ECMP || f->tiers[t].hash == HASH_IB_STATIC || f->tiers[t].lag) &&
		    f->tiers[t].uplinks > 0 && !v->hashed_at[0]) {
			v->hashed = true;
			v->hashed_ib = f->tiers[t].hash == HASH_IB_STATIC;
			snprintf(v->hashed_at, sizeof v->hashed_at, "%s", f->tiers[t].group);
		}
	v->domain_node = f->domain_node;
	v->nvlink = f->node.nvl > 0;
	v->gpus_per_node = f->node.ppn;
	v->nodes = f->node.nnodes;
	v->ports = f->ports;
	v->intra_GBps = f->node.nvl > 0 ? f->node.nvl : f->node.pci_intra;
	v->node_GBps = f->node_ceiling_GBps;
	v->ntiers = f->ntiers < MV_TIERS ? f->ntiers : MV_TIERS;
	for (t = 0; t < v->ntiers; t++) {
		struct mv_tier *o = &v->tiers[t];
		o->role = f->tiers[t].role;
		snprintf(o->group, sizeof o->group, "%s", f->tiers[t].group);
		o->count = f->tiers[t].count;
		o->ratio = f->tiers[t].ratio;
		o->nodes_under = f->tiers[t].nodes_under;
		o->rail = f->tiers[t].rail;
	}
	v->bisection_GBps = f->bisection_GBps;
	snprintf(v->note, sizeof v->note, "%s", f->note);
	ar = &m.colls[COLL_ALLREDUCE];
	a = coll_pick(ar, d->job.algo);
	v->allreduce_bytes = m.bytes;
	snprintf(v->allreduce_algo, sizeof v->allreduce_algo, "%s", a->available ? ualgo_names[a - ar->algo] : "none");
	v->allreduce_tree = a->available && a - ar->algo == UA_TREE;
	v->allreduce_busbw_GBps = a->available ? a->busbw_GBps : 0;
	v->workload_valid = m.work.valid;
	v->step_ms = m.work.step_ms;
	v->tokens_per_s = m.work.tokens_per_s;
	v->speedup = m.work.speedup;
	v->efficiency = m.work.efficiency;
	snprintf(v->bottleneck, sizeof v->bottleneck, "%s", m.bottleneck);
}
