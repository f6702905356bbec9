/* tune.h: the cheapest variant of a design that meets a job's target (the designer's
 * :optimize), by the same grid search as optimize.h, over the design's own parameters
 * instead of a template's.
 *
 * Axes, each named as :optimize takes it (KEY=a,b,c replaces or adds one):
 *   routing          the design's own, then ecmp and adaptive (ties go to the first)
 *   FROM->TO.links   links from each member of a bundle between two switch groups (its
 *                    uplinks, so the oversubscription): L/4, L/2, 3L/4, L and 2L of its L
 *   GROUP.nics       compute NICs per server of a server group that has one compute NIC
 *                    model and buys its NICs (not built into the server): half, the same,
 *                    double; every bundle from the group keeps its links per NIC
 *   GROUP.model      a switch group's model: every catalog switch of the same protocol
 *                    and port speed
 * Each candidate is a copy of the design with the axes' values, checked as any design is
 * (design_check: an error, such as more ports than a switch has, makes it not built with
 * the reason), then priced and computed with optimize.h's opt_evaluate, so its cost, front
 * and choice are those `ncfabric optimize` would give for the same designs. Every
 * candidate of the grid is evaluated. */
#ifndef NCF_TUNE_H
#define NCF_TUNE_H
#include "layouts/optimize.h"

enum tune_kind { TK_ROUTING, TK_LINKS, TK_NICS, TK_MODEL };

struct tune_axis {
	char name[2 * NCF_NAME_MAX + 16];
	int kind;                      /* enum tune_kind */
	int index;                     /* the bundle, server group or switch group */
	int nic;                       /* TK_NICS: the compute NIC in the group's list */
	int nvalues;
	char values[OPT_MAX_VALUES][64];
	int own;                       /* the value the design has, -1 when it is not among them */
};

struct tune_space {
	const struct design *base;     /* the design the candidates vary (not owned) */
	int naxes;
	struct tune_axis axes[OPT_MAX_AXES];
};

/* The default axes of d (above), with cat the design's catalog (shipped + overrides). */
void tune_space_default(const struct design *d, const struct catalog *cat, struct tune_space *s);
/* Replace or add the axis KEY=V1,V2,... (values checked as the axis takes them). */
bool tune_axis_set(struct tune_space *s, const char *kv, const struct catalog *cat, char *err, size_t errsz);
long tune_space_size(const struct tune_space *s);
/* Candidate `choice` into d (design_init-ed here; free it whatever the result). false, with
 * err, when the design it makes has an error. */
bool tune_build(const struct tune_space *s, const struct catalog *cat, const int *choice, struct design *d, char *err,
		size_t errsz);
/* Every candidate of the grid, as opt_run does (r->job NULL: the design's own job). */
bool tune_run(const struct tune_space *s, const struct catalog *shipped, const struct opt_request *r,
	      struct opt_result *out, char *err, size_t errsz);
/* "tor.model=sn4600, routing=adaptive": the values that differ from the design's own
 * ("the design as it is" when none does). */
const char *tune_candidate_text(const struct tune_space *s, const struct opt_candidate *c, char *buf, size_t size);

#endif
