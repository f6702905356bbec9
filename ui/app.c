/* app.c: the designer's key table, its life cycle and the dispatch of keys and actions.
 * Each mode's actions and painting live in the mode's own file (modes.h lists them); this
 * file holds what every mode shares: the one key table (dispatch, the help screen, the
 * status line and the man page's KEYS come from it), the actions that work everywhere, and
 * the recompute after an edit. Nothing here draws. */
#include "ui/app.h"
#include "ui/modes.h"
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

/* The one key table. Rows of the current mode come first, then MODE_ANY rows. */
const struct keybind keymap[] = {
	{ MODE_ANY, 'q', ACT_QUIT, "q" },
	{ MODE_ANY, '?', ACT_HELP, "?" },
	{ MODE_ANY, NK_F1, ACT_HELP, "F1" },
	{ MODE_ANY, NK_CTRL_L, ACT_REDRAW, "C-l" },
	{ MODE_ANY, 'u', ACT_UNDO, "u" },
	{ MODE_ANY, NK_CTRL_R, ACT_REDO, "C-r" },
	{ MODE_ANY, 'w', ACT_SAVE, "w" },
	{ MODE_ANY, ':', ACT_COMMAND, ":" },
	{ MODE_ANY, '/', ACT_SEARCH, "/" },
	{ MODE_ANY, 'n', ACT_SEARCH_NEXT, "n" },
	{ MODE_ANY, 'N', ACT_SEARCH_PREV, "N" },
	{ MODE_ANY, NK_TAB, ACT_FOCUS, "Tab" },
	{ MODE_ANY, 'v', ACT_PATTERN, "v" },
	{ MODE_ANY, 'g', ACT_ALGO, "g" },
	{ MODE_ANY, ']', ACT_SIZE_UP, "]" },
	{ MODE_ANY, '[', ACT_SIZE_DOWN, "[" },
	{ MODE_ANY, 'p', ACT_PLOT_BUSBW, "p" },
	{ MODE_ANY, 'P', ACT_PLOT_SPEEDUP, "P" },
	{ MODE_ANY, 'J', ACT_JOB, "J" },
	{ MODE_ANY, 'F', ACT_FABRIC, "F" },
	{ MODE_ANY, 'T', ACT_TEMPLATES, "T" },
	{ MODE_ANY, 'E', ACT_EXPORT, "E" },
	{ MODE_ANY, 'C', ACT_COMPARE, "C" },
	{ MODE_ANY, 't', ACT_TEACH, "t" },
	{ MODE_ANY, 'G', ACT_LESSON, "G" },
	{ MODE_ANY, 'M', ACT_MOUSE, "M" },
	{ MODE_CANVAS, 'h', ACT_LEFT, "h" },
	{ MODE_CANVAS, NK_LEFT, ACT_LEFT, "Left" },
	{ MODE_CANVAS, 'l', ACT_RIGHT, "l" },
	{ MODE_CANVAS, NK_RIGHT, ACT_RIGHT, "Right" },
	{ MODE_CANVAS, 'k', ACT_UP, "k" },
	{ MODE_CANVAS, NK_UP, ACT_UP, "Up" },
	{ MODE_CANVAS, 'j', ACT_DOWN, "j" },
	{ MODE_CANVAS, NK_DOWN, ACT_DOWN, "Down" },
	{ MODE_CANVAS, 'b', ACT_NEXT, "b" },
	{ MODE_CANVAS, 'B', ACT_PREV, "B" },
	{ MODE_CANVAS, NK_ENTER, ACT_EDIT, "Enter" },
	{ MODE_CANVAS, 'e', ACT_EDIT, "e" },
	{ MODE_CANVAS, 'a', ACT_ADD, "a" },
	{ MODE_CANVAS, 'd', ACT_DELETE, "d" },
	{ MODE_CANVAS, '+', ACT_INC, "+" },
	{ MODE_CANVAS, '=', ACT_INC, "=" },
	{ MODE_CANVAS, '-', ACT_DEC, "-" },
	{ MODE_CANVAS, 'H', ACT_MOVE_LEFT, "H" },
	{ MODE_CANVAS, 'L', ACT_MOVE_RIGHT, "L" },
	{ MODE_CANVAS, 'K', ACT_MOVE_UP, "K" },
	{ MODE_CANVAS, 'U', ACT_MOVE_DOWN, "U" },
	{ MODE_CANVAS, 'i', ACT_INSIDE, "i" },
	{ MODE_METRICS, 'j', ACT_SCROLL_DOWN, "j" },
	{ MODE_METRICS, NK_DOWN, ACT_SCROLL_DOWN, "Down" },
	{ MODE_METRICS, 'k', ACT_SCROLL_UP, "k" },
	{ MODE_METRICS, NK_UP, ACT_SCROLL_UP, "Up" },
	{ MODE_METRICS, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_FORM, NK_ENTER, ACT_ACCEPT, "Enter" },
	{ MODE_FORM, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_FORM, NK_DOWN, ACT_FIELD_NEXT, "Down" },
	{ MODE_FORM, NK_TAB, ACT_FIELD_NEXT, "Tab" },
	{ MODE_FORM, NK_UP, ACT_FIELD_PREV, "Up" },
	{ MODE_FORM, NK_BTAB, ACT_FIELD_PREV, "S-Tab" },
	{ MODE_FORM, NK_RIGHT, ACT_CHOICE_NEXT, "Right" },
	{ MODE_FORM, NK_LEFT, ACT_CHOICE_PREV, "Left" },
	{ MODE_PALETTE, NK_ENTER, ACT_ACCEPT, "Enter" },
	{ MODE_PALETTE, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_PALETTE, 'j', ACT_FIELD_NEXT, "j" },
	{ MODE_PALETTE, NK_DOWN, ACT_FIELD_NEXT, "Down" },
	{ MODE_PALETTE, 'k', ACT_FIELD_PREV, "k" },
	{ MODE_PALETTE, NK_UP, ACT_FIELD_PREV, "Up" },
	{ MODE_COMMAND, NK_ENTER, ACT_ACCEPT, "Enter" },
	{ MODE_COMMAND, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_COMMAND, NK_TAB, ACT_COMPLETE, "Tab" },
	{ MODE_SEARCH, NK_ENTER, ACT_ACCEPT, "Enter" },
	{ MODE_SEARCH, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_HELP, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_HELP, 'j', ACT_SCROLL_DOWN, "j" },
	{ MODE_HELP, 'k', ACT_SCROLL_UP, "k" },
	{ MODE_CONFIRM, 'y', ACT_YES, "y" },
	{ MODE_CONFIRM, 'n', ACT_NO, "n" },
	{ MODE_CONFIRM, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_INSIDE, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_INSIDE, 'j', ACT_FIELD_NEXT, "j" },
	{ MODE_INSIDE, NK_DOWN, ACT_FIELD_NEXT, "Down" },
	{ MODE_INSIDE, 'k', ACT_FIELD_PREV, "k" },
	{ MODE_INSIDE, NK_UP, ACT_FIELD_PREV, "Up" },
	{ MODE_INSIDE, NK_ENTER, ACT_EDIT, "Enter" },
	{ MODE_INSIDE, 'a', ACT_ADD, "a" },
	{ MODE_INSIDE, 'd', ACT_DELETE, "d" },
	{ MODE_INSIDE, '+', ACT_INC, "+" },
	{ MODE_INSIDE, '-', ACT_DEC, "-" },
	{ MODE_PLOT, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_TEACH, ' ', ACT_STEP_NEXT, "Space" },
	{ MODE_TEACH, 'l', ACT_STEP_NEXT, "l" },
	{ MODE_TEACH, NK_RIGHT, ACT_STEP_NEXT, "Right" },
	{ MODE_TEACH, 'h', ACT_STEP_PREV, "h" },
	{ MODE_TEACH, NK_LEFT, ACT_STEP_PREV, "Left" },
	{ MODE_TEACH, NK_BACKSPACE, ACT_STEP_PREV, "BS" },
	{ MODE_TEACH, '0', ACT_STEP_FIRST, "0" },
	{ MODE_TEACH, NK_HOME, ACT_STEP_FIRST, "Home" },
	{ MODE_TEACH, '$', ACT_STEP_LAST, "$" },
	{ MODE_TEACH, NK_END, ACT_STEP_LAST, "End" },
	{ MODE_TEACH, 'p', ACT_PLAY, "p" },
	{ MODE_TEACH, 'P', ACT_PLAY_BACK, "P" },
	{ MODE_TEACH, '>', ACT_FASTER, ">" },
	{ MODE_TEACH, '<', ACT_SLOWER, "<" },
	{ MODE_TEACH, 'f', ACT_FORMULAS, "f" },
	{ MODE_TEACH, 'c', ACT_CONGESTION, "c" },
	{ MODE_TEACH, 'r', ACT_REDRAW_HASH, "r" },
	{ MODE_TEACH, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_COMPARE, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_LESSON, 'n', ACT_PAGE_NEXT, "n" },
	{ MODE_LESSON, ' ', ACT_PAGE_NEXT, "Space" },
	{ MODE_LESSON, NK_RIGHT, ACT_PAGE_NEXT, "Right" },
	{ MODE_LESSON, 'b', ACT_PAGE_PREV, "b" },
	{ MODE_LESSON, NK_LEFT, ACT_PAGE_PREV, "Left" },
	{ MODE_LESSON, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_COMPARE, 'j', ACT_SCROLL_DOWN, "j" },
	{ MODE_COMPARE, NK_DOWN, ACT_SCROLL_DOWN, "Down" },
	{ MODE_COMPARE, 'k', ACT_SCROLL_UP, "k" },
	{ MODE_COMPARE, NK_UP, ACT_SCROLL_UP, "Up" },
	{ MODE_TEMPLATES, NK_ENTER, ACT_ACCEPT, "Enter" },
	{ MODE_TEMPLATES, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_TEMPLATES, 'j', ACT_FIELD_NEXT, "j" },
	{ MODE_TEMPLATES, NK_DOWN, ACT_FIELD_NEXT, "Down" },
	{ MODE_TEMPLATES, 'k', ACT_FIELD_PREV, "k" },
	{ MODE_TEMPLATES, NK_UP, ACT_FIELD_PREV, "Up" },
	{ MODE_EXPORT, NK_ENTER, ACT_ACCEPT, "Enter" },
	{ MODE_EXPORT, NK_ESC, ACT_CANCEL, "Esc" },
	{ MODE_EXPORT, 'j', ACT_FIELD_NEXT, "j" },
	{ MODE_EXPORT, NK_DOWN, ACT_FIELD_NEXT, "Down" },
	{ MODE_EXPORT, 'k', ACT_FIELD_PREV, "k" },
	{ MODE_EXPORT, NK_UP, ACT_FIELD_PREV, "Up" },
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

unsigned say(struct app *app, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(app->msg, sizeof app->msg, fmt, ap);
	va_end(ap);
	app->msg_error = error;
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
	app->mode = app->back = MODE_CANVAS;
	app->bytes = 1024.0 * 1024 * 1024;
	app->algo_view = -1;
	app->teach_speed = 2;
	app->cong_seed = 1;
	app->mouse = true;
	app->drag_id = -1;
	app_recompute(app);
	ensure_selection(app);
	app_layout(app, APP_MIN_W, APP_MIN_H);
	disk_remember(app);
}

void app_free(struct app *app)
{
	form_clear(&app->form);
	ed_free(&app->ed);
	design_free(&app->design);
	catalog_free(&app->catalog);
	inventory_free(&app->inv);
	diag_free(&app->problems);
	placement_free(&app->place);
	if (app->pinned)
		design_free(&app->pin);
	if (app->saved_valid)
		design_free(&app->saved);
	vec_release(&app->cmp_changes);
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
	metrics_problems(&app->metrics, &app->problems);
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
	teach_rebuild(app);
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
	place_routes(&app->design, &app->catalog, &app->place);
}

void app_settle(struct app *app, unsigned chg)
{
	if (chg & CHG_MODEL)
		app_recompute(app);
	if (chg & (CHG_MODEL | CHG_LAYOUT))
		app_layout(app, app->screen_w, app->screen_h);
}

bool app_dirty(const struct app *app)
{
	return app->ed.generation != app->saved_generation &&
	       !(app->saved_valid && design_equal(&app->design, &app->saved));
}

/* ---- dispatch ------------------------------------------------------------------------------ */

const struct mode_ops mode_ops[MODE_COUNT] = {
	[MODE_ANY] = { NULL, NULL, NULL, SCREEN_OVER, false },
	[MODE_CANVAS] = { NULL, NULL, NULL, SCREEN_OVER, false },
	[MODE_METRICS] = { NULL, NULL, NULL, SCREEN_OVER, false },
	[MODE_FORM] = { form_action, form_text, form_draw, SCREEN_OVER, false },
	[MODE_PALETTE] = { palette_action, NULL, palette_draw, SCREEN_OVER, false },
	[MODE_COMMAND] = { command_action, command_text, NULL, SCREEN_OVER, false },
	[MODE_SEARCH] = { search_action, search_text, NULL, SCREEN_OVER, false },
	[MODE_HELP] = { help_action, NULL, help_draw, SCREEN_ALONE, false },
	[MODE_CONFIRM] = { confirm_action, confirm_text, confirm_draw, SCREEN_OVER, true },
	[MODE_INSIDE] = { inside_action, NULL, NULL, SCREEN_OVER, false },
	[MODE_PLOT] = { plot_action, NULL, plot_draw, SCREEN_FULL, false },
	[MODE_TEMPLATES] = { templates_action, NULL, templates_draw, SCREEN_OVER, false },
	[MODE_EXPORT] = { export_action, NULL, export_draw, SCREEN_OVER, false },
	[MODE_COMPARE] = { compare_action, NULL, compare_draw, SCREEN_FULL, false },
	[MODE_TEACH] = { teach_action, NULL, teach_draw, SCREEN_FULL, false },
	[MODE_LESSON] = { lesson_action, NULL, lesson_draw, SCREEN_OVER, false },
};

/* Actions that work in every mode, and the defaults of those a mode may take itself
 * (Enter, Esc, the list keys). Actions of one mode's file reached from elsewhere (a script's
 * @step-next, say) go to that file. */
static unsigned global_action(struct app *app, enum action a)
{
	switch (a) {
	case ACT_QUIT:
		if (!app_dirty(app))
			return CHG_QUIT;
		app->mode = MODE_CONFIRM;
		app->confirm = CONFIRM_QUIT;
		snprintf(app->confirm_text, sizeof app->confirm_text,
			 "Unsaved changes. Quit without saving? (y quits, n stays; w saves first)");
		return CHG_VIEW;
	case ACT_HELP:
		return help_open(app);
	case ACT_REDRAW:
		return CHG_VIEW | CHG_LAYOUT;
	case ACT_UNDO:
	case ACT_REDO: {
		unsigned c = edit_result(app, a == ACT_UNDO ? ed_undo(&app->ed) : ed_redo(&app->ed));
		ensure_selection(app);
		if (!app->msg_error)
			say(app, false, "%s", a == ACT_UNDO ? "undone" : "redone");
		return c;
	}
	case ACT_SAVE:
		if (!app->file[0]) {
			/* No file yet: ask for a name on the command line, a name already filled in. */
			snprintf(app->cmdline, sizeof app->cmdline, "w %.100s.yaml", app->design.name);
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
		app->mode = app->mode == MODE_METRICS ? MODE_CANVAS : MODE_METRICS;
		return CHG_VIEW;
	case ACT_PATTERN:
		app->pattern = (app->pattern + 1) % PATTERNS;
		return CHG_MODEL | CHG_VIEW;
	case ACT_ALGO:
		app->algo_view = app->algo_view + 1 >= UA_P2P ? -1 : app->algo_view + 1;
		return CHG_MODEL | CHG_VIEW; /* the teaching view follows it */
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
	case ACT_JOB:
		return form_open_struct(app, "job", "the job");
	case ACT_FABRIC:
		return form_open_struct(app, "fabric", "fabric options");
	case ACT_TEMPLATES:
		app->mode = MODE_TEMPLATES;
		return CHG_VIEW;
	case ACT_EXPORT:
		app->mode = MODE_EXPORT;
		return CHG_VIEW;
	case ACT_LESSON:
		return lesson_open(app, 0);
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
		return CHG_VIEW;
	case ACT_SCROLL_DOWN:
		app->metrics_scroll++;
		return CHG_VIEW;
	case ACT_SCROLL_UP:
		if (app->metrics_scroll > 0)
			app->metrics_scroll--;
		return CHG_VIEW;
	case ACT_COUNT:
		return CHG_NONE;
	default:
		return canvas_action(app, a);
	}
}

unsigned app_run(struct app *app, enum action a)
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

unsigned app_key(struct app *app, int key)
{
	const struct mode_ops *ops = &mode_ops[app->mode];
	size_t i;
	unsigned chg;
	/* Text modes take printable keys first (q, u, w... are letters to type there). */
	if (ops->text && (chg = ops->text(app, key)) != CHG_PASS)
		return chg;
	for (i = 0; i < keymap_len; i++)
		if (keymap[i].mode == (int)app->mode && keymap[i].key == key)
			return app_run(app, keymap[i].action);
	if (ops->modal)
		return CHG_NONE; /* answer the question first */
	for (i = 0; i < keymap_len; i++)
		if (keymap[i].mode == MODE_ANY && keymap[i].key == key)
			return app_run(app, keymap[i].action);
	return CHG_NONE;
}
