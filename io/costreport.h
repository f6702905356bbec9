/* costreport.h: the capital cost and power of a design in text and JSON (`report`, with
 * `--prices FILE`). Nothing here computes: the figures come from model/cost.h and bom.h.
 * The JSON keys (under "cost") are documented in ncfabric(1) and stay stable. */
#ifndef NCF_COSTREPORT_H
#define NCF_COSTREPORT_H
#include <stdio.h>
#include "model/cost.h"

struct cJSON;

/* 1234567.8 as "1,234,568" (whole units). */
const char *format_money(double v, char *buf, size_t size);
/* prices_file: the user's price file, NULL for catalog prices only. */
void cost_text(FILE *out, const struct bom *b, const struct cost *c, const char *prices_file);
struct cJSON *cost_json(const struct bom *b, const struct cost *c, const char *prices_file);

#endif
