/* topo_helpers.h: designs built group by group, and the report's numbers compared, for the
 * topology engine's tests (test_model_topo*.c). */
#ifndef NCF_TEST_TOPO_HELPERS_H
#define NCF_TEST_TOPO_HELPERS_H
#include <criterion/criterion.h>
#include <math.h>
#include "fixtures.h"
#include "model/metrics.h"

static inline struct server_group *add_servers(struct design *d, const char *name, int count, const char *gpu, int gpus,
					const char *nic, int nics)
{
	struct server_group *g = vec_push(&d->servers, sizeof *g);
	struct nic_spec *n;
	memset(g, 0, sizeof *g);
	SETS(g->name, name);
	g->count = count;
	SETS(g->gpu, gpu);
	g->gpus = gpus;
	SETS(g->scaleup, !strcmp(gpu, "h100") ? "nvswitch-gen3" : "nvswitch-gen2");
	n = vec_push(&g->nics, sizeof *n);
	memset(n, 0, sizeof *n);
	SETS(n->model, nic);
	n->count = nics;
	return g;
}

static inline void add_switches(struct design *d, const char *name, int role, int count, const char *model)
{
	struct switch_group *s = vec_push(&d->switches, sizeof *s);
	memset(s, 0, sizeof *s);
	SETS(s->name, name);
	s->role = role;
	s->count = count;
	SETS(s->model, model);
	s->breakout = 1;
}

static inline struct bundle *add_bundle(struct design *d, const char *from, const char *to, int each, int wiring)
{
	struct bundle *b = vec_push(&d->bundles, sizeof *b);
	memset(b, 0, sizeof *b);
	SETS(b->from, from);
	SETS(b->to, to);
	b->links_each = each;
	b->wiring = wiring;
	return b;
}

static inline void job(struct design *d)
{
	d->job.params_b = 7;
	d->job.seq_len = 4096;
	d->job.global_batch = 256;
	d->job.layers = 32;
	d->job.hidden = 4096;
	d->job.overlap = 0.5;
	design_assign_ids(d);
}

static inline bool close_rel(double a, double b, double tol)
{
	return fabs(a - b) <= tol * (fabs(a) > fabs(b) ? fabs(a) : fabs(b)) + 1e-12;
}

/* Every number the report shows, equal in both (the equivalence the issue asks for). */
static inline void same_numbers(const struct metrics *a, const struct metrics *b, const char *what)
{
	int c, u, k;
	cr_assert_eq(a->fabric.gpus, b->fabric.gpus, "%s: gpus", what);
	cr_assert_eq(a->fabric.node.nnodes, b->fabric.node.nnodes, "%s: nodes", what);
	cr_assert_eq(a->fabric.connected, b->fabric.connected, "%s: connected", what);
	cr_assert(close_rel(a->fabric.node_ceiling_GBps, b->fabric.node_ceiling_GBps, 1e-12), "%s: ceiling", what);
	cr_assert(close_rel(a->fabric.bisection_GBps, b->fabric.bisection_GBps, 1e-12), "%s: bisection %f vs %f", what,
		  a->fabric.bisection_GBps, b->fabric.bisection_GBps);
	for (c = 0; c < PATTERNS; c++)
		for (u = 0; u < UA_COUNT; u++) {
			const struct algo_result *x = &a->colls[c].algo[u], *y = &b->colls[c].algo[u];
			cr_assert_eq(x->available, y->available, "%s: %s %s available", what, coll_names[c], ualgo_names[u]);
			if (!x->available)
				continue;
			cr_assert(close_rel(x->busbw_GBps, y->busbw_GBps, 1e-9), "%s: %s %s busbw %f vs %f", what,
				  coll_names[c], ualgo_names[u], x->busbw_GBps, y->busbw_GBps);
			cr_assert(close_rel(x->loss.factor, y->loss.factor, 1e-9), "%s: %s %s factor", what, coll_names[c],
				  ualgo_names[u]);
		}
	cr_assert_eq(a->work.valid, b->work.valid, "%s: workload", what);
	cr_assert(close_rel(a->work.step_ms, b->work.step_ms, 1e-9), "%s: step %f vs %f", what, a->work.step_ms,
		  b->work.step_ms);
	cr_assert(close_rel(a->work.tokens_per_s, b->work.tokens_per_s, 1e-9), "%s: tokens/s", what);
	cr_assert(close_rel(a->work.speedup, b->work.speedup, 1e-9), "%s: speedup", what);
	for (k = 0; k < DIM_COUNT; k++)
		cr_assert(close_rel(a->work.dims[k].time_ms, b->work.dims[k].time_ms, 1e-9), "%s: %s time", what,
			  dim_names[k]);
	cr_assert_eq(a->work.ncurve, b->work.ncurve, "%s: curve", what);
	for (k = 0; k < a->work.ncurve; k++)
		cr_assert(close_rel(a->work.curve[k].speedup, b->work.curve[k].speedup, 1e-9), "%s: curve %d", what, k);
}

#endif
