/* teach.h: a ring collective taken apart step by step, and the model's formulas with the
 * design's numbers in them, for the teaching view.
 *
 * The ring is the job's communicator as NCCL builds it: ranks in order, ppn of them on a
 * node, so the hop from the last rank of a node to the next node's first crosses the
 * network. Each of AllReduce's 2(n-1) steps (n-1 for AllGather and ReduceScatter) moves one
 * chunk of S/n bytes over every hop at once; the slowest hop paces it. The model's time
 * for the whole operation is latency + S/algbw; a step is that divided by the step count,
 * so the steps add up to the model's prediction exactly (its latency is spread evenly).
 * Which chunk each rank holds after s steps comes in closed form, so a 131,072-rank ring
 * costs no more than an 8-rank one. */
#ifndef NCF_TEACH_H
#define NCF_TEACH_H
#include "model/metrics.h"

struct ring_lesson {
	int coll;               /* COLL_ALLREDUCE, COLL_ALLGATHER or COLL_REDUCESCATTER */
	int n, ppn, nodes;      /* ranks, ranks per node, nodes */
	int nsteps;             /* 2(n-1) or n-1 */
	double bytes, chunk;    /* S, and S/n sent by every rank at every step */
	int proto;              /* NCCL protocol the model chose */
	int channels;           /* NCCL ring channels */
	double nccl_algbw;      /* NCCL's own Ring algbw for this protocol (A), GB/s */
	double loss;            /* what the switches leave of it (0..1) */
	double algbw, busbw;    /* on this fabric, GB/s */
	double time_us, lat_us, bw_us; /* the model's time and its two parts */
	double step_us;         /* time_us / nsteps */
};

/* False (with why) when the pattern has no ring or Ring is off for it. */
bool ring_lesson_build(const struct metrics *m, int coll, struct ring_lesson *out, char *why, size_t whysz);
/* What rank r holds of chunk c after s steps: contributions 1..n for the reductions (n is
 * the finished sum), 0 or n for AllGather (absent or present). */
int ring_have(const struct ring_lesson *l, int s, int r, int c);
/* The chunk rank r sends to rank r+1 at step s (0-based), or -1 after the last step. */
int ring_sends(const struct ring_lesson *l, int s, int r);
/* Is the hop from rank r to r+1 a network hop (a node boundary)? */
bool ring_hop_network(const struct ring_lesson *l, int r);
/* "reduce-scatter" or "all-gather": the phase of step s. */
const char *ring_phase(const struct ring_lesson *l, int s);

/* Congestion made visible: the ring's connections hashed onto the links that bind (each
 * node's own links, or a tier's uplinks), one draw from a seed that is shown so that a
 * class sees the same picture, next to the model's expectation over all draws and the
 * even spread a LAG or adaptive routing gives (as the model treats them). */
#define CONG_MAX_LINKS 64
struct congestion_lesson {
	bool hashed;            /* static hashing applies where it binds */
	char where[64];         /* "each node's links", "the leaf uplinks" */
	int flows, links;       /* F connections on U links */
	double link_GBps;
	unsigned seed;
	int load[CONG_MAX_LINKS]; /* this draw: flows on each link (the first CONG_MAX_LINKS) */
	int max_load;
	double emax;            /* E[max load] over all draws */
	double draw_GBps;       /* F x link / max_load: what this draw moves */
	double model_GBps;      /* F x link / E[max] */
	double even_GBps;       /* F x link / ceil(F/U) */
	double want_GBps;       /* what the ring wants through here (NCCL's own rate) */
};
/* False (with why) when nothing is hashed on this design (one link, or one node). */
bool congestion_lesson_build(const struct metrics *m, unsigned seed, struct congestion_lesson *out, char *why,
			     size_t whysz);
/* The link a flow hashes to: a fixed 64-bit mix of (seed, flow), the same on every machine. */
int congestion_link(unsigned seed, int flow, int links);

/* Tree AllReduce across nodes: NCCL's double binary tree, each tree carrying half the data.
 * Tree A here is the in-order binary tree over the nodes 1..K (a node's parent is 2^k away
 * in rank order, as collective-model.md describes); tree B is its mirror, so a leaf of one
 * is inside the other. One chunk's wave: the sums climb one level a step (depth D steps),
 * then the result comes down (D steps); NCCL pipelines many chunks so every level works at
 * once, and the model's time is spread evenly over the 2D steps. Inside a node the GPUs
 * reduce along a chain over NVLink first. */
struct tree_lesson {
	int k, ppn, depth, nsteps, root; /* nodes (1-based ids 1..k), GPUs per node, D, 2D, root id */
	double bytes, time_us, step_us, busbw;
};
bool tree_lesson_build(const struct metrics *m, struct tree_lesson *out, char *why, size_t whysz);
/* Parent of node p (1..k) in tree A, 0 for the root; children, 0 when none. */
int tree_parent(int k, int p);
void tree_children(int k, int p, int *left, int *right);
int tree_node_depth(int k, int p);
/* After s steps: 0 holds only its own data, 1 holds the sum of its subtree, 2 holds the
 * result (the sum of all). tree_sends: 1 sends its sum up at step s, 2 sends the result down,
 * 0 idle. */
int tree_state(const struct tree_lesson *l, int s, int p);
int tree_sends(const struct tree_lesson *l, int s, int p);
/* Subtree size of p (nodes). */
int tree_subtree(int k, int p);

/* AllToAll: n-1 steps; at step k (1-based) rank r sends its block for rank r+k (a shift
 * order; NCCL visits peers in a node-aware order, the total is the same). The model's p2p
 * time spread evenly over the steps. */
struct a2a_lesson {
	int n, ppn, nodes, nsteps;
	double bytes, block, time_us, step_us, busbw;
};
bool a2a_lesson_build(const struct metrics *m, struct a2a_lesson *out, char *why, size_t whysz);
/* Does rank r hold the block from rank c after s steps? */
bool a2a_has(const struct a2a_lesson *l, int s, int r, int c);
/* Ranks whose sends at step s (0-based) cross the network. */
long a2a_network_sends(const struct a2a_lesson *l, int s);

/* NVLS AllReduce inside a node: each GPU reads its 1/ppn slice through the NVSwitch, which
 * adds the ppn copies as they pass (a reduce-scatter done by the switch), then writes the
 * summed slice once to a multicast address and the switch copies it to every GPU. Two
 * steps; across nodes NCCL joins the nodes' switches with a tree (NVLSTree). The model's
 * time is split evenly over the two steps. */
struct nvls_lesson {
	int ppn, nodes;
	double bytes, slice, time_us, step_us, busbw;
};
bool nvls_lesson_build(const struct metrics *m, struct nvls_lesson *out, char *why, size_t whysz);
/* What GPU g holds of slice c after s steps (0, 1 or 2): 1 its own data, ppn the full sum. */
int nvls_have(const struct nvls_lesson *l, int s, int g, int c);

#define FORMULA_LINES 16
struct formulas {
	int n;
	char line[FORMULA_LINES][200];
};
/* The ring's bandwidth and time, and the step-time and Amdahl speedups, each with the
 * design's numbers put in so that a student can redo them by hand. */
void formulas_build(const struct metrics *m, const struct ring_lesson *l, struct formulas *out);

#endif
