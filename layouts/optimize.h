/* optimize.h: the cheapest design of a template that meets a job's target.
 *
 * The search space is a grid over some of a template's parameters (axes), every other
 * parameter at its default or the user's value; the design-level `routing` (ecmp, adaptive,
 * spray) is an axis too. Each candidate is built through the template (template.h: the
 * same checks as any design), given the user's job, priced line by line (cost.h: known only
 * when every line to buy has a price) and computed with the model (metrics.h). Nothing is
 * sampled or estimated: every candidate of the grid is evaluated, so the front and the
 * choice are exact for the grid.
 *
 * Default axes: every choice parameter over its choices, `oversubscription` over 1, 2, 3
 * and 4 where the template has it, and routing over ecmp and adaptive; `ncfabric optimize`
 * adds the same-speed alternatives of its NIC and switch models (opt_space_parts). KEY=a,b,c names an
 * axis's values (a whole-number parameter also takes LO..HI, a part parameter * for every
 * catalog part of its kind).
 *
 * The target is "at least VALUE" of one metric: efficiency (the step-time form, 0..1),
 * tokens (the job's tokens/s) or busbw (AllReduce busbw of the job's algorithm, GB/s, at
 * the request's message size). The Pareto front: candidates with a known cost and metric
 * that no other candidate beats on both (lower or equal cost and higher metric, or lower
 * cost and equal metric). The choice: the cheapest that meets the target within the
 * budget; among equal costs the higher metric, then the first in grid order. */
#ifndef NCF_OPTIMIZE_H
#define NCF_OPTIMIZE_H
#include <stdbool.h>
#include <stddef.h>
#include "layouts/template.h"
#include "model/cost.h"
#include "model/design.h"

#define OPT_MAX_AXES 10
#define OPT_MAX_VALUES 64
#define OPT_MAX_CANDIDATES 200000

enum opt_metric { OPT_EFFICIENCY, OPT_TOKENS, OPT_BUSBW, OPT_METRIC_COUNT };
extern const char *const opt_metric_names[]; /* "efficiency", "tokens", "busbw" */

struct opt_axis {
	char name[32];
	int param;                     /* index in the template's parameters; -1: routing */
	int nvalues;
	char values[OPT_MAX_VALUES][64];
};

struct opt_space {
	const struct template *t;
	struct tvalues base;           /* every parameter's value off the axes */
	int naxes;
	struct opt_axis axes[OPT_MAX_AXES];
};

struct opt_request {
	int metric;                    /* enum opt_metric */
	double target;                 /* at least this */
	double budget;                 /* at most this cost; 0: none */
	double bytes;                  /* message size for busbw */
	const struct job *job;         /* the job every candidate runs */
	const struct price_list *prices;
};

struct opt_candidate {
	int choice[OPT_MAX_AXES];      /* value index per axis */
	bool built;                    /* the template built it */
	char why[240];                 /* why not, or why its cost or metric is unknown */
	bool cost_known, metric_known;
	double cost, metric;
	bool meets;                    /* metric >= target and within the budget */
	bool front;                    /* on the Pareto front */
};

struct opt_result {
	struct opt_candidate *c;       /* every candidate, in grid order */
	long n;
	long built, priced, evaluated; /* candidates built, with a known cost, with a known metric */
	long best;                     /* the choice, -1 when none meets the target */
	long *front;                   /* indices of the front, by cost */
	long nfront;
	char missing[400];             /* parts without a price in the first unpriced candidate */
};

/* The template's default axes (see above) over base. */
void opt_space_default(const struct template *t, const struct tvalues *base, struct opt_space *s);
/* Add an axis for every NIC and switch parameter off the grid whose catalog part has
 * alternatives of the same protocol and port speed (and, for a NIC, ports): the value first,
 * then those. Such a swap keeps every link's speed, so it costs a factor of a few candidates
 * at most (the shipped InfiniBand parts have none: one switch and one NIC per speed). */
void opt_space_parts(struct opt_space *s, const struct catalog *cat);
/* Replace or add the axis KEY=VALUES. Each value is checked as template_set checks it. */
bool opt_axis_set(struct opt_space *s, const char *kv, const struct catalog *cat, char *err, size_t errsz);
/* Candidates in the grid (the product of the axes' value counts). */
long opt_space_size(const struct opt_space *s);
/* "efficiency=0.8" (also 80%), "tokens=200000", "busbw=40". */
bool opt_target_parse(const char *text, int *metric, double *value, char *err, size_t errsz);

/* Build candidate `choice` with the request's job into d (design_init-ed here). */
bool opt_build(const struct opt_space *s, const struct catalog *shipped, const struct job *job, const int *choice,
	       struct design *d, char *err, size_t errsz);
/* Evaluate the whole grid. False (with err) when the grid is larger than OPT_MAX_CANDIDATES. */
bool opt_run(const struct opt_space *s, const struct catalog *shipped, const struct opt_request *r,
	     struct opt_result *out, char *err, size_t errsz);
void opt_result_free(struct opt_result *r);
/* One built candidate d (its job set): priced and computed into c, counted in out (m is
 * scratch). The design's own search (tune.h) shares it, and opt_finish. */
struct metrics;
void opt_evaluate(const struct design *d, const struct catalog *shipped, const struct opt_request *r, struct metrics *m,
		  struct opt_candidate *c, struct opt_result *out);
/* The front and the choice over out's candidates (out->n of them, evaluated). */
void opt_finish(struct opt_result *out);
/* "oversubscription=2, wiring=tor, routing=adaptive": the candidate's axis values. */
const char *opt_candidate_text(const struct opt_space *s, const struct opt_candidate *c, char *buf, size_t size);

#endif
