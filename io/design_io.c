#define _XOPEN_SOURCE 700
#include "io/design_io.h"
#include "model/cableplan.h"
#include "model/topo.h"
#include "io/codec.h"
#include "io/parse.h"
#include "io/file.h"
#include "io/safetext.h"
#include "model/alloc.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/builtin.h"

/* Give check problems (which carry a path) the position the tree knows for that path. */
static void locate(struct ncf_diag *diag, size_t from, const struct tnode *root)
{
	size_t i;
	for (i = from; i < diag_count(diag); i++) {
		struct ncf_problem *p = &VEC_AT(diag->items, struct ncf_problem, i);
		if (!p->line && p->path[0])
			tnode_locate(root, p->path, &p->line, &p->col);
	}
}

/* A design without errors: the topology's checks, then the cable plan's warnings (links
 * beyond their parts' reach, parts the catalog lacks: cableplan.h). */
static bool plan_warnings = true;

void design_load_plan_warnings(bool on)
{
	plan_warnings = on;
}

static void check_clean(const struct design *d, const struct catalog *cat, struct ncf_diag *diag)
{
	struct cableplan plan;
	topo_check(d, cat, diag);
	if (!plan_warnings)
		return;
	cableplan_build(d, cat, &plan, NULL, NULL);
	diag_append(diag, &plan.parts);
	cableplan_free(&plan);
}

int design_check_loaded(const struct design *d, const struct catalog *shipped, struct ncf_diag *diag)
{
	struct catalog cat;
	int errors;
	/* against the shipped catalog itself when the design brings no parts (no copy) */
	if (catalog_empty(&d->catalog)) {
		errors = design_check(d, shipped, diag);
		if (!errors)
			check_clean(d, shipped, diag);
		return errors;
	}
	design_catalog(d, shipped, &cat);
	errors = design_check(d, &cat, diag);
	if (!errors)
		check_clean(d, &cat, diag);
	catalog_free(&cat);
	return errors;
}

/* Merge problems [a, b) and [b, end), each in file order, into one run in file order
 * (line, then column; the first run first on a tie). */
static void diag_merge_lines(struct ncf_diag *diag, size_t a, size_t b)
{
	size_t n = diag_count(diag), i = a, j = b, k = 0;
	struct ncf_problem *p = &VEC_AT(diag->items, struct ncf_problem, 0), *t;
	if (a >= b || b >= n)
		return;
	t = xmalloc((n - a) * sizeof *t);
	while (i < b || j < n) {
		bool first = j >= n || (i < b && (p[i].line < p[j].line || (p[i].line == p[j].line && p[i].col <= p[j].col)));
		t[k++] = first ? p[i++] : p[j++];
	}
	memcpy(p + a, t, (n - a) * sizeof *t);
	free(t);
}

bool design_load_text(const char *buf, size_t len, enum file_format fmt, const struct catalog *shipped,
		      struct design *out, struct ncf_diag *diag)
{
	struct tnode *root = parse_text(buf, len, fmt, diag);
	struct design d;
	size_t mark;
	int errors;
	if (!root)
		return false;
	design_init(&d);
	mark = diag_count(diag);
	if (!decode(&design_schema, &d, root, diag)) {
		/* What was read of the design still shows its unknown parts: an error that stands
		 * whatever the fields not read say (a misspelt key must not hide a misspelt GPU).
		 * Not when the design has its own catalog section: that may not have been read
		 * whole either. The rest of the check waits for a design read whole. */
		if (!tnode_get(root, "catalog", NULL)) {
			size_t from = diag_count(diag);
			struct catalog cat;
			design_catalog(&d, shipped, &cat);
			design_check_parts(&d, &cat, diag);
			catalog_free(&cat);
			locate(diag, from, root);
			diag_merge_lines(diag, mark, from);
		}
		design_free(&d);
		tnode_free(root);
		return false;
	}
	design_assign_ids(&d);
	mark = diag_count(diag);
	errors = design_check_loaded(&d, shipped, diag);
	locate(diag, mark, root);
	tnode_free(root);
	if (errors) {
		design_free(&d);
		return false;
	}
	*out = d;
	return true;
}

/* Read path whole, or add why not to diag. */
static char *read_or_diag(const char *path, const char *what, size_t *len, struct ncf_diag *diag)
{
	char err[256];
	char *buf = file_read_as(path, what, len, err, sizeof err);
	if (!buf)
		diag_add(diag, NCF_ERROR, "", "%s", err);
	return buf;
}

bool design_load_file(const char *path, const struct catalog *shipped, struct design *out, struct ncf_diag *diag)
{
	size_t len;
	char *buf = read_or_diag(path, "a design file", &len, diag);
	bool ok = buf && design_load_text(buf, len, format_guess(path, buf, len), shipped, out, diag);
	free(buf);
	return ok;
}

char *design_to_text(const struct design *d, enum file_format fmt)
{
	struct tnode *t = encode(&design_schema, d);
	char *s = tree_to_text(t, fmt);
	tnode_free(t);
	return s;
}

bool design_save(const struct design *d, const char *path, char *err, size_t errsz)
{
	char *text = design_to_text(d, format_guess(path, "", 0));
	bool ok;
	if (!text) {
		snprintf(err, errsz, "cannot format the design: %s", tree_write_problem());
		return false;
	}
	ok = file_write_atomic(path, text, strlen(text), err, errsz);
	free(text);
	return ok;
}

bool design_save_keeping(const struct design *d, const char *path, const char *from, bool *dropped, char *err,
			 size_t errsz)
{
	enum file_format fmt = format_guess(path, "", 0);
	char *text = design_to_text(d, fmt), *old, why[256];
	size_t len = 0, head = 0, n;
	bool ok, others = false;
	if (dropped)
		*dropped = false;
	if (!text) {
		snprintf(err, errsz, "cannot format the design: %s", tree_write_problem());
		return false;
	}
	if (!from)
		from = path;
	old = file_read(from, &len, why, sizeof why);
	if (old && format_guess(from, old, len) == FMT_YAML) {
		others = yaml_comments(old, len, &head);
		if (fmt == FMT_JSON) {
			others = others || memchr(old, '#', head) != NULL;
			head = 0;
		}
	}
	if (dropped)
		*dropped = others;
	n = strlen(text);
	if (head) {
		char *both = xmalloc(head + n + 1);
		memcpy(both, old, head);
		memcpy(both + head, text, n + 1);
		free(text);
		text = both;
		n += head;
	}
	free(old);
	ok = file_write_atomic(path, text, n, err, errsz);
	free(text);
	return ok;
}

static bool catalog_check(const struct catalog *c, const struct tnode *root, struct ncf_diag *diag)
{
	size_t i, j, k;
	for (i = 0; i < catalog_schema.nfields; i++) {
		const struct field *f = &catalog_schema.fields[i];
		const struct vec *v = (const struct vec *)((const char *)c + f->off);
		for (j = 0; j < v->n; j++)
			for (k = 0; k < j; k++)
				if (strcmp((const char *)v->v + j * f->sub->size, (const char *)v->v + k * f->sub->size) == 0) {
					char path[96];
					int line = 0, col = 0;
					snprintf(path, sizeof path, "%s[%zu].name", f->key, j);
					tnode_locate(root, path, &line, &col);
					diag_add_at(diag, NCF_ERROR, line, col, "duplicate %s name '%s' in the catalog",
						    f->sub->name, (const char *)v->v + j * f->sub->size);
					return false;
				}
	}
	return true;
}

bool catalog_load_text(const char *buf, size_t len, enum file_format fmt, struct catalog *out, struct ncf_diag *diag)
{
	struct tnode *root = parse_text(buf, len, fmt, diag);
	struct catalog c;
	bool ok;
	if (!root)
		return false;
	schema_init(&catalog_schema, &c);
	ok = decode(&catalog_schema, &c, root, diag) && catalog_check(&c, root, diag);
	tnode_free(root);
	if (!ok) {
		catalog_free(&c);
		return false;
	}
	*out = c;
	return true;
}

bool catalog_load_file(const char *path, struct catalog *out, struct ncf_diag *diag)
{
	size_t len;
	char *buf = read_or_diag(path, "a catalog file", &len, diag);
	bool ok = buf && catalog_load_text(buf, len, format_guess(path, buf, len), out, diag);
	free(buf);
	return ok;
}

void diag_print(FILE *f, const char *file, const struct ncf_diag *diag, bool warnings)
{
	size_t i;
	for (i = 0; i < diag_count(diag); i++) {
		const struct ncf_problem *p = diag_get(diag, i);
		const char *sev = p->sev == NCF_WARNING ? "warning: " : "";
		if (p->sev == NCF_WARNING && !warnings)
			continue;
		/* File names and messages may hold anything a file held: filtered (safetext.h). */
		if (p->line)
			safe_eprintf(f, "ncfabric: %s:%d:%d: %s%s\n", file, p->line, p->col, sev, p->msg);
		else if (p->path[0])
			safe_eprintf(f, "ncfabric: %s: %s: %s%s\n", file, p->path, sev, p->msg);
		else
			safe_eprintf(f, "ncfabric: %s: %s%s\n", file, sev, p->msg);
	}
}
