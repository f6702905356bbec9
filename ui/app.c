#include "ui/app.h"
#include "io/design_io.h"
#include <stdio.h>
#include <string.h>

#define ACT_NAME(id, name, help) name,
#define ACT_HELP(id, name, help) help,
static const char *const action_names[] = { ACTIONS(ACT_NAME) };
static const char *const action_helps[] = { ACTIONS(ACT_HELP) };

const struct keybind keymap[] = {
	{ 'q', ACT_QUIT, "q" },       { '?', ACT_HELP, "?" },        { NK_F1, ACT_HELP, "F1" },
	{ 'j', ACT_NEXT, "j" },       { NK_DOWN, ACT_NEXT, "Down" }, { 'k', ACT_PREV, "k" },
	{ NK_UP, ACT_PREV, "Up" },    { '+', ACT_INC, "+" },         { '=', ACT_INC, "=" },
	{ '-', ACT_DEC, "-" },        { 'u', ACT_UNDO, "u" },        { NK_CTRL_R, ACT_REDO, "C-r" },
	{ 'w', ACT_SAVE, "w" },       { NK_CTRL_L, ACT_REDRAW, "C-l" },
};
const size_t keymap_len = sizeof keymap / sizeof keymap[0];

const char *action_name(enum action a) { return action_names[a]; }
const char *action_help(enum action a) { return action_helps[a]; }

int action_lookup(const char *name)
{
	int i;
	for (i = 0; i < ACT_COUNT; i++)
		if (strcmp(action_names[i], name) == 0)
			return i;
	return -1;
}

void app_init(struct app *app, struct design *d, const struct catalog *shipped, const char *file)
{
	memset(app, 0, sizeof *app);
	app->design = *d;
	memset(d, 0, sizeof *d);
	app->shipped = shipped;
	ed_init(&app->ed, &app->design, shipped);
	snprintf(app->file, sizeof app->file, "%s", file ? file : "");
	if (app->design.servers.n)
		app->selected = DESIGN_SERVER(&app->design, 0)->id;
	app->bytes = 1024.0 * 1024 * 1024;
	app_recompute(app);
}

void app_free(struct app *app)
{
	ed_free(&app->ed);
	design_free(&app->design);
	catalog_free(&app->catalog);
	inventory_free(&app->inv);
	diag_free(&app->problems);
}

void app_recompute(struct app *app)
{
	catalog_free(&app->catalog);
	inventory_free(&app->inv);
	diag_clear(&app->problems);
	design_catalog(&app->design, app->shipped, &app->catalog);
	design_check(&app->design, &app->catalog, &app->problems);
	inventory_compute(&app->design, &app->catalog, &app->inv);
	metrics_compute(&app->design, &app->catalog, app->bytes, 0, &app->metrics);
}

bool app_dirty(const struct app *app)
{
	return app->ed.generation != app->saved_generation;
}

/* Ids of the selectable items in screen order: servers, domains, switches, bundles. */
static size_t items(const struct app *app, int *ids, size_t max)
{
	const struct design *d = &app->design;
	size_t n = 0, i;
	for (i = 0; i < d->servers.n && n < max; i++)
		ids[n++] = DESIGN_SERVER(d, i)->id;
	for (i = 0; i < d->domains.n && n < max; i++)
		ids[n++] = DESIGN_DOMAIN(d, i)->id;
	for (i = 0; i < d->switches.n && n < max; i++)
		ids[n++] = DESIGN_SWITCH(d, i)->id;
	for (i = 0; i < d->bundles.n && n < max; i++)
		ids[n++] = DESIGN_BUNDLE(d, i)->id;
	return n;
}

static unsigned select_step(struct app *app, int dir)
{
	int ids[512];
	size_t n = items(app, ids, 512), i, cur = 0;
	if (!n)
		return CHG_NONE;
	for (i = 0; i < n; i++)
		if (ids[i] == app->selected)
			cur = i;
	cur = (cur + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
	app->selected = ids[cur];
	return CHG_VIEW;
}

static unsigned edit_result(struct app *app, bool ok)
{
	if (!ok) {
		snprintf(app->msg, sizeof app->msg, "%s", app->ed.msg);
		app->msg_error = true;
		return CHG_VIEW;
	}
	app->msg[0] = '\0';
	app->msg_error = false;
	return CHG_MODEL | CHG_VIEW;
}

static void ensure_selection(struct app *app)
{
	const struct schema *s;
	int ids[1];
	if (!ed_object(&app->design, app->selected, &s) || app->selected == 0)
		app->selected = items(app, ids, 1) ? ids[0] : 0;
}

unsigned app_run(struct app *app, enum action a)
{
	unsigned chg;
	if (app->confirm_quit && a != ACT_QUIT && a != ACT_SAVE)
		app->confirm_quit = false;
	switch (a) {
	case ACT_QUIT:
		if (!app_dirty(app) || app->confirm_quit)
			return CHG_QUIT;
		app->confirm_quit = true;
		snprintf(app->msg, sizeof app->msg, "unsaved changes: q again quits without saving, w saves");
		app->msg_error = true;
		return CHG_VIEW;
	case ACT_NEXT:
		return select_step(app, 1);
	case ACT_PREV:
		return select_step(app, -1);
	case ACT_INC:
	case ACT_DEC:
		return edit_result(app, ed_step_count(&app->ed, app->selected, a == ACT_INC ? 1 : -1));
	case ACT_UNDO:
		chg = edit_result(app, ed_undo(&app->ed));
		ensure_selection(app);
		return chg;
	case ACT_REDO:
		chg = edit_result(app, ed_redo(&app->ed));
		ensure_selection(app);
		return chg;
	case ACT_SAVE: {
		char err[300];
		if (!app->file[0]) {
			snprintf(app->msg, sizeof app->msg, "the built-in design has no file: save with ncfabric export");
			app->msg_error = true;
			return CHG_VIEW;
		}
		if (!design_save(&app->design, app->file, err, sizeof err)) {
			snprintf(app->msg, sizeof app->msg, "not saved: %s (the design is still here)", err);
			app->msg_error = true;
			return CHG_VIEW;
		}
		app->saved_generation = app->ed.generation;
		snprintf(app->msg, sizeof app->msg, "saved %s", app->file);
		app->msg_error = false;
		if (app->confirm_quit)
			return CHG_QUIT;
		return CHG_VIEW;
	}
	case ACT_HELP:
		app->help = !app->help;
		return CHG_VIEW;
	case ACT_REDRAW:
	case ACT_COUNT:
		return CHG_VIEW;
	}
	return CHG_NONE;
}

unsigned app_key(struct app *app, int key)
{
	size_t i;
	for (i = 0; i < keymap_len; i++)
		if (keymap[i].key == key)
			return app_run(app, keymap[i].action);
	return CHG_NONE;
}
