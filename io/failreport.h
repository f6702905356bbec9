/* failreport.h: what a failure costs, in text and JSON (`ncfabric report FILE --fail SPEC`,
 * `ncfabric failures FILE`). Nothing here computes: the figures come from model/failure.h.
 * The JSON keys are documented in ncfabric(1) ("FAILURES") and stay stable. */
#ifndef NCF_FAILREPORT_H
#define NCF_FAILREPORT_H
#include <stdio.h>
#include "model/failure.h"

struct cJSON;

extern const char *const fail_response_names[]; /* "reroute", "job-fails", "no-network" */

/* One failure: its change, NCCL's response, before and after, and what shrinks. */
void failure_text(FILE *out, const char *file, const struct design *d, const struct fail_point *before,
		  const struct fail_outcome *o);
struct cJSON *failure_json(const struct fail_point *before, const struct fail_outcome *o);
/* N-1: every single failure, ranked (fail_rank). */
void failures_text(FILE *out, const char *file, const struct design *d, const struct fail_point *before,
		   const struct fail_outcome *o, int n);
char *failures_json(const char *file, const struct design *d, const struct fail_point *before,
		    const struct fail_outcome *o, int n);

#endif
