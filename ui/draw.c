/* draw.c: the whole screen, painted from state into a cell buffer: the title, the canvas (or
 * the inside of a server), the metrics panel, the mode's own painting over them or instead
 * of them, and the status line. Nothing here changes state or computes the model. */
#include "ui/modes.h"
#include <stdio.h>
#include <string.h>

/* Columns of UTF-8 text (one a code point: the program writes no wide characters). */
static int text_cols(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* The byte offset of column col in s. */
static size_t col_offset(const char *s, int col)
{
	size_t i = 0;
	int n = 0;
	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xC0) != 0x80) {
			if (n == col)
				return i;
			n++;
		}
	}
	return i;
}

struct hint {
	int order;
	const char *label, *name;
};

/* The hints of this mode, most useful first, as many whole ones as fit (htop's F1-F10 bar). */
static void draw_hints(const struct app *app, struct cellbuf *c, int x, int y)
{
	struct hint h[64];
	int n = 0, i, j;
	bool wide = app->mode == MODE_CANVAS || app->mode == MODE_METRICS;
	size_t k;
	x += cellbuf_printf(c, x, y, c->w - x, ROLE_STATUS, "[%s]", mode_name(app->mode));
	for (k = 0; k < keymap_len && n < 64; k++) {
		const struct keybind *b = &keymap[k];
		bool dup = false;
		if (!b->hint || (b->mode != (int)app->mode && b->mode != MODE_ANY))
			continue;
		if (b->mode == MODE_ANY && (mode_ops[app->mode].modal || (!wide && b->hint >= 10)))
			continue;
		for (j = 0; j < n; j++)
			dup |= h[j].name == action_name(b->action);
		for (size_t m = 0; b->mode == MODE_ANY && m < keymap_len; m++)
			dup |= keymap[m].mode == (int)app->mode && keymap[m].key == b->key; /* the mode's own key */
		if (dup)
			continue;
		h[n].order = b->hint;
		h[n].label = b->label;
		h[n++].name = action_name(b->action);
	}
	for (i = 1; i < n; i++) /* few: insertion sort, stable */
		for (j = i; j > 0 && h[j - 1].order > h[j].order; j--) {
			struct hint t = h[j];
			h[j] = h[j - 1];
			h[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		int need = 2 + text_cols(h[i].label) + text_cols(h[i].name);
		if (x + need > c->w - 1)
			break;
		x += cellbuf_printf(c, x, y, c->w - x, ROLE_STATUS, " %s%s%s", h[i].label, strcmp(h[i].label, ":") ? ":" : "",
				    h[i].name); /* ":command", not "::command" */
	}
}

void draw_status(const struct app *app, struct cellbuf *c)
{
	int y = c->h - 1;
	cellbuf_fill(c, 0, y, c->w, 1, ROLE_STATUS);
	if (app->mode == MODE_COMMAND || app->mode == MODE_SEARCH) {
		/* A line longer than the screen shows its end, where the cursor is. */
		const char *t = app->mode == MODE_COMMAND ? app->cmdline : app->search;
		int cols = text_cols(t), room = c->w - 3;
		if (cols > room)
			cellbuf_printf(c, 0, y, c->w, ROLE_STATUS, "%c<%s_", app->mode == MODE_COMMAND ? ':' : '/',
				       t + col_offset(t, cols - room + 1));
		else
			cellbuf_printf(c, 0, y, c->w, ROLE_STATUS, "%c%s_", app->mode == MODE_COMMAND ? ':' : '/', t);
		return;
	}
	if (app->msg[0]) {
		/* Never cut without saying so: the whole message is in :messages. */
		const char *more = c->ascii ? "... (:messages)" : "\u2026 (:messages)";
		int role = app->msg_error ? ROLE_ERROR : ROLE_STATUS, lead = app->msg_error ? 3 : 1;
		int cols = text_cols(app->msg), room = c->w - 1 - lead;
		if (cols <= room) {
			cellbuf_printf(c, 0, y, c->w, role, " %s%s", app->msg_error ? "! " : "", app->msg);
		} else {
			int keep = room - text_cols(more);
			cellbuf_printf(c, 0, y, c->w, role, " %s%.*s%s", app->msg_error ? "! " : "",
				       (int)col_offset(app->msg, keep > 0 ? keep : 0), app->msg, more);
		}
		return;
	}
	draw_hints(app, c, 0, y);
	if (app->pending_key)
		cellbuf_printf(c, c->w - 3, y, 2, ROLE_STATUS, "%c", app->pending_key);
}

/* ---- scrolled views ------------------------------------------------------------------------ */

unsigned view_scroll(int *top, enum action a, int nlines, int rows)
{
	int last = nlines - rows > 0 ? nlines - rows : 0;
	switch (a) {
	case ACT_SCROLL_DOWN:
	case ACT_FIELD_NEXT:
		(*top)++;
		break;
	case ACT_SCROLL_UP:
	case ACT_FIELD_PREV:
		(*top)--;
		break;
	case ACT_PAGE_DOWN:
		*top += rows > 1 ? rows - 1 : 1;
		break;
	case ACT_PAGE_UP:
		*top -= rows > 1 ? rows - 1 : 1;
		break;
	case ACT_TOP:
		*top = 0;
		break;
	case ACT_BOTTOM:
		*top = last;
		break;
	default:
		return CHG_PASS;
	}
	if (*top > last)
		*top = last;
	if (*top < 0)
		*top = 0;
	return CHG_VIEW;
}

void view_marks(struct cellbuf *c, int y_first, int y_last, int above, int below)
{
	char t[64];
	if (above > 0) {
		snprintf(t, sizeof t, "%s %d more", c->ascii ? "^" : "\u2191", above);
		cellbuf_text(c, c->w - 1 - text_cols(t), y_first, text_cols(t), ROLE_DIM, t);
	}
	if (below > 0) {
		snprintf(t, sizeof t, "%s %d more (j, PgDn)", c->ascii ? "v" : "\u2193", below);
		cellbuf_text(c, c->w - 1 - text_cols(t), y_last, text_cols(t), ROLE_DIM, t);
	}
}

void center_box(struct cellbuf *c, int w, int h, int *x, int *y)
{
	if (w > c->w - 2)
		w = c->w - 2;
	if (h > c->h - 2)
		h = c->h - 2;
	*x = (c->w - w) / 2;
	*y = (c->h - h) / 2;
	cellbuf_fill(c, *x, *y, w, h, ROLE_NORMAL);
	cellbuf_box(c, *x, *y, w, h, ROLE_HEADING);
}

void app_draw(const struct app *app, struct cellbuf *c)
{
	const struct mode_ops *ops = &mode_ops[app->mode];
	int cx, cy, cw, ch;
	cellbuf_clear(c);
	if (c->w < APP_MIN_W || c->h < APP_MIN_H) {
		cellbuf_printf(c, 0, 0, c->w, ROLE_ERROR, "terminal too small:");
		cellbuf_printf(c, 0, 1, c->w, ROLE_ERROR, "%dx%d needed, %dx%d here", APP_MIN_W, APP_MIN_H, c->w, c->h);
		cellbuf_printf(c, 0, 2, c->w, ROLE_NORMAL, "q quits");
		return;
	}
	if (ops->draw && ops->screen != SCREEN_OVER) {
		ops->draw(app, c);
		if (ops->screen == SCREEN_FULL)
			draw_status(app, c);
		return;
	}
	cellbuf_fill(c, 0, 0, c->w, 1, ROLE_TITLE);
	cellbuf_printf(c, 0, 0, c->w, ROLE_TITLE, " ncfabric  %s  %s%s", app->design.name,
		       app->stash.active ? "(lesson: your design waits)"
		       : app->file[0] ? app->file : app->builtin ? "(built-in default)" : "(no file)",
		       app_dirty(app) ? "  [modified]" : "");
	app_canvas_area(c->w, c->h, &cx, &cy, &cw, &ch);
	if (app->mode == MODE_INSIDE || (app->mode == MODE_FORM && app->form.schema == &nic_spec_schema))
		inside_draw(app, c, cx, cy, cw, ch);
	else
		canvas_draw(app, c, cx, cy, cw, ch);
	{
		int px, py, pw, ph;
		panel_area(c->w, c->h, &px, &py, &pw, &ph);
		panel_draw(app, c, px, py, pw, ph);
	}
	if (ops->draw)
		ops->draw(app, c);
	draw_status(app, c);
}
