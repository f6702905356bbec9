#include "io/codec.h"
#include "model/vec.h"
#include <stdio.h>
#include <string.h>

static const char *what(const struct tnode *n)
{
	if (n->kind == TN_MAP)
		return "a mapping";
	if (n->kind == TN_SEQ)
		return "a list";
	return "a single value";
}

static bool decode_map(const struct schema *s, void *obj, const struct tnode *n, struct ncf_diag *diag);

static bool decode_field(const struct field *f, void *obj, const struct tnode *v, struct ncf_diag *diag)
{
	char err[320];
	size_t i;
	switch (f->type) {
	case FT_LIST: {
		struct vec *vec = field_list(f, obj);
		if (v->kind != TN_SEQ) {
			diag_add_at(diag, NCF_ERROR, v->line, v->col, "expected a list of %ss for '%s', got %s",
				    f->sub->name, f->key, what(v));
			return false;
		}
		bool ok = true;
		if (v->n > SCHEMA_MAX_LIST) {
			const struct tnode *k = v->kids[SCHEMA_MAX_LIST];
			diag_add_at(diag, NCF_ERROR, k->line, k->col, "more than %d %ss in '%s'", SCHEMA_MAX_LIST, f->sub->name,
				    f->key);
			return false;
		}
		for (i = 0; i < v->n; i++) {
			void *el = vec_push(vec, f->sub->size);
			schema_init(f->sub, el);
			ok &= decode_map(f->sub, el, v->kids[i], diag); /* the others' errors too */
		}
		return ok;
	}
	case FT_STRUCT:
		return decode_map(f->sub, field_struct(f, obj), v, diag);
	default:
		if (v->kind != TN_SCALAR) {
			diag_add_at(diag, NCF_ERROR, v->line, v->col, "expected a single value for '%s', got %s",
				    f->key, what(v));
			return false;
		}
		if (!field_parse(f, obj, v->text, v->quoted, err, sizeof err)) {
			diag_add_at(diag, NCF_ERROR, v->line, v->col, "%s", err);
			return false;
		}
		return true;
	}
}

/* Every error of the mapping is reported, not only the first, so that one look at a file
 * shows all that is wrong with it; the decode fails if any is. */
static bool decode_map(const struct schema *s, void *obj, const struct tnode *n, struct ncf_diag *diag)
{
	size_t i;
	bool ok = true, unknown = false;
	if (n->kind != TN_MAP) {
		diag_add_at(diag, NCF_ERROR, n->line, n->col, "expected a mapping (key: value) for a %s, got %s",
			    s->name, what(n));
		return false;
	}
	for (i = 0; i < n->n; i++) {
		const struct field *f = schema_field(s, n->keys[i]);
		if (!f) {
			const char *sug = schema_suggest(s, n->keys[i]);
			char keys[400];
			if (sug)
				diag_add_at(diag, NCF_ERROR, n->kline[i], n->kcol[i],
					    "unknown key '%s' in %s (did you mean '%s'?)", n->keys[i], s->name, sug);
			else
				diag_add_at(diag, NCF_ERROR, n->kline[i], n->kcol[i], "unknown key '%s' in %s (expected one of: %s)",
					    n->keys[i], s->name, schema_keys(s, keys, sizeof keys));
			ok = false;
			unknown = true;
			continue;
		}
		if (f->type == FT_INT && f->min == f->max && n->kids[i]->kind == TN_SCALAR &&
		    strcmp(n->kids[i]->text, "1") != 0 && !n->kids[i]->quoted && f->min == 1) {
			diag_add_at(diag, NCF_ERROR, n->kids[i]->line, n->kids[i]->col,
				    "unsupported format version '%s': this ncfabric reads version 1", n->kids[i]->text);
			return false;
		}
		ok &= decode_field(f, obj, n->kids[i], diag);
	}
	/* A key missing beside an unknown one is most likely that one misspelt: said once. */
	for (i = 0; i < s->nfields && !unknown; i++)
		if ((s->fields[i].flags & FF_REQUIRED) && !tnode_get(n, s->fields[i].key, NULL)) {
			diag_add_at(diag, NCF_ERROR, n->line, n->col, "missing key '%s' in %s (%s)", s->fields[i].key,
				    s->name, s->fields[i].help);
			ok = false;
		}
	return ok;
}

bool decode(const struct schema *s, void *obj, const struct tnode *node, struct ncf_diag *diag)
{
	return decode_map(s, obj, node, diag);
}

struct tnode *encode(const struct schema *s, const void *obj)
{
	struct tnode *map = tnode_new(TN_MAP, 0, 0);
	size_t i, j;
	char buf[64];
	for (i = 0; i < s->nfields; i++) {
		const struct field *f = &s->fields[i];
		struct tnode *v;
		if ((f->flags & FF_OPTIONAL) && field_is_empty(f, obj))
			continue;
		if (f->type == FT_LIST) {
			const struct vec *vec = (const struct vec *)((const char *)obj + f->off);
			v = tnode_new(TN_SEQ, 0, 0);
			for (j = 0; j < vec->n; j++)
				tnode_add(v, NULL, 0, 0, encode(f->sub, (const char *)vec->v + j * f->sub->size));
		} else if (f->type == FT_STRUCT) {
			v = encode(f->sub, (const char *)obj + f->off);
		} else {
			v = tnode_scalar(field_format(f, obj, buf, sizeof buf), f->type == FT_STR || f->type == FT_ENUM);
		}
		tnode_add(map, f->key, 0, 0, v);
	}
	return map;
}
