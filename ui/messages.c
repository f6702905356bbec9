/* messages.c: two lists of messages on the whole screen, both scrolled with j/k, gg/G, PgUp/PgDn:
 * the message history (:messages: every message of the session, none of it cut), and the
 * errors of a design file that did not load (every error, FILE:LINE:COL: message), from which
 * :e! loads the file again once it is fixed outside. */
#include "ui/modes.h"
#include <stdio.h>
#include <string.h>

#define WRAP_MAX 400

struct wrapped {
	int n;
	char text[WRAP_MAX][240];
	int role[WRAP_MAX];
};

/* text word-wrapped at width into w: the first line as it is, the rest indented by two. */
static void wrap(struct wrapped *w, const char *text, int width, int role)
{
	const char *p = text;
	bool first = true;
	if (width < 20)
		width = 20;
	while (*p && w->n < WRAP_MAX) {
		int room = width - (first ? 0 : 2), cut = text_cut(p, room);
		snprintf(w->text[w->n], sizeof w->text[0], "%s%.*s", first ? "" : "  ", cut > 230 ? 230 : cut, p);
		w->role[w->n++] = role;
		p += cut;
		while (*p == ' ')
			p++;
		first = false;
	}
}

static struct wrapped scratch;

static void message_lines(const struct app *app, int width, struct wrapped *w)
{
	int k, first = app->nmsgs > MSG_KEEP ? app->nmsgs - MSG_KEEP : 0;
	w->n = 0;
	for (k = first; k < app->nmsgs; k++) {
		const char *t = app->msgs[k % MSG_KEEP].text;
		char line[1500];
		snprintf(line, sizeof line, "%s%s", app->msgs[k % MSG_KEEP].error ? "! " : "", t);
		wrap(w, line, width, app->msgs[k % MSG_KEEP].error ? ROLE_ERROR : ROLE_NORMAL);
	}
}

static void error_lines(const struct app *app, int width, struct wrapped *w)
{
	size_t i;
	w->n = 0;
	for (i = 0; i < diag_count(&app->load_errors); i++) {
		const struct ncf_problem *p = diag_get(&app->load_errors, i);
		char line[1500];
		if (p->line)
			snprintf(line, sizeof line, "%s:%d:%d: %s%s", app->errors_file, p->line, p->col,
				 p->sev == NCF_ERROR ? "" : "warning: ", p->msg);
		else
			snprintf(line, sizeof line, "%s: %s", app->errors_file, p->msg);
		wrap(w, line, width, p->sev == NCF_ERROR ? ROLE_ERROR : ROLE_WARNING);
	}
	if (w->n < WRAP_MAX) {
		w->role[w->n] = ROLE_NORMAL;
		w->text[w->n++][0] = '\0';
	}
	wrap(w, app->file_broken && !strcmp(app->file, app->errors_file)
			? "Fix the file outside, then :e! loads it again. Esc: a new design meanwhile (w will not overwrite the file)."
			: "Fix the file outside, then :e FILE loads it.",
	     width, ROLE_DIM);
}

/* Rows of the list: the screen less the title, a marker row above and below, the status line. */
static int list_rows(int h)
{
	return h - 4 > 1 ? h - 4 : 1;
}

unsigned messages_open(struct app *app)
{
	message_lines(app, app->screen_w - 2, &scratch);
	app->mode = MODE_MESSAGES;
	app->msg[0] = '\0'; /* the status line shows the keys: the messages are above */
	app->msgs_top = scratch.n - list_rows(app->screen_h) > 0 ? scratch.n - list_rows(app->screen_h) : 0;
	return CHG_VIEW;
}

unsigned messages_action(struct app *app, enum action a)
{
	if (a == ACT_QUIT || a == ACT_CANCEL) {
		app->mode = MODE_CANVAS;
		return CHG_VIEW;
	}
	message_lines(app, app->screen_w - 2, &scratch);
	return view_scroll(&app->msgs_top, a, scratch.n, list_rows(app->screen_h));
}

unsigned errors_open(struct app *app)
{
	app->mode = MODE_ERRORS;
	app->errs_top = 0;
	return CHG_VIEW;
}

unsigned errors_action(struct app *app, enum action a)
{
	if (a == ACT_QUIT || a == ACT_CANCEL) {
		app->mode = MODE_CANVAS;
		return say(app, false, "%s did not load: the design on screen is new and w will not overwrite it (:e! loads it again, :errors lists why)",
			   app->file);
	}
	error_lines(app, app->screen_w - 2, &scratch);
	return view_scroll(&app->errs_top, a, scratch.n, list_rows(app->screen_h));
}

static void paint(struct cellbuf *c, const struct wrapped *w, int top)
{
	int rows = list_rows(c->h), i, shown = 0;
	if (top > w->n - rows)
		top = w->n - rows;
	if (top < 0)
		top = 0;
	for (i = top; i < w->n && i - top < rows; i++, shown++)
		cellbuf_text(c, 1, 2 + i - top, c->w - 2, w->role[i], w->text[i]);
	view_marks(c, 1, c->h - 2, top, w->n - top - shown);
}

void messages_draw(const struct app *app, struct cellbuf *c)
{
	static struct wrapped w;
	cellbuf_fill(c, 0, 0, c->w, c->h, ROLE_NORMAL);
	cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "messages: %d this session%s, the newest last (j/k scroll, Esc back)",
		       app->nmsgs, app->nmsgs > MSG_KEEP ? ", the last 100 kept" : "");
	message_lines(app, c->w - 2, &w);
	if (!w.n)
		cellbuf_text(c, 1, 2, c->w - 2, ROLE_DIM, "no messages yet");
	paint(c, &w, app->msgs_top);
}

void errors_draw(const struct app *app, struct cellbuf *c)
{
	static struct wrapped w;
	size_t n = 0, i;
	for (i = 0; i < diag_count(&app->load_errors); i++)
		n += diag_get(&app->load_errors, i)->sev == NCF_ERROR;
	cellbuf_fill(c, 0, 0, c->w, c->h, ROLE_NORMAL);
	cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "%s did not load: %zu error%s", app->errors_file, n, n == 1 ? "" : "s");
	error_lines(app, c->w - 2, &w);
	paint(c, &w, app->errs_top);
}
