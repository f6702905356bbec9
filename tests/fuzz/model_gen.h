/* model_gen.h: designs built from arbitrary bytes, to fuzz the model's cost.
 *
 * Every byte string is a design (short strings give small ones): server groups of up to
 * about 2^17 servers with any GPU count, scale-up fabric, CPU, sockets and NICs; switch
 * groups of any role, count and radix; bundles between any two groups with any wiring and
 * LAG; any fabric options and any job (degrees, buckets, recomputation, interleaving).
 * Only designs the check accepts matter (the designer refuses the others), and for those the
 * recompute must stay within 16 ms ("no design file can make a recompute take more than
 * 16 ms", issue 12). Links model/ only. */
#ifndef NCF_FUZZ_MODEL_GEN_H
#define NCF_FUZZ_MODEL_GEN_H
#include <stddef.h>
#include <stdint.h>
#include "model/metrics.h"

#define MODEL_GEN_LIMIT_MS 16.0

/* The catalog the generated designs name (catalog_free frees it). */
void model_gen_catalog(struct catalog *c);
/* The design data encodes (design_free frees it). */
void model_gen_design(const uint8_t *data, size_t size, const struct catalog *cat, struct design *d);
/* metrics_compute on d at 1 GiB, timed, in ms. */
double model_gen_recompute_ms(const struct design *d, const struct catalog *cat, struct metrics *m);

#endif
