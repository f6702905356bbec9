/* The model on whole designs: the reference case, oversubscription, congestion, the two
 * speedup forms, and invariants that must hold for any design. */
#include <criterion/criterion.h>
#include <math.h>
#include "fixtures.h"
#include "model/congest.h"
#include "model/metrics.h"

static struct catalog cat;
static struct metrics m;

static void setup(void)
{
	fx_catalog(&cat);
}

static void teardown(void)
{
	catalog_free(&cat);
}

TestSuite(fabric, .init = setup, .fini = teardown);

#define GiB (1024.0 * 1024 * 1024)

static double ar_busbw(const struct design *d, int algo)
{
	metrics_compute(d, &cat, GiB, 0, &m);
	return m.colls[COLL_ALLREDUCE].algo[algo].available ? m.colls[COLL_ALLREDUCE].algo[algo].busbw_GBps : 0;
}

Test(fabric, congestion_balls_into_bins)
{
	/* 4 flows on 4 links: P(max=1) 24/256, P(2) 180/256, P(3) 48/256, P(4) 4/256 -> 2.125. */
	cr_assert_float_eq(hash_expected_max_exact(4, 4), 2.125, 1e-12);
	cr_assert_float_eq(hash_expected_max(2, 2), 1.5, 1e-12);
	cr_assert_float_eq(hash_expected_max(5, 1), 5, 1e-12);
	/* The classic case: 8 GPUs in 4 servers with 2 x 100G each all talking at once:
	 * 8 flows on 8 links deliver about 40% of the peak. */
	cr_assert(fabs(hash_efficiency(8, 8) - 0.385) < 0.01, "%f", hash_efficiency(8, 8));
	/* Beyond the exact range the Poisson form stays within 0.2% of the exact value. */
	cr_assert(fabs(hash_expected_max(256, 32) / hash_expected_max_exact(256, 32) - 1) < 0.002);
	cr_assert(fabs(hash_expected_max(64, 16) / hash_expected_max_exact(64, 16) - 1) < 0.002);
	/* More links never hurt, more flows per link even out. */
	cr_assert_lt(hash_expected_max(64, 32), hash_expected_max(64, 16));
	cr_assert_gt(hash_efficiency(64, 4), hash_efficiency(8, 4));
}

Test(fabric, two_speedup_forms_differ)
{
	cr_assert_float_eq(speedup_step(64, 1.0, 1.0), 32, 1e-12);
	cr_assert_float_eq(speedup_amdahl(64, 1.0), 1, 1e-12);
	cr_assert_float_eq(speedup_step(64, 1.0, 0), 64, 1e-12);
	cr_assert_float_eq(speedup_amdahl(64, 0), 64, 1e-12);
}

Test(fabric, reference_case_one_switch_hashes_nothing)
{
	/* fabric-physics.md 1.1: NCCL binds each channel to one NIC and one ToR gives a packet
	 * no choice of path, so this wiring has no hashing loss: Ring runs at NCCL's own rate. */
	struct design d;
	const struct algo_result *ring;
	fx_reference(&d);
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_float_eq(m.fabric.node_ceiling_GBps, 50, 1e-9, "4 x 100 Gb/s / 8");
	cr_assert_eq(m.fabric.node.nnodes, 4);
	cr_assert(fabs(m.nccl.bw[COLL_ALLREDUCE][NA_RING][NP_SIMPLE] * busbw_factor(COLL_ALLREDUCE, 32) - 48) < 1e-9,
		  "NCCL's own ring: 4 channels at 12 GB/s (ladder below the 12.5 GB/s port)");
	ring = &m.colls[COLL_ALLREDUCE].algo[UA_RING];
	cr_assert_float_eq(ring->loss.factor, 1, 1e-12, "nothing hashes on one switch");
	cr_assert_not(ring->loss.hashed);
	/* By hand: A = 48 x 32/62 = 24.774 GB/s; latency (8.4 + 56 x 3.4 + 6 x 14) x 1.4 =
	 * 395.92 us (Intel: intra latency max(3.4, 3 x 1.0)); t = 395.92 + 2^30 / (1000 A) =
	 * 43737.6 us; busbw = 2^30 / t / 1000 x 62/32 = 47.57 GB/s. */
	cr_assert(fabs(ring->time_us - 43737.6) < 1.0, "%f", ring->time_us);
	cr_assert(fabs(ring->busbw_GBps - 47.57) < 0.01, "%f", ring->busbw_GBps);
	cr_assert_float_eq(ring->busbw_GBps, ring->nccl_busbw_GBps, 1e-9);
	cr_assert_eq(m.colls[COLL_ALLREDUCE].auto_algo, UA_RING);
	cr_assert(strstr(m.bottleneck, "bound by the NICs (4 x 100 Gb/s = 50.0 GB/s a node)"), "%s", m.bottleneck);
	design_free(&d);
}

Test(fabric, a_lag_hides_the_ports_from_nccl)
{
	/* nccl#1015: NCCL reads one port's speed for a bonded device, and one queue pair uses
	 * one port: the 4 x 100G LAG is one 12.5 GB/s device to it. Ladder 12: one channel. */
	struct design d;
	fx_reference(&d);
	DESIGN_BUNDLE(&d, 0)->lag = true;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_eq(m.fabric.node.cards, 1);
	cr_assert_eq(m.nccl.ring.c, 1);
	cr_assert_float_eq(m.nccl.ring.be, 12, 1e-12);
	cr_assert(fabs(m.nccl.bw[COLL_ALLREDUCE][NA_RING][NP_SIMPLE] * busbw_factor(COLL_ALLREDUCE, 32) - 12) < 1e-9);
	cr_assert_float_eq(m.fabric.node_ceiling_GBps, 50, 1e-9, "the wires still carry 50");
	cr_assert(strstr(m.bottleneck, "bonded links"), "%s", m.bottleneck);
	cr_assert(strstr(m.advice[0], "LAG hides"), "%s", m.advice[0]);
	design_free(&d);
}

Test(fabric, adaptive_routing_on_one_switch_changes_nothing)
{
	struct design d;
	double ecmp;
	fx_reference(&d);
	ecmp = ar_busbw(&d, UA_RING);
	d.fabric.routing = ROUTE_ADAPTIVE;
	cr_assert_float_eq(ar_busbw(&d, UA_RING), ecmp, 1e-9);
	design_free(&d);
}

Test(fabric, oversubscription_two_to_one)
{
	/* 32 servers x 1 NIC on one leaf: 32 x 400G down; 16 uplinks over 2 spines: 2:1. */
	struct design d;
	fx_clos(&d, 32, 1, WIRE_TOR, 1, 16, 2);
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_eq(m.fabric.ntiers, 2);
	cr_assert_float_eq(m.fabric.tiers[0].ratio, 2.0, 1e-12);
	cr_assert_float_eq(m.fabric.tiers[0].down_GBps, 32 * 50, 1e-9);
	cr_assert_float_eq(m.fabric.tiers[0].up_GBps, 16 * 50, 1e-9);
	cr_assert_float_eq(m.fabric.tiers[1].ratio, 0, 1e-12, "top tier");
	cr_assert_float_eq(m.fabric.gpus_per_link, 8, 1e-12);
	design_free(&d);
}

Test(fabric, oversubscribed_leaves_bind_and_advice_says_add_uplinks)
{
	/* 64 servers x 8 NICs rail-wired to 8 leaves... per leaf 64 down, 8 up: 8:1. */
	struct design d;
	fx_clos(&d, 64, 8, WIRE_TOR, 16, 4, 2);
	d.fabric.routing = ROUTE_ADAPTIVE;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_float_eq(m.fabric.tiers[0].ratio, 8.0, 1e-12);
	{
		const struct algo_result *tree = &m.colls[COLL_ALLREDUCE].algo[UA_TREE];
		cr_assert(tree->available);
		cr_assert_eq(tree->loss.binding, 0, "tree edges cross leaves: the leaf uplinks bind");
		cr_assert_lt(tree->busbw_GBps, tree->nccl_busbw_GBps * 0.5);
	}
	cr_assert(m.nadvice > 0);
	cr_assert(strstr(m.advice[0], "'leaf' oversubscription is 8:1 (above 4:1): add uplinks or switches above it"), "%s",
		  m.advice[0]);
	design_free(&d);
}

Test(fabric, one_to_one_has_no_fabric_penalty)
{
	struct design d;
	int a;
	fx_clos(&d, 32, 8, WIRE_RAIL, 8, 32, 4);
	d.fabric.routing = ROUTE_ADAPTIVE;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_float_eq(m.fabric.tiers[0].ratio, 1.0, 1e-12);
	for (a = 0; a < UA_COUNT; a++) {
		const struct algo_result *r = &m.colls[COLL_ALLREDUCE].algo[a];
		if (r->available)
			cr_expect_float_eq(r->loss.factor, 1, 1e-12, "%s loses nothing at 1:1", ualgo_names[a]);
	}
	design_free(&d);
}

/* Adding uplinks never lowers any busbw. */
Test(fabric, invariant_more_uplinks)
{
	int routing, coll, a, up;
	for (routing = ROUTE_ECMP; routing <= ROUTE_ADAPTIVE; routing++) {
		double prev[PATTERNS][UA_COUNT] = { { 0 } };
		for (up = 2; up <= 32; up *= 2) {
			struct design d;
			fx_clos(&d, 64, 8, WIRE_TOR, 16, up, 4);
			d.fabric.routing = routing;
			metrics_compute(&d, &cat, GiB, 0, &m);
			for (coll = 0; coll < PATTERNS; coll++)
				for (a = 0; a < UA_COUNT; a++) {
					double b = m.colls[coll].algo[a].available ? m.colls[coll].algo[a].busbw_GBps : 0;
					cr_expect_geq(b, prev[coll][a] - 1e-9, "%s %s: %d uplinks give %f < %f", coll_names[coll],
						      ualgo_names[a], up, b, prev[coll][a]);
					prev[coll][a] = b;
				}
			design_free(&d);
		}
	}
}

/* Doubling the NIC speed never lowers any busbw. */
Test(fabric, invariant_faster_nics)
{
	int coll, a, gbps;
	double prev[PATTERNS][UA_COUNT] = { { 0 } };
	for (gbps = 50; gbps <= 400; gbps *= 2) {
		struct design d;
		fx_clos(&d, 16, 8, WIRE_RAIL, 8, 16, 4);
		VEC_AT(DESIGN_SERVER(&d, 0)->nics, struct nic_spec, 0).speed_gbps = gbps;
		metrics_compute(&d, &cat, GiB, 0, &m);
		for (coll = 0; coll < PATTERNS; coll++)
			for (a = 0; a < UA_COUNT; a++) {
				double b = m.colls[coll].algo[a].available ? m.colls[coll].algo[a].busbw_GBps : 0;
				cr_expect_geq(b, prev[coll][a] - 1e-9, "%s %s at %d Gb/s: %f < %f", coll_names[coll],
					      ualgo_names[a], gbps, b, prev[coll][a]);
				prev[coll][a] = b;
			}
		design_free(&d);
	}
}

/* busbw never exceeds the slowest link it must cross: the node's network ceiling for
 * ring and tree across 3 or more nodes, NVLink inside one (NVLS and SHARP excepted). */
Test(fabric, invariant_physical_limit)
{
	int servers, coll;
	for (servers = 1; servers <= 64; servers *= 4) {
		struct design d;
		fx_clos(&d, servers, 8, WIRE_RAIL, 8, 32, 4);
		metrics_compute(&d, &cat, GiB, 0, &m);
		for (coll = 0; coll < 3; coll++) {
			const struct coll_result *c = &m.colls[coll];
			double limit = m.fabric.node.nnodes > 1 ? m.fabric.node_ceiling_GBps : m.fabric.nvlink_GBps;
			cr_expect_leq(c->algo[UA_RING].busbw_GBps, limit + 1e-9, "%s ring %d servers", coll_names[coll], servers);
			if (m.fabric.node.nnodes >= 3)
				cr_expect_leq(c->algo[UA_TREE].busbw_GBps, limit + 1e-9, "%s tree", coll_names[coll]);
		}
		design_free(&d);
	}
}

Test(fabric, cross_nic_rings_stay_on_their_rails)
{
	/* fabric-physics.md 2.2: with NCCL_CROSS_NIC NCCL swaps each channel pair on odd nodes,
	 * so hop i -> i+1 keeps its NIC index; on an even node count no hop changes rail, and an
	 * oversubscribed rail fabric costs the ring nothing more than without cross-NIC. */
	struct design d;
	double cross, same;
	fx_clos(&d, 64, 8, WIRE_RAIL, 16, 8, 2);
	d.fabric.routing = ROUTE_ADAPTIVE;
	cross = ar_busbw(&d, UA_RING);
	cr_assert(m.nccl.ring.cross);
	cr_assert_float_eq(m.colls[COLL_ALLREDUCE].algo[UA_RING].loss.factor, 1, 1e-12, "one hop per rail leaf");
	d.fabric.cross_nic = false;
	same = ar_busbw(&d, UA_RING);
	cr_assert_not(m.nccl.ring.cross);
	cr_assert_leq(same, cross + 1e-9, "NCCL's cross-NIC ring is the faster graph: %f vs %f", same, cross);
	design_free(&d);
}

Test(fabric, odd_node_wrap_needs_the_spine_inside_one_unit)
{
	/* One rail unit of 7 servers (odd): the wrap hop of a cross-NIC ring changes rail, and
	 * rails meet only at the spine; on a rail-only fabric it has no path. */
	struct design d;
	fx_clos(&d, 7, 8, WIRE_RAIL, 8, 8, 0);
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.nccl.ring.cross);
	cr_assert_not(m.colls[COLL_ALLREDUCE].algo[UA_RING].available);
	cr_assert(strstr(m.colls[COLL_ALLREDUCE].algo[UA_RING].loss.why, "wrap hop changes rail"), "%s",
		  m.colls[COLL_ALLREDUCE].algo[UA_RING].loss.why);
	d.fabric.cross_nic = false;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.colls[COLL_ALLREDUCE].algo[UA_RING].available, "same-NIC rings stay on the rail leaves");
	design_free(&d);
}

Test(fabric, workload_places_tp_on_nvlink_and_dp_on_the_network)
{
	struct design d;
	fx_clos(&d, 16, 8, WIRE_RAIL, 8, 32, 4);
	d.job.tp = 8;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.work.valid, "%s", m.work.why);
	cr_assert_eq(m.work.dp, 16);
	cr_assert(m.work.dims[DIM_TP].active);
	cr_assert_not(m.work.dims[DIM_TP].network, "TP 8 fits in an 8-GPU server");
	cr_assert(m.work.dims[DIM_DP].network);
	cr_assert_eq(m.work.dims[DIM_DP].per_node, 1, "one DP rank per node per TP group");
	/* Step time adds up. */
	cr_assert_float_eq(m.work.step_ms, m.work.compute_ms + m.work.bubble_ms + m.work.comm_exposed_ms, 1e-9);
	cr_assert_float_eq(m.work.speedup, m.work.gpus * m.work.compute_ms / m.work.step_ms, 1e-9);
	d.job.tp = 16;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.work.dims[DIM_TP].network);
	design_free(&d);
}

Test(fabric, large_design_costs_what_a_small_one_does)
{
	struct design small, big;
	fx_clos(&small, 32, 8, WIRE_RAIL, 8, 32, 4);
	fx_clos(&big, 16384, 8, WIRE_RAIL, 4096, 32, 2048);
	metrics_compute(&small, &cat, GiB, 0, &m);
	{
		double s = m.nccl.bw[COLL_ALLREDUCE][NA_RING][NP_SIMPLE] * busbw_factor(COLL_ALLREDUCE, m.nccl.nranks);
		metrics_compute(&big, &cat, GiB, 0, &m);
		cr_assert_eq(m.fabric.gpus, 131072);
		cr_assert_float_eq(m.nccl.bw[COLL_ALLREDUCE][NA_RING][NP_SIMPLE] * busbw_factor(COLL_ALLREDUCE, m.nccl.nranks),
				   s, 1e-9, "large-message ring busbw does not depend on the node count");
	}
	design_free(&small);
	design_free(&big);
}
