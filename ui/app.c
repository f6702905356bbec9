/* app.c: the designer's state, its actions and its key table. Nothing here draws. */
#include "ui/app.h"
#include "io/design_io.h"
#include "io/export.h"
#include "io/units.h"
#include "layouts/template.h"
#include "ui/lesson.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

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

static unsigned say(struct app *app, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static unsigned say(struct app *app, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(app->msg, sizeof app->msg, fmt, ap);
	va_end(ap);
	app->msg_error = error;
	return CHG_VIEW;
}

/* ---- the file on disk -------------------------------------------------------------------- */

static bool disk_stat(const char *path, long long *mtime_ns, long long *size)
{
	struct stat st;
	if (!path[0] || stat(path, &st) != 0) {
		*mtime_ns = *size = -1;
		return false;
	}
	*mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
	*size = (long long)st.st_size;
	return true;
}

static void disk_remember(struct app *app)
{
	disk_stat(app->file, &app->disk_mtime_ns, &app->disk_size);
	app->disk_noted = false;
}

static bool disk_changed(const struct app *app)
{
	long long m, z;
	if (!app->file[0] || app->disk_mtime_ns < 0)
		return false;
	return disk_stat(app->file, &m, &z) && (m != app->disk_mtime_ns || z != app->disk_size);
}

/* ---- life cycle ---------------------------------------------------------------------- */

static void ensure_selection(struct app *app);

static void mark_saved(struct app *app);

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

static void form_clear(struct form *f)
{
	if (f->draft && f->schema) {
		schema_free(f->schema, f->draft);
		free(f->draft);
	}
	memset(f, 0, sizeof *f);
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

/* A's and B's headline numbers at the panel's message size, and what changed from A to B. */
static void compare_refresh(struct app *app)
{
	struct catalog cat;
	app->cmp_changes.n = 0;
	if (!app->pinned) {
		app->cmp_n = 0;
		app->cmp_bytes = 0;
		return;
	}
	if (app->cmp_bytes != app->bytes) { /* A does not change with B's edits: only with the size */
		design_catalog(&app->pin, app->shipped, &cat);
		app->cmp_n = headlines_of(&app->pin, &cat, app->bytes, app->cmp_a, HEADLINES_MAX);
		catalog_free(&cat);
		app->cmp_bytes = app->bytes;
	}
	headlines_collect(&app->inv, &app->metrics, app->design.job.algo, app->cmp_b, HEADLINES_MAX);
	design_diff(&app->pin, &app->design, &app->cmp_changes);
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
	app->teach_anim = app->pattern == COLL_ALLTOALL ? ANIM_A2A
			  : app->pattern != COLL_ALLREDUCE ? ANIM_RING
			  : app->algo_view == UA_TREE ? ANIM_TREE
			  : app->algo_view == UA_NVLS ? ANIM_NVLS : ANIM_RING;
	if (app->teach_anim == ANIM_NVLS) {
		app->lesson_ok = nvls_lesson_build(&app->metrics, &app->nvls, app->lesson_why, sizeof app->lesson_why);
		app->teach_steps = 2;
	} else if (app->teach_anim == ANIM_A2A) {
		app->lesson_ok = a2a_lesson_build(&app->metrics, &app->a2a, app->lesson_why, sizeof app->lesson_why);
		app->teach_steps = app->a2a.nsteps;
	} else if (app->teach_anim == ANIM_TREE) {
		app->lesson_ok = tree_lesson_build(&app->metrics, &app->tree, app->lesson_why, sizeof app->lesson_why);
		app->teach_steps = app->tree.nsteps;
	} else {
		app->lesson_ok = ring_lesson_build(&app->metrics, app->pattern, &app->lesson, app->lesson_why,
						   sizeof app->lesson_why);
		app->teach_steps = app->lesson.nsteps;
	}
	app->cong_ok = congestion_lesson_build(&app->metrics, app->cong_seed, &app->cong, app->cong_why,
					       sizeof app->cong_why);
	{ /* the formulas follow Ring AllReduce, the pattern they explain */
		struct ring_lesson ar;
		char why[200];
		app->formulas.n = 0;
		if (ring_lesson_build(&app->metrics, COLL_ALLREDUCE, &ar, why, sizeof why))
			formulas_build(&app->metrics, &ar, &app->formulas);
	}
	if (!app->lesson_ok)
		app->teach_steps = 0;
	if (app->teach_shown != app->pattern * 8 + app->teach_anim) {
		/* another pattern or algorithm: its animation starts at the beginning */
		app->teach_shown = app->pattern * 8 + app->teach_anim;
		app->teach_step = 0;
		app->teach_play = 0;
	}
	if (app->teach_step > app->teach_steps)
		app->teach_step = app->teach_steps;
	if (!app->lesson_ok)
		app->teach_play = 0;
}

static unsigned teach_move(struct app *app, int to)
{
	int last = app->lesson_ok ? app->teach_steps : 0;
	app->teach_step = to < 0 ? 0 : to > last ? last : to;
	if ((app->teach_play > 0 && app->teach_step == last) || (app->teach_play < 0 && app->teach_step == 0))
		app->teach_play = 0; /* played to the end */
	return CHG_VIEW;
}

unsigned app_tick(struct app *app)
{
	/* Speeds 1, 2, 4, 8, 16 steps a second on a 250 ms tick: every 4th, 2nd tick, or 1, 2, 4 steps a tick. */
	int every = app->teach_speed < 2 ? 4 >> app->teach_speed : 1;
	int steps = app->teach_speed > 2 ? 1 << (app->teach_speed - 2) : 1;
	if (app->mode != MODE_TEACH || !app->teach_play || !app->lesson_ok)
		return CHG_NONE;
	if (++app->teach_ticks % every)
		return CHG_NONE;
	return teach_move(app, app->teach_step + app->teach_play * steps);
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

/* The design on screen is what its file holds now. */
static void mark_saved(struct app *app)
{
	if (app->saved_valid)
		design_free(&app->saved);
	design_copy(&app->saved, &app->design);
	app->saved_valid = true;
	app->saved_generation = app->ed.generation;
}

/* ---- selection ------------------------------------------------------------------------- */

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

static void ensure_selection(struct app *app)
{
	const struct schema *s;
	int ids[1];
	if (!app->selected || !ed_object(&app->design, app->selected, &s))
		app->selected = items(app, ids, 1) ? ids[0] : 0;
}

static const struct block *block_of(const struct app *app, int id)
{
	size_t i;
	for (i = 0; i < app->place.blocks.n; i++) {
		const struct block *b = &VEC_AT(app->place.blocks, struct block, i);
		if (b->id == id && b->kind != GK_NOTE && b->kind != GK_NONE)
			return b;
	}
	return NULL;
}

/* The nearest block in a direction (dx, dy), by the centres of the boxes. */
static unsigned select_dir(struct app *app, int dx, int dy)
{
	const struct block *cur = block_of(app, app->selected);
	size_t i;
	int best = -1;
	long best_d = 0;
	if (!cur) {
		ensure_selection(app);
		return CHG_VIEW;
	}
	for (i = 0; i < app->place.blocks.n; i++) {
		const struct block *b = &VEC_AT(app->place.blocks, struct block, i);
		long ax = cur->x + cur->w / 2, ay = cur->y + cur->h / 2, bx = b->x + b->w / 2, by = b->y + b->h / 2, d;
		if (b->id == cur->id || b->w == 0 || b->kind == GK_NOTE || b->kind == GK_NONE)
			continue;
		if ((dx && (bx - ax) * dx <= 0) || (dy && (by - ay) * dy <= 0))
			continue;
		/* Distance along the direction counts once, across it three times. */
		d = dx ? labs(bx - ax) + 3 * labs(by - ay) : labs(by - ay) * 2 + labs(bx - ax);
		if (best < 0 || d < best_d) {
			best = b->id;
			best_d = d;
		}
	}
	if (best >= 0)
		app->selected = best;
	return CHG_VIEW;
}

static unsigned select_step(struct app *app, int dir)
{
	int ids[1024];
	size_t n = items(app, ids, 1024), i, cur = 0;
	if (!n)
		return CHG_NONE;
	for (i = 0; i < n; i++)
		if (ids[i] == app->selected)
			cur = i;
	cur = (cur + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
	app->selected = ids[cur];
	return CHG_VIEW;
}

static const char *selected_name(const struct app *app)
{
	const struct schema *s;
	const void *obj = ed_object_const(&app->design, app->selected, &s);
	if (!obj || s == &bundle_schema)
		return NULL;
	return (const char *)obj + sizeof(int);
}

static unsigned edit_result(struct app *app, bool ok)
{
	if (!ok)
		return say(app, true, "%s", app->ed.msg);
	app->msg[0] = '\0';
	app->msg_error = false;
	return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

/* ---- forms ------------------------------------------------------------------------------ */

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
		snprintf(f->err[i], sizeof f->err[i], "not in the catalog (Left/Right lists the choices)");
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

/* A form over the single-value fields of obj (a block, the job, a NIC entry...). */
static void form_open(struct app *app, int purpose, const struct schema *s, const void *obj, int target,
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

static unsigned open_edit(struct app *app)
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

static unsigned open_struct_form(struct app *app, const char *key, const char *title)
{
	const struct field *fl = schema_field(&design_schema, key);
	char prefix[48];
	snprintf(prefix, sizeof prefix, "%s.", key);
	form_open(app, FORM_EDIT, fl->sub, field_struct(fl, &app->design), 0, prefix, title);
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
		struct design nd;
		char err[600], kv[300];
		template_defaults(t, &v);
		for (i = 0; i < f->nfields; i++) {
			snprintf(kv, sizeof kv, "%s=%s", t->params[i].name, f->text[i]);
			if (!template_set(t, &v, kv, &app->catalog, err, sizeof err)) {
				f->cur = i;
				return say(app, true, "%s", err);
			}
		}
		design_init(&nd);
		if (!template_build(t, &v, app->shipped, &nd, err, sizeof err)) {
			design_free(&nd);
			return say(app, true, "%s", err);
		}
		ed_replace(&app->ed, &nd);
		app->selected = 0;
		ensure_selection(app);
		form_clear(f);
		app->mode = MODE_CANVAS;
		say(app, false, "new design from template '%s' (u undoes it)", t->name);
		return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
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

static unsigned form_text(struct app *app, int key)
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

/* ---- adding ------------------------------------------------------------------------------- */

static const char *const palette_items[] = { "server group", "NVLink domain group", "leaf switches", "spine switches",
					     "core switches", "bundle from the selected block", "note", NULL };

static void unique_name(const struct design *d, const char *base, char *out, size_t size)
{
	size_t i;
	int k;
	snprintf(out, size, "%s", base);
	for (k = 2; design_find(d, out, &i) != GK_NONE; k++)
		snprintf(out, size, "%s%d", base, k);
}

static unsigned palette_accept(struct app *app)
{
	struct form *f = &app->form;
	const struct schema *s;
	void *draft;
	char name[NCF_NAME_MAX];
	int item = app->palette_cur;
	static const int roles[] = { ROLE_LEAF, ROLE_SPINE, ROLE_CORE };
	switch (item) {
	case 0: s = &server_group_schema; break;
	case 1: s = &domain_group_schema; break;
	case 2: case 3: case 4: s = &switch_group_schema; break;
	case 5: s = &bundle_schema; break;
	default: {
		extern const struct schema canvas_schema;
		const struct field *fl = schema_field(&canvas_schema, "notes");
		s = fl->sub;
	}
	}
	draft = calloc(1, s->size);
	schema_init(s, draft);
	if (s == &server_group_schema) {
		struct server_group *g = draft;
		struct nic_spec *n;
		unique_name(&app->design, "srv", name, sizeof name);
		snprintf(g->name, sizeof g->name, "%s", name);
		g->count = 4;
		snprintf(g->gpu, sizeof g->gpu, "h100-sxm5");
		g->gpus = 8;
		snprintf(g->scaleup, sizeof g->scaleup, "nvswitch-gen3");
		n = vec_push(&g->nics, sizeof *n);
		snprintf(n->model, sizeof n->model, "connectx-7-ndr");
		n->count = 8;
	} else if (s == &domain_group_schema) {
		struct domain_group *m = draft;
		unique_name(&app->design, "nvl72", name, sizeof name);
		snprintf(m->name, sizeof m->name, "%s", name);
		m->count = 1;
		m->servers_each = 18;
		m->switch_trays = 9;
		snprintf(m->tray, sizeof m->tray, "nvlink5-switch-tray");
	} else if (s == &switch_group_schema) {
		struct switch_group *sw = draft;
		unique_name(&app->design, switch_role_names[roles[item - 2]], name, sizeof name);
		snprintf(sw->name, sizeof sw->name, "%s", name);
		sw->role = roles[item - 2];
		sw->count = 1;
		snprintf(sw->model, sizeof sw->model, "qm9700");
	} else if (s == &bundle_schema) {
		struct bundle *b = draft;
		const char *from = selected_name(app);
		size_t i;
		int tier;
		if (!from) {
			schema_free(s, draft);
			free(draft);
			return say(app, true, "select the lower block first (a server or switch group)");
		}
		snprintf(b->from, sizeof b->from, "%s", from);
		tier = design_tier(&app->design, from);
		for (i = 0; i < app->design.switches.n; i++)
			if (1 + DESIGN_SWITCH(&app->design, i)->role > tier) {
				snprintf(b->to, sizeof b->to, "%s", DESIGN_SWITCH(&app->design, i)->name);
				break;
			}
		b->links_each = 1;
	} else {
		struct note *n = draft;
		snprintf(n->text, sizeof n->text, "note");
		n->x = 1;
		n->y = 0;
	}
	form_open(app, FORM_ADD, s, draft, 0, "", palette_items[item]);
	f->draft = draft;
	return CHG_VIEW;
}

/* ---- files and commands ---------------------------------------------------------------- */

static unsigned save_to(struct app *app, const char *path);

static unsigned save_checked(struct app *app, const char *path)
{
	if (path == app->file && disk_changed(app)) {
		app->mode = MODE_CONFIRM;
		app->confirm = CONFIRM_OVERWRITE;
		snprintf(app->confirm_text, sizeof app->confirm_text,
			 "%.300s changed on disk since it was loaded (someone else saved it). Overwrite it with this design? (y overwrites, n keeps theirs; :e reloads it)",
			 app->file);
		return CHG_VIEW;
	}
	return save_to(app, path);
}

static unsigned save_to(struct app *app, const char *path)
{
	char err[600];
	if (!path || !path[0])
		return say(app, true, "the built-in design has no file: :w NAME saves it");
	if (!design_save(&app->design, path, err, sizeof err))
		return say(app, true, "not saved: %s (the design is still here)", err);
	if (path != app->file)
		snprintf(app->file, sizeof app->file, "%s", path);
	mark_saved(app);
	disk_remember(app);
	return say(app, false, "saved %s", app->file);
}

/* Load path into *out; on failure say why with its position (the design on screen stays). */
static bool load_or_say(struct app *app, const char *path, struct design *out)
{
	struct ncf_diag diag = { 0 };
	bool ok = design_load_file(path, app->shipped, out, &diag);
	if (!ok) {
		const struct ncf_problem *p = diag_count(&diag) ? diag_get(&diag, 0) : NULL;
		if (p && p->line)
			say(app, true, "%s:%d:%d: %s (nothing changed)", path, p->line, p->col, p->msg);
		else
			say(app, true, "%s: %s (nothing changed)", path, p ? p->msg : "cannot load");
	}
	diag_free(&diag);
	return ok;
}

static unsigned open_file(struct app *app, const char *path)
{
	struct design nd;
	if (!load_or_say(app, path, &nd))
		return CHG_VIEW;
	ed_replace(&app->ed, &nd);
	snprintf(app->file, sizeof app->file, "%s", path);
	mark_saved(app);
	disk_remember(app);
	app->selected = 0;
	ensure_selection(app);
	say(app, false, "opened %s", path);
	return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

/* Build template `name` with "KEY=VALUE" settings (space-separated in sets, may be empty)
 * into a new design that replaces this one (undoable). */
static unsigned build_template(struct app *app, const char *name, const char *sets)
{
	const struct template *t = template_find(name);
	struct tvalues v;
	struct design nd;
	char err[600], kv[300];
	const char *p = sets;
	if (!t)
		return say(app, true, "no template '%s' (T lists them)", name);
	template_defaults(t, &v);
	while (p && *p) {
		int len;
		while (*p == ' ')
			p++;
		len = (int)strcspn(p, " ");
		if (!len)
			break;
		snprintf(kv, sizeof kv, "%.*s", len, p);
		if (!template_set(t, &v, kv, &app->catalog, err, sizeof err))
			return say(app, true, "%s", err);
		p += len;
	}
	design_init(&nd);
	if (!template_build(t, &v, app->shipped, &nd, err, sizeof err)) {
		design_free(&nd);
		return say(app, true, "%s", err);
	}
	ed_replace(&app->ed, &nd);
	app->selected = 0;
	ensure_selection(app);
	say(app, false, "new design from template '%s' (u undoes it)", t->name);
	return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

/* :select NAME selects a group by name, or a bundle as FROM->TO. */
static unsigned select_named(struct app *app, const char *name)
{
	const char *arrow = strstr(name, "->");
	size_t i;
	for (i = 0; !arrow && i < app->design.servers.n; i++)
		if (!strcmp(DESIGN_SERVER(&app->design, i)->name, name))
			return app->selected = DESIGN_SERVER(&app->design, i)->id, CHG_VIEW;
	for (i = 0; !arrow && i < app->design.domains.n; i++)
		if (!strcmp(DESIGN_DOMAIN(&app->design, i)->name, name))
			return app->selected = DESIGN_DOMAIN(&app->design, i)->id, CHG_VIEW;
	for (i = 0; !arrow && i < app->design.switches.n; i++)
		if (!strcmp(DESIGN_SWITCH(&app->design, i)->name, name))
			return app->selected = DESIGN_SWITCH(&app->design, i)->id, CHG_VIEW;
	for (i = 0; arrow && i < app->design.bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(&app->design, i);
		if (strlen(b->from) == (size_t)(arrow - name) && !strncmp(b->from, name, (size_t)(arrow - name)) &&
		    !strcmp(b->to, arrow + 2))
			return app->selected = b->id, CHG_VIEW;
	}
	return say(app, true, "no block or bundle '%s' (bundles as FROM->TO)", name);
}

/* Open page i of the lesson: build its design from scratch, run its commands. */
static unsigned lesson_open(struct app *app, int i)
{
	const struct lesson_page *p = &lesson_pages[i];
	unsigned chg = build_template(app, p->template_name, p->sets);
	int k;
	for (k = 0; k < 4 && p->cmds[k] && !app->msg_error; k++)
		chg |= app_command(app, p->cmds[k]);
	app->lesson_page = i;
	app->mode = MODE_LESSON;
	app->pattern = COLL_ALLREDUCE;
	app->bytes = 1024.0 * 1024 * 1024;
	if (!app->msg_error)
		say(app, false, "lesson %d of %d: n next, b back, Esc ends it (the design stays; u undoes)", i + 1,
		    lesson_npages);
	return chg | CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

/* :pin, :unpin, :compare [FILE]. A failed load of FILE changes nothing. */
static unsigned compare_command(struct app *app, const char *cmd, const char *file)
{
	struct design a;
	if (!strcmp(cmd, "unpin")) {
		if (!app->pinned)
			return say(app, true, "nothing is pinned");
		design_free(&app->pin);
		app->pinned = false;
		compare_refresh(app);
		if (app->mode == MODE_COMPARE)
			app->mode = MODE_CANVAS;
		return say(app, false, "unpinned");
	}
	if (!strcmp(cmd, "compare") && !file) {
		if (!app->pinned)
			return say(app, true, "nothing to compare with: :pin pins this design, :compare FILE loads one");
		return app_run(app, ACT_COMPARE);
	}
	if (file) {
		if (!load_or_say(app, file, &a))
			return CHG_VIEW;
		snprintf(app->pin_label, sizeof app->pin_label, "%s (%.1000s)", a.name, file);
	} else {
		design_copy(&a, &app->design);
		snprintf(app->pin_label, sizeof app->pin_label, "%s as pinned", app->design.name);
	}
	if (app->pinned)
		design_free(&app->pin);
	app->pin = a;
	app->pinned = true;
	app->cmp_bytes = 0; /* a new A */
	compare_refresh(app);
	if (file)
		return app_run(app, ACT_COMPARE);
	return say(app, false, "pinned as A: edit on, C shows A beside the design on screen");
}

static const char *const commands[] = { "w", "wq", "q", "q!", "e", "export", "size", "gpus", "algo", "pattern", "set",
					"note", "template", "select", "pin", "unpin", "compare", "lesson", "help", NULL };

unsigned app_command(struct app *app, const char *line)
{
	char cmd[32] = "", a1[512] = "", a2[512] = "";
	int n = sscanf(line, "%31s %511s %511[^\n]", cmd, a1, a2);
	if (n < 1)
		return CHG_VIEW;
	if (!strcmp(cmd, "w"))
		return n >= 2 ? save_to(app, a1) : save_checked(app, app->file);
	if (!strcmp(cmd, "wq")) {
		unsigned c = save_to(app, n >= 2 ? a1 : app->file);
		return app->msg_error ? c : CHG_QUIT;
	}
	if (!strcmp(cmd, "q!"))
		return CHG_QUIT;
	if (!strcmp(cmd, "q"))
		return app_run(app, ACT_QUIT);
	if (!strcmp(cmd, "e")) {
		if (n < 2)
			return say(app, true, ":e NAME opens a design file");
		return open_file(app, a1);
	}
	if (!strcmp(cmd, "pin") || !strcmp(cmd, "compare") || !strcmp(cmd, "unpin"))
		return compare_command(app, cmd, n >= 2 ? a1 : NULL);
	if (!strcmp(cmd, "export")) {
		char err[600], *text;
		bool ok;
		if (n < 3)
			return say(app, true, ":export FORMAT NAME (yaml, json, bom-csv, bom-yaml, bom-json, dot, astra-sim, netbox)");
		if (!export_known(a1))
			return say(app, true, "unknown export format '%s'", a1);
		if (export_multi_file(a1)) {
			ok = export_files(&app->design, &app->catalog, a1, a2, err, sizeof err);
		} else {
			text = export_text(&app->design, &app->catalog, a1, err, sizeof err);
			ok = text && file_write_atomic(a2, text, strlen(text), err, sizeof err);
			free(text);
		}
		return ok ? say(app, false, "exported %s to %s", a1, a2) : say(app, true, "export %s: %s", a1, err);
	}
	if (!strcmp(cmd, "size")) {
		char err[200];
		double b;
		if (n < 2 || !parse_size(a1, &b, err, sizeof err))
			return say(app, true, "%s", n < 2 ? ":size BYTES (K, M, G are powers of 1024)" : err);
		app->bytes = b;
		return CHG_MODEL | CHG_VIEW;
	}
	if (!strcmp(cmd, "algo")) {
		int u;
		for (u = 0; u < UA_P2P; u++)
			if (!strcmp(a1, ualgo_names[u]))
				break;
		if (!strcmp(a1, "auto"))
			u = -1;
		else if (u == UA_P2P)
			return say(app, true, ":algo auto, ring, tree, nvls, nvlstree or collnet");
		app->algo_view = u;
		return CHG_VIEW;
	}
	if (!strcmp(cmd, "pattern")) {
		int c = -1, k;
		for (k = 0; k < PATTERNS; k++)
			if (!strcmp(a1, coll_names[k]))
				c = k;
		if (c < 0)
			return say(app, true, ":pattern allreduce, allgather, reducescatter, alltoall or sendrecv");
		app->pattern = c;
		return CHG_MODEL | CHG_VIEW;
	}
	if (!strcmp(cmd, "gpus"))
		return edit_result(app, ed_set(&app->ed, 0, "job.gpus", a1));
	if (!strcmp(cmd, "set")) {
		if (n < 3)
			return say(app, true, ":set KEY VALUE sets a field of the selected block (or job.KEY, fabric.KEY)");
		if (!strncmp(a1, "job.", 4) || !strncmp(a1, "fabric.", 7) || !strcmp(a1, "name") || !strcmp(a1, "description"))
			return edit_result(app, ed_set(&app->ed, 0, a1, a2));
		return edit_result(app, ed_set(&app->ed, app->selected, a1, a2));
	}
	if (!strcmp(cmd, "note")) {
		const char *text = strchr(line, ' ');
		return edit_result(app, ed_add_note(&app->ed, text ? text + 1 : "", 1, 0));
	}
	if (!strcmp(cmd, "template") && n >= 3)
		return build_template(app, a1, a2);
	if (!strcmp(cmd, "select") && n >= 2)
		return select_named(app, a1);
	if (!strcmp(cmd, "lesson"))
		return app_run(app, ACT_LESSON);
	if (!strcmp(cmd, "template")) {
		size_t i;
		for (i = 0; i < ntemplates; i++)
			if (!strcmp(templates[i].name, a1))
				break;
		if (i == ntemplates)
			return say(app, true, ":template NAME (T lists them)");
		app->tmpl_cur = (int)i;
		app->mode = MODE_TEMPLATES;
		return app_run(app, ACT_ACCEPT);
	}
	if (!strcmp(cmd, "help"))
		return app_run(app, ACT_HELP);
	return say(app, true, "unknown command ':%s' (Tab completes: w, e, export, size, gpus, algo, pattern, set, note, template, q)",
		   cmd);
}

static void complete(struct app *app)
{
	size_t len = strlen(app->cmdline), i, hits = 0;
	const char *hit = NULL;
	if (strchr(app->cmdline, ' '))
		return;
	for (i = 0; commands[i]; i++)
		if (!strncmp(commands[i], app->cmdline, len)) {
			hits++;
			if (!hit)
				hit = commands[i];
		}
	if (hits == 1)
		snprintf(app->cmdline, sizeof app->cmdline, "%s ", hit);
	else if (hits > 1) {
		char list[200] = "";
		size_t used = 0;
		for (i = 0; commands[i]; i++)
			if (!strncmp(commands[i], app->cmdline, len) && used < sizeof list)
				used += (size_t)snprintf(list + used, sizeof list - used, "%s ", commands[i]);
		say(app, false, "%s", list);
	}
}

static unsigned line_text(char *buf, size_t size, int key)
{
	size_t n = strlen(buf);
	if (key == NK_CTRL_U) { /* as in a shell: clear the line */
		buf[0] = '\0';
		return CHG_VIEW;
	}
	if (key == NK_BACKSPACE) {
		if (n)
			buf[n - 1] = '\0';
		return CHG_VIEW;
	}
	if (key >= 0x20 && key < 0x7f && n + 1 < size) {
		buf[n] = (char)key;
		buf[n + 1] = '\0';
		return CHG_VIEW;
	}
	return CHG_NONE;
}

/* ---- search ---------------------------------------------------------------------------------- */

static bool matches(const struct app *app, int id, const char *q)
{
	const struct schema *s;
	const void *obj = ed_object_const(&app->design, id, &s);
	const char *name, *model = "";
	if (!obj || !q[0] || s == &bundle_schema)
		return false;
	name = (const char *)obj + sizeof(int);
	if (s == &server_group_schema)
		model = ((const struct server_group *)obj)->gpu;
	else if (s == &switch_group_schema)
		model = ((const struct switch_group *)obj)->model;
	return strstr(name, q) || strstr(model, q) ||
	       (s == &server_group_schema && strstr(((const struct server_group *)obj)->model, q));
}

static unsigned search_step(struct app *app, int dir)
{
	int ids[1024];
	size_t n = items(app, ids, 1024), i, cur = 0, k;
	if (!app->search[0])
		return say(app, true, "no search yet: / searches");
	for (i = 0; i < n; i++)
		if (ids[i] == app->selected)
			cur = i;
	for (k = 1; k <= n; k++) {
		size_t j = (cur + n + (dir > 0 ? k : n - k)) % n;
		if (matches(app, ids[j], app->search)) {
			app->selected = ids[j];
			return say(app, false, "/%s", app->search);
		}
	}
	return say(app, true, "no block matches '%s'", app->search);
}

/* ---- the inside of a server ---------------------------------------------------------------- */

static struct server_group *inside_group(struct app *app)
{
	const struct schema *s;
	struct server_group *g = ed_object(&app->design, app->inside_id, &s);
	return g && s == &server_group_schema ? g : NULL;
}

static unsigned inside_action(struct app *app, enum action a)
{
	struct server_group *g = inside_group(app);
	if (!g) {
		app->mode = MODE_CANVAS;
		return CHG_VIEW;
	}
	if (app->inside_cur >= (int)g->nics.n)
		app->inside_cur = g->nics.n ? (int)g->nics.n - 1 : 0;
	switch (a) {
	case ACT_FIELD_NEXT:
		if (app->inside_cur + 1 < (int)g->nics.n)
			app->inside_cur++;
		return CHG_VIEW;
	case ACT_FIELD_PREV:
		if (app->inside_cur > 0)
			app->inside_cur--;
		return CHG_VIEW;
	case ACT_INC:
	case ACT_DEC:
		if (!g->nics.n)
			return say(app, true, "no NICs: a adds one");
		return edit_result(app, ed_set_nic_count(&app->ed, app->inside_id, (size_t)app->inside_cur,
							 VEC_AT(g->nics, struct nic_spec, app->inside_cur).count + (a == ACT_INC ? 1 : -1)));
	case ACT_EDIT: {
		char prefix[32], title[160];
		if (!g->nics.n)
			return say(app, true, "no NICs: a adds one");
		snprintf(prefix, sizeof prefix, "nics[%d].", app->inside_cur);
		snprintf(title, sizeof title, "NIC entry %d of '%s'", app->inside_cur + 1, g->name);
		form_open(app, FORM_EDIT, &nic_spec_schema, &VEC_AT(g->nics, struct nic_spec, app->inside_cur), app->inside_id,
			  prefix, title);
		return CHG_VIEW;
	}
	case ACT_ADD: {
		struct nic_spec *n = calloc(1, sizeof *n);
		schema_init(&nic_spec_schema, n);
		snprintf(n->model, sizeof n->model, "connectx-7-ndr");
		n->count = 1;
		form_open(app, FORM_ADD, &nic_spec_schema, n, app->inside_id, "", "new NIC entry");
		app->form.draft = n;
		return CHG_VIEW;
	}
	case ACT_DELETE:
		if (!g->nics.n)
			return CHG_NONE;
		return edit_result(app, ed_remove_nic(&app->ed, app->inside_id, (size_t)app->inside_cur));
	default:
		return CHG_NONE;
	}
}

/* ---- actions ------------------------------------------------------------------------------ */

static unsigned move_block(struct app *app, int dx, int dy)
{
	const struct block *b = block_of(app, app->selected);
	if (!b)
		return say(app, true, "select a block to move (bundles follow their blocks)");
	return edit_result(app, ed_move(&app->ed, b->name, b->x + dx < 0 ? 0 : b->x + dx, b->y + dy < 0 ? 0 : b->y + dy));
}

static unsigned open_templates(struct app *app)
{
	app->mode = MODE_TEMPLATES;
	return CHG_VIEW;
}

static unsigned template_form(struct app *app)
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

unsigned app_run(struct app *app, enum action a)
{
	if (app->mode != MODE_CONFIRM && a != ACT_REDRAW)
		app->msg_error = false;
	switch (a) {
	case ACT_QUIT:
		if (app->mode == MODE_HELP || app->mode == MODE_PLOT) {
			app->mode = app->back;
			return CHG_VIEW;
		}
		if (app->mode == MODE_COMPARE || app->mode == MODE_TEACH || app->mode == MODE_LESSON) {
			app->mode = MODE_CANVAS;
			app->teach_play = 0;
			return CHG_VIEW;
		}
		if (!app_dirty(app))
			return CHG_QUIT;
		app->mode = MODE_CONFIRM;
		app->confirm = CONFIRM_QUIT;
		snprintf(app->confirm_text, sizeof app->confirm_text,
			 "Unsaved changes. Quit without saving? (y quits, n stays; w saves first)");
		return CHG_VIEW;
	case ACT_HELP:
		if (app->mode == MODE_HELP) {
			app->mode = app->back;
		} else {
			app->back = app->mode == MODE_PLOT ? app->back : app->mode;
			app->mode = MODE_HELP;
			app->metrics_scroll = 0;
		}
		return CHG_VIEW;
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
		if (app->mode == MODE_CONFIRM && app->confirm == CONFIRM_QUIT) {
			unsigned c = save_to(app, app->file);
			return app->msg_error ? (app->mode = MODE_CANVAS, c) : CHG_QUIT;
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
		if (app->mode != MODE_PLOT)
			app->back = app->mode;
		app->plot = a == ACT_PLOT_BUSBW ? PLOT_BUSBW : PLOT_SPEEDUP;
		app->mode = MODE_PLOT;
		return CHG_VIEW;
	case ACT_JOB:
		return open_struct_form(app, "job", "the job");
	case ACT_FABRIC:
		return open_struct_form(app, "fabric", "fabric options");
	case ACT_TEMPLATES:
		return open_templates(app);
	case ACT_EXPORT:
		app->mode = MODE_EXPORT;
		return CHG_VIEW;
	case ACT_LESSON:
		if (app->mode == MODE_LESSON) {
			app->mode = MODE_CANVAS;
			return CHG_VIEW;
		}
		return lesson_open(app, 0);
	case ACT_PAGE_NEXT:
	case ACT_PAGE_PREV: {
		int to = app->lesson_page + (a == ACT_PAGE_NEXT ? 1 : -1);
		if (to < 0 || to >= lesson_npages)
			return say(app, false, "%s page of the lesson (Esc ends it)", to < 0 ? "the first" : "the last");
		return lesson_open(app, to);
	}
	case ACT_TEACH:
		if (app->mode == MODE_TEACH) {
			app->mode = MODE_CANVAS;
			app->teach_play = 0;
			return CHG_VIEW;
		}
		app->mode = MODE_TEACH;
		if (!app->lesson_ok)
			return say(app, true, "%s (v changes the pattern)", app->lesson_why);
		return say(app, false, "Space steps, p plays, f formulas, c congestion, v pattern, g algorithm, ? keys");
	case ACT_STEP_NEXT:
	case ACT_STEP_PREV:
		app->teach_play = 0;
		return teach_move(app, app->teach_step + (a == ACT_STEP_NEXT ? 1 : -1));
	case ACT_STEP_FIRST:
	case ACT_STEP_LAST:
		app->teach_play = 0;
		return teach_move(app, a == ACT_STEP_FIRST ? 0 : app->teach_steps);
	case ACT_PLAY:
	case ACT_PLAY_BACK: {
		int dir = a == ACT_PLAY ? 1 : -1;
		app->teach_play = app->teach_play == dir ? 0 : dir;
		app->teach_ticks = 0;
		if (app->teach_play > 0 && app->teach_step >= app->teach_steps)
			app->teach_step = 0; /* play again from the start */
		else if (app->teach_play < 0 && app->teach_step == 0)
			app->teach_step = app->teach_steps;
		return CHG_VIEW;
	}
	case ACT_FASTER:
	case ACT_SLOWER:
		app->teach_speed += a == ACT_FASTER ? 1 : -1;
		app->teach_speed = app->teach_speed < 0 ? 0 : app->teach_speed > 4 ? 4 : app->teach_speed;
		return say(app, false, "%d step%s a second", 1 << app->teach_speed, app->teach_speed ? "s" : "");
	case ACT_FORMULAS:
	case ACT_CONGESTION: {
		int page = a == ACT_FORMULAS ? TEACH_FORMULAS : TEACH_CONGESTION;
		app->teach_page = app->teach_page == page ? TEACH_STEPS : page;
		return CHG_VIEW;
	}
	case ACT_REDRAW_HASH:
		app->cong_seed++;
		app->cong_ok = congestion_lesson_build(&app->metrics, app->cong_seed, &app->cong, app->cong_why,
						       sizeof app->cong_why);
		app->teach_page = TEACH_CONGESTION;
		return CHG_VIEW;
	case ACT_COMPARE:
		if (app->mode == MODE_COMPARE) {
			app->mode = MODE_CANVAS;
			return CHG_VIEW;
		}
		if (!app->pinned)
			return say(app, true, "nothing to compare with: :pin pins this design, :compare FILE loads one");
		app->mode = MODE_COMPARE;
		app->metrics_scroll = 0;
		return CHG_VIEW;
	case ACT_MOUSE:
		app->mouse = !app->mouse;
		return say(app, false, "mouse %s", app->mouse ? "on" : "off (the terminal selects text)");
	case ACT_LEFT:
		return select_dir(app, -1, 0);
	case ACT_RIGHT:
		return select_dir(app, 1, 0);
	case ACT_UP:
		return select_dir(app, 0, -1);
	case ACT_DOWN:
		return select_dir(app, 0, 1);
	case ACT_NEXT:
		return select_step(app, 1);
	case ACT_PREV:
		return select_step(app, -1);
	case ACT_EDIT:
		if (app->mode == MODE_INSIDE)
			return inside_action(app, a);
		return open_edit(app);
	case ACT_ADD:
		if (app->mode == MODE_INSIDE)
			return inside_action(app, a);
		app->palette_cur = 0;
		app->mode = MODE_PALETTE;
		return CHG_VIEW;
	case ACT_DELETE: {
		const struct schema *s;
		void *obj;
		if (app->mode == MODE_INSIDE)
			return inside_action(app, a);
		obj = ed_object(&app->design, app->selected, &s);
		if (!obj)
			return say(app, true, "nothing selected");
		if (s == &bundle_schema || ed_delete(&app->ed, app->selected, false))
			return edit_result(app, s == &bundle_schema ? ed_delete(&app->ed, app->selected, false) : true);
		/* It has bundles: name them and ask. */
		app->mode = MODE_CONFIRM;
		app->confirm = CONFIRM_DELETE;
		app->pending_delete = app->selected;
		snprintf(app->confirm_text, sizeof app->confirm_text, "%s. Delete it and them? (y/n)", app->ed.msg);
		return CHG_VIEW;
	}
	case ACT_INC:
	case ACT_DEC:
		if (app->mode == MODE_INSIDE)
			return inside_action(app, a);
		return edit_result(app, ed_step_count(&app->ed, app->selected, a == ACT_INC ? 1 : -1));
	case ACT_MOVE_LEFT:
		return move_block(app, -2, 0);
	case ACT_MOVE_RIGHT:
		return move_block(app, 2, 0);
	case ACT_MOVE_UP:
		return move_block(app, 0, -1);
	case ACT_MOVE_DOWN:
		return move_block(app, 0, 1);
	case ACT_INSIDE: {
		const struct schema *s;
		if (!ed_object(&app->design, app->selected, &s) || s != &server_group_schema)
			return say(app, true, "select a server group to look inside");
		app->inside_id = app->selected;
		app->inside_cur = 0;
		app->mode = MODE_INSIDE;
		return CHG_VIEW;
	}
	case ACT_ACCEPT:
		switch (app->mode) {
		case MODE_FORM:
			return form_accept(app);
		case MODE_PALETTE:
			return palette_accept(app);
		case MODE_COMMAND: {
			char line[256];
			snprintf(line, sizeof line, "%s", app->cmdline);
			app->mode = MODE_CANVAS;
			return app_command(app, line);
		}
		case MODE_SEARCH:
			app->mode = MODE_CANVAS;
			return search_step(app, 1);
		case MODE_TEMPLATES:
			return template_form(app);
		case MODE_EXPORT: {
			/* The command line, filled in: the name can be changed before Enter. */
			static const char *const ext[] = { "yaml", "json", "bom.csv", "bom.yaml", "bom.json", "dot", "astra", "netbox" };
			snprintf(app->cmdline, sizeof app->cmdline, "export %s %.100s.%s", export_formats[app->export_cur],
				 app->design.name, ext[app->export_cur]);
			app->mode = MODE_COMMAND;
			return CHG_VIEW;
		}
		default:
			return CHG_NONE;
		}
	case ACT_CANCEL:
		if (app->mode == MODE_FORM && app->form.schema == &nic_spec_schema) {
			form_clear(&app->form);
			app->mode = MODE_INSIDE;
		} else if (app->mode == MODE_HELP || app->mode == MODE_PLOT) {
			app->mode = app->back;
		} else if (app->mode == MODE_CONFIRM && app->confirm == CONFIRM_RECOVER) {
			return app_run(app, ACT_NO);
		} else {
			form_clear(&app->form);
			app->mode = MODE_CANVAS;
		}
		return CHG_VIEW;
	case ACT_FIELD_NEXT:
	case ACT_FIELD_PREV: {
		int d = a == ACT_FIELD_NEXT ? 1 : -1;
		if (app->mode == MODE_FORM && app->form.nfields)
			app->form.cur = (app->form.cur + app->form.nfields + d) % app->form.nfields;
		else if (app->mode == MODE_PALETTE)
			app->palette_cur = (app->palette_cur + 7 + d) % 7;
		else if (app->mode == MODE_TEMPLATES)
			app->tmpl_cur = (app->tmpl_cur + (int)ntemplates + d) % (int)ntemplates;
		else if (app->mode == MODE_EXPORT)
			app->export_cur = (app->export_cur + 8 + d) % 8;
		else if (app->mode == MODE_INSIDE)
			return inside_action(app, a);
		return CHG_VIEW;
	}
	case ACT_CHOICE_NEXT:
	case ACT_CHOICE_PREV:
		form_choice(app, a == ACT_CHOICE_NEXT ? 1 : -1);
		return CHG_VIEW;
	case ACT_COMPLETE:
		complete(app);
		return CHG_VIEW;
	case ACT_YES:
	case ACT_NO:
		if (app->mode != MODE_CONFIRM)
			return CHG_NONE;
		app->mode = MODE_CANVAS;
		if (app->confirm == CONFIRM_QUIT)
			return a == ACT_YES ? CHG_QUIT : CHG_VIEW;
		if (app->confirm == CONFIRM_DELETE)
			return a == ACT_YES ? edit_result(app, ed_delete(&app->ed, app->pending_delete, true)) : CHG_VIEW;
		if (app->confirm == CONFIRM_OVERWRITE)
			return a == ACT_YES ? save_to(app, app->file) : say(app, false, "not saved: the file on disk is theirs");
		if (app->confirm == CONFIRM_RELOAD) {
			if (a == ACT_YES) {
				char path[1024];
				snprintf(path, sizeof path, "%s", app->file);
				return open_file(app, path);
			}
			app->disk_noted = true;
			return say(app, false, "kept your design; w would ask before overwriting theirs");
		}
		if (app->confirm == CONFIRM_RECOVER) {
			unsigned c = CHG_VIEW;
			if (a == ACT_YES) {
				char keep[1024];
				snprintf(keep, sizeof keep, "%s", app->file);
				c = open_file(app, app->recover_path);
				snprintf(app->file, sizeof app->file, "%s", keep);
				app->saved_generation = -1; /* restored work is unsaved */
				if (app->saved_valid)
					design_free(&app->saved);
				app->saved_valid = false;
				if (!app->msg_error)
					say(app, false, "restored %s: w saves it to %s", app->recover_path,
					    app->file[0] ? app->file : "(a file: :w NAME)");
			} else {
				say(app, false, "recovery file discarded");
			}
			unlink(app->recover_path);
			app->recover_path[0] = '\0';
			return c;
		}
		return CHG_VIEW;
	case ACT_SCROLL_DOWN:
		app->metrics_scroll++;
		return CHG_VIEW;
	case ACT_SCROLL_UP:
		if (app->metrics_scroll > 0)
			app->metrics_scroll--;
		return CHG_VIEW;
	case ACT_COUNT:
		break;
	}
	return CHG_NONE;
}

unsigned app_key(struct app *app, int key)
{
	size_t i;
	/* Text modes take printable keys first (q, u, w... are letters to type there). */
	if (app->mode == MODE_FORM && key != NK_ENTER && key != NK_ESC && key != NK_TAB && key != NK_BTAB &&
	    key != NK_UP && key != NK_DOWN && key != NK_LEFT && key != NK_RIGHT && key != NK_F1) {
		if (app->form.purpose == FORM_TEMPLATE && (key == NK_BACKSPACE || (key >= 0x20 && key < 0x7f))) {
			char *t = app->form.text[app->form.cur];
			return line_text(t, sizeof app->form.text[0], key);
		}
		return form_text(app, key);
	}
	if (app->mode == MODE_COMMAND && key != NK_ENTER && key != NK_ESC && key != NK_TAB)
		return line_text(app->cmdline, sizeof app->cmdline, key);
	if (app->mode == MODE_SEARCH && key != NK_ENTER && key != NK_ESC)
		return line_text(app->search, sizeof app->search, key);
	if (app->mode == MODE_CONFIRM && key == 'w' && app->confirm == CONFIRM_QUIT)
		return app_run(app, ACT_SAVE);
	for (i = 0; i < keymap_len; i++)
		if (keymap[i].mode == (int)app->mode && keymap[i].key == key)
			return app_run(app, keymap[i].action);
	if (app->mode == MODE_CONFIRM)
		return CHG_NONE; /* answer the question first */
	for (i = 0; i < keymap_len; i++)
		if (keymap[i].mode == MODE_ANY && keymap[i].key == key)
			return app_run(app, keymap[i].action);
	return CHG_NONE;
}

unsigned app_mouse(struct app *app, int kind, int x, int y)
{
	size_t i;
	if (!app->mouse)
		return CHG_NONE;
	if (kind == MOUSE_WHEEL_UP || kind == MOUSE_WHEEL_DOWN)
		return app_run(app, kind == MOUSE_WHEEL_DOWN ? ACT_SCROLL_DOWN : ACT_SCROLL_UP);
	if (app->mode != MODE_CANVAS && app->mode != MODE_METRICS)
		return CHG_NONE;
	/* Blocks are drawn inside the canvas frame, which starts at row 1. */
	x -= 1;
	y -= 2;
	if (kind == MOUSE_PRESS) {
		app->drag_id = -1;
		for (i = 0; i < app->place.blocks.n; i++) {
			const struct block *b = &VEC_AT(app->place.blocks, struct block, i);
			if (b->w && b->id && x >= b->x && x < b->x + b->w && y >= b->y && y < b->y + b->h) {
				app->selected = b->id;
				app->drag_id = b->id;
				app->drag_x = x - b->x;
				app->drag_y = y - b->y;
				app->mode = MODE_CANVAS;
				return CHG_VIEW;
			}
		}
		for (i = 0; i < app->place.routes.n; i++) {
			const struct route *r = &VEC_AT(app->place.routes, struct route, i);
			size_t k;
			if (y != r->ly || x < r->lx || x >= r->lx + (int)strlen(r->label) + 1)
				continue;
			for (k = 0; k < app->design.bundles.n; k++)
				if (!strcmp(DESIGN_BUNDLE(&app->design, k)->from, r->from) &&
				    !strcmp(DESIGN_BUNDLE(&app->design, k)->to, r->to)) {
					app->selected = DESIGN_BUNDLE(&app->design, k)->id;
					app->mode = MODE_CANVAS;
					return CHG_VIEW;
				}
		}
		return CHG_NONE;
	}
	if (kind == MOUSE_RELEASE && app->drag_id > 0) {
		const struct block *b = block_of(app, app->drag_id);
		int nx = x - app->drag_x, ny = y - app->drag_y;
		app->drag_id = -1;
		if (b && (nx != b->x || ny != b->y) && nx >= 0 && ny >= 0)
			return edit_result(app, ed_move(&app->ed, b->name, nx, ny));
	}
	return CHG_NONE;
}

unsigned app_check_disk(struct app *app)
{
	if (app->disk_noted || app->mode == MODE_CONFIRM || app->mode == MODE_FORM || !disk_changed(app))
		return CHG_NONE;
	app->disk_noted = true;
	app->mode = MODE_CONFIRM;
	app->confirm = CONFIRM_RELOAD;
	snprintf(app->confirm_text, sizeof app->confirm_text,
		 "%.300s changed on disk (someone else saved it). Reload it? (y loads theirs%s, n keeps yours)", app->file,
		 app_dirty(app) ? "; u undoes the reload" : "");
	return CHG_VIEW;
}

void app_recovery_path(const char *file, char *out, size_t size)
{
	const char *home = getenv("HOME");
	if (file && file[0])
		snprintf(out, size, "%s.recover", file);
	else
		snprintf(out, size, "%s/.ncfabric-default.recover.yaml", home && home[0] ? home : ".");
}

void app_offer_recovery(struct app *app, const char *path)
{
	struct design d;
	struct ncf_diag diag = { 0 };
	char what[300] = "it does not load";
	struct stat st;
	char when[64] = "";
	if (design_load_file(path, app->shipped, &d, &diag)) {
		struct catalog cat;
		struct inventory inv;
		design_catalog(&d, app->shipped, &cat);
		inventory_compute(&d, &cat, &inv);
		snprintf(what, sizeof what, "'%s': %ld servers, %ld GPUs, %ld switches, %zu bundles", d.name, inv.servers, inv.gpus,
			 inv.switches[0] + inv.switches[1] + inv.switches[2], d.bundles.n);
		inventory_free(&inv);
		catalog_free(&cat);
		design_free(&d);
	}
	diag_free(&diag);
	if (stat(path, &st) == 0) {
		struct tm tm;
		localtime_r(&st.st_mtime, &tm);
		strftime(when, sizeof when, " from %Y-%m-%d %H:%M", &tm);
	}
	snprintf(app->recover_path, sizeof app->recover_path, "%s", path);
	app->mode = MODE_CONFIRM;
	app->confirm = CONFIRM_RECOVER;
	snprintf(app->confirm_text, sizeof app->confirm_text,
		 "A recovery file holds unsaved work%s: %s (%s). Restore it? (y restores, n discards it)", when, what, path);
}
