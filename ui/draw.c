/* draw.c: the screen, painted from state into a cell buffer. Nothing here changes state
 * or computes the model: the numbers come from app->metrics, app->inv, app->plot_*. */
#include "ui/app.h"
#include "io/diff.h"
#include "io/units.h"
#include "layouts/template.h"
#include "ui/lesson.h"
#include <math.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

static const char *const pattern_labels[] = { "AllReduce", "AllGather", "ReduceScatter", "AllToAll", "send/recv" };

/* ---- the canvas ------------------------------------------------------------------------- */

static void draw_route(struct cellbuf *c, int ox, int oy, const struct route *r)
{
	int role = r->oversubscribed ? ROLE_WARNING : ROLE_DIM, y, x, lo, hi;
	if (r->hidden)
		return;
	for (y = r->ymid + 1; y <= r->y1; y++)
		cellbuf_put(c, ox + r->x1, oy + y, c->ascii ? '|' : 0x2502, role);
	lo = r->x1 < r->x2 ? r->x1 : r->x2;
	hi = r->x1 < r->x2 ? r->x2 : r->x1;
	for (x = lo; x <= hi; x++)
		cellbuf_put(c, ox + x, oy + r->ymid, c->ascii ? '-' : 0x2500, role);
	if (r->x1 != r->x2) {
		cellbuf_put(c, ox + r->x1, oy + r->ymid, c->ascii ? '+' : (r->x1 < r->x2 ? 0x2514 : 0x2518), role);
		cellbuf_put(c, ox + r->x2, oy + r->ymid, c->ascii ? '+' : (r->x1 < r->x2 ? 0x2510 : 0x250c), role);
	} else {
		cellbuf_put(c, ox + r->x1, oy + r->ymid, c->ascii ? '|' : 0x2502, role);
	}
	for (y = r->y2; y < r->ymid; y++)
		cellbuf_put(c, ox + r->x2, oy + y, c->ascii ? '|' : 0x2502, role);
}

static void draw_canvas(const struct app *app, struct cellbuf *c, int x0, int y0, int w, int h)
{
	size_t i;
	int ox = x0 + 1, oy = y0 + 1;
	bool focus = app->mode == MODE_CANVAS;
	cellbuf_box(c, x0, y0, w, h, focus ? ROLE_HEADING : ROLE_DIM);
	cellbuf_printf(c, x0 + 2, y0, w - 4, focus ? ROLE_HEADING : ROLE_DIM, " %s ", app->design.name);
	for (i = 0; i < app->place.routes.n; i++)
		draw_route(c, ox, oy, &VEC_AT(app->place.routes, struct route, i));
	for (i = 0; i < app->place.blocks.n; i++) {
		const struct block *b = &VEC_AT(app->place.blocks, struct block, i);
		bool sel = b->id && b->id == app->selected;
		int role = sel ? ROLE_SELECTED : b->kind == GK_NOTE ? ROLE_DIM : ROLE_NORMAL;
		if (!b->w)
			continue;
		cellbuf_fill(c, ox + b->x, oy + b->y, b->w, b->h, sel ? ROLE_SELECTED : ROLE_NORMAL);
		cellbuf_box(c, ox + b->x, oy + b->y, b->w, b->h, role);
		cellbuf_text(c, ox + b->x + 2, oy + b->y + 1, b->w - 3, sel ? ROLE_SELECTED : b->kind == GK_SWITCH ? ROLE_NUMBER : role,
			     b->label);
		if (sel) /* the selection is marked, not only reversed */
			cellbuf_put(c, ox + b->x + 1, oy + b->y + 1, '>', ROLE_SELECTED);
	}
	for (i = 0; i < app->place.routes.n; i++) {
		const struct route *r = &VEC_AT(app->place.routes, struct route, i);
		const struct schema *s;
		bool sel = false;
		size_t k;
		if (r->hidden)
			continue;
		for (k = 0; k < app->design.bundles.n; k++) {
			const struct bundle *b = DESIGN_BUNDLE(&app->design, k);
			if (b->id == app->selected && !strcmp(b->from, r->from) && !strcmp(b->to, r->to) &&
			    ed_object_const(&app->design, b->id, &s))
				sel = true;
		}
		cellbuf_printf(c, ox + r->lx, oy + r->ly, w - 2 - r->lx, sel ? ROLE_SELECTED : r->oversubscribed ? ROLE_WARNING : ROLE_DIM,
			       "%s%s", sel ? ">" : "", r->label);
	}
	if (!app->place.blocks.n)
		cellbuf_text(c, ox + 1, oy + 1, w - 4, ROLE_DIM, "an empty design: a adds a block, T starts from a template");
}

/* ---- the metrics panel ---------------------------------------------------------------------- */

#define PANEL_LINES 64

struct lines {
	int n;
	char text[PANEL_LINES][160];
	int role[PANEL_LINES];
};

static void line(struct lines *l, int role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void line(struct lines *l, int role, const char *fmt, ...)
{
	va_list ap;
	if (l->n >= PANEL_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(l->text[l->n], sizeof l->text[0], fmt, ap);
	va_end(ap);
	l->role[l->n++] = role;
}

static void wrap_into(struct lines *l, int role, const char *text, int width, const char *first)
{
	const char *p = text;
	bool start = true;
	while (*p && l->n < PANEL_LINES) {
		int room = width - (int)(start ? strlen(first) : 2), cut;
		int len = (int)strlen(p);
		if (room < 10)
			room = 10;
		cut = len;
		if (len > room) {
			cut = room;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (!cut)
				cut = room;
		}
		line(l, role, "%s%.*s", start ? first : "  ", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		start = false;
	}
}

static void panel_lines(const struct app *app, struct lines *l, int width)
{
	const struct metrics *m = &app->metrics;
	const struct fabric *f = &m->fabric;
	const struct workload *w = &m->work;
	const struct coll_result *cr = &m->colls[app->pattern];
	char sz[32], buf[160];
	int u, t;
	size_t used = 0;
	line(l, ROLE_HEADING, "%d GPUs on %d node%s (%d per %s)", f->gpus, f->node.nnodes, f->node.nnodes == 1 ? "" : "s",
	     f->node.ppn, f->domain_node ? "NVLink domain" : "server");
	if (f->node.nnodes > 1 || f->ports)
		line(l, ROLE_NORMAL, "network %.1f GB/s per node (%d x %dG)", f->node_ceiling_GBps, f->ports, f->port_gbps);
	if (f->node.nvl > 0)
		line(l, ROLE_NORMAL, "NVLink %.0f GB/s per GPU (NCCL)", f->node.nvl);
	buf[0] = '\0';
	for (t = 0; t < f->ntiers && used < sizeof buf; t++) {
		int k;
		if (f->tiers[t].ratio > 0)
			k = snprintf(buf + used, sizeof buf - used, "%s%s %.3g:1%s", used ? ", " : "", switch_role_names[f->tiers[t].role],
				     f->tiers[t].ratio, f->tiers[t].ratio > 4 ? "!" : "");
		else if (f->ntiers == 1)
			k = snprintf(buf + used, sizeof buf - used, "none (one %s tier)", switch_role_names[f->tiers[t].role]);
		else
			k = snprintf(buf + used, sizeof buf - used, "%s%s (top)", used ? ", " : "", switch_role_names[f->tiers[t].role]);
		if (k > 0)
			used += (size_t)k;
	}
	if (used)
		line(l, f->ntiers && buf[used - 1] == '!' ? ROLE_WARNING : ROLE_NORMAL, "oversub %s", buf);
	if (f->design_nodes > 1)
		line(l, ROLE_NORMAL, "bisection %.0f GB/s (%.2f per GPU)", f->bisection_GBps, f->bisection_per_gpu_GBps);
	line(l, ROLE_HEADING, "%s %s busbw GB/s (%d ranks):", pattern_labels[app->pattern],
	     format_size(m->bytes, sz, sizeof sz), cr->ranks);
	for (u = 0; u < UA_COUNT; u++) {
		const struct algo_result *a = &cr->algo[u];
		bool shown = app->algo_view < 0 || app->algo_view == u || u == UA_P2P;
		if (!a->available || !shown)
			continue;
		line(l, cr->auto_algo == u ? ROLE_NUMBER : ROLE_NORMAL, " %-8s %8.1f %s%s%s", ualgo_labels[u], a->busbw_GBps,
		     nproto_names[a->proto], cr->auto_algo == u ? " *NCCL" : "",
		     cr->best_algo == u && cr->auto_algo != u ? " +fastest" : "");
	}
	if (app->algo_view >= 0 && !cr->algo[app->algo_view].available)
		line(l, ROLE_WARNING, " %s: %s", ualgo_labels[app->algo_view],
		     cr->algo[app->algo_view].reason ? cr->algo[app->algo_view].reason : "unavailable");
	if (w->valid) {
		line(l, ROLE_HEADING, "step %.1f ms, %.0f tokens/s", w->step_ms, w->tokens_per_s);
		line(l, w->efficiency < 0.7 ? ROLE_WARNING : ROLE_NUMBER, "speedup %.1f of %d (%.0f%%)", w->speedup, w->gpus,
		     100 * w->efficiency);
		line(l, ROLE_DIM, "Amdahl %.2f (r=%.2f)", w->amdahl_speedup, w->amdahl_r);
	} else {
		line(l, ROLE_DIM, "job: %s", w->why);
	}
	wrap_into(l, ROLE_NORMAL, m->bottleneck, width, "> ");
	for (t = 0; t < m->nadvice; t++)
		wrap_into(l, ROLE_DIM, m->advice[t], width, "- ");
	for (t = 0; t < (int)diag_count(&app->problems); t++) {
		const struct ncf_problem *p = diag_get(&app->problems, (size_t)t);
		wrap_into(l, p->sev == NCF_ERROR ? ROLE_ERROR : ROLE_WARNING, p->msg, width, p->sev == NCF_ERROR ? "E " : "W ");
	}
}

static void draw_panel(const struct app *app, struct cellbuf *c, int x0, int y0, int w, int h)
{
	struct lines l;
	int i, cols, colw, rows, first;
	bool focus = app->mode == MODE_METRICS;
	memset(&l, 0, sizeof l);
	cellbuf_box(c, x0, y0, w, h, focus ? ROLE_HEADING : ROLE_DIM);
	cellbuf_text(c, x0 + 2, y0, w - 4, focus ? ROLE_HEADING : ROLE_DIM, " metrics ");
	cols = w >= 76 && h < 16 ? 2 : 1;
	colw = (w - 2) / cols;
	panel_lines(app, &l, colw - 1);
	rows = h - 2;
	first = app->metrics_scroll;
	if (first > l.n - 1)
		first = l.n > 0 ? l.n - 1 : 0;
	for (i = first; i < l.n; i++) {
		int k = i - first, col = k / rows, row = k % rows;
		if (col >= cols)
			break;
		cellbuf_text(c, x0 + 1 + col * colw, y0 + 1 + row, colw - 1, l.role[i], l.text[i]);
	}
	if (l.n - first > rows * cols)
		cellbuf_text(c, x0 + w - 6, y0 + h - 1, 5, ROLE_DIM, " ... ");
}

/* ---- status and overlays --------------------------------------------------------------------- */

static void draw_status(const struct app *app, struct cellbuf *c)
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

static void center_box(struct cellbuf *c, int w, int h, int *x, int *y)
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

static void draw_form(const struct app *app, struct cellbuf *c)
{
	const struct form *f = &app->form;
	int w = c->w - 6 < 76 ? c->w - 6 : 76, h = f->nfields + 5, x, y, i, top = 0, rows;
	const struct template *t = f->purpose == FORM_TEMPLATE ? &templates[f->template_index] : NULL;
	if (h > c->h - 2)
		h = c->h - 2;
	rows = h - 5;
	if (f->cur >= rows)
		top = f->cur - rows + 1;
	center_box(c, w, h, &x, &y);
	cellbuf_printf(c, x + 2, y, w - 4, ROLE_HEADING, " %s ", f->title);
	for (i = top; i < f->nfields && i - top < rows; i++) {
		bool cur = i == f->cur;
		const char *key = t ? t->params[i].name : f->fields[i]->key;
		const char *err = t ? "" : f->err[i];
		cellbuf_printf(c, x + 2, y + 1 + i - top, w - 4, cur ? ROLE_SELECTED : ROLE_NORMAL, "%-17s %s%s%s", key,
			       f->text[i], cur ? "_" : "", err[0] ? "  !" : "");
		if (cur)
			cellbuf_fill(c, x + 1, y + 1 + i - top, 0, 1, ROLE_SELECTED);
	}
	if (f->nfields) {
		const char *help, *err = t ? "" : f->err[f->cur];
		char range[200];
		if (t)
			help = tparam_range(&t->params[f->cur], range, sizeof range);
		else
			help = f->fields[f->cur]->help;
		cellbuf_printf(c, x + 2, y + h - 3, w - 4, err[0] ? ROLE_ERROR : ROLE_DIM, "%s%s", err[0] ? "! " : "",
			       err[0] ? err : help);
	}
	cellbuf_text(c, x + 2, y + h - 2, w - 4, ROLE_DIM, "Enter applies, Esc cancels, Up/Down/Tab move, Left/Right cycle choices");
}

static void draw_list(struct cellbuf *c, const char *title, const char *const *items, int n, int cur, const char *foot)
{
	int w = 60, h = n + 4, x, y, i;
	center_box(c, w, h, &x, &y);
	cellbuf_printf(c, x + 2, y, w - 4, ROLE_HEADING, " %s ", title);
	for (i = 0; i < n && i < h - 3; i++)
		cellbuf_printf(c, x + 2, y + 1 + i, w - 4, i == cur ? ROLE_SELECTED : ROLE_NORMAL, "%s %s", i == cur ? ">" : " ",
			       items[i]);
	cellbuf_text(c, x + 2, y + h - 2, w - 4, ROLE_DIM, foot);
}

static void draw_palette(const struct app *app, struct cellbuf *c)
{
	static const char *const items[] = { "server group", "NVLink domain group", "leaf switches", "spine switches",
					     "core switches", "bundle from the selected block", "note" };
	draw_list(c, "add", items, 7, app->palette_cur, "Enter chooses, Esc cancels");
}

static void draw_templates(const struct app *app, struct cellbuf *c)
{
	const char *items[16];
	char text[16][120];
	size_t i;
	for (i = 0; i < ntemplates && i < 16; i++) {
		snprintf(text[i], sizeof text[i], "%-15s %s", templates[i].name, templates[i].help);
		items[i] = text[i];
	}
	draw_list(c, "new design from a template", items, (int)ntemplates, app->tmpl_cur, "Enter sets its parameters, Esc cancels");
}

static void draw_confirm(const struct app *app, struct cellbuf *c)
{
	int w = c->w - 8 < 70 ? c->w - 8 : 70, x, y;
	center_box(c, w, 6, &x, &y);
	cellbuf_text(c, x + 2, y, w - 4, ROLE_HEADING, " question ");
	cellbuf_wrap(c, x + 2, y + 1, w - 4, 4, ROLE_WARNING, app->confirm_text);
}

static void draw_help(const struct app *app, struct cellbuf *c)
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

/* ---- compare ---------------------------------------------------------------------------------- */

/* A and B side by side: every headline number with its change, then what changed. */
static void draw_compare(const struct app *app, struct cellbuf *c)
{
	int y = 3 - app->metrics_scroll, k, verdict, vw = c->w >= 100 ? 18 : 13;
	size_t i;
	char sz[32], va[48], vb[48], delta[64], line[400];
	cellbuf_fill(c, 0, 0, c->w, c->h, ROLE_NORMAL);
	cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "compare at %s (Esc or C closes, j/k scroll, :unpin forgets A)",
		       format_size(app->bytes, sz, sizeof sz));
	cellbuf_printf(c, 1, 1, c->w - 2, ROLE_NORMAL, "A  %s", app->pin_label);
	cellbuf_printf(c, 1, 2, c->w - 2, ROLE_NORMAL, "B  %s, on screen%s", app->design.name,
		       app_dirty(app) ? " (modified)" : "");
	cellbuf_printf(c, 1, 3, c->w - 2, ROLE_HEADING, "%-24s %*s %*s  %s", "", vw, "A", vw, "B", "B - A");
	y++;
	for (k = 0; k < app->cmp_n; k++) {
		enum style_role role;
		if (!app->cmp_a[k].known && !app->cmp_b[k].known)
			continue; /* as in ncfabric diff: not defined for either */
		if (y++ < 4 || y > c->h - 1)
			continue;
		headline_delta(&app->cmp_a[k], &app->cmp_b[k], &verdict, delta, sizeof delta);
		role = verdict > 0 ? ROLE_NUMBER : verdict < 0 ? ROLE_WARNING : ROLE_NORMAL;
		cellbuf_printf(c, 1, y - 1, c->w - 2, role, "%-24s %*s %*s  %s%s", app->cmp_a[k].label, vw,
			       headline_value(&app->cmp_a[k], va, sizeof va), vw, headline_value(&app->cmp_b[k], vb, sizeof vb),
			       delta, verdict > 0 ? " better" : verdict < 0 ? " worse" : "");
	}
	y++;
	if (y >= 4 && y < c->h - 1)
		cellbuf_printf(c, 1, y, c->w - 2, ROLE_HEADING, "what changed from A to B: %zu%s", app->cmp_changes.n,
			       app->cmp_changes.n ? "" : " (the same design)");
	y++;
	for (i = 0; i < app->cmp_changes.n; i++, y++)
		if (y >= 4 && y < c->h - 1)
			cellbuf_printf(c, 3, y, c->w - 4, ROLE_NORMAL, "%s",
				       change_text(&VEC_AT(app->cmp_changes, struct design_change, i), line, sizeof line));
}

/* ---- teaching view ---------------------------------------------------------------------------- */

static const char *const teach_labels[] = { "AllReduce", "AllGather", "ReduceScatter" };

/* One cell of the chunk grid: how much of chunk c rank r holds. */
static uint32_t chunk_glyph(const struct ring_lesson *l, int have, int ascii)
{
	static const uint32_t utf[] = { 0xB7, 0x2591, 0x2592, 0x2593, 0x2588 }, asc[] = { '.', ':', '+', '*', '#' };
	const uint32_t *g = ascii ? asc : utf;
	double q;
	if (have >= l->n)
		return g[4];
	if (have <= 1)
		return g[0];
	q = (double)(have - 1) / (l->n - 1);
	return g[q < 1.0 / 3 ? 1 : q < 2.0 / 3 ? 2 : 3];
}

static void draw_teach_steps(const struct app *app, struct cellbuf *c)
{
	const struct ring_lesson *l = &app->lesson;
	char sz[32], ck[32];
	int s = app->teach_step, y = 5, r, k, gx = 11, cols, rows, net = 0;
	cols = c->w - gx - 12 < l->n ? c->w - gx - 12 : l->n;
	rows = c->h - 1 - y - 1 < l->n ? c->h - 1 - y - 1 : l->n;
	for (r = 0; r < l->n && r < 1000000; r++)
		net += ring_hop_network(l, r);
	cellbuf_printf(c, 1, 1, c->w - 2, ROLE_NORMAL, "n=%d on %d node%s, S=%s; per step each rank sends S/n=%s; %d network hop%s",
		       l->n, l->nodes, l->nodes == 1 ? "" : "s", format_size(l->bytes, sz, sizeof sz),
		       format_size(l->chunk, ck, sizeof ck), net, net == 1 ? "" : "s");
	cellbuf_printf(c, 1, 2, c->w - 2, ROLE_NUMBER, "step %.1f us (%.1f/%d); done %.1f of %.1f us; busbw %.1f GB/s",
		       l->step_us, l->time_us, l->nsteps, s * l->step_us, l->time_us, l->busbw);
	if (l->coll == COLL_ALLGATHER)
		cellbuf_printf(c, 1, 3, c->w - 2, ROLE_DIM, "chunk c on rank r: %s held, %s not yet; right: what rank r sends now",
			       c->ascii ? "#" : "█", c->ascii ? "." : "·");
	else
		cellbuf_printf(c, 1, 3, c->w - 2, ROLE_DIM, "chunk c on rank r: %s own data, %s partly summed, %s full sum; right: sent now",
			       c->ascii ? "." : "·", c->ascii ? ":+*" : "░▒▓", c->ascii ? "#" : "█");
	cellbuf_printf(c, 1, 4, c->w - 2, ROLE_HEADING, "rank      chunks 0..%d%s", cols - 1,
		       cols < l->n ? " (the first of them)" : "");
	for (r = 0; r < rows; r++, y++) {
		int send = ring_sends(l, s, r);
		cellbuf_printf(c, 1, y, 9, ROLE_NORMAL, "%6d", r);
		for (k = 0; k < cols; k++)
			cellbuf_put(c, gx + k, y, chunk_glyph(l, ring_have(l, s, r, k), c->ascii),
				    k == send ? ROLE_SELECTED : ROLE_NORMAL);
		if (send >= 0)
			cellbuf_printf(c, gx + cols + 1, y, c->w - gx - cols - 2, ring_hop_network(l, r) ? ROLE_WARNING : ROLE_DIM,
				       "chunk %d %s %d%s", send, c->ascii ? "->" : "→", (r + 1) % l->n, ring_hop_network(l, r) ? " net" : "");
	}
	if (rows < l->n && y < c->h - 1)
		cellbuf_printf(c, 1, y, c->w - 2, ROLE_DIM, "ranks %d..%d below: the same pattern, one place further each",
			       rows, l->n - 1);
}

/* Tree A in pre-order from the root, indented by depth; what each node holds and sends. */
static int draw_tree_nodes(const struct app *app, struct cellbuf *c, int p, int y)
{
	const struct tree_lesson *l = &app->tree;
	int kl, kr, d = tree_node_depth(l->k, p), st, how, n, x;
	char what[64], act[48] = "";
	if (y >= c->h - 2)
		return y;
	st = tree_state(l, app->teach_step, p);
	how = tree_sends(l, app->teach_step, p);
	n = tree_subtree(l->k, p);
	if (st == 0)
		snprintf(what, sizeof what, "its own data");
	else if (st == 1)
		snprintf(what, sizeof what, "the sum of %d node%s", n, n == 1 ? "" : "s");
	else
		snprintf(what, sizeof what, "the result");
	if (how == 1)
		snprintf(act, sizeof act, "; sends it up to node %d", tree_parent(l->k, p) - 1);
	else if (how == 2)
		snprintf(act, sizeof act, "; sends it down");
	x = 2 + 2 * (d < 20 ? d : 20);
	cellbuf_printf(c, x, y, c->w - x - 1, how ? ROLE_WARNING : st == 2 ? ROLE_NUMBER : ROLE_NORMAL, "node %d: %s%s", p - 1,
		       what, act);
	y++;
	tree_children(l->k, p, &kl, &kr);
	if (kl)
		y = draw_tree_nodes(app, c, kl, y);
	if (kr)
		y = draw_tree_nodes(app, c, kr, y);
	return y;
}

static void draw_teach_tree(const struct app *app, struct cellbuf *c)
{
	const struct tree_lesson *l = &app->tree;
	char sz[32];
	int y;
	cellbuf_printf(c, 1, 1, c->w - 2, ROLE_NORMAL, "%d nodes of %d GPUs, S=%s; each tree carries S/2; inside a node a chain",
		       l->k, l->ppn, format_size(l->bytes, sz, sizeof sz));
	cellbuf_printf(c, 1, 2, c->w - 2, ROLE_NUMBER, "step %.1f us (%.1f/%d); done %.1f of %.1f us; busbw %.1f GB/s",
		       l->step_us, l->time_us, l->nsteps, app->teach_step * l->step_us, l->time_us, l->busbw);
	cellbuf_printf(c, 1, 3, c->w - 2, ROLE_DIM, "tree A (tree B is its mirror: a leaf here is inside there); one chunk's wave");
	y = draw_tree_nodes(app, c, l->root, 4);
	if (y >= c->h - 2 && l->k > c->h - 6)
		cellbuf_printf(c, 1, c->h - 2, c->w - 2, ROLE_DIM, "... %d nodes in all", l->k);
}

static void draw_teach_a2a(const struct app *app, struct cellbuf *c)
{
	const struct a2a_lesson *l = &app->a2a;
	char sz[32], bk[32];
	int s = app->teach_step, y = 5, r, k, gx = 11, cols, rows;
	cols = c->w - gx - 16 < l->n ? c->w - gx - 16 : l->n;
	rows = c->h - 1 - y - 1 < l->n ? c->h - 1 - y - 1 : l->n;
	cellbuf_printf(c, 1, 1, c->w - 2, ROLE_NORMAL, "n=%d on %d node%s, S=%s; per step each rank sends one block of %s",
		       l->n, l->nodes, l->nodes == 1 ? "" : "s", format_size(l->bytes, sz, sizeof sz),
		       format_size(l->block, bk, sizeof bk));
	cellbuf_printf(c, 1, 2, c->w - 2, ROLE_NUMBER, "step %.1f us (%.1f/%d); done %.1f of %.1f us; busbw %.1f GB/s",
		       l->step_us, l->time_us, l->nsteps, s * l->step_us, l->time_us, l->busbw);
	if (s < l->nsteps)
		cellbuf_printf(c, 1, 3, c->w - 2, ROLE_DIM, "this step: %ld of %d sends cross the network; a cell: rank r has c's block",
			       a2a_network_sends(l, s), l->n);
	else
		cellbuf_printf(c, 1, 3, c->w - 2, ROLE_DIM, "done: every rank holds a block from every rank");
	cellbuf_printf(c, 1, 4, c->w - 2, ROLE_HEADING, "rank      from ranks 0..%d%s", cols - 1, cols < l->n ? " (the first)" : "");
	for (r = 0; r < rows; r++, y++) {
		int to = (r + s + 1) % l->n;
		bool net = l->nodes > 1 && r / l->ppn != to / l->ppn;
		cellbuf_printf(c, 1, y, 9, ROLE_NORMAL, "%6d", r);
		for (k = 0; k < cols; k++)
			cellbuf_put(c, gx + k, y, a2a_has(l, s, r, k) ? (c->ascii ? '#' : 0x2588) : (c->ascii ? '.' : 0xB7),
				    ROLE_NORMAL);
		if (s < l->nsteps)
			cellbuf_printf(c, gx + cols + 1, y, c->w - gx - cols - 2, net ? ROLE_WARNING : ROLE_DIM, "%s rank %d%s",
				       c->ascii ? "->" : "→", to, net ? " net" : "");
	}
	if (rows < l->n && y < c->h - 1)
		cellbuf_printf(c, 1, y, c->w - 2, ROLE_DIM, "ranks %d..%d below: the same pattern", rows, l->n - 1);
}

static void draw_teach_nvls(const struct app *app, struct cellbuf *c)
{
	const struct nvls_lesson *l = &app->nvls;
	static const char *const what[] = { "each GPU holds its own data",
					    "each GPU read its slice through the switch, which added the copies",
					    "each GPU wrote its summed slice once; the switch copied it to all" };
	struct ring_lesson glyphs = { 0 };
	char sz[32], sl[32];
	int s = app->teach_step, y = 5, g, k, gx = 11, rows = c->h - 1 - y - 1 < l->ppn ? c->h - 1 - y - 1 : l->ppn;
	glyphs.n = l->ppn;
	cellbuf_printf(c, 1, 1, c->w - 2, ROLE_NORMAL, "%d GPUs on one NVSwitch, S=%s, slices of %s%s", l->ppn,
		       format_size(l->bytes, sz, sizeof sz), format_size(l->slice, sl, sizeof sl),
		       l->nodes > 1 ? "; the part between nodes is not shown" : "");
	cellbuf_printf(c, 1, 2, c->w - 2, ROLE_NUMBER, "step %.1f us (%.1f/2); done %.1f of %.1f us; busbw %.1f GB/s", l->step_us,
		       l->time_us, s * l->step_us, l->time_us, l->busbw);
	cellbuf_printf(c, 1, 3, c->w - 2, ROLE_DIM, "%s", what[s < 2 ? s : 2]);
	cellbuf_printf(c, 1, 4, c->w - 2, ROLE_HEADING, "GPU       slices 0..%d", l->ppn - 1);
	for (g = 0; g < rows; g++, y++) {
		cellbuf_printf(c, 1, y, 9, ROLE_NORMAL, "%6d", g);
		for (k = 0; k < l->ppn && gx + k < c->w - 1; k++)
			cellbuf_put(c, gx + k, y, chunk_glyph(&glyphs, nvls_have(l, s, g, k), c->ascii), ROLE_NORMAL);
	}
}

static void draw_congestion(const struct app *app, struct cellbuf *c)
{
	const struct congestion_lesson *g = &app->cong;
	int y = 4, k, shown;
	cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "teach: flows hashed onto links, seed %u (r: draw again, c: the steps)",
		       g->seed);
	if (!app->cong_ok) {
		cellbuf_printf(c, 1, 2, c->w - 2, ROLE_WARNING, "%s", app->cong_why);
		return;
	}
	cellbuf_printf(c, 1, 1, c->w - 2, ROLE_NORMAL, "Ring AllReduce: %d connections through %s of %.1f GB/s;", g->flows,
		       g->where, g->link_GBps);
	cellbuf_printf(c, 1, 2, c->w - 2, ROLE_NORMAL, "%s",
		       g->hashed ? "static ECMP puts each on one link by a hash of its addresses:"
				 : "here they are spread evenly (LAG, adaptive routing, rails); a hash would give:");
	shown = g->links < CONG_MAX_LINKS ? g->links : CONG_MAX_LINKS;
	for (k = 0; k < shown && y < c->h - 6; k++, y++) {
		int j, n = g->load[k], cap = c->w >= 60 ? 10 : c->w - 48, bar = n < cap ? n : cap;
		bool busiest = n == g->max_load;
		cellbuf_printf(c, 2, y, 10, ROLE_NORMAL, "link %d", k);
		for (j = 0; j < bar; j++)
			cellbuf_put(c, 12 + j, y, c->ascii ? '#' : 0x25A0, busiest ? ROLE_WARNING : ROLE_NUMBER);
		cellbuf_printf(c, 13 + bar, y, 24, busiest ? ROLE_WARNING : ROLE_DIM, "%d flow%s%s", n, n == 1 ? "" : "s",
			       busiest ? ", the busiest" : "");
		if (c->w >= 60) { /* the same links with the connections spread evenly (LAG, adaptive routing) */
			int even = g->flows / g->links + (k < g->flows % g->links), e = even < c->w - 60 ? even : c->w - 60;
			cellbuf_printf(c, 40, y, 8, ROLE_DIM, "spread:");
			for (j = 0; j < e; j++)
				cellbuf_put(c, 48 + j, y, c->ascii ? '#' : 0x25A0, ROLE_NUMBER);
			cellbuf_printf(c, 49 + e, y, c->w - 50 - e, ROLE_DIM, "%d", even);
		}
	}
	if (k < g->links && y < c->h - 6)
		cellbuf_printf(c, 2, y++, c->w - 4, ROLE_DIM, "... %d more links", g->links - k);
	y++;
	cellbuf_printf(c, 1, y++, c->w - 2, ROLE_NORMAL, "this draw: %d on the busiest link: %d x %.1f / %d = %.1f GB/s", g->max_load,
		       g->flows, g->link_GBps, g->max_load, g->draw_GBps);
	cellbuf_printf(c, 1, y++, c->w - 2, ROLE_NORMAL, "all draws: E[busiest] = %.2f: %d x %.1f / %.2f = %.1f GB/s%s", g->emax,
		       g->flows, g->link_GBps, g->emax, g->model_GBps, g->hashed ? " (the model)" : "");
	cellbuf_printf(c, 1, y++, c->w - 2, ROLE_NORMAL, "spread evenly (LAG, adaptive routing): %d x %.1f / %.0f = %.1f GB/s%s",
		       g->flows, g->link_GBps, ceil((double)g->flows / g->links), g->even_GBps, g->hashed ? "" : " (the model)");
	cellbuf_printf(c, 1, y, c->w - 2, ROLE_DIM, "the ring wants %.1f GB/s through here (NCCL's own model)", g->want_GBps);
}

static void draw_teach(const struct app *app, struct cellbuf *c)
{
	const struct ring_lesson *l = &app->lesson;
	int i;
	cellbuf_fill(c, 0, 0, c->w, c->h, ROLE_NORMAL);
	if (!app->lesson_ok) {
		cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "teach (Esc back, v pattern, g algorithm)");
		cellbuf_wrap(c, 1, 2, c->w - 2, 4, ROLE_WARNING, app->lesson_why);
		return;
	}
	if (app->teach_page == TEACH_CONGESTION) {
		draw_congestion(app, c);
		return;
	}
	if (app->teach_page == TEACH_FORMULAS) {
		cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "teach: the formulas with this design's numbers (f: the steps, Esc back)");
		for (i = 0; i < app->formulas.n && 2 + i < c->h - 1; i++)
			cellbuf_text(c, 1, 2 + i, c->w - 2, ROLE_NORMAL, app->formulas.line[i]);
		return;
	}
	{
		const char *play = app->teach_play ? app->teach_play > 0 ? ", playing" : ", playing backwards" : "";
		int st = app->teach_step, n = app->teach_steps;
		if (app->teach_anim == ANIM_TREE) {
			cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "teach: Tree AllReduce, step %d of %d, %s%s (g: algorithm)", st,
				       n, st == n ? "done" : st < app->tree.depth ? "reduce up" : "broadcast down", play);
			draw_teach_tree(app, c);
		} else if (app->teach_anim == ANIM_NVLS) {
			cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "teach: NVLS AllReduce, step %d of 2, %s%s (g: algorithm)", st,
				       st == 0 ? "reduce in the switch" : st == 1 ? "multicast" : "done", play);
			draw_teach_nvls(app, c);
		} else if (app->teach_anim == ANIM_A2A) {
			cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "teach: AllToAll, step %d of %d%s%s", st, n,
				       st == n ? ", done" : "", play);
			draw_teach_a2a(app, c);
		} else {
			cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "teach: Ring %s, step %d of %d, %s%s (f: formulas)",
				       teach_labels[l->coll], st, n, st == n ? "done" : ring_phase(l, st), play);
			draw_teach_steps(app, c);
		}
	}
}

/* The lesson's page over the canvas; the metrics panel stays in view and follows it. */
static void draw_lesson(const struct app *app, struct cellbuf *c, int x, int y, int w, int h)
{
	char text[1600];
	int bh = h < 9 ? h : 9;
	lesson_text(app, app->lesson_page, text, sizeof text);
	cellbuf_fill(c, x, y, w, bh, ROLE_NORMAL);
	cellbuf_box(c, x, y, w, bh, ROLE_HEADING);
	cellbuf_printf(c, x + 2, y, w - 4, ROLE_HEADING, " lesson %d/%d: %s (n next, b back, Esc ends) ", app->lesson_page + 1,
		       lesson_npages, lesson_pages[app->lesson_page].title);
	cellbuf_wrap(c, x + 2, y + 1, w - 4, bh - 2, ROLE_NORMAL, text);
}

/* ---- plots ------------------------------------------------------------------------------------ */

static const char marks[UA_COUNT] = { 'R', 'T', 'N', 'S', 'C', 'P' };

static void draw_plot(const struct app *app, struct cellbuf *c)
{
	int x0 = 9, y0 = 2, w = c->w - x0 - 2, h = c->h - 6, i, u, k;
	double ymax = 0;
	char sz[32];
	cellbuf_fill(c, 0, 0, c->w, c->h - 1, ROLE_NORMAL);
	if (app->plot == PLOT_BUSBW) {
		cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "%s busbw (GB/s) against message size, %d ranks (v: pattern, Esc: back)",
			       pattern_labels[app->pattern], app->metrics.colls[app->pattern].ranks);
		for (u = 0; u < UA_COUNT; u++)
			for (k = 0; k < app->plot_n; k++)
				if (app->plot_busbw[u][k] > ymax)
					ymax = app->plot_busbw[u][k];
	} else {
		cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "speedup against GPU count (S step-time, A Amdahl, . ideal; Esc: back)");
		for (k = 0; k < app->metrics.work.ncurve; k++)
			if (app->metrics.work.curve[k].gpus > ymax)
				ymax = app->metrics.work.curve[k].gpus;
	}
	if (ymax <= 0) {
		cellbuf_text(c, 2, 3, c->w - 4, ROLE_WARNING,
			     app->plot == PLOT_BUSBW ? "nothing to plot" : "no workload: the job needs params_b, seq_len and global_batch");
		return;
	}
	for (i = 0; i <= h; i++)
		cellbuf_put(c, x0, y0 + i, c->ascii ? '|' : 0x2502, ROLE_DIM);
	cellbuf_hline(c, x0, y0 + h, w, ROLE_DIM);
	for (i = 0; i <= 4; i++)
		cellbuf_printf(c, 0, y0 + h - i * h / 4, x0, ROLE_DIM, "%7.4g", ymax * i / 4);
	if (app->plot == PLOT_BUSBW) {
		for (k = 0; k < app->plot_n; k += app->plot_n > 16 ? 4 : 2)
			cellbuf_text(c, x0 + 1 + k * (w - 2) / (app->plot_n - 1), y0 + h + 1, 6, ROLE_DIM,
				     format_size(app->plot_sizes[k], sz, sizeof sz));
		for (u = 0; u < UA_COUNT; u++)
			for (k = 0; k < app->plot_n; k++) {
				double v = app->plot_busbw[u][k];
				int px, py;
				if (v < 0)
					continue;
				px = x0 + 1 + k * (w - 2) / (app->plot_n - 1);
				py = y0 + h - (int)lround(v / ymax * h);
				cellbuf_put(c, px, py, (uint32_t)marks[u], app->plot_pick[k] == u ? ROLE_NUMBER : ROLE_NORMAL);
			}
		{
			int x = 1;
			for (u = 0; u < UA_COUNT; u++) {
				bool any = false;
				for (k = 0; k < app->plot_n; k++)
					any |= app->plot_busbw[u][k] >= 0;
				if (any)
					x += cellbuf_printf(c, x, c->h - 2, c->w - x, ROLE_NORMAL, "%c %s  ", marks[u], ualgo_labels[u]);
			}
			cellbuf_text(c, x, c->h - 2, c->w - x, ROLE_DIM, "(bold: NCCL's pick at that size)");
		}
	} else {
		const struct workload *wl = &app->metrics.work;
		int n = wl->ncurve;
		for (k = 0; k < n; k++) {
			int px = x0 + 1 + (n > 1 ? k * (w - 2) / (n - 1) : 0);
			int ps = y0 + h - (int)lround(wl->curve[k].speedup / ymax * h);
			int pa = y0 + h - (int)lround(wl->curve[k].amdahl / ymax * h);
			int pi = y0 + h - (int)lround(wl->curve[k].gpus / ymax * h);
			cellbuf_put(c, px, pi, '.', ROLE_DIM);
			cellbuf_put(c, px, pa, 'A', ROLE_WARNING);
			cellbuf_put(c, px, ps, 'S', ROLE_NUMBER);
			cellbuf_printf(c, px, y0 + h + 1, 7, ROLE_DIM, "%d", wl->curve[k].gpus);
			cellbuf_printf(c, px, y0 + h + 2, 7, ROLE_DIM, "%.0f%%", 100 * wl->curve[k].efficiency);
		}
		cellbuf_text(c, 1, c->h - 2, c->w - 2, ROLE_NORMAL,
			     "x: GPUs (weak scaling, same work per GPU); below it, efficiency. S = N x T_calc / T_step; A = N / (1 + (N-1) r)");
	}
}

/* ---- inside a server -------------------------------------------------------------------------- */

static void draw_inside(const struct app *app, struct cellbuf *c, int x0, int y0, int w, int h)
{
	const struct schema *s;
	const struct server_group *g = ed_object_const(&app->design, app->inside_id, &s);
	const struct cat_gpu *gpu;
	const struct cat_fabric *fab;
	int y = y0 + 1, i, show;
	size_t k;
	cellbuf_fill(c, x0, y0, w, h, ROLE_NORMAL);
	cellbuf_box(c, x0, y0, w, h, ROLE_HEADING);
	if (!g || s != &server_group_schema)
		return;
	gpu = catalog_gpu(&app->catalog, g->gpu);
	fab = catalog_fabric(&app->catalog, g->scaleup);
	cellbuf_printf(c, x0 + 2, y0, w - 4, ROLE_HEADING, " inside '%s': %d x %s ", g->name, g->count,
		       g->model[0] ? g->model : "server");
	show = g->gpus <= 8 ? g->gpus : 8;
	for (i = 0; i < show; i++) {
		int bw = (w - 4) / show;
		cellbuf_box(c, x0 + 2 + i * bw, y, bw - 1, 3, ROLE_NUMBER);
		cellbuf_printf(c, x0 + 3 + i * bw, y + 1, bw - 3, ROLE_NUMBER, "GPU%d", i);
	}
	if (g->gpus > 8)
		cellbuf_printf(c, x0 + 2, y + 3, w - 4, ROLE_DIM, "... %d GPUs per server (8 shown)", g->gpus);
	y += g->gpus > 8 ? 4 : 3;
	if (fab && gpu) {
		cellbuf_fill(c, x0 + 2, y, w - 4, 1, ROLE_TITLE);
		if (fab->kind == FAB_NVSWITCH)
			cellbuf_printf(c, x0 + 3, y, w - 6, ROLE_TITLE, "%s%s: NVLink %d x %g GB/s = %g GB/s per GPU and direction%s",
				       g->scaleup, fab->nvls ? " (NVLS)" : "", gpu->nvlink_links, gpu->nvlink_link_GBps,
				       gpu->nvlink_links * gpu->nvlink_link_GBps, g->domain[0] ? "; the NVLink domain spans servers" : "");
		else
			cellbuf_printf(c, x0 + 3, y, w - 6, ROLE_TITLE, "%s: GPUs reach each other over PCIe Gen%d x%d (%.1f GB/s)",
				       g->scaleup, gpu->pcie_gen, gpu->pcie_lanes, pcie_GBps(gpu->pcie_gen, gpu->pcie_lanes));
		y += 2;
	}
	/* PCIe: the switches that join GPUs and NICs, and the CPU behind them. */
	{
		int nics = 0, on_cpu = 0;
		for (k = 0; k < g->nics.n; k++) {
			const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
			if (n->use != NIC_COMPUTE)
				continue;
			if (n->attach == ATTACH_CPU)
				on_cpu += n->count;
			else
				nics += n->count;
		}
		if (gpu)
			cellbuf_printf(c, x0 + 2, y++, w - 4, ROLE_NORMAL,
				       "PCIe: each GPU Gen%d x%d (%.1f GB/s)%s%s", gpu->pcie_gen, gpu->pcie_lanes,
				       pcie_GBps(gpu->pcie_gen, gpu->pcie_lanes),
				       nics ? "; GPUs share PCIe switches with compute NICs (GPUDirect RDMA, PXN to other NICs)" : "",
				       on_cpu ? "; some NICs hang off the CPU (no GPUDirect RDMA)" : "");
		cellbuf_printf(c, x0 + 2, y++, w - 4, ROLE_NORMAL, "CPU: %s%s", cpu_vendor_names[g->cpu],
			       g->domain[0] ? "; NVLink domain shared with other servers of the group" : "");
		y++;
	}
	cellbuf_text(c, x0 + 2, y++, w - 4, ROLE_HEADING, "NICs (j/k select, +/- count, Enter edit, a add, d remove, Esc back)");
	for (k = 0; k < g->nics.n && y < y0 + h - 1; k++) {
		const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
		const struct cat_nic *cn = catalog_nic(&app->catalog, n->model);
		double slot = nic_slot_GBps(n, cn), line = cn ? nic_speed_gbps(n, cn) * cn->ports / 8.0 : 0;
		bool sel = (int)k == app->inside_cur, slow = slot > 0 && line > slot * 1.0001;
		int per = n->count > 0 ? (g->gpus + n->count - 1) / n->count : 0;
		cellbuf_printf(c, x0 + 2, y, w - 4, sel ? ROLE_SELECTED : slow ? ROLE_WARNING : ROLE_NORMAL,
			       "%s %d x %s, %d Gb/s%s, slot %.1f GB/s%s, %s, %s, %d GPU%s each", sel ? ">" : " ", n->count, n->model,
			       cn ? nic_speed_gbps(n, cn) : 0, cn && cn->ports > 1 ? " x2" : "", slot, slow ? " ! SLOWER THAN PORT" : "",
			       nic_attach_names[n->attach], nic_use_names[n->use], per, per == 1 ? "" : "s");
		y++;
	}
	if (!g->nics.n)
		cellbuf_text(c, x0 + 2, y, w - 4, ROLE_DIM, "no NICs: a adds one");
}

/* ---- the whole screen --------------------------------------------------------------------------- */

void app_draw(const struct app *app, struct cellbuf *c)
{
	int cx, cy, cw, ch;
	cellbuf_clear(c);
	if (c->w < APP_MIN_W || c->h < APP_MIN_H) {
		cellbuf_printf(c, 0, 0, c->w, ROLE_ERROR, "terminal too small:");
		cellbuf_printf(c, 0, 1, c->w, ROLE_ERROR, "%dx%d needed, %dx%d here", APP_MIN_W, APP_MIN_H, c->w, c->h);
		cellbuf_printf(c, 0, 2, c->w, ROLE_NORMAL, "q quits");
		return;
	}
	if (app->mode == MODE_HELP) {
		draw_help(app, c);
		return;
	}
	if (app->mode == MODE_PLOT) {
		draw_plot(app, c);
		draw_status(app, c);
		return;
	}
	if (app->mode == MODE_COMPARE) {
		draw_compare(app, c);
		draw_status(app, c);
		return;
	}
	if (app->mode == MODE_TEACH) {
		draw_teach(app, c);
		draw_status(app, c);
		return;
	}
	cellbuf_fill(c, 0, 0, c->w, 1, ROLE_TITLE);
	cellbuf_printf(c, 0, 0, c->w, ROLE_TITLE, " ncfabric  %s  %s%s", app->design.name,
		       app->file[0] ? app->file : "(built-in default)", app_dirty(app) ? "  [modified]" : "");
	app_canvas_area(c->w, c->h, &cx, &cy, &cw, &ch);
	if (app->mode == MODE_INSIDE || (app->mode == MODE_FORM && app->form.schema == &nic_spec_schema))
		draw_inside(app, c, cx, cy, cw, ch);
	else
		draw_canvas(app, c, cx, cy, cw, ch);
	if (c->w >= 120)
		draw_panel(app, c, cw, 1, c->w - cw, c->h - 2);
	else
		draw_panel(app, c, 0, cy + ch, c->w, c->h - 1 - cy - ch);
	switch (app->mode) {
	case MODE_FORM:
		draw_form(app, c);
		break;
	case MODE_PALETTE:
		draw_palette(app, c);
		break;
	case MODE_CONFIRM:
		draw_confirm(app, c);
		break;
	case MODE_TEMPLATES:
		draw_templates(app, c);
		break;
	case MODE_EXPORT: {
		static const char *const items[] = { "yaml       the design (loadable)", "json       the design (loadable)",
						     "bom-csv    bill of materials, one line per part",
						     "bom-yaml   BOM, cabling plan and headline numbers",
						     "bom-json   BOM, cabling plan and headline numbers",
						     "dot        Graphviz diagram",
						     "astra-sim  ASTRA-sim network YAML + system JSON",
						     "netbox     NetBox device types, devices and cables" };
		draw_list(c, "export", items, 8, app->export_cur, "Enter fills the : command line with a file name");
		break;
	}
	case MODE_LESSON:
		draw_lesson(app, c, cx, cy, cw, ch);
		break;
	default:
		break;
	}
	draw_status(app, c);
}
