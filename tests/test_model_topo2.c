/* The topology engine against the cabling the WIRING rules define, on the shapes a
 * fresh-eyes review found it wrong on (notes/review findings 1-13): planes matched by the
 * network they reach, ring hops counted where the rank order leaves a leaf, peer links
 * from either end, interleaved spread wiring, rail groups in one block, switch ports of
 * many groups, heterogeneous point-to-point, meshes that link only the pairs they name,
 * all-to-all on leaves that several groups share, nodes without a network, job.groups.
 * Every expected value is computed by hand in the comment above its assertion. */
#include <criterion/criterion.h>
#include <math.h>
#include "fixtures.h"
#include "topo_helpers.h"
#include "model/congest.h"
#include "model/topo.h"

static struct catalog cat;
static struct metrics ma, mb;

static void setup(void)
{
	fx_catalog(&cat);
}

static void teardown(void)
{
	catalog_free(&cat);
}

TestSuite(topo2, .init = setup, .fini = teardown);

#define GiB (1024.0 * 1024 * 1024)

static const struct algo_result *algo(const struct metrics *m, int c, int u)
{
	return &m->colls[c].algo[u];
}

static bool has_problem(const struct metrics *m, int severity, const char *path, const char *text)
{
	int i;
	for (i = 0; i < m->fabric.nproblems; i++)
		if (m->fabric.problems[i].severity == severity && !strcmp(m->fabric.problems[i].path, path) &&
		    strstr(m->fabric.problems[i].msg, text))
			return true;
	return false;
}

/* ---- 1: planes are matched by the network they reach ----------------------------------- */

/* Two groups of 2 H100 servers with 8 x 400G RoCE NICs, 4 to leaf f1 and 4 to leaf f2 (one
 * switch each); group b writes its bundles in the other order. */
static void two_planes(struct design *d, bool b_reversed)
{
	design_init(d);
	SETS(d->name, "planes");
	add_servers(d, "a", 2, "h100", 8, "cx7-400e", 8);
	add_servers(d, "b", 2, "h100", 8, "cx7-400e", 8);
	add_switches(d, "f1", ROLE_LEAF, 1, "eth64x400");
	add_switches(d, "f2", ROLE_LEAF, 1, "eth64x400");
	add_bundle(d, "a", "f1", 4, WIRE_TOR);
	add_bundle(d, "a", "f2", 4, WIRE_TOR);
	add_bundle(d, "b", b_reversed ? "f2" : "f1", 4, WIRE_TOR);
	add_bundle(d, "b", b_reversed ? "f1" : "f2", 4, WIRE_TOR);
	job(d);
}

Test(topo2, planes_are_matched_by_the_network_they_reach)
{
	struct design a, b;
	two_planes(&a, false);
	two_planes(&b, true);
	metrics_compute(&a, &cat, GiB, 0, &ma);
	metrics_compute(&b, &cat, GiB, 0, &mb);
	cr_assert(mb.fabric.connected, "%s", mb.fabric.note);
	/* Bisection: a's two nodes against b's; on each leaf every node has 4 x 50 = 200 GB/s
	 * (half its 400 GB/s ceiling), the halves exchange 2 x 200 there: 400 per leaf, 800. */
	cr_assert_float_eq(mb.fabric.bisection_GBps, 800, 1e-9);
	cr_assert_float_eq(algo(&mb, COLL_ALLREDUCE, UA_RING)->loss.factor, 1, 1e-12);
	same_numbers(&ma, &mb, "f1, f2 vs f2, f1");
	design_free(&a);
	design_free(&b);
}

/* ---- 2: ring hops where the rank order leaves a leaf ------------------------------------- */

/* Three groups of 2 H100 servers, one 400G InfiniBand NIC each, on 2 leaves of an adaptive
 * fabric (tor: 3 positions per leaf), each leaf with one 400G uplink to one spine. `order`
 * is the order the groups' bundles are written in (their positions on the leaves). */
static void three_groups(struct design *d, const char *order, const char *groups)
{
	int i;
	char name[2] = { 0, 0 };
	design_init(d);
	SETS(d->name, "order");
	add_servers(d, "a", 2, "h100", 8, "cx7-400", 1);
	add_servers(d, "b", 2, "h100", 8, "cx7-400", 1);
	add_servers(d, "c", 2, "h100", 8, "cx7-400", 1);
	add_switches(d, "l", ROLE_LEAF, 2, "sw64x400");
	add_switches(d, "sp", ROLE_SPINE, 1, "sw64x400");
	for (i = 0; order[i]; i++) {
		name[0] = order[i];
		add_bundle(d, name, "l", 1, WIRE_TOR);
	}
	add_bundle(d, "l", "sp", 1, WIRE_SPREAD);
	d->fabric.routing = ROUTE_ADAPTIVE;
	job(d);
	SETS(d->job.groups, groups);
}

Test(topo2, ring_hops_leave_where_the_rank_order_crosses_leaves)
{
	struct design abc, acb, acb_ranked;
	const struct algo_result *ring;
	three_groups(&abc, "abc", "");
	three_groups(&acb, "acb", "");
	three_groups(&acb_ranked, "acb", "a, c, b");
	metrics_compute(&acb, &cat, GiB, 0, &ma);
	/* NCCL: one 50 GB/s NIC behind PCIe Gen5 (48): the node sends B = 2 x 24 = 48 GB/s per
	 * ring hop. Wired a, c, b, leaf 0 holds a0 a1 c0 and leaf 1 c1 b0 b1; the ring a0 a1 b0
	 * b1 c0 c1 leaves leaf 0 twice (a1 -> b0, c0 -> c1): 2 x 48 = 96 GB/s into one 50 GB/s
	 * uplink, adaptive (no hashing): 50 / 96 = 0.5208. */
	cr_assert_float_eq(ma.nccl.ring.c * ma.nccl.ring.be, 48, 1e-9);
	ring = algo(&ma, COLL_ALLREDUCE, UA_RING);
	cr_assert(close_rel(ring->loss.factor, 50.0 / 96, 1e-9), "ring factor %f, by hand %f", ring->loss.factor,
		  50.0 / 96);
	/* send/recv: the same hops, one GPU pair each at 48 GB/s (one NIC behind Gen5). */
	cr_assert(close_rel(algo(&ma, COLL_SENDRECV, UA_P2P)->loss.factor, 50.0 / 96, 1e-9), "%f",
		  algo(&ma, COLL_SENDRECV, UA_P2P)->loss.factor);
	/* Ranks in wiring order: one hop out of each leaf, 48 GB/s into 50: nothing lost. */
	metrics_compute(&abc, &cat, GiB, 0, &ma);
	cr_assert_float_eq(algo(&ma, COLL_ALLREDUCE, UA_RING)->loss.factor, 1, 1e-12);
	/* The same hardware: b and c are alike, so wiring a, c, b and ranking a, c, b is wiring
	 * and ranking a, b, c. */
	metrics_compute(&acb_ranked, &cat, GiB, 0, &mb);
	same_numbers(&ma, &mb, "abc vs acb ranked a, c, b");
	design_free(&abc);
	design_free(&acb);
	design_free(&acb_ranked);
}

/* ---- 3: peer links, from either end and from a group to itself --------------------------- */

/* 4 H100 servers with 2 x 400G InfiniBand NICs, 2 per leaf (tor), the two leaves joined by
 * `isl` peer links: as one group of 2 switches linked to itself, or as groups l1 and l2
 * (bundle from l1 to l2, or from l2 to l1). */
static void tor_pair(struct design *d, int how, int isl)
{
	design_init(d);
	SETS(d->name, "peer");
	if (how == 0) {
		add_servers(d, "a", 4, "h100", 8, "cx7-400", 2);
		add_switches(d, "l", ROLE_LEAF, 2, "sw64x400");
		add_bundle(d, "a", "l", 2, WIRE_TOR);
		add_bundle(d, "l", "l", isl, WIRE_SPREAD);
	} else {
		add_servers(d, "a", 2, "h100", 8, "cx7-400", 2);
		add_servers(d, "b", 2, "h100", 8, "cx7-400", 2);
		add_switches(d, "l1", ROLE_LEAF, 1, "sw64x400");
		add_switches(d, "l2", ROLE_LEAF, 1, "sw64x400");
		add_bundle(d, "a", "l1", 2, WIRE_TOR);
		add_bundle(d, "b", "l2", 2, WIRE_TOR);
		add_bundle(d, how == 1 ? "l1" : "l2", how == 1 ? "l2" : "l1", isl, WIRE_SPREAD);
	}
	d->fabric.routing = ROUTE_ADAPTIVE;
	job(d);
}

Test(topo2, peer_links_carry_the_ring_from_either_end)
{
	struct design self, fwd, rev;
	double B;
	tor_pair(&self, 0, 4);
	tor_pair(&fwd, 1, 4);
	tor_pair(&rev, 2, 4);
	metrics_compute(&self, &cat, GiB, 0, &ma);
	cr_assert(ma.fabric.connected, "%s", ma.fabric.note);
	/* The ring, send/recv, AllGather and ReduceScatter run: two nodes per leaf, one hop per
	 * channel out of each over the 4 x 50 = 200 GB/s of peer links, more than the node's
	 * ring rate B (2 NICs). */
	B = ma.nccl.ring.c * ma.nccl.ring.be;
	cr_assert_lt(B, 200);
	cr_assert(algo(&ma, COLL_ALLREDUCE, UA_RING)->available);
	cr_assert(algo(&ma, COLL_ALLGATHER, UA_RING)->available);
	cr_assert(algo(&ma, COLL_SENDRECV, UA_P2P)->available);
	cr_assert_float_eq(algo(&ma, COLL_ALLREDUCE, UA_RING)->loss.factor, 1, 1e-12);
	/* Bisection: the halves are the two leaves; they exchange over the 200 GB/s of ISLs. */
	cr_assert_float_eq(ma.fabric.bisection_GBps, 200, 1e-9);
	/* From l1 to l2 or from l2 to l1: the same links. */
	metrics_compute(&fwd, &cat, GiB, 0, &ma);
	metrics_compute(&rev, &cat, GiB, 0, &mb);
	cr_assert_float_eq(ma.fabric.bisection_GBps, 200, 1e-9);
	same_numbers(&ma, &mb, "l1 -> l2 vs l2 -> l1");
	design_free(&self);
	design_free(&fwd);
	design_free(&rev);
	/* One ISL (50 GB/s): the ring's hop out of each leaf runs at 50 / B. */
	tor_pair(&self, 0, 1);
	metrics_compute(&self, &cat, GiB, 0, &ma);
	cr_assert(close_rel(algo(&ma, COLL_ALLREDUCE, UA_RING)->loss.factor, 50 / B, 1e-9), "%f vs %f",
		  algo(&ma, COLL_ALLREDUCE, UA_RING)->loss.factor, 50 / B);
	cr_assert_float_eq(ma.fabric.bisection_GBps, 50, 1e-9);
	design_free(&self);
}

/* ---- 4: interleaved spread wiring ------------------------------------------------------- */

/* 6 H100 servers with one 400G InfiniBand NIC, spread over 2 leaves (server p on leaf
 * p mod 2), each leaf with one uplink of `up_gbps` to one spine; as one group of 6 or two
 * of 3. */
static void interleaved(struct design *d, int groups, int up_gbps)
{
	struct bundle *b;
	design_init(d);
	SETS(d->name, "interleave");
	if (groups == 1) {
		add_servers(d, "a", 6, "h100", 8, "cx7-400", 1);
	} else {
		add_servers(d, "a", 3, "h100", 8, "cx7-400", 1);
		add_servers(d, "b", 3, "h100", 8, "cx7-400", 1);
	}
	add_switches(d, "l", ROLE_LEAF, 2, "sw64x400");
	add_switches(d, "sp", ROLE_SPINE, 1, "sw64x400");
	add_bundle(d, "a", "l", 1, WIRE_SPREAD);
	if (groups == 2)
		add_bundle(d, "b", "l", 1, WIRE_SPREAD);
	b = add_bundle(d, "l", "sp", 1, WIRE_SPREAD);
	b->speed_gbps = up_gbps;
	d->fabric.routing = ROUTE_ADAPTIVE;
	job(d);
}

Test(topo2, interleaved_spread_bisection_and_ring)
{
	struct design one, two;
	int g;
	for (g = 1; g <= 2; g++) {
		interleaved(&one, g, 100);
		metrics_compute(&one, &cat, GiB, 0, &ma);
		cr_assert(ma.fabric.connected, "%s", ma.fabric.note);
		/* Leaf 0 holds nodes 0 2 4, leaf 1 nodes 1 3 5, 50 GB/s each. The worst 3 : 3
		 * cut is the leaves apart: one 12.5 GB/s uplink. (The halves by rank, 0-2 and
		 * 3-5, split both leaves: leaf 0 has A 100 (nodes 0, 2), B 50 (node 4): 50
		 * inside, 50 of A climbs on the uplink; leaf 1 likewise for B; the spine
		 * matches 12.5: 50 + 50 + 12.5 = 112.5, the old figure.) */
		cr_assert_float_eq(ma.fabric.bisection_GBps, 12.5, 1e-9, "%d groups: %f", g, ma.fabric.bisection_GBps);
		cr_assert(ma.fabric.bisection_exact);
		{
			struct topo t;
			topo_build(&one, &cat, 0, &t);
			cr_assert_float_eq(fabric_rank_flow(&t), 112.5, 1e-9);
			topo_free(&t);
		}
		design_free(&one);
	}
	/* 400G uplinks: every ring hop changes leaf, so leaf 0 sends 3 hops of B = 48 GB/s over
	 * 50: 50 / 144 = 0.347, for one group or two. */
	interleaved(&one, 1, 400);
	interleaved(&two, 2, 400);
	metrics_compute(&one, &cat, GiB, 0, &ma);
	metrics_compute(&two, &cat, GiB, 0, &mb);
	cr_assert(close_rel(algo(&ma, COLL_ALLREDUCE, UA_RING)->loss.factor, 50.0 / 144, 1e-9), "%f",
		  algo(&ma, COLL_ALLREDUCE, UA_RING)->loss.factor);
	same_numbers(&ma, &mb, "interleaved 6 vs 3 + 3");
	design_free(&one);
	design_free(&two);
}

/* ---- 5: rail groups inside one block; joins that used to be refused or over-counted ----- */

/* 3 H100 servers with 8 x 400G RoCE NICs on 8 leaves, NIC l on leaf l (written rail or
 * spread: the same cabling), leaves 0-3 on spine 0 and 4-7 on spine 1 (tor, one uplink). */
static void eight_leaves(struct design *d, int wiring, bool pxn)
{
	design_init(d);
	SETS(d->name, "rails");
	add_servers(d, "a", 3, "h100", 8, "cx7-400e", 8);
	add_switches(d, "l", ROLE_LEAF, 8, "eth64x400");
	add_switches(d, "sp", ROLE_SPINE, 2, "eth64x400");
	add_bundle(d, "a", "l", 8, wiring);
	add_bundle(d, "l", "sp", 1, WIRE_TOR);
	d->fabric.pxn = pxn;
	d->fabric.cross_nic = true;
	job(d);
}

Test(topo2, rail_and_spread_onto_as_many_leaves_are_the_same_cabling)
{
	struct design r, s;
	eight_leaves(&r, WIRE_RAIL, false);
	eight_leaves(&s, WIRE_SPREAD, false);
	metrics_compute(&r, &cat, GiB, 0, &ma);
	metrics_compute(&s, &cat, GiB, 0, &mb);
	same_numbers(&ma, &mb, "rail vs spread onto 8 leaves");
	/* Rails 0-3 meet at spine 0, rails 4-7 at spine 1, and nothing joins the spines: 3
	 * nodes is odd, so with NCCL_CROSS_NIC the ring's wrap hop changes rail and has no
	 * path; without PXN neither have send/recv (GPU 7 to GPU 0 of the next node) nor
	 * AllToAll. */
	cr_assert_not(algo(&mb, COLL_ALLREDUCE, UA_RING)->available);
	cr_assert_not(algo(&mb, COLL_SENDRECV, UA_P2P)->available);
	cr_assert(strstr(algo(&mb, COLL_SENDRECV, UA_P2P)->loss.why, "without PXN a pair's GPUs use different rails"),
		  "%s", algo(&mb, COLL_SENDRECV, UA_P2P)->loss.why);
	cr_assert_not(algo(&mb, COLL_ALLTOALL, UA_P2P)->available);
	design_free(&r);
	design_free(&s);
}

Test(topo2, rails_that_never_meet_are_unroutable_without_pxn)
{
	/* 8 servers with 8 NICs spread over 8 leaves (NIC l on leaf l), leaves spread over 8
	 * spines with 4 uplinks: leaf v reaches spines (v mod 2) x 4 + 0..3, so even rails meet
	 * only at spines 0-3, odd ones at 4-7. */
	struct design d;
	design_init(&d);
	SETS(d.name, "never");
	add_servers(&d, "a", 8, "h100", 8, "cx7-400e", 8);
	add_switches(&d, "leaf", ROLE_LEAF, 8, "eth64x400");
	add_switches(&d, "spine", ROLE_SPINE, 8, "eth64x400");
	add_bundle(&d, "a", "leaf", 8, WIRE_SPREAD);
	add_bundle(&d, "leaf", "spine", 4, WIRE_SPREAD);
	d.fabric.pxn = false;
	job(&d);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(ma.fabric.connected, "every rail joins its own nodes");
	cr_assert_not(algo(&ma, COLL_SENDRECV, UA_P2P)->available);
	cr_assert_not(algo(&ma, COLL_ALLTOALL, UA_P2P)->available);
	/* 8 nodes: the ring keeps its rail and runs. */
	cr_assert(algo(&ma, COLL_ALLREDUCE, UA_RING)->available);
	/* With PXN every byte travels on its destination's rail. */
	d.fabric.pxn = true;
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(algo(&ma, COLL_ALLTOALL, UA_P2P)->available);
	cr_assert(algo(&ma, COLL_SENDRECV, UA_P2P)->available);
	design_free(&d);
}

Test(topo2, tor_uplinks_onto_more_spines_reach_one_spine_each)
{
	/* Two leaf groups of one switch, each with one tor uplink into 4 spines: D = 2
	 * positions, per = ceil(2/4) = 1, so la reaches spine 0 and lb spine 1, and nothing
	 * joins spines 0 and 1. */
	struct design d;
	design_init(&d);
	SETS(d.name, "onespine");
	add_servers(&d, "a", 2, "h100", 8, "cx7-400", 1);
	add_servers(&d, "b", 2, "h100", 8, "cx7-400", 1);
	add_switches(&d, "la", ROLE_LEAF, 1, "sw64x400");
	add_switches(&d, "lb", ROLE_LEAF, 1, "sw64x400");
	add_switches(&d, "sp", ROLE_SPINE, 4, "sw64x400");
	add_bundle(&d, "a", "la", 1, WIRE_TOR);
	add_bundle(&d, "b", "lb", 1, WIRE_TOR);
	add_bundle(&d, "la", "sp", 1, WIRE_TOR);
	add_bundle(&d, "lb", "sp", 1, WIRE_TOR);
	job(&d);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert_not(ma.fabric.connected);
	cr_assert(has_problem(&ma, NCF_ERROR, "job", "not connected: group 'a' has no path to group 'b'"), "%s",
		  ma.fabric.note);
	cr_assert_float_eq(ma.fabric.bisection_GBps, 0, 1e-12);
	design_free(&d);
}

/* 4 A100 servers with one 100G RoCE NIC spread over 2 leaves, each leaf with 2 uplinks to
 * one spine, spread or tor (the same cabling: one spine). */
static void two_leaves_one_spine(struct design *d, int up_wiring)
{
	design_init(d);
	SETS(d->name, "spurious");
	add_servers(d, "a", 4, "a100", 8, "cx5-100", 1);
	add_switches(d, "leaf", ROLE_LEAF, 2, "sw32x100");
	add_switches(d, "spine", ROLE_SPINE, 1, "sw32x100");
	add_bundle(d, "a", "leaf", 1, WIRE_SPREAD);
	add_bundle(d, "leaf", "spine", 2, up_wiring);
	job(d);
}

Test(topo2, interleaved_leaves_under_one_spine_are_computed)
{
	struct design a, b;
	struct ncf_diag diag = { 0 };
	two_leaves_one_spine(&a, WIRE_SPREAD);
	two_leaves_one_spine(&b, WIRE_TOR);
	topo_check(&b, &cat, &diag);
	cr_assert_eq(diag_count(&diag), 0, "no 'cannot compute': %s", diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	diag_free(&diag);
	metrics_compute(&a, &cat, GiB, 0, &ma);
	metrics_compute(&b, &cat, GiB, 0, &mb);
	same_numbers(&ma, &mb, "spread vs tor onto one spine");
	/* Bisection: leaf 0 holds nodes 0 and 2, leaf 1 nodes 1 and 3; halves 0-1 and 2-3 of
	 * 12.5 GB/s each: each leaf holds one node of each half, which exchange inside it:
	 * 2 x 12.5 = 25, nothing climbs. */
	cr_assert_float_eq(mb.fabric.bisection_GBps, 25, 1e-9);
	design_free(&a);
	design_free(&b);
}

/* ---- 6: switch ports of many groups ----------------------------------------------------- */

Test(topo2, spread_ports_count_the_links_each_switch_takes)
{
	/* Spread: link l of position p on switch (p L + l) mod n, positions numbered over every
	 * group bundled into the switch group. 64 groups of one server over 2 leaves: the
	 * positions 0..63 alternate, 32 on each (not 64 x ceil(1/2) = 64). */
	struct design d;
	struct ncf_diag diag = { 0 };
	long down, up;
	char name[16];
	int i;
	design_init(&d);
	SETS(d.name, "radix");
	add_switches(&d, "l", ROLE_LEAF, 2, "sw32x100");
	for (i = 0; i < 64; i++) {
		snprintf(name, sizeof name, "g%d", i);
		add_servers(&d, name, 1, "a100", 8, "cx5-100", 1);
		add_bundle(&d, name, "l", 1, WIRE_SPREAD);
	}
	job(&d);
	d.job.dp = 0;
	d.job.gpus = 0;
	switch_ports_used(&d, DESIGN_SWITCH(&d, 0), &down, &up);
	cr_assert_eq(down, 32);
	cr_assert_eq(design_check(&d, &cat, &diag), 0, "32 of 32 ports: %s",
		     diag.n_errors ? diag_get(&diag, 0)->msg : "");
	diag_free(&diag);
	design_free(&d);
	/* Three groups of 21 on 2 leaves: positions 0-20, 21-41, 42-62; switch 0 takes the
	 * even ones, 32 of the 63 (not 3 x 11 = 33). */
	design_init(&d);
	add_switches(&d, "l", ROLE_LEAF, 2, "sw32x100");
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof name, "g%d", i);
		add_servers(&d, name, 21, "a100", 8, "cx5-100", 1);
		add_bundle(&d, name, "l", 1, WIRE_SPREAD);
	}
	job(&d);
	switch_ports_used(&d, DESIGN_SWITCH(&d, 0), &down, &up);
	cr_assert_eq(down, 32);
	design_free(&d);
}

/* ---- 8: heterogeneous point-to-point ------------------------------------------------------ */

/* 2 H100 servers with 8 NICs run at 200G and 2 with 4 NICs at 400G (InfiniBand behind PCIe
 * Gen5), on one adaptive switch; `which`: 0 both, 1 only the first kind, 2 only the second. */
static void het(struct design *d, int which)
{
	design_init(d);
	SETS(d->name, "het");
	if (which != 2)
		VEC_AT(add_servers(d, "a", which ? 4 : 2, "h100", 8, "cx7-400", 8)->nics, struct nic_spec, 0).speed_gbps = 200;
	if (which != 1)
		add_servers(d, "b", which ? 4 : 2, "h100", 8, "cx7-400", 4);
	add_switches(d, "leaf", ROLE_LEAF, 1, "sw64x400");
	if (which != 2)
		add_bundle(d, "a", "leaf", 8, WIRE_TOR);
	if (which != 1)
		add_bundle(d, "b", "leaf", 4, WIRE_TOR);
	d->fabric.routing = ROUTE_ADAPTIVE;
	job(d);
}

Test(topo2, heterogeneous_p2p_runs_at_each_kind_of_node)
{
	struct design d, only_b, only_a;
	double t, busbw;
	het(&d, 0);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(ma.fabric.heterogeneous);
	/* AllToAll: kind a's network is 8 x 25 = 200 GB/s, kind b's 4 x min(50, 48 PCIe) = 192:
	 * b paces it. Per GPU 192/8 = 24, over (N - 1)/(N - ppn) = 31/24 of its peers remote:
	 * busbw 31; algbw 32; t = 8.4 + ceil(31/8) x 14 + 2^30 / (1000 x 32) = 33618.8 us;
	 * busbw = 2^30 / (1000 t) x 31/32 = 30.94 (not 16, from a's 4 ports at a's 25). */
	t = 8.4 + 4 * 14.0 + GiB / (1000 * 32.0);
	busbw = GiB / (1000 * t) * 31 / 32;
	cr_assert(close_rel(algo(&ma, COLL_ALLTOALL, UA_P2P)->busbw_GBps, busbw, 1e-6), "alltoall %f, by hand %f",
		  algo(&ma, COLL_ALLTOALL, UA_P2P)->busbw_GBps, busbw);
	/* send/recv: one GPU pair, one NIC: kind a's 25 GB/s port paces it:
	 * t = 8.4 + 14 + 2^30 / (1000 x 25), busbw = 2^30 / (1000 t) = 24.99. */
	t = 8.4 + 14 + GiB / (1000 * 25.0);
	cr_assert(close_rel(algo(&ma, COLL_SENDRECV, UA_P2P)->busbw_GBps, GiB / (1000 * t), 1e-6), "sendrecv %f",
		  algo(&ma, COLL_SENDRECV, UA_P2P)->busbw_GBps);
	/* Each is what the pacing kind alone gives. */
	het(&only_b, 2);
	metrics_compute(&only_b, &cat, GiB, 0, &mb);
	cr_assert(close_rel(algo(&ma, COLL_ALLTOALL, UA_P2P)->busbw_GBps, algo(&mb, COLL_ALLTOALL, UA_P2P)->busbw_GBps,
			    1e-9));
	het(&only_a, 1);
	metrics_compute(&only_a, &cat, GiB, 0, &mb);
	cr_assert(close_rel(algo(&ma, COLL_SENDRECV, UA_P2P)->busbw_GBps, algo(&mb, COLL_SENDRECV, UA_P2P)->busbw_GBps,
			    1e-9));
	design_free(&d);
	design_free(&only_a);
	design_free(&only_b);
}

/* ---- 9: meshes link only the pairs they name ----------------------------------------------- */

static void mesh_groups(struct design *d, bool full)
{
	design_init(d);
	SETS(d->name, "mesh");
	add_servers(d, "a", 2, "h100", 8, "cx7-400e", 4);
	add_servers(d, "b", 2, "h100", 8, "cx7-400e", 4);
	if (full) {
		add_bundle(d, "a", "a", 1, WIRE_MESH);
		add_bundle(d, "b", "b", 1, WIRE_MESH);
		add_bundle(d, "a", "b", 1, WIRE_MESH);
	} else {
		add_bundle(d, "a", "b", 2, WIRE_MESH);
	}
	job(d);
}

Test(topo2, a_mesh_between_two_groups_does_not_link_either_group_inside)
{
	struct design d;
	mesh_groups(&d, false);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	/* a0-a1 and b0-b1 have no link, and servers do not forward. */
	cr_assert_not(ma.fabric.connected);
	cr_assert(has_problem(&ma, NCF_ERROR, "job",
			      "not connected: the servers of 'a' are not linked to each other (a mesh links only the groups it names)"),
		  "%s", ma.fabric.note);
	cr_assert_not(algo(&ma, COLL_ALLREDUCE, UA_RING)->available);
	cr_assert_not(algo(&ma, COLL_ALLREDUCE, UA_TREE)->available);
	cr_assert_not(algo(&ma, COLL_ALLTOALL, UA_P2P)->available);
	/* Bisection: a's two nodes against b's: 4 linked pairs of 2 x 50 GB/s = 400, what the
	 * two nodes of a side can send (4 x 50 each). */
	cr_assert_float_eq(ma.fabric.bisection_GBps, 400, 1e-9);
	design_free(&d);
}

Test(topo2, a_full_mesh_written_as_three_bundles)
{
	struct design d;
	double B;
	mesh_groups(&d, true);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(ma.fabric.connected, "%s", ma.fabric.note);
	/* Bisection: the 4 pairs between a and b, one 50 GB/s link each: 200. */
	cr_assert_float_eq(ma.fabric.bisection_GBps, 200, 1e-9);
	/* Ring a0 a1 b0 b1: every hop has one 50 GB/s link, and carries the node's ring rate. */
	B = ma.nccl.bw[COLL_ALLREDUCE][NA_RING][NP_SIMPLE] * busbw_factor(COLL_ALLREDUCE, 32);
	cr_assert(close_rel(algo(&ma, COLL_ALLREDUCE, UA_RING)->loss.factor, fmin(1, 50 / B), 1e-9), "%f vs %f",
		  algo(&ma, COLL_ALLREDUCE, UA_RING)->loss.factor, 50 / B);
	cr_assert(algo(&ma, COLL_ALLREDUCE, UA_RING)->loss.direct);
	design_free(&d);
}

Test(topo2, a_mesh_to_an_empty_group_is_a_problem)
{
	struct design d;
	design_init(&d);
	SETS(d.name, "empty");
	add_servers(&d, "a", 2, "h100", 8, "cx7-400e", 2);
	add_servers(&d, "b", 0, "h100", 8, "cx7-400e", 2);
	add_bundle(&d, "a", "b", 1, WIRE_MESH);
	job(&d);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(has_problem(&ma, NCF_WARNING, "bundles[0]", "a mesh between 'a' and 'b', one of which has no servers: it links nothing"));
	cr_assert_not(ma.fabric.connected);
	cr_assert_not(algo(&ma, COLL_ALLREDUCE, UA_RING)->available, "not NCCL's 0.1 GB/s fallback");
	cr_assert_not(algo(&ma, COLL_ALLREDUCE, UA_TREE)->available);
	cr_assert_not(ma.work.valid);
	design_free(&d);
}

/* ---- 10: all-to-all on leaves several groups share --------------------------------------- */

/* 32 H100 servers with one 400G InfiniBand NIC on 4 leaves (tor: 8 each), each leaf with 2
 * uplinks to one spine, adaptive; as one group or groups of 3 2 6 3 2 6 4 6. */
static void split_leaves(struct design *d, bool split)
{
	static const int sizes[] = { 3, 2, 6, 3, 2, 6, 4, 6 };
	char name[16];
	int i;
	design_init(d);
	SETS(d->name, "a2a");
	add_switches(d, "l", ROLE_LEAF, 4, "sw64x400");
	add_switches(d, "sp", ROLE_SPINE, 1, "sw64x400");
	for (i = 0; i < (split ? 8 : 1); i++) {
		snprintf(name, sizeof name, "g%d", i);
		add_servers(d, name, split ? sizes[i] : 32, "h100", 8, "cx7-400", 1);
		add_bundle(d, name, "l", 1, WIRE_TOR);
	}
	add_bundle(d, "l", "sp", 2, WIRE_SPREAD);
	d->fabric.routing = ROUTE_ADAPTIVE;
	job(d);
}

Test(topo2, alltoall_counts_every_node_a_leaf_holds)
{
	struct design one, split;
	double f = 100 / (8 * 48 * 24 / 31.0);
	split_leaves(&one, false);
	split_leaves(&split, true);
	metrics_compute(&one, &cat, GiB, 0, &ma);
	metrics_compute(&split, &cat, GiB, 0, &mb);
	/* A leaf holds 8 nodes, each sending its 48 GB/s (one NIC behind Gen5) to the 24 of
	 * its 31 peers on other leaves: 8 x 48 x 24/31 = 297.3 GB/s into 2 x 50: 0.3363, for
	 * the split groups as for one. */
	cr_assert(close_rel(algo(&ma, COLL_ALLTOALL, UA_P2P)->loss.factor, f, 1e-9), "one %f, by hand %f",
		  algo(&ma, COLL_ALLTOALL, UA_P2P)->loss.factor, f);
	cr_assert(close_rel(algo(&mb, COLL_ALLTOALL, UA_P2P)->loss.factor, f, 1e-9), "split %f, by hand %f",
		  algo(&mb, COLL_ALLTOALL, UA_P2P)->loss.factor, f);
	same_numbers(&ma, &mb, "one group of 32 vs 8 groups on 4 leaves");
	design_free(&one);
	design_free(&split);
}

/* ---- 11: a node without a network ---------------------------------------------------------- */

Test(topo2, a_group_without_a_bundle_has_no_point_to_point)
{
	struct design d;
	const struct algo_result *a2a, *sr;
	design_init(&d);
	SETS(d.name, "nowire");
	add_servers(&d, "a", 2, "h100", 8, "cx7-400e", 2);
	add_servers(&d, "b", 1, "h100", 8, "cx7-400e", 2);
	add_switches(&d, "l", ROLE_LEAF, 1, "eth64x400");
	add_bundle(&d, "a", "l", 2, WIRE_TOR);
	job(&d);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(has_problem(&ma, NCF_ERROR, "job", "not connected: group 'b' has no bundle to the network"));
	a2a = algo(&ma, COLL_ALLTOALL, UA_P2P);
	sr = algo(&ma, COLL_SENDRECV, UA_P2P);
	cr_assert_not(a2a->available, "not available at infinite time");
	cr_assert_not(sr->available);
	cr_assert_not(algo(&ma, COLL_ALLREDUCE, UA_TREE)->available);
	cr_assert(isfinite(a2a->time_us) && isfinite(sr->time_us));
	design_free(&d);
}

/* ---- 12: job.groups ------------------------------------------------------------------------ */

static void two_kinds(struct design *d, const char *groups, int gpus)
{
	design_init(d);
	SETS(d->name, "groups");
	add_servers(d, "a100", 4, "a100", 8, "cx5-100", 1);
	add_servers(d, "h100", 4, "h100", 8, "cx7-400", 1);
	add_switches(d, "la", ROLE_LEAF, 1, "sw32x100");
	add_switches(d, "lh", ROLE_LEAF, 1, "sw64x400");
	add_bundle(d, "a100", "la", 1, WIRE_TOR);
	add_bundle(d, "h100", "lh", 1, WIRE_TOR);
	job(d);
	SETS(d->job.groups, groups);
	d->job.gpus = gpus;
}

Test(topo2, job_groups_that_name_no_group_or_too_few_gpus_are_problems)
{
	struct design d;
	two_kinds(&d, "h100, a10", 0);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(has_problem(&ma, NCF_ERROR, "job.groups",
			      "job.groups names 'a10', which is no server group or NVLink domain of the design: the job runs without it"));
	cr_assert_eq(ma.fabric.gpus, 32);
	design_free(&d);
	two_kinds(&d, "h100", 64);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(has_problem(&ma, NCF_WARNING, "job.groups",
			      "the job asks for 64 GPUs, but the groups job.groups names hold 32: it runs on 32"));
	design_free(&d);
	two_kinds(&d, "h100, h100", 0);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(has_problem(&ma, NCF_WARNING, "job.groups", "job.groups names 'h100' twice: it takes part once"));
	design_free(&d);
	two_kinds(&d, "h100, a100", 0);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert_eq(ma.fabric.nproblems, 1, "only: not connected (the two leaves are apart)");
	design_free(&d);
}

/* ---- 13: texts ---------------------------------------------------------------------------- */

Test(topo2, mixed_gpu_counts_say_what_nodes_there_are)
{
	struct design d;
	design_init(&d);
	SETS(d.name, "mixed");
	add_servers(&d, "big", 2, "h100", 8, "cx7-400", 1);
	add_servers(&d, "small", 2, "h100", 4, "cx7-400", 1);
	add_switches(&d, "l", ROLE_LEAF, 1, "sw64x400");
	add_bundle(&d, "big", "l", 1, WIRE_TOR);
	add_bundle(&d, "small", "l", 1, WIRE_TOR);
	job(&d);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	/* 24 GPUs on 4 nodes: NCCL's tuning sees 6 per node, which no node has. */
	cr_assert_eq(ma.fabric.node.ppn, 6);
	cr_assert(strstr(ma.fabric.note, "of 4 to 8 GPUs (the node shown has NCCL's mean, 6)"), "%s", ma.fabric.note);
	design_free(&d);
}

Test(topo2, an_nvlink_domain_split_across_leaves_sends_from_each_tray)
{
	/* Two NVLink domains of 3 trays (4 H100 each, one 400G InfiniBand NIC per tray), the 6
	 * trays top-of-rack on 3 leaves, 2 positions each: domain 0's trays on leaves 0 0 1,
	 * domain 1's on leaves 1 2 2; each leaf with one 400G uplink to a spine, adaptive.
	 * Each tray's NIC carries a third of its node's ring rate B (channels round-robin over
	 * the node's 3 ports), and a hop goes from tray k of one node to tray k of the next:
	 * leaf 0 sends trays 0 and 1 of domain 0 out (to leaves 1 and 2), leaf 1 tray 2 (to
	 * leaf 2) and tray 3 (to leaf 0), leaf 2 trays 4 and 5: 2B/3 out of every leaf, into 50
	 * GB/s. Keyed by its first tray alone, a domain would sit on one leaf and send B. */
	struct design d;
	struct domain_group *dg;
	struct server_group *s;
	double B, f;
	design_init(&d);
	SETS(d.name, "domains");
	dg = vec_push(&d.domains, sizeof *dg);
	memset(dg, 0, sizeof *dg);
	SETS(dg->name, "rack");
	dg->count = 2;
	dg->servers_each = 3;
	s = add_servers(&d, "tray", 6, "h100", 4, "cx7-400", 1);
	SETS(s->domain, "rack");
	add_switches(&d, "l", ROLE_LEAF, 3, "sw64x400");
	add_switches(&d, "sp", ROLE_SPINE, 1, "sw64x400");
	add_bundle(&d, "tray", "l", 1, WIRE_TOR);
	add_bundle(&d, "l", "sp", 1, WIRE_SPREAD);
	d.fabric.routing = ROUTE_ADAPTIVE;
	job(&d);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert_eq(ma.fabric.node.nnodes, 2);
	cr_assert(ma.fabric.domain_node);
	B = ma.nccl.bw[COLL_ALLREDUCE][NA_RING][NP_SIMPLE] * busbw_factor(COLL_ALLREDUCE, 24);
	f = fmin(1, 50 / (2 * B / 3));
	cr_assert_lt(f, 1, "B = %f: the test needs the uplink to bind", B);
	cr_assert(close_rel(algo(&ma, COLL_ALLREDUCE, UA_RING)->loss.factor, f, 1e-9), "ring %f, by hand %f (B %f)",
		  algo(&ma, COLL_ALLREDUCE, UA_RING)->loss.factor, f, B);
	design_free(&d);
}

/* Pipeline sends on rail leaves: 16 DGX H100 (8 x 400G each, GPU i on rail i) in two units
 * of 8, 16 leaves (a rail of one unit each: 8 down), 8 spines. TP 8, PP 8, DP 2 puts PP
 * neighbours 2 nodes apart: the last 2 nodes of a unit send out of it. Each of a node's 8
 * pairs takes its own NIC (fabric-physics.md 3.2), so rail leaf r carries the 2 pairs of its
 * rail, 2 x r_pair: with 8 uplinks of 50 GB/s (400 GB/s) nothing binds and PP runs as on
 * one leaf per rail for all 16 servers (no uplink crossed). With 1 uplink (50 GB/s) the
 * leaf delivers 50 / (2 r_pair) of the plan. (Charging all 8 pairs to one rail leaf, as
 * the engine did, halved PP at 8 uplinks.) */
static void pp_rails(struct design *d, int leaves, int up)
{
	fx_clos(d, 16, 8, WIRE_RAIL, leaves, up, up > 0 ? 8 : 0);
	d->job.tp = 8;
	d->job.pp = 8;
	d->job.micro_batches = 16;
	d->job.seq_len = 8192;
	design_assign_ids(d);
}

Test(topo2, pipeline_pairs_take_their_own_rail)
{
	struct design a, b, c;
	const struct dim_traffic *pa, *pb, *pc;
	double r;
	pp_rails(&a, 16, 8);
	pp_rails(&b, 8, 0);
	pp_rails(&c, 16, 1);
	metrics_compute(&a, &cat, GiB, 0, &ma);
	metrics_compute(&b, &cat, GiB, 0, &mb);
	pa = &ma.work.dims[DIM_PP];
	pb = &mb.work.dims[DIM_PP];
	cr_assert(ma.work.valid && mb.work.valid, "%s / %s", ma.work.why, mb.work.why);
	cr_assert(pa->active && pa->network && pa->busbw_GBps > 0);
	cr_assert(close_rel(pa->busbw_GBps, pb->busbw_GBps, 1e-9), "two units %.3f vs one leaf a rail %.3f GB/s",
		  pa->busbw_GBps, pb->busbw_GBps);
	r = pa->busbw_GBps; /* what one pair gets unhindered (PP's messages: latency under 1%) */
	metrics_compute(&c, &cat, GiB, 0, &ma);
	pc = &ma.work.dims[DIM_PP];
	cr_assert(ma.work.valid, "%s", ma.work.why);
	/* The binding resource: rail leaf uplink 50 GB/s against 2 pairs at the planned rate
	 * (what a NIC plans, at least what one pair got unhindered). */
	/* The binding resource: rail leaf uplink, 1 x 50 GB/s, against the 2 pairs leaving the
	 * unit at the rate NCCL plans a pair (its NIC's 400 Gb/s = 50 GB/s): 100 GB/s, factor
	 * 0.5, and PP's busbw is the unhindered one halved (the latency term aside: < 0.5%). */
	cr_assert(close_rel(pc->bound.loss.capacity_GBps, 50, 1e-9), "capacity %.3f", pc->bound.loss.capacity_GBps);
	cr_assert(close_rel(pc->bound.loss.demand_GBps, 2 * 50.0, 1e-9), "demand %.3f", pc->bound.loss.demand_GBps);
	cr_assert(close_rel(pc->bound.loss.factor, 0.5, 1e-9), "factor %.4f", pc->bound.loss.factor);
	cr_assert(close_rel(pc->busbw_GBps, r * 0.5, 0.005), "1 uplink: %.3f GB/s, expected %.3f", pc->busbw_GBps, r * 0.5);
	design_free(&a);
	design_free(&b);
	design_free(&c);
}

/* NCCL_PROTO for the job (job.proto): the tuning tables keep that protocol only, so NCCL's
 * own pick and every algorithm run it; an algorithm without it is off with the reason.
 * 16 DGX H100 on one rail leaf set, AllReduce at 1 GiB: auto picks Simple there, so Simple
 * forced gives the same numbers; LL runs every algorithm at LL's bandwidth (slower at 1 GiB);
 * on one node NVLS runs Simple only, so NCCL_PROTO=LL turns it off. */
Test(topo2, nccl_proto_forced_for_the_job)
{
	struct design a, b, c, one;
	const struct algo_result *ra, *rb, *rc;
	fx_clos(&a, 16, 8, WIRE_RAIL, 8, 0, 0);
	fx_clos(&b, 16, 8, WIRE_RAIL, 8, 0, 0);
	fx_clos(&c, 16, 8, WIRE_RAIL, 8, 0, 0);
	b.job.proto = PROTO_SIMPLE;
	c.job.proto = PROTO_LL;
	metrics_compute(&a, &cat, GiB, 0, &ma);
	metrics_compute(&b, &cat, GiB, 0, &mb);
	ra = algo(&ma, COLL_ALLREDUCE, UA_RING);
	rb = algo(&mb, COLL_ALLREDUCE, UA_RING);
	cr_assert(ra->available && rb->available);
	cr_assert_eq(ra->proto, NP_SIMPLE, "auto picks %s at 1 GiB", nproto_names[ra->proto]);
	cr_assert(close_rel(ra->busbw_GBps, rb->busbw_GBps, 1e-12), "Simple forced %.3f vs auto %.3f", rb->busbw_GBps,
		  ra->busbw_GBps);
	metrics_compute(&c, &cat, GiB, 0, &mb);
	rc = algo(&mb, COLL_ALLREDUCE, UA_RING);
	cr_assert(rc->available);
	cr_assert_eq(rc->proto, NP_LL);
	cr_assert_eq(algo(&mb, COLL_ALLREDUCE, UA_TREE)->proto, NP_LL);
	cr_assert_lt(rc->busbw_GBps, ra->busbw_GBps * 0.75, "LL %.2f vs Simple %.2f", rc->busbw_GBps, ra->busbw_GBps);
	cr_assert_eq(mb.colls[COLL_ALLREDUCE].algo[mb.colls[COLL_ALLREDUCE].auto_algo].proto, NP_LL);
	/* One node: NVLS (Simple only) is off under LL. */
	fx_clos(&one, 1, 8, WIRE_RAIL, 8, 0, 0);
	metrics_compute(&one, &cat, GiB, 0, &ma);
	cr_assert(algo(&ma, COLL_ALLREDUCE, UA_NVLS)->available, "NVLS runs on one H100 node");
	one.job.proto = PROTO_LL;
	metrics_compute(&one, &cat, GiB, 0, &ma);
	cr_assert_not(algo(&ma, COLL_ALLREDUCE, UA_NVLS)->available);
	cr_assert_str_eq(algo(&ma, COLL_ALLREDUCE, UA_NVLS)->reason, "NCCL_PROTO=LL: NCCL runs it with no LL");
	design_free(&a);
	design_free(&b);
	design_free(&c);
	design_free(&one);
}

/* n servers on n leaves (one each), the leaves spread over n spines with 2 uplinks. */
static void spread_leaves(struct design *d, int n)
{
	design_init(d);
	SETS(d->name, "spread");
	add_servers(d, "a", n, "h100", 8, "cx7-400", 1);
	add_switches(d, "leaf", ROLE_LEAF, n, "sw64x400");
	add_switches(d, "spine", ROLE_SPINE, n, "sw64x400");
	add_bundle(d, "a", "leaf", 1, WIRE_TOR);
	add_bundle(d, "leaf", "spine", 2, WIRE_SPREAD);
	job(d);
}

/* Spread wiring whose links neither reach every switch nor divide them (2 links over 5
 * spines): leaf p reaches spines 2p, 2p+1 (mod 5), so leaves 0 and 1 share none; a Clos
 * routes only through a switch both reach. The engine computes it as one component and says
 * that this overstates it. */
Test(topo2, spread_that_leaves_neighbours_apart_is_a_warning)
{
	static const char *const text = "leaves neighbours with no switch in common: computed as one component, which "
					"overstates it (make the links divide the switches)";
	struct design d;
	char want[256];
	spread_leaves(&d, 5);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	snprintf(want, sizeof want, "spread wiring of 2 links over 5 switches %s", text);
	cr_assert(has_problem(&ma, NCF_WARNING, "bundles[1]", want));
	design_free(&d);
	/* 2 links over 4 spines divide: two components, no warning. */
	spread_leaves(&d, 4);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert_not(has_problem(&ma, NCF_WARNING, "bundles[1]", text));
	design_free(&d);
}
