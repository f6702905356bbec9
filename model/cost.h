/* cost.h: the capital cost of a design, line by line from its bill of materials (bom.h).
 *
 * A line's unit price comes from the user's price list (part, price, currency; matched
 * against the line's catalog name or its part number), else from the catalog's list price
 * (cat_price: stated by a public source, in US dollars, with its date) when the user's
 * currency is US dollars or none is given, else it is unknown: nothing is ever estimated.
 * Lines included in another (a server's GPUs and built-in NICs) cost nothing of their own.
 * A cable or fibre's price is per piece, whatever its length.
 *
 * Totals are sums of the lines, per category and in all; with unknown lines they are the
 * sum of the known ones and say so (complete false). Figures of merit divide the total by
 * the GPUs, the bisection (GB/s) and the job's tokens/s; 0 when a divisor is 0. */
#ifndef NCF_COST_H
#define NCF_COST_H
#include <stdbool.h>
#include "model/bom.h"

#define COST_CURRENCY_MAX 8

struct price_entry {
	char part[NCF_NAME_MAX];      /* a catalog name or a part number */
	double price;                 /* per unit */
	char currency[COST_CURRENCY_MAX];
	int line, col;                /* where the price file gives it (0: not from a file) */
};

/* The user's prices; currency is that of every entry (the loader refuses a mix). */
struct price_list {
	struct vec entries;           /* struct price_entry */
	char currency[COST_CURRENCY_MAX];
};

enum price_from { PRICE_UNKNOWN, PRICE_USER, PRICE_CATALOG };
extern const char *const price_from_names[]; /* "unknown", "prices", "catalog" */

struct cost_line {
	size_t line;                  /* index in the BOM's lines */
	int from;                     /* enum price_from */
	double unit, total;           /* 0 when unknown */
	const char *source;           /* PRICE_CATALOG: the catalog's source text (in the catalog) */
	const char *date;
};

struct cost {
	char currency[COST_CURRENCY_MAX]; /* "USD" unless the user's list says otherwise */
	struct vec lines;             /* struct cost_line, one per BOM line to buy */
	double by_category[BOM_CATEGORY_COUNT];
	int unknown_by_category[BOM_CATEGORY_COUNT]; /* lines without a price */
	double total;                 /* of the known lines */
	int unknown;                  /* lines without a price */
	int from_user, from_catalog;  /* lines priced by each */
	bool complete;                /* every line to buy has a price */
	double per_gpu, per_bisection_GBps, per_token_s; /* total / divisor; 0 when the divisor is */
};

void price_list_init(struct price_list *p);
void price_list_free(struct price_list *p);
/* The price of part `name` or `part` in p, or NULL. */
const struct price_entry *price_find(const struct price_list *p, const char *name, const char *part);

/* user may be NULL (catalog prices only). */
void cost_compute(const struct bom *b, const struct catalog *cat, const struct price_list *user, long gpus,
		  double bisection_GBps, double tokens_per_s, struct cost *out);
void cost_free(struct cost *c);

/* The headline rows of a cost for `ncfabric diff` (compare.h): cost (known only when
 * complete), cost_per_gpu, cost_per_bisection_GBps, cost_per_token_s (lower is better)
 * and power_typ_kw. Units point into c (its currency): c must outlive them. */
struct headline;
int cost_headlines(const struct cost *c, const struct bom *b, struct headline *out, int max);

#endif
