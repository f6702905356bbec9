#include "model/collective.h"
#include "model/design.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const ualgo_names[] = { "ring", "tree", "nvls", "nvlstree", "collnet", "p2p", NULL };
const char *const ualgo_labels[] = { "Ring", "Tree", "NVLS", "NVLSTree", "CollNet", "p2p", NULL };

static double min_d(double a, double b)
{
	return a < b ? a : b;
}

/* The NCCL algorithm behind a user algorithm for collective c. */
static int nalgo_of(enum ualgo u, enum coll c)
{
	switch (u) {
	case UA_RING:
		return NA_RING;
	case UA_TREE:
		return (c == COLL_ALLGATHER || c == COLL_REDUCESCATTER) ? NA_PAT : NA_TREE;
	case UA_NVLS:
		return NA_NVLS;
	case UA_NVLSTREE:
		return NA_NVLSTREE;
	case UA_COLLNET:
		return NA_COLLNET_DIRECT;
	default:
		return -1;
	}
}

struct comm_layout layout_world(const struct fabric *f)
{
	struct comm_layout l;
	memset(&l, 0, sizeof l);
	l.span = span_all(f->node.nnodes);
	l.per_node = f->node.ppn;
	l.concurrent = 1;
	return l;
}

/* p2p connections NCCL opens per network peer: enough NICs for the GPU's PCIe bandwidth,
 * and one per 14 GB/s of them (NCCL_P2P_PER_CHANNEL_NET_BW), as a power of two
 * (collective-model.md 2.5); nic: one GPU pair's path (nccl_pair_net). */
static int p2p_channels(double nic)
{
	int c = (int)ceil(nic / 14.0), p = 1;
	if (c < 1)
		c = 1;
	while (p < c)
		p *= 2;
	return p;
}

/* Runtime connections per search channel: NCCL doubles rings and trees (connect.cc:460),
 * and doubles again on sm >= 90 across nodes when bI > 45 and fewer than 16 channels
 * (connect.cc:481-483); fabric-physics.md 1.4. */
static int runtime_mult(const struct nccl_model *m, const struct nccl_graph *g)
{
	int r = 2;
	if (m->node.sm >= 90 && m->node.nnodes > 1 && g->bi > 45 && g->c < 16)
		r *= 2;
	return r;
}

/* What the NICs' transport carries of what NCCL plans through each port (fabric-physics.md
 * 4): its efficiency times the line rate, against NCCL's per-port rate (the node's rate
 * over its ports, at most one port's path). Only a transport below the plan binds: NCCL
 * plans InfiniBand and RoCE below their line rate (PCIe ladder), EFA and TCP above what
 * they deliver. */
static void transport_cap(const struct nccl_node *n, double node_rate, struct fabric_loss *l)
{
	int ports = n->cards * n->ports_per_card;
	double eff = n->net_eff > 0 ? n->net_eff : 1, plan = nccl_port_rate(n), cap, f;
	if (ports < 1 || eff >= 1 || l->factor <= 0 || n->nnodes < 2)
		return;
	if (node_rate > 0 && node_rate / ports < plan)
		plan = node_rate / ports;
	cap = eff * n->net_bw;
	f = plan > 0 ? cap / plan : 1;
	if (f >= l->factor)
		return;
	l->factor = f;
	l->transport = true;
	l->binding = -1;
	l->direct = l->hashed = false;
	l->demand_GBps = plan * ports;
	l->capacity_GBps = cap * ports;
	snprintf(l->why, sizeof l->why, "the NICs' %s transport carries %.0f%% of their line rate: %.1f of the %.1f GB/s per port NCCL plans",
		 n->transport[0] ? n->transport : "network", 100 * eff, cap, plan);
}

static double max_rate(const struct nccl_model *m, enum coll c, int a)
{
	int p;
	double best = 0;
	for (p = 0; p < NP_COUNT; p++)
		if (m->bw[c][a][p] > best)
			best = m->bw[c][a][p];
	return best;
}

static void loss_of(const struct topo *t, const struct fabric *f, const struct nccl_model *m, enum coll c, int a,
		    const struct comm_layout *l, struct fabric_loss *out)
{
	struct route_in in;
	double A = max_rate(m, c, a);
	memset(&in, 0, sizeof in);
	memset(out, 0, sizeof *out);
	out->factor = 1;
	out->binding = -1;
	in.span = l->span;
	in.concurrent = l->concurrent > 0 ? l->concurrent : 1;
	in.gpus = l->per_node;
	in.pxn = f->pxn;
	in.placement = f->placement;
	in.channels = m->ring.c;
	in.runtime = runtime_mult(m, &m->ring);
	switch (a) {
	case NA_RING:
		/* Every channel's hop carries the ring's per-channel rate: the node sends C x b. */
		in.kind = TK_RING;
		in.rate = A * busbw_factor(c, m->nranks);
		in.cross_rail = m->ring.cross;
		break;
	case NA_TREE:
	case NA_PAT:
	case NA_NVLSTREE:
		/* Trees over node indices (NVLSTree's heads form the same trees, one per NIC):
		 * the bus rate is twice the algorithm bandwidth. */
		in.kind = TK_TREE;
		in.rate = 2 * A;
		in.channels = a == NA_NVLSTREE ? m->nvls.c : m->tree.c;
		in.runtime = runtime_mult(m, &m->tree);
		break;
	default:
		in.kind = TK_INNETWORK; /* reduced in the switches (SHARP): exempt to first order */
		in.rate = A;
		break;
	}
	fabric_loss(t, f, &in, out);
	/* What a node's NICs carry per direction: a ring C x b; a tree about the algorithm
	 * bandwidth (a node sends S up and S down over the two trees, and receives as much). */
	transport_cap(&m->node, in.kind == TK_TREE ? A : in.rate, out);
}

void collective_losses(const struct topo *t, const struct fabric *f, const struct nccl_model *m, enum coll c,
		       const struct comm_layout *l, struct coll_losses *out)
{
	collective_losses_some(t, f, m, c, l, ~0u, out);
}

int collective_auto(const struct nccl_model *m, enum coll c, double bytes)
{
	enum nalgo pa;
	enum nproto pp;
	int u;
	if (c == COLL_ALLTOALL || c == COLL_SENDRECV)
		return UA_P2P;
	if (!nccl_pick(m, c, bytes, &pa, &pp))
		return -1;
	for (u = 0; u < UA_P2P; u++)
		if (nalgo_of((enum ualgo)u, c) == (int)pa ||
		    (u == UA_COLLNET && (pa == NA_COLLNET_DIRECT || pa == NA_COLLNET_CHAIN)))
			return u;
	return -1;
}

void collective_losses_some(const struct topo *t, const struct fabric *f, const struct nccl_model *m, enum coll c,
			    const struct comm_layout *l, unsigned mask, struct coll_losses *out)
{
	int u;
	struct route_in in;
	const struct nccl_node *n = &m->node;
	memset(out, 0, sizeof *out);
	for (u = 0; u < UA_COUNT; u++) {
		out->algo[u].factor = 1;
		out->algo[u].binding = -1;
	}
	if (m->nranks < 2 || n->nnodes < 2)
		return;
	if (c == COLL_ALLTOALL || c == COLL_SENDRECV) {
		memset(&in, 0, sizeof in);
		in.span = l->span;
		in.concurrent = l->concurrent > 0 ? l->concurrent : 1;
		in.gpus = l->per_node;
		in.pxn = f->pxn;
		in.placement = f->placement;
		in.p2p_channels = p2p_channels(nccl_pair_net(&m->p2p_pair));
		if (c == COLL_ALLTOALL) {
			in.kind = TK_ALLTOALL;
			in.rate = nccl_node_net(&m->p2p_node);
		} else {
			/* nccl-tests' ring of pairs: one pair crosses each node boundary, from the
			 * last GPU of a node to the first of the next; without PXN they sit on
			 * different rails when the node has several NICs. */
			in.kind = TK_PAIRS;
			in.rate = nccl_pair_net(&m->p2p_pair);
			in.distance = 1;
			in.pair_wrap = true;
			in.concurrent = 1;
			in.pair_cross_rail = !f->pxn && n->cards * n->ports_per_card > 1;
		}
		fabric_loss(t, f, &in, &out->algo[UA_P2P]);
		transport_cap(c == COLL_ALLTOALL ? &m->p2p_node : &m->p2p_pair, 0, &out->algo[UA_P2P]);
		return;
	}
	for (u = 0; u < UA_P2P; u++) {
		int a = nalgo_of((enum ualgo)u, c);
		if (a < 0 || !(mask & (1u << u)))
			continue;
		loss_of(t, f, m, c, a, l, &out->algo[u]);
	}
	/* CollNet: Direct and Chain reduce in the switches alike. */
}

/* ---- what the hardware does beyond NCCL's own model (fabric-physics.md 6 and 7) ------ */

#define NCCL_STEPS 8            /* buffer slots per connection (device.h) */
#define CHUNK_STEPS 4           /* a ring or tree chunk is NCCL_STEPS / 2 slots (collectives.h) */

/* Data bytes in one buffer slot: LL 8 lines x 512 threads x 16 B x 8 slots = 512 KiB, half of
 * it flags; LL128 120 x 640 x 8 B x 8 slots, 120 of 128 bytes data; Simple 4 MiB (init.cc). */
static const double slot_data[NP_COUNT] = { 524288.0 / NCCL_STEPS / 2, 4915200.0 / NCCL_STEPS * 120 / 128,
					    4194304.0 / NCCL_STEPS };

/* Channels NCCL runs at run time: rings and trees doubled (runtime_mult); NVLS its own
 * count (transport/nvls.cc: 16 on sm90, 24 on sm100 in one NVLink domain, 32 across). */
static int run_channels(const struct nccl_model *m, int a)
{
	switch (a) {
	case NA_NVLS:
	case NA_NVLSTREE:
		return m->node.sm < 100 ? 16 : m->node.nnodes > 1 ? 32 : 24;
	case NA_RING:
		return m->ring.c * runtime_mult(m, &m->ring);
	case NA_COLLNET_DIRECT:
	case NA_COLLNET_CHAIN:
		return m->collnet.c > 0 ? m->collnet.c : 1;
	default:
		return m->tree.c * runtime_mult(m, &m->tree);
	}
}

/* NVLS chunk for a message (enqueue.cc: 128 KiB, halved while the message is small against
 * channels x heads x chunk; NVLSTree from its own thresholds). */
static double nvls_chunk(const struct nccl_model *m, int a, int nc, double bytes)
{
	double co = (double)nc * (m->nvls.c > 0 ? m->nvls.c : 1), chunk = 131072;
	if (a == NA_NVLS) {
		if (m->node.nnodes > 1 && m->bw[COLL_ALLREDUCE][NA_NVLS][NP_SIMPLE] < 150)
			chunk = 32768;
		if (bytes < 64 * co * chunk && chunk > 65536)
			chunk = 65536;
		if (bytes < 8 * co * chunk && chunk > 32768)
			chunk = 32768;
		if (bytes < 2 * co * chunk && chunk > 16384)
			chunk = 16384;
	} else {
		if (bytes < 4 * co * chunk && chunk > 65536)
			chunk = 65536;
		if (bytes < co * chunk && chunk > 32768)
			chunk = 32768;
	}
	return chunk;
}

/* NVLS inside one NVLink domain as the wires carry it (fabric-physics.md 6.1): each GPU's
 * link carries S (1 + 1/G) per direction for AllReduce against a ring's 2S (G-1)/G, so the
 * bus bandwidth is the NVLink NCCL counts, times NCCL's NVLS efficiency of the generation,
 * times 2(G-1)/(G+1); AllGather and ReduceScatter carry what a ring does. Bus GB/s, or 0. */
static double nvls_physical_bus(const struct nccl_model *m, enum coll c)
{
	const struct nccl_node *n = &m->node;
	double eff = nccl_nvls_efficiency(n->sm), G = n->ppn;
	if (n->nnodes > 1 || n->nvl <= 0 || eff <= 0 || G < 2)
		return 0;
	return n->nvl * eff * (c == COLL_ALLREDUCE ? 2 * (G - 1) / (G + 1) : 1);
}

/* The pipeline's fill (fabric-physics.md 7.1 items 2 and 4, 7.3): a message starts with its
 * buffers empty. A ring or tree channel moves a chunk of CHUNK_STEPS slots before the next
 * rank can forward it, so the first CHUNK_STEPS - 1 slots of every channel (or the whole
 * message, when smaller) pass before the pipe is full; NVLS runs two NCCL_STEPS-deep
 * pipelines (reduce, then multicast) of its chunk on each channel. us, at `bus` GB/s bus
 * bandwidth (`alg` GB/s algorithm bandwidth for NVLS). */
static double fill_us(const struct nccl_model *m, int a, int p, double bytes, double bus, double alg)
{
	int nc = run_channels(m, a);
	/* Across nodes the network's step latency (hwLat NET, the plugin's) dominates and NCCL's
	 * multi-node model already matches published mid-size runs (tests/data/validate: p5,
	 * p5en, A100 HDR); the fill is the NVLink pipeline's. */
	if (m->node.nnodes > 1)
		return 0;
	if (a == NA_NVLS) {
		double chunk = nvls_chunk(m, a, nc, bytes);
		return alg > 0 ? (2 * NCCL_STEPS - 1) * chunk * nc / (1000.0 * alg) : 0;
	}
	if (bus <= 0)
		return 0;
	return fmin((CHUNK_STEPS - 1) * slot_data[p] * nc, bytes) / (1000.0 * bus);
}

/* Time of (a, p) on the hardware: NCCL's latency and bandwidth with the fabric's loss (or
 * NVLS's physical bandwidth inside one domain), plus the pipeline's fill. -1 when off. */
static double achieved_us(const struct nccl_model *m, enum coll c, int a, int p, double bytes, double factor)
{
	double t = nccl_time(m, c, (enum nalgo)a, (enum nproto)p, bytes, factor), A, bus;
	int N = m->nranks;
	if (t < 0)
		return -1;
	A = m->bw[c][a][p] * factor;
	if (a == NA_NVLS && (bus = nvls_physical_bus(m, c)) > 0) {
		A = bus / busbw_factor(c, N);
		t = m->lat[c][a][p] + bytes / (1000.0 * A);
	}
	return t + fill_us(m, a, p, bytes, A * busbw_factor(c, N), A);
}

/* NCCL's protocol for algorithm a (its own model decides), with the achieved time. */
static void eval_nccl(const struct nccl_model *m, enum coll c, int a, double bytes, const struct fabric_loss *loss,
		      struct algo_result *r)
{
	int p, N = m->nranks, pick = -1;
	double best = -1, nccl_best = -1;
	for (p = 0; p < NP_COUNT; p++) {
		double tt = nccl_time(m, c, (enum nalgo)a, (enum nproto)p, bytes, 1.0);
		if (tt >= 0 && (nccl_best < 0 || tt < nccl_best)) {
			nccl_best = tt;
			pick = p;
		}
	}
	if (nccl_best < 0)
		return;
	/* What NCCL's model alone predicts for this message (no switches). */
	r->nccl_busbw_GBps = bytes / (1000.0 * nccl_best) * busbw_factor(c, N);
	r->loss = *loss;
	if (loss->factor <= 0) {
		r->available = false;
		r->reason = r->loss.unroutable ? "the fabric has no path for this traffic" : "the switches do not join the job's nodes";
		return;
	}
	best = achieved_us(m, c, a, pick, bytes, loss->factor);
	r->proto = pick;
	if (best < 0)
		return;
	r->available = true;
	r->nalgo = a;
	r->time_us = best;
	r->algbw_GBps = bytes / (1000.0 * best);
	r->busbw_GBps = r->algbw_GBps * busbw_factor(c, N);
}

/* AllToAll and send/recv: collective-model.md sections 6 and 7.5, fabric-physics.md 3
 * (NCCL has no model for them). */
static void eval_p2p(const struct nccl_model *m, enum coll c, double bytes, const struct fabric_loss *loss,
		     struct algo_result *r)
{
	const struct nccl_node *n = &m->node;
	int N = m->nranks, ppn = n->ppn, nodes = n->nnodes;
	double intra = n->nvl > 0 ? n->nvl : n->pci_intra, lat, busbw, factor = loss->factor;
	r->available = N >= 2;
	r->nalgo = -1;
	r->proto = NP_SIMPLE;
	r->loss = *loss;
	if (!r->available) {
		r->reason = "one rank";
		return;
	}
	if (nodes > 1 && factor <= 0) {
		r->available = false;
		r->reason = r->loss.unroutable ? "the fabric has no path for this traffic" : "the switches do not join the job's nodes";
		return;
	}
	if (nodes > 1 && (nccl_node_net(&m->p2p_node) <= 0 || nccl_pair_net(&m->p2p_pair) <= 0)) {
		r->available = false;
		r->reason = "a node of the job has no network port";
		return;
	}
	if (c == COLL_ALLTOALL) {
		/* Each GPU's share of its node's NICs (AllToAll cannot aggregate NICs,
		 * nccl-tests#267), over the (N - ppn) of N - 1 peers that are remote; the slowest
		 * kind of node paces it. */
		double net = nccl_node_net(&m->p2p_node);
		double intra_bw = ppn > 1 ? intra * (N - 1.0) / (ppn - 1) : 1e12;
		double net_bw = nodes > 1 ? (net * factor / ppn) * (N - 1.0) / (N - ppn) : 1e12;
		busbw = min_d(intra_bw, net_bw);
		r->nccl_busbw_GBps = min_d(intra_bw, nodes > 1 ? (net / ppn) * (N - 1.0) / (N - ppn) : 1e12);
		/* Peers in rounds of 8 at a time; a round costs a network or an NVLink step [I]. */
		lat = nccl_ring_base_us() + ceil((N - 1) / 8.0) * nccl_ring_step_us(nodes > 1 ? NCCL_HW_NET : NCCL_HW_NVLINK);
		r->algbw_GBps = busbw * N / (N - 1.0);
		r->time_us = lat + bytes / (1000.0 * r->algbw_GBps);
		r->algbw_GBps = bytes / (1000.0 * r->time_us);
		r->busbw_GBps = r->algbw_GBps * busbw_factor(c, N);
		return;
	}
	/* send/recv as nccl-tests runs it: rank i sends to i+1 and receives from i-1 in one
	 * group; over back-to-back iterations every rank waits for its neighbours, so the whole
	 * ring runs at its slowest pair (fabric-physics.md 3.1): an NVLink pair inside a node,
	 * a pair of one NIC each across nodes. */
	{
		double pn = nccl_pair_net(&m->p2p_pair);
		double base = nccl_ring_base_us(), step_nvl = nccl_ring_step_us(NCCL_HW_NVLINK), step_net = nccl_ring_step_us(NCCL_HW_NET);
		double t_intra = ppn > 1 ? base + step_nvl + bytes / (1000.0 * intra) : 0;
		double t_inter = nodes > 1 ? base + step_net + bytes / (1000.0 * pn * factor) : 0;
		double t_nccl = nodes > 1 ? base + step_net + bytes / (1000.0 * pn) : 0;
		r->time_us = t_intra > t_inter ? t_intra : t_inter;
		r->nccl_busbw_GBps = bytes / (1000.0 * (t_intra > t_nccl ? t_intra : t_nccl));
		r->algbw_GBps = r->busbw_GBps = bytes / (1000.0 * r->time_us);
	}
}

void collective_eval(const struct fabric *f, const struct nccl_model *m, enum coll c, double bytes,
		     const struct coll_losses *loss, struct coll_result *out)
{
	int u;
	enum nalgo pa;
	enum nproto pp;
	double best = -1;
	(void)f;
	memset(out, 0, sizeof *out);
	out->coll = c;
	out->bytes = bytes;
	out->ranks = m->nranks;
	out->nodes = m->node.nnodes;
	out->auto_algo = out->best_algo = -1;
	for (u = 0; u < UA_COUNT; u++) {
		struct algo_result *r = &out->algo[u];
		int a = nalgo_of((enum ualgo)u, c);
		struct fabric_loss l;
		if (loss) {
			l = loss->algo[u];
		} else {
			memset(&l, 0, sizeof l);
			l.factor = 1;
			l.binding = -1;
		}
		if (c == COLL_ALLTOALL || c == COLL_SENDRECV) {
			if (u == UA_P2P)
				eval_p2p(m, c, bytes, &l, r);
			else
				r->reason = "NCCL runs it as point-to-point sends (p2p)";
		} else if (u == UA_P2P) {
			r->reason = "only AllToAll and send/recv are point-to-point";
		} else if (m->nranks < 2) {
			r->reason = "one rank: nothing to exchange";
		} else if (a < 0 || m->why_not[a]) {
			r->reason = a >= 0 ? m->why_not[a] : "not an algorithm of this collective";
		} else {
			eval_nccl(m, c, a, bytes, &l, r);
			if (u == UA_COLLNET) {
				/* CollNet: the better of Direct and Chain. */
				struct algo_result chain;
				memset(&chain, 0, sizeof chain);
				eval_nccl(m, c, NA_COLLNET_CHAIN, bytes, &l, &chain);
				if (chain.available && (!r->available || chain.time_us < r->time_us))
					*r = chain;
			}
			if (!r->available && !r->reason)
				r->reason = (c == COLL_ALLGATHER || c == COLL_REDUCESCATTER) && m->node.nnodes > 1
						    ? "across nodes it needs the CollNet plugin's AllGather/ReduceScatter"
						    : "NCCL does not run this collective with it";
		}
		if (r->available && (best < 0 || r->time_us < best)) {
			best = r->time_us;
			out->best_algo = u;
		}
	}
	if (c == COLL_ALLTOALL || c == COLL_SENDRECV) {
		out->auto_algo = out->algo[UA_P2P].available ? UA_P2P : -1;
		return;
	}
	if (nccl_pick(m, c, bytes, &pa, &pp))
		for (u = 0; u < UA_COUNT; u++)
			if (nalgo_of((enum ualgo)u, c) == (int)pa ||
			    (u == UA_COLLNET && (pa == NA_COLLNET_DIRECT || pa == NA_COLLNET_CHAIN)))
				out->auto_algo = u;
}

const struct algo_result *coll_pick(const struct coll_result *r, int job_algo)
{
	static const int map[] = { [ALGO_RING] = UA_RING, [ALGO_TREE] = UA_TREE, [ALGO_NVLS] = UA_NVLS,
				   [ALGO_NVLSTREE] = UA_NVLSTREE, [ALGO_COLLNET] = UA_COLLNET };
	if (r->coll == COLL_ALLTOALL || r->coll == COLL_SENDRECV)
		return &r->algo[UA_P2P];
	if (job_algo > ALGO_AUTO && job_algo <= ALGO_COLLNET && r->algo[map[job_algo]].available)
		return &r->algo[map[job_algo]];
	if (r->auto_algo >= 0 && r->algo[r->auto_algo].available)
		return &r->algo[r->auto_algo];
	return r->best_algo >= 0 ? &r->algo[r->best_algo] : &r->algo[UA_RING];
}
