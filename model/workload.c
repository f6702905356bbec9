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

/* One dimension's operation on a communicator of `ranks`, `per_node` on each node. */
static void run_dim(const struct fabric *f, const struct job *j, struct dim_traffic *dt, enum coll c, double bytes,
		    double ops)
{
	struct nccl_node n = fabric_subnode(f, dt->ranks, dt->per_node);
	struct nccl_model m;
	struct coll_result r;
	const struct algo_result *a;
	int concurrent = f->node.ppn / (dt->per_node > 0 ? dt->per_node : 1);
	nccl_model_build(&n, &m);
	collective_eval(f, &m, c, bytes, concurrent > 0 ? concurrent : 1, &r);
	a = coll_pick(&r, j->algo);
	dt->active = true;
	dt->coll = c;
	dt->bytes = bytes;
	dt->ops += ops;
	dt->network = m.node.nnodes > 1;
	if (a->available) {
		dt->time_ms += ops * a->time_us / 1000.0;
		dt->busbw_GBps = a->busbw_GBps;
		dt->algo = (int)(a - r.algo);
	}
}

static void one_size(const struct design *d, const struct catalog *cat, const struct fabric *f, int N,
		     double batch_scale, struct workload *w)
{
	const struct job *j = &d->job;
	const struct server_group *g = DESIGN_SERVER(d, 0);
	const struct cat_gpu *gpu = catalog_gpu(cat, g->gpu);
	int G = f->node.ppn, b = dtype_bytes(j->dtype), mb = j->micro_batches > 0 ? j->micro_batches : 1;
	double P = j->params_b * 1e9, seqs, mbs, act, layers;
	memset(w->dims, 0, sizeof w->dims);
	w->gpus = N;
	w->tp = j->tp > 0 ? j->tp : 1;
	w->pp = j->pp > 0 ? j->pp : 1;
	w->ep = j->ep > 0 ? j->ep : 1;
	w->dp = j->dp > 0 && batch_scale == 1.0 ? j->dp : N / (w->tp * w->pp);
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

	/* DP: one rank per TP group on a node (stride tp). */
	if (w->dp > 1) {
		struct dim_traffic *dt = &w->dims[DIM_DP];
		double grads = P / ((double)w->tp * w->pp) * b;
		dt->ranks = w->dp;
		dt->per_node = w->tp < G ? G / w->tp : 1;
		if (dt->per_node > w->dp)
			dt->per_node = w->dp;
		if (j->zero == 0) {
			run_dim(f, j, dt, COLL_ALLREDUCE, grads, 1);
			snprintf(dt->what, sizeof dt->what, "allreduce of the gradients");
		} else {
			run_dim(f, j, dt, COLL_REDUCESCATTER, grads, 1);
			run_dim(f, j, dt, COLL_ALLGATHER, grads, j->zero == 3 ? 2 : 1);
			dt->coll = COLL_REDUCESCATTER;
			snprintf(dt->what, sizeof dt->what, "reducescatter + %sallgather (ZeRO-%d)", j->zero == 3 ? "2 " : "",
				 j->zero);
		}
	}
	if (w->tp > 1 && act > 0) {
		struct dim_traffic *dt = &w->dims[DIM_TP];
		dt->ranks = w->tp;
		dt->per_node = w->tp < G ? w->tp : G;
		run_dim(f, j, dt, COLL_ALLGATHER, act, 4 * layers * mb);
		run_dim(f, j, dt, COLL_REDUCESCATTER, act, 4 * layers * mb);
		snprintf(dt->what, sizeof dt->what, "allgather + reducescatter per layer");
	}
	if (w->pp > 1 && act > 0) {
		struct dim_traffic *dt = &w->dims[DIM_PP];
		/* Stages are tp x dp ranks apart: on different nodes once that fills a node. */
		dt->ranks = w->pp;
		dt->per_node = w->tp * w->dp >= G ? 1 : G / (w->tp * w->dp);
		if (dt->per_node > w->pp)
			dt->per_node = w->pp;
		run_dim(f, j, dt, COLL_SENDRECV, act, 2.0 * mb);
		snprintf(dt->what, sizeof dt->what, "send/recv per micro-batch");
	}
	if (w->ep > 1 && act > 0) {
		struct dim_traffic *dt = &w->dims[DIM_EP];
		dt->ranks = w->ep;
		dt->per_node = w->tp < G ? G / w->tp : 1;
		if (dt->per_node > w->ep)
			dt->per_node = w->ep;
		run_dim(f, j, dt, COLL_ALLTOALL, act, 4 * layers * mb);
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

void workload_compute(const struct design *d, const struct catalog *cat, const struct fabric *f, struct workload *w)
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
	one_size(d, cat, f, N, 1.0, w);
	if (w->compute_ms <= 0) {
		snprintf(w->why, sizeof w->why, "no compute time: give job.compute_ms, or a GPU with TFLOPS and an MFU");
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
		fabric_build(d, cat, at, &sub);
		one_size(d, cat, &sub, at, (double)at / N, &point);
		w->curve[w->ncurve].gpus = at;
		w->curve[w->ncurve].speedup = point.speedup;
		w->curve[w->ncurve].efficiency = point.efficiency;
		w->curve[w->ncurve].amdahl = point.amdahl_speedup;
		w->ncurve++;
		if (at >= N)
			break;
	}
}
