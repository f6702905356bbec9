/* route.h: where a collective's traffic goes on the group graph, and what it can get.
 *
 * Input: the group graph (topo.h), which nodes a communicator holds (a span), and one
 * algorithm's traffic at the rate NCCL plans for it (nccl.h: channels, per-channel speed,
 * NICs). Output: the share of that rate the switches deliver, and which resource binds.
 *
 * The traffic follows the algorithm's own graph over node indices (fabric-physics.md 2-3):
 *   ring      node i -> i+1 (mod n), every channel; a component sends one hop per channel
 *             up for every run of consecutive ring nodes it holds (fabric-physics.md 2.2):
 *             the hops are counted over every segment of the communicator and summed per
 *             component, whichever groups fill it, so wiring order against rank order costs
 *             hops; channels spread round-robin over the node's ports, so a rail component
 *             carries its rails' share, and the trays of an NVLink domain that sit in
 *             different components each send theirs. With NCCL_CROSS_NIC and an odd node
 *             count, the wrap hop changes rail and climbs to where rails join.
 *   tree      NCCL's double binary tree over node indices (ncclGetBtree: parent of r is
 *             (r ^ b) | 2b for b its lowest set bit, or r ^ b past the end; the second tree
 *             mirrored for even n, shifted by one for odd n); each edge carries B/4 per
 *             direction of the tree bus rate B = 2 x algbw, per rail share. The crossing
 *             edges touching a component are counted exactly, by runs: along the ranks
 *             the component is constant over runs (a group's block), and the tree is in
 *             order over ranks, so only the edges spanning a run boundary (one per bit
 *             and tree) are looked at (cached per layout).
 *   alltoall  uniform: each node's network bytes leave its component in the share of
 *             destinations outside it, m the job's nodes the component holds (every group's);
 *             without PXN, traffic to another rail leaves a rail component even inside one
 *             unit (fabric-physics.md 2.4).
 *   pairs     node i -> i + d: nccl-tests' send/recv ring (d = 1) and pipeline stages; one
 *             NIC per pair (fabric-physics.md 3.2).
 * Demand on a component's uplinks is compared with their capacity (switches x uplinks x
 * speed). Hashing applies only where a device chooses among equal paths (fabric-physics.md
 * 1): a switch's static ECMP over its uplinks, balls into bins with F = the queue pairs
 * crossing it (runtime connections x NCCL_IB_QPS_PER_CONNECTION); InfiniBand's static
 * tables give each destination port one uplink (D-mod-k: deterministic); adaptive routing
 * and spraying are fluid. Nothing is hashed on a server's own links: NCCL binds each
 * channel to one NIC. Direct (mesh) links carry the traffic of their pair only; a pair
 * without them, and without a switch plane at both ends, has no path (servers do not
 * forward). A node without a network port has no point-to-point.
 * The cost depends on groups and levels, not on GPUs: per communicator, contributions per
 * segment and level, summed over components in a sweep; the tree count costs runs x
 * log2(ranks) once per layout (it is cached), runs being the blocks of the leaf level (a
 * design of 10^5 leaf switches pays for them); meshes are counted node by node. */
#ifndef NCF_ROUTE_H
#define NCF_ROUTE_H
#include "model/topo.h"

enum traffic_kind { TK_RING, TK_TREE, TK_ALLTOALL, TK_PAIRS, TK_INNETWORK };
extern const char *const traffic_kind_names[];

/* The nodes of the communicators of one shape: communicator k holds nodes
 * first + k*stride + j*step for j = 0..len-1 (global node indices, topo.h "Placement"). */
struct span {
	long first, len, count, stride, step;
};

struct route_in {
	int kind;              /* enum traffic_kind */
	double rate;           /* GB/s per node and communicator the plan sends out (ring: C x b;
				* tree: bus rate B; alltoall: network bytes rate; pairs: per pair) */
	int channels;          /* NCCL's channels (search) */
	int runtime;           /* connections per channel at run time (NCCL doubles rings) */
	int p2p_channels;      /* pairs and alltoall: connections per peer */
	bool cross_rail;       /* ring built with NCCL_CROSS_NIC (rings change NIC) */
	bool pxn;              /* p2p sent through the destination's rail (PXN) */
	bool pair_cross_rail;  /* pairs: the two GPUs sit on different rails (no PXN) */
	long distance;         /* pairs: node i talks to node i + distance */
	bool pair_wrap;        /* pairs: the last node talks to the first (a ring of pairs) */
	int gpus;              /* ranks of one communicator on a node */
	int concurrent;        /* communicators of this shape on each node (their traffic adds) */
	int placement;         /* enum job_placement: contiguous ranks, or scattered at random */
	struct span span;
};

struct route_out {
	double factor;         /* 0..1: what the switches deliver of the planned rate */
	int ng, plane, level;  /* the binding resource; ng -1: none binds */
	double demand, capacity; /* at the binding resource, GB/s */
	long flows, links;     /* hashing there: flows over links (0: no hashing) */
	int hash;              /* enum hash_kind there */
	double share_up[TOPO_MAX_LEVELS]; /* busiest component's up traffic / its nodes' traffic */
	bool unroutable;       /* traffic must leave a top component */
	char why[200];
};

void route_eval(const struct topo *t, const struct route_in *in, struct route_out *out);
/* The span of one communicator over the job's first n nodes. */
struct span span_all(long n);

/* Tests: the tree's crossing edges counted by runs (what route_eval uses) equal the count
 * node by node, for communicator shape s on t; else why says where they differ. */
bool route_tree_counts_agree(const struct topo *t, const struct span *s, char *why, size_t size);
/* Forget the cached tree counts (fabric_caches_clear: benchmarks measuring a cold start). */
void route_caches_clear(void);
/* Tests: route_memos(false) evaluates every piece the long way (no kept segments, no
 * capacity reused from the last piece or tree level of the same make, no ring base reused,
 * every all-to-all level swept: they must not change a result), true again by default;
 * either clears the caches. route_memo_hits: the memos'
 * uses since (0 when off). */
void route_memos(bool on);
long route_memo_hits(void);

/* NCCL's double binary tree over n nodes: the parents of x in tree 0 and tree 1, -1 for a
 * root (exposed for tests and the teaching view). */
long dtree_parent(long n, int tree, long x);

#endif
