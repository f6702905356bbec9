/* job.h: a training job's shape on N GPUs (its parallel degrees and micro-batch) and the
 * memory it needs per GPU.
 *
 * Ranks follow Megatron-core's default order "tp-cp-ep-dp-pp" (initialize_model_parallel in
 * megatron/core/parallel_state.py): TP fastest, then CP, then DP, with each expert-parallel
 * group carved out of the DP x CP ranks, then PP. A data-parallel replica is tp x pp x cp
 * GPUs; the job's GPUs hold N / (tp x pp x cp) of them. `--gpus N`, a job's `gpus` and every
 * point of the scaling curve keep tp, pp, cp and ep and give DP what is left. Degrees that
 * do not fit (a replica larger than N, or not dividing it; EP not dividing DP x CP) leave no
 * whole DP: job_shape says why, and the design check makes it an error.
 *
 * Memory per GPU (fabric-physics.md 8.6, bytes):
 *   parameters held    Psi_gpu = (Psi - Psi_e) / (tp x pp) + Psi_e / (ep x pp), Psi_e the
 *                      experts' share (expert tensor parallelism aside)
 *   weights, gradients 2 bytes each per parameter (4 in fp32), optimizer 12 (fp32 master
 *                      copy, momentum and variance; 8 in fp32): 16 in all, sharded over the
 *                      d = dp x cp ranks holding the same weights by ZeRO stage (ZeRO paper):
 *                      1 the optimizer (4 + 12/d), 2 also the gradients (2 + 14/d), 3 also
 *                      the weights (16/d)
 *   activations        per layer and micro-batch of b sequences, s' = seq_len / cp
 *                      (Korthikanti et al. 2022, arXiv:2205.05198, with their 2-byte
 *                      activations and 1-byte dropout masks):
 *                        selective (attention core recomputed, or a fused attention kernel
 *                                  that keeps no s x s scores): s'bh x 34/t with sequence
 *                                  parallelism, s'bh x (10 + 24/t) without
 *                        none      adds the attention scores, 5 a s' s b / t (a = heads;
 *                                  s x s/cp of them on each CP rank)
 *                        full      keeps each layer's input only, 2 s'bh (/ t with sequence
 *                                  parallelism), plus one layer at the selective size while
 *                                  it is recomputed
 *                      held for (layers / pp) x min(pp, micro_batches) layer-micro-batches:
 *                      under 1F1B the first stage keeps pp micro-batches in flight.
 * Not counted: logits, NCCL and NVLS buffers, the CUDA context; the sum is a lower bound.
 * GB here are 10^9 bytes, as everywhere in ncfabric; the GPU's is the catalog's memory_GB. */
#ifndef NCF_JOB_H
#define NCF_JOB_H
#include <stdbool.h>
#include <stddef.h>
#include "model/design.h"

struct job_shape {
	long gpus;
	int tp, pp, cp, ep, dp;
	int replica;            /* tp x pp x cp: GPUs of one data-parallel replica */
	int shard;              /* dp x cp: ranks holding the same weights (ZeRO shards over them) */
	double seqs;            /* sequences per step */
	double micro_seqs;      /* b: sequences per micro-batch and replica (at least 1) */
	int micro_batches;
	int vp;                 /* virtual pipeline stages per GPU (1: plain 1F1B) */
	int heads, kv_heads;
	double params_gpu;      /* parameters one GPU holds (before ZeRO) */
	double expert_params_gpu; /* of them, the experts' */
	bool sp;                /* sequence parallelism (and tp > 1) */
};

/* The shape of job j on `gpus` GPUs running `seqs` sequences a step (0: the job's
 * global_batch). Returns false when the degrees do not fit, with why (a sentence naming
 * the numbers) and the field to blame ("job.tp", ...). */
bool job_shape(const struct job *j, long gpus, double seqs, struct job_shape *s, char *why, size_t size,
	       const char **field);

struct job_memory {
	double weights, grads, optimizer, activations, total; /* bytes per GPU */
	double act_layer;       /* one layer's activations for one micro-batch */
	double layers_held;     /* layer x micro-batch activations held at the peak */
	double capacity;        /* the GPU's memory, bytes (0: unknown) */
	bool fits;              /* total <= capacity (true when unknown) */
};

/* Bytes of one element of weights or gradients, and of optimizer state per parameter. */
int job_param_bytes(const struct job *j);
int job_optimizer_bytes(const struct job *j);
/* The memory per GPU of job j in shape s on GPUs of memory_GB each (0: unknown). */
void job_memory(const struct job *j, const struct job_shape *s, double memory_GB, struct job_memory *m);

#endif
