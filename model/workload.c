#include "model/workload.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const dim_names[] = { "dp", "tp", "pp", "ep", NULL };

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

/* Megatron's rank order: TP fastest, then DP, then PP (workload.h). A communicator of one
 * dimension, laid out on the job's nodes: `ranks` ranks, `stride_ranks` apart, in groups
 * that repeat every `period` ranks. */
struct dim_comm {
	int ranks;             /* ranks of one communicator */
	int per_node;          /* of them on one node */
	struct comm_layout layout;
	int nodes;             /* nodes one communicator spans */
	int span;              /* consecutive GPUs of a node its ranks there cover (host paths) */
};

/* Communicators of `ranks` ranks each, consecutive ranks `stride` apart (TP 1, DP tp,
 * EP tp, over one pipeline stage of tp x dp ranks), on nodes of G GPUs and n nodes. */
static void layout_of(int ranks, int stride, int stage, int G, long n, struct dim_comm *dc)
{
	struct comm_layout *l = &dc->layout;
	memset(dc, 0, sizeof *dc);
	memset(l, 0, sizeof *l);
	dc->ranks = ranks;
	if (G < 1)
		G = 1;
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
	(void)stage;
}

/* One dimension's operation on its communicators. */
static void run_dim(const struct topo *t, const struct fabric *f, const struct job *j, struct dim_traffic *dt,
		    const struct dim_comm *dc, enum coll c, double bytes, double ops)
{
	struct nccl_model m;
	struct coll_result r;
	struct coll_losses loss;
	const struct algo_result *a;
	fabric_nccl_span(f, dc->nodes, dc->ranks, dc->per_node, dc->span, &m);
	{
		/* The step runs one algorithm: the forced one, else NCCL's pick; only theirs need the
		 * fabric (both, when a forced one might turn out unavailable). */
		static const int forced[] = { [ALGO_AUTO] = -1, [ALGO_RING] = UA_RING, [ALGO_TREE] = UA_TREE,
					      [ALGO_NVLS] = UA_NVLS, [ALGO_NVLSTREE] = UA_NVLSTREE,
					      [ALGO_COLLNET] = UA_COLLNET };
		int pick = collective_auto(&m, c, bytes), want = j->algo > 0 && j->algo <= ALGO_COLLNET ? forced[j->algo] : -1;
		unsigned mask = (pick >= 0 ? 1u << pick : 0) | (want >= 0 ? 1u << want : 0);
		collective_losses_some(t, f, &m, c, &dc->layout, mask ? mask : ~0u, &loss);
		if ((pick >= 0 && loss.algo[pick].factor <= 0) || (want >= 0 && loss.algo[want].factor <= 0))
			collective_losses(t, f, &m, c, &dc->layout, &loss); /* a fallback will be chosen */
	}
	collective_eval(f, &m, c, bytes, &loss, &r);
	a = coll_pick(&r, j->algo);
	dt->active = true;
	dt->coll = c;
	dt->bytes = bytes;
	dt->ops += ops;
	dt->ranks = dc->ranks;
	dt->per_node = dc->per_node;
	dt->network = m.node.nnodes > 1;
	if (a->available) {
		dt->time_ms += ops * a->time_us / 1000.0;
		dt->busbw_GBps = a->busbw_GBps;
		dt->algo = (int)(a - r.algo);
	} else if (m.node.nnodes > 1) {
		dt->unavailable = true;
	}
}

/* Pipeline sends: each GPU to its counterpart in the next stage, tp x dp ranks on. */
static void run_pp(const struct topo *t, const struct fabric *f, struct dim_traffic *dt, int stage_ranks, int pp,
		   double bytes, double ops)
{
	int G = f->node.ppn > 0 ? f->node.ppn : 1;
	struct nccl_model m;
	struct coll_result r;
	struct coll_losses loss;
	struct comm_layout l;
	const struct algo_result *a;
	memset(&l, 0, sizeof l);
	dt->active = true;
	dt->coll = COLL_SENDRECV;
	dt->bytes = bytes;
	dt->ops += ops;
	dt->ranks = pp;
	if (stage_ranks < G) {
		/* Stages share a node: the sends stay on NVLink. */
		dt->per_node = G / stage_ranks < pp ? G / stage_ranks : pp;
		fabric_nccl(f, 1, dt->per_node, dt->per_node, &m);
		collective_eval(f, &m, COLL_SENDRECV, bytes, NULL, &r);
		dt->network = false;
	} else {
		long dist = stage_ranks / G;
		dt->per_node = 1;
		fabric_nccl(f, 2, 2, 1, &m);
		l.span = span_all(f->node.nnodes);
		l.per_node = 1;
		l.concurrent = G;
		{
			struct route_in in;
			memset(&in, 0, sizeof in);
			in.kind = TK_PAIRS;
			in.span = l.span;
			in.distance = dist;
			in.concurrent = G;
			in.gpus = 1;
			in.pxn = f->pxn;
			in.placement = f->placement;
			/* One GPU per pair, its own NIC, or its share of one when GPUs share NICs. */
			in.rate = f->node.cards > 0 ? f->node_ceiling_GBps / G : 0;
			in.p2p_channels = 1;
			memset(&loss, 0, sizeof loss);
			fabric_loss(t, f, &in, &loss.algo[UA_P2P]);
		}
		collective_eval(f, &m, COLL_SENDRECV, bytes, &loss, &r);
		dt->network = true;
	}
	a = &r.algo[UA_P2P];
	if (a->available) {
		dt->time_ms += ops * a->time_us / 1000.0;
		dt->busbw_GBps = a->busbw_GBps;
		dt->algo = UA_P2P;
	} else if (dt->network) {
		dt->unavailable = true;
	}
}

/* The slowest GPU of the job: in a synchronous step every rank waits for it. */
static const struct cat_gpu *slowest_gpu(const struct design *d, const struct catalog *cat, const struct topo *t)
{
	const struct cat_gpu *slow = NULL;
	int i;
	for (i = 0; i < t->nplaced; i++) {
		const struct topo_ngroup *g = &t->ng[t->order[i]];
		const struct cat_gpu *gpu;
		if (!g->used)
			continue;
		gpu = catalog_gpu(cat, DESIGN_SERVER(d, g->server)->gpu);
		if (gpu && gpu->bf16_tflops > 0 && (!slow || gpu->bf16_tflops < slow->bf16_tflops))
			slow = gpu;
	}
	if (!slow && d->servers.n)
		slow = catalog_gpu(cat, DESIGN_SERVER(d, 0)->gpu);
	return slow;
}

static void one_size(const struct design *d, const struct catalog *cat, const struct topo *t, const struct fabric *f,
		     int N, double batch_scale, struct workload *w)
{
	const struct job *j = &d->job;
	const struct cat_gpu *gpu = slowest_gpu(d, cat, t);
	int G = f->node.ppn, b = dtype_bytes(j->dtype), mb = j->micro_batches > 0 ? j->micro_batches : 1;
	long n = f->node.nnodes;
	double P = j->params_b * 1e9, seqs, mbs, act, layers;
	struct dim_comm dc;
	memset(w->dims, 0, sizeof w->dims);
	w->gpus = N;
	w->tp = j->tp > 0 ? j->tp : 1;
	w->pp = j->pp > 0 ? j->pp : 1;
	w->ep = j->ep > 0 ? j->ep : 1;
	/* DP as the job gives it when it fits these GPUs; else what the GPUs leave for it
	 * (another --gpus count, a point of the scaling curve). */
	w->dp = j->dp > 0 && (long)j->dp * w->tp * w->pp == N ? j->dp : N / (w->tp * w->pp);
	if (w->dp < 1)
		w->dp = 1;
	seqs = j->global_batch * batch_scale;
	w->tokens_per_step = seqs * j->seq_len;
	mbs = seqs / ((double)w->dp * mb);
	if (mbs < 1)
		mbs = 1;
	act = mbs * j->seq_len * (double)j->hidden * b;
	layers = (double)j->layers / w->pp;
	w->compute_given = j->compute_ms > 0;
	if (w->compute_given)
		w->compute_ms = j->compute_ms;
	else if (gpu && gpu->bf16_tflops > 0 && j->mfu > 0)
		w->compute_ms = 6.0 * P * w->tokens_per_step / (N * gpu->bf16_tflops * 1e12 * j->mfu) * 1000.0;
	w->bubble_ms = w->pp > 1 ? w->compute_ms * (w->pp - 1) / mb : 0;

	/* DP: one rank per TP group, tp ranks apart, within one pipeline stage. */
	if (w->dp > 1) {
		struct dim_traffic *dt = &w->dims[DIM_DP];
		double grads = P / ((double)w->tp * w->pp) * b;
		layout_of(w->dp, w->tp, w->tp * w->dp, G, n, &dc);
		if (j->zero == 0) {
			run_dim(t, f, j, dt, &dc, COLL_ALLREDUCE, grads, 1);
			snprintf(dt->what, sizeof dt->what, "allreduce of the gradients");
		} else {
			run_dim(t, f, j, dt, &dc, COLL_REDUCESCATTER, grads, 1);
			run_dim(t, f, j, dt, &dc, COLL_ALLGATHER, grads, j->zero == 3 ? 2 : 1);
			dt->coll = COLL_REDUCESCATTER;
			snprintf(dt->what, sizeof dt->what, "reducescatter + %sallgather (ZeRO-%d)", j->zero == 3 ? "2 " : "",
				 j->zero);
		}
	}
	if (w->tp > 1 && act > 0) {
		struct dim_traffic *dt = &w->dims[DIM_TP];
		layout_of(w->tp, 1, w->tp, G, n, &dc);
		run_dim(t, f, j, dt, &dc, COLL_ALLGATHER, act, 4 * layers * mb);
		run_dim(t, f, j, dt, &dc, COLL_REDUCESCATTER, act, 4 * layers * mb);
		snprintf(dt->what, sizeof dt->what, "allgather + reducescatter per layer");
	}
	if (w->pp > 1 && act > 0) {
		struct dim_traffic *dt = &w->dims[DIM_PP];
		/* Stages are tp x dp ranks apart: on different nodes once that fills a node. */
		run_pp(t, f, dt, w->tp * w->dp, w->pp, act, 2.0 * mb);
		snprintf(dt->what, sizeof dt->what, "send/recv per micro-batch");
	}
	if (w->ep > 1 && act > 0) {
		struct dim_traffic *dt = &w->dims[DIM_EP];
		/* Expert groups: ep consecutive DP ranks (tp ranks apart). */
		layout_of(w->ep, w->tp, w->tp * w->ep, G, n, &dc);
		run_dim(t, f, j, dt, &dc, COLL_ALLTOALL, act, 4 * layers * mb);
		snprintf(dt->what, sizeof dt->what, "alltoall per MoE layer");
	}
	{
		int k;
		double hidden;
		w->comm_ms = 0;
		for (k = 0; k < DIM_COUNT; k++)
			w->comm_ms += w->dims[k].time_ms;
		/* DP gradient traffic runs in the background during `overlap` of the compute
		 * time (DDP overlaps it with the backward pass); TP, PP and EP traffic sits on
		 * the critical path of every layer and micro-batch and is exposed. */
		hidden = j->overlap * w->compute_ms;
		w->comm_exposed_ms = w->comm_ms - w->dims[DIM_DP].time_ms;
		if (w->dims[DIM_DP].time_ms > hidden)
			w->comm_exposed_ms += w->dims[DIM_DP].time_ms - hidden;
	}
	w->step_ms = w->compute_ms + w->bubble_ms + w->comm_exposed_ms;
	w->tokens_per_s = w->step_ms > 0 ? w->tokens_per_step / (w->step_ms / 1000.0) : 0;
	w->speedup = speedup_step(N, w->compute_ms, w->bubble_ms + w->comm_exposed_ms);
	w->efficiency = N > 0 ? w->speedup / N : 0;
	w->amdahl_r = w->compute_ms > 0 ? (w->bubble_ms + w->comm_exposed_ms) / w->compute_ms : 0;
	w->amdahl_speedup = speedup_amdahl(N, w->amdahl_r);
}

static bool comm_blocked(const struct workload *w)
{
	int k;
	for (k = 0; k < DIM_COUNT; k++)
		if (w->dims[k].active && w->dims[k].unavailable)
			return true;
	return false;
}

void workload_compute(const struct design *d, const struct catalog *cat, struct topo *t, const struct fabric *f,
		      struct workload *w)
{
	const struct job *j = &d->job;
	struct workload point;
	int N = f->gpus, G = f->node.ppn, n, mult;
	memset(w, 0, sizeof *w);
	if (!d->servers.n || N < 1) {
		snprintf(w->why, sizeof w->why, "no GPUs");
		return;
	}
	if (j->params_b <= 0 || j->seq_len <= 0 || j->global_batch <= 0) {
		snprintf(w->why, sizeof w->why, "the job needs params_b, seq_len and global_batch");
		return;
	}
	if (!f->connected && f->node.nnodes > 1) {
		snprintf(w->why, sizeof w->why, "%s", f->note[0] ? f->note : "the job's nodes are not connected");
		return;
	}
	one_size(d, cat, t, f, N, 1.0, w);
	if (w->compute_ms <= 0) {
		snprintf(w->why, sizeof w->why, "no compute time: give job.compute_ms, or a GPU with TFLOPS and an MFU");
		return;
	}
	if (comm_blocked(w)) {
		snprintf(w->why, sizeof w->why, "a communicator of the job has no path through the fabric: %s",
			 f->note[0] ? f->note : "see the collectives");
		return;
	}
	w->valid = true;
	/* Scaling curve: the same per-GPU work (weak scaling) from one node to the job, at
	 * most CURVE_POINTS points (doubling, or a larger factor for huge jobs), so its cost
	 * does not grow with the GPU count. */
	{
		int doublings = 0, step;
		for (n = G; n < N; n *= 2)
			doublings++;
		step = (doublings + CURVE_POINTS - 2) / (CURVE_POINTS - 1);
		if (step < 1)
			step = 1;
		mult = 1 << step;
	}
	for (n = G; w->ncurve < CURVE_MAX; n *= mult) {
		struct fabric sub;
		int at = n < N ? n : N;
		topo_place(d, t, at);
		fabric_summarize_job(d, cat, t, &sub);
		one_size(d, cat, t, &sub, at, (double)at / N, &point);
		w->curve[w->ncurve].gpus = at;
		w->curve[w->ncurve].speedup = point.speedup;
		w->curve[w->ncurve].efficiency = point.efficiency;
		w->curve[w->ncurve].amdahl = point.amdahl_speedup;
		w->ncurve++;
		if (at >= N)
			break;
	}
	topo_place(d, t, N);
}
