#include "model/collective.h"
#include "model/design.h"
#include <math.h>
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

static void traffic_of(const struct nccl_model *m, int a, double node_GBps, int concurrent, struct traffic *t)
{
	memset(t, 0, sizeof *t);
	t->node_GBps = node_GBps * concurrent;
	switch (a) {
	case NA_RING:
		t->kind = TK_RING;
		t->flows = 2 * m->ring.c * concurrent; /* NCCL doubles ring channels at run time */
		t->cross_rail = m->ring.cross;
		break;
	case NA_TREE:
	case NA_PAT:
	case NA_NVLSTREE:
		t->kind = TK_TREE;
		t->flows = 4 * m->tree.c * concurrent; /* two trees, a parent and a child each */
		break;
	default:
		t->kind = TK_INNETWORK; /* reduced in the switches (SHARP) */
		t->flows = m->collnet.c * concurrent;
		break;
	}
}

/* Best protocol of NCCL algorithm a for c, with the fabric's loss applied. */
static void eval_nccl(const struct fabric *f, const struct nccl_model *m, enum coll c, int a, double bytes,
		      int concurrent, struct algo_result *r)
{
	int p, N = m->nranks;
	double best = -1, node_GBps = 0;
	struct traffic t;
	double nccl_best = -1;
	for (p = 0; p < NP_COUNT; p++) {
		double tt = nccl_time(m, c, (enum nalgo)a, (enum nproto)p, bytes, 1.0);
		if (m->bw[c][a][p] * busbw_factor(c, N) > node_GBps)
			node_GBps = m->bw[c][a][p] * busbw_factor(c, N);
		if (tt >= 0 && (nccl_best < 0 || tt < nccl_best))
			nccl_best = tt;
	}
	if (node_GBps <= 0)
		return;
	/* What NCCL's model alone predicts for this message (no switches). */
	r->nccl_busbw_GBps = bytes / (1000.0 * nccl_best) * busbw_factor(c, N);
	traffic_of(m, a, node_GBps, concurrent, &t);
	fabric_loss(f, &t, m->node.nnodes, &r->loss);
	for (p = 0; p < NP_COUNT; p++) {
		double tt = nccl_time(m, c, (enum nalgo)a, (enum nproto)p, bytes, r->loss.factor);
		if (tt >= 0 && (best < 0 || tt < best)) {
			best = tt;
			r->proto = p;
		}
	}
	if (best < 0 || r->loss.factor <= 0) {
		r->available = false;
		r->reason = "the switches do not join the job's nodes";
		return;
	}
	r->available = true;
	r->nalgo = a;
	r->time_us = best;
	r->algbw_GBps = bytes / (1000.0 * best);
	r->busbw_GBps = r->algbw_GBps * busbw_factor(c, N);
}

/* AllToAll and send/recv: collective-model.md sections 6 and 7.5 (NCCL has no model). */
static void eval_p2p(const struct fabric *f, const struct nccl_model *m, enum coll c, double bytes, int concurrent,
		     struct algo_result *r)
{
	const struct nccl_node *n = &m->node;
	int N = m->nranks, ppn = n->ppn, nodes = n->nnodes;
	double intra = n->nvl > 0 ? n->nvl : n->pci_intra, port, node_net, lat, busbw;
	struct traffic t;
	r->available = N >= 2;
	r->nalgo = -1;
	r->proto = NP_SIMPLE;
	if (!r->available) {
		r->reason = "one rank";
		return;
	}
	port = min_d(n->net_bw, n->card_pci / (n->ports_per_card > 0 ? n->ports_per_card : 1));
	node_net = n->cards * n->ports_per_card * port;
	memset(&t, 0, sizeof t);
	t.pxn = f->pxn;
	if (c == COLL_ALLTOALL) {
		double net_bw, intra_bw = ppn > 1 ? intra * (N - 1.0) / (ppn - 1) : 1e12;
		t.kind = TK_ALLTOALL;
		t.node_GBps = node_net * concurrent;
		t.flows = ppn * (N - ppn < 64 ? N - ppn : 64) * concurrent;
		fabric_loss(f, &t, nodes, &r->loss);
		net_bw = nodes > 1 ? (node_net * r->loss.factor / ppn) * (N - 1.0) / (N - ppn) : 1e12;
		busbw = min_d(intra_bw, net_bw);
		r->nccl_busbw_GBps = min_d(intra_bw, nodes > 1 ? (node_net / ppn) * (N - 1.0) / (N - ppn) : 1e12);
		/* Peers in rounds of 8 at a time; a round costs a network or an NVLink step [I]. */
		lat = 8.4 + ceil((N - 1) / 8.0) * (nodes > 1 ? 14.0 : 3.4);
		r->algbw_GBps = busbw * N / (N - 1.0);
		r->time_us = lat + bytes / (1000.0 * r->algbw_GBps);
		r->algbw_GBps = bytes / (1000.0 * r->time_us);
		r->busbw_GBps = r->algbw_GBps * busbw_factor(c, N);
		return;
	}
	/* send/recv as nccl-tests runs it: rank i sends to i+1; one pair per node crosses the
	 * network, the rest stay on NVLink; nccl-tests averages the time over ranks. */
	{
		double pair_net = min_d(n->pci_gpu, node_net), t_intra, t_inter;
		t.kind = TK_SENDRECV;
		t.node_GBps = pair_net * concurrent;
		t.flows = (int)ceil(pair_net / 14.0) * concurrent;
		fabric_loss(f, &t, nodes, &r->loss);
		t_intra = 8.4 + 3.4 + bytes / (1000.0 * intra);
		t_inter = 8.4 + 14.0 + bytes / (1000.0 * pair_net * r->loss.factor);
		r->time_us = nodes > 1 ? ((N - nodes) * t_intra + nodes * t_inter) / N : t_intra;
		r->nccl_busbw_GBps = nodes > 1 ? bytes / (1000.0 * (((N - nodes) * t_intra +
					nodes * (8.4 + 14.0 + bytes / (1000.0 * pair_net))) / N)) : intra;
		r->algbw_GBps = r->busbw_GBps = bytes / (1000.0 * r->time_us);
	}
}

void collective_eval(const struct fabric *f, const struct nccl_model *m, enum coll c, double bytes, int concurrent,
		     struct coll_result *out)
{
	int u;
	enum nalgo pa;
	enum nproto pp;
	double best = -1;
	memset(out, 0, sizeof *out);
	out->coll = c;
	out->bytes = bytes;
	out->ranks = m->nranks;
	out->nodes = m->node.nnodes;
	out->auto_algo = out->best_algo = -1;
	if (concurrent < 1)
		concurrent = 1;
	for (u = 0; u < UA_COUNT; u++) {
		struct algo_result *r = &out->algo[u];
		int a = nalgo_of((enum ualgo)u, c);
		if (c == COLL_ALLTOALL || c == COLL_SENDRECV) {
			if (u == UA_P2P)
				eval_p2p(f, m, c, bytes, concurrent, r);
			else
				r->reason = "NCCL runs it as point-to-point sends (p2p)";
		} else if (u == UA_P2P) {
			r->reason = "only AllToAll and send/recv are point-to-point";
		} else if (m->nranks < 2) {
			r->reason = "one rank: nothing to exchange";
		} else if (a < 0 || m->why_not[a]) {
			r->reason = a >= 0 ? m->why_not[a] : "not an algorithm of this collective";
		} else {
			eval_nccl(f, m, c, a, bytes, concurrent, r);
			if (u == UA_COLLNET) {
				/* CollNet: the better of Direct and Chain. */
				struct algo_result chain = { 0 };
				eval_nccl(f, m, c, NA_COLLNET_CHAIN, bytes, concurrent, &chain);
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
