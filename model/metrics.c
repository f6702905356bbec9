/* metrics.c: the model's results for a design, and the bottleneck and advice in words. */
#include "model/metrics.h"
#include "model/congest.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void advise(struct metrics *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void advise(struct metrics *m, const char *fmt, ...)
{
	va_list ap;
	if (m->nadvice >= ADVICE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(m->advice[m->nadvice++], sizeof m->advice[0], fmt, ap);
	va_end(ap);
}

/* Advice that names a change one edit can make: cmd is that edit as ':' commands. */
static void advise_do(struct metrics *m, const char *cmd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void advise_do(struct metrics *m, const char *cmd, const char *fmt, ...)
{
	va_list ap;
	if (m->nadvice >= ADVICE_MAX)
		return;
	snprintf(m->advice_do[m->nadvice], sizeof m->advice_do[0], "%s", cmd);
	va_start(ap, fmt);
	vsnprintf(m->advice[m->nadvice++], sizeof m->advice[0], fmt, ap);
	va_end(ap);
}

/* "select FROM->TO; set lag VALUE" for every bundle from a server group whose lag is not
 * VALUE yet: the servers' own links. What does not fit in out is left out whole. */
static void lag_commands(const struct design *d, bool value, char *out, size_t size)
{
	size_t i, used = 0, k;
	out[0] = '\0';
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		int n;
		if (design_find(d, b->from, &k) != GK_SERVER || b->lag == value)
			continue;
		n = snprintf(out + used, size - used, "%sselect %s->%s; set lag %s", used ? "; " : "", b->from, b->to,
			     value ? "true" : "false");
		if (n < 0 || (size_t)n >= size - used) {
			out[used] = '\0';
			break;
		}
		used += (size_t)n;
	}
}

/* Write a sentence into buf (truncated to size, as the panel wraps it anyway). */
static void say(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

void metrics_at(const struct metrics *m, enum coll c, double bytes, struct coll_result *out)
{
	collective_eval(&m->fabric, &m->nccl, c, bytes, &m->loss[c], out);
}

int sweep_sizes(double *out, int max)
{
	int n = 0;
	double s;
	for (s = 8; s <= 16.0 * 1024 * 1024 * 1024 && n < max; s *= 2)
		out[n++] = s;
	return n;
}


static const char *hash_words(const struct fabric_loss *l, char *buf, size_t size)
{
	switch (l->hash) {
	case HASH_ECMP:
		snprintf(buf, size, "; ECMP: %ld flows on %ld links", l->flows, l->links);
		break;
	case HASH_IB_STATIC:
		snprintf(buf, size, "; static routing: %ld destinations on %ld links", l->flows, l->links);
		break;
	default:
		buf[0] = 0;
	}
	if (!l->hashed)
		buf[0] = 0;
	return buf;
}

static const char *const dim_labels[] = { "DP", "TP", "PP", "EP", "CP" };

/* Bytes in words: round decimal sizes as such (80 MB), exact binary ones as GiB, MiB, KiB
 * (the message sizes users type: 1 GiB), the rest in decimal units (GB = 10^9 bytes, as
 * everywhere in ncfabric). */
static const char *bytes_words(double b, char *buf, size_t size)
{
	static const char *const bin[] = { "GiB", "MiB", "KiB" };
	int k;
	if (b >= 1e6 && fmod(b, 1e6) == 0) { /* a round decimal size: 80 MB, 3 GB */
		snprintf(buf, size, b >= 1e9 && fmod(b, 1e9) == 0 ? "%.0f GB" : "%.0f MB", b >= 1e9 && fmod(b, 1e9) == 0 ? b / 1e9 : b / 1e6);
		return buf;
	}
	for (k = 0; k < 3; k++) {
		double unit = k == 0 ? 1073741824.0 : k == 1 ? 1048576.0 : 1024.0;
		if (b >= unit && fmod(b, unit) == 0) { /* an exact binary size, as nccl-tests' 1G */
			snprintf(buf, size, "%.0f %s", b / unit, bin[k]);
			return buf;
		}
	}
	if (b >= 1e9)
		snprintf(buf, size, "%.3g GB", b / 1e9);
	else if (b >= 1e6)
		snprintf(buf, size, "%.3g MB", b / 1e6);
	else if (b >= 1e3)
		snprintf(buf, size, "%.3g kB", b / 1e3);
	else
		snprintf(buf, size, "%.0f B", b);
	return buf;
}

/* What bounds an operation, in words, from the model's own answer (workload_bound). busbw
 * and concurrent (communicators sharing a node) say what share of the node is the
 * operation's; a ceiling is named only when the busbw is within it. */
static void bound_words(const struct fabric *f, const struct op_bound *b, int algo, double busbw, int concurrent,
			char *buf, size_t size)
{
	char hw[120];
	double share;
	switch (b->kind) {
	case BOUND_SWITCH: {
		const struct tier *t = &f->tiers[b->loss.binding >= 0 && b->loss.binding < f->ntiers ? b->loss.binding : 0];
		if (t->peer)
			snprintf(buf, size, "limited by the peer links of '%s'%s", t->group, hash_words(&b->loss, hw, sizeof hw));
		else
			snprintf(buf, size, "limited by '%s' uplinks (%.3g:1%s)", t->group, t->ratio,
				 hash_words(&b->loss, hw, sizeof hw));
		break;
	}
	case BOUND_DIRECT:
		snprintf(buf, size, "limited by the direct links between servers (%.0f%% of NCCL's plan)", 100 * b->loss.factor);
		break;
	case BOUND_INNET:
		snprintf(buf, size, "reduced in the switches (%s)", ualgo_labels[algo]);
		break;
	case BOUND_LATENCY:
		snprintf(buf, size, "latency-bound (twice the bytes, %.0f%% more time)", 100 * (b->gain - 1));
		break;
	case BOUND_NVLINK:
		snprintf(buf, size, "bound by NVLink (NCCL: %.0f GB/s a GPU)", f->node.nvl);
		break;
	case BOUND_PCIE:
		snprintf(buf, size, "bound by the host path between the GPUs (%s)", host_path_names[f->node.intra_path]);
		break;
	case BOUND_NIC:
		share = f->node_ceiling_GBps / (concurrent > 1 ? concurrent : 1);
		if (f->lag)
			snprintf(buf, size, "bound by the bonded links (NCCL sees a LAG as one port)");
		else if (f->ports && busbw <= share * 1.001 && concurrent > 1)
			snprintf(buf, size, "bound by the NICs (%d x %d Gb/s = %.1f GB/s a node, %d communicators)", f->ports,
				 f->port_gbps, f->node_ceiling_GBps, concurrent);
		else if (f->ports && busbw <= share * 1.001)
			snprintf(buf, size, "bound by the NICs (%d x %d Gb/s = %.1f GB/s a node)", f->ports, f->port_gbps,
				 f->node_ceiling_GBps);
		else
			snprintf(buf, size, "bound by the NICs");
		break;
	case BOUND_NIC_PCIE:
		if (f->slot_GBps > 0)
			snprintf(buf, size, "bound by the NICs' PCIe slots (%.1f GB/s each)", f->slot_GBps);
		else
			snprintf(buf, size, "bound by the NICs' PCIe path");
		break;
	case BOUND_PATH:
		snprintf(buf, size, "at the rate NCCL plans");
		break;
	default:
		buf[0] = 0;
	}
}

/* The largest exposed item of the step: a dimension (0..DIM_COUNT-1), the bubble
 * (DIM_COUNT), or -1 when nothing is exposed. */
static int largest_exposed(const struct workload *w)
{
	int k, best = -1;
	double most = 0.005 * w->step_ms;
	for (k = 0; k < DIM_COUNT; k++)
		if (w->dims[k].active && w->dims[k].exposed_ms > most) {
			most = w->dims[k].exposed_ms;
			best = k;
		}
	if (w->bubble_ms > most)
		best = DIM_COUNT;
	return best;
}

/* The job's bottleneck: what it spends the most exposed time on, and what bounds that. */
static void job_bottleneck(const struct design *d, struct metrics *m)
{
	const struct fabric *f = &m->fabric;
	const struct workload *w = &m->work;
	int k = largest_exposed(w), i, most = -1;
	char sz[32], bw[240];
	const struct dim_traffic *dt;
	if (k < 0) {
		for (i = 0; i < DIM_COUNT; i++)
			if (w->dims[i].active && (most < 0 || w->dims[i].time_ms > w->dims[most].time_ms))
				most = i;
		if (most >= 0 && w->comm_ms > 0)
			say(m->bottleneck, sizeof m->bottleneck, "compute binds: %.1f ms a step; the %.1f ms of communication (%s %s) hide behind it",
			    w->compute_ms, w->comm_ms, dim_labels[most], w->dims[most].network ? "over the network" : "inside the node");
		else
			say(m->bottleneck, sizeof m->bottleneck, "compute binds: %.1f ms a step, no communication", w->compute_ms);
		return;
	}
	if (k == DIM_COUNT) {
		say(m->bottleneck, sizeof m->bottleneck,
		    "the pipeline bubble costs the most: %.1f of %.1f ms, (PP %d - 1) / %d micro-batches of the compute",
		    w->bubble_ms, w->step_ms, w->pp, w->micro_batches);
		return;
	}
	dt = &w->dims[k];
	bound_words(f, &dt->bound, dt->algo, dt->busbw_GBps, dt->network ? dt->concurrent : 1, bw, sizeof bw);
	if (k == DIM_DP && d->job.zero < 3)
		say(m->bottleneck, sizeof m->bottleneck, "%s exposes %.1f of %.1f ms: %d x %s%s %s, %s %.1f GB/s busbw%s%s",
		    dim_labels[k], dt->exposed_ms, w->step_ms, dt->buckets, dt->buckets > 1 ? "up to " : "",
		    bytes_words(dt->bytes, sz, sizeof sz), d->job.zero ? "reducescatter + allgather" : "allreduce",
		    ualgo_labels[dt->algo], dt->busbw_GBps, bw[0] ? ", " : "", bw);
	else if (k == DIM_DP)
		say(m->bottleneck, sizeof m->bottleneck, "%s exposes %.1f of %.1f ms: %d x %s per-layer allgather x 2 + reducescatter, %s %.1f GB/s busbw%s%s",
		    dim_labels[k], dt->exposed_ms, w->step_ms, dt->buckets, bytes_words(dt->bytes, sz, sizeof sz),
		    ualgo_labels[dt->algo], dt->busbw_GBps, bw[0] ? ", " : "", bw);
	else
		say(m->bottleneck, sizeof m->bottleneck, "%s exposes %.1f of %.1f ms: %.0f x %s %s, %s %.1f GB/s busbw%s%s",
		    dim_labels[k], dt->exposed_ms, w->step_ms, dt->ops, bytes_words(dt->bytes, sz, sizeof sz),
		    coll_names[dt->coll], ualgo_labels[dt->algo], dt->busbw_GBps, bw[0] ? ", " : "", bw);
}

/* Without a job: what binds the collective table's AllReduce on the whole communicator. */
static void table_bottleneck(const struct design *d, struct metrics *m)
{
	const struct fabric *f = &m->fabric;
	const struct coll_result *ar = &m->colls[COLL_ALLREDUCE];
	const struct algo_result *a = coll_pick(ar, d->job.algo);
	int u = (int)(a - ar->algo);
	char sz[32], bw[240];
	struct op_bound b;
	if (!f->connected && f->node.nnodes > 1) {
		say(m->bottleneck, sizeof m->bottleneck, "%s", f->note);
		return;
	}
	if (!f->gpus || !a->available) {
		say(m->bottleneck, sizeof m->bottleneck, "%s",
			 a->reason ? a->reason : f->note[0] ? f->note : "no AllReduce can run");
		return;
	}
	workload_bound(f, &m->nccl, f->node.nnodes, f->gpus > 0 ? f->gpus : 1, 0, 0, COLL_ALLREDUCE, m->bytes,
		       &m->loss[COLL_ALLREDUCE], u, &b);
	bound_words(f, &b, u, a->busbw_GBps, 1, bw, sizeof bw);
	say(m->bottleneck, sizeof m->bottleneck, "AllReduce of %s on %d rank%s: %s %.1f GB/s busbw%s%s",
	    bytes_words(m->bytes, sz, sizeof sz), ar->ranks, ar->ranks == 1 ? "" : "s", ualgo_labels[u], a->busbw_GBps, bw[0] ? ", " : "", bw);
}

/* ---- advice the model has weighed ------------------------------------------------------ */

struct weigh {
	const struct design *d;
	const struct catalog *cat;
	const struct topo *t;
	const struct fabric *f;
};

/* The step of variant j, or 0 when it has none. */
static double step_of_variant(const struct weigh *g, const struct job *j, struct workload *out)
{
	workload_step(g->d, g->cat, g->t, g->f, j, out);
	return out->valid ? out->step_ms : 0;
}

/* Variant j's step cannot come under `beat`: it has none, or what it takes at least (its
 * compute and bubble, workload_floor) is not under it. Then its step, which routes its
 * communicators, is not worth computing: the advice would not take it. */
static bool cannot_beat(const struct weigh *g, const struct job *j, double beat)
{
	double floor_ms = workload_floor(g->d, g->cat, g->t, g->f, j);
	return floor_ms <= 0 || floor_ms >= beat;
}

/* Which dimension a variant changed most, in words ("DP's allreduce at 60.1 instead of
 * 42.4 GB/s busbw"). */
static void change_words(const struct workload *a, const struct workload *b, char *buf, size_t size)
{
	int k, best = -1;
	double most = 0;
	buf[0] = 0;
	for (k = 0; k < DIM_COUNT; k++)
		if (a->dims[k].active && b->dims[k].active && a->dims[k].exposed_ms - b->dims[k].exposed_ms > most) {
			most = a->dims[k].exposed_ms - b->dims[k].exposed_ms;
			best = k;
		}
	if (best >= 0)
		snprintf(buf, size, ": %s exposes %.1f instead of %.1f ms (%s at %.1f instead of %.1f GB/s busbw)",
			 dim_labels[best], b->dims[best].exposed_ms, a->dims[best].exposed_ms, ualgo_labels[b->dims[best].algo],
			 b->dims[best].busbw_GBps, a->dims[best].busbw_GBps);
}

static void advise_algorithm(struct metrics *m, const struct weigh *g)
{
	const struct workload *w = &m->work;
	static struct workload v, best;
	struct job j = g->d->job;
	int a, pick = -1;
	double step, best_step = w->step_ms;
	char why[240], cmd[64];
	for (a = ALGO_AUTO; a <= ALGO_COLLNET; a++) {
		if (a == g->d->job.algo)
			continue;
		j.algo = a;
		/* (The algorithm moves neither T_calc nor the bubble: the job's own are the
		 * variant's floor, workload_floor's sum to the bit.) */
		if (w->compute_ms + w->bubble_ms >= 0.98 * best_step)
			continue;
		step = step_of_variant(g, &j, &v);
		if (step > 0 && step < 0.98 * best_step) {
			best_step = step;
			best = v;
			pick = a;
		}
	}
	if (pick < 0)
		return;
	change_words(w, &best, why, sizeof why);
	snprintf(cmd, sizeof cmd, "set job.algo %s", algo_names[pick]);
	if (pick == ALGO_AUTO)
		advise_do(m, cmd, "let NCCL choose the algorithm (job.algo: auto): the step takes %.1f instead of %.1f ms%s",
			  best_step, w->step_ms, why);
	else
		advise_do(m, cmd, "NCCL_ALGO=%s (job.algo: %s): the step takes %.1f instead of %.1f ms%s", ualgo_labels[pick - 1],
			  algo_names[pick], best_step, w->step_ms, why);
}

/* Memory of variant j on the job's GPUs; false when its degrees do not fit. */
static bool memory_of(const struct weigh *g, const struct job *j, double memory_GB, struct job_memory *out)
{
	struct job_shape s;
	if (!job_shape(j, g->f->gpus, 0, &s, NULL, 0, NULL))
		return false;
	job_memory(j, &s, memory_GB, out);
	return true;
}

/* The job does not fit: the least change of sequence parallelism, recomputation and ZeRO
 * stage that fits (for each of the first two, the lowest ZeRO stage that does), the one
 * whose step the model rates best. */
static void advise_memory(struct metrics *m, const struct weigh *g)
{
	const struct workload *w = &m->work;
	static struct workload v;
	const struct job *base = &g->d->job;
	struct job best_job = *base;
	struct job_memory mem, best_mem, most;
	double gb = w->mem.capacity / 1e9, best = 0;
	int sp, rc, z;
	bool any = false;
	char what[200], cmd[160];
	size_t n = 0, c = 0;
	memset(&most, 0, sizeof most);
	for (sp = base->sequence_parallel; sp <= (base->tp > 1 ? 1 : (int)base->sequence_parallel); sp++)
		for (rc = 0; rc < 3; rc++) {
			static const int order[] = { -1, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL };
			struct job j = *base;
			j.sequence_parallel = sp;
			if (rc == 1 && base->recompute != RECOMPUTE_NONE)
				continue;
			if (rc == 2 && base->recompute == RECOMPUTE_FULL)
				continue;
			if (rc)
				j.recompute = order[rc];
			for (z = base->zero; z <= 3; z++) {
				bool skip;
				j.zero = z;
				if (!memory_of(g, &j, gb, &mem))
					break;
				if (!any && (!most.total || mem.total < most.total))
					most = mem;
				if (!mem.fits)
					continue;
				/* (Once there is a best, a variant that cannot beat it is not weighed.) */
				skip = any && cannot_beat(g, &j, best);
				if (!skip && step_of_variant(g, &j, &v) > 0 && (!any || v.step_ms < best)) {
					best = v.step_ms;
					best_job = j;
					best_mem = mem;
					any = true;
				}
				break;
			}
		}
	if (!any) {
		if (most.total > 0)
			advise(m, "even with sequence parallelism, full recomputation and ZeRO-3 the job needs %.1f GB per GPU of the %.0f GB: more pipeline stages or more GPUs",
			       most.total / 1e9, gb);
		return;
	}
	what[0] = cmd[0] = 0;
	if (best_job.sequence_parallel != base->sequence_parallel) {
		n += (size_t)snprintf(what + n, sizeof what - n, "sequence_parallel: true");
		c += (size_t)snprintf(cmd + c, sizeof cmd - c, "set job.sequence_parallel true");
	}
	if (best_job.recompute != base->recompute && n < sizeof what && c < sizeof cmd) {
		n += (size_t)snprintf(what + n, sizeof what - n, "%srecompute: %s", n ? ", " : "",
				      recompute_names[best_job.recompute]);
		c += (size_t)snprintf(cmd + c, sizeof cmd - c, "%sset job.recompute %s", c ? "; " : "",
				      recompute_names[best_job.recompute]);
	}
	if (best_job.zero != base->zero && n < sizeof what && c < sizeof cmd) {
		snprintf(what + n, sizeof what - n, "%szero: %d", n ? ", " : "", best_job.zero);
		snprintf(cmd + c, sizeof cmd - c, "%sset job.zero %d", c ? "; " : "", best_job.zero);
	}
	advise_do(m, cmd, "%s fits the job in %.1f GB per GPU of the %.0f GB (weights %.1f, gradients %.1f, optimizer %.1f, activations %.1f); the step takes %.1f ms (%.1f as it stands, without the memory to run)",
	       what, best_mem.total / 1e9, gb, best_mem.weights / 1e9, best_mem.grads / 1e9, best_mem.optimizer / 1e9,
	       best_mem.activations / 1e9, best, w->step_ms);
}

/* A change to the job that the model weighs: advised when it shortens the step 2%. */
static void advise_if_better(struct metrics *m, const struct weigh *g, const struct job *j, const char *cmd,
			     const char *what)
{
	static struct workload v;
	const struct workload *w = &m->work;
	struct job_memory mem;
	char why[240];
	if (cannot_beat(g, j, 0.98 * w->step_ms) || step_of_variant(g, j, &v) <= 0 || v.step_ms >= 0.98 * w->step_ms)
		return;
	if (w->mem.fits && memory_of(g, j, w->mem.capacity / 1e9, &mem) && !mem.fits)
		return; /* it would not fit */
	change_words(w, &v, why, sizeof why);
	advise_do(m, cmd, "%s: the step takes %.1f instead of %.1f ms%s", what, v.step_ms, w->step_ms, why);
}

static void job_advice(struct metrics *m, const struct weigh *g)
{
	const struct fabric *f = &m->fabric;
	const struct workload *w = &m->work;
	const struct job *base = &g->d->job;
	int k = largest_exposed(w), G = f->node.ppn;
	struct job j;
	char what[200], cmd[96];
	if (!w->mem.fits)
		advise_memory(m, g);
	advise_algorithm(m, g);
	if (k == DIM_COUNT && w->micro_seqs >= 2 && base->micro_batches < 50000) {
		j = *base;
		j.micro_batches = base->micro_batches * 2;
		snprintf(what, sizeof what, "%d micro-batches instead of %d shrink the pipeline bubble", j.micro_batches,
			 base->micro_batches);
		snprintf(cmd, sizeof cmd, "set job.micro_batches %d", j.micro_batches);
		advise_if_better(m, g, &j, cmd, what);
	}
	if (w->dims[DIM_DP].active && w->dims[DIM_DP].exposed_ms > 0.05 * w->step_ms) {
		if (base->overlap <= 0) {
			j = *base;
			j.overlap = 1;
			advise_if_better(m, g, &j, "set job.overlap 1",
					 "overlapping the gradient reduction with the backward pass (overlap: 1, Megatron's --overlap-grad-reduce)");
		} else if (w->dims[DIM_DP].bound.kind == BOUND_LATENCY && w->dims[DIM_DP].buckets > 1 && base->zero < 3) {
			j = *base;
			j.bucket_mb = 4 * w->dims[DIM_DP].bucket_bytes / (1024.0 * 1024.0);
			j.bucket_mb = floor(j.bucket_mb);
			snprintf(what, sizeof what, "buckets 4 times larger (bucket_mb: %.0f) pay the latency less often", j.bucket_mb);
			snprintf(cmd, sizeof cmd, "set job.bucket_mb %.0f", j.bucket_mb);
			advise_if_better(m, g, &j, cmd, what);
		}
	}
	if (w->tp > 1 && w->mem.fits) {
		/* Either way: it shrinks the pipeline sends and the activations, and turns TP's
		 * AllReduce into AllGather + ReduceScatter, which may run slower (no NVLS). */
		j = *base;
		j.sequence_parallel = !base->sequence_parallel;
		advise_if_better(m, g, &j, j.sequence_parallel ? "set job.sequence_parallel true" : "set job.sequence_parallel false",
				 j.sequence_parallel ? "sequence parallelism (sequence_parallel: true, Megatron's --sequence-parallel)"
						     : "without sequence parallelism (sequence_parallel: false) the job still fits");
	}
	if (w->tp > G && G > 0) {
		/* The design rule, weighed: TP inside the NVLink domain, the rest to DP. */
		j = *base;
		j.tp = G;
		j.dp = 0;
		snprintf(what, sizeof what, "TP %d spans %s: keep tensor parallelism inside the NVLink domain (TP %d)", w->tp,
			 f->domain_node ? "NVLink domains" : "servers", G);
		snprintf(cmd, sizeof cmd, "set job.tp %d%s", G, base->dp ? "; set job.dp 0" : "");
		advise_if_better(m, g, &j, cmd, what);
	}
	if (w->efficiency < 0.7) {
		/* Where the time goes, every exposed part with its share. */
		char parts[200];
		size_t n = 0;
		int i;
		parts[0] = 0;
		if (w->bubble_ms > 0)
			n += (size_t)snprintf(parts + n, sizeof parts - n, "bubble %.1f", w->bubble_ms);
		for (i = 0; i < DIM_COUNT && n < sizeof parts; i++)
			if (w->dims[i].active && w->dims[i].exposed_ms >= 0.05)
				n += (size_t)snprintf(parts + n, sizeof parts - n, "%s%s %.1f", n ? ", " : "", dim_labels[i],
						      w->dims[i].exposed_ms);
		advise(m, "scaling efficiency is %.0f%% (under 70%%): %.1f of the %.1f ms step is not compute (%s ms)",
		       100 * w->efficiency, w->step_ms - w->compute_ms, w->step_ms, parts);
	}
}

/* Why switch group `group` cannot spread flows per packet, into why (empty: it can): its
 * switches must route adaptively and every compute NIC must take packets out of order
 * (topo.c applies the same rule; fabric-physics.md 1.6). */
static void adaptive_blocker(const struct design *d, const struct catalog *cat, const char *group, char *why, size_t size)
{
	size_t k, i, n;
	const struct cat_switch *cs = NULL;
	why[0] = '\0';
	if (design_find(d, group, &k) == GK_SWITCH)
		cs = catalog_switch(cat, DESIGN_SWITCH(d, k)->model);
	if (!cs || !cs->adaptive_routing) {
		snprintf(why, size, "%s cannot route adaptively", cs ? cs->name : "a switch the catalog does not know");
		return;
	}
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *sg = DESIGN_SERVER(d, i);
		for (n = 0; n < sg->nics.n; n++) {
			const struct nic_spec *ns = &VEC_AT(sg->nics, struct nic_spec, n);
			const struct cat_nic *cn = catalog_nic(cat, ns->model);
			if (ns->use == NIC_COMPUTE && (!cn || !cn->adaptive_routing)) {
				snprintf(why, size, "%s NICs take no packets out of order", ns->model);
				return;
			}
		}
	}
}

/* Static ECMP binds: the remedies the model itself rates, each with the share of the
 * hashed links' capacity it would carry (the loss's factor is that capacity over the demand
 * times hash_efficiency(flows, links)):
 *   - adaptive routing (only where the switches and NICs can do it, and without a LAG,
 *     whose members stay hashed): the hashing goes, the capacity stays;
 *   - twice the queue pairs per connection (NCCL_IB_QPS_PER_CONNECTION): twice the flows
 *     over the same links, hashed more evenly;
 *   - more uplinks: more capacity.
 * What Enter applies is the best knob that helps; none when none does. */
static void advise_hashing(struct metrics *m, const struct design *d, const struct catalog *cat, const struct fabric *f,
			   const struct fabric_loss *h)
{
	const char *group = f->tiers[h->binding].group;
	double eff = hash_efficiency(h->flows, h->links);
	double raw = eff > 0 ? h->factor / eff : h->factor;
	int q = d->fabric.qps_per_connection > 0 ? d->fabric.qps_per_connection : 1, q2 = 2 * q;
	double with_ar = raw < 1 ? raw : 1, with_qps = raw * hash_efficiency(h->flows * 2, h->links);
	char blocker[120], cmd[64], more[300];
	bool ar = d->fabric.routing == ROUTE_ECMP && !f->lag;
	if (with_qps > 1)
		with_qps = 1;
	adaptive_blocker(d, cat, group, blocker, sizeof blocker);
	if (blocker[0])
		ar = false;
	cmd[0] = '\0';
	if (ar && with_ar > h->factor + 0.005)
		snprintf(cmd, sizeof cmd, "set fabric.routing adaptive");
	else if (with_qps > h->factor + 0.005 && q2 <= 16)
		snprintf(cmd, sizeof cmd, "set fabric.qps_per_connection %d", q2);
	if (ar)
		snprintf(more, sizeof more, "adaptive routing carries %.0f%%, fabric.qps_per_connection %d %.0f%%, more uplinks add capacity",
			 100 * with_ar, q2, 100 * with_qps);
	else
		snprintf(more, sizeof more, "%s; fabric.qps_per_connection %d carries %.0f%%, more uplinks add capacity",
			 blocker[0] ? blocker : d->fabric.routing != ROUTE_ECMP ? "adaptive routing is on and reaches not these flows" : "a LAG's members stay hashed",
			 q2, 100 * with_qps);
	advise_do(m, cmd, "'%s' hashes %ld flows onto %ld uplinks by static ECMP (%.0f%% of their capacity): %s", group, h->flows,
		  h->links, 100 * h->factor, more);
}

static void find_advice(const struct design *d, const struct catalog *cat, const struct topo *t, struct metrics *m)
{
	const struct fabric *f = &m->fabric;
	const struct job *j = &d->job;
	const struct coll_result *ar = &m->colls[COLL_ALLREDUCE];
	const struct algo_result *used = coll_pick(ar, j->algo);
	const struct workload *w = &m->work;
	const struct fabric_loss *hashed = used->available ? &used->loss : NULL;
	struct weigh g = { d, cat, t, f };
	int i, k = w->valid ? largest_exposed(w) : -1;
	bool oversub = false;
	if (w->valid) {
		/* The hashing that matters is the one the job's most exposed traffic meets. */
		hashed = k >= 0 && k < DIM_COUNT ? &w->dims[k].bound.loss : NULL;
	}
	for (i = 0; i < f->ntiers; i++) {
		const struct tier *tr = &f->tiers[i];
		if (tr->ratio > 4.0 + 1e-9)
			advise(m, "'%s' oversubscription is %.3g:1 (above 4:1): add uplinks or switches above it; no tuning knob fixes this",
			       tr->group, tr->ratio);
		if (tr->ratio > 1.0 + 1e-9)
			oversub = true;
	}
	if (!f->connected && f->node.nnodes > 1)
		advise(m, "%s: add the bundles or a switch tier that joins them", f->note);
	if (f->lag) {
		char unbond[240];
		lag_commands(d, false, unbond, sizeof unbond);
		advise_do(m, unbond, "a LAG hides the server's ports from NCCL: it sees one device at one port's speed and uses one port per queue pair (nccl#1015); give NCCL the NICs unbonded");
	}
	if (hashed && hashed->hashed && hashed->hash == HASH_ECMP && hashed->factor < 0.9 && hashed->binding >= 0 &&
	    hashed->binding < f->ntiers)
		advise_hashing(m, d, cat, f, hashed);
	if (oversub && f->wiring != WIRE_RAIL && f->node.nnodes > 1 && ar->algo[UA_RING].available &&
	    ar->algo[UA_RING].loss.factor < 0.999)
		advise(m, "Ring on a non-rail-aligned, oversubscribed fabric loses %.0f%% of what NCCL plans: wire rail-optimised",
		       100 * (1 - ar->algo[UA_RING].loss.factor));
	if (!w->valid && ar->auto_algo >= 0 && ar->best_algo >= 0 && ar->auto_algo != ar->best_algo &&
	    ar->algo[ar->best_algo].time_us < 0.95 * ar->algo[ar->auto_algo].time_us &&
	    used != &ar->algo[ar->best_algo]) { /* not when the job forces it already */
		char cmd[64];
		snprintf(cmd, sizeof cmd, "set job.algo %s", ualgo_names[ar->best_algo]);
		advise_do(m, cmd, "NCCL would pick %s (it does not see the switches), but %s is faster on this fabric: %.1f vs %.1f GB/s busbw; set NCCL_ALGO=%s",
			  ualgo_labels[ar->auto_algo], ualgo_labels[ar->best_algo], ar->algo[ar->best_algo].busbw_GBps,
			  ar->algo[ar->auto_algo].busbw_GBps, ualgo_labels[ar->best_algo]);
	}
	if ((j->algo == ALGO_NVLS || j->algo == ALGO_NVLSTREE) && !ar->algo[UA_NVLS].available &&
	    !ar->algo[UA_NVLSTREE].available)
		advise_do(m, "set job.algo auto", "NVLS is asked for but cannot run: %s", ar->algo[UA_NVLS].reason ? ar->algo[UA_NVLS].reason : "");
	if (j->algo == ALGO_COLLNET && !ar->algo[UA_COLLNET].available)
		advise_do(m, "set job.algo auto", "CollNet (SHARP) is asked for but cannot run: %s",
		       ar->algo[UA_COLLNET].reason ? ar->algo[UA_COLLNET].reason : "");
	if (f->slot_GBps > 0 && f->cards && f->ports &&
	    f->slot_GBps < f->port_GBps * f->ports / f->cards - 1e-9)
		advise(m, "the NICs' PCIe slots (%.1f GB/s) are slower than their ports (%.1f GB/s): use a faster slot or NIC",
		       f->slot_GBps, f->port_GBps * f->ports / f->cards);
	if (w->valid) {
		job_advice(m, &g);
		if (j->params_b >= 500) {
			if (!ar->algo[UA_COLLNET].available && !ar->algo[UA_NVLS].available)
				advise(m, "trillion-parameter class: ReduceScatter/AllGather dominate; in-network reduction (NVLS, SHARP) takes reduction traffic off the GPUs");
		} else if ((w->tp > 1 || w->ep > 1) && (!f->node.nvswitch || oversub)) {
			/* The design rule, said only where the design does not follow it yet. */
			advise(m, "hybrid parallelism: %s", !f->node.nvswitch
				   ? "TP and EP want NVSwitch inside the node; this node has none"
				   : "many high-radix links between nodes for DP: a tier above the servers is oversubscribed");
		} else if (f->node.nnodes > 1 && oversub) {
			const struct tier *worst = &f->tiers[0];
			for (i = 1; i < f->ntiers; i++)
				if (f->tiers[i].ratio > worst->ratio)
					worst = &f->tiers[i];
			advise(m, "mostly data-parallel: the gradients cross the servers' network every step; '%s' is %.3g:1 oversubscribed: a non-blocking (1:1) tier keeps their bandwidth",
			       worst->group, worst->ratio);
		}
	}
	if (d->fabric.sharp && !f->node.collnet && f->node.nnodes > 1)
		advise_do(m, "set fabric.sharp false", "SHARP is on, but not every switch and NIC on the path supports it (InfiniBand, Quantum and ConnectX-6 or later)");
}

void metrics_compute(const struct design *d, const struct catalog *cat, double bytes, int gpus, struct metrics *m)
{
	metrics_compute_some(d, cat, bytes, gpus, METRICS_CURVE, m);
}

void metrics_curve(const struct design *d, const struct catalog *cat, struct metrics *m)
{
	struct topo t;
	if (m->work.has_curve)
		return;
	topo_build(d, cat, m->gpus_asked, &t);
	workload_curve(d, cat, &t, &m->fabric, &m->work);
	topo_free(&t);
}

void metrics_compute_some(const struct design *d, const struct catalog *cat, double bytes, int gpus, unsigned with,
			  struct metrics *m)
{
	int c;
	struct topo t;
	struct comm_layout world;
	memset(m, 0, sizeof *m);
	m->bytes = bytes > 0 ? bytes : 1024.0 * 1024 * 1024;
	m->gpus_asked = gpus;
	topo_build(d, cat, gpus, &t);
	fabric_summarize(d, cat, &t, &m->fabric);
	fabric_nccl(&m->fabric, m->fabric.node.nnodes, m->fabric.gpus > 0 ? m->fabric.gpus : 1, 0, &m->nccl);
	world = layout_world(&m->fabric);
	for (c = 0; c < COLL_COUNT; c++)
		collective_losses(&t, &m->fabric, &m->nccl, (enum coll)c, &world, &m->loss[c]);
	for (c = 0; c < PATTERNS; c++)
		collective_eval(&m->fabric, &m->nccl, (enum coll)c, m->bytes, &m->loss[c], &m->colls[c]);
	if (gpus > 0 && gpus > m->fabric.design_gpus) {
		memset(&m->work, 0, sizeof m->work);
		m->work.job_error = true;
		snprintf(m->work.why_field, sizeof m->work.why_field, "job.gpus");
		snprintf(m->work.why, sizeof m->work.why, "%d GPUs asked for, but the job's server groups have %d", gpus,
			 m->fabric.design_gpus);
	} else {
		workload_compute(d, cat, &t, &m->fabric, &m->work);
		if (with & METRICS_CURVE)
			workload_curve(d, cat, &t, &m->fabric, &m->work);
	}
	if (m->work.valid)
		job_bottleneck(d, m);
	else
		table_bottleneck(d, m);
	find_advice(d, cat, &t, m);
	topo_free(&t);
}

void metrics_problems(const struct metrics *m, struct ncf_diag *diag)
{
	int i;
	for (i = 0; i < m->fabric.nproblems; i++)
		diag_add(diag, m->fabric.problems[i].severity, m->fabric.problems[i].path, "%s", m->fabric.problems[i].msg);
	workload_problems(&m->work, diag);
}
