/* draw.c: the whole screen, painted from state into a cell buffer: the title, the canvas (or
 * the inside of a server), the metrics panel, the mode's own painting over them or instead
 * of them, and the status line. Nothing here changes state or computes the model. */
#include "ui/modes.h"
#include <stdio.h>
#include <string.h>

void draw_status(const struct app *app, struct cellbuf *c)
{
	int y = c->h - 1, x = 0;
	size_t i;
	cellbuf_fill(c, 0, y, c->w, 1, ROLE_STATUS);
	if (app->mode == MODE_COMMAND) {
		cellbuf_printf(c, 0, y, c->w, ROLE_STATUS, ":%s_", app->cmdline);
		return;
	}
	if (app->mode == MODE_SEARCH) {
		cellbuf_printf(c, 0, y, c->w, ROLE_STATUS, "/%s_", app->search);
		return;
	}
	if (app->msg[0]) {
		cellbuf_printf(c, 0, y, c->w, app->msg_error ? ROLE_ERROR : ROLE_STATUS, " %s%s", app->msg_error ? "! " : "",
			       app->msg);
		return;
	}
	/* Keys of this mode, then the main global ones, from the key table. */
	x += cellbuf_printf(c, x, y, c->w - x, ROLE_STATUS, "[%s]", mode_name(app->mode));
	if (app->mode == MODE_CANVAS || app->mode == MODE_METRICS)
		x += cellbuf_printf(c, x, y, c->w - x, ROLE_STATUS, " ?:help q:quit");
	for (i = 0; i < keymap_len && x < c->w; i++) {
		size_t j;
		bool seen = false;
		if (keymap[i].mode != (int)app->mode)
			continue;
		for (j = 0; j < i; j++)
			seen |= keymap[j].mode == keymap[i].mode && keymap[j].action == keymap[i].action;
		if (!seen)
			x += cellbuf_printf(c, x, y, c->w - x, ROLE_STATUS, " %s:%s", keymap[i].label, action_name(keymap[i].action));
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
		       app->file[0] ? app->file : "(built-in default)", app_dirty(app) ? "  [modified]" : "");
	app_canvas_area(c->w, c->h, &cx, &cy, &cw, &ch);
	if (app->mode == MODE_INSIDE || (app->mode == MODE_FORM && app->form.schema == &nic_spec_schema))
		inside_draw(app, c, cx, cy, cw, ch);
	else
		canvas_draw(app, c, cx, cy, cw, ch);
	if (c->w >= 120)
		panel_draw(app, c, cw, 1, c->w - cw, c->h - 2);
	else
		panel_draw(app, c, 0, cy + ch, c->w, c->h - 1 - cy - ch);
	if (ops->draw)
		ops->draw(app, c);
	draw_status(app, c);
}
