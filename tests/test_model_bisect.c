/* Bisection bandwidth as the worst-case balanced cut (model/bisect.h): the minimum, over
 * every way of cutting the job's n nodes into floor(n/2) and ceil(n/2), of the capacity
 * between the halves. Checked against a brute force over every split (the max-flow of a
 * split on the tree of components, computed here from the wiring rules, not by the model),
 * by hand, and by invariants: no single failure raises it, the same hardware written
 * differently gives the same number, and it never exceeds the old figure (the one split by
 * rank, fabric_rank_flow). */
#include <criterion/criterion.h>
#include <math.h>
#include "fixtures.h"
#include "topo_helpers.h"
#include "model/failure.h"
#include "model/fabric.h"
#include "model/topo.h"

static struct catalog cat;

static void setup(void)
{
	fx_catalog(&cat);
}

static void teardown(void)
{
	catalog_free(&cat);
}

TestSuite(bisect, .init = setup, .fini = teardown);

/* ---- designs ------------------------------------------------------------------------------ */

/* tests/data/fail-8spine.yaml in the fixture catalog: `servers` H100 servers of 8 GPUs and
 * `nics` 400G RoCE NICs (50 GB/s each), top-of-rack on `leaves` 64 x 400G leaves, each leaf
 * `up` uplinks spread over `spines` spines. `groups` server groups (1 or 2, the servers
 * split as evenly as possible, the first bigger) bundled to the same leaves in turn;
 * `split`: the server bundle and the leaf bundle each written as two bundles of half. */
static void leafspine(struct design *d, int servers, int leaves, int spines, int up, int nics, int groups, bool split)
{
	int k;
	design_init(d);
	SETS(d->name, "leafspine");
	for (k = 0; k < groups; k++) {
		char name[16];
		int n = servers / groups + (k < servers % groups);
		snprintf(name, sizeof name, "g%d", k);
		add_servers(d, name, n, "h100", 8, "cx7-400e", nics);
	}
	add_switches(d, "leaf", ROLE_LEAF, leaves, "eth64x400");
	add_switches(d, "spine", ROLE_SPINE, spines, "eth64x400");
	for (k = 0; k < groups; k++) {
		char name[16];
		snprintf(name, sizeof name, "g%d", k);
		if (split) {
			add_bundle(d, name, "leaf", nics / 2, WIRE_TOR);
			add_bundle(d, name, "leaf", nics - nics / 2, WIRE_TOR);
		} else {
			add_bundle(d, name, "leaf", nics, WIRE_TOR);
		}
	}
	if (split) {
		add_bundle(d, "leaf", "spine", up / 2, WIRE_SPREAD);
		add_bundle(d, "leaf", "spine", up - up / 2, WIRE_SPREAD);
	} else {
		add_bundle(d, "leaf", "spine", up, WIRE_SPREAD);
	}
	job(d);
	d->fabric.routing = ROUTE_ADAPTIVE;
}

/* InfiniBand rail-optimised (a SuperPOD's scalable units): `servers` H100 servers with 8
 * NDR NICs (50 GB/s each), rail-wired onto 8 leaves per unit (`units` units: a unit is
 * ceil(servers / units) consecutive servers), each leaf `up` uplinks spread over 8 spines. */
static void rails(struct design *d, int servers, int units, int up)
{
	design_init(d);
	SETS(d->name, "rails");
	add_servers(d, "dgx", servers, "h100", 8, "cx7-400", 8);
	add_switches(d, "leaf", ROLE_LEAF, 8 * units, "sw64x400");
	add_switches(d, "spine", ROLE_SPINE, 8, "sw64x400");
	add_bundle(d, "dgx", "leaf", 8, WIRE_RAIL);
	add_bundle(d, "leaf", "spine", up, WIRE_SPREAD);
	job(d);
}

/* A two-tier with a core: `servers` servers of 4 x 400G (InfiniBand) top-of-rack on 8
 * leaves, the leaves `lup` uplinks each, top-of-rack onto 4 spines (two leaves a spine: a
 * pod), each spine `sup` uplinks spread over 4 cores. */
static void core3(struct design *d, int servers, int lup, int sup)
{
	design_init(d);
	SETS(d->name, "core");
	add_servers(d, "srv", servers, "h100", 8, "cx7-400", 4);
	add_switches(d, "leaf", ROLE_LEAF, 8, "sw64x400");
	add_switches(d, "spine", ROLE_SPINE, 4, "sw64x400");
	add_switches(d, "core", ROLE_CORE, 4, "sw64x400");
	add_bundle(d, "srv", "leaf", 4, WIRE_TOR);
	add_bundle(d, "leaf", "spine", lup, WIRE_TOR);
	add_bundle(d, "spine", "core", sup, WIRE_SPREAD);
	job(d);
}

static struct fabric bis(const struct design *d)
{
	struct fabric f;
	fabric_build(d, &cat, 0, &f);
	return f;
}

static double rank_flow(const struct design *d)
{
	struct topo t;
	double v;
	topo_build(d, &cat, 0, &t);
	v = fabric_rank_flow(&t);
	topo_free(&t);
	return v;
}

/* ---- the brute force ---------------------------------------------------------------------- */

/* A tree of up to three levels as the wiring rules make it: leaf i holds n[i] nodes of w
 * GB/s each and has U[i] of uplinks to pod pod[i] (-1: straight to the top), pod j has P[j]
 * of uplinks to the top. The max-flow between the halves of a split (a[i] of leaf i's nodes
 * on side A) is exact on a tree bottom up: what the halves can exchange in a component
 * they exchange there, the rest climbs, capped by the uplinks each way. */
struct tree {
	int nleaves, npods;
	long n[16];
	double U[16], P[8], w;
	int pod[16];
};

static double split_flow(const struct tree *t, const long *a)
{
	double flow = 0, pa[8] = { 0 }, pb[8] = { 0 }, ta = 0, tb = 0;
	int i, j;
	for (i = 0; i < t->nleaves; i++) {
		double sa = a[i] * t->w, sb = (t->n[i] - a[i]) * t->w, m = fmin(sa, sb);
		flow += m;
		sa = fmin(sa - m, t->U[i]);
		sb = fmin(sb - m, t->U[i]);
		if (t->pod[i] >= 0) {
			pa[t->pod[i]] += sa;
			pb[t->pod[i]] += sb;
		} else {
			ta += sa;
			tb += sb;
		}
	}
	for (j = 0; j < t->npods; j++) {
		double m = fmin(pa[j], pb[j]);
		flow += m;
		ta += fmin(pa[j] - m, t->P[j]);
		tb += fmin(pb[j] - m, t->P[j]);
	}
	return flow + fmin(ta, tb);
}

static void enumerate(const struct tree *t, long *a, int i, long left, double *best)
{
	long k;
	if (i == t->nleaves) {
		if (left == 0)
			*best = fmin(*best, split_flow(t, a));
		return;
	}
	for (k = 0; k <= t->n[i] && k <= left; k++) {
		a[i] = k;
		enumerate(t, a, i + 1, left - k, best);
	}
}

/* The least max-flow over every split of floor(n/2) : ceil(n/2) (by symmetry of the
 * capacities, the other way round costs the same). */
static double brute(const struct tree *t)
{
	long a[16], n = 0;
	double best = INFINITY;
	int i;
	for (i = 0; i < t->nleaves; i++)
		n += t->n[i];
	enumerate(t, a, 0, n / 2, &best);
	return best;
}

/* Top-of-rack: per = ceil(N / leaves) servers a leaf, in order. */
/* n groups g0.. of one server each, of 4 x 400G (2 for every third with het). */
static void add_one_server_groups(struct design *d, int n, bool het)
{
	char name[16];
	int i;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "g%d", i);
		add_servers(d, name, 1, "h100", 8, "cx7-400", het && i % 3 == 0 ? 2 : 4);
	}
}

static void tor_sizes(struct tree *t, int servers, int leaves);

/* servers of 4 x 400G top-of-rack on `leaves` leaves, each `lup` uplinks top-of-rack onto 4
 * spines (leaves / 4 a pod), each spine `sup` uplinks to the core. */
static void tor_pods(struct tree *t, int servers, int leaves, int lup, int sup)
{
	int i;
	memset(t, 0, sizeof *t);
	tor_sizes(t, servers, leaves);
	t->w = 4 * 50.0;
	t->npods = 4;
	for (i = 0; i < t->nleaves; i++) {
		t->U[i] = lup * 50.0;
		t->pod[i] = i / (leaves / 4);
	}
	for (i = 0; i < 4; i++)
		t->P[i] = sup * 50.0;
}

static void tor_sizes(struct tree *t, int servers, int leaves)
{
	int per = (servers + leaves - 1) / leaves, i;
	t->nleaves = 0;
	for (i = 0; i < leaves; i++) {
		int k = servers - i * per < per ? servers - i * per : per;
		if (k <= 0)
			break;
		t->n[t->nleaves] = k;
		t->pod[t->nleaves] = -1;
		t->nleaves++;
	}
}

/* ---- by hand ------------------------------------------------------------------------------ */

/* fail-8spine at 24, 25, 32 and 33 servers: 4 leaves, top-of-rack, per = ceil(N / 4) servers
 * a leaf; a server has 4 x 50 = 200 GB/s, a leaf 8 x 50 = 400 GB/s of uplinks. With the
 * spine on side B, a leaf with a nodes on A and b on B costs min(200 a, 200 b + 400): on
 * B it cuts its A nodes, on A its B nodes and its uplinks.
 *   24: leaves of 6, 6, 6, 6; 12 : 12 is two whole leaves a side: 2 x 400 = 800.
 *   25: leaves of 7, 7, 7, 4; 12 : 13. No set of whole leaves makes 12 or 13 (7, 4, 11, 14,
 *       18, 21), so a leaf is split: 7 + 4 whole on A (2 x 400) and one node of a third leaf
 *       (200): 1000. Anything else costs more: 7 whole + 5 of another 7 is 400 + min(1000,
 *       2 x 200 + 400) = 1200; 6 + 6 of two 7s is 2 x min(1200, 200 + 400) = 1200.
 *   32: leaves of 8; 16 : 16 is two whole leaves a side: 800.
 *   33: leaves of 9, 9, 9, 6; 16 : 17. Whole leaves make 15 or 18, not 16 or 17: 9 + 6
 *       whole (800) and one node (200) gives 1000, or 9 whole + 8 of another 9 on A: 400 +
 *       min(1600, 200 + 400) = 1000. */
Test(bisect, fail_8spine_by_hand)
{
	static const int n[] = { 24, 25, 32, 33 };
	static const double want[] = { 800, 1000, 800, 1000 };
	struct design d;
	int i;
	for (i = 0; i < 4; i++) {
		struct fabric f;
		leafspine(&d, n[i], 4, 8, 8, 4, 1, false);
		f = bis(&d);
		cr_assert_float_eq(f.bisection_GBps, want[i], 1e-9, "%d servers: %f", n[i], f.bisection_GBps);
		cr_assert(f.bisection_exact && f.bisection_bound == 0, "%d servers: exact", n[i]);
		/* Per GPU: over half the job's GPUs (8 n / 2). */
		cr_assert_float_eq(f.bisection_per_gpu_GBps, want[i] / (8 * n[i] / 2.0), 1e-12);
		design_free(&d);
	}
	/* The old figure, the split by rank, at 25: the first 12 servers are leaf 0's 7 and 5
	 * of leaf 1's; leaf 1 exchanges 2 x 200 = 400 inside, leaves 0 and 1 send 400 each up,
	 * leaves 2 and 3 take 400 each: 400 + 800 = 1200 (the defect: higher than 24's 800). */
	leafspine(&d, 25, 4, 8, 8, 4, 1, false);
	cr_assert_float_eq(rank_flow(&d), 1200, 1e-9);
	design_free(&d);
}

/* Failing all 4 links of one server (it leaves the job: 31 servers, leaves of 8, 8, 8, 7)
 * used to raise the rank split's figure to 1000; the worst cut of 15 : 16 is 8 + 7 whole
 * leaves against 8 + 8: 2 x 400 = 800. A spine down leaves 7 uplinks a leaf: 2 x 7 x 50 =
 * 700. */
Test(bisect, failing_a_server_link_does_not_raise_it)
{
	struct design d, after;
	struct fail_spec s;
	struct fail_effect e;
	char err[256];
	leafspine(&d, 32, 4, 8, 8, 4, 1, false);
	cr_assert(fail_parse("link:g0->leaf:4", &s, err, sizeof err), "%s", err);
	cr_assert(fail_apply(&d, &cat, &s, &after, &e, err, sizeof err), "%s", err);
	cr_assert_float_eq(bis(&after).bisection_GBps, 800, 1e-9);
	design_free(&after);
	cr_assert(fail_parse("switch:spine", &s, err, sizeof err), "%s", err);
	cr_assert(fail_apply(&d, &cat, &s, &after, &e, err, sizeof err), "%s", err);
	cr_assert_float_eq(bis(&after).bisection_GBps, 700, 1e-9);
	design_free(&after);
	design_free(&d);
}

/* Rail-optimised, 8 servers in 2 units of 4 (8 leaves each): a unit is one component (its 8
 * rail leaves join the same servers), 4 x 400 = 1600 GB/s of nodes. With 4 uplinks a leaf
 * it has 8 x 4 x 50 = 1600 up: the worst cut is the units apart, 1600 = 4 x 400 (full
 * bisection). With 2 uplinks a leaf, 800 up: 800. */
Test(bisect, rails_by_hand)
{
	struct design d;
	rails(&d, 8, 2, 4);
	cr_assert_float_eq(bis(&d).bisection_GBps, 1600, 1e-9);
	design_free(&d);
	rails(&d, 8, 2, 2);
	cr_assert_float_eq(bis(&d).bisection_GBps, 800, 1e-9);
	cr_assert(bis(&d).bisection_exact);
	design_free(&d);
}

/* Two-tier with a core, 32 servers (4 a leaf, 200 GB/s each), leaves 4 x 50 = 200 up,
 * spines (a pod: 2 leaves, 8 servers) 4 x 50 = 200 up: 16 : 16 is two whole pods a side,
 * their spines' 2 x 200 = 400 (cutting leaves instead costs 200 each, four of them). */
Test(bisect, core_by_hand)
{
	struct design d;
	core3(&d, 32, 4, 4);
	cr_assert_float_eq(bis(&d).bisection_GBps, 400, 1e-9);
	design_free(&d);
}

/* ---- against the brute force -------------------------------------------------------------- */

Test(bisect, leafspine_matches_brute_force)
{
	/* Oversubscribed (8 uplinks a leaf) and not (24: 3 to each spine). */
	static const int ups[] = { 8, 24 };
	int u, n;
	for (u = 0; u < 2; u++)
		for (n = 2; n <= 40; n++) {
			struct design d;
			struct tree t;
			struct fabric f;
			int i;
			memset(&t, 0, sizeof t);
			tor_sizes(&t, n, 4);
			t.w = 4 * 50.0;
			for (i = 0; i < t.nleaves; i++)
				t.U[i] = ups[u] * 50.0;
			leafspine(&d, n, 4, 8, ups[u], 4, 1, false);
			f = bis(&d);
			cr_assert(close_rel(f.bisection_GBps, brute(&t), 1e-12), "up %d, %d servers: %f vs %f", ups[u], n,
				  f.bisection_GBps, brute(&t));
			cr_assert(f.bisection_exact);
			design_free(&d);
		}
}

Test(bisect, rails_match_brute_force)
{
	int units, n, up;
	for (units = 1; units <= 4; units++)
		for (up = 1; up <= 4; up += 3)
			for (n = 2; n <= 24; n++) {
				struct design d;
				struct tree t;
				int us = (n + units - 1) / units, i;
				memset(&t, 0, sizeof t);
				for (i = 0; i * us < n; i++) {
					t.n[i] = n - i * us < us ? n - i * us : us;
					t.U[i] = 8.0 * up * 50; /* the unit's 8 leaves */
					t.pod[i] = -1;
				}
				t.nleaves = i;
				t.w = 8 * 50.0;
				rails(&d, n, units, up);
				cr_assert(close_rel(bis(&d).bisection_GBps, brute(&t), 1e-12), "%d units, up %d, %d servers: %f vs %f",
					  units, up, n, bis(&d).bisection_GBps, brute(&t));
				design_free(&d);
			}
}

Test(bisect, core_matches_brute_force)
{
	/* (At least 4 uplinks a spine: one to each core, so the cores join every pod.) */
	static const int lups[] = { 2, 8 }, sups[] = { 4, 12 };
	int a, b, n;
	for (a = 0; a < 2; a++)
		for (b = 0; b < 2; b++)
			for (n = 2; n <= 26; n += 3) {
				struct design d;
				struct tree t;
				/* Leaves to spines top-of-rack: per = ceil(8 / 4) = 2 leaves a spine (the
				 * leaves with no server still count in the wiring). */
				tor_pods(&t, n, 8, lups[a], sups[b]);
				core3(&d, n, lups[a], sups[b]);
				cr_assert(close_rel(bis(&d).bisection_GBps, brute(&t), 1e-12), "lup %d sup %d, %d servers: %f vs %f",
					  lups[a], sups[b], n, bis(&d).bisection_GBps, brute(&t));
				design_free(&d);
			}
}

/* Pods of unequal size: `servers` (13 to 16) servers of 4 x 400G, one a leaf, on 16
 * leaves top-of-rack onto 4 spines (4 leaves a spine: pods of 4, 4, 4 and servers - 12),
 * each spine `sup` uplinks spread over 4 cores. The top's children are of two kinds, three
 * pods of 4 leaves and one of 1 to 3 (or four alike): the bisection combines two kinds only
 * over the splits where at most one pod is partly on side A (bisect.c conv_two_concave),
 * and must find what every split gives. */
Test(bisect, unequal_pods_match_brute_force)
{
	static const int lups[] = { 1, 2, 4, 8 }, sups[] = { 4, 8, 12 };
	int a, b, n;
	for (a = 0; a < 4; a++)
		for (b = 0; b < 3; b++)
			for (n = 13; n <= 16; n++) {
				struct design d;
				struct tree t;
				tor_pods(&t, n, 16, lups[a], sups[b]);
				design_init(&d);
				SETS(d.name, "pods");
				add_servers(&d, "srv", n, "h100", 8, "cx7-400", 4);
				add_switches(&d, "leaf", ROLE_LEAF, 16, "sw64x400");
				add_switches(&d, "spine", ROLE_SPINE, 4, "sw64x400");
				add_switches(&d, "core", ROLE_CORE, 4, "sw64x400");
				add_bundle(&d, "srv", "leaf", 4, WIRE_TOR);
				add_bundle(&d, "leaf", "spine", lups[a], WIRE_TOR);
				add_bundle(&d, "spine", "core", sups[b], WIRE_SPREAD);
				job(&d);
				cr_assert(close_rel(bis(&d).bisection_GBps, brute(&t), 1e-12), "lup %d sup %d, %d servers: %f vs %f",
					  lups[a], sups[b], n, bis(&d).bisection_GBps, brute(&t));
				cr_assert(bis(&d).bisection_exact);
				design_free(&d);
			}
}

/* Two kinds of pod that cost differently: 8 servers on 8 leaves top-of-rack onto 2 spines
 * (pods of 4 leaves, `la` uplinks a leaf, `pa` a spine), 3 servers on 3 other leaves onto
 * one spine of their own (a pod of 3, `lb` and `pb`), the spines spread over 4 cores. No
 * set of whole pods makes 5 of the 11 nodes, so one pod is split, and which one is cheaper
 * depends on the uplinks: the combination of the two kinds must try either one partly on
 * side A. */
Test(bisect, two_kinds_of_pod_match_brute_force)
{
	static const int lups[] = { 1, 2, 8 }, sups[] = { 4, 12 };
	int la, lb, pa, pb;
	for (la = 0; la < 3; la++)
		for (lb = 0; lb < 3; lb++)
			for (pa = 0; pa < 2; pa++)
				for (pb = 0; pb < 2; pb++) {
					struct design d;
					struct tree t;
					int i;
					memset(&t, 0, sizeof t);
					t.nleaves = 11;
					t.npods = 3;
					t.w = 4 * 50.0;
					for (i = 0; i < 11; i++) {
						t.n[i] = 1;
						t.U[i] = (i < 8 ? lups[la] : lups[lb]) * 50.0;
						t.pod[i] = i / 4;
					}
					for (i = 0; i < 3; i++)
						t.P[i] = (i < 2 ? sups[pa] : sups[pb]) * 50.0;
					design_init(&d);
					SETS(d.name, "two kinds");
					add_servers(&d, "a", 8, "h100", 8, "cx7-400", 4);
					add_servers(&d, "b", 3, "h100", 8, "cx7-400", 4);
					add_switches(&d, "la", ROLE_LEAF, 8, "sw64x400");
					add_switches(&d, "lb", ROLE_LEAF, 3, "sw64x400");
					add_switches(&d, "sa", ROLE_SPINE, 2, "sw64x400");
					add_switches(&d, "sb", ROLE_SPINE, 1, "sw64x400");
					add_switches(&d, "core", ROLE_CORE, 4, "sw64x400");
					add_bundle(&d, "a", "la", 4, WIRE_TOR);
					add_bundle(&d, "b", "lb", 4, WIRE_TOR);
					add_bundle(&d, "la", "sa", lups[la], WIRE_TOR);
					add_bundle(&d, "lb", "sb", lups[lb], WIRE_TOR);
					add_bundle(&d, "sa", "core", sups[pa], WIRE_SPREAD);
					add_bundle(&d, "sb", "core", sups[pb], WIRE_SPREAD);
					job(&d);
					cr_assert(close_rel(bis(&d).bisection_GBps, brute(&t), 1e-12),
						  "leaf up %d/%d, spine up %d/%d: %f vs %f", lups[la], lups[lb], sups[pa], sups[pb],
						  bis(&d).bisection_GBps, brute(&t));
					cr_assert(bis(&d).bisection_exact);
					design_free(&d);
				}
}

/* The summary over many groups, alike ones interleaved with others (fabric.c summarize
 * takes a group's kind of node from the group before when its node is the same byte for
 * byte): 20 groups of one H100 server on leaves of their own under one spine, every third
 * group with 2 NICs, the others 4. Two kinds of node; the slowest (2 x 50 = 100 GB/s) is
 * the first of them, g0; the tiers listed are the first 16 (FABRIC_MAX_TIERS: leaf l0,
 * the spine, leaves l1 to l14), and the spine's one component holds all 20 nodes. */
Test(bisect, alike_groups_summarised_by_kind)
{
	struct design d;
	struct fabric f;
	char name[16], leaf[16];
	int i, k, spine = -1;
	design_init(&d);
	SETS(d.name, "kinds");
	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof name, "g%d", i);
		add_servers(&d, name, 1, "h100", 8, "cx7-400", i % 3 == 0 ? 2 : 4);
	}
	add_switches(&d, "spine", ROLE_SPINE, 2, "sw64x400");
	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof name, "g%d", i);
		snprintf(leaf, sizeof leaf, "l%d", i);
		add_switches(&d, leaf, ROLE_LEAF, 1, "sw64x400");
		add_bundle(&d, name, leaf, i % 3 == 0 ? 2 : 4, WIRE_TOR);
		add_bundle(&d, leaf, "spine", 2, WIRE_SPREAD);
	}
	job(&d);
	f = bis(&d);
	cr_assert_eq(f.nclasses, 2);
	cr_assert_eq(f.classes[0].cards + f.classes[1].cards, 2 + 4, "cards %d, %d", f.classes[0].cards, f.classes[1].cards);
	cr_assert_float_eq(f.node_ceiling_GBps, 100, 1e-9);
	cr_assert_str_eq(f.server_group, "g0");
	cr_assert_eq(f.ntiers, 16);
	for (k = 0; k < f.ntiers; k++)
		if (!strcmp(f.tiers[k].group, "spine"))
			spine = k;
	cr_assert_geq(spine, 0);
	cr_assert_float_eq(f.tiers[spine].nodes_under, 20, 1e-9);
	design_free(&d);
}

/* ---- invariants --------------------------------------------------------------------------- */

/* Every design of the grid: the figure of every single failure the model enumerates (one
 * switch, a whole group, one link of every bundle, one NIC), and of a server's every link
 * down and two of a switch's uplinks, against the intact one's.
 *
 * Removing capacity never raises the worst cut: a failure that keeps the job's nodes (a
 * NIC, a spine, an uplink, a rail's leaf) leaves every split's cut at most what it was, so
 * the least of them too. A failure that takes nodes out of the job (a server with no
 * network left, a top-of-rack leaf's servers) changes the job, and the worst cut of a
 * smaller job can be larger: 3 nodes on leaves of 2 and 1 with uplinks slower than a node
 * are cut by the uplinks, the 2 left on one leaf only by their own links. What holds is one
 * node out of an even job (k : k loses a node on either side and stays balanced), checked
 * where the design left is the same cabling minus that server: top-of-rack wiring puts
 * ceil(D / leaves) on a leaf, so the design with one server fewer is the same cabling only
 * when that does not change (else failure.c's design re-cables the others; see the
 * report). */
static int no_failure_raises(const struct design *d, int servers, int leaves, const char *what)
{
	struct fail_spec specs[64];
	int n = fail_enumerate(d, &cat, specs, 64), i, checked = 0;
	struct fabric f0 = bis(d);
	double before = f0.bisection_GBps;
	char extra[2][160];
	cr_assert_gt(n, 0, "%s: failures", what);
	snprintf(extra[0], sizeof extra[0], "link:%s->%s:%d", DESIGN_BUNDLE(d, 0)->from, DESIGN_BUNDLE(d, 0)->to,
		 DESIGN_BUNDLE(d, 0)->links_each);
	snprintf(extra[1], sizeof extra[1], "link:%s->%s:2", DESIGN_BUNDLE(d, d->bundles.n - 1)->from,
		 DESIGN_BUNDLE(d, d->bundles.n - 1)->to);
	for (i = 0; i < n + 2; i++) {
		struct design after;
		struct fail_effect e;
		struct fail_spec s;
		char err[256], name[64];
		if (i >= n) {
			cr_assert(fail_parse(extra[i - n], &s, err, sizeof err), "%s", err);
		} else {
			s = specs[i];
		}
		fail_name(&s, name, sizeof name);
		if (fail_apply(d, &cat, &s, &after, &e, err, sizeof err)) {
			struct fabric f = bis(&after);
			bool same_nodes = f.node.nnodes == f0.node.nnodes;
			bool one_out = f.node.nnodes == f0.node.nnodes - 1 && f0.node.nnodes % 2 == 0 && leaves > 0 &&
				       (servers - 2) / leaves == (servers - 1) / leaves;
			if (same_nodes || one_out) {
				cr_assert_leq(f.bisection_GBps, before + 1e-9, "%s: %s raises the bisection %f -> %f", what, name,
					      before, f.bisection_GBps);
				checked++;
			}
		}
		design_free(&after);
	}
	return checked;
}

Test(bisect, no_single_failure_raises_it)
{
	struct design d;
	char what[64];
	int n, u, checked = 0;
	for (u = 0; u < 2; u++)
		for (n = 2; n <= 40; n++) {
			leafspine(&d, n, 4, 8, u ? 24 : 8, 4, 1, false);
			snprintf(what, sizeof what, "leaf-spine up %d, %d servers", u ? 24 : 8, n);
			checked += no_failure_raises(&d, n, 4, what);
			design_free(&d);
		}
	for (n = 2; n <= 24; n++) {
		rails(&d, n, 2, 2);
		snprintf(what, sizeof what, "rails, %d servers", n);
		checked += no_failure_raises(&d, n, 0, what);
		design_free(&d);
	}
	for (n = 2; n <= 40; n++) {
		core3(&d, n, 4, 4);
		snprintf(what, sizeof what, "core, %d servers", n);
		checked += no_failure_raises(&d, n, 8, what);
		design_free(&d);
	}
	/* (Not vacuous: most of the grid's failures keep the job's nodes.) */
	cr_assert_gt(checked, 500, "%d failures checked", checked);
}

/* The same hardware written differently: one group of N, two groups on the same leaves,
 * and the bundles written as two of half each, give the same figure. */
Test(bisect, same_hardware_written_differently)
{
	int n, u;
	for (u = 0; u < 2; u++)
		for (n = 2; n <= 40; n++) {
			struct design a, b, c;
			double va, vb, vc;
			leafspine(&a, n, 4, 8, u ? 24 : 8, 4, 1, false);
			leafspine(&b, n, 4, 8, u ? 24 : 8, 4, 2, false);
			leafspine(&c, n, 4, 8, u ? 24 : 8, 4, 1, true);
			va = bis(&a).bisection_GBps;
			vb = bis(&b).bisection_GBps;
			vc = bis(&c).bisection_GBps;
			cr_assert(close_rel(va, vb, 1e-12), "up %d, %d servers: one group %f, two %f", u ? 24 : 8, n, va, vb);
			cr_assert(close_rel(va, vc, 1e-12), "up %d, %d servers: bundles whole %f, halved %f", u ? 24 : 8, n, va,
				  vc);
			design_free(&a);
			design_free(&b);
			design_free(&c);
		}
}

/* The worst cut is at most the capacity of any one balanced split, the rank split's. */
Test(bisect, never_above_the_rank_split)
{
	int n;
	for (n = 2; n <= 40; n++) {
		struct design d;
		leafspine(&d, n, 4, 8, 8, 4, 1, false);
		cr_assert_leq(bis(&d).bisection_GBps, rank_flow(&d) + 1e-9, "leaf-spine %d", n);
		design_free(&d);
		rails(&d, n, 3, 2);
		cr_assert_leq(bis(&d).bisection_GBps, rank_flow(&d) + 1e-9, "rails %d", n);
		design_free(&d);
		core3(&d, n, 2, 4);
		cr_assert_leq(bis(&d).bisection_GBps, rank_flow(&d) + 1e-9, "core %d", n);
		design_free(&d);
	}
}

/* Nodes of unequal links: 2 servers of 8 x 50 = 400 GB/s on one leaf and 2 of 4 x 50 = 200
 * on another, each leaf 2 x 50 = 100 up to a spine. The worst 2 : 2 cut is the leaves apart,
 * 100 (any split inside a leaf cuts a server's links, 200 at least). The programme charges
 * each leaf its cheapest nodes: exact. */
Test(bisect, unequal_nodes_exact)
{
	struct design d;
	struct fabric f;
	design_init(&d);
	SETS(d.name, "het");
	add_servers(&d, "big", 2, "h100", 8, "cx7-400", 8);
	add_servers(&d, "small", 2, "h100", 8, "cx7-400", 4);
	add_switches(&d, "la", ROLE_LEAF, 1, "sw64x400");
	add_switches(&d, "lb", ROLE_LEAF, 1, "sw64x400");
	add_switches(&d, "spine", ROLE_SPINE, 1, "sw64x400");
	add_bundle(&d, "big", "la", 8, WIRE_TOR);
	add_bundle(&d, "small", "lb", 4, WIRE_TOR);
	add_bundle(&d, "la", "spine", 2, WIRE_TOR);
	add_bundle(&d, "lb", "spine", 2, WIRE_TOR);
	job(&d);
	f = bis(&d);
	cr_assert_float_eq(f.bisection_GBps, 100, 1e-9);
	cr_assert(f.bisection_exact);
	design_free(&d);
	/* 3 small ones and 1 big one on the same leaf (no spine): 2 : 2 puts two small ones on
	 * a side against the other small and the big; the leaf is on the side of the most
	 * capacity, so the cut is the two small ones' 2 x 200 = 400 (not 2 x 400). */
	design_init(&d);
	SETS(d.name, "het1");
	add_servers(&d, "big", 1, "h100", 8, "cx7-400", 8);
	add_servers(&d, "small", 3, "h100", 8, "cx7-400", 4);
	add_switches(&d, "l", ROLE_LEAF, 1, "sw64x400");
	add_bundle(&d, "big", "l", 8, WIRE_TOR);
	add_bundle(&d, "small", "l", 4, WIRE_TOR);
	job(&d);
	f = bis(&d);
	cr_assert_float_eq(f.bisection_GBps, 400, 1e-9);
	cr_assert(f.bisection_exact);
	design_free(&d);
}

/* Two planes of the same shape (a server's ports split over two leaf groups alike): one
 * split is worst for both, the sum of their minima is exact. 4 servers of 2 x 4 x 50 GB/s,
 * each plane one leaf: 2 : 2 cuts 2 x 200 in each plane, 800. */
Test(bisect, alike_planes_add_exactly)
{
	struct design d;
	struct fabric f;
	design_init(&d);
	SETS(d.name, "planes");
	add_servers(&d, "a", 4, "h100", 8, "cx7-400", 8);
	add_switches(&d, "f1", ROLE_LEAF, 1, "sw64x400");
	add_switches(&d, "f2", ROLE_LEAF, 1, "sw64x400");
	add_bundle(&d, "a", "f1", 4, WIRE_TOR);
	add_bundle(&d, "a", "f2", 4, WIRE_TOR);
	job(&d);
	f = bis(&d);
	cr_assert_float_eq(f.bisection_GBps, 800, 1e-9);
	cr_assert(f.bisection_exact);
	design_free(&d);
}

/* ---- random trees against every split -------------------------------------------------- */

/* A design of n groups of one server each: the rank order (job.groups) puts any servers
 * first without moving them (positions follow the bundles' order), so the split by rank
 * (fabric_rank_flow, the max-flow of one split) of every choice of floor(n/2) groups first
 * is every balanced split's capacity, and their least is the bisection by brute force. */
static double brute_by_rank(struct design *d, int n)
{
	double best = INFINITY;
	unsigned mask;
	int h = n / 2, i;
	for (mask = 0; mask < (1u << n); mask++) {
		char order[256] = "";
		int pass;
		if (__builtin_popcount(mask) != h)
			continue;
		for (pass = 0; pass < 2; pass++)
			for (i = 0; i < n; i++)
				if (((mask >> i) & 1) == !pass) {
					char g[8];
					snprintf(g, sizeof g, "%sg%d", order[0] ? "," : "", i);
					strcat(order, g);
				}
		snprintf(d->job.groups, sizeof d->job.groups, "%s", order);
		best = fmin(best, rank_flow(d));
	}
	d->job.groups[0] = 0;
	return best;
}

/* The bisection f reports against the brute force's minimum `want`: equal when it says it
 * is exact, else on the side of it that its bound says (what: the trial, for the message).
 * True when exact. */
static bool against_brute(const struct fabric *f, double want, const char *what)
{
	if (f->bisection_exact) {
		cr_assert(close_rel(f->bisection_GBps, want, 1e-9), "%s: %f vs every split %f", what, f->bisection_GBps, want);
		return true;
	}
	if (f->bisection_bound < 0)
		cr_assert_leq(f->bisection_GBps, want + 1e-9, "%s: a lower bound above the minimum", what);
	else
		cr_assert_geq(f->bisection_GBps, want - 1e-9, "%s: an upper bound below the minimum", what);
	return false;
}


static unsigned seed = 12345;
static int rnd(int k)
{
	seed = seed * 1103515245u + 12345u;
	return (int)((seed >> 16) % (unsigned)k);
}

Test(bisect, random_trees_match_every_split)
{
	int trial, exact = 0, inside = 0;
	for (trial = 0; trial < 150; trial++) {
		struct design d;
		struct fabric f;
		char what[200];
		int n = 2 + rnd(8), leaves = 1 + rnd(4), spines = rnd(4), i, wl = rnd(3);
		bool het = rnd(3) == 0, core = spines > 1 && rnd(2);
		/* Top-of-rack, spread, or rail-optimised (4 NICs on 4 or 8 rail leaves: one unit or
		 * two). */
		wl = wl == 0 ? WIRE_TOR : wl == 1 || het ? WIRE_SPREAD : WIRE_RAIL;
		if (wl == WIRE_RAIL)
			leaves = 4 * (1 + rnd(2));
		char name[16];
		double want;
		design_init(&d);
		SETS(d.name, "random");
		add_one_server_groups(&d, n, het);
		add_switches(&d, "leaf", ROLE_LEAF, leaves, "sw64x400");
		if (spines)
			add_switches(&d, "spine", ROLE_SPINE, spines, "sw64x400");
		if (core)
			add_switches(&d, "core", ROLE_CORE, 2, "sw64x400");
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof name, "g%d", i);
			add_bundle(&d, name, "leaf", het && i % 3 == 0 ? 2 : 4, wl);
		}
		if (spines)
			add_bundle(&d, "leaf", "spine", spines * (1 + rnd(2)), rnd(2) ? WIRE_TOR : WIRE_SPREAD);
		if (core)
			add_bundle(&d, "spine", "core", 2 * (1 + rnd(2)), WIRE_SPREAD);
		job(&d);
		f = bis(&d);
		want = brute_by_rank(&d, n);
		inside += want < rank_flow(&d) - 1e-9;
		snprintf(what, sizeof what, "trial %d (%d servers, %d leaves %s, %d spines%s%s)", trial, n, leaves,
			 wiring_names[wl], spines, core ? ", core" : "", het ? ", unequal" : "");
		exact += against_brute(&f, want, what);
		design_free(&d);
	}
	/* (Not vacuous: in many the worst cut is not the split by rank.) */
	cr_assert_gt(exact, 125, "%d of 150 exact", exact);
	cr_assert_gt(inside, 15, "%d of 150 below the split by rank", inside);
	cr_log_info("%d of 150 exact, %d below the split by rank", exact, inside);
}

/* Every group on a leaf switch group of its own (as the bench's 1,000-group design: pods
 * of their own leaf under a shared spine, maybe a core), some sharing one with the group
 * before: the bisection takes a group's own leaves as runs, the shared ones one by one,
 * and must find the same least split. */
Test(bisect, own_leaf_groups_match_every_split)
{
	int trial, exact = 0, own = 0;
	for (trial = 0; trial < 100; trial++) {
		struct design d;
		struct fabric f;
		char what[200];
		int n = 2 + rnd(8), spines = 1 + rnd(3), i, wl = rnd(3);
		bool het = rnd(3) == 0, core = spines > 1 && rnd(2), shared = rnd(2);
		char name[16], leaf[16];
		double want;
		design_init(&d);
		SETS(d.name, "own");
		add_one_server_groups(&d, n, het);
		add_switches(&d, "spine", ROLE_SPINE, spines, "sw64x400");
		if (core)
			add_switches(&d, "core", ROLE_CORE, 2, "sw64x400");
		/* Leaf group i, or (shared) the one before it for every third group. */
		for (i = 0; i < n; i++) {
			bool with_prev = shared && i % 3 == 2;
			snprintf(name, sizeof name, "g%d", i);
			snprintf(leaf, sizeof leaf, "l%d", with_prev ? i - 1 : i);
			if (!with_prev) {
				add_switches(&d, leaf, ROLE_LEAF, 1, "sw64x400");
				own += !(shared && i % 3 == 1);
			}
			add_bundle(&d, name, leaf, het && i % 3 == 0 ? 2 : 4, WIRE_TOR);
		}
		for (i = 0; i < n; i++)
			if (!(shared && i % 3 == 2)) {
				snprintf(leaf, sizeof leaf, "l%d", i);
				add_bundle(&d, leaf, "spine", spines * (1 + (i + trial) % 2),
					   wl == 0 ? WIRE_TOR : wl == 1 ? WIRE_SPREAD : WIRE_RAIL);
			}
		if (core)
			add_bundle(&d, "spine", "core", 2 * (1 + rnd(2)), WIRE_SPREAD);
		job(&d);
		f = bis(&d);
		want = brute_by_rank(&d, n);
		snprintf(what, sizeof what, "trial %d (%d servers, %d spines %s%s%s%s)", trial, n, spines,
			 wiring_names[wl == 0 ? WIRE_TOR : wl == 1 ? WIRE_SPREAD : WIRE_RAIL], core ? ", core" : "",
			 het ? ", unequal" : "", shared ? ", some shared" : "");
		exact += against_brute(&f, want, what);
		design_free(&d);
	}
	cr_assert_gt(exact, 80, "%d of 100 exact", exact);
	cr_assert_gt(own, 200, "%d groups on a leaf group of their own", own);
	cr_log_info("%d of 100 exact", exact);
}

/* Groups alike interleaved with groups that differ: every group on a leaf of its own, the
 * leaves over two spine groups (alternating, in runs of two, or at random), each leaf with
 * its own number of uplinks (fewer than the spines: leaves of one spine group in different
 * units), under one core. The bisection reuses a group's chain to the top for the next
 * group whose levels above the leaf and their components are the same; a group of the
 * other spine group, or of another unit, must not get it. */
Test(bisect, alike_groups_interleaved_match_every_split)
{
	int trial, exact = 0;
	for (trial = 0; trial < 120; trial++) {
		struct design d;
		struct fabric f;
		char what[200];
		int n = 3 + rnd(7), sa = 1 + rnd(4), sb = 1 + rnd(4), pattern = rnd(3), i;
		int wl = rnd(2) ? WIRE_TOR : rnd(2) ? WIRE_RAIL : WIRE_SPREAD;
		bool het = rnd(4) == 0;
		char name[16], leaf[16];
		double want;
		design_init(&d);
		SETS(d.name, "alike");
		add_one_server_groups(&d, n, het);
		add_switches(&d, "sa", ROLE_SPINE, sa, "sw64x400");
		add_switches(&d, "sb", ROLE_SPINE, sb, "sw64x400");
		add_switches(&d, "core", ROLE_CORE, 2, "sw64x400");
		for (i = 0; i < n; i++) {
			bool to_b = pattern == 0 ? i % 2 : pattern == 1 ? (i / 2) % 2 : rnd(2);
			int spines = to_b ? sb : sa;
			snprintf(name, sizeof name, "g%d", i);
			snprintf(leaf, sizeof leaf, "l%d", i);
			add_switches(&d, leaf, ROLE_LEAF, 1, "sw64x400");
			add_bundle(&d, name, leaf, het && i % 3 == 0 ? 2 : 4, WIRE_TOR);
			/* Top-of-rack: each spine takes the leaves its ports hold (a unit); spread or
			 * rails: every spine of the group. */
			add_bundle(&d, leaf, to_b ? "sb" : "sa", wl == WIRE_TOR ? 8 * (1 + rnd(4)) : spines * (1 + rnd(2)), wl);
		}
		add_bundle(&d, "sa", "core", 1 + rnd(3), WIRE_SPREAD);
		add_bundle(&d, "sb", "core", 1 + rnd(3), WIRE_SPREAD);
		job(&d);
		f = bis(&d);
		want = brute_by_rank(&d, n);
		snprintf(what, sizeof what, "trial %d (%d servers, spines %d/%d %s, pattern %d%s)", trial, n, sa, sb,
			 wiring_names[wl], pattern, het ? ", unequal" : "");
		exact += against_brute(&f, want, what);
		design_free(&d);
	}
	cr_assert_gt(exact, 100, "%d of 120 exact", exact);
	cr_log_info("%d of 120 exact", exact);
}

/* Two switch planes (every server's NICs split over two leaf groups): the same split
 * applies to both. Alike planes (the same leaves and uplinks) are exact; planes of
 * different shapes give the sum of each one's worst cut, at most the minimum. */
Test(bisect, random_planes_against_every_split)
{
	int trial, exact = 0, lower = 0, tight = 0;
	for (trial = 0; trial < 80; trial++) {
		struct design d;
		struct fabric f;
		int n = 2 + rnd(8), la = 1 + rnd(3), lb = rnd(2) ? la : 1 + rnd(3), i;
		int upa = 1 + rnd(3), upb = la == lb && rnd(2) ? upa : 1 + rnd(3);
		char name[16];
		double want;
		design_init(&d);
		SETS(d.name, "planes");
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof name, "g%d", i);
			add_servers(&d, name, 1, "h100", 8, "cx7-400", 4);
		}
		add_switches(&d, "la", ROLE_LEAF, la, "sw64x400");
		add_switches(&d, "lb", ROLE_LEAF, lb, "sw64x400");
		add_switches(&d, "sa", ROLE_SPINE, 1, "sw64x400");
		add_switches(&d, "sb", ROLE_SPINE, 1, "sw64x400");
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof name, "g%d", i);
			add_bundle(&d, name, "la", 2, WIRE_TOR);
			add_bundle(&d, name, "lb", 2, WIRE_TOR);
		}
		add_bundle(&d, "la", "sa", upa, WIRE_TOR);
		add_bundle(&d, "lb", "sb", upb, WIRE_TOR);
		job(&d);
		f = bis(&d);
		want = brute_by_rank(&d, n);
		if (f.bisection_exact) {
			cr_assert(close_rel(f.bisection_GBps, want, 1e-9), "trial %d (%d servers, leaves %d/%d, up %d/%d): %f vs %f",
				  trial, n, la, lb, upa, upb, f.bisection_GBps, want);
			exact++;
		} else {
			cr_assert_eq(f.bisection_bound, -1);
			cr_assert_leq(f.bisection_GBps, want + 1e-9, "trial %d: a lower bound above the minimum", trial);
			lower++;
			tight += close_rel(f.bisection_GBps, want, 1e-9);
		}
		if (la == lb && upa == upb)
			cr_assert(f.bisection_exact, "trial %d: alike planes", trial);
		design_free(&d);
	}
	cr_assert_gt(exact, 15, "%d exact", exact);
	cr_assert_gt(lower, 15, "%d lower bounds", lower);
	cr_log_info("%d of 80 exact, %d lower bounds (%d of them equal to the minimum)", exact, lower, tight);
}
