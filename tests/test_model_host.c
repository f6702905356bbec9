/* The host inside a node (fabric-physics.md 5; collective-model.md 2.3, 2.4, 7.3 b): PCIe
 * switches, P2P, CPU sockets and NVLink bridges, each against a value computed by hand
 * from NCCL's rules. */
#include <criterion/criterion.h>
#include <math.h>
#include "model/nccl.h"
#include "model/catalog.h"

/* An 8-GPU PCIe Gen4 box (L40S-like, sm 89): GPUs on switches of `sw` GPUs (0: root
 * ports), spread over `sockets`. */
static struct nccl_node pcie_box(int sockets, int sw, int cpu, bool p2p)
{
	struct nccl_node n = { 0 };
	n.sm = 89;
	n.ppn = n.gpus = n.span = 8;
	n.nnodes = 1;
	n.cpu = cpu;
	n.pci_gpu = nccl_pcie_bw(4, 16); /* 24 */
	n.sockets = sockets;
	n.sys_bw = cpu_sys_GBps(cpu);
	n.p2p = p2p;
	n.sw_gpus = sw;
	n.sw_up = sw ? nccl_pcie_bw(4, 16) : 0;
	nccl_node_host(&n);
	return n;
}

static double ring_busbw(const struct nccl_node *n)
{
	struct nccl_model m;
	nccl_model_build(n, &m);
	return m.bw[COLL_ALLREDUCE][NA_RING][NP_SIMPLE] * busbw_factor(COLL_ALLREDUCE, m.nranks);
}

Test(host, one_switch_p2p_is_the_gpu_link)
{
	/* Every GPU's x16 Gen4 link carries the ring once per direction: 24 GB/s, P2P. */
	struct nccl_node n = pcie_box(1, 8, CPU_INTEL, true);
	cr_assert_eq(n.intra_path, HP_PIX_P2P);
	cr_assert_float_eq(n.pci_intra, 24.0, 1e-9);
}

Test(host, two_sockets_are_bound_by_the_socket_link)
{
	/* 4 GPUs per socket on one switch each: the ring leaves each switch once (up 24/1.2 on
	 * Intel, the path is typed through the CPU) and crosses the socket link once per
	 * direction: min(24/1.2, 10) = 10 on Skylake-class Intel, min(24, 16) = 16 on AMD. */
	struct nccl_node intel = pcie_box(2, 8, CPU_INTEL, true), amd = pcie_box(2, 8, CPU_AMD, true);
	struct nccl_node spr = pcie_box(2, 8, CPU_INTEL_SPR, true), emr = pcie_box(2, 8, CPU_INTEL_EMR, true);
	cr_assert_eq(intel.intra_path, HP_SYS_SHM);
	cr_assert_float_eq(intel.pci_intra, 10.0, 1e-9);
	cr_assert_float_eq(amd.pci_intra, 16.0, 1e-9);
	cr_assert_float_eq(spr.pci_intra, 20.0, 1e-9);  /* 24/1.2 binds before SPR's 22 */
	cr_assert_float_eq(emr.pci_intra, 20.0, 1e-9);
	/* The search at those speeds (intra ladder): 10 -> 1 channel x 10; 16 -> 1 x 15. */
	{
		struct nccl_node one = pcie_box(1, 8, CPU_AMD, true);
		cr_assert(ring_busbw(&intel) < ring_busbw(&amd));
		cr_assert(ring_busbw(&amd) < ring_busbw(&one));
	}
}

Test(host, a_communicator_inside_one_socket_does_not_cross_it)
{
	/* TP 4 on the first 4 GPUs of a two-socket box: one switch, P2P, 24. */
	struct nccl_node n = pcie_box(2, 8, CPU_INTEL, true);
	n.ppn = n.span = 4;
	nccl_node_host(&n);
	cr_assert_eq(n.intra_path, HP_PIX_P2P);
	cr_assert_float_eq(n.pci_intra, 24.0, 1e-9);
	/* DP of 4 at stride 2 covers all 8 GPUs: across the sockets again. */
	n.span = 8;
	nccl_node_host(&n);
	cr_assert_eq(n.intra_path, HP_SYS_SHM);
	cr_assert_float_eq(n.pci_intra, 10.0, 1e-9);
}

Test(host, root_ports_go_through_host_memory)
{
	/* No PCIe switch: GPU pairs are typed PHB, P2P stays off (NCCL_P2P_LEVEL PXB), SHM;
	 * on Intel the GPU links are charged 1.2x: 24/1.2 = 20. AMD with 2 GPUs allows P2P up
	 * to SYS: 24. */
	struct nccl_node n = pcie_box(1, 0, CPU_INTEL, true), a = pcie_box(1, 0, CPU_AMD, true);
	cr_assert_eq(n.intra_path, HP_PHB_SHM);
	cr_assert_float_eq(n.pci_intra, 20.0, 1e-9);
	a.ppn = a.span = 2;
	nccl_node_host(&a);
	cr_assert_eq(a.intra_path, HP_PHB_P2P);
	cr_assert_float_eq(a.pci_intra, 24.0, 1e-9);
}

Test(host, no_p2p_under_one_switch_shares_its_uplink)
{
	/* GeForce cards (no P2P) under one switch: every hop goes up to host memory and back
	 * down the same x16 uplink, 8 hops per direction: min(24/1.2, 24/1.2/8) = 2.5. */
	struct nccl_node n = pcie_box(1, 8, CPU_INTEL, false);
	cr_assert_eq(n.intra_path, HP_PHB_SHM);
	cr_assert_float_eq(n.pci_intra, 2.5, 1e-9);
	/* On root ports each GPU has its own link to the CPU: 24/1.2 = 20. */
	n = pcie_box(1, 0, CPU_INTEL, false);
	cr_assert_float_eq(n.pci_intra, 20.0, 1e-9);
}

Test(host, a_bridge_joins_its_pair_only)
{
	/* H100 PCIe: 12 NVLink links per bridged pair, 12 x 20.6 = 247.2 GB/s as NCCL counts
	 * them; a ring of 8 bridged cards still has PCIe hops (fabric-physics.md 5.1). */
	struct nccl_node n = pcie_box(2, 0, CPU_INTEL, true);
	n.sm = 90;
	n.pci_gpu = nccl_pcie_bw(5, 16);
	n.bridge_gpus = 2;
	n.bridge_nvl = 12 * nccl_nvlink_per_link(90);
	nccl_node_host(&n);
	cr_assert_float_eq(n.nvl, 0.0, 1e-12);
	cr_assert_eq(n.intra_path, HP_SYS_SHM);
	cr_assert_float_eq(n.pci_intra, 10.0, 1e-9); /* min(48/1.2, 10) */
	n.ppn = n.span = 2;
	nccl_node_host(&n);
	cr_assert_eq(n.intra_path, HP_NVL);
	cr_assert_float_eq(n.nvl, 247.2, 1e-9);
	/* And the ring over the pair runs on the bridge: far above any PCIe path. */
	cr_assert(ring_busbw(&n) > 200);
	/* Never above it: an 8-GPU ring is no faster than its PCIe hop. */
	n.ppn = n.span = 8;
	nccl_node_host(&n);
	cr_assert(ring_busbw(&n) <= 10.0 + 1e-9);
}

Test(host, sys_bandwidth_per_cpu_generation)
{
	cr_assert_float_eq(cpu_sys_GBps(CPU_INTEL_BDW), 6.0, 1e-12);
	cr_assert_float_eq(cpu_sys_GBps(CPU_INTEL), 10.0, 1e-12);
	cr_assert_float_eq(cpu_sys_GBps(CPU_INTEL_SPR), 22.0, 1e-12);
	cr_assert_float_eq(cpu_sys_GBps(CPU_INTEL_EMR), 40.0, 1e-12);
	cr_assert_float_eq(cpu_sys_GBps(CPU_AMD), 16.0, 1e-12);
	cr_assert_float_eq(cpu_sys_GBps(CPU_ARM), 6.0, 1e-12);
	cr_assert(cpu_is_intel(CPU_INTEL_SPR) && !cpu_is_intel(CPU_AMD));
}
