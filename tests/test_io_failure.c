/* Failures as modified designs (model/failure.h), on shipped designs and test designs. The
 * numbers are worked out by hand in the comments. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "io/design_io.h"
#include "model/congest.h"
#include "model/failure.h"

#include "shipped.h"

TestSuite(failure, .init = setup, .fini = teardown);

static void load(const char *path, struct design *d, struct catalog *cat)
{
	struct ncf_diag diag = { 0 };
	cr_assert(design_load_file(path, &shipped, d, &diag), "%s: %s", path, diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	diag_free(&diag);
	design_catalog(d, &shipped, cat);
}

static struct metrics *compute(const struct design *d, const struct catalog *cat)
{
	struct metrics *m = calloc(1, sizeof *m);
	metrics_compute(d, cat, 1024.0 * 1024 * 1024, 0, m);
	return m;
}

static const struct fail_tier *tier(const struct fail_point *p, const char *group)
{
	int i;
	for (i = 0; i < p->ntiers; i++)
		if (!strcmp(p->tiers[i].group, group))
			return &p->tiers[i];
	return NULL;
}

/* Before and after of spec on the design at path. */
static void outcome(const char *path, const char *spec, struct fail_point *before, struct fail_outcome *o)
{
	struct design d;
	struct catalog cat;
	struct fail_spec s;
	struct metrics *m;
	char err[200];
	load(path, &d, &cat);
	cr_assert(fail_parse(spec, &s, err, sizeof err), "%s", err);
	m = compute(&d, &cat);
	fail_point_from(m, d.job.algo, before);
	free(m);
	fail_evaluate(&d, &cat, &s, 1024.0 * 1024 * 1024, 0, before, o);
	cr_assert(o->ok, "%s: %s", spec, o->why);
	catalog_free(&cat);
	design_free(&d);
}

Test(failure, parse_is_strict)
{
	struct fail_spec s;
	char err[200], name[160];
	cr_assert(fail_parse("switch:spine", &s, err, sizeof err));
	cr_assert_eq(s.kind, FAIL_SWITCH);
	cr_assert_str_eq(s.group, "spine");
	cr_assert(fail_parse("link:leaf->spine:3", &s, err, sizeof err));
	cr_assert_eq(s.kind, FAIL_LINK);
	cr_assert_str_eq(s.group, "leaf");
	cr_assert_str_eq(s.to, "spine");
	cr_assert_eq(s.links, 3);
	cr_assert_str_eq(fail_name(&s, name, sizeof name), "link:leaf->spine:3");
	cr_assert(fail_parse("link:gpu->leaf", &s, err, sizeof err));
	cr_assert_eq(s.links, 1);
	cr_assert_str_eq(fail_name(&s, name, sizeof name), "link:gpu->leaf");
	cr_assert(!fail_parse("", &s, err, sizeof err));
	cr_assert(strstr(err, "expected switch:GROUP"), "%s", err);
	cr_assert(!fail_parse("spine", &s, err, sizeof err));
	cr_assert(strstr(err, "has no kind"), "%s", err);
	cr_assert(!fail_parse("rack:a", &s, err, sizeof err));
	cr_assert(strstr(err, "unknown failure kind 'rack'"), "%s", err);
	cr_assert(!fail_parse("nic:", &s, err, sizeof err));
	cr_assert(strstr(err, "needs a group name"), "%s", err);
	cr_assert(!fail_parse("link:leaf", &s, err, sizeof err));
	cr_assert(strstr(err, "FROM->TO"), "%s", err);
	cr_assert(!fail_parse("link:leaf->", &s, err, sizeof err));
	cr_assert(!fail_parse("link:leaf->spine:0", &s, err, sizeof err));
	cr_assert(strstr(err, "not a number of links"), "%s", err);
	cr_assert(!fail_parse("link:leaf->spine:x", &s, err, sizeof err));
	cr_assert(!fail_parse("link:leaf->spine:", &s, err, sizeof err));
	cr_assert(!fail_parse("link:leaf->spine:1000000", &s, err, sizeof err));
}

/* 4 leaves, each one 400G uplink (50 GB/s) to each of 8 spines: 400 GB/s up per leaf. One
 * spine down: 7 spines, 7 uplinks, 350 GB/s per leaf: 1/8 of the spine tier. The bisection
 * (2 leaves on each side) goes from 2 x 400 = 800 to 2 x 350 = 700 GB/s. Under adaptive
 * routing the fabric is a fluid, so AllToAll, which is bound by those uplinks (4:1), loses
 * exactly 1/8 of its busbw. */
Test(failure, one_spine_of_8_under_adaptive_routing_costs_an_eighth)
{
	struct fail_point before;
	static struct fail_outcome o;
	const struct fail_tier *lb, *la;
	outcome("tests/data/fail-8spine.yaml", "switch:spine", &before, &o);
	lb = tier(&before, "leaf");
	la = tier(&o.after, "leaf");
	cr_assert(lb && la);
	cr_assert_eq(lb->uplinks, 8);
	cr_assert_eq(la->uplinks, 7);
	cr_assert_float_eq(lb->up_GBps, 400, 1e-9);
	cr_assert_float_eq(la->up_GBps, 350, 1e-9);
	cr_assert_eq(tier(&o.after, "spine")->count, 7);
	cr_assert_float_eq(before.bisection_GBps, 800, 1e-9);
	cr_assert_float_eq(o.after.bisection_GBps, 700, 1e-9);
	cr_assert_str_eq(before.bound[COLL_ALLTOALL], "leaf");
	/* The binding uplinks' capacity is exactly 7/8; the busbw nearly (latency is unchanged). */
	cr_assert_float_eq(o.after.cap[COLL_ALLTOALL] / before.cap[COLL_ALLTOALL], 7.0 / 8, 1e-9);
	cr_assert_float_eq(o.after.busbw[COLL_ALLTOALL] / before.busbw[COLL_ALLTOALL], 7.0 / 8, 2e-3);
	cr_assert_eq(o.effect.response, FR_REROUTE);
	cr_assert(strstr(o.effect.nccl, "adaptive routing"), "%s", o.effect.nccl);
}

/* The same under static ECMP: the leaf's flows are hashed over U = 8 uplinks before and
 * U = 7 after; the flows do not change (the traffic is the same). The model states the
 * capacity of one leaf as min(U x 50, F x 50 / E[max](F, U)) (route.c, fabric-physics.md
 * 1.5), so the binding resource goes from that with U = 8 to that with U = 7. */
Test(failure, one_spine_of_8_under_ecmp_costs_what_the_hashing_says)
{
	struct design d, after;
	struct catalog cat;
	struct fail_spec s;
	struct fail_effect e;
	struct metrics *m0, *m1;
	const struct fabric_loss *l0, *l1;
	char err[200];
	double c0, c1;
	load("tests/data/fail-8spine.yaml", &d, &cat);
	d.fabric.routing = ROUTE_ECMP;
	cr_assert(fail_parse("switch:spine", &s, err, sizeof err));
	cr_assert(fail_apply(&d, &cat, &s, &after, &e, err, sizeof err), "%s", err);
	m0 = compute(&d, &cat);
	m1 = compute(&after, &cat);
	l0 = &m0->colls[COLL_ALLREDUCE].algo[UA_RING].loss;
	l1 = &m1->colls[COLL_ALLREDUCE].algo[UA_RING].loss;
	cr_assert(l0->hashed && l1->hashed, "the ring is hashed at the leaf uplinks");
	cr_assert_eq(l0->links, 8);
	cr_assert_eq(l1->links, 7);
	cr_assert_eq(l0->flows, l1->flows);
	cr_assert_gt(l0->flows, 0);
	/* The binding leaf (one switch a component, top-of-rack): min(U x 50, F x 50 / E[max](F, U)). */
	c0 = fmin(8 * 50.0, (double)l0->flows * 50 / hash_expected_max(l0->flows, 8));
	c1 = fmin(7 * 50.0, (double)l1->flows * 50 / hash_expected_max(l1->flows, 7));
	cr_assert_float_eq(l0->capacity_GBps, c0, 1e-6 * c0, "%g vs %g", l0->capacity_GBps, c0);
	cr_assert_float_eq(l1->capacity_GBps, c1, 1e-6 * c1, "%g vs %g", l1->capacity_GBps, c1);
	cr_assert_lt(l1->factor, l0->factor);
	free(m0);
	free(m1);
	design_free(&after);
	catalog_free(&cat);
	design_free(&d);
}

/* A rail's leaf down (one scalable unit, 8 rails): every server loses its rail-j NIC, and
 * NCCL, restarted, runs every rank at 7 NICs: 7 x 400 Gb/s = 350 GB/s per node, 7 wired
 * ports; the job first fails after 4.096 us x 2^20 x 7 = 30.06 s. */
Test(failure, a_rail_leaf_down_leaves_its_nics_unused)
{
	struct fail_point before;
	static struct fail_outcome o;
	struct fail_shrink sh[8];
	int n;
	outcome("share/examples/dgx-h100-1su.yaml", "switch:leaf", &before, &o);
	cr_assert_eq(before.ports, 8);
	cr_assert_eq(o.after.ports, 7);
	cr_assert_float_eq(before.node_ceiling_GBps, 400, 1e-9);
	cr_assert_float_eq(o.after.node_ceiling_GBps, 350, 1e-9);
	cr_assert_eq(tier(&o.after, "leaf")->count, 7);
	cr_assert_eq(o.effect.response, FR_JOB_FAILS);
	cr_assert_float_eq(o.effect.detect_s, 4.096e-6 * 1048576 * 7, 1e-9);
	cr_assert_float_eq(o.effect.detect_s, 30.064771, 1e-6);
	cr_assert(strstr(o.effect.nccl, "nccl#998"), "%s", o.effect.nccl);
	cr_assert(o.after.valid);
	cr_assert_lt(o.after.tokens_per_s, before.tokens_per_s);
	n = fail_shrinks(&before, &o.after, sh, 8);
	cr_assert_geq(n, 2);
	cr_assert_eq(sh[0].what, SHRINK_RAILS);
	cr_assert_eq(sh[0].before, 8);
	cr_assert_eq(sh[0].after, 7);
}

/* Two scalable units (16 rail leaves, 8 rails): a leaf of unit 0 down runs every rank at 7
 * rails, so the rail's leaf of unit 1 carries nothing: 16 - 2 = 14 leaves, 7 ports. */
Test(failure, a_rail_leaf_down_in_two_units)
{
	struct fail_point before;
	static struct fail_outcome o;
	outcome("tests/data/superpod-h100-2su-ra.yaml", "switch:leaf", &before, &o);
	cr_assert_eq(tier(&before, "leaf")->count, 16);
	cr_assert_eq(tier(&o.after, "leaf")->count, 14);
	cr_assert_eq(o.after.ports, 7);
	cr_assert(strstr(o.effect.change, "2 units"), "%s", o.effect.change);
}

/* One NIC per server on the 1-SU design is the same degraded state as its rail leaf down. */
Test(failure, a_nic_down_is_a_rail_down)
{
	struct fail_point before, b2;
	static struct fail_outcome nic, leaf;
	outcome("share/examples/dgx-h100-1su.yaml", "nic:dgx", &before, &nic);
	outcome("share/examples/dgx-h100-1su.yaml", "switch:leaf", &b2, &leaf);
	cr_assert_eq(nic.after.ports, 7);
	cr_assert_float_eq(nic.after.step_ms, leaf.after.step_ms, 1e-9);
	cr_assert_eq(nic.effect.response, FR_JOB_FAILS);
}

/* Top-of-rack: a leaf down takes its 8 servers' network: 32 -> 24 servers, the job (all
 * GPUs, TP 8) restarts on 192 GPUs. */
Test(failure, a_tor_leaf_down_loses_its_servers)
{
	struct fail_point before;
	static struct fail_outcome o;
	outcome("tests/data/fail-8spine.yaml", "switch:leaf", &before, &o);
	cr_assert_eq(before.gpus, 256);
	cr_assert_eq(o.after.gpus, 192);
	cr_assert_eq(o.effect.response, FR_JOB_FAILS);
	cr_assert(strstr(o.effect.change, "32 -> 24 servers"), "%s", o.effect.change);
}

/* The whole spine tier down: the leaves cannot reach each other. */
Test(failure, the_spine_group_down_cuts_the_fabric)
{
	struct fail_point before;
	static struct fail_outcome o;
	outcome("tests/data/fail-8spine.yaml", "group:spine", &before, &o);
	cr_assert(!o.after.connected);
	cr_assert_eq(o.effect.response, FR_NO_NETWORK);
	cr_assert_float_eq(o.tokens_loss, 1, 1e-12);
}

/* One leaf's uplink down: that leaf paces the collective, so the model takes every leaf at
 * 7 uplinks (the bisection is then a bound, said in the caveat). */
Test(failure, a_switch_link_down)
{
	struct fail_point before;
	static struct fail_outcome o;
	outcome("tests/data/fail-8spine.yaml", "link:leaf->spine", &before, &o);
	cr_assert_eq(tier(&o.after, "leaf")->uplinks, 7);
	cr_assert_eq(tier(&o.after, "spine")->count, 8);
	cr_assert_float_eq(o.after.cap[COLL_ALLTOALL] / before.cap[COLL_ALLTOALL], 7.0 / 8, 1e-9);
	cr_assert(o.effect.caveat[0]);
}

/* All 4 links of one server of fail-8spine (its only bundle): that server has no network,
 * the job (all GPUs, TP 8) restarts on the other 31: 31 x 8 = 248 GPUs. The other servers
 * keep their 4 links each: the ceiling stays 4 x 400 Gb/s / 8 = 200 GB/s per node. Fewer than
 * all of them: every server runs at L - N (NCCL's minimum over the ranks), 4 - 1 = 3 ports. */
Test(failure, a_server_losing_every_link_leaves_the_job)
{
	struct fail_point before, b2;
	static struct fail_outcome all, one;
	outcome("tests/data/fail-8spine.yaml", "link:gpu->leaf:4", &before, &all);
	cr_assert_eq(before.gpus, 256);
	cr_assert_eq(all.after.gpus, 248);
	cr_assert_eq(all.after.ports, 4);
	cr_assert_eq(all.effect.response, FR_JOB_FAILS);
	cr_assert(strstr(all.effect.change, "'gpu': 32 -> 31 servers (one loses all 4 of its links to 'leaf'"), "%s",
		  all.effect.change);
	cr_assert(strstr(all.effect.nccl, "without the servers that have no network"), "%s", all.effect.nccl);
	outcome("tests/data/fail-8spine.yaml", "link:gpu->leaf", &b2, &one);
	cr_assert_eq(one.after.gpus, 256);
	cr_assert_eq(one.after.ports, 3);
}

Test(failure, what_cannot_be_modelled_is_refused)
{
	struct design d, after;
	struct catalog cat;
	struct fail_spec s;
	struct fail_effect e;
	char err[300];
	load("tests/data/fail-8spine.yaml", &d, &cat);
	/* 8 links per leaf over 3 spines: leaves lose 2 or 3 links to one spine. */
	DESIGN_SWITCH(&d, 1)->count = 3;
	cr_assert(fail_parse("switch:spine", &s, err, sizeof err));
	cr_assert(!fail_apply(&d, &cat, &s, &after, &e, err, sizeof err));
	cr_assert(strstr(err, "not a change to whole groups"), "%s", err);
	design_free(&after);
	cr_assert(fail_parse("switch:gpu", &s, err, sizeof err));
	cr_assert(!fail_apply(&d, &cat, &s, &after, &e, err, sizeof err));
	cr_assert(strstr(err, "try nic:"), "%s", err);
	design_free(&after);
	cr_assert(fail_parse("link:leaf->nowhere", &s, err, sizeof err));
	cr_assert(!fail_apply(&d, &cat, &s, &after, &e, err, sizeof err));
	cr_assert(strstr(err, "no bundle leaf->nowhere"), "%s", err);
	design_free(&after);
	cr_assert(fail_parse("link:leaf->spine:9", &s, err, sizeof err));
	cr_assert(!fail_apply(&d, &cat, &s, &after, &e, err, sizeof err));
	cr_assert(strstr(err, "has 8 links per switch, not 9"), "%s", err);
	design_free(&after);
	cr_assert(fail_parse("nic:leaf", &s, err, sizeof err));
	cr_assert(!fail_apply(&d, &cat, &s, &after, &e, err, sizeof err));
	design_free(&after);
	catalog_free(&cat);
	design_free(&d);
}

/* N-1 of fail-8spine: nic:gpu, switch:leaf, group:leaf, switch:spine, group:spine,
 * link:gpu->leaf, link:leaf->spine; ranked by tokens/s lost, the ones that stop the job
 * first. */
Test(failure, n_minus_1_ranks_every_single_failure)
{
	struct design d;
	struct catalog cat;
	struct fail_spec specs[16];
	static struct fail_outcome o[16];
	struct fail_point before;
	struct metrics *m;
	char name[160];
	int n, i;
	load("tests/data/fail-8spine.yaml", &d, &cat);
	n = fail_enumerate(&d, &cat, specs, 16);
	cr_assert_eq(n, 7);
	cr_assert_str_eq(fail_name(&specs[0], name, sizeof name), "nic:gpu");
	cr_assert_str_eq(fail_name(&specs[6], name, sizeof name), "link:leaf->spine");
	m = compute(&d, &cat);
	fail_point_from(m, d.job.algo, &before);
	free(m);
	for (i = 0; i < n; i++)
		fail_evaluate(&d, &cat, &specs[i], 1024.0 * 1024 * 1024, 0, &before, &o[i]);
	fail_rank(o, n);
	for (i = 1; i < n; i++)
		if (o[i].ok && o[i - 1].ok)
			cr_assert_geq(o[i - 1].tokens_loss, o[i].tokens_loss - 1e-12);
	cr_assert_float_eq(o[0].tokens_loss, 1, 1e-12, "the first stops the job: %s", fail_name(&o[0].spec, name, sizeof name));
	catalog_free(&cat);
	design_free(&d);
}
