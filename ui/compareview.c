/* compareview.c: the pinned design A (:pin, or :compare FILE) beside the design on screen B:
 * every headline number with its change, and what changed from A to B. A's numbers are
 * recomputed only when the message size changes; B's with every edit. */
#include "ui/modes.h"
#include "io/diff.h"
#include "io/units.h"
#include <stdio.h>
#include <string.h>

/* A's and B's headline numbers at the panel's message size, and what changed from A to B. */
void compare_refresh(struct app *app)
{
	struct catalog cat;
	app->cmp_changes.n = 0;
	if (!app->pinned) {
		app->cmp_n = 0;
		app->cmp_bytes = 0;
		return;
	}
	if (app->cmp_bytes != app->bytes) { /* A does not change with B's edits: only with the size */
		recover_app_begin(app); /* A's numbers are a computation too: signals still save the work */
		design_catalog(&app->pin, app->shipped, &cat);
		app->cmp_n = headlines_of(&app->pin, &cat, app->bytes, app->cmp_a, HEADLINES_MAX);
		catalog_free(&cat);
		recover_compute_end();
		app->cmp_bytes = app->bytes;
	}
	headlines_collect(app_inventory(app), &app->metrics, app->design.job.algo, app->cmp_b, HEADLINES_MAX);
	design_diff(&app->pin, &app->design, &app->cmp_changes);
}

/* :pin, :unpin, :compare [FILE]. A failed load of FILE changes nothing. */
unsigned compare_command(struct app *app, const char *cmd, const char *file)
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

unsigned compare_open(struct app *app)
{
	if (!app->pinned)
		return say(app, true, "nothing to compare with: :pin pins this design, :compare FILE loads one");
	app->mode = MODE_COMPARE;
	app->compare_top = 0;
	return CHG_VIEW;
}

#define CMP_LINES 400

struct clines {
	int n;
	char text[CMP_LINES][400];
	int role[CMP_LINES], x[CMP_LINES];
};

/* Every line under the heading: the headline numbers, then what changed from A to B. */
static void compare_lines(const struct app *app, int w, struct clines *l)
{
	int k, verdict, vw = w >= 100 ? 18 : 13;
	size_t i;
	char va[48], vb[48], delta[64], line[400];
	l->n = 0;
	for (k = 0; k < app->cmp_n && l->n < CMP_LINES; k++) {
		if (!app->cmp_a[k].known && !app->cmp_b[k].known)
			continue; /* as in ncfabric diff: not defined for either */
		headline_delta(&app->cmp_a[k], &app->cmp_b[k], &verdict, delta, sizeof delta);
		l->role[l->n] = verdict > 0 ? ROLE_NUMBER : verdict < 0 ? ROLE_WARNING : ROLE_NORMAL;
		l->x[l->n] = 1;
		snprintf(l->text[l->n++], sizeof l->text[0], "%-24s %*s %*s  %s%s", app->cmp_a[k].label, vw,
			 headline_value(&app->cmp_a[k], va, sizeof va), vw, headline_value(&app->cmp_b[k], vb, sizeof vb), delta,
			 verdict > 0 ? " better" : verdict < 0 ? " worse" : "");
	}
	if (l->n + 2 > CMP_LINES)
		return;
	l->text[l->n][0] = '\0';
	l->role[l->n] = ROLE_NORMAL;
	l->x[l->n++] = 1;
	l->role[l->n] = ROLE_HEADING;
	l->x[l->n] = 1;
	snprintf(l->text[l->n++], sizeof l->text[0], "what changed from A to B: %zu%s", app->cmp_changes.n,
		 app->cmp_changes.n ? "" : " (the same design)");
	for (i = 0; i < app->cmp_changes.n && l->n < CMP_LINES; i++) {
		l->role[l->n] = ROLE_NORMAL;
		l->x[l->n] = 3;
		snprintf(l->text[l->n++], sizeof l->text[0], "%s",
			 change_text(&VEC_AT(app->cmp_changes, struct design_change, i), line, sizeof line));
	}
}

/* Rows under the four heading rows, less the marker row and the status line. */
static int compare_rows(int h)
{
	return h - 6 > 1 ? h - 6 : 1;
}

static struct clines scratch;

unsigned compare_action(struct app *app, enum action a)
{
	switch (a) {
	case ACT_QUIT:
	case ACT_COMPARE:
		app->mode = MODE_CANVAS;
		app->teach_play = 0;
		return CHG_VIEW;
	default:
		compare_lines(app, app->screen_w, &scratch);
		return view_scroll(&app->compare_top, a, scratch.n, compare_rows(app->screen_h));
	}
}

/* A and B side by side: every headline number with its change, then what changed. */
void compare_draw(const struct app *app, struct cellbuf *c)
{
	static struct clines l;
	int vw = c->w >= 100 ? 18 : 13, rows = compare_rows(c->h), top = app->compare_top, i, shown = 0;
	char sz[32];
	cellbuf_fill(c, 0, 0, c->w, c->h, ROLE_NORMAL);
	cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "compare at %s (Esc or C closes, j/k scroll, :unpin forgets A)",
		       format_size(app->bytes, sz, sizeof sz));
	cellbuf_printf(c, 1, 1, c->w - 2, ROLE_NORMAL, "A  %s", app->pin_label);
	cellbuf_printf(c, 1, 2, c->w - 2, ROLE_NORMAL, "B  %s, on screen%s", app->design.name,
		       app_dirty(app) ? " (modified)" : "");
	cellbuf_printf(c, 1, 3, c->w - 2, ROLE_HEADING, "%-24s %*s %*s  %s", "", vw, "A", vw, "B", "B - A");
	compare_lines(app, c->w, &l);
	if (top > l.n - rows)
		top = l.n - rows;
	if (top < 0)
		top = 0;
	for (i = top; i < l.n && i - top < rows; i++, shown++)
		cellbuf_text(c, l.x[i], 4 + i - top, c->w - 1 - l.x[i], l.role[i], l.text[i]);
	view_marks(c, 3, c->h - 2, top, l.n - top - shown);
}
