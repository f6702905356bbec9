/* collective.h: time, algbw and busbw of each pattern under each algorithm, on a fabric.
 *
 * NCCL's own model (nccl.h) gives the bandwidth and latency NCCL believes in and the
 * algorithm it would pick; the topology engine (route.h, through fabric_loss) says how much
 * of that survives the switches, for the traffic each algorithm really sends. AllToAll and
 * send/recv, which NCCL does not model, follow collective-model.md section 6 and
 * fabric-physics.md section 3: AllToAll is paced by each GPU's network share (it cannot
 * aggregate NICs), send/recv by the slowest pair of nccl-tests' ring of pairs (one NIC per
 * pair across nodes, NVLink inside). Losses do not depend on the message size, so they are
 * computed once per communicator (collective_losses) and reused for every size. Units:
 * bytes, microseconds, GB/s. busbw is nccl-tests'. */
#ifndef NCF_COLLECTIVE_H
#define NCF_COLLECTIVE_H
#include "model/fabric.h"
#include "model/nccl.h"

/* The algorithms a user chooses between (NCCL_ALGO); p2p is AllToAll's and send/recv's. */
enum ualgo { UA_RING, UA_TREE, UA_NVLS, UA_NVLSTREE, UA_COLLNET, UA_P2P, UA_COUNT };
extern const char *const ualgo_names[];
extern const char *const ualgo_labels[];

/* Where a communicator's ranks sit: `span` of nodes, `per_node` ranks on each, and
 * `concurrent` communicators of the same shape on every node (sharing its NICs). */
struct comm_layout {
	struct span span;
	int per_node, concurrent;
};

/* The fabric's loss for every algorithm of one collective on one communicator. */
struct coll_losses {
	struct fabric_loss algo[UA_COUNT];
	bool chain;             /* CollNet: the loss is CollNetChain's (else Direct's) */
};

struct algo_result {
	bool available;
	const char *reason;     /* why not, when unavailable */
	int nalgo, proto;       /* NCCL's algorithm and protocol behind it */
	double time_us, algbw_GBps, busbw_GBps;   /* on this fabric, best protocol */
	double nccl_busbw_GBps; /* what NCCL's model alone says (no switches) */
	struct fabric_loss loss;
};

struct coll_result {
	int coll;               /* enum coll */
	double bytes;
	int ranks, nodes;
	struct algo_result algo[UA_COUNT];
	int auto_algo;          /* the algorithm NCCL would pick (its own model) */
	int best_algo;          /* the fastest on this fabric */
};

/* The losses of collective c for the communicator of model m laid out as l on graph t. */
void collective_losses(const struct topo *t, const struct fabric *f, const struct nccl_model *m, enum coll c,
		       const struct comm_layout *l, struct coll_losses *out);
/* The same for the algorithms in `mask` only (bit u for enum ualgo u); the others lose
 * nothing. A training step needs only the algorithm it runs. */
void collective_losses_some(const struct topo *t, const struct fabric *f, const struct nccl_model *m, enum coll c,
			    const struct comm_layout *l, unsigned mask, struct coll_losses *out);
/* The user algorithm NCCL's own model picks for c at `bytes`, or -1. */
int collective_auto(const struct nccl_model *m, enum coll c, double bytes);
/* Evaluate collective c at `bytes` with those losses. */
void collective_eval(const struct fabric *f, const struct nccl_model *m, enum coll c, double bytes,
		     const struct coll_losses *loss, struct coll_result *out);
/* The result for a forced algorithm (job.algo), falling back to NCCL's pick. */
const struct algo_result *coll_pick(const struct coll_result *r, int job_algo);
/* The layout of a communicator over all of the job's nodes, every rank of each node. */
struct comm_layout layout_world(const struct fabric *f);

#endif
