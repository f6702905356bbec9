#include "model/cmd.h"
#include "model/alloc.h"
#include "model/history.h"
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdarg.h>

/* Undo and redo together hold at most this many bytes of patches (cmd.h). */
#define HISTORY_BYTES (4u << 20)

static void clear_stack(struct vec *v)
{
	size_t i;
	for (i = 0; i < v->n; i++)
		patch_free(&VEC_AT(*v, struct patch, i));
	v->n = 0;
}

/* Every merged catalog an editor makes gets a new number (ed_catalog_serial). */
static unsigned long catalog_serial;

/* Arrays for the ports per switch of d (design_check_count fills them), the caller frees. */
static void port_arrays(const struct design *d, long **down, long **up)
{
	*down = xmalloc((d->switches.n ? d->switches.n : 1) * sizeof **down);
	*up = xmalloc((d->switches.n ? d->switches.n : 1) * sizeof **up);
}

/* The check of the design as it is, against the shipped catalog with its overrides. The
 * merged catalog is made again only when the design's own catalog changed. */
static void recheck(struct editor *ed, bool catalog_same)
{
	if (!catalog_same || !ed->checked) {
		catalog_free(&ed->cat);
		design_catalog(ed->d, ed->shipped, &ed->cat);
		ed->cat_serial = ++catalog_serial;
	}
	free(ed->down);
	free(ed->up);
	port_arrays(ed->d, &ed->down, &ed->up);
	diag_clear(&ed->problems);
	ed->errors = design_check_count(ed->d, &ed->cat, ed->down, ed->up, &ed->problems);
	ed->checked = true;
}

void ed_init(struct editor *ed, struct design *d, const struct catalog *shipped)
{
	memset(ed, 0, sizeof *ed);
	ed->d = d;
	ed->shipped = shipped;
	design_copy(&ed->base, d);
	recheck(ed, false);
}

void ed_free(struct editor *ed)
{
	clear_stack(&ed->undo);
	clear_stack(&ed->redo);
	vec_release(&ed->undo);
	vec_release(&ed->redo);
	design_free(&ed->base);
	catalog_free(&ed->cat);
	diag_free(&ed->problems);
	free(ed->down);
	free(ed->up);
	ed->down = ed->up = NULL;
	ed->checked = false;
}

const struct ncf_diag *ed_problems(const struct editor *ed) { return &ed->problems; }
const struct catalog *ed_catalog(const struct editor *ed) { return &ed->cat; }
unsigned long ed_catalog_serial(const struct editor *ed) { return ed->cat_serial; }

void ed_ports(const struct editor *ed, const long **down, const long **up)
{
	*down = ed->down;
	*up = ed->up;
}

bool ed_sync(struct editor *ed)
{
	struct patch p;
	bool same_catalog = schema_equal(&catalog_schema, &ed->base.catalog, &ed->d->catalog);
	if (!patch_make(&ed->base, ed->d, &p))
		return false;
	patch_free(&p);
	recheck(ed, same_catalog);
	return true;
}

/* Bytes the history holds (summed each time: the stacks may have been swapped whole). */
static size_t history_bytes(const struct editor *ed)
{
	size_t i, n = 0;
	for (i = 0; i < ed->undo.n; i++)
		n += VEC_AT(ed->undo, struct patch, i).bytes;
	for (i = 0; i < ed->redo.n; i++)
		n += VEC_AT(ed->redo, struct patch, i).bytes;
	return n;
}

size_t ed_history_bytes(const struct editor *ed) { return history_bytes(ed); }

void ed_history_take(struct editor *ed, struct ed_history *h)
{
	h->undo = ed->undo;
	h->redo = ed->redo;
	h->dropped = ed->dropped;
	memset(&ed->undo, 0, sizeof ed->undo);
	memset(&ed->redo, 0, sizeof ed->redo);
	ed->dropped = 0;
	ed->bytes = 0;
}

void ed_history_free(struct ed_history *h)
{
	clear_stack(&h->undo);
	clear_stack(&h->redo);
	vec_release(&h->undo);
	vec_release(&h->redo);
	h->dropped = 0;
}

void ed_history_put(struct editor *ed, struct ed_history *h)
{
	struct ed_history old;
	ed_history_take(ed, &old);
	ed_history_free(&old);
	ed->undo = h->undo;
	ed->redo = h->redo;
	ed->dropped = h->dropped;
	memset(h, 0, sizeof *h);
	ed->bytes = history_bytes(ed);
}

/* Keep the history under its bound: the oldest steps go first, the newest always stays. */
static void history_bound(struct editor *ed)
{
	size_t bytes = history_bytes(ed), drop = 0, i;
	while (bytes > HISTORY_BYTES && drop + 1 < ed->undo.n)
		bytes -= VEC_AT(ed->undo, struct patch, drop++).bytes;
	if (drop) {
		for (i = 0; i < drop; i++)
			patch_free(&VEC_AT(ed->undo, struct patch, i));
		memmove(ed->undo.v, &VEC_AT(ed->undo, struct patch, drop), (ed->undo.n - drop) * sizeof(struct patch));
		ed->undo.n -= drop;
		ed->dropped += drop;
	}
	ed->bytes = bytes;
}

/* Start an edit. The design may have been written outside the commands since the last
 * one (cmd.h says not to): that becomes part of the state the edit starts from. */
static void begin(struct editor *ed)
{
	ed_sync(ed);
	ed->msg[0] = '\0';
}

/* Finish an edit: keep it if it adds no error (and record what it changed), else put the
 * design back as it was. */
static bool commit(struct editor *ed, bool ok)
{
	bool same_catalog = schema_equal(&catalog_schema, &ed->base.catalog, &ed->d->catalog);
	struct patch p;
	if (ok) {
		struct catalog cat;
		struct ncf_diag after = { 0 };
		long *down, *up;
		int ea;
		port_arrays(ed->d, &down, &up);
		if (same_catalog)
			ea = design_check_count(ed->d, &ed->cat, down, up, &after);
		else {
			design_catalog(ed->d, ed->shipped, &cat);
			ea = design_check_count(ed->d, &cat, down, up, &after);
		}
		if (ea > ed->errors) {
			/* Report the first error the edit introduced. */
			size_t i, j;
			for (i = 0; i < diag_count(&after); i++) {
				const struct ncf_problem *e = diag_get(&after, i);
				bool old = false;
				if (e->sev != NCF_ERROR)
					continue;
				for (j = 0; j < diag_count(&ed->problems) && !old; j++)
					old = strcmp(diag_get(&ed->problems, j)->msg, e->msg) == 0;
				if (!old) {
					snprintf(ed->msg, sizeof ed->msg, "%s", e->msg);
					break;
				}
			}
			ok = false;
			diag_free(&after);
			free(down);
			free(up);
			if (!same_catalog)
				catalog_free(&cat);
		} else {
			/* The check of the new state is the one the editor shows from now on. */
			diag_free(&ed->problems);
			ed->problems = after;
			ed->errors = ea;
			free(ed->down);
			free(ed->up);
			ed->down = down;
			ed->up = up;
			if (!same_catalog) {
				catalog_free(&ed->cat);
				ed->cat = cat;
				ed->cat_serial = ++catalog_serial;
			}
		}
	}
	if (!ok) {
		if (patch_make(ed->d, &ed->base, &p)) /* take the design back */
			patch_free(&p);
		return false;
	}
	patch_make(&ed->base, ed->d, &p); /* the step undo takes back; may be empty */
	*(struct patch *)vec_push(&ed->undo, sizeof p) = p;
	clear_stack(&ed->redo);
	ed->generation++;
	history_bound(ed);
	return true;
}

static bool fail(struct editor *ed, const char *fmt, ...) NCF_PRINTF(2, 3);
static bool fail(struct editor *ed, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ed->msg, sizeof ed->msg, fmt, ap);
	va_end(ap);
	return false;
}

/* Which list holds id, and where: 0 design, 1 servers, 2 domains, 3 switches, 4 bundles;
 * -1 if none. */
static int locate_id(const struct design *d, int id, size_t *index)
{
	size_t i;
	if (id == 0)
		return 0;
	for (i = 0; i < d->servers.n; i++)
		if (DESIGN_SERVER(d, i)->id == id)
			return *index = i, 1;
	for (i = 0; i < d->domains.n; i++)
		if (DESIGN_DOMAIN(d, i)->id == id)
			return *index = i, 2;
	for (i = 0; i < d->switches.n; i++)
		if (DESIGN_SWITCH(d, i)->id == id)
			return *index = i, 3;
	for (i = 0; i < d->bundles.n; i++)
		if (DESIGN_BUNDLE(d, i)->id == id)
			return *index = i, 4;
	return -1;
}

static const struct schema *const id_schemas[] = { &design_schema, &server_group_schema, &domain_group_schema,
						   &switch_group_schema, &bundle_schema };

void *ed_object(struct design *d, int id, const struct schema **s)
{
	size_t i = 0;
	int where = locate_id(d, id, &i);
	if (where < 0)
		return NULL;
	*s = id_schemas[where];
	switch (where) {
	case 0: return d;
	case 1: return DESIGN_SERVER(d, i);
	case 2: return DESIGN_DOMAIN(d, i);
	case 3: return DESIGN_SWITCH(d, i);
	default: return DESIGN_BUNDLE(d, i);
	}
}

const void *ed_object_const(const struct design *d, int id, const struct schema **s)
{
	size_t i = 0;
	int where = locate_id(d, id, &i);
	if (where < 0)
		return NULL;
	*s = id_schemas[where];
	switch (where) {
	case 0: return d;
	case 1: return DESIGN_SERVER(d, i);
	case 2: return DESIGN_DOMAIN(d, i);
	case 3: return DESIGN_SWITCH(d, i);
	default: return DESIGN_BUNDLE(d, i);
	}
}

/* Walk "a.b[2].c" through the schema to the final field and the object holding it. */
static const struct field *resolve(const struct schema *s, void *obj, const char *key, void **holder,
				   char *err, size_t errsz)
{
	char part[64];
	const char *p = key;
	for (;;) {
		size_t n = strcspn(p, ".[");
		const struct field *f;
		if (n == 0 || n >= sizeof part) {
			snprintf(err, errsz, "bad key '%s'", key);
			return NULL;
		}
		memcpy(part, p, n);
		part[n] = '\0';
		f = schema_field(s, part);
		if (!f) {
			const char *sug = schema_suggest(s, part);
			if (sug)
				snprintf(err, errsz, "unknown key '%s' in %s (did you mean '%s'?)", part, s->name, sug);
			else
				snprintf(err, errsz, "unknown key '%s' in %s", part, s->name);
			return NULL;
		}
		p += n;
		if (*p == '\0') {
			*holder = obj;
			return f;
		}
		if (*p == '.' && f->type == FT_STRUCT) {
			obj = field_struct(f, obj);
			s = f->sub;
			p++;
		} else if (*p == '[' && f->type == FT_LIST) {
			char *end;
			unsigned long idx = strtoul(p + 1, &end, 10);
			struct vec *v = field_list(f, obj);
			if (*end != ']' || idx >= v->n) {
				snprintf(err, errsz, "no element %s in '%s'", p, part);
				return NULL;
			}
			obj = (char *)v->v + idx * f->sub->size;
			s = f->sub;
			p = end + 1;
			if (*p == '.')
				p++;
			else if (*p) {
				snprintf(err, errsz, "bad key '%s'", key);
				return NULL;
			}
		} else {
			snprintf(err, errsz, "'%s' has no parts", part);
			return NULL;
		}
	}
}

static void rename_refs(struct design *d, const char *old, const char *new_name)
{
	size_t i;
#define RENAME(buf) do { if (strcmp((buf), old) == 0) snprintf((buf), sizeof(buf), "%s", new_name); } while (0)
	for (i = 0; i < d->bundles.n; i++) {
		RENAME(DESIGN_BUNDLE(d, i)->from);
		RENAME(DESIGN_BUNDLE(d, i)->to);
	}
	for (i = 0; i < d->servers.n; i++)
		RENAME(DESIGN_SERVER(d, i)->domain);
	for (i = 0; i < d->canvas.positions.n; i++)
		RENAME(VEC_AT(d->canvas.positions, struct position, i).block);
#undef RENAME
}

bool ed_set(struct editor *ed, int id, const char *key, const char *value)
{
	const struct schema *s;
	void *obj = ed_object(ed->d, id, &s), *holder;
	const struct field *f;
	char old[NCF_NAME_MAX];
	bool ok;
	if (!obj)
		return fail(ed, "no block with id %d", id);
	begin(ed);
	obj = ed_object(ed->d, id, &s);
	f = resolve(s, obj, key, &holder, ed->msg, sizeof ed->msg);
	if (!f || f->type == FT_LIST || f->type == FT_STRUCT) {
		if (f)
			snprintf(ed->msg, sizeof ed->msg, "'%s' is not a single value", key);
		return commit(ed, false);
	}
	if (id != 0 && strcmp(key, "name") == 0) {
		size_t dummy;
		if (!value[0] || design_find(ed->d, value, &dummy) != GK_NONE) {
			if (value[0])
				snprintf(ed->msg, sizeof ed->msg, "a group named '%s' exists already", value);
			else
				snprintf(ed->msg, sizeof ed->msg, "a group needs a name");
			return commit(ed, false);
		}
		snprintf(old, sizeof old, "%s", field_str(f, holder));
	}
	/* Text from a form is never "quoted": strings that look like numbers are refused for
	 * names, which is what a file would need quoting for anyway. */
	ok = field_parse(f, holder, value, f->type == FT_STR, ed->msg, sizeof ed->msg);
	if (ok && id != 0 && strcmp(key, "name") == 0)
		rename_refs(ed->d, old, value);
	return commit(ed, ok);
}

static bool name_free(struct editor *ed, const char *name)
{
	size_t i;
	if (!name[0])
		return fail(ed, "a group needs a name");
	if (design_find(ed->d, name, &i) != GK_NONE)
		return fail(ed, "a group named '%s' exists already", name);
	return true;
}

static bool add(struct editor *ed, struct vec *v, const struct schema *s, const void *el, int *id)
{
	void *copy;
	begin(ed);
	/* v points into ed->d, which the snapshot did not move. */
	copy = vec_push(v, s->size);
	schema_copy(s, copy, el);
	*(int *)copy = ed->d->next_id++;
	if (id)
		*id = *(int *)copy;
	return commit(ed, true);
}

bool ed_add_server_group(struct editor *ed, const struct server_group *g, int *id)
{
	return name_free(ed, g->name) && add(ed, &ed->d->servers, &server_group_schema, g, id);
}

bool ed_add_domain_group(struct editor *ed, const struct domain_group *g, int *id)
{
	return name_free(ed, g->name) && add(ed, &ed->d->domains, &domain_group_schema, g, id);
}

bool ed_add_switch_group(struct editor *ed, const struct switch_group *g, int *id)
{
	return name_free(ed, g->name) && add(ed, &ed->d->switches, &switch_group_schema, g, id);
}

bool ed_add_bundle(struct editor *ed, const struct bundle *b, int *id)
{
	return add(ed, &ed->d->bundles, &bundle_schema, b, id);
}

bool ed_add_nic(struct editor *ed, int server_id, const struct nic_spec *n)
{
	const struct schema *s;
	struct server_group *g = ed_object(ed->d, server_id, &s);
	if (!g || s != &server_group_schema)
		return fail(ed, "NICs go into a server group");
	begin(ed);
	g = ed_object(ed->d, server_id, &s);
	schema_copy(&nic_spec_schema, vec_push(&g->nics, sizeof *n), n);
	return commit(ed, true);
}

bool ed_remove_nic(struct editor *ed, int server_id, size_t index)
{
	const struct schema *s;
	struct server_group *g = ed_object(ed->d, server_id, &s);
	if (!g || s != &server_group_schema || index >= g->nics.n)
		return fail(ed, "no such NIC entry");
	begin(ed);
	g = ed_object(ed->d, server_id, &s);
	vec_remove(&g->nics, sizeof(struct nic_spec), index);
	return commit(ed, true);
}

bool ed_set_nic_count(struct editor *ed, int server_id, size_t index, int count)
{
	const struct schema *s;
	struct server_group *g = ed_object(ed->d, server_id, &s);
	struct catalog cat;
	int before, after;
	size_t i;
	if (!g || s != &server_group_schema || index >= g->nics.n)
		return fail(ed, "no such NIC entry");
	if (count < 0 || count > 64)
		return fail(ed, "NICs per server go from 0 to 64");
	begin(ed);
	g = ed_object(ed->d, server_id, &s);
	design_catalog(ed->d, ed->shipped, &cat);
	before = server_compute_ports(g, &cat);
	VEC_AT(g->nics, struct nic_spec, index).count = count;
	after = server_compute_ports(g, &cat);
	catalog_free(&cat);
	for (i = 0; i < ed->d->bundles.n; i++) {
		struct bundle *b = DESIGN_BUNDLE(ed->d, i);
		if (!strcmp(b->from, g->name) && b->links_each == before && after > 0)
			b->links_each = after;
	}
	return commit(ed, true);
}

bool ed_step_count(struct editor *ed, int id, int delta)
{
	const struct schema *s;
	void *obj = ed_object(ed->d, id, &s);
	const struct field *f;
	char buf[32];
	long v;
	if (!obj)
		return fail(ed, "nothing selected");
	f = schema_field(s, s == &bundle_schema ? "links_each" : "count");
	v = (long)*field_int(f, obj) + delta;
	if (v < f->min)
		v = (long)f->min;
	snprintf(buf, sizeof buf, "%ld", v);
	return ed_set(ed, id, f->key, buf);
}

bool ed_delete(struct editor *ed, int id, bool cascade)
{
	const struct schema *s;
	void *obj = ed_object(ed->d, id, &s);
	char name[NCF_NAME_MAX];
	size_t i;
	if (!obj || id == 0)
		return fail(ed, "nothing to delete");
	if (s == &bundle_schema) {
		begin(ed);
		for (i = 0; i < ed->d->bundles.n; i++)
			if (DESIGN_BUNDLE(ed->d, i)->id == id)
				vec_remove(&ed->d->bundles, sizeof(struct bundle), i);
		return commit(ed, true);
	}
	snprintf(name, sizeof name, "%s", (const char *)obj + sizeof(int));
	if (!cascade) {
		char list[300] = "";
		size_t used = 0, n = 0;
		for (i = 0; i < ed->d->bundles.n; i++) {
			const struct bundle *b = DESIGN_BUNDLE(ed->d, i);
			if (strcmp(b->from, name) == 0 || strcmp(b->to, name) == 0) {
				int k = snprintf(list + used, sizeof list - used, "%s%s->%s", n ? ", " : "", b->from, b->to);
				if (k > 0 && (size_t)k < sizeof list - used)
					used += (size_t)k;
				n++;
			}
		}
		if (n) {
			snprintf(ed->msg, sizeof ed->msg, "deleting '%s' would orphan %zu bundle%s: %.200s", name, n,
				 n == 1 ? "" : "s", list);
			return false;
		}
	}
	begin(ed);
	for (i = ed->d->bundles.n; i-- > 0;) {
		const struct bundle *b = DESIGN_BUNDLE(ed->d, i);
		if (strcmp(b->from, name) == 0 || strcmp(b->to, name) == 0)
			vec_remove(&ed->d->bundles, sizeof(struct bundle), i);
	}
	for (i = ed->d->canvas.positions.n; i-- > 0;)
		if (strcmp(VEC_AT(ed->d->canvas.positions, struct position, i).block, name) == 0)
			vec_remove(&ed->d->canvas.positions, sizeof(struct position), i);
	if (s == &server_group_schema) {
		for (i = 0; i < ed->d->servers.n; i++)
			if (DESIGN_SERVER(ed->d, i)->id == id) {
				schema_free(s, DESIGN_SERVER(ed->d, i));
				vec_remove(&ed->d->servers, s->size, i);
				break;
			}
	} else if (s == &domain_group_schema) {
		for (i = 0; i < ed->d->domains.n; i++)
			if (DESIGN_DOMAIN(ed->d, i)->id == id) {
				vec_remove(&ed->d->domains, s->size, i);
				break;
			}
		for (i = 0; i < ed->d->servers.n; i++)
			if (strcmp(DESIGN_SERVER(ed->d, i)->domain, name) == 0)
				DESIGN_SERVER(ed->d, i)->domain[0] = '\0';
	} else {
		for (i = 0; i < ed->d->switches.n; i++)
			if (DESIGN_SWITCH(ed->d, i)->id == id) {
				vec_remove(&ed->d->switches, s->size, i);
				break;
			}
	}
	return commit(ed, true);
}

bool ed_add_catalog(struct editor *ed, const char *list, const void *entry)
{
	const struct field *f = schema_field(&catalog_schema, list);
	struct vec *v;
	size_t i;
	if (!f)
		return fail(ed, "no catalog list '%s'", list);
	begin(ed);
	v = field_list(f, &ed->d->catalog);
	for (i = 0; i < v->n; i++)
		if (strcmp((char *)v->v + i * f->sub->size, entry) == 0) {
			schema_free(f->sub, (char *)v->v + i * f->sub->size);
			schema_copy(f->sub, (char *)v->v + i * f->sub->size, entry);
			return commit(ed, true);
		}
	schema_copy(f->sub, vec_push(v, f->sub->size), entry);
	return commit(ed, true);
}

bool ed_move(struct editor *ed, const char *block, int x, int y)
{
	size_t i;
	struct position *p = NULL;
	if (design_find(ed->d, block, &i) == GK_NONE)
		return fail(ed, "no block named '%s'", block);
	if (x < 0 || y < 0)
		return fail(ed, "a block cannot move off the canvas");
	begin(ed);
	for (i = 0; i < ed->d->canvas.positions.n && !p; i++)
		if (strcmp(VEC_AT(ed->d->canvas.positions, struct position, i).block, block) == 0)
			p = &VEC_AT(ed->d->canvas.positions, struct position, i);
	if (!p) {
		p = vec_push(&ed->d->canvas.positions, sizeof *p);
		snprintf(p->block, sizeof p->block, "%s", block);
	}
	p->x = x;
	p->y = y;
	return commit(ed, true);
}

bool ed_add_note(struct editor *ed, const char *text, int x, int y)
{
	struct note *n;
	if (strlen(text) >= sizeof n->text)
		return fail(ed, "a note holds at most 199 characters");
	begin(ed);
	n = vec_push(&ed->d->canvas.notes, sizeof *n);
	snprintf(n->text, sizeof n->text, "%s", text);
	n->x = x;
	n->y = y;
	return commit(ed, true);
}

bool ed_replace(struct editor *ed, struct design *nd)
{
	struct patch p;
	begin(ed);
	design_free(ed->d);
	*ed->d = *nd;
	memset(nd, 0, sizeof *nd);
	design_assign_ids(ed->d);
	patch_make(&ed->base, ed->d, &p);
	*(struct patch *)vec_push(&ed->undo, sizeof p) = p;
	clear_stack(&ed->redo);
	ed->generation++;
	recheck(ed, false);
	history_bound(ed);
	return true;
}

/* Take the top step of `from` back: the design takes the state it holds, and the step
 * (now holding the state the design had) goes onto `to`. */
static bool swap_top(struct editor *ed, struct vec *from, struct vec *to)
{
	struct patch p, sync;
	bool same_catalog;
	if (from->n == 0)
		return false;
	begin(ed);
	p = VEC_AT(*from, struct patch, from->n - 1);
	if (!patch_apply(ed->d, &p)) {
		/* The design was changed outside the commands so that the history no longer fits
		 * it (cmd.h): it cannot be used. */
		clear_stack(&ed->undo);
		clear_stack(&ed->redo);
		ed->bytes = 0;
		snprintf(ed->msg, sizeof ed->msg, "the design was changed outside the editor: its history was dropped");
		return false;
	}
	from->n--;
	*(struct patch *)vec_push(to, sizeof p) = p;
	same_catalog = schema_equal(&catalog_schema, &ed->base.catalog, &ed->d->catalog);
	if (patch_make(&ed->base, ed->d, &sync))
		patch_free(&sync);
	recheck(ed, same_catalog);
	ed->generation++;
	ed->bytes = history_bytes(ed);
	return true;
}

bool ed_undo(struct editor *ed)
{
	if (!ed->undo.n)
		return fail(ed, ed->dropped ? "nothing more to undo (the oldest edits were forgotten: the history keeps 4 MiB)"
					    : "nothing to undo");
	return swap_top(ed, &ed->undo, &ed->redo);
}

bool ed_redo(struct editor *ed)
{
	if (!ed->redo.n)
		return fail(ed, "nothing to redo");
	return swap_top(ed, &ed->redo, &ed->undo);
}

size_t ed_depth(const struct editor *ed) { return ed->dropped + ed->undo.n; }

void ed_merge_since(struct editor *ed, size_t depth)
{
	size_t from = depth > ed->dropped ? depth - ed->dropped : 0, i;
	struct design before;
	struct patch p;
	if (ed->undo.n <= from + 1)
		return;
	/* The state before the first of them: the design with every later step taken back. */
	design_copy(&before, ed->d);
	for (i = ed->undo.n; i-- > from;)
		if (!patch_apply(&before, &VEC_AT(ed->undo, struct patch, i))) {
			design_free(&before); /* the history does not fit the design (cmd.h): left as it is */
			return;
		}
	for (i = from; i < ed->undo.n; i++)
		patch_free(&VEC_AT(ed->undo, struct patch, i));
	ed->undo.n = from;
	patch_make(&before, ed->d, &p);
	design_free(&before);
	*(struct patch *)vec_push(&ed->undo, sizeof p) = p;
	ed->bytes = history_bytes(ed);
}

bool ed_can_undo(const struct editor *ed) { return ed->undo.n > 0; }
bool ed_can_redo(const struct editor *ed) { return ed->redo.n > 0; }
