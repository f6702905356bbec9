/* topo_build's shortcuts give the graph the long way gives: a plane's chain above a level
 * copied (with its hashing and its hash) from the last plane that reached that level in
 * the same state, bundle ends found by guessing the group after the last one (names
 * compared 8 bytes at a time), a server group's hardware and a switch group's part taken
 * from the alike group before it, leaf ranges sorted only when out of order.
 * Each test builds one design two ways, one of which defeats the shortcut, and compares
 * the tables field by field; the levels are checked against hand-computed values. */
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

/* Two levels the same in every field (not as bytes: their padding is nobody's). */
static bool level_equal(const struct topo_level *a, const struct topo_level *b)
{
	return a->sw == b->sw && a->order == b->order && a->size == b->size && a->shift == b->shift &&
	       a->modulus == b->modulus && a->base == b->base && a->rails == b->rails && a->rail_mod == b->rail_mod &&
	       a->rail_block == b->rail_block && a->rail_groups == b->rail_groups && a->switches == b->switches &&
	       a->uplinks == b->uplinks && a->link_GBps == b->link_GBps && a->hash == b->hash &&
	       a->hash_links == b->hash_links && a->lag == b->lag && a->up_bundle == b->up_bundle && a->peer == b->peer &&
	       a->pair_links == b->pair_links;
}

/* Two planes the same in every field, every level up to TOPO_MAX_LEVELS (past the top:
 * zero in both). */
static bool plane_equal(const struct topo_plane *a, const struct topo_plane *b)
{
	int lv;
	if (a->kind != b->kind || a->bundle != b->bundle || a->net != b->net || a->leaf != b->leaf ||
	    a->links != b->links || a->port_base != b->port_base || a->gbps != b->gbps || a->pos != b->pos ||
	    a->wiring != b->wiring || a->lag != b->lag || a->lag_size != b->lag_size || a->nlevels != b->nlevels ||
	    a->mesh_peers != b->mesh_peers || a->levels_hash != b->levels_hash)
		return false;
	for (lv = 0; lv < TOPO_MAX_LEVELS; lv++)
		if (!level_equal(&a->level[lv], &b->level[lv]))
			return false;
	return true;
}

/* Two switch groups' summaries the same in every field. */
static bool switch_equal(const struct topo_switch *s, const struct topo_switch *v)
{
	return s->members == v->members && s->tier == v->tier && s->down_GBps == v->down_GBps &&
	       s->up_GBps == v->up_GBps && s->down_gbps == v->down_gbps && s->up_gbps == v->up_gbps && s->lag == v->lag &&
	       s->protocol == v->protocol && s->ar == v->ar && s->known == v->known && s->sharp == v->sharp &&
	       s->peer_class == v->peer_class;
}

static const struct topo_ngroup *group_named(const struct topo *t, const char *name)
{
	int i;
	for (i = 0; i < t->nng; i++)
		if (!strcmp(t->ng[i].name, name))
			return &t->ng[i];
	return NULL;
}

/* Group `name` of builds t and u (one design written two ways), each with one plane: the
 * same plane, shape and NCCL node in both. Returns t's. */
static const struct topo_ngroup *same_one_plane_group(const struct topo *t, const struct topo *u, const char *name)
{
	const struct topo_ngroup *g = group_named(t, name), *h = group_named(u, name);
	cr_assert(g && h, "%s", name);
	cr_assert_eq(g->nplanes, 1, "%s", name);
	cr_assert_eq(h->nplanes, 1, "%s", name);
	cr_expect(plane_equal(g->plane, h->plane), "%s: planes differ", name);
	cr_expect_eq(g->shape, h->shape, "%s", name);
	cr_expect_eq(memcmp(&g->nccl, &h->nccl, sizeof g->nccl), 0, "%s: NCCL nodes differ", name);
	return g;
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
		const struct topo_ngroup *g;
		const struct topo_plane *p;
		snprintf(name, sizeof name, "p%d", i);
		/* Same bundles, same positions: the same plane, whichever order built it. */
		g = same_one_plane_group(&t, &u, name);
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
	cr_assert_eq(t.nsw, u.nsw);
	for (i = 0; i < t.nsw; i++)
		cr_expect(switch_equal(&t.sw[i], &u.sw[i]), "switch group %d", i);
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

#define MIXED 40

/* MIXED pods of 2 H100 servers in three kinds, by pod index i: i mod 3 = 0: 8 x cx7-400
 * (InfiniBand, adaptive), 1: 8 x cx7-400-gen3 (InfiniBand, not adaptive), 2: 4 x cx7-400.
 * Pod i is ToR-wired by 8 links to leaf group i (one sw64x400, breakout 1 for even i, 2
 * for odd: 400G or 200G ports), each leaf rail-wired by 16 links to a spine of 32, the
 * spine spread by 16 links over a core of 16; adaptive routing. Names are long and share
 * their first 8 bytes ("podgroup07", "leafswitch07"). Bundles are written pod by pod,
 * then leaf by leaf, then the spine's; the servers are listed by kind (alike groups next
 * to each other: the build shares their hardware and chains) or in pod order (every
 * group next to ones of another kind: nothing is shared but chains of one kind). */
static void mixed(struct design *d, bool by_kind)
{
	static const char *const nic[3] = { "cx7-400", "cx7-400-gen3", "cx7-400" };
	static const int nics[3] = { 8, 8, 4 };
	int i, k;
	char a[32], b[32];
	design_init(d);
	SETS(d->name, "mixed");
	for (k = 0; k < (by_kind ? 3 : 1); k++)
		for (i = 0; i < MIXED; i++) {
			if (by_kind && i % 3 != k)
				continue;
			snprintf(a, sizeof a, "podgroup%02d", i);
			add_servers(d, a, 2, "h100", 8, nic[i % 3], nics[i % 3]);
		}
	add_switches(d, "spine", ROLE_SPINE, 32, "sw64x400");
	add_switches(d, "core", ROLE_CORE, 16, "sw64x400");
	for (i = 0; i < MIXED; i++) {
		snprintf(b, sizeof b, "leafswitch%02d", i);
		add_switches(d, b, ROLE_LEAF, 1, "sw64x400");
		DESIGN_SWITCH(d, d->switches.n - 1)->breakout = 1 + i % 2;
	}
	for (i = 0; i < MIXED; i++) {
		snprintf(a, sizeof a, "podgroup%02d", i);
		snprintf(b, sizeof b, "leafswitch%02d", i);
		add_bundle(d, a, b, 8, WIRE_TOR);
	}
	for (i = 0; i < MIXED; i++) {
		snprintf(b, sizeof b, "leafswitch%02d", i);
		add_bundle(d, b, "spine", 16, WIRE_RAIL);
	}
	add_bundle(d, "spine", "core", 16, WIRE_SPREAD);
	job(d);
	d->fabric.routing = ROUTE_ADAPTIVE;
}

/* The hardware of a server group taken from the alike one before it (same_server_bytes),
 * a switch group's part and port speed from the one before of the same model, a chain of
 * levels with its hashing copied from an alike group's, bundle ends guessed by name: each
 * gives the tables of a build in which no neighbour is alike, and the hand-computed ones. */
Test(topo_build, alike_neighbours_share_what_they_have_in_common_and_nothing_else)
{
	struct design d, e;
	struct topo t, u;
	int i;
	mixed(&d, true);
	mixed(&e, false);
	cr_assert(design_names_unique(&d));
	topo_build(&d, &cat, 0, &t);
	topo_build(&e, &cat, 0, &u);
	cr_assert_eq(t.nng, MIXED);
	cr_assert_eq(u.nng, MIXED);
	for (i = 0; i < MIXED; i++) {
		char name[32];
		const struct topo_ngroup *g, *h;
		const struct topo_plane *p;
		snprintf(name, sizeof name, "podgroup%02d", i);
		g = same_one_plane_group(&t, &u, name);
		h = group_named(&u, name);
		cr_expect_eq(g->gpu, h->gpu, "%s", name);
		cr_expect_eq(g->ports, h->ports, "%s", name);
		cr_expect_eq(g->wired, h->wired, "%s", name);
		cr_expect_eq(g->port_gbps, h->port_gbps, "%s", name);
		cr_expect_eq(g->slot_GBps, h->slot_GBps, "%s", name);
		cr_expect_eq(g->ceiling_GBps, h->ceiling_GBps, "%s", name);
		cr_expect_eq(g->cards, h->cards, "%s", name);
		cr_expect_eq(g->nic_ar, h->nic_ar, "%s", name);
		cr_expect_eq(g->nic_sharp, h->nic_sharp, "%s", name);
		/* By hand: pod i on leaf group i (design index 2 + i), 8 or 4 ports of 400G
		 * NICs, on 400G leaf ports (even i) or 200G (odd: breakout 2). */
		p = g->plane;
		cr_expect_eq(p->bundle, i, "%s", name);
		cr_expect_eq(p->leaf, 2 + i, "%s", name);
		cr_expect_eq(p->gbps, i % 2 ? 200 : 400, "%s", name);
		cr_expect_eq(g->port_gbps, i % 2 ? 200 : 400, "%s", name);
		cr_expect_eq(g->ports, i % 3 == 2 ? 4 : 8, "%s", name);
		cr_expect_eq(g->wired, i % 3 == 2 ? 4 : 8, "%s", name);
		cr_expect_eq(g->nic_ar, i % 3 != 1, "%s", name);
		cr_expect_eq(g->gpu, &VEC_AT(cat.gpus, struct cat_gpu, 1), "%s: h100", name);
		/* Levels: the leaf (16 uplinks), the spine's rail unit floor(i / 20) (16 uplinks
		 * to the core), the core. Adaptive routing on adaptive switches: fluid where
		 * the NICs take packets out of order, the subnet manager's static routes where
		 * they do not. */
		cr_assert_eq(p->nlevels, 3, "%s", name);
		cr_expect_eq(p->level[0].sw, 2 + i, "%s", name);
		cr_expect_eq(p->level[0].uplinks, 16, "%s", name);
		cr_expect_eq(p->level[1].sw, 0, "%s", name);
		cr_expect_eq(p->level[1].base, i / 20, "%s", name);
		cr_expect_eq(p->level[1].uplinks, 16, "%s", name);
		cr_expect_eq(p->level[2].sw, 1, "%s", name);
		cr_expect_eq(p->level[2].uplinks, 0, "%s", name);
		cr_expect_eq(p->level[0].hash, i % 3 != 1 ? HASH_FLUID : HASH_IB_STATIC, "%s", name);
		cr_expect_eq(p->level[1].hash, i % 3 != 1 ? HASH_FLUID : HASH_IB_STATIC, "%s", name);
		cr_expect_eq(p->level[2].hash, HASH_NONE, "%s", name);
		cr_expect_eq(p->mesh_peers, 0, "%s: a switch plane reaches no mesh peers", name);
	}
	cr_assert_eq(t.nsw, u.nsw);
	for (i = 0; i < t.nsw; i++)
		cr_expect(switch_equal(&t.sw[i], &u.sw[i]), "switch group %d", i);
	for (i = 0; i < MIXED; i++) {
		/* Leaf group i: one switch, 2 servers x 8 links down at its port speed. */
		const struct topo_switch *s = &t.sw[2 + i];
		cr_expect_eq(s->down_gbps, i % 2 ? 200 : 400, "leaf %d", i);
		cr_expect_eq(s->down_GBps, 2 * 8 * (i % 2 ? 200 : 400) / 8.0, "leaf %d", i);
	}
	cr_expect_eq(t.nproblems, u.nproblems);
	topo_free(&t);
	topo_free(&u);
	design_free(&d);
	design_free(&e);
}

/* A name shortened in place keeps bytes past its end (the designer renames in place): the
 * group is still the one the bundle names, whichever way its name is compared. */
Test(topo_build, a_name_shortened_in_place_is_still_found)
{
	struct design d, e;
	struct topo t, u;
	int i;
	pods(&d, false);
	pods(&e, false);
	for (i = 0; i < PODS; i++) {
		/* "p7" written over a longer name: "p7\0stale" in the array */
		struct server_group *g = DESIGN_SERVER(&e, i);
		struct switch_group *s = DESIGN_SWITCH(&e, 1 + i);
		char keep[NCF_NAME_MAX];
		memcpy(keep, g->name, sizeof keep);
		memcpy(g->name + strlen(keep) + 1, "stale", 6);
		memcpy(keep, s->name, sizeof keep);
		memcpy(s->name + strlen(keep) + 1, "stale", 6);
		snprintf(g->gpu, sizeof g->gpu, "h100-stale");
		g->gpu[4] = '\0';
	}
	topo_build(&d, &cat, 0, &t);
	topo_build(&e, &cat, 0, &u);
	cr_assert_eq(t.nng, PODS);
	cr_assert_eq(u.nng, PODS);
	for (i = 0; i < PODS; i++) {
		cr_expect_str_eq(t.ng[i].name, u.ng[i].name);
		cr_assert_eq(u.ng[i].nplanes, 1, "%s", u.ng[i].name);
		cr_expect(plane_equal(t.ng[i].plane, u.ng[i].plane), "%s", u.ng[i].name);
		cr_expect_eq(memcmp(&t.ng[i].nccl, &u.ng[i].nccl, sizeof t.ng[i].nccl), 0, "%s", u.ng[i].name);
		cr_expect_eq(u.ng[i].gpu, t.ng[i].gpu, "%s", u.ng[i].name);
		cr_expect_eq(u.ng[i].shape, t.ng[i].shape, "%s", u.ng[i].name);
	}
	cr_expect_eq(t.layout, u.layout);
	topo_free(&t);
	topo_free(&u);
	design_free(&d);
	design_free(&e);
}
