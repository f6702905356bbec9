/* optreport.h: `ncfabric optimize` in text (the Pareto front, a plot of cost against the
 * target metric) and JSON. Nothing here computes: the figures come from layouts/optimize.h.
 * The JSON keys are documented in ncfabric(1) ("OPTIMIZE") and stay stable. */
#ifndef NCF_OPTREPORT_H
#define NCF_OPTREPORT_H
#include <stdio.h>
#include "layouts/optimize.h"

void opt_text(FILE *out, const struct opt_space *s, const struct opt_request *r, const struct opt_result *res,
	      const char *currency);
/* The plot alone: width x height cells of cost (x) against the metric (y). */
void opt_plot(FILE *out, const struct opt_space *s, const struct opt_request *r, const struct opt_result *res, int width,
	      int height);
char *opt_json(const struct opt_space *s, const struct opt_request *r, const struct opt_result *res,
	       const char *currency);

#endif
