/* nccl.c: NCCL's channel search and tuning model (collective-model.md sections 2-3, 7). */
#include "model/nccl.h"
#include "model/catalog.h"
#include <math.h>
#include <string.h>

const char *const coll_names[] = { "allreduce", "allgather", "reducescatter", "alltoall", "sendrecv",
				   "broadcast", "reduce", NULL };
const char *const nalgo_names[] = { "tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvlstree", "pat", NULL };
const char *const nproto_names[] = { "LL", "LL128", "Simple", NULL };

/* ---- constants (section 3.2) ------------------------------------------------------ */

/* Speed ladders, GB/s per channel (section 2.5): [sm<90, 90-99, >=100]. */
static const double ladder_intra[3][14] = {
	{ 40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 0 },
	{ 60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3, 0 },
	{ 90, 80, 70, 60, 50, 45, 40, 30, 24, 20, 19, 18, 0 },
};
static const double ladder_inter[3][21] = {
	{ 48, 30, 28, 24, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2, 0.24, 0.12, 0 },
	{ 48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12, 0 },
	{ 96, 86, 80, 48, 45.1, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12, 0 },
};

/* [compCapIndex: Volta, Ampere, Hopper, Blackwell][min(nNodes-1, 2)] */
static const double ll_max_bw[4][3] = { { 39.0, 39.0, 20.4 }, { 87.7, 22.5, 19.0 }, { 141.0, 45.0, 35.0 },
					{ 282.0, 90.0, 70.0 } };
static const double per_ch_ring_ll128[4][3] = { { 20, 20, 20 }, { 20, 20, 20 }, { 36.7, 36.7, 36.7 }, { 40, 40, 40 } };
static const double per_ch_tree_ll128[4][3] = { { 20, 20, 20 }, { 20, 20, 20 }, { 36.7, 36.7, 29.0 },
						{ 55.6, 31.67, 20.0 } };
static const double per_ch_tree[4][3] = { { 26.5, 18.5, 10.0 }, { 24.0, 23.6, 17.8 }, { 38.7, 41.4, 36.0 },
					  { 70.0, 42.8, 24.0 } };
static const double per_ch_nvlstree[4][3] = { { 26.5, 18.5, 10.0 }, { 24.0, 23.6, 17.8 }, { 0, 57.7, 45.5 },
					      { 0, 96.0, 80.0 } };
static const double nvls_eff[4] = { 0, 0, 0.85, 0.74 };

static const double base_lat[NA_COUNT][NP_COUNT] = {
	[NA_TREE] = { 6.8, 14.0, 8.4 }, [NA_RING] = { 6.6, 14.0, 8.4 }, [NA_PAT] = { 8.0, 8.0, 8.0 },
};
#define HW_NVLINK NCCL_HW_NVLINK
#define HW_PCI NCCL_HW_PCI
#define HW_NET NCCL_HW_NET
static const double hw_lat[3][NA_COUNT][NP_COUNT] = {
	[HW_NVLINK] = { [NA_TREE] = { .6, 1.25, 4.0 }, [NA_RING] = { .6, 1.9, 3.4 }, [NA_COLLNET_DIRECT] = { 0, 0, 3.7 },
			[NA_COLLNET_CHAIN] = { 0, 0, 2.8 }, [NA_NVLS] = { 0, 0, 25 }, [NA_NVLSTREE] = { 0, 0, 25 },
			[NA_PAT] = { 0, 0, 4.0 } },
	[HW_PCI] = { [NA_TREE] = { 1.0, 1.9, 4.0 }, [NA_RING] = { 1.0, 2.5, 5.7 }, [NA_COLLNET_DIRECT] = { 0, 0, 3.7 },
		     [NA_COLLNET_CHAIN] = { 0, 0, 2.8 }, [NA_NVLS] = { 0, 0, 0 }, [NA_NVLSTREE] = { 0, 0, 0 },
		     [NA_PAT] = { 0, 0, 4.0 } },
	[HW_NET] = { [NA_TREE] = { 5.0, 8.5, 14 }, [NA_RING] = { 2.7, 4.0, 14.0 }, [NA_COLLNET_DIRECT] = { 0, 0, 31 },
		     [NA_COLLNET_CHAIN] = { 0, 0, 30 }, [NA_NVLS] = { 0, 0, 18 }, [NA_NVLSTREE] = { 0, 0, 20.9 },
		     [NA_PAT] = { 0, 0, 14 } },
};

double nccl_ring_step_us(enum nccl_hw hw)
{
	return hw_lat[hw][NA_RING][NP_SIMPLE];
}

double nccl_ring_base_us(void)
{
	return base_lat[NA_RING][NP_SIMPLE];
}

/* treeCorrectionFactor, indexed by log2(bytes / 64). */
static const double tree_corr[NP_COUNT][24] = {
	{ 1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0 },
	{ 1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0 },
	{ .9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9 },
};

static int cc_index(int sm)
{
	return sm < 80 ? 0 : sm < 90 ? 1 : sm < 100 ? 2 : 3;
}

static int ladder_row(int sm)
{
	return sm < 90 ? 0 : sm < 100 ? 1 : 2;
}

double nccl_nvls_efficiency(int sm)
{
	return nvls_eff[cc_index(sm)];
}

double nccl_nvlink_per_link(int sm)
{
	if (sm >= 100)
		return 40.1;
	if (sm >= 90)
		return 20.6;
	if (sm == 86)
		return 12.0;
	if (sm >= 70)
		return 20.0;
	if (sm >= 60)
		return 18.0;
	return 0;
}

double nccl_pcie_bw(int gen, int lanes)
{
	/* NCCL: width x speed / 80 with speed 15, 30, 60, 120, 240, 480 (units of 100 Mb/s);
	 * an unknown speed counts as Gen3, a width of 0 as 16. */
	static const double per_lane[] = { 0.75, 0.1875, 0.375, 0.75, 1.5, 3.0, 6.0, 12.0 };
	if (lanes <= 0)
		lanes = 16;
	if (gen < 1 || gen > 7)
		gen = 0;
	return lanes * per_lane[gen];
}

double busbw_factor(enum coll c, int n)
{
	if (n < 1)
		n = 1;
	switch (c) {
	case COLL_ALLREDUCE:
		return 2.0 * (n - 1) / n;
	case COLL_ALLGATHER:
	case COLL_REDUCESCATTER:
	case COLL_ALLTOALL:
		return (double)(n - 1) / n;
	default:
		return 1.0;
	}
}

/* ---- the channel search (section 2.5, 7.3) ----------------------------------------- */

struct search {
	const double *ladder;
	double max_bw, total_bw;
	int min_ch, max_ch;
	bool dup, nvls;
	int sm;
};

typedef int (*cmax_fn)(const struct nccl_node *n, double s, int arg);

static int fl(double x)
{
	return (int)floor(x + 1e-9);
}

static struct nccl_graph search(const struct search *in, const struct nccl_node *n, cmax_fn cmax, int arg)
{
	struct nccl_graph best = { 0, 0, 0, false };
	int i;
	for (i = 0; in->ladder[i] > 0; i++) {
		double s = in->ladder[i];
		int c;
		if (s > in->max_bw + 1e-9 || s * in->min_ch > in->total_bw + 1e-9)
			continue; /* not yet at the first speed that fits */
		if (best.c && s / best.bi <= 0.49)
			break;
		c = cmax(n, s, arg);
		if (c > in->max_ch)
			c = in->max_ch;
		if (c >= in->min_ch && c * s > best.c * best.bi + 1e-9) {
			best.c = c;
			best.bi = best.be = s;
		}
		if (best.c && (best.c == in->max_ch || best.c * best.bi >= in->total_bw - 1e-9))
			break;
	}
	if (!best.c) {
		best.c = 1;
		best.bi = best.be = 0.1;
		return best;
	}
	/* Channel duplication: C doubles, the speed halves, C x speed is kept. */
	if (in->dup && best.bi >= 25 && !(in->sm > 80 && best.bi < 50 && best.c > 4)) {
		int c2 = best.c * 2 < in->max_ch ? best.c * 2 : in->max_ch;
		int div = (c2 + best.c - 1) / best.c;
		best.bi /= div;
		best.be /= div;
		best.c = c2;
	}
	return best;
}

static double intra_bw(const struct nccl_node *n)
{
	return n->nvl > 0 ? n->nvl : n->pci_intra;
}

const char *const host_path_names[] = { "NVLink", "PCIe switch (P2P)", "CPU root complex (P2P)",
					"CPU sockets (P2P)", "host memory (SHM)", "host memory across sockets (SHM)",
					NULL };

/* What one ring channel reserves on the host's links, as NCCL's search charges them
 * (collective-model.md 7.3 b; fabric-physics.md 5.2-5.3), for ranks on the first `span`
 * GPUs of the node:
 *   - every GPU's own link carries the channel once per direction;
 *   - P2P (PCIe peer-to-peer) is used up to one PCIe switch (NCCL_P2P_LEVEL PXB), and up to
 *     the socket link on AMD with at most 2 GPUs; other pairs go through host memory (SHM);
 *   - a hop through the CPU charges the PCIe links 1.2x on Intel (INTEL_P2P_OVERHEAD);
 *   - a switch's uplink carries the channel once per direction when the ring leaves and
 *     re-enters the switch by P2P, and once per hop of its GPUs when they use SHM (each
 *     hop goes up to host memory and down again);
 *   - a ring over two sockets crosses the socket link once in each direction. */
void nccl_node_host(struct nccl_node *n)
{
	int G = n->gpus > 0 ? n->gpus : n->ppn, sockets = n->sockets > 1 ? n->sockets : 1;
	int span = n->span > n->ppn ? n->span : n->ppn, per_socket = (G + sockets - 1) / sockets;
	int sw = n->sw_gpus > 0 ? (n->sw_gpus < per_socket ? n->sw_gpus : per_socket) : 0;
	bool one_switch = sw > 0 && span <= sw, one_socket = span <= per_socket;
	bool p2p, intel = cpu_is_intel(n->cpu);
	double b = n->pci_gpu, f;
	if (span > G)
		span = G;
	if (n->bridge_gpus > 0) {
		/* Bridged pairs (or quads): NVLink only while the communicator stays in one. */
		n->nvl = n->ppn >= 2 && span <= n->bridge_gpus ? n->bridge_nvl : 0;
	}
	if (n->nvl > 0) {
		n->intra_path = HP_NVL;
		n->pci_intra = n->pci_gpu;
		return;
	}
	p2p = n->p2p && (one_switch || (n->cpu == CPU_AMD && n->ppn <= 2));
	if (p2p)
		n->intra_path = one_switch ? HP_PIX_P2P : one_socket ? HP_PHB_P2P : HP_SYS_P2P;
	else
		n->intra_path = one_socket ? HP_PHB_SHM : HP_SYS_SHM;
	/* Intel's charge applies to paths typed PHB (through one root complex). */
	f = intel && (n->intra_path == HP_PHB_P2P || n->intra_path == HP_PHB_SHM ||
		      (!one_switch && span > 1 && (sw == 0 || span > sw))) ? 1.2 : 1.0;
	if (!one_switch && !(n->intra_path == HP_SYS_P2P && sw == 0))
		b /= f;
	if (sw > 0 && !one_switch) {
		/* Ranks of the communicator under one switch (the span fills switches in order). */
		int k = sw * n->ppn / (span > 0 ? span : 1);
		double up = n->sw_up > 0 ? n->sw_up : n->pci_gpu;
		if (k < 1)
			k = 1;
		up /= f;
		if (p2p || n->p2p)
			b = b < up ? b : up;         /* P2P inside the switch, one crossing per direction */
		else
			b = b < up / k ? b : up / k; /* every hop of its GPUs crosses the uplink */
	} else if (sw > 0 && one_switch && !p2p) {
		/* One switch without P2P: every hop goes up to host memory and back. */
		double up = n->sw_up > 0 ? n->sw_up : n->pci_gpu;
		int k = n->ppn > 0 ? n->ppn : 1;
		n->intra_path = HP_PHB_SHM;
		up /= intel ? 1.2 : 1.0;
		b = n->pci_gpu / (intel ? 1.2 : 1.0);
		b = b < up / k ? b : up / k;
	}
	if (!one_socket && n->sys_bw > 0 && b > n->sys_bw)
		b = n->sys_bw;
	n->pci_intra = b;
}

static int net_channels(const struct nccl_node *n, double s)
{
	int per_port = fl(n->net_bw / s), per_card = fl(n->card_pci / s);
	int card = n->ports_per_card * per_port < per_card ? n->ports_per_card * per_port : per_card;
	return n->cards * card;
}

/* Ring: arg is the NVLink hops a channel takes inside a node (G-1, or G with a PXN return). */
static int ring_cmax(const struct nccl_node *n, double s, int hops)
{
	int net, intra;
	if (n->nnodes == 1)
		return fl(intra_bw(n) / s);
	net = net_channels(n, s);
	if (n->ppn < 2 || hops < 1)
		return net;
	intra = fl(intra_bw(n) * n->ppn / (hops * s));
	return net < intra ? net : intra;
}

static double path_to_net(const struct nccl_node *n)
{
	return n->net_bw < n->card_pci ? n->net_bw : n->card_pci;
}

static struct nccl_graph ring_graph(const struct nccl_node *n)
{
	struct search in;
	struct nccl_graph same, cross;
	int r = ladder_row(n->sm);
	memset(&in, 0, sizeof in);
	in.sm = n->sm;
	in.min_ch = 1;
	in.max_ch = 32;
	in.dup = true;
	in.total_bw = n->nvl > n->pci_gpu ? n->nvl : n->pci_gpu;
	if (n->nnodes == 1) {
		in.ladder = ladder_intra[r];
		in.max_bw = intra_bw(n);
		if (in.total_bw < in.max_bw)
			in.total_bw = in.max_bw;
		return search(&in, n, ring_cmax, n->ppn - 1);
	}
	in.ladder = ladder_inter[r];
	in.max_bw = path_to_net(n);
	same = search(&in, n, ring_cmax, n->pxn_return ? n->ppn : n->ppn - 1);
	if (!n->pxn_return || !n->cross_nic)
		return same;
	/* NCCL_CROSS_NIC: a ring entering on one NIC and leaving on another saves the PXN hop;
	 * NCCL keeps it only if C x speed is strictly higher. */
	cross = search(&in, n, ring_cmax, n->ppn - 1);
	if (cross.c * cross.be > same.c * same.be + 1e-9) {
		cross.cross = true;
		return cross;
	}
	return same;
}

static double ladder_max_fit(const double *ladder, double cap, double limit)
{
	/* Largest ladder speed s with s <= cap, s <= limit. */
	int i;
	for (i = 0; ladder[i] > 0; i++)
		if (ladder[i] <= cap + 1e-9 && ladder[i] <= limit + 1e-9)
			return ladder[i];
	return 0;
}

static struct nccl_graph tree_graph(const struct nccl_node *n, const struct nccl_graph *ring)
{
	struct nccl_graph t = *ring;
	int r = ladder_row(n->sm);
	t.cross = false;
	if (n->nnodes == 1) {
		double s = ladder_max_fit(ladder_intra[r], intra_bw(n) / t.c, 1e9);
		if (s > 0)
			t.bi = t.be = s;
	} else if (n->nnodes <= 2) {
		/* Pass 2 raises the intra speed while it is below 2 x bE and the chain fits. */
		double s = ladder_max_fit(ladder_inter[r], intra_bw(n) / t.c, 2 * t.be);
		if (s > t.bi)
			t.bi = s;
	}
	return t;
}

static struct nccl_graph nvls_graph(const struct nccl_node *n)
{
	struct nccl_graph g = { 0, 0, 0, false };
	int r = ladder_row(n->sm), i, G = n->ppn;
	const double *lad = n->nnodes == 1 ? ladder_intra[r] : ladder_inter[r];
	double start = G > 1 ? n->nvl / (G - 1) : n->nvl;
	if (!n->nvls || G < 2)
		return g;
	g.c = n->nnodes == 1 ? (G < 32 ? G : 32) : (n->cards * n->ports_per_card < G ? n->cards * n->ports_per_card : G);
	/* Each channel reserves bI on every GPU's link and 2 x bI on the head's. */
	g.bi = ladder_max_fit(lad, n->nvl / (G + 1), start);
	if (g.bi <= 0) {
		g.c = 0;
		return g;
	}
	/* Pass 2 raises bE towards 2 x bI (multi-node: as far as the NIC path allows). */
	g.be = g.bi;
	for (i = 0; lad[i] > 0; i++)
		;
	for (i = i - 1; i >= 0; i--) {
		double s = lad[i];
		if (s <= g.be)
			continue;
		if (n->nnodes > 1 && s > path_to_net(n) + 1e-9)
			break;
		g.be = s;
		if (s >= 2 * g.bi)
			break;
	}
	return g;
}

static struct nccl_graph collnet_graph(const struct nccl_node *n, const struct nccl_graph *ring)
{
	struct nccl_graph g = *ring;
	int ports = n->cards * n->ports_per_card;
	g.cross = false;
	g.c = ports < n->ppn ? ports : n->ppn;
	if (g.c < 1)
		g.c = 1;
	g.bi = ladder_max_fit(ladder_inter[ladder_row(n->sm)], intra_bw(n) / g.c, 2 * g.be);
	if (g.bi < g.be)
		g.bi = g.be;
	return g;
}

/* ---- tuning (section 3.3, 3.4, 3.6) -------------------------------------------------- */

static const struct nccl_graph *graph_of(const struct nccl_model *m, enum nalgo a)
{
	switch (a) {
	case NA_RING:
		return &m->ring;
	case NA_COLLNET_DIRECT:
	case NA_COLLNET_CHAIN:
		return &m->collnet;
	case NA_NVLS:
	case NA_NVLSTREE:
		return &m->nvls;
	default:
		return &m->tree;
	}
}

static bool computed(enum coll c, enum nalgo a, enum nproto p)
{
	if (c == COLL_ALLTOALL || c == COLL_SENDRECV)
		return false;
	if ((a == NA_NVLS || a == NA_NVLSTREE || a == NA_PAT || a == NA_COLLNET_DIRECT || a == NA_COLLNET_CHAIN) &&
	    p != NP_SIMPLE)
		return false;
	if (c == COLL_BROADCAST || c == COLL_REDUCE)
		return a == NA_RING;
	if (c == COLL_ALLGATHER || c == COLL_REDUCESCATTER)
		return a == NA_RING || a == NA_PAT || a == NA_NVLS || a == NA_COLLNET_DIRECT;
	return a != NA_PAT;
}

static double tune_bw(const struct nccl_model *m, enum coll c, enum nalgo a, enum nproto p)
{
	const struct nccl_node *n = &m->node;
	const struct nccl_graph *g = graph_of(m, a);
	int cc = cc_index(n->sm), col = n->nnodes - 1 < 2 ? n->nnodes - 1 : 2, N = m->nranks;
	double b, B, ll_max, nsteps;
	bool collnet = a == NA_COLLNET_DIRECT || a == NA_COLLNET_CHAIN;
	if (!g->c)
		return 0;
	ll_max = n->nnodes == 1 ? ll_max_bw[cc][0] : ll_max_bw[n->cpu == CPU_AMD ? 1 : 0][col < 1 ? 1 : col];
	nsteps = c == COLL_ALLREDUCE ? 2.0 * (N - 1) : (c == COLL_ALLGATHER || c == COLL_REDUCESCATTER) ? N - 1.0 : N;
	if (nsteps <= 0)
		return 0;
	b = (n->nnodes <= 2 || collnet) ? g->bi : g->be;
	if (a == NA_NVLS || a == NA_NVLSTREE) {
		double intra, inter;
		if (g->c < 2)
			return 0;
		intra = g->bi * nvls_eff[cc] * (g->c - 1) / g->c;
		intra *= c == COLL_ALLREDUCE ? 2.0 : (double)(n->ppn - 1) / n->ppn;
		inter = g->be * (a == NA_NVLSTREE && n->nnodes <= 2 ? 2.0 : 1.0);
		b = intra < inter ? intra : inter;
		if (a == NA_NVLSTREE && per_ch_nvlstree[cc][col] < b)
			b = per_ch_nvlstree[cc][col];
	}
	B = g->c * b;
	if (a == NA_RING && p == NP_LL)
		B = ll_max < 0.5 * B ? ll_max : 0.5 * B;
	else if (a == NA_RING && p == NP_LL128)
		B = fmin(0.92 * B, g->c * per_ch_ring_ll128[cc][col]);
	if (a == NA_TREE && c == COLL_ALLREDUCE) {
		B = fmin(0.92 * B, g->c * per_ch_tree[cc][col]);
		if (p == NP_LL)
			B = fmin(B / 3.8, ll_max);
		else if (p == NP_LL128)
			B = fmin(B * (n->nnodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0), g->c * per_ch_tree_ll128[cc][col]);
	}
	if (a == NA_PAT)
		B *= 0.75;
	if (a == NA_COLLNET_DIRECT) {
		if (c == COLL_ALLGATHER || c == COLL_REDUCESCATTER) {
			B = n->ppn * fmin(g->bi, 0.9 * g->be);
		} else {
			double f = (double)n->ppn / g->c;
			f -= (f - 1) / 2;
			B /= f;
			if (n->sm >= 90)
				B *= 0.85;
		}
	}
	if ((a == NA_NVLS || a == NA_COLLNET_DIRECT) && (c == COLL_ALLGATHER || c == COLL_REDUCESCATTER) &&
	    n->nnodes > 1)
		return 0; /* needs the plugin's iallgather/ireducescatter and 1:1 GPU:NIC */
	/* To algorithm bandwidth. */
	if (a == NA_RING || ((a == NA_NVLS || a == NA_NVLSTREE) && c == COLL_ALLREDUCE))
		return B * N / nsteps;
	if (c == COLL_ALLREDUCE && (a == NA_TREE || a == NA_COLLNET_CHAIN || a == NA_COLLNET_DIRECT))
		return 0.5 * B;
	return B;
}

static double tune_lat(const struct nccl_model *m, enum coll c, enum nalgo a, enum nproto p)
{
	const struct nccl_node *n = &m->node;
	int intra_hw = n->nvl > 0 ? HW_NVLINK : HW_PCI, hw = n->nnodes == 1 ? intra_hw : HW_NET, N = m->nranks;
	double intra = hw_lat[intra_hw][a][p], inter = hw_lat[HW_NET][n->ppn == 1 ? NA_TREE : a][p];
	/* The net plugin's reported latency joins every network step, twice for Simple
	 * (tuning.cc: interLat += latencyInter; EFA 75 or 35 us; IB and RoCE 0). */
	inter += n->net_lat * (p == NP_SIMPLE ? 2 : 1);
	double overhead = n->cpu == CPU_AMD ? 2.0 : 1.0, lat = base_lat[a][p], log2n = floor(log2((double)n->nnodes));
	double nsteps = c == COLL_ALLREDUCE ? 2.0 * (N - 1) : (c == COLL_ALLGATHER || c == COLL_REDUCESCATTER) ? N - 1.0 : N;
	switch (a) {
	case NA_RING:
		if (c == COLL_BROADCAST || c == COLL_REDUCE)
			return lat + hw_lat[hw][NA_RING][p];
		{
			double n_inter = n->nnodes == 1 ? 0 : (c == COLL_ALLREDUCE ? 2.0 * (n->nnodes - 1) : n->nnodes - 1.0);
			double il = intra;
			if (n->nnodes > 1 && il < overhead * (p == NP_SIMPLE ? 3 : 1))
				il = overhead * (p == NP_SIMPLE ? 3 : 1);
			return lat + (nsteps - n_inter) * il + n_inter * inter;
		}
	case NA_TREE:
		return lat + 2 * ((n->ppn - 1) * intra + log2n * inter);
	case NA_COLLNET_DIRECT:
		return lat + 2 * ((n->ppn - 1 < 1 ? n->ppn - 1 : 1) * intra + (n->ppn - 1) * 0.4) + inter;
	case NA_COLLNET_CHAIN:
		return lat + 2 * (n->ppn - 1) * intra + inter;
	case NA_NVLS:
		return intra + (n->nnodes > 1 ? inter : 0);
	case NA_NVLSTREE:
		return lat + intra + 2 * log2n * inter;
	case NA_PAT:
		return lat + log2n * inter / 3.5 + N * 2.8;
	default:
		return lat;
	}
}

static void enable(struct nccl_model *m)
{
	const struct nccl_node *n = &m->node;
	int a;
	for (a = 0; a < NA_COUNT; a++)
		m->why_not[a] = NULL;
	if (!n->nvls)
		m->why_not[NA_NVLS] = m->why_not[NA_NVLSTREE] =
			"needs NVSwitch with NVLink SHARP (3rd generation or later) and Hopper or later GPUs";
	else if (m->nvls.c < 2)
		m->why_not[NA_NVLS] = m->why_not[NA_NVLSTREE] = "fewer than 2 NVLS channels fit";
	else if (n->nnodes > 1 && !n->collnet)
		m->why_not[NA_NVLS] = "NVLS across nodes needs in-network reduction (SHARP / CollNet)";
	if (!m->why_not[NA_NVLSTREE] && n->nnodes == 1)
		m->why_not[NA_NVLSTREE] = "NVLSTree is off on a single node";
	if (n->nnodes < 2)
		m->why_not[NA_COLLNET_DIRECT] = m->why_not[NA_COLLNET_CHAIN] = "CollNet needs at least 2 nodes";
	else if (!n->collnet)
		m->why_not[NA_COLLNET_DIRECT] = m->why_not[NA_COLLNET_CHAIN] =
			"needs SHARP: fabric.sharp on, SHARP-capable InfiniBand switches and NICs";
	else if (n->ppn > 8)
		m->why_not[NA_COLLNET_DIRECT] = m->why_not[NA_COLLNET_CHAIN] = "CollNet needs at most 8 GPUs per node";
	if (!m->why_not[NA_COLLNET_DIRECT] && !n->nvswitch)
		m->why_not[NA_COLLNET_DIRECT] = "CollNetDirect needs an NVSwitch";
	if (n->ppn != 1)
		m->why_not[NA_PAT] = "PAT runs only with 1 GPU per node";
	m->ll128 = n->nvl > 0 && n->sm >= 70 && (n->nnodes == 1 || !n->net_on_cpu);
}

static void tune_all(struct nccl_model *m)
{
	int c, a, p;
	enable(m);
	for (c = 0; c < COLL_COUNT; c++)
		for (a = 0; a < NA_COUNT; a++)
			for (p = 0; p < NP_COUNT; p++) {
				if (!computed((enum coll)c, (enum nalgo)a, (enum nproto)p) || m->why_not[a] ||
				    (p == NP_LL128 && !m->ll128) || m->nranks < 2)
					continue;
				if (a == NA_NVLS && c != COLL_ALLREDUCE && m->node.ppn > 32)
					continue;
				m->bw[c][a][p] = tune_bw(m, (enum coll)c, (enum nalgo)a, (enum nproto)p);
				m->lat[c][a][p] = tune_lat(m, (enum coll)c, (enum nalgo)a, (enum nproto)p);
			}
}

static void graphs(const struct nccl_node *n, struct nccl_model *m)
{
	m->ring = ring_graph(n);
	m->tree = tree_graph(n, &m->ring);
	m->nvls = nvls_graph(n);
	m->collnet = collnet_graph(n, &m->ring);
}

double nccl_port_rate(const struct nccl_node *n)
{
	double pci = n->card_pci / (n->ports_per_card > 0 ? n->ports_per_card : 1);
	return n->net_bw < pci ? n->net_bw : pci;
}

double nccl_node_net(const struct nccl_node *n)
{
	return n->cards * n->ports_per_card * nccl_port_rate(n);
}

double nccl_pair_net(const struct nccl_node *n)
{
	double nic = n->ports_per_card * nccl_port_rate(n);
	if (n->card_pci < nic)
		nic = n->card_pci;
	return n->pci_gpu < nic ? n->pci_gpu : nic;
}

void nccl_model_build(const struct nccl_node *node, struct nccl_model *m)
{
	memset(m, 0, sizeof *m);
	m->node = *node;
	if (m->node.nnodes < 1)
		m->node.nnodes = 1;
	if (m->node.ppn < 1)
		m->node.ppn = 1;
	m->nranks = m->node.ppn * m->node.nnodes;
	graphs(&m->node, m);
	tune_all(m);
	m->p2p_node = m->p2p_pair = m->node;
}

static void graph_min(struct nccl_graph *acc, const struct nccl_graph *g, bool first)
{
	if (first) {
		*acc = *g;
		return;
	}
	if (g->c < acc->c)
		acc->c = g->c;
	if (g->bi < acc->bi)
		acc->bi = g->bi;
	if (g->be < acc->be)
		acc->be = g->be;
	acc->cross = acc->cross || g->cross;
}

void nccl_model_build_multi(const struct nccl_node *cls, int ncls, int nnodes, int nranks, struct nccl_model *m)
{
	int i;
	struct nccl_node rep;
	if (ncls <= 1) {
		memset(m, 0, sizeof *m);
		m->node = cls[0];
		m->node.nnodes = nnodes > 0 ? nnodes : 1;
		if (m->node.ppn < 1)
			m->node.ppn = 1;
		m->nranks = nranks > 0 ? nranks : m->node.ppn * m->node.nnodes;
		graphs(&m->node, m);
		tune_all(m);
		m->p2p_node = m->p2p_pair = m->node;
		return;
	}
	memset(m, 0, sizeof *m);
	/* Each kind of node runs its own search; after the all-gather every rank takes the
	 * minimum channels and speeds (collective-model.md 2.5 step 7). The tuning then sees
	 * the most limited node: the lowest compute capability, the slowest links, NVLS and
	 * LL128 only if every node has them, the AMD row of the LL table for a mixed CPU set. */
	rep = cls[0];
	for (i = 0; i < ncls; i++) {
		struct nccl_node n = cls[i];
		struct nccl_model one;
		n.nnodes = nnodes;
		/* Point-to-point: each kind with its own NICs (a node made of one kind's NIC count
		 * and another's speed does not exist); the slowest kind paces it. */
		if (i == 0 || nccl_node_net(&n) < nccl_node_net(&m->p2p_node))
			m->p2p_node = n;
		if (i == 0 || nccl_pair_net(&n) < nccl_pair_net(&m->p2p_pair))
			m->p2p_pair = n;
		memset(&one, 0, sizeof one);
		graphs(&n, &one);
		graph_min(&m->ring, &one.ring, i == 0);
		graph_min(&m->tree, &one.tree, i == 0);
		graph_min(&m->nvls, &one.nvls, i == 0);
		graph_min(&m->collnet, &one.collnet, i == 0);
		if (i == 0)
			continue;
		if (n.sm < rep.sm)
			rep.sm = n.sm;
		if (n.nvl < rep.nvl)
			rep.nvl = n.nvl;
		rep.nvswitch = rep.nvswitch && n.nvswitch;
		rep.nvls = rep.nvls && n.nvls;
		if (n.cpu != rep.cpu)
			rep.cpu = CPU_AMD;
		if (n.pci_gpu < rep.pci_gpu)
			rep.pci_gpu = n.pci_gpu;
		if (n.pci_intra < rep.pci_intra)
			rep.pci_intra = n.pci_intra;
		if (n.intra_path > rep.intra_path)
			rep.intra_path = n.intra_path;
		if (n.net_lat > rep.net_lat)
			rep.net_lat = n.net_lat;
		if ((n.net_eff > 0 ? n.net_eff : 1) < (rep.net_eff > 0 ? rep.net_eff : 1)) {
			rep.net_eff = n.net_eff;
			memcpy(rep.transport, n.transport, sizeof rep.transport);
		}
		if (n.cards * n.ports_per_card < rep.cards * rep.ports_per_card) {
			rep.cards = n.cards;
			rep.ports_per_card = n.ports_per_card;
		}
		if (n.net_bw < rep.net_bw)
			rep.net_bw = n.net_bw;
		if (n.card_pci < rep.card_pci)
			rep.card_pci = n.card_pci;
		rep.net_on_cpu = rep.net_on_cpu || n.net_on_cpu;
		rep.collnet = rep.collnet && n.collnet;
	}
	/* The tree and ring channel counts are then set to the smaller of the two. */
	if (m->tree.c > m->ring.c)
		m->tree.c = m->ring.c;
	rep.nnodes = nnodes;
	rep.ppn = nnodes > 0 ? (nranks + nnodes - 1) / nnodes : rep.ppn;
	m->node = rep;
	m->nranks = nranks > 0 ? nranks : rep.ppn * nnodes;
	tune_all(m);
}

double nccl_time(const struct nccl_model *m, enum coll c, enum nalgo a, enum nproto p, double bytes, double bw_scale)
{
	double A = m->bw[c][a][p] * bw_scale, lat = m->lat[c][a][p];
	int idx;
	if (A <= 0)
		return -1;
	/* The size's index in treeCorrectionFactor, for the two algorithms it corrects (a
	 * log2 per call was a tenth of NCCL's model in a recompute). */
	idx = c == COLL_ALLREDUCE && (a == NA_TREE || a == NA_NVLSTREE) && bytes >= 64 ? (int)floor(log2(bytes / 64)) : -1;
	if (c == COLL_ALLREDUCE && a == NA_TREE && idx >= 0 && idx < 23)
		A *= tree_corr[p][idx];
	if (c == COLL_ALLREDUCE && a == NA_NVLSTREE && m->node.sm >= 100 &&
	    (cpu_is_intel(m->node.cpu) || m->node.cpu == CPU_AMD) && idx >= 0 && idx < 24)
		A *= tree_corr[p][idx];
	if (c == COLL_ALLREDUCE && a == NA_RING && p == NP_SIMPLE && m->node.nnodes > 1 &&
	    bytes / ((double)m->ring.c * m->nranks) >= 64)
		lat *= m->node.sm >= 80 ? 1.4 : 1.9;
	return lat + bytes / (1000.0 * A);
}

void nccl_model_only_proto(struct nccl_model *m, enum nproto keep)
{
	static const char *const off[NP_COUNT] = { "NCCL_PROTO=LL: NCCL runs it with no LL",
						   "NCCL_PROTO=LL128: NCCL runs it with no LL128 here",
						   "NCCL_PROTO=Simple: NCCL runs it with no Simple" };
	int c, a, p;
	for (a = 0; a < NA_COUNT; a++) {
		bool had = false, has = false;
		for (c = 0; c < COLL_COUNT; c++)
			for (p = 0; p < NP_COUNT; p++) {
				if (m->bw[c][a][p] > 0) {
					had = true;
					if (p == (int)keep)
						has = true;
				}
				if (p != (int)keep)
					m->bw[c][a][p] = 0;
			}
		if (had && !has && !m->why_not[a])
			m->why_not[a] = off[keep];
	}
}

bool nccl_pick(const struct nccl_model *m, enum coll c, double bytes, enum nalgo *best_a, enum nproto *best_p)
{
	double best = -1;
	int a, p;
	for (a = 0; a < NA_COUNT; a++)
		for (p = 0; p < NP_COUNT; p++) {
			double t = nccl_time(m, c, (enum nalgo)a, (enum nproto)p, bytes, 1.0);
			if (t >= 0 && (best < 0 || t < best)) {
				best = t;
				*best_a = (enum nalgo)a;
				*best_p = (enum nproto)p;
			}
		}
	return best >= 0;
}
