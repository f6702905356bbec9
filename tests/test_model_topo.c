/* The topology engine on designs with more than one group: equivalence of the same hardware
 * written differently, hand-computed Ring and Tree on multi-group designs, meshes, fat trees,
 * problems, and invariants over grids of designs. */
#include <criterion/criterion.h>
#include <math.h>
#include "fixtures.h"
#include "topo_helpers.h"
#include "model/congest.h"
#include "model/metrics.h"
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

TestSuite(topo, .init = setup, .fini = teardown);

#define GiB (1024.0 * 1024 * 1024)

/* ---- equivalence ------------------------------------------------------------------------ */

Test(topo, four_groups_of_one_server_are_one_group_of_four)
{
	struct design one, four;
	int i;
	char name[16];
	fx_reference(&one);
	design_init(&four);
	SETS(four.name, "four");
	add_switches(&four, "tor", ROLE_LEAF, 1, "sw32x100");
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof name, "s%d", i);
		add_servers(&four, name, 1, "a100", 8, "cx5-100", 4);
		add_bundle(&four, name, "tor", 4, WIRE_TOR);
	}
	four.job = one.job;
	design_assign_ids(&four);
	metrics_compute(&one, &cat, GiB, 0, &ma);
	metrics_compute(&four, &cat, GiB, 0, &mb);
	same_numbers(&ma, &mb, "4 x 1 vs 1 x 4");
	cr_assert_float_eq(mb.work.speedup, ma.work.speedup, 1e-9, "no longer 32 of 32 for the four groups");
	cr_assert_lt(mb.work.speedup, 32);
	design_free(&one);
	design_free(&four);
}

Test(topo, two_groups_of_16_on_the_same_leaves_are_one_group_of_32)
{
	struct design one, two;
	int w;
	for (w = WIRE_RAIL; w <= WIRE_TOR; w++) {
		fx_clos(&one, 32, 8, w, w == WIRE_RAIL ? 8 : 4, 8, 4);
		one.fabric.routing = ROUTE_ECMP;
		design_init(&two);
		SETS(two.name, "two");
		add_servers(&two, "a", 16, "h100", 8, "cx7-400", 8);
		add_servers(&two, "b", 16, "h100", 8, "cx7-400", 8);
		add_switches(&two, "leaf", ROLE_LEAF, w == WIRE_RAIL ? 8 : 4, "sw64x400");
		add_switches(&two, "spine", ROLE_SPINE, 4, "sw64x400");
		add_bundle(&two, "a", "leaf", 8, w);
		add_bundle(&two, "b", "leaf", 8, w);
		add_bundle(&two, "leaf", "spine", 8, WIRE_SPREAD);
		two.job = one.job;
		design_assign_ids(&two);
		metrics_compute(&one, &cat, GiB, 0, &ma);
		metrics_compute(&two, &cat, GiB, 0, &mb);
		same_numbers(&ma, &mb, w == WIRE_RAIL ? "rail 32 vs 2 x 16" : "tor 32 vs 2 x 16");
		design_free(&one);
		design_free(&two);
	}
}

static void two_units(struct design *d, bool split, bool swapped)
{
	design_init(d);
	SETS(d->name, "units");
	if (split) {
		add_servers(d, swapped ? "u1" : "u0", 32, "h100", 8, "cx7-400e", 8);
		add_servers(d, swapped ? "u0" : "u1", 32, "h100", 8, "cx7-400e", 8);
	} else {
		add_servers(d, "u", 64, "h100", 8, "cx7-400e", 8);
	}
	add_switches(d, "leaf", ROLE_LEAF, 16, "eth64x400");
	add_switches(d, "spine", ROLE_SPINE, 8, "eth64x400");
	if (split) {
		add_bundle(d, swapped ? "u1" : "u0", "leaf", 8, WIRE_RAIL);
		add_bundle(d, swapped ? "u0" : "u1", "leaf", 8, WIRE_RAIL);
	} else {
		add_bundle(d, "u", "leaf", 8, WIRE_RAIL);
	}
	add_bundle(d, "leaf", "spine", 16, WIRE_SPREAD); /* 2:1 */
	job(d);
	d->job.tp = 8;
}

Test(topo, two_rail_units_as_one_group_or_two)
{
	struct design one, two;
	two_units(&one, false, false);
	two_units(&two, true, false);
	metrics_compute(&one, &cat, GiB, 0, &ma);
	metrics_compute(&two, &cat, GiB, 0, &mb);
	same_numbers(&ma, &mb, "one group of 2 units vs two groups");
	design_free(&one);
	design_free(&two);
}

Test(topo, groups_listed_in_either_order)
{
	struct design a, b;
	two_units(&a, true, false);
	two_units(&b, true, true);
	metrics_compute(&a, &cat, GiB, 0, &ma);
	metrics_compute(&b, &cat, GiB, 0, &mb);
	same_numbers(&ma, &mb, "u0, u1 vs u1, u0");
	design_free(&a);
	design_free(&b);
}

Test(topo, a_bundle_split_in_two)
{
	struct design one, split;
	fx_reference(&one);
	fx_reference(&split);
	DESIGN_BUNDLE(&split, 0)->links_each = 2;
	add_bundle(&split, "a100", "tor", 2, WIRE_TOR);
	design_assign_ids(&split);
	metrics_compute(&one, &cat, GiB, 0, &ma);
	metrics_compute(&split, &cat, GiB, 0, &mb);
	same_numbers(&ma, &mb, "4 links vs 2 + 2");
	design_free(&one);
	design_free(&split);
	two_units(&one, false, false);
	two_units(&split, false, false);
	DESIGN_BUNDLE(&split, 1)->links_each = 8;
	add_bundle(&split, "leaf", "spine", 8, WIRE_SPREAD);
	design_assign_ids(&split);
	metrics_compute(&one, &cat, GiB, 0, &ma);
	metrics_compute(&split, &cat, GiB, 0, &mb);
	same_numbers(&ma, &mb, "16 uplinks vs 8 + 8");
	design_free(&one);
	design_free(&split);
}

/* ---- multi-group designs, computed by hand ------------------------------------------------- */

/* Two groups of 4 H100 servers, one 400G RoCE NIC each, each group on its own Ethernet
 * leaf; each leaf has 2 x 200G uplinks spread over 2 spines (static ECMP). */
static void two_leaves(struct design *d)
{
	struct bundle *b;
	design_init(d);
	SETS(d->name, "two-leaves");
	add_servers(d, "a", 4, "h100", 8, "cx7-400e", 1);
	add_servers(d, "b", 4, "h100", 8, "cx7-400e", 1);
	add_switches(d, "leafa", ROLE_LEAF, 1, "eth64x400");
	add_switches(d, "leafb", ROLE_LEAF, 1, "eth64x400");
	add_switches(d, "spine", ROLE_SPINE, 2, "eth64x400");
	add_bundle(d, "a", "leafa", 1, WIRE_TOR);
	add_bundle(d, "b", "leafb", 1, WIRE_TOR);
	b = add_bundle(d, "leafa", "spine", 2, WIRE_SPREAD);
	b->speed_gbps = 200;
	b = add_bundle(d, "leafb", "spine", 2, WIRE_SPREAD);
	b->speed_gbps = 200;
	job(d);
}

Test(topo, two_leaves_under_a_spine_ring_and_tree_by_hand)
{
	struct design d;
	const struct algo_result *ring, *tree;
	double ring_f, tree_f, B_ring, B_tree;
	two_leaves(&d);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(ma.fabric.connected, "%s", ma.fabric.note);
	cr_assert_eq(ma.fabric.node.nnodes, 8);
	/* NCCL: one 50 GB/s NIC on PCIe Gen5 (48): ladder 48, one channel, duplicated to 2 x 24. */
	cr_assert_eq(ma.nccl.ring.c, 2);
	cr_assert_float_eq(ma.nccl.ring.be, 24, 1e-12);
	/* Ring: each leaf holds 4 consecutive nodes, so one hop per channel leaves it: the node's
	 * 48 GB/s over its 2 x 25 GB/s uplinks. 2 channels x 2 at run time = 4 flows hashed on 2
	 * links: E[max] = (6 x 2 + 8 x 3 + 2 x 4)/16 = 2.75, so 4 x 25 / 2.75 = 36.36 GB/s. */
	B_ring = 48;
	ring_f = 4 * 25 / 2.75 / B_ring;
	ring = &ma.colls[COLL_ALLREDUCE].algo[UA_RING];
	cr_assert(close_rel(hash_expected_max(4, 2), 2.75, 1e-12));
	cr_assert(close_rel(ring->loss.factor, ring_f, 1e-6), "ring factor %f, by hand %f", ring->loss.factor, ring_f);
	cr_assert(ring->loss.hashed);
	cr_assert_eq(ring->loss.flows, 4);
	cr_assert_eq(ring->loss.links, 2);
	/* busbw with NCCL's latency: 64 ranks, 126 steps, 14 of them across nodes:
	 * (8.4 + 112 x 3.4 + 14 x 14) x 1.4 = 819.28 us; A = 48 x 64/126 GB/s at factor f;
	 * t = 819.28 + 2^30 / (1000 A f); busbw = 2^30 / (1000 t) x 126/64. */
	{
		double A = B_ring * 64 / 126, t = 819.28 + GiB / (1000 * A * ring_f);
		cr_assert(close_rel(ring->busbw_GBps, GiB / (1000 * t) * 126 / 64, 0.01), "ring busbw %f, by hand %f",
			  ring->busbw_GBps, GiB / (1000 * t) * 126 / 64);
	}
	/* Tree: B = min(0.92 x 2 x 24, 2 x 36.0) = 44.16 (Hopper, >= 3 nodes). Over 8 nodes with 4
	 * per leaf, the two trees have 4 edges touching a leaf; each carries B/4 a direction, so a
	 * leaf sends 44.16 up. 4 edges x 2 connections = 8 flows on 2 links: E[max] = 1304/256 =
	 * 5.09375, 8 x 25 / 5.09375 = 39.26 GB/s. */
	B_tree = 0.92 * 2 * 24;
	tree_f = 8 * 25 / (1304.0 / 256) / B_tree;
	tree = &ma.colls[COLL_ALLREDUCE].algo[UA_TREE];
	cr_assert(close_rel(hash_expected_max(8, 2), 1304.0 / 256, 1e-12));
	cr_assert(close_rel(tree->loss.factor, tree_f, 1e-6), "tree factor %f, by hand %f", tree->loss.factor, tree_f);
	cr_assert(close_rel(tree->busbw_GBps, B_tree * 63 / 64 * tree_f, 0.01), "tree busbw %f, by hand %f",
		  tree->busbw_GBps, B_tree * 63 / 64 * tree_f);
	/* Adaptive routing (the IB switches of the fixture catalog route adaptively): no hashing,
	 * 50 GB/s of uplinks take the ring's 48. */
	design_free(&d);
	two_leaves(&d);
	SETS(DESIGN_SWITCH(&d, 0)->model, "sw64x400");
	SETS(DESIGN_SWITCH(&d, 1)->model, "sw64x400");
	SETS(DESIGN_SWITCH(&d, 2)->model, "sw64x400");
	SETS(VEC_AT(DESIGN_SERVER(&d, 0)->nics, struct nic_spec, 0).model, "cx7-400");
	SETS(VEC_AT(DESIGN_SERVER(&d, 1)->nics, struct nic_spec, 0).model, "cx7-400");
	d.fabric.routing = ROUTE_ADAPTIVE;
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert_float_eq(ma.colls[COLL_ALLREDUCE].algo[UA_RING].loss.factor, 1, 1e-12);
	cr_assert_not(ma.colls[COLL_ALLREDUCE].algo[UA_RING].loss.hashed);
	/* Bisection: the halves are the two leaves; each sends over its 2 x 25 GB/s. */
	cr_assert_float_eq(ma.fabric.bisection_GBps, 50, 1e-9);
	design_free(&d);
}

Test(topo, mixed_h100_and_a100_run_at_the_slowest_node)
{
	/* 4 H100 servers with one 400G NIC, 4 A100 servers with one 100G NIC, one switch. NCCL:
	 * H100 nodes search 2 x 24, A100 nodes 1 x 12 (12.5 GB/s NIC, ladder 12, no duplication
	 * below 25); every rank takes the minimum: 1 channel at 12 GB/s. Ring busbw 12. */
	struct design d, swapped;
	const struct algo_result *ring, *tree;
	design_init(&d);
	SETS(d.name, "mixed");
	add_servers(&d, "h", 4, "h100", 8, "cx7-400e", 1);
	add_servers(&d, "a", 4, "a100", 8, "cx5-100", 1);
	add_switches(&d, "sw", ROLE_LEAF, 1, "eth64x400");
	add_bundle(&d, "h", "sw", 1, WIRE_TOR);
	add_bundle(&d, "a", "sw", 1, WIRE_TOR);
	job(&d);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(ma.fabric.heterogeneous);
	cr_assert_eq(ma.fabric.nclasses, 2);
	cr_assert_eq(ma.nccl.ring.c, 1);
	cr_assert_float_eq(ma.nccl.ring.be, 12, 1e-12);
	ring = &ma.colls[COLL_ALLREDUCE].algo[UA_RING];
	cr_assert(close_rel(ring->busbw_GBps, 12, 0.01), "ring %f", ring->busbw_GBps);
	/* Tree: the tuning sees the slowest node (sm 80): B = min(0.92 x 12, 17.8) = 11.04,
	 * busbw = B x 63/64 = 10.87. */
	tree = &ma.colls[COLL_ALLREDUCE].algo[UA_TREE];
	cr_assert(close_rel(tree->busbw_GBps, 0.92 * 12 * 63 / 64, 0.01), "tree %f", tree->busbw_GBps);
	cr_assert(strstr(ma.fabric.note, "2 kinds of node"), "%s", ma.fabric.note);
	/* The same hardware in the other order gives the same numbers. */
	design_init(&swapped);
	SETS(swapped.name, "mixed");
	add_servers(&swapped, "a", 4, "a100", 8, "cx5-100", 1);
	add_servers(&swapped, "h", 4, "h100", 8, "cx7-400e", 1);
	add_switches(&swapped, "sw", ROLE_LEAF, 1, "eth64x400");
	add_bundle(&swapped, "a", "sw", 1, WIRE_TOR);
	add_bundle(&swapped, "h", "sw", 1, WIRE_TOR);
	job(&swapped);
	metrics_compute(&swapped, &cat, GiB, 0, &mb);
	for (int c = 0; c < PATTERNS; c++)
		for (int u = 0; u < UA_COUNT; u++)
			cr_assert(close_rel(ma.colls[c].algo[u].busbw_GBps, mb.colls[c].algo[u].busbw_GBps, 1e-9),
				  "%s %s", coll_names[c], ualgo_names[u]);
	design_free(&d);
	design_free(&swapped);
}

/* The textbook's four servers, pairwise linked with 2 x 100G (6 ports each). */
static void mesh4(struct design *d)
{
	design_init(d);
	SETS(d->name, "mesh");
	add_servers(d, "m", 4, "a100", 8, "cx5-100", 6);
	add_bundle(d, "m", "m", 2, WIRE_MESH);
	job(d);
}

Test(topo, four_server_pairwise_mesh)
{
	struct design d;
	struct ncf_diag diag = { 0 };
	const struct algo_result *ring, *tree, *a2a;
	double B_ring, B_tree;
	mesh4(&d);
	cr_assert_eq(design_check(&d, &cat, &diag), 0, "a mesh is a valid design");
	cr_assert_not(fx_has(&diag, NCF_WARNING, "unconnected"), "3 peers x 2 links use the 6 ports");
	diag_free(&diag);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(ma.fabric.connected, "%s", ma.fabric.note);
	cr_assert(ma.fabric.mesh);
	cr_assert_float_eq(ma.fabric.node_ceiling_GBps, 75, 1e-9, "6 x 12.5");
	/* NCCL sees 6 NICs: 6 channels at 12 = 72 GB/s. A ring hop from node i to i+1 can only use
	 * the 2 links between them: 25 GB/s. */
	B_ring = ma.nccl.bw[COLL_ALLREDUCE][NA_RING][NP_SIMPLE] * busbw_factor(COLL_ALLREDUCE, 32);
	cr_assert_float_eq(B_ring, 72, 1e-9);
	ring = &ma.colls[COLL_ALLREDUCE].algo[UA_RING];
	cr_assert(close_rel(ring->loss.factor, 25 / 72.0, 1e-9), "%f", ring->loss.factor);
	cr_assert(ring->loss.direct);
	cr_assert(close_rel(ring->busbw_GBps, 25, 0.01), "%f", ring->busbw_GBps);
	/* Tree over 4 nodes: tree 0 is 1->2, 3->2, 2->0; tree 1 (its mirror) 2->1, 0->1, 1->3: the
	 * pair (1, 2) carries two edges, B/4 each a direction: 2 x B/4 on 25 GB/s. */
	B_tree = 2 * 0.5 * fmin(0.92 * 6 * 12, 6 * 17.8);
	tree = &ma.colls[COLL_ALLREDUCE].algo[UA_TREE];
	cr_assert(close_rel(tree->loss.factor, 25 / (2 * B_tree / 4), 1e-9), "%f vs %f", tree->loss.factor,
		  25 / (2 * B_tree / 4));
	/* AllToAll: each node sends a third of its 75 GB/s to each peer, over that pair's 25. */
	a2a = &ma.colls[COLL_ALLTOALL].algo[UA_P2P];
	cr_assert_float_eq(a2a->loss.factor, 1, 1e-9);
	/* Bisection: 2 servers against 2: four pairs of 2 x 12.5. */
	cr_assert_float_eq(ma.fabric.bisection_GBps, 100, 1e-9);
	design_free(&d);
}

/* ---- fat trees ------------------------------------------------------------------------------ */

static void fat_tree(struct design *d, int k, int pods)
{
	int h = k / 2;
	design_init(d);
	SETS(d->name, "fat-tree");
	add_servers(d, "host", pods * h * h, "h100", 8, "cx7-400e", 1);
	add_switches(d, "edge", ROLE_LEAF, pods * h, "eth64x400");
	add_switches(d, "agg", ROLE_SPINE, pods * h, "eth64x400");
	add_switches(d, "core", ROLE_CORE, h * h, "eth64x400");
	add_bundle(d, "host", "edge", 1, WIRE_TOR);
	add_bundle(d, "edge", "agg", h, WIRE_RAIL);
	add_bundle(d, "agg", "core", h, WIRE_SPREAD);
	job(d);
}

Test(topo, fat_trees_full_and_partial)
{
	int k, pods;
	for (k = 4; k <= 16; k += 2)
		for (pods = 1; pods <= k; pods += (k - 1 > 1 ? k - 1 : 1)) {
			struct design d;
			struct ncf_diag diag = { 0 };
			long hosts = (long)pods * (k / 2) * (k / 2);
			fat_tree(&d, k, pods);
			cr_assert_eq(design_check(&d, &cat, &diag), 0, "k=%d pods=%d", k, pods);
			diag_free(&diag);
			metrics_compute(&d, &cat, GiB, 0, &ma);
			cr_assert(ma.fabric.connected, "k=%d pods=%d: %s", k, pods, ma.fabric.note);
			/* Full bisection: half the hosts send 50 GB/s each across. */
			cr_assert(close_rel(ma.fabric.bisection_GBps, hosts / 2 * 50.0, 1e-9), "k=%d pods=%d: %f vs %f", k,
				  pods, ma.fabric.bisection_GBps, hosts / 2 * 50.0);
			/* 1:1 at every tier: the ring loses nothing to capacity, and with 4 runtime flows
			 * over k/2 >= 2 uplinks the hashed edge carries at least 4 x 50 / E[max(4, 2)]
			 * = 72.7 >= 48 GB/s. */
			cr_assert_float_eq(ma.colls[COLL_ALLREDUCE].algo[UA_RING].loss.factor, 1, 1e-12, "k=%d", k);
			if (pods == k) {
				/* Every port of every switch is used: k/2 down and k/2 up, k down at the core. */
				long down, up;
				int s;
				for (s = 0; s < 3; s++) {
					switch_ports_used(&d, DESIGN_SWITCH(&d, s), &down, &up);
					cr_assert_eq(down + up, k, "k=%d %s uses %ld of %d ports", k, DESIGN_SWITCH(&d, s)->name,
						     down + up, k);
				}
			}
			design_free(&d);
		}
}

/* ---- problems ------------------------------------------------------------------------------- */

Test(topo, not_connected_is_an_error_and_nothing_runs)
{
	struct design d;
	struct ncf_diag diag = { 0 };
	design_init(&d);
	SETS(d.name, "apart");
	add_servers(&d, "a", 2, "h100", 8, "cx7-400", 1);
	add_servers(&d, "b", 2, "h100", 8, "cx7-400", 1);
	add_switches(&d, "la", ROLE_LEAF, 1, "sw64x400");
	add_switches(&d, "lb", ROLE_LEAF, 1, "sw64x400");
	add_bundle(&d, "a", "la", 1, WIRE_TOR);
	add_bundle(&d, "b", "lb", 1, WIRE_TOR);
	job(&d);
	cr_assert_eq(design_check(&d, &cat, &diag), 0, "a file error it is not: the design loads");
	topo_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_ERROR, "not connected: group 'a' has no path to group 'b'"));
	diag_free(&diag);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert_not(ma.fabric.connected);
	cr_assert_not(ma.colls[COLL_ALLREDUCE].algo[UA_RING].available);
	cr_assert_not(ma.work.valid, "no perfect scaling for a cluster that cannot talk");
	cr_assert(strstr(ma.work.why, "not connected"), "%s", ma.work.why);
	cr_assert_float_eq(ma.fabric.bisection_GBps, 0, 1e-12);
	cr_assert(strstr(ma.bottleneck, "not connected"), "%s", ma.bottleneck);
	design_free(&d);
}

Test(topo, protocol_mismatch_is_an_error)
{
	struct design d;
	struct ncf_diag diag = { 0 };
	design_init(&d);
	SETS(d.name, "mismatch");
	add_servers(&d, "a", 2, "h100", 8, "cx7-400", 1); /* InfiniBand */
	add_switches(&d, "eth", ROLE_LEAF, 1, "eth64x400");
	add_bundle(&d, "a", "eth", 1, WIRE_TOR);
	job(&d);
	topo_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_ERROR, "protocol mismatch: 'a' speaks InfiniBand, 'eth' speaks Ethernet"));
	diag_free(&diag);
	design_free(&d);
}

Test(topo, adaptive_routing_without_the_hardware_is_a_warning)
{
	struct design d;
	struct ncf_diag diag = { 0 };
	two_leaves(&d);
	d.fabric.routing = ROUTE_ADAPTIVE;
	topo_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_WARNING,
			 "adaptive routing asked for, but 'leafa' (eth64x400) cannot route adaptively: computed as static hashing"));
	diag_free(&diag);
	metrics_compute(&d, &cat, GiB, 0, &ma);
	cr_assert(ma.colls[COLL_ALLREDUCE].algo[UA_RING].loss.hashed, "the hardware hashes anyway");
	design_free(&d);
}

Test(topo, a_shape_it_cannot_compute_names_the_bundle)
{
	/* 6 edges in 3 pods of 2 (rail), 6 aggregation switches, 2 cores taking 3 aggregation
	 * switches each (tor): blocks of 2 and of 3 do not nest. */
	struct design d;
	struct ncf_diag diag = { 0 };
	size_t i;
	bool named = false;
	design_init(&d);
	SETS(d.name, "odd");
	add_servers(&d, "h", 12, "h100", 8, "cx7-400e", 1);
	add_switches(&d, "edge", ROLE_LEAF, 6, "eth64x400");
	add_switches(&d, "agg", ROLE_SPINE, 6, "eth64x400");
	add_switches(&d, "core", ROLE_CORE, 2, "eth64x400");
	add_bundle(&d, "h", "edge", 1, WIRE_TOR);
	add_bundle(&d, "edge", "agg", 2, WIRE_RAIL);
	add_bundle(&d, "agg", "core", 1, WIRE_TOR);
	job(&d);
	topo_check(&d, &cat, &diag);
	for (i = 0; i < diag_count(&diag); i++)
		if (!strcmp(diag_get(&diag, i)->path, "bundles[2]") &&
		    strstr(diag_get(&diag, i)->msg, "the engine cannot compute this wiring: 'core' joins"))
			named = true;
	cr_assert(named, "the problem names bundles[2]");
	diag_free(&diag);
	design_free(&d);
}

/* ---- invariants over grids that include multi-group designs ------------------------------------ */

/* A grid design: `groups` server groups splitting `servers` between them, on `leaves` leaves
 * (rail or tor), `up` uplinks per leaf spread over `spines` spines. */
static void grid_design(struct design *d, int groups, int servers, int nics, int wiring, int leaves, int up, int spines,
			int gbps, int routing)
{
	int gi;
	char name[16];
	design_init(d);
	SETS(d->name, "grid");
	add_switches(d, "leaf", ROLE_LEAF, leaves, "eth64x400");
	add_switches(d, "spine", ROLE_SPINE, spines, "eth64x400");
	for (gi = 0; gi < groups; gi++) {
		struct server_group *g;
		snprintf(name, sizeof name, "g%d", gi);
		g = add_servers(d, name, servers / groups, "h100", 8, "cx7-400e", nics);
		VEC_AT(g->nics, struct nic_spec, 0).speed_gbps = gbps;
		add_bundle(d, name, "leaf", nics, wiring);
	}
	add_bundle(d, "leaf", "spine", up, WIRE_SPREAD);
	d->fabric.routing = routing;
	job(d);
}

static double busbw_of(const struct metrics *m, int c, int u)
{
	return m->colls[c].algo[u].available ? m->colls[c].algo[u].busbw_GBps : 0;
}

Test(topo, invariants_more_uplinks_spines_faster_nics)
{
	int groups, wiring, up, spines, c, u;
	for (groups = 1; groups <= 2; groups++)
		for (wiring = WIRE_RAIL; wiring <= WIRE_TOR; wiring++) {
			double prev[PATTERNS][UA_COUNT] = { { 0 } };
			int leaves = wiring == WIRE_RAIL ? 8 : 4;
			/* More uplinks: never lower. */
			for (up = 2; up <= 32; up *= 2) {
				struct design d;
				grid_design(&d, groups, 32, 8, wiring, leaves, up, 4, 0, ROUTE_ECMP);
				metrics_compute(&d, &cat, GiB, 0, &ma);
				for (c = 0; c < PATTERNS; c++)
					for (u = 0; u < UA_COUNT; u++) {
						double b = busbw_of(&ma, c, u);
						cr_expect_geq(b, prev[c][u] - 1e-9, "%d groups %s: %d uplinks %s %s %f < %f", groups,
							      wiring_names[wiring], up, coll_names[c], ualgo_names[u], b, prev[c][u]);
						prev[c][u] = b;
					}
				design_free(&d);
			}
			/* More spines (same uplinks): never lower. */
			memset(prev, 0, sizeof prev);
			for (spines = 1; spines <= 8; spines *= 2) {
				struct design d;
				grid_design(&d, groups, 32, 8, wiring, leaves, 8, spines, 0, ROUTE_ECMP);
				metrics_compute(&d, &cat, GiB, 0, &ma);
				for (c = 0; c < PATTERNS; c++)
					for (u = 0; u < UA_COUNT; u++) {
						double b = busbw_of(&ma, c, u);
						cr_expect_geq(b, prev[c][u] - 1e-9, "%d spines %s %s %f < %f", spines, coll_names[c],
							      ualgo_names[u], b, prev[c][u]);
						prev[c][u] = b;
					}
				design_free(&d);
			}
			/* Faster NICs: never lower. */
			memset(prev, 0, sizeof prev);
			for (up = 100; up <= 400; up *= 2) {
				struct design d;
				grid_design(&d, groups, 32, 8, wiring, leaves, 32, 4, up, ROUTE_ECMP);
				metrics_compute(&d, &cat, GiB, 0, &ma);
				for (c = 0; c < PATTERNS; c++)
					for (u = 0; u < UA_COUNT; u++) {
						double b = busbw_of(&ma, c, u);
						cr_expect_geq(b, prev[c][u] - 1e-9, "%d Gb/s %s %s %f < %f", up, coll_names[c],
							      ualgo_names[u], b, prev[c][u]);
						prev[c][u] = b;
					}
				design_free(&d);
			}
		}
}

Test(topo, invariants_oversubscription_never_helps_and_physical_bound)
{
	int groups, wiring, up, c, u, routing;
	for (routing = ROUTE_ECMP; routing <= ROUTE_ADAPTIVE; routing++)
		for (groups = 1; groups <= 4; groups *= 2)
			for (wiring = WIRE_RAIL; wiring <= WIRE_TOR; wiring++) {
				double prev[PATTERNS][UA_COUNT];
				int leaves = wiring == WIRE_RAIL ? 8 : 4;
				for (c = 0; c < PATTERNS; c++)
					for (u = 0; u < UA_COUNT; u++)
						prev[c][u] = 1e12;
				/* Fewer uplinks = more oversubscription: never higher. */
				for (up = 32; up >= 2; up /= 2) {
					struct design d;
					grid_design(&d, groups, 64, 8, wiring, leaves * 2, up, 4, 0, routing);
					metrics_compute(&d, &cat, GiB, 0, &ma);
					for (c = 0; c < PATTERNS; c++)
						for (u = 0; u < UA_COUNT; u++) {
							const struct algo_result *r = &ma.colls[c].algo[u];
							double b = busbw_of(&ma, c, u);
							cr_expect_leq(b, prev[c][u] + 1e-9, "%d uplinks %s %s %f > %f", up, coll_names[c],
								      ualgo_names[u], b, prev[c][u]);
							prev[c][u] = b;
							/* Never above what NCCL's own plan allows, nor the wire for
							 * ring-like traffic across 3 or more nodes. */
							if (r->available)
								cr_expect_leq(r->busbw_GBps, r->nccl_busbw_GBps + 1e-9, "%s %s", coll_names[c],
									      ualgo_names[u]);
							if (r->available && u == UA_RING)
								cr_expect_leq(r->busbw_GBps, ma.fabric.node_ceiling_GBps + 1e-9);
						}
					design_free(&d);
				}
			}
}

Test(topo, no_cliff_from_one_unit_to_two)
{
	/* A rail-optimised unit with 1:1 uplinks: adding a second unit moves ring traffic onto
	 * the spine, whose capacity is there for it: the ring keeps its rate. */
	struct design one, two;
	double b1, b2;
	grid_design(&one, 1, 32, 8, WIRE_RAIL, 8, 32, 4, 0, ROUTE_ADAPTIVE);
	grid_design(&two, 1, 64, 8, WIRE_RAIL, 16, 32, 8, 0, ROUTE_ADAPTIVE);
	metrics_compute(&one, &cat, GiB, 0, &ma);
	metrics_compute(&two, &cat, GiB, 0, &mb);
	/* What the switches deliver of NCCL's plan: all of it, for one unit and for two (NCCL's
	 * own latency grows with the ranks; that is not the fabric). */
	b1 = busbw_of(&ma, COLL_ALLREDUCE, UA_RING) / ma.colls[COLL_ALLREDUCE].algo[UA_RING].nccl_busbw_GBps;
	b2 = busbw_of(&mb, COLL_ALLREDUCE, UA_RING) / mb.colls[COLL_ALLREDUCE].algo[UA_RING].nccl_busbw_GBps;
	cr_assert_float_eq(b1, 1, 1e-9);
	cr_assert_float_eq(b2, 1, 1e-9, "one unit %f, two units %f", b1, b2);
	cr_assert_float_eq(mb.colls[COLL_ALLREDUCE].algo[UA_RING].loss.factor, 1, 1e-12);
	design_free(&one);
	design_free(&two);
}

Test(topo, cross_rail_alltoall_inside_one_unit_reaches_the_spine_and_pxn_helps)
{
	/* One rail unit of 32 servers, leaves 4:1 oversubscribed: without PXN an alltoall byte
	 * for another rail leaves its rail leaf even between servers of the unit. */
	struct design d;
	double with, without;
	grid_design(&d, 1, 32, 8, WIRE_RAIL, 8, 8, 4, 0, ROUTE_ADAPTIVE);
	d.fabric.pxn = true;
	metrics_compute(&d, &cat, GiB, 0, &ma);
	with = busbw_of(&ma, COLL_ALLTOALL, UA_P2P);
	cr_assert_float_eq(ma.colls[COLL_ALLTOALL].algo[UA_P2P].loss.factor, 1, 1e-12,
			   "with PXN every byte stays on its rail: one unit needs no spine");
	d.fabric.pxn = false;
	metrics_compute(&d, &cat, GiB, 0, &ma);
	without = busbw_of(&ma, COLL_ALLTOALL, UA_P2P);
	cr_assert_lt(ma.colls[COLL_ALLTOALL].algo[UA_P2P].loss.factor, 1, "cross-rail bytes climb to the spine");
	cr_assert_gt(with, without);
	design_free(&d);
}
