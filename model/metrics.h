/* metrics.h: everything the metrics panel and `ncfabric report` show, in one call.
 *
 * metrics_compute builds the fabric for the job, NCCL's model of the job's communicator,
 * every pattern under every algorithm at one message size, the workload and its speedup,
 * and the bottleneck and advice. The UI, the report and the tests call this one function,
 * so a number on screen and in a report cannot disagree. Its cost depends on the number of
 * groups and bundles, not on the number of GPUs. */
#ifndef NCF_METRICS_H
#define NCF_METRICS_H
#include "model/workload.h"

#define PATTERNS 5 /* allreduce, allgather, reducescatter, alltoall, sendrecv */
#define ADVICE_MAX 10

struct metrics {
	struct fabric fabric;
	struct nccl_model nccl;        /* the job's whole communicator */
	double bytes;                  /* message size of the collective table */
	struct coll_losses loss[COLL_COUNT]; /* the fabric's losses on that communicator */
	struct coll_result colls[PATTERNS];
	struct workload work;
	char bottleneck[400];
	int nadvice;
	char advice[ADVICE_MAX][320];
	/* The change advice[i] names, as ':' commands of the designer separated by "; "
	 * ("set job.algo tree", "select a100->tor; set lag true"); "" when it names none
	 * that one edit can make. The designer applies it from the panel; u undoes it. */
	char advice_do[ADVICE_MAX][240];
	int gpus_asked;                /* metrics_compute's gpus (metrics_curve places them again) */
};

/* gpus 0: the job's own count. bytes: message size (nccl-tests "size"). Everything,
 * the workload's scaling curve included (the report). */
void metrics_compute(const struct design *d, const struct catalog *cat, double bytes, int gpus, struct metrics *m);
/* The same, the parts in `with` only among those a view may not show: METRICS_CURVE, the
 * workload's scaling curve (a dozen placements of the job; the designer makes it only while
 * its speedup plot is open). Every other figure is the same as metrics_compute's. */
#define METRICS_CURVE 1u
void metrics_compute_some(const struct design *d, const struct catalog *cat, double bytes, int gpus, unsigned with,
			  struct metrics *m);
/* Add the scaling curve to m (metrics_compute_some's, on the same d and cat) if it has none. */
void metrics_curve(const struct design *d, const struct catalog *cat, struct metrics *m);
/* Collective c at another size on the same fabric and communicator (for sweeps). */
void metrics_at(const struct metrics *m, enum coll c, double bytes, struct coll_result *out);
/* Append the topology engine's problems (fabric.problems) to diag. */
void metrics_problems(const struct metrics *m, struct ncf_diag *diag);
/* nccl-tests sweep sizes: 8 B to 16 GiB by doubling (32 sizes). */
int sweep_sizes(double *out, int max);

#endif
