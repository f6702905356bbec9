/* help.c: the keys of the mode the help was opened from, then the global ones, from the
 * key table that dispatches them. */
#include "ui/modes.h"
#include <stdio.h>

unsigned help_open(struct app *app)
{
	app->back = app->mode == MODE_PLOT ? app->back : app->mode;
	app->mode = MODE_HELP;
	app->metrics_scroll = 0;
	return CHG_VIEW;
}

unsigned help_action(struct app *app, enum action a)
{
	if (a != ACT_QUIT && a != ACT_HELP && a != ACT_CANCEL)
		return CHG_PASS;
	app->mode = app->back;
	return CHG_VIEW;
}

void help_draw(const struct app *app, struct cellbuf *c)
{
	int y = 2 - app->metrics_scroll, a, pass;
	enum mode m = app->back;
	cellbuf_fill(c, 0, 0, c->w, c->h, ROLE_NORMAL);
	cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "ncfabric keys: %s mode, then everywhere (Esc or ? closes, j/k scroll)",
		       mode_name(m));
	for (pass = 0; pass < 2; pass++) {
		int mode = pass == 0 ? (int)m : MODE_ANY;
		if (y >= 1 && y < c->h - 1)
			cellbuf_printf(c, 1, y, c->w - 2, ROLE_HEADING, "%s", pass == 0 ? mode_name(m) : "everywhere");
		y++;
		for (a = 0; a < ACT_COUNT; a++) {
			char keys[64] = "";
			size_t i, used = 0;
			for (i = 0; i < keymap_len; i++)
				if ((int)keymap[i].action == a && keymap[i].mode == mode) {
					int n = snprintf(keys + used, sizeof keys - used, "%s%s", used ? " " : "", keymap[i].label);
					if (n > 0 && (size_t)n < sizeof keys - used)
						used += (size_t)n;
				}
			if (!used)
				continue;
			if (y >= 1 && y < c->h - 1)
				cellbuf_printf(c, 3, y, c->w - 4, ROLE_NORMAL, "%-14s %-13s %s", keys, action_name((enum action)a),
					       action_help((enum action)a));
			y++;
		}
		y++;
	}
	if (y < c->h - 1)
		cellbuf_text(c, 1, y, c->w - 2, ROLE_DIM,
			     ": commands: w [FILE], e FILE, export FORMAT FILE, size BYTES, gpus N, algo A, pattern P, set KEY VALUE, note TEXT, template NAME [K=V...], select NAME, pin, unpin, compare [FILE], lesson, q, q!, wq");
}
