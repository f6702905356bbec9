/* collective.h: time, algbw and busbw of each pattern under each algorithm, on a fabric.
 *
 * NCCL's own model (nccl.h) gives the bandwidth and latency NCCL believes in and the
 * algorithm it would pick; the fabric (fabric.h) then says how much of the network part
 * survives oversubscription and hashing collisions. AllToAll and send/recv, which NCCL does
 * not model, follow collective-model.md section 6: the network share of each GPU and the
 * NVLink rate, whichever binds. Units: bytes, microseconds, GB/s. busbw is nccl-tests'. */
#ifndef NCF_COLLECTIVE_H
#define NCF_COLLECTIVE_H
#include "model/fabric.h"
#include "model/nccl.h"

/* The algorithms a user chooses between (NCCL_ALGO); p2p is AllToAll's and send/recv's. */
enum ualgo { UA_RING, UA_TREE, UA_NVLS, UA_NVLSTREE, UA_COLLNET, UA_P2P, UA_COUNT };
extern const char *const ualgo_names[];
extern const char *const ualgo_labels[];

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

/* Evaluate collective c at `bytes` for the communicator of model m on fabric f;
 * `concurrent` communicators of the same shape run at once on the same nodes. */
void collective_eval(const struct fabric *f, const struct nccl_model *m, enum coll c, double bytes, int concurrent,
		     struct coll_result *out);
/* The result for a forced algorithm (job.algo), falling back to NCCL's pick. */
const struct algo_result *coll_pick(const struct coll_result *r, int job_algo);

#endif
