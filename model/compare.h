/* compare.h: two designs side by side: what changed, and every headline number with its delta.
 *
 * design_diff walks the design's schema, so a field added to the file format is compared
 * without a change here. Groups are matched by name, bundles by their two ends, NIC entries
 * and notes by position; canvas positions are layout, not network, and are left out.
 * headlines_collect lists the numbers a reviewer compares (inventory, fabric, busbw of each
 * pattern with NCCL's pick, step time, speedup) from the same metrics the panel shows. */
#ifndef NCF_COMPARE_H
#define NCF_COMPARE_H
#include "model/inventory.h"
#include "model/metrics.h"

enum change_kind { CH_ADDED, CH_REMOVED, CH_CHANGED };
extern const char *const change_kind_names[];

struct design_change {
	int kind;
	char what[112];   /* "server group 'a100'", "bundle 'leaf -> spine'", "fabric", "design" */
	char field[64];   /* "nics[0].count"; empty for an added or removed object */
	char a[112], b[112]; /* values (for added/removed: a summary of the object) */
};

/* Changes from a to b, appended to out (struct design_change); returns how many. */
size_t design_diff(const struct design *a, const struct design *b, struct vec *out);

/* better: +1 higher is better, -1 lower is better, 0 neither (a count, a cost). */
struct headline {
	const char *key, *label, *unit;
	double value;
	int better;
	bool known;        /* false: not defined for this design (e.g. no job) */
	bool partial;      /* known for only some parts (power the catalog lacks): a lower bound */
	long unknown;      /* how many items lack it (with partial) */
};
#define HEADLINES_MAX 40

/* The headline numbers of a design; job_algo forces an algorithm as the job does (0: NCCL's). */
int headlines_collect(const struct inventory *inv, const struct metrics *m, int job_algo, struct headline *out,
		      int max);

/* The same from a design: inventory and metrics at `bytes` for the job's GPUs and algorithm.
 * cat is the design's own catalog (design_catalog). */
int headlines_of(const struct design *d, const struct catalog *cat, double bytes, struct headline *out, int max);

/* "32", "50.0 GB/s", "2:1", "n/a". */
const char *headline_value(const struct headline *h, char *buf, size_t size);
/* "+50.0 (+100%)", "=", "n/a -> 12.5", "unknown: ..." when either is partial (but "=" when
 * both lack the same number of parts and agree on the rest); *verdict: +1 better, -1 worse,
 * 0 same or neither. */
const char *headline_delta(const struct headline *a, const struct headline *b, int *verdict, char *buf, size_t size);

#endif
