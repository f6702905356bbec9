/* prices.c: the user's price file (prices.h). */
#include "io/prices.h"
#include "io/file.h"
#include "io/parse.h"
#include "model/num.h"
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

static bool entry(const struct tnode *e, const char *deflt, struct price_list *out, int *cline, int *ccol,
		  struct ncf_diag *diag)
{
	size_t k;
	struct price_entry pe;
	bool have_part = false, have_price = false;
	memset(&pe, 0, sizeof pe);
	if (e->kind != TN_MAP) {
		diag_add_at(diag, NCF_ERROR, e->line, e->col, "expected a price as a mapping of part, price, currency");
		return false;
	}
	for (k = 0; k < e->n; k++) {
		const char *key = e->keys[k], *t;
		const struct tnode *v = e->kids[k];
		if (!strcmp(key, "part")) {
			if (!(t = scalar(v, key, diag)))
				return false;
			if (!t[0] || strlen(t) >= sizeof pe.part) {
				diag_add_at(diag, NCF_ERROR, v->line, v->col, "expected a part name of 1 to %zu characters",
					    sizeof pe.part - 1);
				return false;
			}
			snprintf(pe.part, sizeof pe.part, "%s", t);
			have_part = true;
		} else if (!strcmp(key, "price")) {
			char why[120];
			double x;
			if (!(t = scalar(v, key, diag)))
				return false;
			if (v->quoted || num_parse_real(t, &x, why, sizeof why) != NUM_OK || !(x > 0) || x > 1e12) {
				diag_add_at(diag, NCF_ERROR, v->line, v->col,
					    "expected a price above 0 (up to 1e12) for 'price', got '%.40s'", t);
				return false;
			}
			pe.price = x;
			have_price = true;
		} else if (!strcmp(key, "currency")) {
			if (!(t = scalar(v, key, diag)))
				return false;
			if (!currency_ok(t)) {
				diag_add_at(diag, NCF_ERROR, v->line, v->col,
					    "expected a currency code of three capital letters (USD, EUR, ...), got '%.20s'", t);
				return false;
			}
			snprintf(pe.currency, sizeof pe.currency, "%s", t);
			if (out->currency[0] && strcmp(out->currency, t)) {
				diag_add_at(diag, NCF_ERROR, v->line, v->col,
					    "all prices must be in one currency: %s here, %s at line %d column %d", t,
					    out->currency, *cline, *ccol);
				return false;
			}
			if (!out->currency[0]) {
				snprintf(out->currency, sizeof out->currency, "%s", t);
				*cline = v->line;
				*ccol = v->col;
			}
		} else {
			diag_add_at(diag, NCF_ERROR, e->kline[k], e->kcol[k],
				    "unknown key '%.40s' in a price (expected part, price, currency)", key);
			return false;
		}
	}
	if (!have_part || !have_price) {
		diag_add_at(diag, NCF_ERROR, e->line, e->col, "a price needs '%s'", !have_part ? "part" : "price");
		return false;
	}
	if (!pe.currency[0]) {
		if (!deflt || !deflt[0]) {
			diag_add_at(diag, NCF_ERROR, e->line, e->col,
				    "the price of '%s' names no currency (give 'currency' here or at the top)", pe.part);
			return false;
		}
		snprintf(pe.currency, sizeof pe.currency, "%s", deflt);
	}
	if (price_find(out, pe.part, NULL)) {
		diag_add_at(diag, NCF_ERROR, e->line, e->col, "part '%s' is priced twice", pe.part);
		return false;
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
	for (k = 0; k < root->n && ok; k++) {
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
	if (ok && !list) {
		diag_add_at(diag, NCF_ERROR, root->line, root->col, "a price file needs 'prices'");
		ok = false;
	}
	for (k = 0; ok && k < list->n; k++)
		ok = entry(list->kids[k], deflt, out, &cline, &ccol, diag);
	tnode_free(root);
	if (!ok)
		price_list_free(out);
	return ok;
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
