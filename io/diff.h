/* diff.h: `ncfabric diff A B` and the compare view's data, as text or JSON.
 *
 * Nothing here computes: the changes and the numbers come from model/compare.h. */
#ifndef NCF_DIFF_H
#define NCF_DIFF_H
#include <stdio.h>
#include "model/compare.h"

struct diff_in {
	const char *name_a, *file_a, *name_b, *file_b;
	double bytes;                 /* message size of the busbw rows */
	const struct vec *changes;    /* struct design_change */
	const struct headline *ha, *hb;
	int n;                        /* rows in ha and hb (the same keys in the same order) */
};

void diff_text(FILE *out, const struct diff_in *d);
/* The JSON text (caller frees), NULL on failure. */
char *diff_json(const struct diff_in *d);
/* One line for a change: "server group 'a100': nics[0].count 4 -> 8". */
const char *change_text(const struct design_change *c, char *buf, size_t size);

#endif
