/* cost.c: capital cost line by line (cost.h). */
#include "model/cost.h"
#include "model/compare.h"
#include <stdio.h>
#include <string.h>

const char *const price_from_names[] = { "unknown", "prices", "catalog", NULL };

void price_list_init(struct price_list *p)
{
	memset(p, 0, sizeof *p);
}

void price_list_free(struct price_list *p)
{
	vec_release(&p->entries);
	memset(p, 0, sizeof *p);
}

const struct price_entry *price_find(const struct price_list *p, const char *name, const char *part)
{
	size_t i;
	if (!p)
		return NULL;
	for (i = 0; i < p->entries.n; i++) {
		const struct price_entry *e = &VEC_AT(p->entries, struct price_entry, i);
		if ((name && name[0] && !strcmp(e->part, name)) || (part && part[0] && !strcmp(e->part, part)))
			return e;
	}
	return NULL;
}

/* The catalog's stated list price of a BOM line's part, or NULL. */
static const struct cat_price *catalog_price(const struct catalog *cat, const struct bom_line *l)
{
	const struct cat_price *p = NULL;
	switch (l->category) {
	case BOM_SERVER: {
		const struct cat_server *s = catalog_server(cat, l->model);
		p = s ? &s->list_price : NULL;
		break;
	}
	case BOM_NIC: {
		const struct cat_nic *n = catalog_nic(cat, l->model);
		p = n ? &n->list_price : NULL;
		break;
	}
	case BOM_NVSWITCH_TRAY: {
		const struct cat_fabric *f = catalog_fabric(cat, l->model);
		p = f ? &f->list_price : NULL;
		break;
	}
	case BOM_SWITCH: {
		const struct cat_switch *s = catalog_switch(cat, l->model);
		p = s ? &s->list_price : NULL;
		break;
	}
	case BOM_CABLE:
	case BOM_TRANSCEIVER: {
		const struct cat_cable *c = catalog_cable(cat, l->model);
		p = c ? &c->list_price : NULL;
		break;
	}
	case BOM_FIBRE: {
		const struct cat_fibre *f = catalog_fibre(cat, l->model);
		p = f ? &f->list_price : NULL;
		break;
	}
	default:
		break;
	}
	return p && p->usd > 0 ? p : NULL;
}

void cost_compute(const struct bom *b, const struct catalog *cat, const struct price_list *user, long gpus,
		  double bisection_GBps, double tokens_per_s, struct cost *out)
{
	size_t i;
	bool usd = !user || !user->currency[0] || !strcmp(user->currency, "USD");
	memset(out, 0, sizeof *out);
	snprintf(out->currency, sizeof out->currency, "%s", user && user->currency[0] ? user->currency : "USD");
	for (i = 0; i < b->lines.n; i++) {
		const struct bom_line *l = &VEC_AT(b->lines, struct bom_line, i);
		const struct price_entry *e;
		const struct cat_price *cp;
		struct cost_line *c;
		if (l->included || l->quantity <= 0)
			continue;
		c = vec_push(&out->lines, sizeof *c);
		c->line = i;
		if ((e = price_find(user, l->model, l->part)) != NULL) {
			c->from = PRICE_USER;
			c->unit = e->price;
			out->from_user++;
		} else if (usd && (cp = catalog_price(cat, l)) != NULL) {
			c->from = PRICE_CATALOG;
			c->unit = cp->usd;
			c->source = cp->source;
			c->date = cp->date;
			out->from_catalog++;
		} else {
			c->from = PRICE_UNKNOWN;
			out->unknown++;
			out->unknown_by_category[l->category]++;
			continue;
		}
		c->total = c->unit * (double)l->quantity;
		out->by_category[l->category] += c->total;
		out->total += c->total;
	}
	out->complete = out->unknown == 0;
	out->per_gpu = gpus > 0 ? out->total / (double)gpus : 0;
	out->per_bisection_GBps = bisection_GBps > 0 ? out->total / bisection_GBps : 0;
	out->per_token_s = tokens_per_s > 0 ? out->total / tokens_per_s : 0;
}

void cost_free(struct cost *c)
{
	vec_release(&c->lines);
	memset(c, 0, sizeof *c);
}

static void row(struct headline *out, int *n, int max, const char *key, const char *label, const char *unit, double v,
		int better, bool known)
{
	if (*n >= max)
		return;
	out[*n].key = key;
	out[*n].label = label;
	out[*n].unit = unit;
	out[*n].value = known ? v : 0;
	out[*n].better = better;
	out[*n].known = known;
	out[*n].partial = false;
	out[*n].unknown = 0;
	(*n)++;
}

int cost_headlines(const struct cost *c, const struct bom *b, struct headline *out, int max)
{
	int n = 0;
	bool k = c->complete && c->total > 0;
	row(out, &n, max, "cost", "capital cost", c->currency, c->total, -1, k);
	row(out, &n, max, "cost_per_gpu", "cost per GPU", c->currency, c->per_gpu, -1, k && c->per_gpu > 0);
	row(out, &n, max, "cost_per_bisection_GBps", "cost per GB/s of bisection", c->currency, c->per_bisection_GBps, -1,
	    k && c->per_bisection_GBps > 0);
	row(out, &n, max, "cost_per_token_s", "cost per token/s", c->currency, c->per_token_s, -1, k && c->per_token_s > 0);
	row(out, &n, max, "power_typ_kw", "power, typical", "kW", b->typ_W / 1000.0, 0, b->typ_W > 0 && !b->typ_unknown);
	return n;
}
