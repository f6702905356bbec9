/* workload.h: a training step on the design: traffic per parallel dimension, what of it
 * compute hides, step time, tokens/s, memory per GPU, and speedup in two forms.
 *
 * Ranks follow Megatron-core's order tp-cp-ep-dp-pp (job.h): TP stays inside a node while it
 * fits, CP groups are tp ranks apart, DP groups (the dp x cp ranks holding the same weights)
 * take one rank per TP group, EP groups are ep of those, PP stages are tp x cp x dp ranks
 * apart. Each dimension's collectives run on their own communicators (the node's NICs shared
 * by the communicators running at once), every operation evaluated through collective.h at
 * its own size, so each pays its own latency (fabric-physics.md section 8; b = sequences per
 * micro-batch, s' = seq_len / cp, h = hidden, t = tp, m = micro-batches, L = layers / pp):
 *   DP  ZeRO 0: AllReduce of the gradients, ZeRO 1-2: ReduceScatter of them and AllGather of
 *       the parameters, in buckets (8.2): Megatron's max(40M, 1M x dp x cp) parameters when
 *       overlap is on (one bucket when it is off), or PyTorch DDP's 1 MiB first and 25 MiB
 *       after (job.bucket_mb sets the size); the last bucket is the remainder. Once per step,
 *       in the last micro-batch (the others run under no_sync). ZeRO 3 (FSDP): per layer and
 *       micro-batch an AllGather of its parameters in forward and in backward and a
 *       ReduceScatter of its gradients (8.3);
 *   TP  per layer and micro-batch 4 AllReduce of s'bh (2 forward, 2 backward), or with
 *       sequence parallelism 4 AllGather and 4 ReduceScatter of s'bh; full recomputation
 *       runs the forward's 2 again;
 *   PP  send/recv per micro-batch, forward and backward, 2 s'bh / (t if sequence-parallel)
 *       per TP rank (8.1: every TP rank sends the whole activation without it), plus the
 *       bubble, (pp - 1) / m of the compute;
 *   EP  4 AllToAll per MoE layer and micro-batch of s'bh / (t if sequence-parallel) (+2 with
 *       full recomputation);
 *   CP  per layer and micro-batch an AllGather of K and V, 2 s b h_kv / t with
 *       h_kv = h x kv_heads / heads, in forward (again in a full recompute) and a
 *       ReduceScatter of their gradients in backward (8.5).
 * Compute per step: 6 x parameters x tokens FLOPs (the active parameters of a MoE model; 8
 * with full recomputation, which runs the forward again) over the GPUs' dense TFLOPS x MFU,
 * unless the job gives compute_ms.
 *
 * What hides (8.2): DP buckets are reduced while the last micro-batch's backward runs, a
 * window of (2/3) T_calc / m ((3/4) with full recomputation), and never more than
 * overlap x T_calc; the last bucket is produced at the end of the backward and is always
 * exposed: exposed = t_last + max(0, sum of the others - window). (8.2 writes
 * max(0, sum - window) + t_last, which counts the last bucket twice when the buckets do not
 * fit and can exceed the communication itself.) ZeRO 1-2's parameter AllGathers hide in the
 * first micro-batch's forward, (1/3) T_calc / m, within what overlap leaves, except the first
 * bucket. ZeRO 3's per-layer traffic prefetches behind all the compute, up to overlap x
 * T_calc, except each micro-batch's first AllGather. TP, PP, EP and CP traffic is on the
 * critical path of every layer and micro-batch and is exposed whole (Transformer Engine's
 * overlap of CP's ring with attention is not credited). Step = T_calc + bubble + exposed.
 *
 * Speedup, step-time form (the headline): N x T_calc / T_step, efficiency = speedup / N.
 * Amdahl form (a teaching aid): N / (1 + (N-1) r) with r = T_comm / T_calc, the exposed
 * communication per unit of compute. The two differ: at N = 64 with T_comm = T_calc the
 * first is 32 and the second 1. */
#ifndef NCF_WORKLOAD_H
#define NCF_WORKLOAD_H
#include "model/collective.h"
#include "model/job.h"

enum dim { DIM_DP, DIM_TP, DIM_PP, DIM_EP, DIM_CP, DIM_COUNT };
extern const char *const dim_names[];

/* What bounds an operation (metrics.c puts it in words). Found by asking the model: a
 * switch group the fabric loss names; reduction in the switches; latency (twice the bytes
 * cost under 25% more time); or the resource that, twice as fast, shortens it most (at
 * least 15%); else the path as a whole. */
enum bound { BOUND_NONE, BOUND_SWITCH, BOUND_DIRECT, BOUND_INNET, BOUND_LATENCY, BOUND_NVLINK, BOUND_PCIE, BOUND_NIC,
	     BOUND_NIC_PCIE, BOUND_PATH };
extern const char *const bound_names[]; /* "none", "switch", "direct-links", ... (report --json) */

struct op_bound {
	int kind;               /* enum bound */
	double gain;            /* time / time with that resource twice as fast (or with half the bytes' cost) */
	struct fabric_loss loss; /* of the algorithm that ran */
};

struct dim_traffic {
	bool active;
	char what[64];          /* "allreduce of the gradients", ... */
	int coll;               /* the main collective */
	int ranks, per_node;    /* communicator: ranks, and how many on one node */
	int nodes;              /* nodes one communicator spans */
	int concurrent;         /* communicators of this shape sharing a node (and its NICs) */
	bool network;           /* crosses nodes (else NVLink or PCIe inside the node) */
	double bytes;           /* message size of the main operation */
	double ops;             /* operations per step */
	double op_us;           /* one main operation */
	double time_ms;         /* all operations of a step */
	double exposed_ms;      /* of it, what compute does not hide */
	double window_ms;       /* the compute it may hide behind (DP) */
	double busbw_GBps;      /* of the main operation */
	int algo;               /* enum ualgo used */
	bool unavailable;       /* its collective cannot run on this fabric */
	/* DP's buckets: first (DDP's small one; 0 when none), buckets - 1 - (first > 0) of
	 * bucket_bytes, and the last (the remainder), times of one each. */
	int buckets;
	double first_bytes, bucket_bytes, last_bytes;
	double first_us, bucket_us, last_us;
	struct op_bound bound;  /* of the main operation (the report's point only) */
};

#define CURVE_MAX 24
#define CURVE_POINTS 12

struct workload {
	bool valid;
	bool job_error;         /* the job's degrees do not fit its GPUs: an error (why, why_field) */
	char why[320];          /* why not valid */
	char why_field[32];
	int gpus, dp, tp, pp, ep, cp;
	bool sp;                /* sequence parallelism in effect */
	double micro_seqs;      /* sequences per micro-batch */
	int micro_batches;
	double tokens_per_step;
	double compute_ms;      /* T_calc */
	bool compute_given;
	double forward_ms, backward_ms; /* one micro-batch's */
	double bubble_ms;
	struct dim_traffic dims[DIM_COUNT];
	double comm_ms;         /* all communication of a step */
	double comm_exposed_ms; /* what compute does not hide */
	double step_ms, tokens_per_s;
	double speedup, efficiency, amdahl_r, amdahl_speedup;
	struct job_memory mem;
	char mem_gpu[NCF_NAME_MAX]; /* the job's GPU with the least memory */
	bool has_curve;         /* the curve was made (workload_curve; metrics_curve) */
	int ncurve;             /* scaling curve: GPUs, speedup, efficiency, Amdahl */
	struct { int gpus; double speedup, efficiency, amdahl; } curve[CURVE_MAX];
};

/* The design's job over graph t (placed for the job) summarized in f, with what bounds
 * each dimension; no scaling curve (ncurve 0, has_curve false). */
void workload_compute(const struct design *d, const struct catalog *cat, const struct topo *t, const struct fabric *f,
		      struct workload *w);
/* Its scaling curve (w from workload_compute on the same t and f): t re-placed at each
 * point and back. It re-places the graph and routes every point's communicators, a dozen
 * of them, so it is made only where it is shown (the report, the designer's speedup
 * plot); sets has_curve. */
void workload_curve(const struct design *d, const struct catalog *cat, struct topo *t, const struct fabric *f,
		    struct workload *w);
/* Job j (the design's, or a variant of it the advice weighs) on the same GPUs, graph and
 * fabric: the step only, no curve, no bounds. */
void workload_step(const struct design *d, const struct catalog *cat, const struct topo *t, const struct fabric *f,
		   const struct job *j, struct workload *w);
/* What job j's step takes at least, without routing anything: its T_calc + bubble, the
 * sum the step adds its exposed communication to (each dimension's at least 0), so the
 * step, computed the same way, is never below it; 0 when j has no step on these GPUs (its
 * degrees do not fit, or no compute time). The advice skips the variants this rules out. */
double workload_floor(const struct design *d, const struct catalog *cat, const struct topo *t, const struct fabric *f,
		      const struct job *j);
/* The job's problems: the degrees that do not fit (an error, when the workload had them:
 * another --gpus), and memory beyond the GPU's (a warning with the numbers). */
void workload_problems(const struct workload *w, struct ncf_diag *diag);
/* What bounds collective c at `bytes` run with algorithm u, on the communicator of model m
 * (built by fabric_nccl_span(f, nodes, ranks, per_node, span)) with losses loss (NULL: none). */
void workload_bound(const struct fabric *f, const struct nccl_model *m, int nodes, int ranks, int per_node, int span,
		    enum coll c, double bytes, const struct coll_losses *loss, int u, struct op_bound *out);
/* The two speedup forms, for N GPUs, compute and exposed communication times. */
double speedup_step(int n, double t_calc, double t_comm);
double speedup_amdahl(int n, double r);

#endif
