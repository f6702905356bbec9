/* canvas.c: the design on the canvas. Selection (by direction, in order, by name or search),
 * moving blocks, adding, deleting, counts, the mouse, and painting the canvas. */
#include "ui/modes.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- selection ------------------------------------------------------------------------- */

size_t canvas_items(const struct app *app, int *ids, size_t max)
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

void ensure_selection(struct app *app)
{
	const struct schema *s;
	int ids[1];
	if (!app->selected || !ed_object(&app->design, app->selected, &s))
		app->selected = canvas_items(app, ids, 1) ? ids[0] : 0;
}

const struct block *block_of(const struct app *app, int id)
{
	size_t i;
	for (i = 0; i < app->place.blocks.n; i++) {
		const struct block *b = &VEC_AT(app->place.blocks, struct block, i);
		if (b->id == id && b->kind != GK_NOTE && b->kind != GK_NONE)
			return b;
	}
	return NULL;
}

/* The id of the group named name, 0 if none. */
static int group_id(const struct app *app, const char *name)
{
	size_t i;
	switch (design_find(&app->design, name, &i)) {
	case GK_SERVER:
		return DESIGN_SERVER(&app->design, i)->id;
	case GK_DOMAIN:
		return DESIGN_DOMAIN(&app->design, i)->id;
	case GK_SWITCH:
		return DESIGN_SWITCH(&app->design, i)->id;
	default:
		return 0;
	}
}

/* The nearest block in a direction (dx, dy), by the centres of the boxes. */
static unsigned select_dir(struct app *app, int dx, int dy)
{
	const struct block *cur = block_of(app, app->selected);
	size_t i;
	int best = -1;
	long best_d = 0;
	if (!cur) {
		/* A bundle is selected: up goes to its upper block, down to its lower one, and
		 * sideways from the lower one. */
		const struct schema *s;
		const struct bundle *bd = ed_object_const(&app->design, app->selected, &s);
		if (bd && s == &bundle_schema) {
			int up = group_id(app, bd->to), low = group_id(app, bd->from);
			if (dy < 0 && up) {
				app->selected = up;
				return CHG_VIEW;
			}
			if (low) {
				app->selected = low;
				if (dy > 0)
					return CHG_VIEW;
				cur = block_of(app, low);
			}
		}
		if (!cur) {
			ensure_selection(app);
			return CHG_VIEW;
		}
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
	size_t n = canvas_items(app, ids, 1024), i, cur = 0;
	if (!n)
		return CHG_NONE;
	for (i = 0; i < n; i++)
		if (ids[i] == app->selected)
			cur = i;
	cur = (cur + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
	app->selected = ids[cur];
	return CHG_VIEW;
}

const char *selected_name(const struct app *app)
{
	const struct schema *s;
	const void *obj = ed_object_const(&app->design, app->selected, &s);
	if (!obj || s == &bundle_schema)
		return NULL;
	return (const char *)obj + sizeof(int);
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

unsigned search_step(struct app *app, int dir)
{
	int ids[1024];
	size_t n = canvas_items(app, ids, 1024), i, cur = 0, k;
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

/* ---- actions ------------------------------------------------------------------------------ */

static unsigned move_block(struct app *app, int dx, int dy)
{
	const struct block *b = block_of(app, app->selected);
	if (!b)
		return say(app, true, "select a block to move (bundles follow their blocks)");
	return edit_result(app, ed_move(&app->ed, b->name, b->x + dx < 0 ? 0 : b->x + dx, b->y + dy < 0 ? 0 : b->y + dy));
}

static unsigned delete_selected(struct app *app)
{
	const struct schema *s;
	void *obj = ed_object(&app->design, app->selected, &s);
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

unsigned canvas_action(struct app *app, enum action a)
{
	switch (a) {
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
		return form_open_edit(app);
	case ACT_ADD:
		app->palette_cur = 0;
		app->mode = MODE_PALETTE;
		return CHG_VIEW;
	case ACT_FAIL:
		return fail_selected(app);
	case ACT_DELETE:
		return delete_selected(app);
	case ACT_INC:
	case ACT_DEC:
		return edit_result(app, ed_step_count(&app->ed, app->selected, a == ACT_INC ? 1 : -1));
	case ACT_MOVE_LEFT:
		return move_block(app, -2, 0);
	case ACT_MOVE_RIGHT:
		return move_block(app, 2, 0);
	case ACT_MOVE_UP:
		return move_block(app, 0, -1);
	case ACT_MOVE_DOWN:
		return move_block(app, 0, 1);
	case ACT_INSIDE:
		return inside_open(app);
	case ACT_TOP:
	case ACT_BOTTOM: {
		int ids[1024];
		size_t n = canvas_items(app, ids, 1024);
		if (n)
			app->selected = ids[a == ACT_TOP ? 0 : n - 1];
		return CHG_VIEW;
	}
	default:
		return CHG_PASS;
	}
}

/* ---- the mouse ------------------------------------------------------------------------------ */

static unsigned app_mouse_dispatch(struct app *app, int kind, int x, int y)
{
	size_t i;
	if (!app->mouse)
		return CHG_NONE;
	if (kind == MOUSE_WHEEL_UP || kind == MOUSE_WHEEL_DOWN) {
		if (app->mode == MODE_CANVAS)
			app->mode = MODE_METRICS; /* the wheel scrolls the panel */
		return app_run(app, kind == MOUSE_WHEEL_DOWN ? ACT_SCROLL_DOWN : ACT_SCROLL_UP);
	}
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
			if (r->hidden || y != r->ly || x < r->lx || x >= r->lx + (int)strlen(r->label) + 1)
				continue; /* hidden bundles are not drawn: nothing to click */
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

unsigned app_mouse(struct app *app, int kind, int x, int y)
{
	unsigned chg;
	edit_begin(app);
	chg = app_mouse_dispatch(app, kind, x, y);
	edit_end(app);
	return chg;
}

/* ---- painting ------------------------------------------------------------------------- */

/* The glyph of a line cell that leaves in the directions of mask (PL_UP...), as box
 * drawing characters or + - | in ASCII. */
static uint32_t line_glyph(unsigned mask, bool ascii)
{
	static const uint32_t utf[16] = { ' ',    0x2502, 0x2502, 0x2502, 0x2500, 0x2518, 0x2510, 0x2524,
					  0x2500, 0x2514, 0x250c, 0x251c, 0x2500, 0x2534, 0x252c, 0x253c };
	mask &= PL_LINE;
	if (!ascii)
		return utf[mask];
	return !(mask & (PL_LEFT | PL_RIGHT)) ? '|' : !(mask & (PL_UP | PL_DOWN)) ? '-' : '+';
}

/* The bundles' lines, from the placement's cells (a block covers the cells under it). */
static void draw_lines(struct cellbuf *c, int ox, int oy, const struct placement *p)
{
	int x, y;
	if (!p->cells)
		return;
	for (y = 0; y < p->h; y++) {
		const unsigned char *row = p->cells + (size_t)y * (size_t)p->w;
		for (x = 0; x < p->w; x++)
			if ((row[x] & PL_LINE) && !(row[x] & PL_BLOCK))
				cellbuf_put(c, ox + x, oy + y, line_glyph(row[x], c->ascii),
					    row[x] & PL_WARN ? ROLE_WARNING : ROLE_DIM);
	}
}

/* Where a line meets a box's border, a junction (┴ on a top border, ┬ on a bottom one, ┤
 * and ├ on the sides); a one-row block is met by the line's end beside it. */
static void draw_junctions(struct cellbuf *c, int ox, int oy, const struct placement *p, const struct block *b,
			   int role)
{
	int x, y;
	if (!p->cells || b->h < 3 || b->w < 3)
		return;
	for (x = b->x + 1; x < b->x + b->w - 1; x++) {
		if (x < 0 || x >= p->w)
			continue;
		if (b->y >= 0 && b->y < p->h && (p->cells[(size_t)b->y * (size_t)p->w + (size_t)x] & PL_UP))
			cellbuf_put(c, ox + x, oy + b->y, line_glyph(PL_UP | PL_LEFT | PL_RIGHT, c->ascii), role);
		y = b->y + b->h - 1;
		if (y >= 0 && y < p->h && (p->cells[(size_t)y * (size_t)p->w + (size_t)x] & PL_DOWN))
			cellbuf_put(c, ox + x, oy + y, line_glyph(PL_DOWN | PL_LEFT | PL_RIGHT, c->ascii), role);
	}
	for (y = b->y + 1; y < b->y + b->h - 1; y++) {
		if (y < 0 || y >= p->h)
			continue;
		if (b->x >= 0 && b->x < p->w && (p->cells[(size_t)y * (size_t)p->w + (size_t)b->x] & PL_LEFT))
			cellbuf_put(c, ox + b->x, oy + y, line_glyph(PL_LEFT | PL_UP | PL_DOWN, c->ascii), role);
		x = b->x + b->w - 1;
		if (x >= 0 && x < p->w && (p->cells[(size_t)y * (size_t)p->w + (size_t)x] & PL_RIGHT))
			cellbuf_put(c, ox + x, oy + y, line_glyph(PL_RIGHT | PL_UP | PL_DOWN, c->ascii), role);
	}
}

void canvas_draw(const struct app *app, struct cellbuf *c, int x0, int y0, int w, int h)
{
	size_t i;
	int ox = x0 + 1, oy = y0 + 1;
	bool focus = app->mode == MODE_CANVAS;
	const struct bundle *selb; /* the selected bundle, if one is */
	cellbuf_box(c, x0, y0, w, h, focus ? ROLE_HEADING : ROLE_DIM);
	cellbuf_printf(c, x0 + 2, y0, w - 4, focus ? ROLE_HEADING : ROLE_DIM, " %s ", app->design.name);
	draw_lines(c, ox, oy, &app->place);
	for (i = 0; i < app->place.blocks.n; i++) {
		const struct block *b = &VEC_AT(app->place.blocks, struct block, i);
		bool sel = b->id && b->id == app->selected;
		int role = sel ? ROLE_SELECTED : b->kind == GK_NOTE ? ROLE_DIM : ROLE_NORMAL;
		if (!b->w)
			continue;
		cellbuf_fill(c, ox + b->x, oy + b->y, b->w, b->h, sel ? ROLE_SELECTED : ROLE_NORMAL);
		if (b->h >= 3) {
			cellbuf_box(c, ox + b->x, oy + b->y, b->w, b->h, role);
			draw_junctions(c, ox, oy, &app->place, b, role);
		} else { /* one row: "[ label ]" */
			cellbuf_put(c, ox + b->x, oy + b->y, '[', role);
			cellbuf_put(c, ox + b->x + b->w - 1, oy + b->y, ']', role);
		}
		cellbuf_text(c, ox + b->x + 2, oy + b->y + b->h / 2, b->w - 4, sel ? ROLE_SELECTED : b->kind == GK_SWITCH ? ROLE_NUMBER : role,
			     b->label);
		if (sel) /* the selection is marked, not only reversed */
			cellbuf_put(c, ox + b->x + 1, oy + b->y + b->h / 2, '>', ROLE_SELECTED);
	}
	{
		const struct schema *s = NULL;
		selb = ed_object_const(&app->design, app->selected, &s);
		if (s != &bundle_schema)
			selb = NULL; /* a block is selected, or nothing */
	}
	for (i = 0; i < app->place.routes.n; i++) {
		const struct route *r = &VEC_AT(app->place.routes, struct route, i);
		bool sel;
		if (r->hidden || r->ly < 0)
			continue;
		sel = selb && !strcmp(selb->from, r->from) && !strcmp(selb->to, r->to);
		/* The selection mark goes in the space before the label (placement keeps it free). */
		if (sel)
			cellbuf_put(c, ox + r->lx - 1, oy + r->ly, '>', ROLE_SELECTED);
		cellbuf_text(c, ox + r->lx, oy + r->ly, w - 2 - r->lx, sel ? ROLE_SELECTED : r->oversubscribed ? ROLE_WARNING : ROLE_DIM,
			     r->label);
	}
	if (!app->place.blocks.n)
		cellbuf_text(c, ox + 1, oy + 1, w - 4, ROLE_DIM, "an empty design: a adds a block, T starts from a template");
}
