/* app.c: the designer's key table, its life cycle and the dispatch of keys and actions.
 * Each mode's actions and painting live in the mode's own file (modes.h lists them); this
 * file holds what every mode shares: the one key table (dispatch, the help screen, the
 * status line and the man page's KEYS come from it), the actions that work everywhere, and
 * the recompute after an edit. Nothing here draws. */
#include "ui/app.h"
#include "ui/modes.h"
#include "io/safetext.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACT_NAME(id, name, help) name,
#define ACT_HELP(id, name, help) help,
static const char *const action_names[] = { ACTIONS(ACT_NAME) };
static const char *const action_helps[] = { ACTIONS(ACT_HELP) };
#define MODE_NAME(id, name, help) name,
static const char *const mode_names[] = { MODES(MODE_NAME) };

/* The one key table. Rows of the current mode come first, then MODE_ANY rows. The last
 * column orders the status line's hints, most useful first (0: not a hint); a mode shows
 * its own hints, then the global ones (only those under 10 outside the canvas and panel). */
const struct keybind keymap[] = {
	{ MODE_ANY, '?', ACT_HELP, "?", 1 },
	{ MODE_ANY, NK_F1, ACT_HELP, "F1", 0 },
	{ MODE_ANY, 'q', ACT_QUIT, "q", 90 },
	{ MODE_ANY, NK_CTRL_C, ACT_INTERRUPT, "C-c", 0 },
	{ MODE_ANY, NK_ZZ, ACT_WRITE_QUIT, "ZZ", 0 },
	{ MODE_ANY, NK_ZQ, ACT_QUIT_DISCARD, "ZQ", 0 },
	{ MODE_ANY, NK_CTRL_L, ACT_REDRAW, "C-l", 0 },
	{ MODE_ANY, 'u', ACT_UNDO, "u", 93 },
	{ MODE_ANY, NK_CTRL_R, ACT_REDO, "C-r", 0 },
	{ MODE_ANY, 'w', ACT_SAVE, "w", 92 },
	{ MODE_ANY, ':', ACT_COMMAND, ":", 91 },
	{ MODE_ANY, '/', ACT_SEARCH, "/", 0 },
	{ MODE_ANY, 'n', ACT_SEARCH_NEXT, "n", 0 },
	{ MODE_ANY, 'N', ACT_SEARCH_PREV, "N", 0 },
	{ MODE_ANY, NK_TAB, ACT_FOCUS, "Tab", 15 },
	{ MODE_ANY, 'z', ACT_ZOOM, "z", 16 },
	{ MODE_ANY, 'A', ACT_FORCE_ALGO, "A", 96 },
	{ MODE_ANY, 'v', ACT_PATTERN, "v", 0 },
	{ MODE_ANY, 'V', ACT_ALGO, "V", 0 },
	{ MODE_ANY, ']', ACT_SIZE_UP, "]", 0 },
	{ MODE_ANY, '[', ACT_SIZE_DOWN, "[", 0 },
	{ MODE_ANY, 'p', ACT_PLOT_BUSBW, "p", 98 },
	{ MODE_ANY, 'P', ACT_PLOT_SPEEDUP, "P", 0 },
	{ MODE_ANY, 'J', ACT_JOB, "J", 97 },
	{ MODE_ANY, 'F', ACT_FABRIC, "F", 0 },
	{ MODE_ANY, 'T', ACT_TEMPLATES, "T", 0 },
	{ MODE_ANY, 'E', ACT_EXPORT, "E", 0 },
	{ MODE_ANY, 'C', ACT_COMPARE, "C", 0 },
	{ MODE_ANY, 't', ACT_TEACH, "t", 99 },
	{ MODE_ANY, 'I', ACT_LESSON, "I", 0 },
	{ MODE_ANY, 'M', ACT_MOUSE, "M", 0 },
	{ MODE_ANY, 'R', ACT_RACKS, "R", 0 },
	{ MODE_ANY, NK_GG, ACT_TOP, "gg", 0 },
	{ MODE_ANY, 'G', ACT_BOTTOM, "G", 0 },
	{ MODE_ANY, NK_PGDN, ACT_PAGE_DOWN, "PgDn", 0 },
	{ MODE_ANY, NK_CTRL_D, ACT_PAGE_DOWN, "C-d", 0 },
	{ MODE_ANY, NK_PGUP, ACT_PAGE_UP, "PgUp", 0 },
	{ MODE_ANY, NK_CTRL_U, ACT_PAGE_UP, "C-u", 0 },
	{ MODE_ANY, NK_HOME, ACT_TOP, "Home", 0 },
	{ MODE_ANY, NK_END, ACT_BOTTOM, "End", 0 },
	{ MODE_CANVAS, 'h', ACT_LEFT, "h", 0 },
	{ MODE_CANVAS, NK_LEFT, ACT_LEFT, "Left", 0 },
	{ MODE_CANVAS, 'l', ACT_RIGHT, "l", 0 },
	{ MODE_CANVAS, NK_RIGHT, ACT_RIGHT, "Right", 0 },
	{ MODE_CANVAS, 'k', ACT_UP, "k", 0 },
	{ MODE_CANVAS, NK_UP, ACT_UP, "Up", 0 },
	{ MODE_CANVAS, 'j', ACT_DOWN, "j", 0 },
	{ MODE_CANVAS, NK_DOWN, ACT_DOWN, "Down", 0 },
	{ MODE_CANVAS, 'b', ACT_NEXT, "b", 19 },
	{ MODE_CANVAS, 'B', ACT_PREV, "B", 0 },
	{ MODE_CANVAS, NK_ENTER, ACT_EDIT, "Enter", 10 },
	{ MODE_CANVAS, 'e', ACT_EDIT, "e", 0 },
	{ MODE_CANVAS, 'a', ACT_ADD, "a", 11 },
	{ MODE_CANVAS, 'd', ACT_DELETE, "d", 12 },
	{ MODE_CANVAS, 'f', ACT_FAIL, "f", 0 },
	{ MODE_CANVAS, '+', ACT_INC, "+", 13 },
	{ MODE_CANVAS, '=', ACT_INC, "=", 0 },
	{ MODE_CANVAS, '-', ACT_DEC, "-", 14 },
	{ MODE_CANVAS, 'H', ACT_MOVE_LEFT, "H", 0 },
	{ MODE_CANVAS, 'L', ACT_MOVE_RIGHT, "L", 0 },
	{ MODE_CANVAS, 'K', ACT_MOVE_UP, "K", 0 },
	{ MODE_CANVAS, 'U', ACT_MOVE_DOWN, "U", 0 },
	{ MODE_CANVAS, 'i', ACT_INSIDE, "i", 18 },
	{ MODE_METRICS, 'j', ACT_FIELD_NEXT, "j", 10 },
	{ MODE_METRICS, NK_DOWN, ACT_FIELD_NEXT, "Down", 0 },
	{ MODE_METRICS, 'k', ACT_FIELD_PREV, "k", 11 },
	{ MODE_METRICS, NK_UP, ACT_FIELD_PREV, "Up", 0 },
	{ MODE_METRICS, NK_ENTER, ACT_APPLY, "Enter", 12 },
	{ MODE_METRICS, NK_ESC, ACT_CANCEL, "Esc", 14 },
	{ MODE_PANEL, 'j', ACT_FIELD_NEXT, "j", 10 },
	{ MODE_PANEL, NK_DOWN, ACT_FIELD_NEXT, "Down", 0 },
	{ MODE_PANEL, 'k', ACT_FIELD_PREV, "k", 11 },
	{ MODE_PANEL, NK_UP, ACT_FIELD_PREV, "Up", 0 },
	{ MODE_PANEL, NK_ENTER, ACT_APPLY, "Enter", 12 },
	{ MODE_PANEL, 'z', ACT_ZOOM, "z", 13 },
	{ MODE_PANEL, NK_ESC, ACT_CANCEL, "Esc", 14 },
	{ MODE_FORM, NK_ENTER, ACT_ACCEPT, "Enter", 10 },
	{ MODE_FORM, NK_ESC, ACT_CANCEL, "Esc", 11 },
	{ MODE_FORM, NK_DOWN, ACT_FIELD_NEXT, "Down", 12 },
	{ MODE_FORM, NK_TAB, ACT_FIELD_NEXT, "Tab", 0 },
	{ MODE_FORM, NK_UP, ACT_FIELD_PREV, "Up", 13 },
	{ MODE_FORM, NK_BTAB, ACT_FIELD_PREV, "S-Tab", 0 },
	{ MODE_FORM, NK_RIGHT, ACT_CHOICE_NEXT, "Right", 14 },
	{ MODE_FORM, NK_LEFT, ACT_CHOICE_PREV, "Left", 15 },
	{ MODE_FORM, NK_PGDN, ACT_BOTTOM, "PgDn", 0 },
	{ MODE_FORM, NK_PGUP, ACT_TOP, "PgUp", 0 },
	{ MODE_FORM, NK_CTRL_C, ACT_CANCEL, "C-c", 0 },
	{ MODE_PALETTE, NK_ENTER, ACT_ACCEPT, "Enter", 10 },
	{ MODE_PALETTE, NK_ESC, ACT_CANCEL, "Esc", 11 },
	{ MODE_PALETTE, 'j', ACT_FIELD_NEXT, "j", 12 },
	{ MODE_PALETTE, NK_DOWN, ACT_FIELD_NEXT, "Down", 0 },
	{ MODE_PALETTE, 'k', ACT_FIELD_PREV, "k", 13 },
	{ MODE_PALETTE, NK_UP, ACT_FIELD_PREV, "Up", 0 },
	{ MODE_COMMAND, NK_ENTER, ACT_ACCEPT, "Enter", 10 },
	{ MODE_COMMAND, NK_ESC, ACT_CANCEL, "Esc", 11 },
	{ MODE_COMMAND, NK_CTRL_C, ACT_CANCEL, "C-c", 0 },
	{ MODE_COMMAND, NK_TAB, ACT_COMPLETE, "Tab", 12 },
	{ MODE_SEARCH, NK_ENTER, ACT_ACCEPT, "Enter", 10 },
	{ MODE_SEARCH, NK_ESC, ACT_CANCEL, "Esc", 11 },
	{ MODE_SEARCH, NK_CTRL_C, ACT_CANCEL, "C-c", 0 },
	{ MODE_HELP, NK_ESC, ACT_CANCEL, "Esc", 10 },
	{ MODE_HELP, 'j', ACT_SCROLL_DOWN, "j", 11 },
	{ MODE_HELP, NK_DOWN, ACT_SCROLL_DOWN, "Down", 0 },
	{ MODE_HELP, 'k', ACT_SCROLL_UP, "k", 12 },
	{ MODE_HELP, NK_UP, ACT_SCROLL_UP, "Up", 0 },
	{ MODE_HELP, ' ', ACT_PAGE_DOWN, "Space", 13 },
	{ MODE_CONFIRM, 'y', ACT_YES, "y", 10 },
	{ MODE_CONFIRM, 'n', ACT_NO, "n", 11 },
	{ MODE_CONFIRM, NK_ESC, ACT_CANCEL, "Esc", 12 },
	{ MODE_CONFIRM, NK_CTRL_C, ACT_INTERRUPT, "C-c", 0 },
	{ MODE_INSIDE, NK_ESC, ACT_CANCEL, "Esc", 10 },
	{ MODE_INSIDE, 'j', ACT_FIELD_NEXT, "j", 11 },
	{ MODE_INSIDE, NK_DOWN, ACT_FIELD_NEXT, "Down", 0 },
	{ MODE_INSIDE, 'k', ACT_FIELD_PREV, "k", 12 },
	{ MODE_INSIDE, NK_UP, ACT_FIELD_PREV, "Up", 0 },
	{ MODE_INSIDE, NK_ENTER, ACT_EDIT, "Enter", 13 },
	{ MODE_INSIDE, 'a', ACT_ADD, "a", 14 },
	{ MODE_INSIDE, 'd', ACT_DELETE, "d", 15 },
	{ MODE_INSIDE, '+', ACT_INC, "+", 16 },
	{ MODE_INSIDE, '-', ACT_DEC, "-", 17 },
	{ MODE_PLOT, NK_ESC, ACT_CANCEL, "Esc", 10 },
	{ MODE_PLOT, 'y', ACT_PLOT_SCALE, "y", 11 },
	{ MODE_TEACH, ' ', ACT_STEP_NEXT, "Space", 10 },
	{ MODE_TEACH, 'l', ACT_STEP_NEXT, "l", 0 },
	{ MODE_TEACH, NK_RIGHT, ACT_STEP_NEXT, "Right", 0 },
	{ MODE_TEACH, 'h', ACT_STEP_PREV, "h", 11 },
	{ MODE_TEACH, NK_LEFT, ACT_STEP_PREV, "Left", 0 },
	{ MODE_TEACH, NK_BACKSPACE, ACT_STEP_PREV, "BS", 0 },
	{ MODE_TEACH, '0', ACT_STEP_FIRST, "0", 0 },
	{ MODE_TEACH, NK_HOME, ACT_STEP_FIRST, "Home", 0 },
	{ MODE_TEACH, NK_GG, ACT_STEP_FIRST, "gg", 0 },
	{ MODE_TEACH, '$', ACT_STEP_LAST, "$", 0 },
	{ MODE_TEACH, NK_END, ACT_STEP_LAST, "End", 0 },
	{ MODE_TEACH, 'G', ACT_STEP_LAST, "G", 0 },
	{ MODE_TEACH, 'p', ACT_PLAY, "p", 12 },
	{ MODE_TEACH, 'P', ACT_PLAY_BACK, "P", 0 },
	{ MODE_TEACH, '>', ACT_FASTER, ">", 0 },
	{ MODE_TEACH, '<', ACT_SLOWER, "<", 0 },
	{ MODE_TEACH, 'f', ACT_FORMULAS, "f", 13 },
	{ MODE_TEACH, 'c', ACT_CONGESTION, "c", 14 },
	{ MODE_TEACH, 'r', ACT_REDRAW_HASH, "r", 0 },
	{ MODE_TEACH, NK_ESC, ACT_CANCEL, "Esc", 15 },
	{ MODE_COMPARE, NK_ESC, ACT_CANCEL, "Esc", 10 },
	{ MODE_COMPARE, 'j', ACT_SCROLL_DOWN, "j", 11 },
	{ MODE_COMPARE, NK_DOWN, ACT_SCROLL_DOWN, "Down", 0 },
	{ MODE_COMPARE, 'k', ACT_SCROLL_UP, "k", 12 },
	{ MODE_COMPARE, NK_UP, ACT_SCROLL_UP, "Up", 0 },
	{ MODE_RACKS, NK_ESC, ACT_CANCEL, "Esc", 10 },
	{ MODE_RACKS, 'l', ACT_FIELD_NEXT, "l", 11 },
	{ MODE_RACKS, NK_RIGHT, ACT_FIELD_NEXT, "Right", 0 },
	{ MODE_RACKS, 'h', ACT_FIELD_PREV, "h", 12 },
	{ MODE_RACKS, NK_LEFT, ACT_FIELD_PREV, "Left", 0 },
	{ MODE_RACKS, 'j', ACT_DOWN, "j", 13 },
	{ MODE_RACKS, NK_DOWN, ACT_DOWN, "Down", 0 },
	{ MODE_RACKS, 'k', ACT_UP, "k", 14 },
	{ MODE_RACKS, NK_UP, ACT_UP, "Up", 0 },
	{ MODE_LESSON, 'n', ACT_PAGE_NEXT, "n", 10 },
	{ MODE_LESSON, ' ', ACT_PAGE_NEXT, "Space", 0 },
	{ MODE_LESSON, NK_RIGHT, ACT_PAGE_NEXT, "Right", 0 },
	{ MODE_LESSON, 'b', ACT_PAGE_PREV, "b", 11 },
	{ MODE_LESSON, NK_LEFT, ACT_PAGE_PREV, "Left", 0 },
	{ MODE_LESSON, NK_ESC, ACT_CANCEL, "Esc", 12 },
	{ MODE_TEMPLATES, NK_ENTER, ACT_ACCEPT, "Enter", 10 },
	{ MODE_TEMPLATES, NK_ESC, ACT_CANCEL, "Esc", 11 },
	{ MODE_TEMPLATES, 'j', ACT_FIELD_NEXT, "j", 12 },
	{ MODE_TEMPLATES, NK_DOWN, ACT_FIELD_NEXT, "Down", 0 },
	{ MODE_TEMPLATES, 'k', ACT_FIELD_PREV, "k", 13 },
	{ MODE_TEMPLATES, NK_UP, ACT_FIELD_PREV, "Up", 0 },
	{ MODE_EXPORT, NK_ENTER, ACT_ACCEPT, "Enter", 10 },
	{ MODE_EXPORT, NK_ESC, ACT_CANCEL, "Esc", 11 },
	{ MODE_EXPORT, 'j', ACT_FIELD_NEXT, "j", 12 },
	{ MODE_EXPORT, NK_DOWN, ACT_FIELD_NEXT, "Down", 0 },
	{ MODE_EXPORT, 'k', ACT_FIELD_PREV, "k", 13 },
	{ MODE_EXPORT, NK_UP, ACT_FIELD_PREV, "Up", 0 },
	{ MODE_MESSAGES, NK_ESC, ACT_CANCEL, "Esc", 10 },
	{ MODE_MESSAGES, 'j', ACT_SCROLL_DOWN, "j", 11 },
	{ MODE_MESSAGES, NK_DOWN, ACT_SCROLL_DOWN, "Down", 0 },
	{ MODE_MESSAGES, 'k', ACT_SCROLL_UP, "k", 12 },
	{ MODE_MESSAGES, NK_UP, ACT_SCROLL_UP, "Up", 0 },
	{ MODE_ERRORS, NK_ESC, ACT_CANCEL, "Esc", 10 },
	{ MODE_ERRORS, 'j', ACT_SCROLL_DOWN, "j", 11 },
	{ MODE_ERRORS, NK_DOWN, ACT_SCROLL_DOWN, "Down", 0 },
	{ MODE_ERRORS, 'k', ACT_SCROLL_UP, "k", 12 },
	{ MODE_ERRORS, NK_UP, ACT_SCROLL_UP, "Up", 0 },
};
const size_t keymap_len = sizeof keymap / sizeof keymap[0];

const char *action_name(enum action a) { return action_names[a]; }
const char *action_help(enum action a) { return action_helps[a]; }
const char *mode_name(enum mode m) { return mode_names[m]; }

int action_lookup(const char *name)
{
	int i;
	for (i = 0; i < ACT_COUNT; i++)
		if (strcmp(action_names[i], name) == 0)
			return i;
	return -1;
}

/* Every message also goes to the history (:messages): the status line may cut it, the history
 * never does. A message said again at once is kept once. */
unsigned say(struct app *app, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(app->msg, sizeof app->msg, fmt, ap);
	va_end(ap);
	app->msg_error = error;
	if (app->msg[0]) {
		int last = app->nmsgs ? (app->nmsgs - 1) % MSG_KEEP : 0;
		if (!app->nmsgs || strcmp(app->msgs[last].text, app->msg) || app->msgs[last].error != error) {
			int k = app->nmsgs++ % MSG_KEEP;
			memcpy(app->msgs[k].text, app->msg, sizeof app->msgs[k].text);
			app->msgs[k].error = error;
		}
	}
	return CHG_VIEW;
}

unsigned edit_result(struct app *app, bool ok)
{
	if (!ok)
		return say(app, true, "%s", app->ed.msg);
	app->msg[0] = '\0';
	app->msg_error = false;
	return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

/* ---- life cycle ---------------------------------------------------------------------- */

void app_init(struct app *app, struct design *d, const struct catalog *shipped, const char *file)
{
	memset(app, 0, sizeof *app);
	app->design = *d;
	memset(d, 0, sizeof *d);
	app->shipped = shipped;
	ed_init(&app->ed, &app->design, shipped);
	mark_saved(app);
	snprintf(app->file, sizeof app->file, "%s", file ? file : "");
	app->builtin = !app->file[0];
	app->mode = app->back = MODE_CANVAS;
	app->bytes = 1024.0 * 1024 * 1024;
	app->algo_view = -1;
	app->teach_speed = 2;
	app->cong_seed = 1;
	app->mouse = true;
	app->drag_id = -1;
	app->fail_generation = -1;
	app->plan_generation = -1;
	app_recompute(app);
	ensure_selection(app);
	app_layout(app, APP_MIN_W, APP_MIN_H);
	disk_remember(app);
}

void app_free(struct app *app)
{
	rackview_free(app);
	form_clear(&app->form);
	ed_free(&app->ed);
	design_free(&app->design);
	catalog_free(&app->catalog);
	inventory_free(&app->inv);
	if (app->inv_of_valid)
		design_free(&app->inv_of);
	diag_free(&app->problems);
	diag_free(&app->plan_parts);
	price_list_free(&app->prices);
	placement_free(&app->place);
	if (app->pinned)
		design_free(&app->pin);
	if (app->saved_valid)
		design_free(&app->saved);
	vec_release(&app->cmp_changes);
	diag_free(&app->load_errors);
	template_forget(app);
	if (app->stash.active) {
		ed_history_free(&app->stash.hist);
		design_free(&app->stash.design);
		if (app->stash.saved_valid)
			design_free(&app->stash.saved);
	}
}

const struct inventory *app_inventory(struct app *app)
{
	if (!app->inv_of_valid || !inventory_same_inputs(&app->inv_of, &app->design)) {
		inventory_free(&app->inv);
		inventory_compute(&app->design, &app->catalog, &app->inv);
		if (app->inv_of_valid)
			design_free(&app->inv_of);
		design_copy(&app->inv_of, &app->design);
		app->inv_of_valid = true;
	}
	return &app->inv;
}

/* The cost and power of the design as it is now; after an edit the figures before it are
 * kept for the panel's change (a recompute for the size or the pattern keeps them). */
static void cost_refresh(struct app *app)
{
	struct bom b;
	struct cost c;
	struct cost_figs *f = &app->cost;
	if (app->cost.valid && app->cost_generation == app->ed.generation)
		return; /* the design is as it was (a new size or pattern): so are its cost and power */
	if (app->ed.generation == app->fail_generation && app->cost.valid) {
		/* A failure buys nothing and removes nothing: the figures of the design it failed
		 * (fail_command makes them first when an edit left them pending). */
		app->cost.as_built = true;
		app->cost_before = app->cost;
		app->cost_generation = app->ed.generation;
		return;
	}
	if (!app->cost.valid)
		app->cost_before.valid = false;
	else /* as the last key, command or click found it: a form's fields or an advice's
	      * commands are one change */
		app->cost_before = app->cost_start.valid ? app->cost_start : app->cost;
	{
		/* The plan walks every link: its warnings come with it, not with every edit. */
		struct cableplan plan;
		cableplan_build(&app->design, &app->catalog, &plan, NULL, NULL);
		bom_from_plan(&app->design, &app->catalog, &plan, &b);
		diag_clear(&app->plan_parts);
		diag_append(&app->plan_parts, &plan.parts);
		app->plan_generation = app->ed.generation;
		diag_append(&app->problems, &app->plan_parts);
		cableplan_free(&plan);
	}
	cost_compute(&b, &app->catalog, &app->prices, app->metrics.fabric.gpus, app->metrics.fabric.bisection_GBps,
		     app->metrics.work.valid ? app->metrics.work.tokens_per_s : 0, &c);
	memset(f, 0, sizeof *f);
	f->valid = true;
	snprintf(f->currency, sizeof f->currency, "%s", c.currency);
	f->complete = c.complete;
	f->total = c.total;
	f->lines = (int)c.lines.n;
	f->unknown = c.unknown;
	f->typ_W = b.typ_W;
	f->max_W = b.max_W;
	f->typ_unknown = b.typ_unknown;
	f->max_unknown = b.max_unknown;
	app->cost_generation = app->ed.generation;
	cost_free(&c);
	bom_free(&b);
}

void edit_begin(struct app *app)
{
	if (app->run_depth++ == 0)
		app->cost_start = app->cost;
}

void edit_end(struct app *app)
{
	app->run_depth--;
}

void app_set_prices(struct app *app, struct price_list *prices, const char *file)
{
	price_list_free(&app->prices);
	app->prices = *prices;
	memset(prices, 0, sizeof *prices);
	snprintf(app->prices_file, sizeof app->prices_file, "%s", file ? file : "");
	app->cost.valid = false; /* other prices are not a change of the design */
	app_recompute(app);
}

void app_recompute(struct app *app)
{
	recover_app_begin(app); /* a signal while the model computes still saves the work */
	diag_clear(&app->problems);
	/* The editor checked the design once when it changed: every view shares that (the
	 * catalog copied again only when the editor made it again). */
	if (app->catalog_serial != ed_catalog_serial(&app->ed)) {
		catalog_free(&app->catalog);
		schema_copy(&catalog_schema, &app->catalog, ed_catalog(&app->ed));
		app->catalog_serial = ed_catalog_serial(&app->ed);
	}
	diag_append(&app->problems, ed_problems(&app->ed));
	/* The scaling curve only while the speedup plot shows it (app_settle). */
	metrics_compute_some(&app->design, &app->catalog, app->bytes, 0, 0, &app->metrics);
	metrics_problems(&app->metrics, &app->problems);
	if (app->plan_generation == app->ed.generation)
		diag_append(&app->problems, &app->plan_parts); /* the cable plan's, when it is this design's */
	if ((app->cost.valid && app->cost_generation == app->ed.generation) ||
	    (app->cost.valid && app->ed.generation == app->fail_generation))
		cost_refresh(app); /* no BOM to walk: the figures are the ones there are */
	else
		app->cost_pending = true;
	{
		int k, u;
		app->plot_n = sweep_sizes(app->plot_sizes, 40);
		for (k = 0; k < app->plot_n; k++) {
			struct coll_result r;
			metrics_at(&app->metrics, (enum coll)app->pattern, app->plot_sizes[k], &r);
			for (u = 0; u < UA_COUNT; u++)
				app->plot_busbw[u][k] = r.algo[u].available ? r.algo[u].busbw_GBps : -1;
			app->plot_pick[k] = r.auto_algo;
		}
	}
	compare_refresh(app);
	if (app->mode == MODE_RACKS)
		rackview_refresh(app);
	teach_rebuild(app);
	recover_compute_end();
}

void app_canvas_area(int w, int h, int *x, int *y, int *cw, int *ch)
{
	/* Title on row 0, status on the last row; the metrics panel on the right from 120
	 * columns, else below the canvas. */
	*x = 0;
	*y = 1;
	if (w >= 120) {
		*cw = w - 46;
		*ch = h - 2;
	} else {
		*cw = w;
		*ch = h - 2 - (h >= 40 ? 16 : 9);
	}
	if (*ch < 3)
		*ch = 3;
}

void app_layout(struct app *app, int w, int h)
{
	int x, y, cw, ch;
	app_canvas_area(w, h, &x, &y, &cw, &ch);
	placement_free(&app->place);
	app->screen_w = w;
	app->screen_h = h;
	app->canvas_w = cw;
	app->canvas_h = ch;
	/* Inside the canvas's frame. */
	place_design(&app->design, cw - 2, ch - 2, &app->place);
	{
		const long *down, *up;
		ed_ports(&app->ed, &down, &up);
		place_routes_ports(&app->design, &app->catalog, down, up, &app->place);
	}
}

bool app_idle_pending(const struct app *app)
{
	return app->cost_pending;
}

unsigned app_idle(struct app *app)
{
	if (!app->cost_pending)
		return 0;
	app->cost_pending = false;
	cost_refresh(app);
	return CHG_VIEW;
}

void app_settle(struct app *app, unsigned chg)
{
	if (chg & CHG_MODEL)
		app_recompute(app);
	if (chg & (CHG_MODEL | CHG_LAYOUT))
		app_layout(app, app->screen_w, app->screen_h);
	/* The speedup plot shows the scaling curve, which a recompute leaves out (a dozen
	 * placements of the job that no other view shows). */
	if (app->mode == MODE_PLOT && app->plot == PLOT_SPEEDUP && !app->metrics.work.has_curve)
		metrics_curve(&app->design, &app->catalog, &app->metrics);
}

bool app_dirty(const struct app *app)
{
	if (app->stash.active) /* the lesson's designs are not the user's work */
		return app->stash.generation != app->stash.saved_generation &&
		       !(app->stash.saved_valid && design_equal(&app->stash.design, &app->stash.saved));
	return app->ed.generation != app->saved_generation &&
	       !(app->saved_valid && design_equal(&app->design, &app->saved));
}

bool app_work(const struct app *app, const struct design **d, const char **file)
{
	*d = app->stash.active ? &app->stash.design : &app->design;
	*file = app->stash.active ? app->stash.file : app->file;
	return app_dirty(app);
}

/* ---- dispatch ------------------------------------------------------------------------------ */

const struct mode_ops mode_ops[MODE_COUNT] = {
	[MODE_ANY] = { NULL, NULL, NULL, SCREEN_OVER, false },
	[MODE_CANVAS] = { NULL, NULL, NULL, SCREEN_OVER, false },
	[MODE_METRICS] = { panel_action, NULL, NULL, SCREEN_OVER, false },
	[MODE_FORM] = { form_action, form_text, form_draw, SCREEN_OVER, false },
	[MODE_PALETTE] = { palette_action, NULL, palette_draw, SCREEN_OVER, false },
	[MODE_COMMAND] = { command_action, command_text, NULL, SCREEN_OVER, false },
	[MODE_SEARCH] = { search_action, search_text, NULL, SCREEN_OVER, false },
	[MODE_HELP] = { help_action, NULL, help_draw, SCREEN_FULL, false },
	[MODE_CONFIRM] = { confirm_action, confirm_text, confirm_draw, SCREEN_OVER, true },
	[MODE_INSIDE] = { inside_action, NULL, NULL, SCREEN_OVER, false },
	[MODE_PLOT] = { plot_action, NULL, plot_draw, SCREEN_FULL, false },
	[MODE_TEMPLATES] = { templates_action, NULL, templates_draw, SCREEN_OVER, false },
	[MODE_EXPORT] = { export_action, NULL, export_draw, SCREEN_OVER, false },
	[MODE_COMPARE] = { compare_action, NULL, compare_draw, SCREEN_FULL, false },
	[MODE_TEACH] = { teach_action, NULL, teach_draw, SCREEN_FULL, false },
	[MODE_LESSON] = { lesson_action, NULL, lesson_draw, SCREEN_OVER, false },
	[MODE_PANEL] = { panel_action, NULL, panel_zoom_draw, SCREEN_FULL, false },
	[MODE_MESSAGES] = { messages_action, NULL, messages_draw, SCREEN_FULL, false },
	[MODE_ERRORS] = { errors_action, NULL, errors_draw, SCREEN_FULL, false },
	[MODE_RACKS] = { rackview_action, NULL, rackview_draw, SCREEN_FULL, false },
};

/* The next of auto and the algorithms that run AllReduce here, as NCCL_ALGO would force it;
 * an edit of job.algo, so u undoes it. */
static unsigned force_algo(struct app *app)
{
	static const int ua[] = { [ALGO_RING] = UA_RING, [ALGO_TREE] = UA_TREE, [ALGO_NVLS] = UA_NVLS,
				  [ALGO_NVLSTREE] = UA_NVLSTREE, [ALGO_COLLNET] = UA_COLLNET };
	const struct coll_result *ar = &app->metrics.colls[COLL_ALLREDUCE];
	int next = app->design.job.algo, k;
	for (k = 0; k <= ALGO_COLLNET; k++) {
		next = (next + 1) % (ALGO_COLLNET + 1);
		if (next == ALGO_AUTO || ar->algo[ua[next]].available)
			break;
	}
	return force_algo_to(app, next);
}

unsigned force_algo_to(struct app *app, int algo)
{
	static const int ua[] = { [ALGO_RING] = UA_RING, [ALGO_TREE] = UA_TREE, [ALGO_NVLS] = UA_NVLS,
				  [ALGO_NVLSTREE] = UA_NVLSTREE, [ALGO_COLLNET] = UA_COLLNET };
	unsigned chg;
	if (algo == app->design.job.algo)
		return say(app, false, "the job already %s%s", algo ? "forces NCCL_ALGO=" : "leaves the algorithm to NCCL",
			   algo ? ualgo_labels[ua[algo]] : "");
	chg = edit_result(app, ed_set(&app->ed, 0, "job.algo", algo_names[algo]));
	if (app->msg_error)
		return chg;
	app_recompute(app);
	if (algo == ALGO_AUTO)
		return chg | say(app, false, "NCCL chooses the algorithm again (NCCL_ALGO unset): %s %.1f GB/s busbw (u undoes)",
				 ualgo_labels[coll_pick(&app->metrics.colls[COLL_ALLREDUCE], 0) - app->metrics.colls[COLL_ALLREDUCE].algo],
				 coll_pick(&app->metrics.colls[COLL_ALLREDUCE], 0)->busbw_GBps);
	return chg | say(app, false, "NCCL_ALGO=%s for the job: AllReduce %.1f GB/s busbw (A: the next, u undoes)",
			 ualgo_labels[ua[algo]], coll_pick(&app->metrics.colls[COLL_ALLREDUCE], algo)->busbw_GBps);
}

/* ZZ and :x: save when there is something to save, then quit. */
static unsigned write_quit(struct app *app, const char *path)
{
	unsigned c;
	if (!app_dirty(app) && !(path && path[0]))
		return CHG_QUIT;
	if (!(path && path[0]) && !app->file[0]) {
		char safe[80];
		snprintf(app->cmdline, sizeof app->cmdline, "x %s.yaml", safe_filename(app->design.name, safe, sizeof safe));
		app->mode = MODE_COMMAND;
		return say(app, false, "the design has no file yet: Enter saves it under this name and quits");
	}
	c = path && path[0] ? save_as(app, path, true) : save_checked(app, app->file);
	return app->msg_error || app->mode == MODE_CONFIRM ? c : CHG_QUIT;
}

unsigned app_write_quit(struct app *app, const char *path)
{
	return write_quit(app, path);
}

/* Actions that work in every mode, and the defaults of those a mode may take itself
 * (Enter, Esc, the list keys). Actions of one mode's file reached from elsewhere (a script's
 * @step-next, say) go to that file. */
static unsigned global_action(struct app *app, enum action a)
{
	switch (a) {
	case ACT_QUIT:
		if (app->stash.active) /* quitting asks about the user's design, not the lesson's */
			lesson_end(app);
		if (!app_dirty(app))
			return CHG_QUIT;
		app->mode = MODE_CONFIRM;
		app->confirm = CONFIRM_QUIT;
		snprintf(app->confirm_text, sizeof app->confirm_text,
			 "Unsaved changes. Quit without saving? (y quits, n stays; w saves first%s)",
			 app->interrupted ? "; C-c again keeps them in a recovery file and quits" : "");
		return CHG_VIEW;
	case ACT_INTERRUPT: {
		/* As q: it closes a view, or quits (asking first when there are unsaved changes). */
		unsigned c;
		app->interrupted = true;
		c = app_run(app, ACT_QUIT);
		app->interrupted = (c & CHG_QUIT) || (app->mode == MODE_CONFIRM && app->confirm == CONFIRM_QUIT);
		return c;
	}
	case ACT_WRITE_QUIT:
		return write_quit(app, NULL);
	case ACT_QUIT_DISCARD:
		return CHG_QUIT;
	case ACT_HELP:
		return help_open(app);
	case ACT_REDRAW:
		return CHG_VIEW | CHG_LAYOUT;
	case ACT_UNDO:
	case ACT_REDO: {
		unsigned c = edit_result(app, a == ACT_UNDO ? ed_undo(&app->ed) : ed_redo(&app->ed));
		ensure_selection(app);
		template_follow(app);
		if (!app->msg_error)
			say(app, false, "%s", a == ACT_UNDO ? "undone" : "redone");
		return c;
	}
	case ACT_SAVE:
		if (!app->file[0]) {
			/* No file yet: ask for a name on the command line, a name already filled in. */
			char safe[80];
			snprintf(app->cmdline, sizeof app->cmdline, "w %s.yaml", safe_filename(app->design.name, safe, sizeof safe));
			app->mode = MODE_COMMAND;
			return say(app, false, "the design has no file yet: Enter saves it under this name (edit it first if you like)");
		}
		return save_checked(app, app->file);
	case ACT_COMMAND:
		app->cmdline[0] = '\0';
		app->mode = MODE_COMMAND;
		return CHG_VIEW;
	case ACT_SEARCH:
		app->search[0] = '\0';
		app->mode = MODE_SEARCH;
		return CHG_VIEW;
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV:
		return search_step(app, a == ACT_SEARCH_NEXT ? 1 : -1);
	case ACT_FOCUS:
		app->mode = app->mode == MODE_METRICS || app->mode == MODE_PANEL ? MODE_CANVAS : MODE_METRICS;
		return CHG_VIEW;
	case ACT_ZOOM:
		return panel_zoom(app);
	case ACT_APPLY:
		return panel_apply(app);
	case ACT_PATTERN:
		app->pattern = (app->pattern + 1) % PATTERNS;
		return CHG_MODEL | CHG_VIEW;
	case ACT_ALGO:
		app->algo_view = app->algo_view + 1 >= UA_P2P ? -1 : app->algo_view + 1;
		if (app->mode != MODE_TEACH)
			say(app, false, "the panel shows %s (V: the next; A forces one for the job)",
			    app->algo_view < 0 ? "every algorithm" : ualgo_labels[app->algo_view]);
		return CHG_MODEL | CHG_VIEW; /* the teaching view follows it */
	case ACT_FORCE_ALGO:
		return force_algo(app);
	case ACT_SIZE_UP:
	case ACT_SIZE_DOWN:
		app->bytes = a == ACT_SIZE_UP ? app->bytes * 2 : app->bytes / 2;
		if (app->bytes < 8)
			app->bytes = 8;
		if (app->bytes > 16.0 * 1024 * 1024 * 1024)
			app->bytes = 16.0 * 1024 * 1024 * 1024;
		return CHG_MODEL | CHG_VIEW;
	case ACT_PLOT_BUSBW:
	case ACT_PLOT_SPEEDUP:
		return plot_open(app, a);
	case ACT_PLOT_SCALE:
		return plot_action(app, a);
	case ACT_JOB:
		return form_open_struct(app, "job", "the job");
	case ACT_FABRIC:
		return form_open_struct(app, "fabric", "fabric options");
	case ACT_TEMPLATES: {
		unsigned c = lesson_end(app); /* a template replaces the user's design, not the lesson's */
		app->mode = MODE_TEMPLATES;
		return c | CHG_VIEW;
	}
	case ACT_EXPORT:
		app->mode = MODE_EXPORT;
		return CHG_VIEW;
	case ACT_LESSON:
		return lesson_resume(app);
	case ACT_PAGE_NEXT:
	case ACT_PAGE_PREV:
		return lesson_action(app, a);
	case ACT_TEACH:
		return teach_open(app);
	case ACT_STEP_NEXT:
	case ACT_STEP_PREV:
	case ACT_STEP_FIRST:
	case ACT_STEP_LAST:
	case ACT_PLAY:
	case ACT_PLAY_BACK:
	case ACT_FASTER:
	case ACT_SLOWER:
	case ACT_FORMULAS:
	case ACT_CONGESTION:
	case ACT_REDRAW_HASH:
		return teach_action(app, a);
	case ACT_COMPARE:
		return compare_open(app);
	case ACT_RACKS:
		return rackview_open(app);
	case ACT_MOUSE:
		app->mouse = !app->mouse;
		return say(app, false, "mouse %s", app->mouse ? "on" : "off (the terminal selects text)");
	case ACT_ACCEPT:
	case ACT_YES:
	case ACT_NO:
		return CHG_NONE; /* nothing to accept or answer here */
	case ACT_CANCEL:
		form_clear(&app->form);
		app->mode = MODE_CANVAS;
		return CHG_VIEW;
	case ACT_FIELD_NEXT:
	case ACT_FIELD_PREV:
	case ACT_CHOICE_NEXT:
	case ACT_CHOICE_PREV:
	case ACT_COMPLETE:
	case ACT_SCROLL_DOWN:
	case ACT_SCROLL_UP:
	case ACT_PAGE_DOWN:
	case ACT_PAGE_UP:
		return CHG_NONE; /* nothing scrolls here */
	case ACT_COUNT:
		return CHG_NONE;
	default:
		return canvas_action(app, a);
	}
}

static unsigned app_run_dispatch(struct app *app, enum action a)
{
	const struct mode_ops *ops = &mode_ops[app->mode];
	unsigned chg;
	if (app->mode != MODE_CONFIRM && a != ACT_REDRAW)
		app->msg_error = false;
	if (ops->action && (chg = ops->action(app, a)) != CHG_PASS)
		return chg;
	chg = global_action(app, a);
	return chg == CHG_PASS ? CHG_NONE : chg;
}

unsigned app_run(struct app *app, enum action a)
{
	unsigned chg;
	edit_begin(app);
	chg = app_run_dispatch(app, a);
	edit_end(app);
	return chg;
}

/* How a key is written in the key table and the help: its label there, else itself. */
void key_label(int key, char *buf, size_t size)
{
	size_t i;
	for (i = 0; i < keymap_len; i++)
		if (keymap[i].key == key) {
			snprintf(buf, size, "%s", keymap[i].label);
			return;
		}
	if (key > 0 && key < 0x20)
		snprintf(buf, size, "C-%c", key + 'a' - 1);
	else if (key >= 0x20 && key < 0x7f)
		snprintf(buf, size, "%c", key);
	else if (key >= 0x80 && key < 0x110000)
		snprintf(buf, size, "U+%04X", (unsigned)key);
	else
		snprintf(buf, size, "a function key");
}

static unsigned app_key_dispatch(struct app *app, int key)
{
	const struct mode_ops *ops = &mode_ops[app->mode];
	size_t i;
	unsigned chg;
	char name[32];
	/* Text modes take printable keys first (q, u, w... are letters to type there). */
	if (ops->text && (chg = ops->text(app, key)) != CHG_PASS)
		return chg;
	/* vi's two-key commands: gg, ZZ, ZQ. */
	if (app->pending_key) {
		int first = app->pending_key;
		app->pending_key = 0;
		if (first == 'g' && key == 'g')
			key = NK_GG;
		else if (first == 'Z' && key == 'Z')
			key = NK_ZZ;
		else if (first == 'Z' && key == 'Q')
			key = NK_ZQ;
		else if (key == NK_ESC)
			return CHG_VIEW;
		else {
			key_label(key, name, sizeof name);
			return say(app, false, "%c%s: not a key (%s)", first, name,
				   first == 'g' ? "gg goes to the top" : "ZZ saves and quits, ZQ quits without saving");
		}
	} else if ((key == 'g' || key == 'Z') && !ops->modal) {
		app->pending_key = key;
		return CHG_VIEW;
	}
	for (i = 0; i < keymap_len; i++)
		if (keymap[i].mode == (int)app->mode && keymap[i].key == key)
			return app_run(app, keymap[i].action);
	if (ops->modal)
		return CHG_NONE; /* answer the question first */
	for (i = 0; i < keymap_len; i++)
		if (keymap[i].mode == MODE_ANY && keymap[i].key == key)
			return app_run(app, keymap[i].action);
	key_label(key, name, sizeof name);
	if (app->mode == MODE_CANVAS)
		return say(app, false, "%s: not a key on the canvas (? lists the keys)", name);
	return say(app, false, "%s: not a key in the %s view (? lists its keys)", name, mode_names[app->mode]);
}

unsigned app_key(struct app *app, int key)
{
	unsigned chg;
	edit_begin(app);
	chg = app_key_dispatch(app, key);
	edit_end(app);
	return chg;
}
