/* job.c: a job's parallel degrees on N GPUs and its memory per GPU (job.h). */
#include "model/job.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static int deg(int v)
{
	return v > 0 ? v : 1;
}

bool job_shape(const struct job *j, long gpus, double seqs, struct job_shape *s, char *why, size_t size,
	       const char **field)
{
	const char *unused;
	double P = j->params_b * 1e9, Pe = j->expert_params_b * 1e9;
	long replica;
	if (!field)
		field = &unused;
	memset(s, 0, sizeof *s);
	if (why && size)
		why[0] = '\0';
	s->gpus = gpus;
	s->tp = deg(j->tp);
	s->pp = deg(j->pp);
	s->cp = deg(j->cp);
	s->ep = deg(j->ep);
	s->micro_batches = deg(j->micro_batches);
	s->sp = j->sequence_parallel && s->tp > 1;
	s->heads = j->heads > 0 ? j->heads : (j->hidden / 128 > 0 ? j->hidden / 128 : 1);
	s->kv_heads = j->kv_heads > 0 && j->kv_heads <= s->heads ? j->kv_heads : s->heads;
	replica = (long)s->tp * s->pp * s->cp;
	s->replica = (int)(replica < 1000000000 ? replica : 1000000000);
	if (gpus < 1) {
		snprintf(why, size, "no GPUs take part");
		*field = "job.gpus";
		return false;
	}
	if (replica > gpus || gpus % replica) {
		*field = gpus % s->tp ? "job.tp" : gpus / s->tp % s->pp ? "job.pp" : "job.cp";
		snprintf(why, size,
			 "TP %d x PP %d x CP %d = %ld GPUs per data-parallel replica %s the %ld GPUs taking part: "
			 "DP would not be a whole number",
			 s->tp, s->pp, s->cp, replica, replica > gpus ? "is more than" : "does not divide", gpus);
		return false;
	}
	s->dp = (int)(gpus / replica);
	s->shard = s->dp * s->cp;
	if (s->shard % s->ep) {
		*field = "job.ep";
		snprintf(why, size,
			 "EP %d does not divide DP %d x CP %d = %d: expert-parallel groups are carved out of the ranks "
			 "that hold the same weights",
			 s->ep, s->dp, s->cp, s->shard);
		return false;
	}
	if (Pe > P)
		Pe = P;
	s->seqs = seqs > 0 ? seqs : j->global_batch;
	s->vp = deg(j->vp);
	if (j->micro_batch_size > 0) {
		/* Megatron: micro-batches = global batch / (DP x micro-batch size). */
		double m = floor(s->seqs / ((double)s->dp * j->micro_batch_size));
		if (m < 1) {
			*field = "job.micro_batch_size";
			snprintf(why, size, "global_batch %.0f is less than DP %d x micro_batch_size %d: no whole micro-batch",
				 s->seqs, s->dp, j->micro_batch_size);
			return false;
		}
		s->micro_batches = m > 100000 ? 100000 : (int)m;
		s->micro_seqs = j->micro_batch_size;
	} else {
		s->micro_seqs = s->seqs / ((double)s->dp * s->micro_batches);
		if (s->micro_seqs < 1)
			s->micro_seqs = 1;
	}
	if (s->vp > 1 && s->pp < 2)
		s->vp = 1; /* interleaving needs a pipeline */
	s->expert_params_gpu = Pe / ((double)s->ep * s->pp);
	s->params_gpu = (P - Pe) / ((double)s->tp * s->pp) + s->expert_params_gpu;
	return true;
}

int job_param_bytes(const struct job *j)
{
	return j->dtype == DT_FP32 ? 4 : 2; /* fp8 training keeps bf16 weights and gradients */
}

int job_optimizer_bytes(const struct job *j)
{
	return j->dtype == DT_FP32 ? 8 : 12;
}

void job_memory(const struct job *j, const struct job_shape *s, double memory_GB, struct job_memory *m)
{
	double P = s->params_gpu, d = s->shard > 0 ? s->shard : 1, pb = job_param_bytes(j);
	double sl = (double)j->seq_len / s->cp, b = s->micro_seqs, h = j->hidden, t = s->tp;
	double base = sl * b * h, selective = s->sp ? 34.0 * base / t : base * (10.0 + 24.0 / t);
	int layers = j->layers > 0 ? j->layers : 0;
	memset(m, 0, sizeof *m);
	m->weights = P * pb / (j->zero >= 3 ? d : 1);
	m->grads = P * pb / (j->zero >= 2 ? d : 1);
	m->optimizer = P * job_optimizer_bytes(j) / (j->zero >= 1 ? d : 1);
	m->layers_held = (double)layers / s->pp * (s->micro_batches < s->pp ? s->micro_batches : s->pp);
	switch (j->recompute) {
	case RECOMPUTE_NONE:
		m->act_layer = selective + 5.0 * s->heads * sl * j->seq_len * b / t;
		m->activations = m->act_layer * m->layers_held;
		break;
	case RECOMPUTE_FULL:
		m->act_layer = 2.0 * base / (s->sp ? t : 1);
		m->activations = m->act_layer * m->layers_held + (layers > 0 ? selective : 0);
		break;
	default:
		m->act_layer = selective;
		m->activations = m->act_layer * m->layers_held;
	}
	m->total = m->weights + m->grads + m->optimizer + m->activations;
	m->capacity = memory_GB > 0 ? memory_GB * 1e9 : 0;
	m->fits = m->capacity <= 0 || m->total <= m->capacity;
}
