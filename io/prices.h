/* prices.h: the user's price file (`--prices FILE`), YAML read through libyaml (parse.h).
 *
 *   currency: EUR          # optional: the currency of every entry that names none
 *   prices:
 *     - part: qm9700       # a catalog name or a part number (as the BOM shows it)
 *       price: 25000       # per unit, > 0
 *       currency: EUR      # optional; three capital letters (ISO 4217)
 *
 * Strict: unknown keys, a missing part or price, a price that is not a positive number, a
 * part listed twice, and entries in different currencies are errors at FILE:LINE:COL,
 * all of them in one run. A price file never loads half. A part that neither the catalog
 * nor the design's BOM knows is a warning (prices_check_parts). */
#ifndef NCF_PRICES_H
#define NCF_PRICES_H
#include <stdbool.h>
#include <stddef.h>
#include "model/cost.h"
#include "model/diag.h"

bool prices_load_text(const char *text, size_t len, struct price_list *out, struct ncf_diag *diag);
bool prices_load_file(const char *path, struct price_list *out, struct ncf_diag *diag);
/* Warnings (at the entry's FILE:LINE:COL, with the nearest name when one is close) for
 * entries whose part is no catalog name or part number and no line of b (b may be NULL):
 * a typo would otherwise leave a price silently unused. */
struct bom;
void prices_check_parts(const struct price_list *p, const struct catalog *cat, const struct bom *b, struct ncf_diag *diag);

#endif
