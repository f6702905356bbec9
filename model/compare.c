/* compare.c: design_diff over the schema, and the headline numbers of a design. */
#include "model/compare.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "model/alloc.h"
#include <string.h>

const char *const change_kind_names[] = { "added", "removed", "changed", NULL };

static void push(struct vec *out, int kind, const char *what, const char *field, const char *a, const char *b)
{
	struct design_change *c = vec_push(out, sizeof *c);
	c->kind = kind;
	snprintf(c->what, sizeof c->what, "%s", what);
	snprintf(c->field, sizeof c->field, "%s", field);
	snprintf(c->a, sizeof c->a, "%s", a);
	snprintf(c->b, sizeof c->b, "%s", b);
}

/* The field's storage in obj, read-only (the schema's accessors take a mutable object). */
static const void *at(const void *obj, const struct field *f)
{
	return (const char *)obj + f->off;
}

static bool scalar(const struct field *f)
{
	return f->type != FT_LIST && f->type != FT_STRUCT;
}

/* "'name'" or "'from -> to'" for elements that have an identity; "" for those matched by
 * position. */
static void identity(const struct schema *s, const void *obj, char *buf, size_t size)
{
	const struct field *n = schema_field(s, "name"), *from = schema_field(s, "from"), *to = schema_field(s, "to");
	if (n && n->type == FT_STR)
		snprintf(buf, size, "'%.60s'", (const char *)at(obj, n));
	else if (from && to && from->type == FT_STR && to->type == FT_STR)
		snprintf(buf, size, "'%.50s -> %.50s'", (const char *)at(obj, from), (const char *)at(obj, to));
	else
		buf[0] = '\0';
}

/* The object's scalar fields that are set, "key value, ...", for an added or removed one. */
static void summary(const struct schema *s, const void *obj, char *buf, size_t size)
{
	size_t i, used = 0;
	buf[0] = '\0';
	for (i = 0; i < s->nfields && used + 1 < size; i++) {
		const struct field *f = &s->fields[i];
		char v[96];
		int k;
		if (!scalar(f) || (f->type != FT_ENUM && field_is_empty(f, obj)) || strcmp(f->key, "name") == 0 ||
		    strcmp(f->key, "from") == 0 || strcmp(f->key, "to") == 0)
			continue; /* the identity is already in what */
		k = snprintf(buf + used, size - used, "%s%s %s", used ? ", " : "", f->key, field_format(f, obj, v, sizeof v));
		if (k < 0)
			break;
		used += (size_t)k;
	}
	if (used >= size && size > 4)
		memcpy(buf + size - 4, "...", 4);
}

static void element_what(const char *parent, const struct schema *sub, const char *id, char *buf, size_t size)
{
	if (strcmp(parent, "design") == 0)
		snprintf(buf, size, "%.30s %.76s", sub->name, id);
	else
		snprintf(buf, size, "%.20s %.20s %.68s", parent, sub->name, id);
}

static void walk(const struct schema *s, const void *a, const void *b, const char *what, const char *path,
		 struct vec *out);

static void walk_list(const struct field *f, const void *a, const void *b, const char *what, const char *fpath,
		      struct vec *out)
{
	const struct schema *sub = f->sub;
	const struct vec *la = at(a, f), *lb = at(b, f);
	char id[112], other[112], ew[112], text[112], ipath[96];
	size_t i, j;
	if (la->n > 0) {
		identity(sub, la->v, id, sizeof id);
	} else if (lb->n > 0) {
		identity(sub, lb->v, id, sizeof id);
	} else {
		return;
	}
	if (!id[0]) { /* matched by position */
		size_t n = la->n > lb->n ? la->n : lb->n;
		for (i = 0; i < n; i++) {
			snprintf(ipath, sizeof ipath, "%.60s[%zu]", fpath, i);
			if (i >= lb->n) {
				summary(sub, (const char *)la->v + i * sub->size, text, sizeof text);
				push(out, CH_REMOVED, what, ipath, text, "");
			} else if (i >= la->n) {
				summary(sub, (const char *)lb->v + i * sub->size, text, sizeof text);
				push(out, CH_ADDED, what, ipath, "", text);
			} else {
				walk(sub, (const char *)la->v + i * sub->size, (const char *)lb->v + i * sub->size, what, ipath,
				     out);
			}
		}
		return;
	}
	for (i = 0; i < la->n; i++) {
		const void *ea = (const char *)la->v + i * sub->size, *eb = NULL;
		identity(sub, ea, id, sizeof id);
		for (j = 0; j < lb->n && !eb; j++) {
			identity(sub, (const char *)lb->v + j * sub->size, other, sizeof other);
			if (strcmp(id, other) == 0)
				eb = (const char *)lb->v + j * sub->size;
		}
		element_what(what, sub, id, ew, sizeof ew);
		if (eb) {
			walk(sub, ea, eb, ew, "", out);
		} else {
			summary(sub, ea, text, sizeof text);
			push(out, CH_REMOVED, ew, "", text, "");
		}
	}
	for (j = 0; j < lb->n; j++) {
		const void *eb = (const char *)lb->v + j * sub->size;
		bool found = false;
		identity(sub, eb, id, sizeof id);
		for (i = 0; i < la->n && !found; i++) {
			identity(sub, (const char *)la->v + i * sub->size, other, sizeof other);
			found = strcmp(id, other) == 0;
		}
		if (!found) {
			element_what(what, sub, id, ew, sizeof ew);
			summary(sub, eb, text, sizeof text);
			push(out, CH_ADDED, ew, "", "", text);
		}
	}
}

static void walk(const struct schema *s, const void *a, const void *b, const char *what, const char *path,
		 struct vec *out)
{
	size_t i;
	for (i = 0; i < s->nfields; i++) {
		const struct field *f = &s->fields[i];
		char fpath[80], va[112], vb[112];
		if (s == &design_schema && (strcmp(f->key, "canvas") == 0 || strcmp(f->key, "ncfabric") == 0))
			continue; /* layout and format version: not the network */
		snprintf(fpath, sizeof fpath, "%.40s%s%.30s", path, path[0] ? "." : "", f->key);
		if (scalar(f)) {
			const char *ta = field_format(f, a, va, sizeof va), *tb = field_format(f, b, vb, sizeof vb);
			if (strcmp(ta, tb) != 0)
				push(out, CH_CHANGED, what, fpath, ta, tb);
		} else if (f->type == FT_STRUCT) {
			const void *sa = at(a, f), *sb = at(b, f);
			if (s == &design_schema)
				walk(f->sub, sa, sb, f->sub->name, "", out);
			else
				walk(f->sub, sa, sb, what, fpath, out);
		} else {
			walk_list(f, a, b, what, fpath, out);
		}
	}
}

size_t design_diff(const struct design *a, const struct design *b, struct vec *out)
{
	size_t before = out->n;
	walk(&design_schema, a, b, "design", "", out);
	return out->n - before;
}

/* ---- headline numbers --------------------------------------------------------------------- */

static const char *const pattern_keys[PATTERNS][2] = {
	{ "allreduce_busbw", "AllReduce busbw" },         { "allgather_busbw", "AllGather busbw" },
	{ "reducescatter_busbw", "ReduceScatter busbw" }, { "alltoall_busbw", "AllToAll busbw" },
	{ "sendrecv_busbw", "send/recv busbw" },
};

static const char *const oversub_keys[3][2] = {
	{ "oversub_leaf", "leaf oversubscription" },
	{ "oversub_spine", "spine oversubscription" },
	{ "oversub_core", "core oversubscription" },
};

static void add(struct headline *out, int *n, int max, const char *key, const char *label, const char *unit,
		double value, int better, bool known)
{
	if (*n >= max)
		return;
	out[*n].key = key;
	out[*n].label = label;
	out[*n].unit = unit;
	out[*n].value = known ? value : 0;
	out[*n].better = better;
	out[*n].known = known;
	out[*n].partial = false;
	out[*n].unknown = 0;
	(*n)++;
}

int headlines_collect(const struct inventory *inv, const struct metrics *m, int job_algo, struct headline *out,
		      int max)
{
	const struct fabric *f = &m->fabric;
	const struct workload *w = &m->work;
	long switches = inv->switches[0] + inv->switches[1] + inv->switches[2];
	int n = 0, c, t, role;
	add(out, &n, max, "gpus", "GPUs", "", (double)inv->gpus, 0, true);
	add(out, &n, max, "servers", "servers", "", (double)inv->servers, 0, true);
	add(out, &n, max, "switches", "switches", "", (double)switches, 0, true);
	add(out, &n, max, "links", "links (cables)", "", (double)inv->links, 0, true);
	add(out, &n, max, "transceivers", "transceivers", "", (double)inv->transceivers, 0, true);
	add(out, &n, max, "power_kw", "power", "kW", inv->power_W / 1000.0, 0, inv->power_W > 0);
	if (n > 0 && !strcmp(out[n - 1].key, "power_kw")) {
		out[n - 1].partial = inv->power_unknown > 0;
		out[n - 1].unknown = inv->power_unknown_items;
	}
	add(out, &n, max, "node_ceiling", "network per node", "GB/s", f->node_ceiling_GBps, 1, f->ports > 0);
	for (role = 0; role < 3; role++) {
		bool known = false;
		double ratio = 0;
		for (t = 0; t < f->ntiers; t++)
			if (f->tiers[t].role == role && f->tiers[t].ratio > 0) {
				known = true;
				ratio = f->tiers[t].ratio;
			}
		add(out, &n, max, oversub_keys[role][0], oversub_keys[role][1], ":1", ratio, -1, known);
	}
	add(out, &n, max, "bisection", "bisection", "GB/s", f->bisection_GBps, 1, f->design_nodes > 1);
	add(out, &n, max, "bisection_per_gpu", "bisection per GPU", "GB/s", f->bisection_per_gpu_GBps, 1,
	    f->design_nodes > 1);
	for (c = 0; c < PATTERNS; c++) {
		const struct algo_result *a = coll_pick(&m->colls[c], job_algo);
		add(out, &n, max, pattern_keys[c][0], pattern_keys[c][1], "GB/s", a->busbw_GBps, 1, a->available);
	}
	add(out, &n, max, "step_ms", "step time", "ms", w->step_ms, -1, w->valid);
	add(out, &n, max, "comm_exposed_ms", "exposed communication", "ms", w->comm_exposed_ms, -1, w->valid);
	add(out, &n, max, "tokens_per_s", "tokens per second", "", w->tokens_per_s, 1, w->valid);
	add(out, &n, max, "speedup", "speedup", "", w->speedup, 1, w->valid);
	add(out, &n, max, "efficiency", "scaling efficiency", "%", w->efficiency * 100.0, 1, w->valid);
	return n;
}

int headlines_of(const struct design *d, const struct catalog *cat, double bytes, struct headline *out, int max)
{
	struct metrics *m = xmalloc(sizeof *m);
	struct inventory inv;
	int n;
	inventory_compute(d, cat, &inv);
	metrics_compute_some(d, cat, bytes, 0, 0, m); /* headlines: no scaling curve */
	n = headlines_collect(&inv, m, d->job.algo, out, max);
	inventory_free(&inv);
	free(m);
	return n;
}

static const char *number(const struct headline *h, double v, bool sign, char *buf, size_t size)
{
	const char *plus = sign && v > 0 ? "+" : "";
	if (strcmp(h->unit, ":1") == 0)
		snprintf(buf, size, "%s%.3g", plus, v);
	else if (h->unit[0] == '\0' && fabs(v - round(v)) < 1e-9 && fabs(v) < 1e15)
		snprintf(buf, size, "%s%.0f", plus, v);
	else if (fabs(v) >= 1e5 || (h->unit[0] == '\0' && fabs(v) >= 1000))
		snprintf(buf, size, "%s%.0f", plus, v);
	else if (fabs(v) < 10)
		snprintf(buf, size, "%s%.2f", plus, v);
	else
		snprintf(buf, size, "%s%.1f", plus, v);
	return buf;
}

const char *headline_value(const struct headline *h, char *buf, size_t size)
{
	char v[48];
	if (!h->known)
		snprintf(buf, size, "n/a");
	else if (strcmp(h->unit, ":1") == 0)
		snprintf(buf, size, "%s:1", number(h, h->value, false, v, sizeof v));
	else
		snprintf(buf, size, "%s%s%s%s", h->partial ? ">=" : "", number(h, h->value, false, v, sizeof v),
			 h->unit[0] ? " " : "", h->unit);
	return buf;
}

const char *headline_delta(const struct headline *a, const struct headline *b, int *verdict, char *buf, size_t size)
{
	char v[48];
	double d = b->value - a->value, scale = fmax(fabs(a->value), fabs(b->value));
	*verdict = 0;
	if (!a->known && !b->known) {
		snprintf(buf, size, "=");
	} else if (!a->known || !b->known) {
		snprintf(buf, size, "%s", a->known ? "now n/a" : "new");
	} else if ((a->partial || b->partial) &&
		   !(a->partial && b->partial && a->unknown == b->unknown && fabs(d) <= 1e-9 * (scale > 1 ? scale : 1))) {
		snprintf(buf, size, "unknown: not published for some parts of %s", a->partial && b->partial ? "both" : a->partial ? "A" : "B");
	} else if (fabs(d) <= 1e-9 * (scale > 1 ? scale : 1)) {
		snprintf(buf, size, "=");
	} else {
		*verdict = b->better * (d > 0 ? 1 : -1);
		if (a->value != 0)
			snprintf(buf, size, "%s (%+.0f%%)", number(a, d, true, v, sizeof v), 100.0 * d / fabs(a->value));
		else
			snprintf(buf, size, "%s", number(a, d, true, v, sizeof v));
	}
	return buf;
}
