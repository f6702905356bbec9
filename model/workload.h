/* workload.h: a training step on the design: traffic per parallel dimension, step time,
 * tokens/s, and speedup in two forms.
 *
 * Ranks are ordered TP fastest, then DP, then PP (Megatron's order), so TP stays inside a
 * node while it fits, DP groups take one rank per TP group on each node, and PP stages
 * sit on different nodes. Each dimension's collective runs on its own communicator (the
 * node's NICs shared by the communicators running at once) through collective.h:
 *   DP   AllReduce of the gradients (ZeRO 1-2: ReduceScatter + AllGather; ZeRO 3: one
 *        more AllGather of the parameters), once per step;
 *   TP   AllGather + ReduceScatter of the activations, 4 of each per layer and micro-batch
 *        (sequence-parallel Megatron: 2 forward, 2 backward);
 *   PP   send/recv of the activations, 2 per micro-batch and stage boundary, plus the
 *        pipeline bubble, (pp-1)/micro_batches of the compute time;
 *   EP   4 AllToAll per MoE layer and micro-batch (dispatch and combine, both passes).
 * Compute per step: 6 x parameters x tokens FLOPs over the GPUs' dense TFLOPS x MFU,
 * unless the job gives compute_ms. DP traffic proceeds in the background during `overlap`
 * of the compute time (DDP overlaps the gradient AllReduce with the backward pass, about
 * 2/3 of the compute); what does not fit in that window is exposed, and TP, PP and EP
 * traffic, on the critical path of every layer, is exposed whole.
 *
 * Speedup, step-time form (the headline): N x T_calc / T_step, efficiency = speedup / N.
 * Amdahl form (a teaching aid): N / (1 + (N-1) r) with r = T_comm / T_calc, the exposed
 * communication per unit of compute. The two differ: at N = 64 with T_comm = T_calc the
 * first is 32 and the second 1. */
#ifndef NCF_WORKLOAD_H
#define NCF_WORKLOAD_H
#include "model/collective.h"

enum dim { DIM_DP, DIM_TP, DIM_PP, DIM_EP, DIM_COUNT };
extern const char *const dim_names[];

struct dim_traffic {
	bool active;
	char what[48];          /* "allreduce of the gradients", ... */
	int coll;               /* the main collective */
	int ranks, per_node;    /* communicator: ranks, and how many on one node */
	bool network;           /* crosses nodes (else NVLink or PCIe inside the node) */
	double bytes;           /* message size of one operation */
	double ops;             /* operations per step */
	double time_ms;         /* all operations of a step */
	double busbw_GBps;      /* of one operation */
	int algo;               /* enum ualgo used */
	bool unavailable;       /* its collective cannot run on this fabric */
};

#define CURVE_MAX 24
#define CURVE_POINTS 12

struct workload {
	bool valid;
	char why[320];          /* why not valid */
	int gpus, dp, tp, pp, ep;
	double tokens_per_step;
	double compute_ms;      /* T_calc */
	bool compute_given;
	double bubble_ms;
	struct dim_traffic dims[DIM_COUNT];
	double comm_ms;         /* all communication of a step */
	double comm_exposed_ms; /* what compute does not hide */
	double step_ms, tokens_per_s;
	double speedup, efficiency, amdahl_r, amdahl_speedup;
	int ncurve;             /* scaling curve: GPUs, speedup, efficiency, Amdahl */
	struct { int gpus; double speedup, efficiency, amdahl; } curve[CURVE_MAX];
};

/* The design's job on `gpus` GPUs (0: the job's own) over fabric f. */
/* The design's job over graph t (placed for the job; re-placed for the curve and back)
 * summarized in f. */
void workload_compute(const struct design *d, const struct catalog *cat, struct topo *t, const struct fabric *f,
		      struct workload *w);
/* The two speedup forms, for N GPUs, compute and exposed communication times. */
double speedup_step(int n, double t_calc, double t_comm);
double speedup_amdahl(int n, double r);

#endif
