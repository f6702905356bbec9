/* What the hardware does beyond NCCL's own model, each against a value computed by hand:
 * NVLS at its wire bandwidth inside an NVLink domain (fabric-physics.md 6.1), the pipeline's
 * fill at mid sizes (7.1, 7.3), the transport's share of a NIC and its plugin latency (4). */
#include <criterion/criterion.h>
#include <math.h>
#include "model/collective.h"
#include "model/catalog.h"

#define MiB (1024.0 * 1024)
#define GiB (1024.0 * MiB)

static struct nccl_node nvswitch_node(int sm, int links, bool nvls, int G)
{
	struct nccl_node n = { 0 };
	n.sm = sm;
	n.ppn = n.gpus = n.span = G;
	n.nnodes = 1;
	n.cpu = CPU_INTEL;
	n.nvl = links * nccl_nvlink_per_link(sm);
	n.nvswitch = true;
	n.nvls = nvls;
	n.pci_gpu = nccl_pcie_bw(sm >= 90 ? 5 : 4, 16);
	n.cross_nic = true;
	return n;
}

static const struct algo_result *eval(const struct nccl_node *n, enum coll c, int ua, double bytes,
				      struct nccl_model *m, struct coll_result *r)
{
	nccl_model_build(n, m);
	collective_eval(NULL, m, c, bytes, NULL, r);
	return &r->algo[ua];
}

Test(ramp, nvls_runs_at_its_wire_bandwidth)
{
	/* 8 x H100: NVLink 18 x 20.6 = 370.8, NVLS efficiency 0.85, wire ratio 2 x 7 / 9:
	 * bus 370.8 x 0.85 x 14/9 = 490.28 GB/s; algbw 490.28 / 1.75 = 280.16. At 16 GiB the
	 * chunk is 128 KiB (16 GiB >= 64 x 16 channels x 8 heads x 128 KiB), the fill 15 chunks
	 * on 16 channels: 15 x 131072 x 16 / 280160 = 112.28 us; NCCL's NVLS latency 25 us. */
	struct nccl_node n = nvswitch_node(90, 18, true, 8);
	struct nccl_model m;
	struct coll_result r;
	const struct algo_result *a = eval(&n, COLL_ALLREDUCE, UA_NVLS, 16 * GiB, &m, &r);
	double alg = 370.8 * 0.85 * 8 / 9, t = 25 + 16 * GiB / (1000 * alg) + 15 * 131072.0 * 16 / (1000 * alg);
	cr_assert(a->available);
	cr_assert_float_eq(a->time_us, t, 1e-6 * t, "NVLS 16 GiB: %.3f us, by hand %.3f", a->time_us, t);
	cr_assert_float_eq(a->busbw_GBps, 16 * GiB / (1000 * t) * 1.75, 1e-6);
	/* B200 (NVLink5 18 x 40.1 = 721.8, efficiency 0.74) at 8 GPUs: bus 721.8 x 0.74 x 14/9. */
	n = nvswitch_node(100, 18, true, 8);
	a = eval(&n, COLL_ALLREDUCE, UA_NVLS, 16 * GiB, &m, &r);
	cr_assert(fabs(a->busbw_GBps - 721.8 * 0.74 * 14 / 9) < 0.01 * 721.8 * 0.74 * 14 / 9, "B200 NVLS %.1f",
		  a->busbw_GBps);
}

Test(ramp, nvls_gains_with_the_domain_size)
{
	/* The wire advantage 2(G-1)/(G+1) over a ring's 1: 0.67 at 2, 1.2 at 4, 1.56 at 8. */
	double prev = 0;
	int G;
	for (G = 2; G <= 8; G++) {
		struct nccl_node n = nvswitch_node(90, 18, true, G);
		struct nccl_model m;
		struct coll_result r;
		const struct algo_result *a = eval(&n, COLL_ALLREDUCE, UA_NVLS, 16 * GiB, &m, &r);
		double want = 370.8 * 0.85 * 2.0 * (G - 1) / (G + 1);
		if (!a->available)
			continue;
		cr_assert(fabs(a->busbw_GBps - want) < 0.01 * want, "G=%d: %.1f, by hand %.1f", G, a->busbw_GBps, want);
		cr_assert(a->busbw_GBps > prev);
		prev = a->busbw_GBps;
	}
	cr_assert(prev > 0);
}

Test(ramp, a_ring_fills_its_pipeline)
{
	/* 8 x A100 (NVLink 12 x 20 = 240): the ring's search gives 12 channels at 20, doubled to
	 * 24 at run time. At 32 MiB (Simple) the fill is min(3 slots x 512 KiB x 24 channels,
	 * 32 MiB) = 32 MiB at the 240 GB/s bus rate: 33554432 / 240000 = 139.81 us on top of
	 * NCCL's time. At 8 GiB it is 3 x 524288 x 24 / 240000 = 157.29 us. */
	struct nccl_node n = nvswitch_node(80, 12, false, 8);
	struct nccl_model m;
	struct coll_result r;
	const struct algo_result *a = eval(&n, COLL_ALLREDUCE, UA_RING, 32 * MiB, &m, &r);
	double nccl = nccl_time(&m, COLL_ALLREDUCE, NA_RING, NP_SIMPLE, 32 * MiB, 1.0);
	cr_assert_eq(m.ring.c, 12);
	cr_assert_eq(a->proto, NP_SIMPLE);
	cr_assert_float_eq(a->time_us - nccl, 33554432.0 / 240000, 1e-6, "fill %.3f us", a->time_us - nccl);
	a = eval(&n, COLL_ALLREDUCE, UA_RING, 8 * GiB, &m, &r);
	nccl = nccl_time(&m, COLL_ALLREDUCE, NA_RING, NP_SIMPLE, 8 * GiB, 1.0);
	cr_assert_float_eq(a->time_us - nccl, 3 * 524288.0 * 24 / 240000, 1e-6, "fill %.3f us", a->time_us - nccl);
	/* Large messages keep NCCL's bandwidth: within 0.2% at 16 GiB. */
	a = eval(&n, COLL_ALLREDUCE, UA_RING, 16 * GiB, &m, &r);
	cr_assert(fabs(a->busbw_GBps - a->nccl_busbw_GBps) < 0.002 * a->nccl_busbw_GBps);
}

Test(ramp, the_plugin_latency_joins_every_network_step)
{
	/* 2 nodes of 8 H100, 8 x 400G: EFA's 75 us joins each of the 2 x (2 - 1) network steps
	 * of a ring AllReduce, twice for Simple: +300 us; once for LL: +150 us. */
	struct nccl_node n = nvswitch_node(90, 18, false, 8), e;
	struct nccl_model m0, m1;
	n.nnodes = 2;
	n.cards = 8;
	n.ports_per_card = 1;
	n.net_bw = 50;
	n.card_pci = 48;
	e = n;
	e.net_lat = 75;
	nccl_model_build(&n, &m0);
	nccl_model_build(&e, &m1);
	cr_assert_float_eq(m1.lat[COLL_ALLREDUCE][NA_RING][NP_SIMPLE] - m0.lat[COLL_ALLREDUCE][NA_RING][NP_SIMPLE],
			   300, 1e-9);
	cr_assert_float_eq(m1.lat[COLL_ALLREDUCE][NA_RING][NP_LL] - m0.lat[COLL_ALLREDUCE][NA_RING][NP_LL], 150, 1e-9);
}

#include "fixtures.h"
#include "model/metrics.h"

Test(ramp, a_transport_carries_its_share_of_the_line)
{
	/* 2 x (8 H100, 32 x 100 Gb/s NICs speaking a transport of efficiency 0.9), one leaf.
	 * NCCL plans 12 GB/s on each 12.5 GB/s port (32 channels at 12 = 384); the transport
	 * carries 0.9 x 12.5 = 11.25: the ring runs at 11.25 / 12 = 0.9375 of NCCL's plan. */
	struct catalog cat;
	struct design d;
	struct cat_transport *tr;
	struct cat_nic *nic;
	struct server_group *g;
	struct nic_spec *ns;
	struct switch_group *s;
	struct bundle *b;
	static struct metrics m;
	fx_catalog(&cat);
	tr = vec_push(&cat.transports, sizeof *tr);
	memset(tr, 0, sizeof *tr);
	SETS(tr->name, "srd");
	tr->efficiency = 0.9;
	SETS(tr->source, "test");
	fx_nic(&cat, "efa100", 100, 1, 5);
	nic = &VEC_AT(cat.nics, struct cat_nic, cat.nics.n - 1);
	nic->protocol = PROTO_EFA;
	SETS(nic->transport, "srd");
	fx_switch(&cat, "eth32x100", 32, 100, 1, 0);
	VEC_AT(cat.switches, struct cat_switch, cat.switches.n - 1).protocol = PROTO_ETHERNET;
	design_init(&d);
	g = vec_push(&d.servers, sizeof *g);
	memset(g, 0, sizeof *g);
	SETS(g->name, "p5");
	g->count = 2;
	SETS(g->gpu, "h100");
	g->gpus = 8;
	SETS(g->scaleup, "nvswitch-gen3");
	ns = vec_push(&g->nics, sizeof *ns);
	memset(ns, 0, sizeof *ns);
	SETS(ns->model, "efa100");
	ns->count = 32;
	s = vec_push(&d.switches, sizeof *s);
	memset(s, 0, sizeof *s);
	SETS(s->name, "leaf");
	s->role = ROLE_LEAF;
	s->count = 32;
	SETS(s->model, "eth32x100");
	s->breakout = 1;
	b = vec_push(&d.bundles, sizeof *b);
	memset(b, 0, sizeof *b);
	SETS(b->from, "p5");
	SETS(b->to, "leaf");
	b->links_each = 32;
	b->wiring = WIRE_RAIL;
	d.job.params_b = 7;
	d.job.seq_len = 4096;
	d.job.global_batch = 64;
	d.job.layers = 32;
	d.job.hidden = 4096;
	design_assign_ids(&d);
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_eq(m.nccl.ring.c * (int)lround(m.nccl.ring.be), 384, "plan %d x %.1f", m.nccl.ring.c, m.nccl.ring.be);
	cr_assert_float_eq(m.loss[COLL_ALLREDUCE].algo[UA_RING].factor, 0.9375, 1e-9);
	cr_assert(m.loss[COLL_ALLREDUCE].algo[UA_RING].transport);
	cr_assert(strstr(m.loss[COLL_ALLREDUCE].algo[UA_RING].why, "srd") != NULL);
	design_free(&d);
	catalog_free(&cat);
}
