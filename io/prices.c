/* prices.c: the user's price file (prices.h). */
#include "io/prices.h"
#include "io/file.h"
#include "io/parse.h"
#include "model/num.h"
#include "model/alloc.h"
#include "model/bom.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool currency_ok(const char *s)
{
	return strlen(s) == 3 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z' && s[2] >= 'A' && s[2] <= 'Z';
}

/* A scalar value of key in map m (its position in *node), or NULL with an error. */
static const char *scalar(const struct tnode *v, const char *what, struct ncf_diag *diag)
{
	if (v->kind != TN_SCALAR) {
		diag_add_at(diag, NCF_ERROR, v->line, v->col, "expected a single value for '%s', got a %s", what,
			    v->kind == TN_MAP ? "mapping" : "list");
		return NULL;
	}
	return v->text;
}

/* One entry. Every error in it is reported (a bad key does not hide a bad price); false
 * when there was one. */
/* Every part named so far, valid entry or not: a part named twice is an error either way. */
struct seen_part {
	char part[NCF_NAME_MAX];
	int line, col;
};

static bool entry(const struct tnode *e, const char *deflt, struct price_list *out, int *cline, int *ccol,
		  struct vec *seen, struct ncf_diag *diag)
{
	size_t k;
	struct price_entry pe;
	bool have_part = false, have_price = false, seen_part = false, seen_price = false, ok = true;
	size_t j;
	memset(&pe, 0, sizeof pe);
	if (e->kind != TN_MAP) {
		diag_add_at(diag, NCF_ERROR, e->line, e->col, "expected a price as a mapping of part, price, currency");
		return false;
	}
	pe.line = e->line;
	pe.col = e->col;
	for (k = 0; k < e->n; k++) {
		const char *key = e->keys[k], *t;
		const struct tnode *v = e->kids[k];
		if (!strcmp(key, "part")) {
			seen_part = true;
			if (!(t = scalar(v, key, diag))) {
				ok = false;
			} else if (!t[0] || strlen(t) >= sizeof pe.part) {
				diag_add_at(diag, NCF_ERROR, v->line, v->col, "expected a part name of 1 to %zu characters",
					    sizeof pe.part - 1);
				ok = false;
			} else {
				snprintf(pe.part, sizeof pe.part, "%s", t);
				pe.line = v->line;
				pe.col = v->col;
				have_part = true;
			}
		} else if (!strcmp(key, "price")) {
			char why[120];
			double x;
			seen_price = true;
			if (!(t = scalar(v, key, diag))) {
				ok = false;
			} else if (v->quoted || num_parse_real(t, &x, why, sizeof why) != NUM_OK || !(x > 0) || x > 1e12) {
				diag_add_at(diag, NCF_ERROR, v->line, v->col,
					    "expected a price above 0 (up to 1e12) for 'price', got '%.40s'", t);
				ok = false;
			} else {
				pe.price = x;
				have_price = true;
			}
		} else if (!strcmp(key, "currency")) {
			if (!(t = scalar(v, key, diag))) {
				ok = false;
			} else if (!currency_ok(t)) {
				diag_add_at(diag, NCF_ERROR, v->line, v->col,
					    "expected a currency code of three capital letters (USD, EUR, ...), got '%.20s'", t);
				ok = false;
			} else if (out->currency[0] && strcmp(out->currency, t)) {
				diag_add_at(diag, NCF_ERROR, v->line, v->col,
					    "all prices must be in one currency: %s here, %s at line %d column %d", t,
					    out->currency, *cline, *ccol);
				ok = false;
			} else {
				snprintf(pe.currency, sizeof pe.currency, "%s", t);
				if (!out->currency[0]) {
					snprintf(out->currency, sizeof out->currency, "%s", t);
					*cline = v->line;
					*ccol = v->col;
				}
			}
		} else {
			diag_add_at(diag, NCF_ERROR, e->kline[k], e->kcol[k],
				    "unknown key '%.40s' in a price (expected part, price, currency)", key);
			ok = false;
		}
	}
	if (have_part) {
		struct seen_part *sp;
		for (j = 0; j < seen->n; j++) {
			const struct seen_part *o = &VEC_AT(*seen, struct seen_part, j);
			if (!strcmp(o->part, pe.part)) {
				diag_add_at(diag, NCF_ERROR, pe.line, pe.col, "part '%s' is priced twice (first at line %d column %d)",
					    pe.part, o->line, o->col);
				ok = false;
				break;
			}
		}
		if (j == seen->n) {
			sp = vec_push(seen, sizeof *sp);
			snprintf(sp->part, sizeof sp->part, "%s", pe.part);
			sp->line = pe.line;
			sp->col = pe.col;
		}
	}
	if (!seen_part || !seen_price) {
		diag_add_at(diag, NCF_ERROR, e->line, e->col, "a price needs '%s'", !seen_part ? "part" : "price");
		ok = false;
	}
	if (!ok || !have_part || !have_price)
		return false;
	if (!pe.currency[0]) {
		if (!deflt || !deflt[0]) {
			diag_add_at(diag, NCF_ERROR, e->line, e->col,
				    "the price of '%s' names no currency (give 'currency' here or at the top)", pe.part);
			return false;
		}
		snprintf(pe.currency, sizeof pe.currency, "%s", deflt);
	}
	*(struct price_entry *)vec_push(&out->entries, sizeof pe) = pe;
	return true;
}

bool prices_load_text(const char *text, size_t len, struct price_list *out, struct ncf_diag *diag)
{
	struct tnode *root;
	const struct tnode *list = NULL;
	const char *deflt = NULL;
	int cline = 0, ccol = 0;
	size_t k;
	bool ok = true;
	struct vec seen = { 0 };
	price_list_init(out);
	if (!text_check_nul(text, len, diag))
		return false;
	root = parse_yaml(text, len, diag);
	if (!root)
		return false;
	if (root->kind != TN_MAP) {
		diag_add_at(diag, NCF_ERROR, root->line, root->col, "expected a mapping with 'prices' (and 'currency')");
		tnode_free(root);
		return false;
	}
	for (k = 0; k < root->n; k++) {
		const struct tnode *v = root->kids[k];
		if (!strcmp(root->keys[k], "prices")) {
			if (v->kind != TN_SEQ) {
				diag_add_at(diag, NCF_ERROR, v->line, v->col, "expected a list of prices for 'prices'");
				ok = false;
			}
			list = v;
		} else if (!strcmp(root->keys[k], "currency")) {
			const char *t = scalar(v, "currency", diag);
			if (!t || !currency_ok(t)) {
				if (t)
					diag_add_at(diag, NCF_ERROR, v->line, v->col,
						    "expected a currency code of three capital letters (USD, EUR, ...), got '%.20s'", t);
				ok = false;
			} else {
				deflt = t;
				snprintf(out->currency, sizeof out->currency, "%s", t);
				cline = v->line;
				ccol = v->col;
			}
		} else {
			diag_add_at(diag, NCF_ERROR, root->kline[k], root->kcol[k],
				    "unknown key '%.40s' in a price file (expected prices, currency)", root->keys[k]);
			ok = false;
		}
	}
	if (!list && ok) {
		diag_add_at(diag, NCF_ERROR, root->line, root->col, "a price file needs 'prices'");
		ok = false;
	}
	/* Every entry is read, so that one run reports every error. */
	for (k = 0; list && list->kind == TN_SEQ && k < list->n; k++)
		if (!entry(list->kids[k], deflt, out, &cline, &ccol, &seen, diag))
			ok = false;
	vec_release(&seen);
	tnode_free(root);
	if (!ok)
		price_list_free(out);
	return ok;
}

/* ---- names the BOM and the catalog know ------------------------------------------------ */

struct names {
	struct vec v; /* char[CP_NAME_MAX] each (BOM models are that long) */
};

static void name_add(struct names *n, const char *s)
{
	char *slot;
	if (!s || !s[0])
		return;
	slot = vec_push(&n->v, CP_NAME_MAX);
	snprintf(slot, CP_NAME_MAX, "%s", s);
}

static void lengths_add(struct names *n, const struct vec *lengths)
{
	size_t i;
	for (i = 0; i < lengths->n; i++)
		name_add(n, VEC_AT(*lengths, struct cat_length, i).part);
}

static bool name_known(const struct names *n, const char *s)
{
	size_t i;
	for (i = 0; i < n->v.n; i++)
		if (!strcmp((const char *)n->v.v + i * CP_NAME_MAX, s))
			return true;
	return false;
}

void prices_check_parts(const struct price_list *p, const struct catalog *cat, const struct bom *b, struct ncf_diag *diag)
{
	struct names n = { { 0 } };
	size_t i;
	for (i = 0; b && i < b->lines.n; i++) {
		const struct bom_line *l = &VEC_AT(b->lines, struct bom_line, i);
		name_add(&n, l->model);
		name_add(&n, l->part);
	}
#define NAMES_OF(vecname, type)                                                                                        \
	for (i = 0; i < cat->vecname.n; i++) {                                                                         \
		name_add(&n, VEC_AT(cat->vecname, type, i).name);                                                      \
		name_add(&n, VEC_AT(cat->vecname, type, i).part);                                                      \
	}
	NAMES_OF(gpus, struct cat_gpu)
	NAMES_OF(fabrics, struct cat_fabric)
	NAMES_OF(nics, struct cat_nic)
	NAMES_OF(switches, struct cat_switch)
	NAMES_OF(servers, struct cat_server)
	NAMES_OF(cables, struct cat_cable)
	NAMES_OF(fibres, struct cat_fibre)
#undef NAMES_OF
	for (i = 0; i < cat->cables.n; i++)
		lengths_add(&n, &VEC_AT(cat->cables, struct cat_cable, i).lengths);
	for (i = 0; i < cat->fibres.n; i++)
		lengths_add(&n, &VEC_AT(cat->fibres, struct cat_fibre, i).lengths);
	for (i = 0; i < p->entries.n; i++) {
		const struct price_entry *e = &VEC_AT(p->entries, struct price_entry, i);
		const char *near;
		if (name_known(&n, e->part))
			continue;
		near = name_nearest(&n.v, CP_NAME_MAX, e->part);
		if (near)
			diag_add_at(diag, NCF_WARNING, e->line, e->col,
				    "part '%s' is neither a catalog part nor a line of this design's BOM: its price is not used "
				    "(did you mean '%s'?)", e->part, near);
		else
			diag_add_at(diag, NCF_WARNING, e->line, e->col,
				    "part '%s' is neither a catalog part nor a line of this design's BOM: its price is not used",
				    e->part);
	}
	vec_release(&n.v);
}

bool prices_load_file(const char *path, struct price_list *out, struct ncf_diag *diag)
{
	char err[600];
	size_t len;
	char *text = file_read_as(path, "a prices file", &len, err, sizeof err);
	bool ok;
	price_list_init(out);
	if (!text) {
		diag_add(diag, NCF_ERROR, "", "%s", err);
		return false;
	}
	ok = prices_load_text(text, len, out, diag);
	free(text);
	return ok;
}
