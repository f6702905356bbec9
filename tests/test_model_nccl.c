/* NCCL's own model against the calibration points of collective-model.md (Appendix A,
 * sections 3.8 and 5.1): at most 3% from the values of that document. */
#include <criterion/criterion.h>
#include <math.h>
#include "model/nccl.h"
#include "model/catalog.h"

static struct nccl_node single(int sm, int links, bool nvls)
{
	struct nccl_node n = { 0 };
	n.sm = sm;
	n.ppn = 8;
	n.nnodes = 1;
	n.cpu = CPU_INTEL;
	n.nvl = links * nccl_nvlink_per_link(sm);
	n.nvswitch = true;
	n.nvls = nvls;
	n.pci_gpu = nccl_pcie_bw(sm >= 90 ? 5 : 4, 16);
	n.cross_nic = true;
	return n;
}

static struct nccl_node multi(int sm, int links, int nodes, int nics, int gbps, int nic_gen, bool pxn_return)
{
	struct nccl_node n = single(sm, links, false);
	n.nnodes = nodes;
	n.cards = nics;
	n.ports_per_card = 1;
	n.net_bw = gbps / 8.0;
	n.card_pci = nccl_pcie_bw(nic_gen, 16);
	n.pxn_return = pxn_return;
	return n;
}

/* Large-message busbw NCCL's model predicts: A x the nccl-tests factor. */
static double busbw(const struct nccl_model *m, enum coll c, enum nalgo a, enum nproto p)
{
	return m->bw[c][a][p] * busbw_factor(c, m->nranks);
}

#define NEAR(got, want) cr_expect(fabs((got) - (want)) <= 0.03 * (want), "%s = %.2f, want %.2f", #got, got, (double)(want))

Test(nccl, constants)
{
	cr_assert_float_eq(nccl_nvlink_per_link(80), 20.0, 1e-12);
	cr_assert_float_eq(nccl_nvlink_per_link(90), 20.6, 1e-12);
	cr_assert_float_eq(nccl_nvlink_per_link(100), 40.1, 1e-12);
	cr_assert_float_eq(nccl_pcie_bw(3, 16), 12, 1e-12);
	cr_assert_float_eq(nccl_pcie_bw(4, 16), 24, 1e-12);
	cr_assert_float_eq(nccl_pcie_bw(5, 16), 48, 1e-12);
	cr_assert_float_eq(busbw_factor(COLL_ALLREDUCE, 8), 1.75, 1e-12);
	cr_assert_float_eq(busbw_factor(COLL_ALLGATHER, 8), 0.875, 1e-12);
	cr_assert_float_eq(busbw_factor(COLL_SENDRECV, 8), 1, 1e-12);
}

Test(nccl, h100_single_node_ring_360_nvls_476)
{
	struct nccl_node n = single(90, 18, true);
	struct nccl_model m;
	nccl_model_build(&n, &m);
	cr_expect_eq(m.ring.c, 12);
	cr_expect_float_eq(m.ring.bi, 30, 1e-9);
	cr_expect_eq(m.nvls.c, 8);
	cr_expect_float_eq(m.nvls.bi, 40, 1e-9);
	cr_expect_float_eq(m.nvls.be, 60, 1e-9);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_SIMPLE), 360);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_NVLS, NP_SIMPLE), 476);
	NEAR(m.bw[COLL_ALLREDUCE][NA_NVLS][NP_SIMPLE], 272);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_LL128), 331.2);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_LL), 141);
	/* Section 3.8's latencies and the 1 MiB / 4 MiB choices. */
	cr_expect_float_eq(m.lat[COLL_ALLREDUCE][NA_RING][NP_LL], 15.0, 1e-9);
	cr_expect_float_eq(m.lat[COLL_ALLREDUCE][NA_RING][NP_LL128], 40.6, 1e-9);
	cr_expect_float_eq(m.lat[COLL_ALLREDUCE][NA_RING][NP_SIMPLE], 56.0, 1e-9);
	cr_expect_float_eq(m.lat[COLL_ALLREDUCE][NA_TREE][NP_LL], 15.2, 1e-9);
	cr_expect_float_eq(m.lat[COLL_ALLREDUCE][NA_NVLS][NP_SIMPLE], 25.0, 1e-9);
	NEAR(nccl_time(&m, COLL_ALLREDUCE, NA_RING, NP_LL, 1 << 20, 1), 28.0);
	NEAR(nccl_time(&m, COLL_ALLREDUCE, NA_NVLS, NP_SIMPLE, 1 << 20, 1), 28.9);
	{
		enum nalgo a;
		enum nproto p;
		cr_assert(nccl_pick(&m, COLL_ALLREDUCE, 1 << 20, &a, &p));
		cr_expect(a == NA_RING && p == NP_LL, "1 MiB: Ring LL, got %s %s", nalgo_names[a], nproto_names[p]);
		cr_assert(nccl_pick(&m, COLL_ALLREDUCE, 4 << 20, &a, &p));
		cr_expect(a == NA_NVLS, "4 MiB: NVLS, got %s %s", nalgo_names[a], nproto_names[p]);
		cr_assert(nccl_pick(&m, COLL_ALLREDUCE, 1u << 30, &a, &p));
		cr_expect(a == NA_NVLS, "1 GiB: NVLS");
	}
}

Test(nccl, a100_single_node_ring_240)
{
	struct nccl_node n = single(80, 12, false);
	struct nccl_model m;
	nccl_model_build(&n, &m);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_SIMPLE), 240);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_LL128), 220.8);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_LL), 87.7);
	cr_expect_eq(m.bw[COLL_ALLREDUCE][NA_NVLS][NP_SIMPLE], 0, "no NVLS on A100");
	cr_expect_not_null(m.why_not[NA_NVLS]);
}

Test(nccl, b200_single_node_720)
{
	struct nccl_node n = single(100, 18, true);
	struct nccl_model m;
	nccl_model_build(&n, &m);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_SIMPLE), 720);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_NVLS, NP_SIMPLE), 720);
}

Test(nccl, dgx_a100_8_hdr_ring_192)
{
	struct nccl_node n = multi(80, 12, 4, 8, 200, 4, false);
	struct nccl_model m;
	nccl_model_build(&n, &m);
	cr_expect_eq(m.ring.c, 8);
	cr_expect_float_eq(m.ring.be, 24, 1e-9);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_SIMPLE), 192);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_LL128), 160);
	/* Section 5.1: Tree min(0.92 x C x bE, C x 17.8) = 142.4, algbw half of it. */
	NEAR(m.bw[COLL_ALLREDUCE][NA_TREE][NP_SIMPLE], 142.4 / 2);
}

Test(nccl, h100_8_ndr_ring_384_or_360)
{
	struct nccl_node n = multi(90, 18, 4, 8, 400, 5, true);
	struct nccl_model m;
	nccl_model_build(&n, &m);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_SIMPLE), 384);
	cr_expect(m.ring.cross, "384 comes from a cross-NIC ring");
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_LL128), 293.6);
	n.cross_nic = false;
	nccl_model_build(&n, &m);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_SIMPLE), 360);
	cr_expect_not(m.ring.cross);
	/* NVLS graph across nodes: bI 40, bE 48 (section 7.3, c3). */
	n.nvls = true;
	nccl_model_build(&n, &m);
	cr_expect_float_eq(m.nvls.bi, 40, 1e-9);
	cr_expect_float_eq(m.nvls.be, 48, 1e-9);
}

Test(nccl, one_hdr_per_node_24_and_four_96)
{
	struct nccl_node n = multi(80, 12, 4, 1, 200, 4, false);
	struct nccl_model m;
	nccl_model_build(&n, &m);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_SIMPLE), 24);
	n.cards = 4;
	nccl_model_build(&n, &m);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_SIMPLE), 96);
}

Test(nccl, pcie_only_node_24)
{
	struct nccl_node n = single(89, 0, false);
	struct nccl_model m;
	n.nvswitch = false;
	n.nvl = 0;
	n.pci_gpu = n.pci_intra = nccl_pcie_bw(4, 16);
	nccl_model_build(&n, &m);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_SIMPLE), 24);
	cr_expect_not(m.ll128, "no LL128 on PCIe-only nodes");
	cr_expect_eq(m.bw[COLL_ALLREDUCE][NA_RING][NP_LL128], 0);
	NEAR(busbw(&m, COLL_ALLREDUCE, NA_RING, NP_LL), 12);
}

Test(nccl, small_messages_latency_16_nodes)
{
	/* Section 5.1: 16 x 8 A100 on Intel: Ring LL 311.6, LL128 559.6, Simple 1190 (x1.4 for
	 * large messages); Tree LL 55.2, LL128 99.5, Simple 176.4 us of latency. */
	struct nccl_node n = multi(80, 12, 16, 8, 200, 4, false);
	struct nccl_model m;
	nccl_model_build(&n, &m);
	NEAR(m.lat[COLL_ALLREDUCE][NA_RING][NP_LL], 311.6);
	NEAR(m.lat[COLL_ALLREDUCE][NA_RING][NP_LL128], 559.6);
	NEAR(m.lat[COLL_ALLREDUCE][NA_RING][NP_SIMPLE], 1190);
	NEAR(m.lat[COLL_ALLREDUCE][NA_TREE][NP_LL], 55.2);
	NEAR(m.lat[COLL_ALLREDUCE][NA_TREE][NP_LL128], 99.5);
	NEAR(m.lat[COLL_ALLREDUCE][NA_TREE][NP_SIMPLE], 176.4);
	{
		enum nalgo a;
		enum nproto p;
		cr_assert(nccl_pick(&m, COLL_ALLREDUCE, 65536, &a, &p));
		cr_expect_eq(a, NA_TREE, "small: Tree wins");
		cr_assert(nccl_pick(&m, COLL_ALLREDUCE, 4.0 * (1u << 30), &a, &p));
		cr_expect_eq(a, NA_RING, "large: Ring wins");
	}
}

Test(nccl, model_cost_does_not_depend_on_node_count)
{
	struct nccl_node a = multi(90, 18, 4, 8, 400, 5, true), b = a;
	struct nccl_model ma, mb;
	b.nnodes = 16384;
	nccl_model_build(&a, &ma);
	nccl_model_build(&b, &mb);
	cr_expect_eq(ma.ring.c, mb.ring.c);
	cr_expect_float_eq(busbw(&ma, COLL_ALLREDUCE, NA_RING, NP_SIMPLE), busbw(&mb, COLL_ALLREDUCE, NA_RING, NP_SIMPLE),
			   1e-9);
}
