/* workload.c: a training step on the design (workload.h). */
#include "model/workload.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const dim_names[] = { "dp", "tp", "pp", "ep", "cp", NULL };
const char *const bound_names[] = { "none", "switch", "direct-links", "in-network", "latency", "nvlink", "pcie", "nics",
				    "nic-pcie", "path", NULL };

#define MiB (1024.0 * 1024.0)

double speedup_step(int n, double t_calc, double t_comm)
{
	return t_calc + t_comm > 0 ? n * t_calc / (t_calc + t_comm) : 0;
}

double speedup_amdahl(int n, double r)
{
	return n / (1.0 + (n - 1) * r);
}

static int dtype_bytes(int dt)
{
	return dt == DT_FP8 ? 1 : dt == DT_FP32 ? 4 : 2;
}

static double max_d(double a, double b)
{
	return a > b ? a : b;
}

static double min_d(double a, double b)
{
	return a < b ? a : b;
}

/* ---- communicators ---------------------------------------------------------------- */

/* A communicator of one dimension, laid out on the job's nodes: `ranks` ranks, `stride`
 * ranks apart in the global order. */
struct dim_comm {
	int ranks;             /* ranks of one communicator */
	int per_node;          /* of them on one node */
	struct comm_layout layout;
	int nodes;             /* nodes one communicator spans */
	int span;              /* consecutive GPUs of a node its ranks there cover (host paths) */
};

/* Communicators of `ranks` ranks each, consecutive members `stride` ranks apart (TP 1;
 * CP, DP and EP tp), on nodes of G GPUs and n nodes. */
static void layout_of(int ranks, int stride, int G, long n, struct dim_comm *dc)
{
	struct comm_layout *l = &dc->layout;
	memset(dc, 0, sizeof *dc);
	dc->ranks = ranks;
	if (G < 1)
		G = 1;
	if (stride < 1)
		stride = 1;
	if ((long)ranks * stride <= G) {
		/* The whole communicator inside one node. */
		dc->per_node = ranks;
		dc->nodes = 1;
		dc->span = (ranks - 1) * stride + 1;
		l->span = span_all(1);
		l->per_node = ranks;
		l->concurrent = G / (ranks > 0 ? ranks : 1);
		return;
	}
	if (stride < G) {
		/* G/stride consecutive members per node; communicators of the other stride - 1
		 * offsets share the node (and its NICs). */
		int per = G / stride;
		long span_nodes = ((long)ranks * stride + G - 1) / G;
		dc->per_node = per < ranks ? per : ranks;
		dc->nodes = (int)span_nodes;
		dc->span = (dc->per_node - 1) * stride + 1;
		l->span.first = 0;
		l->span.len = span_nodes;
		l->span.step = 1;
		l->span.stride = span_nodes;
		l->span.count = n / span_nodes > 0 ? n / span_nodes : 1;
		l->per_node = dc->per_node;
		l->concurrent = stride;
	} else {
		/* One member per node, stride/G nodes apart: families of communicators interleave
		 * node by node (the first stage's stand for the others). */
		long step = stride / G;
		dc->per_node = 1;
		dc->nodes = ranks;
		l->span.first = 0;
		l->span.len = ranks;
		l->span.step = step;
		l->span.stride = 1;
		l->span.count = step;
		l->per_node = 1;
		l->concurrent = G;
	}
}

/* A communicator with NCCL's model of it and the fabric's losses, computed once per
 * collective and algorithm and reused for every message size. */
struct comm {
	struct dim_comm dc;
	struct nccl_model m;
	struct coll_losses loss[COLL_COUNT]; /* set for the collectives in `ready` only */
	unsigned have[COLL_COUNT]; /* algorithms (bit per enum ualgo) whose losses are known */
	unsigned ready;            /* collectives (bit per enum coll) whose loss[] is set */
};

/* The communicator of dc: NCCL's model of it, no losses known yet (loss[c] is set when
 * collective c is first asked for: a step asks for one or two of the seven, and clearing
 * all of them was a fifth of a recompute at 1,000 groups). */
static void comm_init(const struct fabric *f, const struct dim_comm *dc, struct comm *cm)
{
	cm->dc = *dc;
	memset(cm->have, 0, sizeof cm->have);
	cm->ready = 0;
	fabric_nccl_span(f, dc->nodes, dc->ranks, dc->per_node, dc->span, &cm->m);
}

/* loss[c] as comm_init left it in full: every algorithm lossless, nothing binding. */
static void comm_ready(struct comm *cm, enum coll c)
{
	int u;
	if (cm->ready & (1u << c))
		return;
	memset(&cm->loss[c], 0, sizeof cm->loss[c]);
	for (u = 0; u < UA_COUNT; u++) {
		cm->loss[c].algo[u].factor = 1;
		cm->loss[c].algo[u].binding = -1;
	}
	cm->ready |= 1u << c;
}

static int forced_algo(int job_algo)
{
	static const int forced[] = { [ALGO_AUTO] = -1, [ALGO_RING] = UA_RING, [ALGO_TREE] = UA_TREE,
				      [ALGO_NVLS] = UA_NVLS, [ALGO_NVLSTREE] = UA_NVLSTREE, [ALGO_COLLNET] = UA_COLLNET };
	return job_algo > 0 && job_algo <= ALGO_COLLNET ? forced[job_algo] : -1;
}

/* Make sure the losses of the algorithms in `need` are known. */
static void comm_need(const struct topo *t, const struct fabric *f, struct comm *cm, enum coll c, unsigned need)
{
	unsigned miss = need & ~cm->have[c];
	int u;
	struct coll_losses tmp;
	comm_ready(cm, c);
	if (!miss)
		return;
	collective_losses_some(t, f, &cm->m, c, &cm->dc.layout, miss, &tmp);
	for (u = 0; u < UA_COUNT; u++)
		if (miss & (1u << u))
			cm->loss[c].algo[u] = tmp.algo[u];
	if (miss & (1u << UA_COLLNET))
		cm->loss[c].chain = tmp.chain;
	cm->have[c] |= miss;
}

/* One operation of collective c at `bytes`: the step runs one algorithm, the forced one,
 * else NCCL's pick (falling back as coll_pick does); only its losses are computed. */
static const struct algo_result *comm_op(const struct topo *t, const struct fabric *f, const struct job *j,
					 struct comm *cm, enum coll c, double bytes, struct coll_result *r)
{
	int pick = collective_auto(&cm->m, c, bytes), want = forced_algo(j->algo), tries;
	const struct algo_result *a = NULL;
	unsigned need = (pick >= 0 ? 1u << pick : 0) | (want >= 0 ? 1u << want : 0);
	comm_need(t, f, cm, c, need ? need : ~0u);
	if ((pick >= 0 && cm->loss[c].algo[pick].factor <= 0) || (want >= 0 && cm->loss[c].algo[want].factor <= 0))
		comm_need(t, f, cm, c, ~0u); /* a fallback will be chosen */
	for (tries = 0; tries < 2; tries++) {
		int u;
		collective_eval(f, &cm->m, c, bytes, &cm->loss[c], r);
		a = coll_pick(r, j->algo);
		u = (int)(a - r->algo);
		if (cm->have[c] & (1u << u))
			break;
		comm_need(t, f, cm, c, 1u << u); /* the fallback's own losses */
	}
	return a;
}

/* ---- what bounds an operation ----------------------------------------------------- */

/* Resources a what-if doubles; the last, both halves of the NIC path together, is tried
 * when neither alone binds (the port and its PCIe path are often matched). */
enum resource { RES_SCALEUP, RES_NIC, RES_NIC_PCIE, RES_NETWORK, RES_COUNT };

static void scale_node(struct nccl_node *n, int res)
{
	switch (res) {
	case RES_SCALEUP:
		/* NVLink (or a bridge's), else every hop of the host path. */
		if (n->nvl > 0) {
			n->nvl *= 2;
			n->bridge_nvl *= 2;
		} else {
			n->pci_intra *= 2;
			n->pci_gpu *= 2;
			n->sw_up *= 2;
			n->sys_bw *= 2;
		}
		break;
	case RES_NIC:
		n->net_bw *= 2;
		break;
	case RES_NIC_PCIE:
		n->card_pci *= 2;
		break;
	default:
		n->net_bw *= 2;
		n->card_pci *= 2;
	}
}

void workload_bound(const struct fabric *f, const struct nccl_model *m, int nodes, int ranks, int per_node, int span,
		    enum coll c, double bytes, const struct coll_losses *loss, int u, struct op_bound *out)
{
	struct coll_result r;
	double t0;
	int res, best = -1;
	memset(out, 0, sizeof *out);
	out->loss.binding = -1;
	out->loss.factor = 1;
	if (u < 0 || u >= UA_COUNT)
		return;
	collective_eval(f, m, c, bytes, loss, &r);
	if (!r.algo[u].available || r.algo[u].time_us <= 0)
		return;
	t0 = r.algo[u].time_us;
	out->loss = r.algo[u].loss;
	if (out->loss.factor < 0.999 && (out->loss.binding >= 0 || out->loss.direct)) {
		out->kind = out->loss.direct ? BOUND_DIRECT : BOUND_SWITCH;
		out->gain = 1 / out->loss.factor;
		return;
	}
	if (u == UA_NVLS || u == UA_NVLSTREE || u == UA_COLLNET) {
		out->kind = BOUND_INNET;
		return;
	}
	collective_eval(f, m, c, 2 * bytes, loss, &r);
	if (r.algo[u].available && r.algo[u].time_us < 1.25 * t0) {
		out->kind = BOUND_LATENCY;
		out->gain = r.algo[u].time_us / t0;
		return;
	}
	for (res = 0; res < RES_COUNT; res++) {
		struct fabric f2 = *f;
		struct nccl_model m2;
		int k;
		if ((res != RES_SCALEUP && nodes < 2) || (res == RES_NETWORK && out->gain >= 1.15))
			continue;
		scale_node(&f2.node, res);
		for (k = 0; k < f2.nclasses && k < FABRIC_MAX_CLASSES; k++)
			scale_node(&f2.classes[k], res);
		fabric_nccl_span(&f2, nodes, ranks, per_node, span, &m2);
		collective_eval(&f2, &m2, c, bytes, loss, &r);
		if (r.algo[u].available && r.algo[u].time_us > 0 && t0 / r.algo[u].time_us > out->gain) {
			out->gain = t0 / r.algo[u].time_us;
			best = res;
		}
	}
	if (best < 0 || out->gain < 1.15)
		out->kind = BOUND_PATH;
	else if (best == RES_SCALEUP)
		out->kind = f->node.nvl > 0 ? BOUND_NVLINK : BOUND_PCIE;
	else
		out->kind = best == RES_NIC_PCIE ? BOUND_NIC_PCIE : BOUND_NIC;
}

/* ---- one dimension ---------------------------------------------------------------- */

static void dim_begin(struct dim_traffic *dt, const struct comm *cm, enum coll c, const char *what)
{
	dt->active = true;
	dt->coll = c;
	dt->ranks = cm->dc.ranks;
	dt->per_node = cm->dc.per_node;
	dt->nodes = cm->dc.nodes;
	dt->concurrent = cm->dc.layout.concurrent;
	dt->network = cm->m.node.nnodes > 1;
	snprintf(dt->what, sizeof dt->what, "%s", what);
}

/* `ops` operations of c at `bytes`; the first call names the main operation. Returns the
 * time of one, in us (0 when it cannot run). */
static double dim_ops(const struct topo *t, const struct fabric *f, const struct job *j, struct comm *cm,
		      struct dim_traffic *dt, enum coll c, double bytes, double ops, bool main_op)
{
	struct coll_result r;
	const struct algo_result *a = comm_op(t, f, j, cm, c, bytes, &r);
	if (!a->available) {
		if (cm->m.node.nnodes > 1 && ops > 0)
			dt->unavailable = true;
		return 0;
	}
	dt->time_ms += ops * a->time_us / 1000.0;
	if (main_op) {
		dt->coll = c;
		dt->bytes = bytes;
		dt->op_us = a->time_us;
		dt->busbw_GBps = a->busbw_GBps;
		dt->algo = (int)(a - r.algo);
	}
	dt->ops += ops;
	return a->time_us;
}

static void dim_bound(const struct fabric *f, const struct comm *cm, struct dim_traffic *dt)
{
	if (dt->active && dt->op_us > 0)
		workload_bound(f, &cm->m, cm->dc.nodes, cm->dc.ranks, cm->dc.per_node, cm->dc.span, (enum coll)dt->coll, dt->bytes,
			       &cm->loss[dt->coll], dt->algo, &dt->bound);
}

/* DP's buckets of `grads` bytes (workload.h). */
static void dp_buckets(const struct job *j, const struct job_shape *s, double grads, int pbytes,
		       struct dim_traffic *dt)
{
	double first = 0, size, rest;
	long full;
	if (j->dp_buckets == BUCKETS_DDP) {
		size = j->bucket_mb > 0 ? j->bucket_mb * MiB : 25 * MiB;
		first = grads > MiB ? MiB : 0;
	} else if (j->overlap <= 0) {
		size = grads; /* overlap_grad_reduce off: one bucket */
	} else {
		size = j->bucket_mb > 0 ? j->bucket_mb * MiB : max_d(40e6, 1e6 * s->shard) * pbytes;
	}
	if (size <= 0 || size >= grads - first)
		size = grads - first;
	rest = grads - first;
	if (size < rest / 1e9)
		size = rest / 1e9; /* at most a billion buckets (a bucket_mb far below any real one) */
	full = size > 0 ? (long)floor(rest / size) : 0;
	if (full < 1)
		full = 1;
	dt->first_bytes = first;
	dt->bucket_bytes = size;
	dt->last_bytes = rest - (double)(full - 1) * size;
	if (dt->last_bytes > size * (1 + 1e-12)) {
		/* A remainder after the full buckets. */
		dt->last_bytes -= size;
		full++;
	}
	dt->buckets = (int)(full + (first > 0));
}

/* DP: gradients (and, ZeRO 1-3, parameters) over the dp x cp ranks holding the same weights. */
static void run_dp(const struct topo *t, const struct fabric *f, const struct job *j, const struct job_shape *s,
		   struct workload *w, struct comm *cm, bool detail)
{
	struct dim_traffic *dt = &w->dims[DIM_DP];
	struct dim_comm dc;
	int pb = job_param_bytes(j), G = f->node.ppn;
	double grads = s->params_gpu * pb, budget = max_d(0, j->overlap) * w->compute_ms;
	if (s->shard < 2 || grads <= 0)
		return;
	layout_of(s->shard, s->tp, G, f->node.nnodes, &dc);
	comm_init(f, &dc, cm);
	if (j->zero <= 2) {
		enum coll c = j->zero == 0 ? COLL_ALLREDUCE : COLL_REDUCESCATTER;
		double sum, others, window, hidden;
		int mid;
		dim_begin(dt, cm, c, j->zero == 0 ? "allreduce of the gradients" : "reducescatter + allgather");
		if (j->zero)
			snprintf(dt->what, sizeof dt->what, "reducescatter + allgather (ZeRO-%d)", j->zero);
		dp_buckets(j, s, grads, pb, dt);
		mid = dt->buckets - 1 - (dt->first_bytes > 0);
		dt->last_us = dim_ops(t, f, j, cm, dt, c, dt->last_bytes, 1, mid < 1);
		if (mid > 0)
			dt->bucket_us = dim_ops(t, f, j, cm, dt, c, dt->bucket_bytes, mid, true);
		if (dt->first_bytes > 0)
			dt->first_us = dim_ops(t, f, j, cm, dt, c, dt->first_bytes, 1, false);
		sum = dt->first_us + mid * dt->bucket_us + dt->last_us;
		others = sum - dt->last_us;
		window = min_d(budget, w->backward_ms);
		hidden = min_d(window, others / 1000.0);
		dt->exposed_ms = sum / 1000.0 - hidden;
		dt->window_ms = window;
		if (j->zero) {
			/* The updated parameters, bucket by bucket, in the order the forward needs
			 * them: the first layers' bucket (the gradients' last) first. */
			double ag_last = dim_ops(t, f, j, cm, dt, COLL_ALLGATHER, dt->last_bytes, 1, false);
			double ag_mid = mid > 0 ? dim_ops(t, f, j, cm, dt, COLL_ALLGATHER, dt->bucket_bytes, mid, false) : 0;
			double ag_first = dt->first_bytes > 0 ? dim_ops(t, f, j, cm, dt, COLL_ALLGATHER, dt->first_bytes, 1, false)
							      : 0;
			double ag_others = (mid * ag_mid + ag_first) / 1000.0;
			double fwd = min_d(max_d(0, budget - hidden), w->forward_ms), ag_hidden = min_d(fwd, ag_others);
			dt->exposed_ms += ag_last / 1000.0 + ag_others - ag_hidden;
			dt->window_ms += fwd;
		}
	} else {
		/* ZeRO 3 (FSDP): per layer and micro-batch, its parameters gathered in forward and
		 * again in backward, its gradients reduce-scattered. */
		double layers = max_d(1, (double)j->layers / s->pp), unit = grads / layers, n = layers * s->micro_batches;
		double ag, rs, sum, window;
		dim_begin(dt, cm, COLL_ALLGATHER, "per-layer allgather x 2 + reducescatter (ZeRO-3)");
		ag = dim_ops(t, f, j, cm, dt, COLL_ALLGATHER, unit, 2 * n, true);
		rs = dim_ops(t, f, j, cm, dt, COLL_REDUCESCATTER, unit, n, false);
		dt->buckets = (int)min_d(n, 2e9);
		dt->bucket_bytes = dt->last_bytes = unit;
		dt->bucket_us = dt->last_us = ag;
		sum = n * (2 * ag + rs) / 1000.0;
		window = min_d(budget, w->compute_ms);
		dt->exposed_ms = s->micro_batches * ag / 1000.0 + max_d(0, sum - s->micro_batches * ag / 1000.0 - window);
		dt->window_ms = window;
	}
	if (detail)
		dim_bound(f, cm, dt);
}

/* A dimension whose traffic is on the critical path: exposed whole. */
static void run_exposed(const struct topo *t, const struct fabric *f, const struct job *j, struct workload *w,
			struct comm *cm, enum dim k, int ranks, int stride, const char *what, enum coll c1, double bytes1,
			double ops1, int c2, double bytes2, double ops2, bool detail)
{
	struct dim_traffic *dt = &w->dims[k];
	struct dim_comm dc;
	layout_of(ranks, stride, f->node.ppn, f->node.nnodes, &dc);
	comm_init(f, &dc, cm);
	dim_begin(dt, cm, c1, what);
	dim_ops(t, f, j, cm, dt, c1, bytes1, ops1, true);
	if (c2 >= 0 && ops2 > 0)
		dim_ops(t, f, j, cm, dt, (enum coll)c2, bytes2, ops2, false);
	dt->exposed_ms = dt->time_ms;
	if (detail)
		dim_bound(f, cm, dt);
}

/* Pipeline sends: each GPU to its counterpart in the next stage, stage_ranks ranks on. */
static void run_pp(const struct topo *t, const struct fabric *f, struct workload *w, struct comm *cm, long stage_ranks,
		   double bytes, double ops, bool detail)
{
	struct dim_traffic *dt = &w->dims[DIM_PP];
	int G = f->node.ppn > 0 ? f->node.ppn : 1, pp = w->pp;
	struct coll_result r;
	const struct algo_result *a;
	memset(cm, 0, sizeof *cm);
	dt->active = true;
	dt->coll = COLL_SENDRECV;
	dt->bytes = bytes;
	dt->ops = ops;
	dt->ranks = pp;
	snprintf(dt->what, sizeof dt->what, "send/recv per micro-batch");
	cm->loss[COLL_SENDRECV].algo[UA_P2P].factor = 1;
	cm->loss[COLL_SENDRECV].algo[UA_P2P].binding = -1;
	if (stage_ranks < G) {
		/* Stages share a node: the sends stay on NVLink. */
		dt->per_node = G / stage_ranks < pp ? (int)(G / stage_ranks) : pp;
		cm->dc.ranks = cm->dc.per_node = dt->per_node;
		cm->dc.nodes = 1;
		cm->dc.span = (int)((dt->per_node - 1) * stage_ranks + 1);
		dt->nodes = 1;
		dt->concurrent = (int)stage_ranks;
		fabric_nccl_span(f, 1, dt->per_node, dt->per_node, cm->dc.span, &cm->m);
		dt->network = false;
	} else {
		struct route_in in;
		dt->per_node = 1;
		dt->nodes = 2;
		dt->concurrent = G;
		cm->dc.ranks = cm->dc.nodes = 2;
		cm->dc.per_node = 1;
		fabric_nccl(f, 2, 2, 1, &cm->m);
		memset(&in, 0, sizeof in);
		in.kind = TK_PAIRS;
		in.span = span_all(f->node.nnodes);
		in.distance = stage_ranks / G;
		in.concurrent = G;
		in.gpus = 1;
		in.pxn = f->pxn;
		in.placement = f->placement;
		/* One GPU per pair, its own NIC, or its share of one when GPUs share NICs. */
		in.rate = f->node.cards > 0 ? f->node_ceiling_GBps / G : 0;
		in.p2p_channels = 1;
		fabric_loss(t, f, &in, &cm->loss[COLL_SENDRECV].algo[UA_P2P]);
		dt->network = true;
	}
	collective_eval(f, &cm->m, COLL_SENDRECV, bytes, &cm->loss[COLL_SENDRECV], &r);
	a = &r.algo[UA_P2P];
	if (a->available) {
		dt->op_us = a->time_us;
		dt->time_ms = ops * a->time_us / 1000.0;
		dt->busbw_GBps = a->busbw_GBps;
		dt->algo = UA_P2P;
	} else if (dt->network) {
		dt->unavailable = true;
	}
	dt->exposed_ms = dt->time_ms;
	if (detail)
		dim_bound(f, cm, dt);
}

/* ---- the step ---------------------------------------------------------------------- */

/* The slowest GPU of the job (in a synchronous step every rank waits for it), and the one
 * with the least memory. */
static void job_gpus(const struct design *d, const struct catalog *cat, const struct topo *t,
		     const struct cat_gpu **slow, const struct cat_gpu **small)
{
	*slow = t->slow_gpu; /* found when the job was placed (topo_place) */
	*small = t->small_gpu;
	if (!*slow && d->servers.n)
		*slow = catalog_gpu(cat, DESIGN_SERVER(d, 0)->gpu);
}

/* T_calc and the pipeline bubble of job j in shape s on `gpu` (workload.h): one_size's and
 * workload_floor's. */
static void compute_of(const struct job *j, const struct job_shape *s, const struct cat_gpu *gpu, double *compute_ms,
		       double *bubble_ms)
{
	double P = (j->active_params_b > 0 && j->active_params_b < j->params_b ? j->active_params_b : j->params_b) * 1e9;
	double tokens = s->seqs * j->seq_len;
	bool full = j->recompute == RECOMPUTE_FULL;
	*compute_ms = 0;
	if (j->compute_ms > 0)
		*compute_ms = j->compute_ms;
	else if (gpu && gpu->bf16_tflops > 0 && j->mfu > 0)
		*compute_ms = (full ? 8.0 : 6.0) * P * tokens / (s->gpus * gpu->bf16_tflops * 1e12 * j->mfu) * 1000.0;
	/* 1F1B's bubble, (pp - 1) / m of the compute; interleaved over vp virtual stages,
	 * (pp - 1) / (m vp) (Narayanan et al., 2021, section 2.2.2). */
	*bubble_ms = s->pp > 1 ? *compute_ms * (s->pp - 1) / ((double)s->micro_batches * s->vp) : 0;
}

static void one_size(const struct design *d, const struct catalog *cat, const struct topo *t, const struct fabric *f,
		     const struct job *j, const struct job_shape *s, bool detail, struct workload *w)
{
	const struct cat_gpu *gpu, *small;
	int b = dtype_bytes(j->dtype), mb = s->micro_batches, k;
	double act, layers, per_layer;
	bool full = j->recompute == RECOMPUTE_FULL;
	struct comm comm, *cm = &comm;
	job_gpus(d, cat, t, &gpu, &small);
	memset(w->dims, 0, sizeof w->dims);
	w->gpus = (int)s->gpus;
	w->dp = s->dp;
	w->tp = s->tp;
	w->pp = s->pp;
	w->ep = s->ep;
	w->cp = s->cp;
	w->sp = s->sp;
	w->micro_seqs = s->micro_seqs;
	w->micro_batches = mb;
	w->tokens_per_step = s->seqs * j->seq_len;
	/* One micro-batch's activation on one replica: s'bh. */
	act = s->micro_seqs * ((double)j->seq_len / s->cp) * (double)j->hidden * b;
	layers = (double)j->layers / s->pp;
	w->compute_given = j->compute_ms > 0;
	compute_of(j, s, gpu, &w->compute_ms, &w->bubble_ms);
	w->backward_ms = (full ? 0.75 : 2.0 / 3.0) * w->compute_ms / mb;
	w->forward_ms = w->compute_ms / mb - w->backward_ms;
	job_memory(j, s, small ? small->memory_GB : 0, &w->mem);
	snprintf(w->mem_gpu, sizeof w->mem_gpu, "%s", small ? small->name : "");

	run_dp(t, f, j, s, w, cm, detail);
	per_layer = layers * mb;
	if (s->tp > 1 && act > 0) {
		double n = (4 + (full ? 2 : 0)) * per_layer;
		if (s->sp)
			run_exposed(t, f, j, w, cm, DIM_TP, s->tp, 1, "allgather + reducescatter per layer", COLL_ALLGATHER, act,
				    n, COLL_REDUCESCATTER, act, n, detail);
		else
			run_exposed(t, f, j, w, cm, DIM_TP, s->tp, 1, "allreduce per layer", COLL_ALLREDUCE, act, n, -1, 0, 0,
				    detail);
	}
	if (s->cp > 1 && act > 0) {
		/* K and V of the whole sequence, this TP rank's heads. */
		double kv = 2.0 * s->micro_seqs * j->seq_len * (double)j->hidden * s->kv_heads / s->heads * b / s->tp;
		run_exposed(t, f, j, w, cm, DIM_CP, s->cp, s->tp, "allgather + reducescatter of K, V per layer",
			    COLL_ALLGATHER, kv, (full ? 2 : 1) * per_layer, COLL_REDUCESCATTER, kv, per_layer, detail);
	}
	if (s->pp > 1 && act > 0)
		run_pp(t, f, w, cm, (long)s->tp * s->cp * s->dp, act / (s->sp ? s->tp : 1), 2.0 * mb * s->vp, detail);
	if (s->ep > 1 && act > 0)
		run_exposed(t, f, j, w, cm, DIM_EP, s->ep, s->tp, "alltoall per MoE layer", COLL_ALLTOALL,
			    act / (s->sp ? s->tp : 1), (4 + (full ? 2 : 0)) * per_layer, -1, 0, 0, detail);
	w->comm_ms = w->comm_exposed_ms = 0;
	for (k = 0; k < DIM_COUNT; k++) {
		w->comm_ms += w->dims[k].time_ms;
		w->comm_exposed_ms += w->dims[k].exposed_ms;
	}
	w->step_ms = w->compute_ms + w->bubble_ms + w->comm_exposed_ms;
	w->tokens_per_s = w->step_ms > 0 ? w->tokens_per_step / (w->step_ms / 1000.0) : 0;
	w->speedup = speedup_step(w->gpus, w->compute_ms, w->bubble_ms + w->comm_exposed_ms);
	w->efficiency = w->gpus > 0 ? w->speedup / w->gpus : 0;
	w->amdahl_r = w->compute_ms > 0 ? (w->bubble_ms + w->comm_exposed_ms) / w->compute_ms : 0;
	w->amdahl_speedup = speedup_amdahl(w->gpus, w->amdahl_r);
}

static bool comm_blocked(const struct workload *w)
{
	int k;
	for (k = 0; k < DIM_COUNT; k++)
		if (w->dims[k].active && w->dims[k].unavailable)
			return true;
	return false;
}

/* The checks and the step of job j on f's GPUs; false (with why) when it has no step. */
static bool step_of(const struct design *d, const struct catalog *cat, const struct topo *t, const struct fabric *f,
		    const struct job *j, bool detail, struct workload *w)
{
	struct job_shape s;
	const char *field = "job";
	memset(w, 0, sizeof *w);
	if (!d->servers.n || f->gpus < 1) {
		snprintf(w->why, sizeof w->why, "no GPUs");
		return false;
	}
	if (j->params_b <= 0 || j->seq_len <= 0 || j->global_batch <= 0) {
		snprintf(w->why, sizeof w->why, "the job needs params_b, seq_len and global_batch");
		return false;
	}
	if (!job_shape(j, f->gpus, 0, &s, w->why, sizeof w->why, &field)) {
		w->job_error = true;
		snprintf(w->why_field, sizeof w->why_field, "%s", field);
		return false;
	}
	if (!f->connected && f->node.nnodes > 1) {
		snprintf(w->why, sizeof w->why, "%s", f->note[0] ? f->note : "the job's nodes are not connected");
		return false;
	}
	one_size(d, cat, t, f, j, &s, detail, w);
	if (w->compute_ms <= 0) {
		snprintf(w->why, sizeof w->why, "no compute time: give job.compute_ms, or a GPU with TFLOPS and an MFU");
		return false;
	}
	if (comm_blocked(w)) {
		snprintf(w->why, sizeof w->why, "a communicator of the job has no path through the fabric: %s",
			 f->note[0] ? f->note : "see the collectives");
		return false;
	}
	return true;
}

void workload_step(const struct design *d, const struct catalog *cat, const struct topo *t, const struct fabric *f,
		   const struct job *j, struct workload *w)
{
	w->valid = step_of(d, cat, t, f, j, false, w);
}

double workload_floor(const struct design *d, const struct catalog *cat, const struct topo *t, const struct fabric *f,
		      const struct job *j)
{
	const struct cat_gpu *gpu, *small;
	struct job_shape s;
	double compute, bubble;
	/* (step_of's checks, but for the connection: a floor where there is no step is safe.) */
	if (!d->servers.n || f->gpus < 1 || j->params_b <= 0 || j->seq_len <= 0 || j->global_batch <= 0 ||
	    !job_shape(j, f->gpus, 0, &s, NULL, 0, NULL))
		return 0;
	job_gpus(d, cat, t, &gpu, &small);
	compute_of(j, &s, gpu, &compute, &bubble);
	return compute + bubble;
}

void workload_compute(const struct design *d, const struct catalog *cat, const struct topo *t, const struct fabric *f,
		      struct workload *w)
{
	w->valid = step_of(d, cat, t, f, &d->job, true, w);
}

void workload_curve(const struct design *d, const struct catalog *cat, struct topo *t, const struct fabric *f,
		    struct workload *w)
{
	const struct job *j = &d->job;
	struct workload point;
	int N = f->gpus, G = f->node.ppn, n, mult;
	w->ncurve = 0;
	w->has_curve = true;
	if (!w->valid)
		return;
	/* Scaling curve: the same per-GPU work (weak scaling: the batch grows with the GPUs)
	 * from one node to the job, the degrees kept as --gpus keeps them (points where they do
	 * not fit are left out), at most CURVE_POINTS points (doubling, or a larger factor for
	 * huge jobs), so its cost does not grow with the GPU count. */
	{
		int doublings = 0, step;
		for (n = G; n < N; n *= 2)
			doublings++;
		step = (doublings + CURVE_POINTS - 2) / (CURVE_POINTS - 1);
		if (step < 1)
			step = 1;
		mult = 1 << step;
	}
	for (n = G > 0 ? G : 1; w->ncurve < CURVE_MAX; n *= mult) {
		struct fabric sub;
		struct job_shape s;
		int at = n < N ? n : N;
		if (job_shape(j, at, (double)j->global_batch * at / N, &s, NULL, 0, NULL)) {
			topo_place(d, t, at);
			fabric_summarize_job(d, cat, t, &sub);
			memset(&point, 0, sizeof point);
			one_size(d, cat, t, &sub, j, &s, false, &point);
			w->curve[w->ncurve].gpus = at;
			w->curve[w->ncurve].speedup = point.speedup;
			w->curve[w->ncurve].efficiency = point.efficiency;
			w->curve[w->ncurve].amdahl = point.amdahl_speedup;
			w->ncurve++;
		}
		if (at >= N)
			break;
	}
	topo_place(d, t, N);
}

void workload_problems(const struct workload *w, struct ncf_diag *diag)
{
	const struct job_memory *m = &w->mem;
	if (w->job_error)
		diag_add(diag, NCF_ERROR, w->why_field, "%s", w->why);
	if (w->valid && !m->fits)
		diag_add(diag, NCF_WARNING, "job",
			 "the job needs %.1f GB per GPU (weights %.1f, gradients %.1f, optimizer %.1f, activations %.1f) on %.0f GB %s",
			 m->total / 1e9, m->weights / 1e9, m->grads / 1e9, m->optimizer / 1e9, m->activations / 1e9,
			 m->capacity / 1e9, w->mem_gpu);
}
