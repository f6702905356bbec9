#include "io/costreport.h"
#include <cJSON.h>
#include <math.h>
#include <string.h>

const char *format_money(double v, char *buf, size_t size)
{
	char digits[40];
	int n, i, o = 0, lead;
	bool neg = v < 0;
	if (fabs(v) < 100) { /* small figures (per token/s) keep their cents */
		snprintf(buf, size, "%.2f", v);
		return buf;
	}
	snprintf(digits, sizeof digits, "%.0f", fabs(v));
	n = (int)strlen(digits);
	lead = n % 3 ? n % 3 : 3;
	if (size < 2)
		return buf;
	if (neg && o + 1 < (int)size)
		buf[o++] = '-';
	for (i = 0; i < n && o + 2 < (int)size; i++) {
		if (i && (i - lead) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = 0;
	return buf;
}

static void line_label(const struct bom_line *l, char *buf, size_t size)
{
	if (l->length_m > 0)
		snprintf(buf, size, "%s %.1f m", l->model, l->length_m);
	else
		snprintf(buf, size, "%s", l->model);
}

void cost_text(FILE *out, const struct bom *b, const struct cost *c, const char *prices_file)
{
	char u[32], t[32], label[200];
	size_t i;
	int k, shown = 0;
	fprintf(out, "\nCost (%s; prices: %s%s)\n", c->currency, prices_file ? prices_file : "the catalog's stated list prices",
		prices_file ? ", then the catalog's stated list prices" : "");
	if (prices_file && strcmp(c->currency, "USD"))
		fprintf(out, "  (the catalog's list prices are in USD: not used with %s prices)\n", c->currency);
	fprintf(out, "  %-12s %-28s %6s %10s %12s  %-18s %s\n", "category", "part", "qty", "unit", "total", "price from", "where");
	for (i = 0; i < c->lines.n; i++) {
		const struct cost_line *cl = &VEC_AT(c->lines, struct cost_line, i);
		const struct bom_line *l = &VEC_AT(b->lines, struct bom_line, cl->line);
		char from[40];
		line_label(l, label, sizeof label);
		if (cl->from == PRICE_CATALOG)
			snprintf(from, sizeof from, "catalog %s", cl->date);
		else
			snprintf(from, sizeof from, "%s", price_from_names[cl->from]);
		fprintf(out, "  %-12s %-28.28s %6ld %10s %12s  %-18s %s\n", bom_category_names[l->category], label, l->quantity,
			cl->from ? format_money(cl->unit, u, sizeof u) : "?", cl->from ? format_money(cl->total, t, sizeof t) : "?",
			from, l->notes);
	}
	fprintf(out, "  by category  ");
	for (k = 0; k < BOM_CATEGORY_COUNT; k++) {
		if (c->by_category[k] <= 0 && !c->unknown_by_category[k])
			continue;
		fprintf(out, "%s%s %s%s", shown++ ? "; " : "", bom_category_names[k],
			c->by_category[k] > 0 || !c->unknown_by_category[k] ? format_money(c->by_category[k], t, sizeof t) : "unknown",
			c->by_category[k] > 0 && c->unknown_by_category[k] ? " + unknown" : "");
	}
	fprintf(out, "%s\n", shown ? "" : "nothing to buy");
	if (c->complete)
		fprintf(out, "  total        %s %s\n", format_money(c->total, t, sizeof t), c->currency);
	else
		fprintf(out, "  total        unknown: %d of %zu lines have no price (%s %s for the rest)\n", c->unknown,
			c->lines.n, format_money(c->total, t, sizeof t), c->currency);
	fprintf(out, "  power        ");
	{
		/* A partial sum says which parts it covers: 30.7 kW of optics is not the typical
		 * power of a SuperPOD whose servers publish only a maximum. */
		char known[160], lacking[160];
		bom_categories_text(b->typ_known_cats, known, sizeof known);
		bom_categories_text(b->typ_unknown_cats, lacking, sizeof lacking);
		if (b->typ_W > 0 && b->typ_unknown_cats)
			fprintf(out, "typical %.1f kW for the %s only (partial: the %s publish no typical figure)", b->typ_W / 1000,
				known, lacking);
		else if (b->typ_W > 0)
			fprintf(out, "%.1f kW typical", b->typ_W / 1000);
		else
			fprintf(out, "typical not published");
		bom_categories_text(b->max_unknown_cats, lacking, sizeof lacking);
		if (b->max_W > 0 && b->max_unknown_cats)
			fprintf(out, ", %.1f kW maximum (partial: the %s publish no maximum)\n", b->max_W / 1000, lacking);
		else if (b->max_W > 0)
			fprintf(out, ", %.1f kW maximum\n", b->max_W / 1000);
		else
			fprintf(out, ", maximum not published\n");
	}
	if (c->complete && c->total > 0) {
		fprintf(out, "  per GPU      %s %s\n", format_money(c->per_gpu, t, sizeof t), c->currency);
		if (c->per_bisection_GBps > 0)
			fprintf(out, "  per GB/s     %s %s of bisection\n", format_money(c->per_bisection_GBps, t, sizeof t),
				c->currency);
		if (c->per_token_s > 0)
			fprintf(out, "  per token/s  %s %s (the job's tokens/s)\n", format_money(c->per_token_s, t, sizeof t),
				c->currency);
	} else {
		fprintf(out, "  per GPU, per GB/s of bisection, per token/s: unknown until every line has a price%s\n",
			prices_file ? "" : " (--prices FILE)");
	}
	for (i = 0; i < c->lines.n; i++) {
		const struct cost_line *cl = &VEC_AT(c->lines, struct cost_line, i);
		size_t j;
		bool first = true;
		if (cl->from != PRICE_CATALOG)
			continue;
		for (j = 0; j < i; j++) /* each part's source once */
			if (VEC_AT(c->lines, struct cost_line, j).source == cl->source)
				first = false;
		if (first)
			fprintf(out, "  list price of %s: %s, %s\n", VEC_AT(b->lines, struct bom_line, cl->line).model, cl->source,
				cl->date);
	}
}

static void money_or_null(cJSON *o, const char *key, bool known, double v)
{
	if (known)
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

struct cJSON *cost_json(const struct bom *b, const struct cost *c, const char *prices_file)
{
	cJSON *o = cJSON_CreateObject(), *cats, *lines, *pw;
	size_t i;
	int k;
	cJSON_AddStringToObject(o, "currency", c->currency);
	if (prices_file)
		cJSON_AddStringToObject(o, "prices_file", prices_file);
	else
		cJSON_AddNullToObject(o, "prices_file");
	cJSON_AddBoolToObject(o, "complete", c->complete);
	money_or_null(o, "total", c->complete, c->total);
	cJSON_AddNumberToObject(o, "known_total", c->total);
	cJSON_AddNumberToObject(o, "unknown_lines", c->unknown);
	cats = cJSON_AddObjectToObject(o, "by_category");
	for (k = 0; k < BOM_CATEGORY_COUNT; k++) {
		cJSON *e = cJSON_AddObjectToObject(cats, bom_category_names[k]);
		money_or_null(e, "total", !c->unknown_by_category[k], c->by_category[k]);
		cJSON_AddNumberToObject(e, "unknown_lines", c->unknown_by_category[k]);
	}
	lines = cJSON_AddArrayToObject(o, "lines");
	for (i = 0; i < c->lines.n; i++) {
		const struct cost_line *cl = &VEC_AT(c->lines, struct cost_line, i);
		const struct bom_line *l = &VEC_AT(b->lines, struct bom_line, cl->line);
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "category", bom_category_names[l->category]);
		cJSON_AddStringToObject(e, "model", l->model);
		cJSON_AddStringToObject(e, "part", l->part);
		cJSON_AddNumberToObject(e, "length_m", l->length_m);
		cJSON_AddNumberToObject(e, "quantity", (double)l->quantity);
		money_or_null(e, "unit_price", cl->from != PRICE_UNKNOWN, cl->unit);
		money_or_null(e, "total", cl->from != PRICE_UNKNOWN, cl->total);
		cJSON_AddStringToObject(e, "price_from", price_from_names[cl->from]);
		if (cl->from == PRICE_CATALOG) {
			cJSON_AddStringToObject(e, "source", cl->source);
			cJSON_AddStringToObject(e, "date", cl->date);
		}
		cJSON_AddItemToArray(lines, e);
	}
	pw = cJSON_AddObjectToObject(o, "power");
	/* null when no part publishes the figure; partial sums say so with the counts */
	if (b->typ_W > 0)
		cJSON_AddNumberToObject(pw, "typical_W", b->typ_W);
	else
		cJSON_AddNullToObject(pw, "typical_W");
	if (b->max_W > 0)
		cJSON_AddNumberToObject(pw, "max_W", b->max_W);
	else
		cJSON_AddNullToObject(pw, "max_W");
	cJSON_AddNumberToObject(pw, "typical_unknown", b->typ_unknown);
	cJSON_AddNumberToObject(pw, "max_unknown", b->max_unknown);
	money_or_null(o, "per_gpu", c->complete && c->per_gpu > 0, c->per_gpu);
	money_or_null(o, "per_bisection_GBps", c->complete && c->per_bisection_GBps > 0, c->per_bisection_GBps);
	money_or_null(o, "per_token_s", c->complete && c->per_token_s > 0, c->per_token_s);
	return o;
}
