/* help.c: the keys of the mode the help was opened from, then the global ones, from the key
 * table that dispatches them, then the ':' commands from the command table. It scrolls on
 * its own (help_top), never past its end, with markers where lines are cut. */
#include "ui/modes.h"
#include <stdio.h>
#include <string.h>

#define HELP_LINES 400

struct hlines {
	int n;
	char text[HELP_LINES][300];
	int role[HELP_LINES];
};

static void add(struct hlines *h, int role, const char *text)
{
	if (h->n >= HELP_LINES)
		return;
	snprintf(h->text[h->n], sizeof h->text[0], "%s", text);
	h->role[h->n++] = role;
}

/* "keys  name  help" with the help word-wrapped under itself at width. */
static void entry(struct hlines *h, const char *keys, const char *name, const char *help, int kw, int nw, int width)
{
	int indent = 2 + kw + 1 + (nw ? nw + 1 : 0), room = width - indent;
	const char *p = help;
	bool first = true;
	char line[300];
	if (room < 20)
		room = 20;
	do {
		int cut = text_cut(p, room);
		if (first && nw)
			snprintf(line, sizeof line, "  %-*s %-*s %.*s", kw, keys, nw, name, cut, p);
		else if (first)
			snprintf(line, sizeof line, "  %-*s %.*s", kw, keys, cut, p);
		else
			snprintf(line, sizeof line, "%*s%.*s", indent, "", cut, p);
		add(h, ROLE_NORMAL, line);
		p += cut;
		while (*p == ' ')
			p++;
		first = false;
	} while (*p);
}

static void help_lines(const struct app *app, int width, struct hlines *h)
{
	enum mode m = app->back;
	int pass, a;
	size_t i;
	h->n = 0;
	for (pass = 0; pass < 2; pass++) {
		int mode = pass == 0 ? (int)m : MODE_ANY;
		char head[120];
		snprintf(head, sizeof head, "%s", pass == 0 ? mode_name(m) : "everywhere");
		add(h, ROLE_HEADING, head);
		for (a = 0; a < ACT_COUNT; a++) {
			char keys[64] = "";
			size_t used = 0;
			for (i = 0; i < keymap_len; i++)
				if ((int)keymap[i].action == a && keymap[i].mode == mode) {
					int n = snprintf(keys + used, sizeof keys - used, "%s%s", used ? " " : "", keymap[i].label);
					if (n > 0 && (size_t)n < sizeof keys - used)
						used += (size_t)n;
				}
			if (used)
				entry(h, keys, action_name((enum action)a), action_help((enum action)a), 14, 15, width);
		}
		add(h, ROLE_NORMAL, "");
	}
	add(h, ROLE_HEADING, ": commands (Tab completes them)");
	for (i = 0; commands[i].name; i++) {
		char usage[80];
		snprintf(usage, sizeof usage, ":%s%s%s", commands[i].name, commands[i].args[0] ? " " : "", commands[i].args);
		entry(h, usage, "", commands[i].help, 24, 0, width);
	}
}

static struct hlines scratch;

static int rows_of(int h)
{
	return h - 4 > 1 ? h - 4 : 1; /* the title, a marker row above and below, the status line */
}

unsigned help_open(struct app *app)
{
	app->back = app->mode == MODE_PLOT ? app->back : app->mode;
	app->mode = MODE_HELP;
	app->help_top = 0;
	return CHG_VIEW;
}

unsigned help_action(struct app *app, enum action a)
{
	if (a == ACT_QUIT || a == ACT_HELP || a == ACT_CANCEL) {
		app->mode = app->back;
		return CHG_VIEW;
	}
	help_lines(app, app->screen_w - 2, &scratch);
	return view_scroll(&app->help_top, a, scratch.n, rows_of(app->screen_h));
}

void help_draw(const struct app *app, struct cellbuf *c)
{
	static struct hlines h;
	int rows = rows_of(c->h), top = app->help_top, i, shown = 0;
	cellbuf_fill(c, 0, 0, c->w, c->h, ROLE_NORMAL);
	cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "ncfabric keys: %s mode, then everywhere (Esc or ? closes, j/k scroll)",
		       mode_name(app->back));
	help_lines(app, c->w - 2, &h);
	if (top > h.n - rows)
		top = h.n - rows;
	if (top < 0)
		top = 0;
	for (i = top; i < h.n && i - top < rows; i++, shown++)
		cellbuf_text(c, 1, 2 + i - top, c->w - 2, h.role[i], h.text[i]);
	view_marks(c, 1, c->h - 2, top, h.n - top - shown);
}
