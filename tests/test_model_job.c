/* The training job (model/job.h, model/workload.h): degrees on N GPUs, memory per GPU,
 * DP buckets at their own size, the overlap window, sequence parallelism, CP, and a
 * bottleneck and advice that agree with the numbers beside them. Every expected value is
 * worked out by hand in the comment above it. */
#include <criterion/criterion.h>
#include <math.h>
#include "fixtures.h"
#include "model/metrics.h"

static struct catalog cat;
static struct metrics m;
static struct ncf_diag diag;

static void setup(void)
{
	fx_catalog(&cat);
	VEC_AT(cat.gpus, struct cat_gpu, 0).memory_GB = 80; /* a100 */
	VEC_AT(cat.gpus, struct cat_gpu, 1).memory_GB = 80; /* h100 */
	memset(&diag, 0, sizeof diag);
}

static void teardown(void)
{
	diag_free(&diag);
	catalog_free(&cat);
}

TestSuite(job, .init = setup, .fini = teardown);

#define GiB (1024.0 * 1024 * 1024)
#define MiB (1024.0 * 1024)

static bool close_rel(double a, double b, double tol)
{
	return fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

/* The reference case's job: GPT-2 1.5B, 48 layers of 1600, 1024 tokens, 48 sequences. */
static void reference_job(struct design *d)
{
	fx_reference(d);
	d->job.params_b = 1.5;
	d->job.layers = 48;
	d->job.hidden = 1600;
	d->job.seq_len = 1024;
	d->job.global_batch = 48;
	d->job.mfu = 0.4;
	d->job.overlap = 0.8;
	VEC_AT(cat.gpus, struct cat_gpu, 0).bf16_tflops = 312;
}

/* A 70B job on 4 x 8 h100 (one 64-port leaf, 8 x 400G each). */
static void llama70b(struct design *d)
{
	fx_clos(d, 4, 8, WIRE_RAIL, 8, 0, 0);
	d->job.params_b = 70;
	d->job.layers = 80;
	d->job.hidden = 8192;
	d->job.seq_len = 4096;
	d->job.global_batch = 4;
	d->job.tp = 8;
	d->job.zero = 0;
}

/* ---- degrees ---------------------------------------------------------------------------- */

Test(job, degrees_keep_tp_pp_cp_and_give_dp_the_rest)
{
	struct job j;
	struct job_shape s;
	char why[300];
	const char *field = NULL;
	schema_init(&job_schema, &j);
	j.params_b = 1;
	j.global_batch = 64;
	j.tp = 8;
	j.pp = 2;
	j.cp = 2;
	cr_assert(job_shape(&j, 64, 0, &s, why, sizeof why, &field), "%s", why);
	cr_assert_eq(s.replica, 32);
	cr_assert_eq(s.dp, 2, "64 / (8 x 2 x 2)");
	cr_assert_eq(s.shard, 4, "dp x cp hold the same weights");
	/* 64 sequences over DP 2 in 1 micro-batch: 32 each. */
	cr_assert_float_eq(s.micro_seqs, 32, 1e-12);
	cr_assert(job_shape(&j, 128, 0, &s, why, sizeof why, &field));
	cr_assert_eq(s.dp, 4, "twice the GPUs: twice the DP, the other degrees kept");
	/* 8 x 2 x 2 = 32 does not divide 48. */
	cr_assert_not(job_shape(&j, 48, 0, &s, why, sizeof why, &field));
	cr_assert_str_eq(field, "job.cp", "48 / 8 = 6 is divisible by PP 2; 3 is not by CP 2");
	cr_assert(strstr(why, "TP 8 x PP 2 x CP 2 = 32 GPUs per data-parallel replica does not divide the 48 GPUs taking part"),
		  "%s", why);
	j.pp = j.cp = 1;
	j.tp = 64;
	cr_assert_not(job_shape(&j, 32, 0, &s, why, sizeof why, &field));
	cr_assert_str_eq(field, "job.tp");
	cr_assert(strstr(why, "TP 64 x PP 1 x CP 1 = 64 GPUs per data-parallel replica is more than the 32 GPUs"), "%s", why);
	j.tp = 8;
	j.ep = 3;
	cr_assert_not(job_shape(&j, 32, 0, &s, why, sizeof why, &field), "EP 3 does not divide DP 4");
	cr_assert_str_eq(field, "job.ep");
	schema_free(&job_schema, &j);
}

Test(job, tp_64_on_32_gpus_is_an_error)
{
	struct design d;
	reference_job(&d);
	d.job.tp = 64;
	d.job.dp = 0;
	cr_assert_gt(design_check(&d, &cat, &diag), 0);
	cr_assert(fx_has(&diag, NCF_ERROR, "TP 64 x PP 1 x CP 1 = 64 GPUs per data-parallel replica is more than the 32 GPUs"));
	/* The workload says so too, as an error, not 0 ms of communication. */
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_not(m.work.valid);
	cr_assert(m.work.job_error);
	cr_assert_str_eq(m.work.why_field, "job.tp");
	diag_clear(&diag);
	metrics_problems(&m, &diag);
	cr_assert(fx_has(&diag, NCF_ERROR, "is more than the 32 GPUs taking part"));
	design_free(&d);
}

Test(job, gpus_16_on_a_32_rank_job_halves_dp)
{
	/* job.dp 32 on the reference case; --gpus 16 keeps TP 1 and gives DP 16 / 1. */
	struct design d;
	reference_job(&d);
	metrics_compute(&d, &cat, GiB, 16, &m);
	cr_assert(m.work.valid, "%s", m.work.why);
	cr_assert_eq(m.work.gpus, 16);
	cr_assert_eq(m.work.dp, 16);
	cr_assert_eq(m.work.dims[DIM_DP].ranks, 16, "a 16-rank communicator, not the job's 32");
	/* With TP 2: DP 16 / 2 = 8, over 2 nodes. */
	d.job.tp = 2;
	d.job.dp = 0;
	metrics_compute(&d, &cat, GiB, 16, &m);
	cr_assert_eq(m.work.dp, 8);
	cr_assert_eq(m.work.dims[DIM_DP].ranks, 8);
	cr_assert_eq(m.work.dims[DIM_DP].nodes, 2);
	/* TP 8 x PP 1 does not divide 12 GPUs: an error (report exits 2), not a made-up DP. */
	d.job.tp = 8;
	metrics_compute(&d, &cat, GiB, 12, &m);
	cr_assert(m.work.job_error);
	cr_assert(strstr(m.work.why, "does not divide the 12 GPUs taking part"), "%s", m.work.why);
	/* More GPUs than the design has: an error too. */
	d.job.tp = 1;
	metrics_compute(&d, &cat, GiB, 100, &m);
	cr_assert(m.work.job_error);
	cr_assert(strstr(m.work.why, "100 GPUs asked for, but the job's server groups have 32"), "%s", m.work.why);
	design_free(&d);
}

Test(job, the_scaling_curve_rescales_dp_the_same_way)
{
	/* TP 16 x PP 1 on 8-GPU nodes: no point below 16 GPUs, DP = n / 16 at each point. */
	struct design d;
	int k;
	reference_job(&d);
	d.job.tp = 16;
	d.job.dp = 0;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.work.valid, "%s", m.work.why);
	cr_assert_eq(m.work.ncurve, 2, "16 and 32 GPUs; 8 cannot hold TP 16");
	cr_assert_eq(m.work.curve[0].gpus, 16);
	cr_assert_eq(m.work.curve[1].gpus, 32);
	cr_assert_float_eq(m.work.curve[1].speedup, m.work.speedup, 1e-9);
	for (k = 0; k < m.work.ncurve; k++)
		cr_assert_leq(m.work.curve[k].speedup, m.work.curve[k].gpus + 1e-9);
	design_free(&d);
}

/* ---- memory ----------------------------------------------------------------------------- */

Test(job, a_70b_job_at_tp8_zero0_does_not_fit_80_gb)
{
	/* Psi per GPU = 70e9 / 8 = 8.75e9: weights 2 x 8.75 = 17.5 GB, gradients 17.5, Adam 12 x
	 * 8.75 = 105. One micro-batch of b = 4 / (DP 4 x 1) = 1 sequence; without sequence
	 * parallelism, selective: s b h (10 + 24/8) = 4096 x 8192 x 13 = 436,207,616 B a layer,
	 * x 80 layers = 34.897 GB. Total 174.897 GB on an 80 GB GPU. */
	struct design d;
	llama70b(&d);
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.work.valid, "%s", m.work.why);
	cr_assert_float_eq(m.work.mem.weights, 17.5e9, 1);
	cr_assert_float_eq(m.work.mem.grads, 17.5e9, 1);
	cr_assert_float_eq(m.work.mem.optimizer, 105e9, 1);
	cr_assert_float_eq(m.work.mem.act_layer, 436207616.0, 1e-3);
	cr_assert_float_eq(m.work.mem.activations, 436207616.0 * 80, 1e-3);
	cr_assert_not(m.work.mem.fits);
	metrics_problems(&m, &diag);
	cr_assert(fx_has(&diag, NCF_WARNING,
			 "the job needs 174.9 GB per GPU (weights 17.5, gradients 17.5, optimizer 105.0, activations 34.9) on 80 GB h100"));
	/* The advice weighs what would fit. ZeRO-1 over d = 4: optimizer 105 / 4 = 26.25, total
	 * 17.5 + 17.5 + 26.25 + 34.897 = 96.1 GB: still too much. Sequence parallelism: 34 / 8 x
	 * 33,554,432 x 80 = 11.408 GB; with ZeRO-1: 72.66 GB fits. */
	{
		int i;
		bool said = false;
		for (i = 0; i < m.nadvice; i++)
			said |= strstr(m.advice[i], "fits the job in") != NULL;
		cr_assert(said, "the advice offers a change that fits");
	}
	d.job.sequence_parallel = true;
	d.job.zero = 1;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_float_eq(m.work.mem.optimizer, 26.25e9, 1);
	cr_assert_float_eq(m.work.mem.activations, 34.0 / 8 * 33554432.0 * 80, 1e-3);
	cr_assert(close_rel(m.work.mem.total, 72.658e9, 1e-4), "%f", m.work.mem.total);
	cr_assert(m.work.mem.fits);
	design_free(&d);
}

Test(job, memory_by_zero_stage_and_recomputation)
{
	/* 70B, TP 8, d = 4 (per GPU 8.75e9 parameters); s b h = 33,554,432 with b = 1. */
	struct design d;
	struct job_shape s;
	struct job_memory mem;
	llama70b(&d);
	cr_assert(job_shape(&d.job, 32, 0, &s, NULL, 0, NULL));
	d.job.zero = 2; /* 2 + 14/4 bytes a parameter */
	job_memory(&d.job, &s, 80, &mem);
	cr_assert_float_eq(mem.weights + mem.grads + mem.optimizer, 8.75e9 * (2 + 14.0 / 4), 1);
	d.job.zero = 3; /* 16/4 */
	job_memory(&d.job, &s, 80, &mem);
	cr_assert_float_eq(mem.weights + mem.grads + mem.optimizer, 8.75e9 * 4, 1);
	/* Full recomputation with sequence parallelism: 2 s b h / 8 = 8,388,608 a layer x 80,
	 * plus one layer at the selective size, 34 / 8 x 33,554,432 = 142,606,336. */
	d.job.sequence_parallel = true;
	d.job.recompute = RECOMPUTE_FULL;
	cr_assert(job_shape(&d.job, 32, 0, &s, NULL, 0, NULL));
	job_memory(&d.job, &s, 80, &mem);
	cr_assert_float_eq(mem.activations, 8388608.0 * 80 + 142606336.0, 1e-3);
	/* No recomputation keeps the scores: + 5 a s s b / t = 5 x 64 x 4096^2 / 8 = 671,088,640. */
	d.job.recompute = RECOMPUTE_NONE;
	d.job.heads = 64;
	cr_assert(job_shape(&d.job, 32, 0, &s, NULL, 0, NULL));
	job_memory(&d.job, &s, 80, &mem);
	cr_assert_float_eq(mem.act_layer, 142606336.0 + 671088640.0, 1e-3);
	/* Under 1F1B with PP 4 and 8 micro-batches the first stage holds 80 / 4 x 4 = 80
	 * layer-micro-batches; with 2 micro-batches, 20 x 2 = 40. */
	d.job.pp = 4;
	d.job.tp = 8;
	d.job.global_batch = 8;
	d.job.micro_batches = 8;
	cr_assert(job_shape(&d.job, 32, 0, &s, NULL, 0, NULL));
	job_memory(&d.job, &s, 80, &mem);
	cr_assert_float_eq(mem.layers_held, 80, 1e-12);
	d.job.micro_batches = 2;
	cr_assert(job_shape(&d.job, 32, 0, &s, NULL, 0, NULL));
	job_memory(&d.job, &s, 80, &mem);
	cr_assert_float_eq(mem.layers_held, 40, 1e-12);
	/* Experts split over EP and PP: (70 - 64) / (8 x 4) + 64 / (1 x 4) billion. */
	d.job.expert_params_b = 64;
	cr_assert(job_shape(&d.job, 32, 0, &s, NULL, 0, NULL));
	cr_assert_float_eq(s.params_gpu, 6e9 / 32 + 64e9 / 4, 1);
	design_free(&d);
}

/* ---- DP buckets and the overlap window -------------------------------------------------- */

Test(job, megatron_buckets_at_their_own_size)
{
	/* 1.5e9 gradients x 2 bytes = 3e9 B; Megatron's bucket max(40e6, 1e6 x 32) = 40e6
	 * parameters = 80e6 B: 37 full buckets and a last one of 3e9 - 37 x 80e6 = 40e6 B. */
	struct design d;
	struct coll_result r;
	const struct dim_traffic *dp;
	double others, window;
	reference_job(&d);
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.work.valid, "%s", m.work.why);
	dp = &m.work.dims[DIM_DP];
	cr_assert_eq(dp->buckets, 38);
	cr_assert_float_eq(dp->bucket_bytes, 80e6, 1e-6);
	cr_assert_float_eq(dp->last_bytes, 40e6, 1e-6);
	cr_assert_float_eq(dp->first_bytes, 0, 1e-12);
	/* The DP communicator is the job's whole one here (TP 1): each bucket's time is the
	 * collective model's at that size, not a share of the 1 GiB figure. */
	metrics_at(&m, COLL_ALLREDUCE, 80e6, &r);
	cr_assert(close_rel(dp->bucket_us, coll_pick(&r, 0)->time_us, 1e-9), "%f vs %f", dp->bucket_us,
		  coll_pick(&r, 0)->time_us);
	metrics_at(&m, COLL_ALLREDUCE, 40e6, &r);
	cr_assert(close_rel(dp->last_us, coll_pick(&r, 0)->time_us, 1e-9));
	cr_assert_gt(dp->bucket_us, 80e6 / GiB * coll_pick(&m.colls[COLL_ALLREDUCE], 0)->time_us,
		     "each bucket pays its own latency");
	cr_assert(close_rel(dp->time_ms, (37 * dp->bucket_us + dp->last_us) / 1000, 1e-12));
	/* T_calc = 6 x 1.5e9 x 48 x 1024 / (32 x 312e12 x 0.4) = 110.769 ms. The window is the
	 * last (only) micro-batch's backward, 2/3 x 110.769 = 73.846 ms, under overlap 0.8 x
	 * 110.769 = 88.6: exposed = last + max(0, 37 buckets - 73.846). */
	cr_assert(close_rel(m.work.compute_ms, 6 * 1.5e9 * 48 * 1024 / (32 * 312e12 * 0.4) * 1000, 1e-12));
	window = 2.0 / 3 * m.work.compute_ms;
	cr_assert(close_rel(dp->window_ms, window, 1e-12));
	others = 37 * dp->bucket_us / 1000;
	cr_assert(close_rel(dp->exposed_ms, dp->last_us / 1000 + fmax(0, others - window), 1e-12));
	cr_assert(close_rel(m.work.step_ms, m.work.compute_ms + dp->exposed_ms, 1e-12));
	/* The old free knob hid 0.8 x T_calc: the physical window exposes more. */
	cr_assert_gt(dp->exposed_ms, dp->time_ms - 0.8 * m.work.compute_ms);
	design_free(&d);
}

Test(job, overlap_is_an_upper_bound_and_micro_batches_shrink_the_window)
{
	struct design d;
	const struct dim_traffic *dp = &m.work.dims[DIM_DP];
	double others;
	reference_job(&d);
	/* overlap 0.5: min(0.5 x 110.769, 73.846) = 55.385 ms. */
	d.job.overlap = 0.5;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(close_rel(dp->window_ms, 0.5 * m.work.compute_ms, 1e-12));
	/* 4 micro-batches: only the last one's backward, 2/3 x 110.769 / 4 = 18.462 ms. */
	d.job.overlap = 0.8;
	d.job.micro_batches = 4;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(close_rel(dp->window_ms, 2.0 / 3 * m.work.compute_ms / 4, 1e-12));
	others = (dp->time_ms * 1000 - dp->last_us) / 1000;
	cr_assert(close_rel(dp->exposed_ms, dp->last_us / 1000 + others - dp->window_ms, 1e-12));
	/* Full recomputation: 8 instead of 6 FLOPs a parameter and token, a backward of 3/4. */
	d.job.micro_batches = 1;
	d.job.recompute = RECOMPUTE_FULL;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(close_rel(m.work.compute_ms, 8 * 1.5e9 * 48 * 1024 / (32 * 312e12 * 0.4) * 1000, 1e-12));
	cr_assert(close_rel(dp->window_ms, 0.75 * m.work.compute_ms, 1e-12));
	/* overlap 0: Megatron reduces one bucket after the backward, wholly exposed. */
	d.job.recompute = RECOMPUTE_SELECTIVE;
	d.job.overlap = 0;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_eq(dp->buckets, 1);
	cr_assert_float_eq(dp->last_bytes, 3e9, 1e-3);
	cr_assert(close_rel(dp->exposed_ms, dp->time_ms, 1e-12));
	design_free(&d);
}

Test(job, ddp_buckets_and_bucket_mb)
{
	/* PyTorch DDP: 1 MiB first, then 25 MiB: 3e9 - 1,048,576 = 2,998,951,424 B; 114 full
	 * buckets of 26,214,400 B take 2,988,441,600, leaving 10,509,824 for the last: 116. */
	struct design d;
	const struct dim_traffic *dp = &m.work.dims[DIM_DP];
	reference_job(&d);
	d.job.dp_buckets = BUCKETS_DDP;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_eq(dp->buckets, 116);
	cr_assert_float_eq(dp->first_bytes, MiB, 1e-9);
	cr_assert_float_eq(dp->bucket_bytes, 25 * MiB, 1e-9);
	cr_assert_float_eq(dp->last_bytes, 10509824.0, 1e-3);
	cr_assert(close_rel(dp->time_ms, (dp->first_us + 114 * dp->bucket_us + dp->last_us) / 1000, 1e-12));
	/* bucket_mb 1000 with Megatron: 1000 MiB = 1,048,576,000 B; 3e9 = 2 full + 902,848,000. */
	d.job.dp_buckets = BUCKETS_MEGATRON;
	d.job.bucket_mb = 1000;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_eq(dp->buckets, 3);
	cr_assert_float_eq(dp->last_bytes, 3e9 - 2 * 1048576000.0, 1e-3);
	design_free(&d);
}

Test(job, zero_stages_move_their_volume)
{
	/* ZeRO 1-2: a ReduceScatter and an AllGather per bucket; ZeRO 3: per layer and
	 * micro-batch 2 AllGather and a ReduceScatter of 3e9 / 48 = 62.5e6 B. */
	struct design d;
	const struct dim_traffic *dp = &m.work.dims[DIM_DP];
	reference_job(&d);
	d.job.zero = 1;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_eq(dp->coll, COLL_REDUCESCATTER);
	cr_assert_float_eq(dp->ops, 2 * 38, 1e-12);
	d.job.zero = 3;
	d.job.micro_batches = 2;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_eq(dp->coll, COLL_ALLGATHER);
	cr_assert_float_eq(dp->bucket_bytes, 62.5e6, 1e-3);
	cr_assert_float_eq(dp->ops, 3 * 48 * 2, 1e-12);
	design_free(&d);
}

/* ---- TP, PP and CP ---------------------------------------------------------------------- */

Test(job, sequence_parallelism_sets_pp_volume_and_tp_collectives)
{
	/* 4 x 8 h100, TP 8, PP 2, DP 2; 16 sequences in 8 micro-batches: b = 1. One micro-batch's
	 * activation s b h x 2 = 4096 x 4096 x 2 = 33,554,432 B; 16 layers a stage. */
	struct design d;
	fx_clos(&d, 4, 8, WIRE_RAIL, 8, 0, 0);
	d.job.tp = 8;
	d.job.pp = 2;
	d.job.global_batch = 16;
	d.job.micro_batches = 8;
	d.job.zero = 1;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.work.valid, "%s", m.work.why);
	cr_assert_eq(m.work.dp, 2);
	/* Without sequence parallelism (Megatron's default) every TP rank sends all of it, 2 x 8
	 * times a step, and TP runs 4 AllReduce a layer and micro-batch: 4 x 16 x 8 = 512. */
	cr_assert_float_eq(m.work.dims[DIM_PP].bytes, 33554432.0, 1e-6);
	cr_assert_float_eq(m.work.dims[DIM_PP].ops, 16, 1e-12);
	cr_assert(m.work.dims[DIM_PP].network, "stages 16 ranks apart sit on different nodes");
	cr_assert_eq(m.work.dims[DIM_TP].coll, COLL_ALLREDUCE);
	cr_assert_float_eq(m.work.dims[DIM_TP].ops, 512, 1e-12);
	cr_assert_float_eq(m.work.dims[DIM_TP].bytes, 33554432.0, 1e-6);
	/* With it: 1/8 per TP rank, 4,194,304 B; TP 512 AllGather + 512 ReduceScatter. */
	d.job.sequence_parallel = true;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_float_eq(m.work.dims[DIM_PP].bytes, 4194304.0, 1e-6);
	cr_assert_eq(m.work.dims[DIM_TP].coll, COLL_ALLGATHER);
	cr_assert_float_eq(m.work.dims[DIM_TP].ops, 1024, 1e-12);
	/* The bubble: (2 - 1) / 8 of the compute. */
	cr_assert(close_rel(m.work.bubble_ms, m.work.compute_ms / 8, 1e-12));
	design_free(&d);
}

Test(job, context_parallelism_in_megatron_rank_order)
{
	/* Reference case, TP 2, CP 2: DP 32 / 4 = 8, and the gradients reduce over dp x cp =
	 * 16 ranks, 2 apart (8 / 2 = 4 on each node). CP pairs sit tp = 2 ranks apart inside a
	 * node. K and V of b = 48 / 8 = 6 sequences: 2 x 6 x 1024 x 1600 x 2 B / TP 2 =
	 * 19,660,800 B per AllGather, 48 a micro-batch (one per layer), and as many
	 * ReduceScatters. */
	struct design d;
	reference_job(&d);
	d.job.tp = 2;
	d.job.cp = 2;
	d.job.dp = 0;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.work.valid, "%s", m.work.why);
	cr_assert_eq(m.work.dp, 8);
	cr_assert_eq(m.work.cp, 2);
	cr_assert_eq(m.work.dims[DIM_DP].ranks, 16);
	cr_assert_eq(m.work.dims[DIM_DP].per_node, 4);
	cr_assert(m.work.dims[DIM_CP].active);
	cr_assert_not(m.work.dims[DIM_CP].network);
	cr_assert_eq(m.work.dims[DIM_CP].ranks, 2);
	cr_assert_float_eq(m.work.dims[DIM_CP].bytes, 19660800.0, 1e-6);
	cr_assert_float_eq(m.work.dims[DIM_CP].ops, 96, 1e-12);
	/* TP's activation is the micro-batch's half sequence: 6 x 512 x 1600 x 2 = 9,830,400 B. */
	cr_assert_float_eq(m.work.dims[DIM_TP].bytes, 9830400.0, 1e-6);
	design_free(&d);
}

/* ---- bottleneck and advice -------------------------------------------------------------- */

Test(job, the_bottleneck_is_the_jobs_largest_exposed_time)
{
	struct design d;
	char want[200];
	const struct dim_traffic *dp = &m.work.dims[DIM_DP];
	reference_job(&d);
	metrics_compute(&d, &cat, GiB, 0, &m);
	snprintf(want, sizeof want, "DP exposes %.1f of %.1f ms: 38 x up to 80 MB allreduce, Ring %.1f GB/s busbw",
		 dp->exposed_ms, m.work.step_ms, dp->busbw_GBps);
	cr_assert(strstr(m.bottleneck, want), "%s", m.bottleneck);
	/* Twice the NIC bandwidth would shorten it most: the NICs bind, named with their
	 * ceiling, which the busbw beside it does not exceed. */
	cr_assert_eq(dp->bound.kind, BOUND_NIC);
	cr_assert(strstr(m.bottleneck, "bound by the NICs (4 x 100 Gb/s = 50.0 GB/s a node)"), "%s", m.bottleneck);
	cr_assert_leq(dp->busbw_GBps, 50.0);
	/* One server, TP 8: NVLink (or the NVSwitch) binds, never the NICs. */
	design_free(&d);
	fx_clos(&d, 1, 8, WIRE_RAIL, 8, 0, 0);
	d.job.tp = 8;
	d.job.compute_ms = 100;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.work.valid, "%s", m.work.why);
	cr_assert(strstr(m.bottleneck, "TP exposes"), "%s", m.bottleneck);
	cr_assert_null(strstr(m.bottleneck, "NICs"), "%s", m.bottleneck);
	cr_assert(strstr(m.bottleneck, "NVLink") || strstr(m.bottleneck, "in the switches"), "%s", m.bottleneck);
	design_free(&d);
}

Test(job, latency_bound_buckets_are_named)
{
	/* A 10M-parameter model: one 20 MB bucket on 32 ranks, where twice the bytes cost under
	 * 25% more time... or not; whichever the model says, the words follow its answer. */
	struct design d;
	const struct dim_traffic *dp = &m.work.dims[DIM_DP];
	reference_job(&d);
	d.job.params_b = 0.0001; /* 100k parameters: 200 kB of gradients */
	d.job.compute_ms = 0.01;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.work.valid, "%s", m.work.why);
	cr_assert_eq(dp->bound.kind, BOUND_LATENCY, "%d", dp->bound.kind);
	cr_assert(strstr(m.bottleneck, "latency-bound"), "%s", m.bottleneck);
	design_free(&d);
}

/* Every advice that names an algorithm or a change is one the model rates faster. */
Test(job, advice_recommends_only_what_the_model_rates_better)
{
	struct design d;
	static struct metrics alt;
	int i, algo, weighed = 0;
	/* The textbook's four servers pairwise linked with 2 x 100G, no switch: a ring hop has
	 * 2 links, a tree uses more pairs. */
	fx_reference(&d);
	DESIGN_SERVER(&d, 0)->cpu = CPU_AMD;
	VEC_AT(DESIGN_SERVER(&d, 0)->nics, struct nic_spec, 0).count = 6;
	SETS(DESIGN_BUNDLE(&d, 0)->to, "a100");
	DESIGN_BUNDLE(&d, 0)->links_each = 2;
	DESIGN_BUNDLE(&d, 0)->wiring = WIRE_MESH;
	vec_release(&d.switches);
	d.job.dp = 0;
	d.job.params_b = 1.5;
	d.job.layers = 48;
	d.job.hidden = 1600;
	d.job.seq_len = 1024;
	d.job.global_batch = 48;
	d.job.mfu = 0.4;
	d.job.overlap = 0.8;
	VEC_AT(cat.gpus, struct cat_gpu, 0).bf16_tflops = 312;
	for (algo = ALGO_AUTO; algo <= ALGO_COLLNET; algo++) {
		d.job.algo = algo;
		metrics_compute(&d, &cat, GiB, 0, &m);
		for (i = 0; i < m.nadvice; i++) {
			const char *s = strstr(m.advice[i], "(job.algo: ");
			int a;
			if (!s)
				continue;
			for (a = ALGO_AUTO; a <= ALGO_COLLNET; a++)
				if (!strncmp(s + 11, algo_names[a], strlen(algo_names[a])) && s[11 + strlen(algo_names[a])] == ')')
					break;
			cr_assert_leq(a, ALGO_COLLNET, "%s", m.advice[i]);
			d.job.algo = a;
			metrics_compute(&d, &cat, GiB, 0, &alt);
			d.job.algo = algo;
			cr_assert_lt(alt.work.step_ms, m.work.step_ms, "advice '%s' is not faster: %f vs %f", m.advice[i],
				     alt.work.step_ms, m.work.step_ms);
			weighed++;
		}
		/* "use Tree" is never said on its own any more. */
		for (i = 0; i < m.nadvice; i++)
			cr_assert_null(strstr(m.advice[i], "or use Tree"), "%s", m.advice[i]);
	}
	cr_assert_gt(weighed, 0, "two racks: some forced algorithm beats another");
	design_free(&d);
}

Test(job, moe_compute_uses_the_active_parameters)
{
	/* 6 x 0.75e9 active x 49,152 tokens / (32 x 312e12 x 0.4) instead of the 1.5e9 total. */
	struct design d;
	reference_job(&d);
	d.job.active_params_b = 0.75;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(close_rel(m.work.compute_ms, 6 * 0.75e9 * 48 * 1024 / (32 * 312e12 * 0.4) * 1000, 1e-12));
	d.job.active_params_b = 2;
	cr_assert_gt(design_check(&d, &cat, &diag), 0, "more active than all parameters");
	design_free(&d);
}

Test(job, micro_batch_size_and_the_interleaved_bubble)
{
	/* 70B on 4 x 8 h100 with PP 4: TP 8 x PP 4 = 32 GPUs, DP 1; 64 sequences at micro-batch
	 * size 2: 64 / (1 x 2) = 32 micro-batches. Given 1000 ms of compute, the 1F1B bubble is
	 * 1000 x 3 / 32 = 93.75 ms; interleaved over 2 virtual stages, 1000 x 3 / 64 = 46.875 ms,
	 * and the stage boundaries carry 2 x 32 x 2 = 128 sends a step instead of 64. */
	struct design d;
	struct job_shape s;
	char why[200];
	double pp_ops;
	llama70b(&d);
	d.job.pp = 4;
	d.job.global_batch = 64;
	d.job.micro_batch_size = 2;
	d.job.compute_ms = 1000;
	d.job.zero = 1;
	cr_assert(job_shape(&d.job, 32, 0, &s, why, sizeof why, NULL), "%s", why);
	cr_assert_eq(s.dp, 1);
	cr_assert_eq(s.micro_batches, 32);
	cr_assert_float_eq(s.micro_seqs, 2, 1e-12);
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.work.valid, "%s", m.work.why);
	cr_assert_float_eq(m.work.bubble_ms, 93.75, 1e-9);
	pp_ops = m.work.dims[DIM_PP].ops;
	cr_assert_float_eq(pp_ops, 64, 1e-9);
	d.job.vp = 2;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_float_eq(m.work.bubble_ms, 46.875, 1e-9);
	cr_assert_float_eq(m.work.dims[DIM_PP].ops, 128, 1e-9);
	/* On 16 GPUs the same job cannot fit PP 4 x TP 8: an error; with fewer sequences than
	 * DP x micro-batch size, another. */
	cr_assert(!job_shape(&d.job, 16, 0, &s, why, sizeof why, NULL));
	d.job.global_batch = 1;
	cr_assert(!job_shape(&d.job, 32, 0, &s, why, sizeof why, NULL));
	cr_assert(strstr(why, "micro_batch_size") != NULL, "%s", why);
	design_free(&d);
}

/* The floor the advice rules variants out by (workload_floor): T_calc + bubble, never above
 * the step the same job gets. 70B on 4 x 8 h100, TP 8, PP 4, 32 micro-batches, given 1000
 * ms of compute: 1000 + 1000 x 3 / 32 = 1093.75 ms; full recomputation takes the given
 * compute as it is (only a computed T_calc grows by 8/6), so the floor stays. Computed from
 * the GPUs instead (the fixture's h100 at 989.5 TFLOPS, MFU 0.4; 64 x 4096 tokens on 32 GPUs):
 * 6 x 70e9 x 262,144 / (32 x 989.5e12 x 0.4) = 8,692.9 ms, + 3/32 of it; full recomputation
 * 8/6 of both.
 * A job whose degrees do not fit (TP 64 on 32 GPUs) has no step: floor 0. */
Test(job, the_step_floor_is_compute_and_bubble_never_above_the_step)
{
	struct design d;
	struct topo t;
	static struct workload v;
	struct job j;
	int zero, sp, rc, algo;
	llama70b(&d);
	d.job.pp = 4;
	d.job.global_batch = 64;
	d.job.micro_batch_size = 2;
	d.job.compute_ms = 1000;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.work.valid, "%s", m.work.why);
	topo_build(&d, &cat, 0, &t);
	cr_assert_float_eq(workload_floor(&d, &cat, &t, &m.fabric, &d.job), 1093.75, 1e-9);
	j = d.job;
	j.recompute = RECOMPUTE_FULL;
	cr_assert_float_eq(workload_floor(&d, &cat, &t, &m.fabric, &j), 1093.75, 1e-9);
	topo_free(&t);
	d.job.compute_ms = 0;
	d.job.mfu = 0.4;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(m.work.valid, "%s", m.work.why);
	topo_build(&d, &cat, 0, &t);
	{
		double c = 6 * 70e9 * 64 * 4096 / (32 * 989.5e12 * 0.4) * 1000;
		cr_assert(close_rel(c, 8692.875, 1e-6), "%f", c);
		cr_assert(close_rel(workload_floor(&d, &cat, &t, &m.fabric, &d.job), c * (1 + 3.0 / 32), 1e-12));
		j = d.job;
		j.recompute = RECOMPUTE_FULL;
		cr_assert(close_rel(workload_floor(&d, &cat, &t, &m.fabric, &j), c * 8 / 6 * (1 + 3.0 / 32), 1e-12));
	}
	/* Never above the step, for every variant the advice weighs (to the bit: the step adds
	 * its exposed communication to this very sum). */
	for (zero = 0; zero <= 3; zero++)
		for (sp = 0; sp <= 1; sp++)
			for (rc = 0; rc < 3; rc++) /* selective, none, full */
				for (algo = ALGO_AUTO; algo <= ALGO_COLLNET; algo++) {
					double fl;
					j = d.job;
					j.zero = zero;
					j.sequence_parallel = sp;
					j.recompute = rc;
					j.algo = algo;
					fl = workload_floor(&d, &cat, &t, &m.fabric, &j);
					workload_step(&d, &cat, &t, &m.fabric, &j, &v);
					cr_assert(v.valid, "%s", v.why);
					cr_assert_gt(fl, 0);
					cr_assert_leq(fl, v.step_ms, "zero %d sp %d recompute %d algo %d", zero, sp, rc, algo);
					cr_assert_eq(fl, v.compute_ms + v.bubble_ms);
				}
	j = d.job;
	j.tp = 64;
	cr_assert_eq(workload_floor(&d, &cat, &t, &m.fabric, &j), 0);
	topo_free(&t);
	design_free(&d);
}
