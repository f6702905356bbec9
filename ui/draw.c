/* draw.c: the screen, painted from state into a canvas. Nothing here changes state. */
#include "ui/app.h"
#include <stdio.h>
#include <string.h>

#define MIN_W 80
#define MIN_H 24

static void item_line(const struct app *app, struct cellbuf *c, int y, int w, int id, const char *text)
{
	bool sel = app->selected == id;
	cellbuf_printf(c, 1, y, w - 1, sel ? ROLE_SELECTED : ROLE_NORMAL, "%s %s", sel ? ">" : " ", text);
	if (sel)
		cellbuf_fill_role(c, 1, y, w - 1, ROLE_SELECTED);
}

static int draw_design(const struct app *app, struct cellbuf *c, int y, int w, int bottom)
{
	const struct design *d = &app->design;
	char buf[256];
	size_t i;
	cellbuf_text(c, 1, y++, w, ROLE_HEADING, "Design");
	for (i = 0; i < d->servers.n && y < bottom; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		snprintf(buf, sizeof buf, "%-10.10s %d x %d %s", g->name, g->count, g->gpus, g->gpu);
		item_line(app, c, y++, w, g->id, buf);
	}
	for (i = 0; i < d->domains.n && y < bottom; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		snprintf(buf, sizeof buf, "%-10.10s %d NVLink domains", m->name, m->count);
		item_line(app, c, y++, w, m->id, buf);
	}
	for (i = 0; i < d->switches.n && y < bottom; i++) {
		const struct switch_group *s = DESIGN_SWITCH(d, i);
		snprintf(buf, sizeof buf, "%-10.10s %d x %s (%s)", s->name, s->count, s->model, switch_role_names[s->role]);
		item_line(app, c, y++, w, s->id, buf);
	}
	for (i = 0; i < d->bundles.n && y < bottom; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		const struct inv_link *l = i < app->inv.bundles.n ? &VEC_AT(app->inv.bundles, struct inv_link, i) : NULL;
		snprintf(buf, sizeof buf, "%s->%s %d each x %d Gb/s, %s", b->from, b->to, b->links_each,
			 l ? l->speed_gbps : 0, wiring_names[b->wiring]);
		item_line(app, c, y++, w, b->id, buf);
	}
	return y;
}

static int stat_line(struct cellbuf *c, int x, int y, int w, const char *label, const char *value)
{
	cellbuf_text(c, x, y, 16, ROLE_NORMAL, label);
	cellbuf_text(c, x + 16, y, w - 16, ROLE_NUMBER, value);
	return y + 1;
}

static int draw_inventory(const struct app *app, struct cellbuf *c, int x, int y, int w)
{
	const struct inventory *inv = &app->inv;
	char buf[128];
	cellbuf_text(c, x, y++, w, ROLE_HEADING, "Inventory");
	snprintf(buf, sizeof buf, "%ld", inv->servers);
	y = stat_line(c, x, y, w, "servers", buf);
	snprintf(buf, sizeof buf, "%ld", inv->gpus);
	y = stat_line(c, x, y, w, "GPUs", buf);
	snprintf(buf, sizeof buf, "%ld (+%ld storage)", inv->nics_compute, inv->nics_storage);
	y = stat_line(c, x, y, w, "NICs", buf);
	{
		size_t used = 0;
		int r;
		buf[0] = '\0';
		for (r = 0; r < 3; r++)
			if (inv->switches[r] && used < sizeof buf) {
				int k = snprintf(buf + used, sizeof buf - used, "%s%ld %s", used ? ", " : "", inv->switches[r],
						 switch_role_names[r]);
				if (k > 0)
					used += (size_t)k;
			}
		y = stat_line(c, x, y, w, "switches", used ? buf : "none");
	}
	snprintf(buf, sizeof buf, "%ld (%ld optics)", inv->links, inv->transceivers);
	y = stat_line(c, x, y, w, "links", buf);
	if (inv->power_W > 0)
		snprintf(buf, sizeof buf, "%.1f kW%s", inv->power_W / 1000.0, inv->power_unknown ? " (partial)" : "");
	else
		snprintf(buf, sizeof buf, "not known");
	y = stat_line(c, x, y, w, "power", buf);
	if (inv->rack_units > 0)
		snprintf(buf, sizeof buf, "%.0f U%s", inv->rack_units, inv->rack_units_unknown ? " (partial)" : "");
	else
		snprintf(buf, sizeof buf, "not known");
	return stat_line(c, x, y, w, "rack units", buf);
}

/* The model's headline numbers: AllReduce, the ceiling, speedup, and the bottleneck. */
static int draw_model(const struct app *app, struct cellbuf *c, int y)
{
	const struct metrics *m = &app->metrics;
	const struct coll_result *ar = &m->colls[COLL_ALLREDUCE];
	const struct algo_result *a = coll_pick(ar, app->design.job.algo);
	int x = 1;
	x += cellbuf_text(c, x, y, c->w - x, ROLE_HEADING, "AllReduce 1G ");
	if (a->available)
		x += cellbuf_printf(c, x, y, c->w - x, ROLE_NUMBER, "%.1f GB/s busbw (%s)", a->busbw_GBps,
				    ualgo_names[a - ar->algo]);
	else
		x += cellbuf_text(c, x, y, c->w - x, ROLE_WARNING, "cannot run");
	if (m->fabric.node.nnodes > 1)
		x += cellbuf_printf(c, x, y, c->w - x, ROLE_NORMAL, "  ceiling %.1f", m->fabric.node_ceiling_GBps);
	if (m->work.valid)
		cellbuf_printf(c, x, y, c->w - x, ROLE_NORMAL, "  speedup %.1f/%d (%.0f%%)", m->work.speedup, m->work.gpus,
			       100 * m->work.efficiency);
	y++;
	return y + cellbuf_wrap(c, 1, y, c->w - 2, 2, ROLE_NORMAL, m->bottleneck);
}

static void draw_status(const struct app *app, struct cellbuf *c)
{
	int y = c->h - 1, x = 0;
	size_t i;
	cellbuf_fill_role(c, 0, y, c->w, ROLE_STATUS);
	if (app->msg[0]) {
		cellbuf_printf(c, 0, y, c->w, app->msg_error ? ROLE_ERROR : ROLE_STATUS, " %s%s",
			      app->msg_error ? "! " : "", app->msg);
		return;
	}
	/* Key hints straight from the key table: the first key of each action. */
	for (i = 0; i < keymap_len && x < c->w; i++) {
		size_t j;
		bool seen = false;
		for (j = 0; j < i; j++)
			seen |= keymap[j].action == keymap[i].action;
		if (seen || keymap[i].action == ACT_REDRAW)
			continue;
		x += cellbuf_printf(c, x, y, c->w - x, ROLE_STATUS, " %s:%s", keymap[i].label,
				    action_name(keymap[i].action));
	}
}

static void draw_help(const struct app *app, struct cellbuf *c)
{
	int a, y = 2;
	(void)app;
	cellbuf_clear(c);
	cellbuf_text(c, 1, 0, c->w - 2, ROLE_TITLE, "ncfabric keys (? or F1 closes)");
	for (a = 0; a < ACT_COUNT && y < c->h - 1; a++) {
		char keys[64] = "";
		size_t i, used = 0;
		for (i = 0; i < keymap_len; i++)
			if ((int)keymap[i].action == a) {
				int n = snprintf(keys + used, sizeof keys - used, "%s%s", used ? " " : "", keymap[i].label);
				if (n > 0 && (size_t)n < sizeof keys - used)
					used += (size_t)n;
			}
		cellbuf_printf(c, 2, y++, c->w - 3, ROLE_NORMAL, "%-12s %-12s %s", keys, action_name((enum action)a),
			      action_help((enum action)a));
	}
}

void app_draw(const struct app *app, struct cellbuf *c)
{
	int half, y, yi, i;
	cellbuf_clear(c);
	if (c->w < MIN_W || c->h < MIN_H) {
		cellbuf_printf(c, 0, 0, c->w, ROLE_ERROR, "terminal too small:");
		cellbuf_printf(c, 0, 1, c->w, ROLE_ERROR, "%dx%d needed, %dx%d here", MIN_W, MIN_H, c->w, c->h);
		cellbuf_printf(c, 0, 2, c->w, ROLE_NORMAL, "q quits");
		return;
	}
	if (app->help) {
		draw_help(app, c);
		return;
	}
	cellbuf_fill_role(c, 0, 0, c->w, ROLE_TITLE);
	cellbuf_printf(c, 0, 0, c->w, ROLE_TITLE, " ncfabric  %s  %s%s", app->design.name,
		      app->file[0] ? app->file : "(built-in default)", app_dirty(app) ? "  [modified]" : "");
	half = c->w / 2;
	y = draw_design(app, c, 2, half, c->h - 8);
	yi = draw_inventory(app, c, half + 1, 2, c->w - half - 2);
	y = (y > yi ? y : yi) + 1;
	cellbuf_hline(c, 0, y++, c->w, ROLE_DIM);
	y = draw_model(app, c, y);
	cellbuf_printf(c, 1, y++, c->w - 2, ROLE_HEADING, "Problems (%d errors, %d warnings)", app->problems.n_errors,
		      app->problems.n_warnings);
	for (i = 0; i < (int)diag_count(&app->problems) && y < c->h - 1; i++) {
		const struct ncf_problem *p = diag_get(&app->problems, (size_t)i);
		cellbuf_printf(c, 1, y++, c->w - 2, p->sev == NCF_ERROR ? ROLE_ERROR : ROLE_WARNING, "%s %s",
			      p->sev == NCF_ERROR ? "E" : "W", p->msg);
	}
	if (!diag_count(&app->problems) && y < c->h - 1)
		cellbuf_text(c, 1, y, c->w - 2, ROLE_DIM, "none");
	draw_status(app, c);
}
