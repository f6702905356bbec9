/* report.h: `ncfabric report` in text and JSON, from the model's results.
 *
 * The JSON object's keys are documented in ncfabric(1) and stay stable; later additions
 * only add keys. Nothing here computes: the numbers come from model/. */
#ifndef NCF_REPORT_H
#define NCF_REPORT_H
#include <stdio.h>
#include "model/inventory.h"
#include "model/metrics.h"
#include "model/failure.h"
#include "model/cost.h"

struct report_in {
	const struct design *design;
	const struct catalog *catalog;
	const char *catalog_source;
	const char *file;               /* the design's file, or "(built-in default)" */
	const struct inventory *inv;
	const struct ncf_diag *problems; /* of design_check */
	const struct metrics *metrics;
	bool sweep;                     /* add nccl-tests-style tables over sizes */
	/* --fail: the failure's outcome and the intact design's point (JSON adds "failure") */
	const struct fail_point *fail_before;
	const struct fail_outcome *failure;
	/* the capital cost (text section "Cost", JSON key "cost"); NULL: none shown */
	const struct bom *bom;
	const struct cost *cost;
	const char *prices_file;        /* the user's price file, NULL: catalog prices only */
};

/* "(FILE)" for a header line, or file as it is when it is already a name in parentheses,
 * such as "(built-in default)" (into buf). */
const char *report_file_label(const char *file, char *buf, size_t size);
void report_text(FILE *out, const struct report_in *r);
/* The JSON text (caller frees), NULL on failure. */
char *report_json(const struct report_in *r);

#endif
