/* teach.c: the ring lesson in closed form, and the formulas with numbers. */
#include "model/teach.h"
#include "model/congest.h"
#include <math.h>
#include <stdlib.h>
#include "model/alloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const coll_labels[] = { "AllReduce", "AllGather", "ReduceScatter" };

bool ring_lesson_build(const struct metrics *m, int coll, struct ring_lesson *out, char *why, size_t whysz)
{
	const struct coll_result *cr;
	const struct algo_result *r;
	double A;
	memset(out, 0, sizeof *out);
	if (coll != COLL_ALLREDUCE && coll != COLL_ALLGATHER && coll != COLL_REDUCESCATTER) {
		snprintf(why, whysz, "%s has no ring: the lesson shows AllReduce, AllGather and ReduceScatter",
			 coll >= 0 && coll < COLL_COUNT ? coll_names[coll] : "this pattern");
		return false;
	}
	cr = &m->colls[coll];
	r = &cr->algo[UA_RING];
	if (!r->available || cr->ranks < 2) {
		snprintf(why, whysz, "Ring is not used here: %s",
			 cr->ranks < 2 ? "the job has one rank" : r->reason ? r->reason : "NCCL's model turns it off");
		return false;
	}
	A = m->nccl.bw[coll][NA_RING][r->proto];
	out->coll = coll;
	out->n = cr->ranks;
	out->ppn = m->nccl.node.ppn > 0 ? m->nccl.node.ppn : 1;
	out->nodes = cr->nodes;
	out->nsteps = coll == COLL_ALLREDUCE ? 2 * (out->n - 1) : out->n - 1;
	out->bytes = cr->bytes;
	out->chunk = cr->bytes / out->n;
	out->proto = r->proto;
	out->channels = m->nccl.ring.c;
	out->nccl_algbw = A;
	out->loss = r->loss.factor;
	out->algbw = r->algbw_GBps;
	out->busbw = r->busbw_GBps;
	out->time_us = r->time_us;
	/* nccl_time: latency + S / (1000 A loss); the rest of the time is latency. */
	out->bw_us = A * out->loss > 0 ? cr->bytes / (1000.0 * A * out->loss) : 0;
	out->lat_us = out->time_us - out->bw_us;
	out->step_us = out->time_us / out->nsteps;
	return true;
}

static int mod(int a, int n)
{
	return ((a % n) + n) % n;
}

/* Reduce-scatter: at step k rank r sends chunk r-k-1 to r+1, which adds its own, so chunk c
 * starts at rank c+1 and is finished at rank c after n-1 steps. All-gather: rank c sends
 * its finished chunk c on, and rank c+e has it after e steps of that phase. */
int ring_have(const struct ring_lesson *l, int s, int r, int c)
{
	int n = l->n, e = mod(r - c, n), e1 = mod(r - c - 1, n);
	if (l->coll == COLL_ALLGATHER)
		return e == 0 || s >= e ? n : 0;
	if (l->coll == COLL_ALLREDUCE && s >= n - 1 && e >= 1 && s - (n - 1) >= e)
		return n;
	return e1 >= 1 && s >= e1 ? e1 + 1 : 1;
}

int ring_sends(const struct ring_lesson *l, int s, int r)
{
	int n = l->n;
	if (s < 0 || s >= l->nsteps)
		return -1;
	if (l->coll == COLL_ALLGATHER)
		return mod(r - s, n);
	if (s < n - 1)
		return mod(r - s - 1, n);
	return mod(r - (s - (n - 1)), n);
}

bool ring_hop_network(const struct ring_lesson *l, int r)
{
	return l->nodes > 1 && (r + 1) % l->ppn == 0;
}

const char *ring_phase(const struct ring_lesson *l, int s)
{
	if (l->coll == COLL_ALLGATHER)
		return "all-gather";
	if (l->coll == COLL_REDUCESCATTER || s < l->n - 1)
		return "reduce-scatter";
	return "all-gather";
}

static void add(struct formulas *f, const char *fmt, ...) NCF_PRINTF(2, 3);
static void add(struct formulas *f, const char *fmt, ...)
{
	va_list ap;
	if (f->n >= FORMULA_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(f->line[f->n++], sizeof f->line[0], fmt, ap);
	va_end(ap);
}

void formulas_build(const struct metrics *m, const struct ring_lesson *l, struct formulas *f)
{
	const struct workload *w = &m->work;
	const char *factor = l->coll == COLL_ALLREDUCE ? "2(n-1)/n" : "(n-1)/n";
	double bf = busbw_factor((enum coll)l->coll, l->n);
	double comm = w->bubble_ms + w->comm_exposed_ms;
	f->n = 0;
	add(f, "Ring %s: n = %d rank%s on %d node%s (%d per node), S = %.0f B, protocol %s, %d channels",
	    coll_labels[l->coll], l->n, l->n == 1 ? "" : "s", l->nodes, l->nodes == 1 ? "" : "s", l->ppn, l->bytes, nproto_names[l->proto],
	    l->channels);
	add(f, "NCCL's own model: algbw A = %.2f GB/s (its busbw A x %s = %.2f GB/s)", l->nccl_algbw, factor,
	    l->nccl_algbw * bf);
	add(f, "the switches leave a share f = %.3f of it (oversubscription, flows hashed onto links)", l->loss);
	add(f, "on this fabric: A x f = %.2f x %.3f = %.2f GB/s", l->nccl_algbw, l->loss, l->nccl_algbw * l->loss);
	add(f, "time = latency + S / (A f) = %.1f us + %.0f B / %.2f GB/s = %.1f + %.1f = %.1f us", l->lat_us, l->bytes,
	    l->nccl_algbw * l->loss, l->lat_us, l->bw_us, l->time_us);
	add(f, "algbw = S / time = %.2f GB/s (as nccl-tests prints it);  busbw = algbw x %s = %.2f x %.4f = %.2f GB/s",
	    l->algbw, factor, l->algbw, bf, l->busbw);
	add(f, "%d steps (%s): each sends S/n = %.0f B over every hop; a step = %.1f / %d = %.2f us", l->nsteps,
	    l->coll == COLL_ALLREDUCE ? "2(n-1)" : "n-1", l->chunk, l->time_us, l->nsteps, l->step_us);
	add(f, "%s", "");
	if (!w->valid) {
		add(f, "speedup: %s", w->why[0] ? w->why : "the job is not complete");
		return;
	}
	add(f, "training step: T_calc = %.1f ms, T_comm = bubble + exposed communication = %.1f + %.1f = %.1f ms",
	    w->compute_ms, w->bubble_ms, w->comm_exposed_ms, comm);
	add(f, "speedup = N T_calc / (T_calc + T_comm) = %d x %.1f / (%.1f + %.1f) = %.2f  (efficiency %.1f%%)", w->gpus,
	    w->compute_ms, w->compute_ms, comm, w->speedup, 100.0 * w->efficiency);
	add(f, "the textbook's Amdahl form (a teaching aid): speedup = N / (1 + (N-1) r), r a serial fraction; "
	       "r = T_comm / T_calc = %.1f / %.1f = %.3f gives %d / (1 + %d x %.3f) = %.2f", comm, w->compute_ms, w->amdahl_r,
	    w->gpus, w->gpus - 1, w->amdahl_r, w->amdahl_speedup);
	add(f, "%s", "it treats all communication as serial work that never shrinks, so it is far below the step-time form");
}

int congestion_link(unsigned seed, int flow, int links)
{
	/* splitmix64 of (seed, flow) */
	unsigned long long z = ((unsigned long long)seed << 32 | (unsigned)flow) + 0x9E3779B97F4A7C15ull;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return links > 0 ? (int)(z % (unsigned long long)links) : 0;
}

bool congestion_lesson_build(const struct metrics *m, unsigned seed, struct congestion_lesson *out, char *why,
			     size_t whysz)
{
	const struct fabric *f = &m->fabric;
	const struct algo_result *r = &m->colls[COLL_ALLREDUCE].algo[UA_RING];
	int i;
	memset(out, 0, sizeof *out);
	out->seed = seed;
	if (f->node.nnodes < 2 || !r->available) {
		snprintf(why, whysz, "the job runs on one node: no flows cross the network");
		return false;
	}
	/* Hashing exists only where a device chooses among equal paths (fabric-physics.md 1):
	 * the ring's queue pairs leaving the binding switch over its uplinks. */
	if (!r->loss.hashed || r->loss.hash != HASH_ECMP || r->loss.binding < 0 || r->loss.binding >= f->ntiers) {
		snprintf(why, whysz,
			 "nothing is hashed where this ring goes: NCCL binds each channel to one NIC, and %s",
			 f->ntiers <= 1 ? "one switch gives a packet no choice of path" : "no switch on its path chooses among equal uplinks by hash");
		return false;
	}
	{
		const struct tier *t = &f->tiers[r->loss.binding];
		out->flows = (int)r->loss.flows;
		out->links = (int)r->loss.links;
		out->link_GBps = t->link_gbps / 8.0;
		out->hashed = true;
		/* What the flows through one switch want: its share of the demand. */
		out->want_GBps = r->loss.demand_GBps / (t->count > 0 ? 1 : 1);
		snprintf(out->where, sizeof out->where, "the uplinks of one %s switch (%s)", switch_role_names[t->role], t->group);
	}
	if (out->links < 2 || out->flows < 1) {
		snprintf(why, whysz, "one link where the traffic goes: nothing to hash");
		return false;
	}
	{
		int *count = xcalloc((size_t)out->links, sizeof *count);
		for (i = 0; i < out->flows; i++)
			count[congestion_link(seed, i, out->links)]++;
		for (i = 0; i < out->links; i++) {
			if (count[i] > out->max_load)
				out->max_load = count[i];
			if (i < CONG_MAX_LINKS)
				out->load[i] = count[i];
		}
		free(count);
	}
	out->emax = hash_expected_max(out->flows, out->links);
	out->draw_GBps = out->flows * out->link_GBps / out->max_load;
	out->model_GBps = out->flows * out->link_GBps / out->emax;
	out->even_GBps = out->flows * out->link_GBps / ceil((double)out->flows / out->links);
	return true;
}

/* ---- tree ---------------------------------------------------------------------------------- */

static int lowbit(int p)
{
	return p & -p;
}

static int top_power(int k)
{
	int r = 1;
	while (r * 2 <= k)
		r *= 2;
	return r;
}

int tree_parent(int k, int p)
{
	if (p == top_power(k))
		return 0;
	for (;;) {
		int b = lowbit(p), q = (p / b) % 4 == 1 ? p + b : p - b;
		if (q <= k)
			return q;
		p = q; /* beyond the last node: its parent takes its place */
	}
}

void tree_children(int k, int p, int *left, int *right)
{
	int b = lowbit(p), h;
	*left = b >= 2 ? p - b / 2 : 0;
	*right = 0;
	for (h = b / 2; h >= 1; h /= 2)
		if (p + h <= k) {
			*right = p + h;
			break;
		}
}

int tree_node_depth(int k, int p)
{
	int d = 0;
	while ((p = tree_parent(k, p)) != 0)
		d++;
	return d;
}

/* In-order numbering: the subtree of p (lowbit b) is the interval [p-b+1, p+b-1], cut at k. */
int tree_subtree(int k, int p)
{
	int b = lowbit(p), hi = p + b - 1 < k ? p + b - 1 : k;
	return hi - (p - b + 1) + 1;
}

/* The height below p: its left subtree is always whole (it lies below p), so log2 of its
 * lowest set bit; the cut right side is never deeper. */
static int below(int k, int p)
{
	int b = lowbit(p), h = 0;
	(void)k;
	while (b > 1) {
		b /= 2;
		h++;
	}
	return h;
}

bool tree_lesson_build(const struct metrics *m, struct tree_lesson *out, char *why, size_t whysz)
{
	const struct coll_result *cr = &m->colls[COLL_ALLREDUCE];
	const struct algo_result *r = &cr->algo[UA_TREE];
	memset(out, 0, sizeof *out);
	if (cr->nodes < 2) {
		snprintf(why, whysz, "one node: Tree runs as a chain over NVLink inside it; the ring shows the same");
		return false;
	}
	if (!r->available) {
		snprintf(why, whysz, "Tree is not used here: %s", r->reason ? r->reason : "NCCL's model turns it off");
		return false;
	}
	out->k = cr->nodes;
	out->ppn = m->nccl.node.ppn > 0 ? m->nccl.node.ppn : 1;
	out->root = top_power(out->k);
	out->depth = below(out->k, out->root);
	out->nsteps = 2 * out->depth;
	out->bytes = cr->bytes;
	out->time_us = r->time_us;
	out->step_us = r->time_us / out->nsteps;
	out->busbw = r->busbw_GBps;
	return true;
}

/* Lockstep by depth (D the tree's depth): a node at depth d sends its sum up at step D - d,
 * after its children (depth d+1) did; the root has the total after D steps; the result
 * goes down one level a step and reaches depth d after D + d steps. */
int tree_state(const struct tree_lesson *l, int s, int p)
{
	int d = tree_node_depth(l->k, p), D = l->depth;
	if (s >= D + d)
		return 2;
	if (below(l->k, p) == 0 || s >= D - d)
		return 1;
	return 0;
}

int tree_sends(const struct tree_lesson *l, int s, int p)
{
	int d = tree_node_depth(l->k, p), D = l->depth;
	if (s < 0 || s >= l->nsteps)
		return 0;
	if (s < D)
		return d > 0 && s == D - d ? 1 : 0;
	return s == D + d && below(l->k, p) > 0 ? 2 : 0;
}

/* ---- alltoall ------------------------------------------------------------------------------ */

bool a2a_lesson_build(const struct metrics *m, struct a2a_lesson *out, char *why, size_t whysz)
{
	const struct coll_result *cr = &m->colls[COLL_ALLTOALL];
	const struct algo_result *r = &cr->algo[UA_P2P];
	memset(out, 0, sizeof *out);
	if (!r->available || cr->ranks < 2) {
		snprintf(why, whysz, "AllToAll needs two ranks or more");
		return false;
	}
	out->n = cr->ranks;
	out->ppn = m->nccl.node.ppn > 0 ? m->nccl.node.ppn : 1;
	out->nodes = cr->nodes;
	out->nsteps = out->n - 1;
	out->bytes = cr->bytes;
	out->block = cr->bytes / out->n;
	out->time_us = r->time_us;
	out->step_us = r->time_us / out->nsteps;
	out->busbw = r->busbw_GBps;
	return true;
}

bool a2a_has(const struct a2a_lesson *l, int s, int r, int c)
{
	int e = mod(r - c, l->n);
	return e == 0 || e <= s;
}

long a2a_network_sends(const struct a2a_lesson *l, int s)
{
	/* Ranks are numbered node by node. Rank r sends to (r + k) mod n, k = s + 1: on its own
	 * node for the first ppn - k ranks of each node (k < ppn), or, wrapping around the end,
	 * for the last k - (n - ppn) (k > n - ppn). */
	long k = s + 1, inside = 0;
	if (l->nodes < 2)
		return 0;
	if (k < l->ppn)
		inside += (long)l->nodes * (l->ppn - k);
	if (k > l->n - l->ppn)
		inside += (long)l->nodes * (k - (l->n - l->ppn));
	return l->n - inside;
}

/* ---- NVLS ---------------------------------------------------------------------------------- */

bool nvls_lesson_build(const struct metrics *m, struct nvls_lesson *out, char *why, size_t whysz)
{
	const struct coll_result *cr = &m->colls[COLL_ALLREDUCE];
	const struct algo_result *r = &cr->algo[UA_NVLS];
	memset(out, 0, sizeof *out);
	if (!r->available) {
		snprintf(why, whysz, "NVLS is not used here: %s",
			 r->reason ? r->reason : "it needs NVSwitch with NVLink SHARP (H100 and later)");
		return false;
	}
	out->ppn = m->nccl.node.ppn > 0 ? m->nccl.node.ppn : 1;
	out->nodes = cr->nodes;
	out->bytes = cr->bytes;
	out->slice = cr->bytes / out->ppn;
	out->time_us = r->time_us;
	out->step_us = r->time_us / 2;
	out->busbw = r->busbw_GBps;
	return true;
}

int nvls_have(const struct nvls_lesson *l, int s, int g, int c)
{
	if (s >= 2 || (s == 1 && g == c))
		return l->ppn;
	return 1;
}
