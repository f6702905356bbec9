/* history.h: undo and redo steps that hold only what an edit changed.
 *
 * A patch holds, for each list of the design an edit changed (server groups, bundles,
 * canvas positions, the design's own catalog parts, ... every FT_LIST its schema has),
 * the runs of elements that differ, and the design's scalar fields (its name, the job,
 * the fabric options, ...) when one of them changed. Applying a patch swaps those runs and
 * fields with the design's: the design takes the other state and the patch now holds the
 * one the design had, so one patch moves from the undo stack to the redo stack and back.
 * An edit of one group costs the memory of that group, not of the design.
 *
 * Elements are compared over their schema's fields and the bytes before the first field
 * (the id of groups and bundles, which undo must give back too); the design's bytes no
 * field covers (its next id) count as scalar fields. Elements move between the design and
 * a patch by their bytes, so what they own (a group's NIC list) moves with them. */
#ifndef NCF_HISTORY_H
#define NCF_HISTORY_H
#include <stdbool.h>
#include "model/design.h"

struct patch {
	struct design *head;   /* the scalar fields of the other state (its lists empty), or NULL */
	struct vec runs;       /* struct patch_run */
	size_t bytes;          /* memory the patch holds, about */
};

/* Make a equal to b (b is not changed) with the fewest copies: each run of a's elements
 * that differs from b's is moved into p and replaced by copies of b's. Afterwards applying
 * p to a design equal to b gives back what a was. p must be empty (zeroed) before; returns
 * false when a and b were equal already (p is left empty). */
bool patch_make(struct design *a, const struct design *b, struct patch *p);
/* Swap p's runs and scalar fields with d's: d takes the state p holds, p the one d had.
 * False, and nothing changed, when a run does not fit d's lists (d is not the state p was
 * made against). */
bool patch_apply(struct design *d, struct patch *p);
void patch_free(struct patch *p);

#endif
