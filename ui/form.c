/* form.c: a form over the fields of one object (a block, a NIC entry, the job, the fabric
 * options) or over a template's parameters. Typed text is checked as it is typed; Enter
 * applies only the fields that changed, each through ed_set, so each is checked and
 * undoable. */
#include "ui/modes.h"
#include "layouts/template.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned form_accept(struct app *app);

static bool is_part_field(const struct schema *s, const struct field *f)
{
	return (s == &server_group_schema && (!strcmp(f->key, "gpu") || !strcmp(f->key, "scaleup") || !strcmp(f->key, "model"))) ||
	       (s == &switch_group_schema && !strcmp(f->key, "model")) || (s == &nic_spec_schema && !strcmp(f->key, "model")) ||
	       (s == &domain_group_schema && !strcmp(f->key, "tray")) || (s == &bundle_schema && !strcmp(f->key, "cable"));
}

/* Catalog names a part field may take, in catalog order. */
static const struct vec *part_list(const struct app *app, const struct schema *s, const struct field *f, size_t *size)
{
	const struct catalog *c = &app->catalog;
	if (s == &server_group_schema && !strcmp(f->key, "gpu"))
		return *size = sizeof(struct cat_gpu), &c->gpus;
	if ((s == &server_group_schema && !strcmp(f->key, "scaleup")) || s == &domain_group_schema)
		return *size = sizeof(struct cat_fabric), &c->fabrics;
	if (s == &server_group_schema)
		return *size = sizeof(struct cat_server), &c->servers;
	if (s == &switch_group_schema)
		return *size = sizeof(struct cat_switch), &c->switches;
	if (s == &nic_spec_schema)
		return *size = sizeof(struct cat_nic), &c->nics;
	return *size = sizeof(struct cat_cable), &c->cables;
}

/* Check the text of field i as typed, into form->err[i]. */
static void form_validate(struct app *app, int i)
{
	struct form *f = &app->form;
	const struct field *fl = f->fields[i];
	void *scratch;
	bool ok;
	f->err[i][0] = '\0';
	if (f->purpose == FORM_TEMPLATE)
		return;
	if (fl->type == FT_STR && f->text[i][0] == '\0' && !(fl->flags & FF_REQUIRED))
		return;
	/* Parse into a scratch object of the schema: the real one changes only on Enter. */
	scratch = calloc(1, f->schema->size);
	ok = scratch && field_parse(fl, scratch, f->text[i], fl->type == FT_STR, f->err[i], sizeof f->err[i]);
	free(scratch);
	if (!ok)
		return;
	if (is_part_field(f->schema, fl) && f->text[i][0]) {
		size_t size, k;
		const struct vec *v = part_list(app, f->schema, fl, &size);
		for (k = 0; k < v->n; k++)
			if (strcmp((const char *)v->v + k * size, f->text[i]) == 0)
				return;
		{
			const char *near = name_nearest(v, size, f->text[i]);
			if (near)
				snprintf(f->err[i], sizeof f->err[i], "not in the catalog: did you mean '%s'? (Left/Right lists the choices)",
					 near);
			else
				snprintf(f->err[i], sizeof f->err[i], "not in the catalog (Left/Right lists the choices)");
		}
	}
}

static void form_add_field(struct form *f, const struct field *fl, const char *text)
{
	if (f->nfields >= FORM_MAX)
		return;
	f->fields[f->nfields] = fl;
	snprintf(f->text[f->nfields], sizeof f->text[0], "%s", text);
	snprintf(f->orig[f->nfields], sizeof f->orig[0], "%s", text);
	f->nfields++;
}

void form_clear(struct form *f)
{
	if (f->draft && f->schema) {
		schema_free(f->schema, f->draft);
		free(f->draft);
	}
	memset(f, 0, sizeof *f);
}

/* A form over the single-value fields of obj (a block, the job, a NIC entry...). */
void form_open(struct app *app, int purpose, const struct schema *s, const void *obj, int target,
		      const char *prefix, const char *title)
{
	struct form *f = &app->form;
	size_t i;
	char buf[64];
	form_clear(f);
	f->purpose = purpose;
	f->schema = s;
	f->target = target;
	snprintf(f->prefix, sizeof f->prefix, "%s", prefix ? prefix : "");
	snprintf(f->title, sizeof f->title, "%s", title);
	for (i = 0; i < s->nfields; i++) {
		const struct field *fl = &s->fields[i];
		if (fl->type == FT_LIST || fl->type == FT_STRUCT)
			continue;
		form_add_field(f, fl, field_format(fl, obj, buf, sizeof buf));
	}
	for (i = 0; i < (size_t)f->nfields; i++)
		form_validate(app, (int)i);
	app->mode = MODE_FORM;
}

unsigned form_open_edit(struct app *app)
{
	const struct schema *s;
	void *obj = ed_object(&app->design, app->selected, &s);
	char title[160];
	if (!obj)
		return say(app, true, "nothing selected: j/k or b/B select a block");
	if (s == &bundle_schema)
		snprintf(title, sizeof title, "bundle %s -> %s", ((struct bundle *)obj)->from, ((struct bundle *)obj)->to);
	else
		snprintf(title, sizeof title, "%s '%s'", s->name, (const char *)obj + sizeof(int));
	form_open(app, FORM_EDIT, s, obj, app->selected, "", title);
	return CHG_VIEW;
}

unsigned form_open_struct(struct app *app, const char *key, const char *title)
{
	const struct field *fl = schema_field(&design_schema, key);
	char prefix[48];
	snprintf(prefix, sizeof prefix, "%s.", key);
	form_open(app, FORM_EDIT, fl->sub, field_struct(fl, &app->design), 0, prefix, title);
	return CHG_VIEW;
}

unsigned form_open_template(struct app *app)
{
	const struct template *t = &templates[app->tmpl_cur];
	struct form *f = &app->form;
	size_t i;
	form_clear(f);
	f->purpose = FORM_TEMPLATE;
	f->template_index = app->tmpl_cur;
	snprintf(f->title, sizeof f->title, "template %s", t->name);
	for (i = 0; i < t->nparams && i < FORM_MAX; i++) {
		f->fields[i] = NULL;
		snprintf(f->text[i], sizeof f->text[0], "%s", t->params[i].def);
	}
	f->nfields = (int)t->nparams;
	app->mode = MODE_FORM;
	if (!t->nparams)
		return form_accept(app);
	return CHG_VIEW;
}

/* Apply the form: edits go field by field through ed_set, so each is checked and undoable. */
static unsigned form_accept(struct app *app)
{
	struct form *f = &app->form;
	int i;
	unsigned chg = CHG_VIEW;
	for (i = 0; i < f->nfields; i++)
		if (f->err[i][0]) {
			f->cur = i;
			return say(app, true, "%s: %s", f->fields[i]->key, f->err[i]);
		}
	if (f->purpose == FORM_TEMPLATE) {
		const struct template *t = &templates[f->template_index];
		struct tvalues v;
		char err[600], kv[300];
		unsigned c;
		template_defaults(t, &v);
		for (i = 0; i < f->nfields; i++) {
			snprintf(kv, sizeof kv, "%s=%s", t->params[i].name, f->text[i]);
			if (!template_set(t, &v, kv, &app->catalog, err, sizeof err)) {
				f->cur = i;
				return say(app, true, "%s", err);
			}
		}
		c = template_replace(app, t, &v);
		if (app->msg_error)
			return c;
		form_clear(f);
		app->mode = MODE_CANVAS;
		return c;
	}
	if (f->purpose == FORM_ADD) {
		char err[200];
		bool ok;
		int id = 0;
		for (i = 0; i < f->nfields; i++)
			if (!field_parse(f->fields[i], f->draft, f->text[i], f->fields[i]->type == FT_STR, err, sizeof err) &&
			    !(f->fields[i]->type == FT_STR && !f->text[i][0]))
				return say(app, true, "%s", err);
		if (f->schema == &server_group_schema)
			ok = ed_add_server_group(&app->ed, f->draft, &id);
		else if (f->schema == &switch_group_schema)
			ok = ed_add_switch_group(&app->ed, f->draft, &id);
		else if (f->schema == &domain_group_schema)
			ok = ed_add_domain_group(&app->ed, f->draft, &id);
		else if (f->schema == &bundle_schema)
			ok = ed_add_bundle(&app->ed, f->draft, &id);
		else if (f->schema == &nic_spec_schema)
			ok = ed_add_nic(&app->ed, f->target, f->draft);
		else {
			const struct note *n = f->draft;
			ok = ed_add_note(&app->ed, n->text, n->x, n->y);
		}
		if (!ok)
			return say(app, true, "%s", app->ed.msg);
		if (id)
			app->selected = id;
		app->mode = f->schema == &nic_spec_schema ? MODE_INSIDE : MODE_CANVAS;
		form_clear(f);
		return edit_result(app, true);
	}
	for (i = 0; i < f->nfields; i++) {
		char key[128];
		/* Only fields that changed become edits, each checked and undoable. */
		if (strcmp(f->orig[i], f->text[i]) == 0)
			continue;
		snprintf(key, sizeof key, "%s%s", f->prefix, f->fields[i]->key);
		if (!ed_set(&app->ed, f->target, key, f->text[i])) {
			f->cur = i;
			if (chg & CHG_MODEL)
				app_recompute(app);
			return chg | say(app, true, "%s: %s", key, app->ed.msg);
		}
		chg |= CHG_MODEL | CHG_LAYOUT;
	}
	app->mode = f->schema == &nic_spec_schema ? MODE_INSIDE : MODE_CANVAS;
	form_clear(f);
	app->msg[0] = '\0';
	return chg;
}

static void form_choice(struct app *app, int dir)
{
	struct form *f = &app->form;
	const struct field *fl = f->fields[f->cur];
	if (f->purpose == FORM_TEMPLATE) {
		const struct tparam *p = &templates[f->template_index].params[f->cur];
		int n = 0, k = 0;
		if (p->kind != TP_CHOICE)
			return;
		while (p->choices[n])
			n++;
		for (k = 0; k < n && strcmp(p->choices[k], f->text[f->cur]); k++)
			;
		snprintf(f->text[f->cur], sizeof f->text[0], "%s", p->choices[(k + (dir > 0 ? 1 : n - 1)) % n]);
		return;
	}
	if (fl->type == FT_ENUM) {
		int n = 0, v = field_enum_parse(fl, f->text[f->cur]);
		while (fl->names[n])
			n++;
		v = v < 0 ? 0 : (v + (dir > 0 ? 1 : n - 1)) % n;
		snprintf(f->text[f->cur], sizeof f->text[0], "%s", fl->names[v]);
	} else if (fl->type == FT_BOOL) {
		snprintf(f->text[f->cur], sizeof f->text[0], "%s", strcmp(f->text[f->cur], "true") ? "true" : "false");
	} else if (is_part_field(f->schema, fl)) {
		size_t size, k, n;
		const struct vec *v = part_list(app, f->schema, fl, &size);
		n = v->n;
		if (!n)
			return;
		for (k = 0; k < n && strcmp((const char *)v->v + k * size, f->text[f->cur]); k++)
			;
		k = k >= n ? 0 : (k + (dir > 0 ? 1 : n - 1)) % n;
		snprintf(f->text[f->cur], sizeof f->text[0], "%s", (const char *)v->v + k * size);
	} else if (fl->type == FT_INT) {
		long x = strtol(f->text[f->cur], NULL, 10) + dir;
		if (x >= fl->min && x <= fl->max)
			snprintf(f->text[f->cur], sizeof f->text[0], "%ld", x);
	}
	form_validate(app, f->cur);
}

static unsigned form_type(struct app *app, int key)
{
	struct form *f = &app->form;
	char *t = f->text[f->cur];
	size_t n = strlen(t);
	if (key == NK_BACKSPACE) {
		if (n)
			t[n - 1] = '\0';
	} else if (key >= 0x20 && key < 0x7f && n + 1 < sizeof f->text[0]) {
		t[n] = (char)key;
		t[n + 1] = '\0';
	} else {
		return CHG_NONE;
	}
	form_validate(app, f->cur);
	return CHG_VIEW;
}

unsigned form_text(struct app *app, int key)
{
	if (key == NK_ENTER || key == NK_ESC || key == NK_TAB || key == NK_BTAB || key == NK_UP || key == NK_DOWN ||
	    key == NK_LEFT || key == NK_RIGHT || key == NK_F1 || key == NK_PGUP || key == NK_PGDN || key == NK_CTRL_C)
		return CHG_PASS;
	if (app->form.purpose == FORM_TEMPLATE && (key == NK_BACKSPACE || (key >= 0x20 && key < 0x7f))) {
		char *t = app->form.text[app->form.cur];
		return line_text(t, sizeof app->form.text[0], key);
	}
	return form_type(app, key);
}

unsigned form_action(struct app *app, enum action a)
{
	switch (a) {
	case ACT_ACCEPT:
		return form_accept(app);
	case ACT_CANCEL:
		if (app->form.schema != &nic_spec_schema)
			return CHG_PASS;
		form_clear(&app->form);
		app->mode = MODE_INSIDE;
		return CHG_VIEW;
	case ACT_FIELD_NEXT:
	case ACT_FIELD_PREV:
		if (app->form.nfields)
			app->form.cur = (app->form.cur + app->form.nfields + (a == ACT_FIELD_NEXT ? 1 : -1)) % app->form.nfields;
		return CHG_VIEW;
	case ACT_CHOICE_NEXT:
	case ACT_CHOICE_PREV:
		form_choice(app, a == ACT_CHOICE_NEXT ? 1 : -1);
		return CHG_VIEW;
	case ACT_TOP:
	case ACT_BOTTOM:
		app->form.cur = a == ACT_TOP || !app->form.nfields ? 0 : app->form.nfields - 1;
		return CHG_VIEW;
	default:
		return CHG_PASS;
	}
}

void form_draw(const struct app *app, struct cellbuf *c)
{
	const struct form *f = &app->form;
	int w = c->w - 6 < 76 ? c->w - 6 : 76, h = f->nfields + 6, x, y, i, top = 0, rows;
	const struct template *t = f->purpose == FORM_TEMPLATE ? &templates[f->template_index] : NULL;
	/* Rows: the fields, a row for the "more below" marker, two of help, the keys. */
	if (h > c->h - 2)
		h = c->h - 2;
	rows = h - 6;
	if (f->cur >= rows)
		top = f->cur - rows + 1; /* scrolled to the focused field */
	center_box(c, w, h, &x, &y);
	cellbuf_printf(c, x + 2, y, w - 4, ROLE_HEADING, " %s ", f->title);
	for (i = top; i < f->nfields && i - top < rows; i++) {
		bool cur = i == f->cur;
		const char *key = t ? t->params[i].name : f->fields[i]->key;
		const char *err = t ? "" : f->err[i];
		cellbuf_printf(c, x + 2, y + 1 + i - top, w - 4, cur ? ROLE_SELECTED : ROLE_NORMAL, "%-17s %s%s%s", key,
			       f->text[i], cur ? "_" : "", err[0] ? "  !" : "");
		if (cur)
			cellbuf_fill(c, x + 1, y + 1 + i - top, 0, 1, ROLE_SELECTED);
	}
	{
		int below = f->nfields - top - rows;
		char t2[48];
		if (top > 0)
			scroll_marks(c, x, y, w, 2, top, 0);
		if (below > 0) {
			snprintf(t2, sizeof t2, "%s %d more (Down)", c->ascii ? "v" : "\u2193", below);
			cellbuf_text(c, x + w - 2 - (int)strlen(t2) + (c->ascii ? 0 : 2), y + rows + 1, w - 4, ROLE_DIM, t2);
		}
	}
	if (f->nfields) {
		const char *err = t ? "" : f->err[f->cur];
		char range[200], help[400];
		if (t) {
			snprintf(help, sizeof help, "%s", tparam_range(&t->params[f->cur], range, sizeof range));
		} else {
			const struct field *fl = f->fields[f->cur];
			int v = fl->type == FT_ENUM ? field_enum_parse(fl, f->text[f->cur]) : -1;
			/* A choice says what it means: "rail: NIC i of every server goes to leaf i ..." */
			if (v >= 0 && fl->value_help)
				snprintf(help, sizeof help, "%s (Left/Right: %s)", fl->value_help[v], fl->help);
			else
				snprintf(help, sizeof help, "%s", fl->help);
		}
		if (err[0])
			snprintf(help, sizeof help, "! %s", err);
		cellbuf_wrap(c, x + 2, y + h - 4, w - 4, 2, err[0] ? ROLE_ERROR : ROLE_DIM, help);
	}
	cellbuf_text(c, x + 2, y + h - 2, w - 4, ROLE_DIM, "Enter applies, Esc cancels, Up/Down/Tab move, Left/Right cycle choices");
}
