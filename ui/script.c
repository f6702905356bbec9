#include "ui/script.h"
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	int key;
} named[] = {
	{ "Enter", NK_ENTER }, { "Esc", NK_ESC }, { "Tab", NK_TAB }, { "S-Tab", NK_BTAB }, { "Up", NK_UP },
	{ "Down", NK_DOWN }, { "Left", NK_LEFT }, { "Right", NK_RIGHT }, { "BS", NK_BACKSPACE }, { "F1", NK_F1 },
	{ "C-r", NK_CTRL_R }, { "C-l", NK_CTRL_L }, { "C-u", NK_CTRL_U }, { "C-c", NK_CTRL_C }, { "C-d", NK_CTRL_D },
	{ "Home", NK_HOME }, { "End", NK_END }, { "PgUp", NK_PGUP }, { "PgDn", NK_PGDN }, { "Space", ' ' }, { "lt", '<' },
};

static unsigned feed_keys(struct app *app, const char *p, int lineno, char *err, size_t errsz, bool *bad)
{
	unsigned chg = 0;
	while (*p) {
		int key = (unsigned char)*p;
		if (*p == '<') {
			const char *end = strchr(p, '>');
			size_t i, n = end ? (size_t)(end - p - 1) : 0;
			key = -1;
			for (i = 0; end && i < sizeof named / sizeof named[0]; i++)
				if (strlen(named[i].name) == n && !strncmp(named[i].name, p + 1, n))
					key = named[i].key;
			if (key < 0) {
				snprintf(err, errsz, "script line %d: unknown key name '%.*s'", lineno, end ? (int)n + 2 : 8, p);
				*bad = true;
				return chg;
			}
			p = end + 1;
		} else {
			p++;
		}
		chg = app_key(app, key);
		app_settle(app, chg);
		if (chg & CHG_QUIT)
			return chg;
	}
	return chg;
}

int script_run(struct app *app, const char *text, int w, int h, FILE *dump, char *err, size_t errsz)
{
	const char *p = text;
	int lineno = 0;
	struct cellbuf c;
	app_layout(app, w, h);
	app_settle(app, app_idle(app)); /* the user sees the design before the first line */
	while (*p) {
		char line[1024];
		size_t n = strcspn(p, "\n");
		unsigned chg = 0;
		bool bad = false;
		lineno++;
		if (n >= sizeof line)
			n = sizeof line - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		p += strcspn(p, "\n");
		if (*p)
			p++;
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (line[0] == '@') {
			int a = action_lookup(line + 1);
			if (a < 0) {
				snprintf(err, errsz, "script line %d: no action named '%s'", lineno, line + 1);
				return 2;
			}
			chg = app_run(app, (enum action)a);
		} else if (line[0] == ':') {
			chg = app_command(app, line + 1);
		} else if (!strncmp(line, "size ", 5)) {
			if (sscanf(line + 5, "%dx%d", &w, &h) != 2 || w < 1 || h < 1 || w > 1000 || h > 1000) {
				snprintf(err, errsz, "script line %d: size WxH, got '%s'", lineno, line + 5);
				return 2;
			}
			app_layout(app, w, h);
		} else if (!strncmp(line, "click ", 6) || !strncmp(line, "drag ", 5)) {
			int x1, y1, x2, y2;
			if (line[0] == 'c' && sscanf(line + 6, "%d %d", &x1, &y1) == 2) {
				chg = app_mouse(app, MOUSE_PRESS, x1, y1) | app_mouse(app, MOUSE_RELEASE, x1, y1);
			} else if (line[0] == 'd' && sscanf(line + 5, "%d %d %d %d", &x1, &y1, &x2, &y2) == 4) {
				chg = app_mouse(app, MOUSE_PRESS, x1, y1);
				chg |= app_mouse(app, MOUSE_RELEASE, x2, y2);
			} else {
				snprintf(err, errsz, "script line %d: click X Y or drag X1 Y1 X2 Y2", lineno);
				return 2;
			}
		} else {
			chg = feed_keys(app, line, lineno, err, errsz, &bad);
			if (bad)
				return 2;
		}
		app_settle(app, chg);
		if (chg & CHG_QUIT)
			break;
		app_settle(app, app_idle(app)); /* a script's user waits after each line */
	}
	app_settle(app, app_idle(app));
	if (dump) {
		char *s;
		cellbuf_init(&c, w, h);
		c.ascii = app->ascii;
		app_draw(app, &c);
		s = cellbuf_dump(&c);
		fputs(s, dump);
		free(s);
		cellbuf_free(&c);
	}
	return 0;
}
