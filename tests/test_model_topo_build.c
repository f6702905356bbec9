/* topo_build's shortcuts give the graph the long way gives: a plane's chain above a level
 * copied from the last plane that reached that level in the same state, bundle ends found
 * by guessing the group after the last one, leaf ranges sorted only when out of order.
 * Each test builds one design two ways, one of which defeats the shortcut, and compares
 * the tables byte for byte; the levels are checked against hand-computed values. */
#include <criterion/criterion.h>
#include "fixtures.h"
#include "topo_helpers.h"
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

TestSuite(topo_build, .init = setup, .fini = teardown);

#define PODS 40

/* PODS pods of 2 H100 servers with 8 x 400G NICs, pod i ToR-wired to leaf group li (one
 * switch), each leaf rail-wired by 16 links to a spine of 32 switches. The bundles are
 * written pod by pod, then leaf by leaf. Servers are listed in pod order, or interleaved
 * (p0, p20, p1, p21, ...): then the node groups are built alternating between the spine's
 * two rail units, and no plane starts its spine level in the state of the plane before. */
static void pods(struct design *d, bool interleaved)
{
	int i;
	char a[16], b[16];
	design_init(d);
	SETS(d->name, "pods");
	for (i = 0; i < PODS; i++) {
		int k = interleaved ? (i % 2 ? PODS / 2 + i / 2 : i / 2) : i;
		snprintf(a, sizeof a, "p%d", k);
		add_servers(d, a, 2, "h100", 8, "cx7-400e", 8);
	}
	add_switches(d, "spine", ROLE_SPINE, 32, "eth64x400");
	for (i = 0; i < PODS; i++) {
		snprintf(b, sizeof b, "l%d", i);
		add_switches(d, b, ROLE_LEAF, 1, "eth64x400");
	}
	for (i = 0; i < PODS; i++) {
		snprintf(a, sizeof a, "p%d", i);
		snprintf(b, sizeof b, "l%d", i);
		add_bundle(d, a, b, 8, WIRE_TOR);
	}
	for (i = 0; i < PODS; i++) {
		snprintf(b, sizeof b, "l%d", i);
		add_bundle(d, b, "spine", 16, WIRE_RAIL);
	}
	job(d);
}

static const struct topo_ngroup *group_named(const struct topo *t, const char *name)
{
	int i;
	for (i = 0; i < t->nng; i++)
		if (!strcmp(t->ng[i].name, name))
			return &t->ng[i];
	return NULL;
}

Test(topo_build, a_chain_copied_from_the_last_alike_pod_is_the_one_made_afresh)
{
	struct design d, e;
	struct topo t, u;
	int i;
	pods(&d, false);
	pods(&e, true);
	topo_build(&d, &cat, 0, &t);
	topo_build(&e, &cat, 0, &u);
	cr_assert_eq(t.nng, PODS);
	cr_assert_eq(u.nng, PODS);
	/* The one problem: two rail units with nothing above them are not connected. */
	cr_expect_eq(t.nproblems, 1);
	cr_expect_eq(u.nproblems, 1);
	cr_expect_str_eq(t.problems[0].path, "job");
	cr_expect_str_eq(u.problems[0].path, "job");
	for (i = 0; i < PODS; i++) {
		char name[16];
		const struct topo_ngroup *g, *h;
		const struct topo_plane *p;
		snprintf(name, sizeof name, "p%d", i);
		g = group_named(&t, name);
		h = group_named(&u, name);
		cr_assert(g && h, "%s", name);
		cr_assert_eq(g->nplanes, 1, "%s", name);
		cr_assert_eq(h->nplanes, 1, "%s", name);
		/* Same bundles, same positions: the same plane, whichever order built it. */
		cr_expect_eq(memcmp(g->plane, h->plane, sizeof *g->plane), 0, "%s: planes differ", name);
		cr_expect_eq(g->shape, h->shape, "%s", name);
		cr_expect_eq(memcmp(&g->nccl, &h->nccl, sizeof g->nccl), 0, "%s", name);
		p = g->plane;
		/* Bundle i (pod i to leaf i) reaches switch group l_i, design index 1 + i. */
		cr_expect_eq(p->bundle, i, "%s", name);
		cr_expect_eq(p->leaf, 1 + i, "%s", name);
		cr_expect_eq(p->pos, 0, "%s", name);
		cr_assert_eq(p->nlevels, 2, "%s", name);
		/* Level 1: the pod's one leaf switch joins its 2 servers, 16 uplinks. */
		cr_expect_eq(p->level[0].sw, 1 + i);
		cr_expect_eq(p->level[0].size, TOPO_ALL);
		cr_expect_eq(p->level[0].switches, 1);
		cr_expect_eq(p->level[0].uplinks, 16);
		cr_expect_eq(p->level[0].up_bundle, PODS + i);
		/* Level 2: 32 spines / 16 links = 2 rail units of 16 switches; 40 leaves, 20 a
		 * unit: leaf i is in unit floor(i / 20), the top. */
		cr_expect_eq(p->level[1].sw, 0);
		cr_expect_eq(p->level[1].base, i / 20, "%s", name);
		cr_expect_eq(p->level[1].switches, 16);
		cr_expect_eq(p->level[1].uplinks, 0);
		cr_expect_eq(p->level[1].up_bundle, -1);
	}
	cr_expect_not(t.connected);
	cr_expect_not(u.connected);
	cr_expect_eq(t.npeers, 0);
	cr_expect_eq(memcmp(t.sw, u.sw, (size_t)t.nsw * sizeof *t.sw), 0);
	topo_free(&t);
	topo_free(&u);
	design_free(&d);
	design_free(&e);
}

/* Servers s0, s1 and a second s1; two bundles from "s1", to leaves f1 and f2, and 16 more
 * leaves (past 16 groups the design's names are indexed, and guessed when unique). The
 * first s1 counts (check.c reports the second): the guess "the group after the last one
 * found" would take the second s1 for the second bundle. */
Test(topo_build, a_name_taken_twice_is_the_first_group_of_that_name)
{
	struct design d;
	struct topo t;
	int i;
	design_init(&d);
	SETS(d.name, "dups");
	add_servers(&d, "s0", 1, "h100", 8, "cx7-400e", 8);
	add_servers(&d, "s1", 1, "h100", 8, "cx7-400e", 8);
	add_servers(&d, "s1", 1, "h100", 8, "cx7-400e", 8);
	add_switches(&d, "f1", ROLE_LEAF, 1, "eth64x400");
	add_switches(&d, "f2", ROLE_LEAF, 1, "eth64x400");
	for (i = 0; i < 16; i++) {
		char name[16];
		snprintf(name, sizeof name, "x%d", i);
		add_switches(&d, name, ROLE_LEAF, 1, "eth64x400");
	}
	add_bundle(&d, "s0", "f1", 4, WIRE_TOR);
	add_bundle(&d, "s1", "f1", 4, WIRE_TOR);
	add_bundle(&d, "s1", "f2", 4, WIRE_TOR);
	job(&d);
	topo_build(&d, &cat, 0, &t);
	cr_assert_eq(t.nng, 3);
	cr_expect_eq(t.ng[0].nplanes, 1);
	cr_expect_eq(t.ng[1].nplanes, 2, "both bundles from the first s1");
	cr_expect_eq(t.ng[2].nplanes, 0, "none from the second");
	/* Positions in f1: s0 first, then the first s1 (1 server each). */
	cr_expect_eq(t.ng[1].plane[0].leaf, 0);
	cr_expect_eq(t.ng[1].plane[0].pos, 1);
	cr_expect_eq(t.ng[1].plane[1].leaf, 1);
	topo_free(&t);
	design_free(&d);
}

/* Groups of 2 servers ToR-wired to one leaf group of as many switches: D = 2 x groups
 * positions, 2 a switch, so group k has switch k to itself. job.groups places them in
 * leaf order or out of it (then the ranges are sorted): apart either way. */
static void shared_leaf(struct design *d, int groups, const char *order)
{
	int i;
	char a[16];
	design_init(d);
	SETS(d->name, "leaf");
	for (i = 0; i < groups; i++) {
		snprintf(a, sizeof a, "p%d", i);
		add_servers(d, a, 2, "h100", 8, "cx7-400e", 8);
	}
	add_switches(d, "f", ROLE_LEAF, groups, "eth64x400");
	for (i = 0; i < groups; i++) {
		snprintf(a, sizeof a, "p%d", i);
		add_bundle(d, a, "f", 8, WIRE_TOR);
	}
	job(d);
	SETS(d->job.groups, order);
}

Test(topo_build, leaves_apart_in_any_placement_order)
{
	static const struct {
		int groups;
		const char *order;
		bool apart;
	} cases[] = {
		{ 2, "p0,p1", true },
		{ 2, "p1,p0", true },
		{ 3, "p2,p0,p1", true },
	};
	size_t k;
	for (k = 0; k < sizeof cases / sizeof *cases; k++) {
		struct design d;
		struct topo t;
		shared_leaf(&d, cases[k].groups, cases[k].order);
		topo_build(&d, &cat, 0, &t);
		cr_expect_eq(topo_leaves_apart(&t, 0), cases[k].apart, "%s", cases[k].order);
		topo_free(&t);
		design_free(&d);
	}
}
