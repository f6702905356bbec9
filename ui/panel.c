/* panel.c: the metrics panel: the model's numbers for the design on screen, the bottleneck,
 * the advice and the design's problems.
 *
 * The panel is a list of items (a number, the bottleneck, one piece of advice, a problem),
 * each with a priority. A small panel (80x24 has room for 14 lines) shows the items that
 * matter most and says how many lines it leaves out: the headline numbers, the bottleneck and
 * the first advice come first. With the focus (Tab) the panel shows every item, one of them
 * selected, scrolled to keep it in view; z shows it on the whole screen. Advice that names a
 * change carries it as ':' commands (model/metrics.h: advice_do): Enter on it applies them as
 * one edit, which u undoes. */
#include "ui/modes.h"
#include "io/costreport.h"
#include "io/units.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *const pattern_labels[] = { "AllReduce", "AllGather", "ReduceScatter", "AllToAll", "send/recv" };

#define PANEL_ITEMS 64
#define PANEL_LINES 200

struct pitem {
	char text[480];
	int role;
	int prio;          /* 0 first: what a small panel keeps */
	const char *lead;  /* first-line prefix of a wrapped item ("> ", "- "...); NULL: one line */
	const char *act;   /* the ':' commands it applies, or NULL */
	bool edge;         /* when a small panel leaves it out, it goes on the frame's top edge */
};

struct plines {
	int n;
	char text[PANEL_LINES][240];
	int role[PANEL_LINES];
	int item[PANEL_LINES];
};

static void item(struct pitem *it, int *n, int prio, int role, const char *lead, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void item(struct pitem *it, int *n, int prio, int role, const char *lead, const char *fmt, ...)
{
	va_list ap;
	if (*n >= PANEL_ITEMS)
		return;
	va_start(ap, fmt);
	vsnprintf(it[*n].text, sizeof it[0].text, fmt, ap);
	va_end(ap);
	it[*n].role = role;
	it[*n].prio = prio;
	it[*n].lead = lead;
	it[*n].act = NULL;
	it[*n].edge = false;
	(*n)++;
}

/* "+60,800" or "-1,200": a change of money, signed. */
static const char *money_change(double d, char *buf, size_t size)
{
	char m[40];
	format_money(d < 0 ? -d : d, m, sizeof m);
	snprintf(buf, size, "%c%s", d < 0 ? '-' : '+', m);
	return buf;
}

/* The cost and the power, one item (it wraps where the column is narrow), each with its
 * change since the last key, command or click. Cost is known only when every line to buy
 * has a price (else it says how many have none: a partial sum is not the cost); power is
 * typical where every part publishes it, else the maximum, ">=" when some part does not
 * publish it (a sum of those that do). Last in priority: where a small panel has no line
 * left for it (80x24 keeps the bottleneck and the first advice), it goes on the frame's top
 * edge, so it is always on screen. */
static void cost_items(const struct app *app, struct pitem *it, int *n)
{
	const struct cost_figs *c = &app->cost, *b = &app->cost_before;
	char m[40], d[72], p[160], cost[200];
	bool typ;
	double now, was;
	if (!c->valid) {
		if (app->cost_pending) { /* made when no key waits (app_idle) */
			item(it, n, 9, ROLE_DIM, "", "cost and power: computing");
			it[*n - 1].edge = true;
		}
		return;
	}
	if (c->as_built)
		b = c; /* no change: the failed part is still there */
	d[0] = '\0';
	if (!c->lines) {
		snprintf(cost, sizeof cost, "cost: nothing to buy");
	} else if (c->complete) {
		if (c->as_built) {
			snprintf(d, sizeof d, " as built");
		} else if (b->valid && b->complete && b->lines && fabs(c->total - b->total) >= 0.5) {
			char s[48];
			snprintf(d, sizeof d, " (%s)", money_change(c->total - b->total, s, sizeof s));
		} else if (b->valid && b->lines && !b->complete) {
			snprintf(d, sizeof d, " (was unknown)");
		}
		snprintf(cost, sizeof cost, "cost %s %s%s", format_money(c->total, m, sizeof m), c->currency, d);
	} else {
		snprintf(cost, sizeof cost, "cost unknown (%d of %d part%s unpriced%s)", c->unknown, c->lines,
			 c->lines == 1 ? "" : "s", b->valid && b->complete && b->lines ? "; was known" : "");
	}
	typ = c->typ_W > 0 && !c->typ_unknown;
	now = typ ? c->typ_W : c->max_W;
	was = typ ? b->typ_W : b->max_W;
	d[0] = '\0';
	if (now <= 0) {
		snprintf(p, sizeof p, "power not published");
	} else {
		if (b->valid && fabs(now - was) >= 50 && (!typ || !b->typ_unknown))
			snprintf(d, sizeof d, " (%+.1f)", (now - was) / 1000);
		snprintf(p, sizeof p, "%s%.1f kW %s%s", !typ && c->max_unknown ? ">=" : "", now / 1000, typ ? "typ" : "max", d);
	}
	item(it, n, 9, c->complete && c->lines ? ROLE_NUMBER : ROLE_DIM, "", "%s, %s%s", cost, p,
	     app->cost_pending ? " (before the last edit)" : "");
	it[*n - 1].edge = true;
}

static int panel_items(const struct app *app, struct pitem *it)
{
	static const int ua[] = { [ALGO_RING] = UA_RING, [ALGO_TREE] = UA_TREE, [ALGO_NVLS] = UA_NVLS,
				  [ALGO_NVLSTREE] = UA_NVLSTREE, [ALGO_COLLNET] = UA_COLLNET };
	const struct metrics *m = &app->metrics;
	const struct fabric *f = &m->fabric;
	const struct workload *w = &m->work;
	const struct coll_result *cr = &m->colls[app->pattern];
	const struct algo_result *runs = coll_pick(cr, app->design.job.algo);
	int forced = app->design.job.algo;
	char sz[32], buf[160];
	int u, t, n = 0;
	size_t used = 0;
	item(it, &n, 0, ROLE_HEADING, NULL, "%d GPUs on %d node%s (%d per %s)", f->gpus, f->node.nnodes,
	     f->node.nnodes == 1 ? "" : "s", f->node.ppn, f->domain_node ? "NVLink domain" : "server");
	if (f->node.nnodes > 1 || f->ports)
		item(it, &n, 4, ROLE_NORMAL, NULL, "network %.1f GB/s per node (%d x %dG)", f->node_ceiling_GBps, f->ports,
		     f->port_gbps);
	if (f->node.nvl > 0)
		item(it, &n, 6, ROLE_NORMAL, NULL, "NVLink %.0f GB/s per GPU (NCCL)", f->node.nvl);
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
	if (used) {
		bool over = f->ntiers && buf[used - 1] == '!';
		item(it, &n, over ? 4 : 6, over ? ROLE_WARNING : ROLE_NORMAL, NULL, "oversub %s", buf);
	}
	if (f->design_nodes > 1)
		item(it, &n, 6, ROLE_NORMAL, NULL, "bisection %s%.0f GB/s (%.2f per GPU)",
		     f->bisection_bound > 0 ? "<= " : f->bisection_bound < 0 ? ">= " : "", f->bisection_GBps,
		     f->bisection_per_gpu_GBps);
	if (forced != ALGO_AUTO)
		item(it, &n, 0, ROLE_WARNING, NULL, "NCCL_ALGO=%s for the job (A: next)", ualgo_labels[ua[forced]]);
	if (app->design.job.proto != PROTO_AUTO)
		item(it, &n, 0, ROLE_WARNING, NULL, "NCCL_PROTO=%s for the job (job.proto)",
		     nproto_names[app->design.job.proto - 1]);
	item(it, &n, 0, ROLE_HEADING, NULL, "%s %s busbw GB/s (%d rank%s):", pattern_labels[app->pattern],
	     format_size(m->bytes, sz, sizeof sz), cr->ranks, cr->ranks == 1 ? "" : "s");
	for (u = 0; u < UA_COUNT; u++) {
		const struct algo_result *a = &cr->algo[u];
		bool shown = app->algo_view < 0 || app->algo_view == u || u == UA_P2P, run = a == runs;
		const char *mark = run ? (forced != ALGO_AUTO && u == ua[forced] ? " *forced" : " *NCCL")
			     : cr->auto_algo == u ? " NCCL's" : cr->best_algo == u ? " +fastest" : "";
		if (!a->available || !shown)
			continue;
		item(it, &n, run ? 0 : 4, run ? ROLE_NUMBER : ROLE_NORMAL, NULL, " %-8s %8.1f %s%s", ualgo_labels[u],
		     a->busbw_GBps, nproto_names[a->proto], mark);
	}
	if (forced != ALGO_AUTO && app->pattern != COLL_ALLTOALL && app->pattern != COLL_SENDRECV &&
	    !cr->algo[ua[forced]].available)
		item(it, &n, 1, ROLE_WARNING, "! ", "NCCL_ALGO=%s cannot run: %s", ualgo_labels[ua[forced]],
		     cr->algo[ua[forced]].reason ? cr->algo[ua[forced]].reason : "unavailable");
	if (app->algo_view >= 0 && !cr->algo[app->algo_view].available)
		item(it, &n, 4, ROLE_WARNING, NULL, " %s: %s", ualgo_labels[app->algo_view],
		     cr->algo[app->algo_view].reason ? cr->algo[app->algo_view].reason : "unavailable");
	if (w->valid) {
		item(it, &n, 3, w->efficiency < 0.7 ? ROLE_WARNING : ROLE_NUMBER, NULL, "speedup %.1f of %d (%.0f%%)", w->speedup,
		     w->gpus, 100 * w->efficiency);
		item(it, &n, 5, ROLE_HEADING, NULL, "step %.1f ms, %.0f tokens/s", w->step_ms, w->tokens_per_s);
	} else {
		item(it, &n, 3, ROLE_DIM, "  ", "job: %s", w->why);
	}
	cost_items(app, it, &n);
	for (t = 0; t < (int)diag_count(&app->problems); t++) {
		const struct ncf_problem *p = diag_get(&app->problems, (size_t)t);
		if (p->sev == NCF_ERROR)
			item(it, &n, 0, ROLE_ERROR, "E ", "%s", p->msg);
	}
	item(it, &n, 1, ROLE_NORMAL, "> ", "%s", m->bottleneck);
	for (t = 0; t < m->nadvice; t++) {
		bool can = m->advice_do[t][0] != '\0';
		int before = n;
		item(it, &n, t == 0 ? 2 : 7, ROLE_DIM, can ? "* " : "- ", "%s", m->advice[t]);
		if (can && n > before)
			it[n - 1].act = m->advice_do[t];
	}
	for (t = 0; t < (int)diag_count(&app->problems); t++) {
		const struct ncf_problem *p = diag_get(&app->problems, (size_t)t);
		if (p->sev != NCF_ERROR)
			item(it, &n, 5, ROLE_WARNING, "W ", "%s", p->msg);
	}
	return n;
}

static void add_line(struct plines *l, int role, int it, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add_line(struct plines *l, int role, int it, const char *fmt, ...)
{
	va_list ap;
	if (l->n >= PANEL_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(l->text[l->n], sizeof l->text[0], fmt, ap);
	va_end(ap);
	l->role[l->n] = role;
	l->item[l->n++] = it;
}

/* Item i's lines at width: a one-line item as it is (the column cuts it), else word-wrapped
 * with its lead on the first line and two spaces on the rest. */
static void wrap_item(struct plines *l, const struct pitem *it, int i, int width)
{
	const char *p = it->text;
	bool start = true;
	if (!it->lead) {
		add_line(l, it->role, i, "%s", it->text);
		return;
	}
	while (*p && l->n < PANEL_LINES) {
		int room = width - (int)(start ? strlen(it->lead) : 2), cut;
		if (room < 10)
			room = 10;
		cut = text_cut(p, room);
		add_line(l, it->role, i, "%s%.*s", start ? it->lead : "  ", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		start = false;
	}
}

/* ---- geometry ----------------------------------------------------------------------------- */

void panel_area(int w, int h, int *x, int *y, int *pw, int *ph)
{
	int cx, cy, cw, ch;
	app_canvas_area(w, h, &cx, &cy, &cw, &ch);
	if (w >= 120) {
		*x = cw;
		*y = 1;
		*pw = w - cw;
		*ph = h - 2;
	} else {
		*x = 0;
		*y = cy + ch;
		*pw = w;
		*ph = h - 1 - cy - ch;
	}
}

struct pgeom {
	int x, y, w, h;     /* the frame */
	int cols, colw, rows;
};

static void geometry(int mode, int sw, int sh, struct pgeom *g)
{
	if (mode == MODE_PANEL) {
		g->x = 0;
		g->y = 1;
		g->w = sw;
		g->h = sh - 2;
		g->cols = 1;
	} else {
		panel_area(sw, sh, &g->x, &g->y, &g->w, &g->h);
		g->cols = g->w >= 76 && g->h < 16 ? 2 : 1;
	}
	g->colw = (g->w - 2) / g->cols;
	g->rows = g->h - 2 > 1 ? g->h - 2 : 1;
}

/* Every item's lines (focused: the selected advice says what Enter applies). */
static int all_lines(const struct app *app, const struct pitem *it, int n, int width, bool focus, struct plines *l)
{
	int i;
	l->n = 0;
	for (i = 0; i < n; i++) {
		wrap_item(l, &it[i], i, width);
		if (focus && i == app->panel_cur && it[i].act) {
			struct pitem enter = { "", ROLE_SELECTED, 0, "  ", NULL, false };
			snprintf(enter.text, sizeof enter.text, "[Enter: %s]", it[i].act);
			wrap_item(l, &enter, i, width);
		}
	}
	return l->n;
}

/* The first line shown with the focus: panel_top, moved just enough to show the selected item. */
static int focus_top(const struct app *app, const struct plines *l, int slots)
{
	int first = -1, last = -1, i, top = app->panel_top;
	for (i = 0; i < l->n; i++)
		if (l->item[i] == app->panel_cur) {
			if (first < 0)
				first = i;
			last = i;
		}
	if (last >= 0 && last >= top + slots)
		top = last - slots + 1;
	if (first >= 0 && first < top)
		top = first;
	if (top > l->n - slots)
		top = l->n - slots;
	return top < 0 ? 0 : top;
}

/* ---- actions -------------------------------------------------------------------------------- */

static struct pitem scratch_items[PANEL_ITEMS];
static struct plines scratch_lines;

/* After the selection moved: keep it in view. */
static void follow(struct app *app)
{
	struct pgeom g;
	int n = panel_items(app, scratch_items);
	if (app->panel_cur >= n)
		app->panel_cur = n - 1;
	if (app->panel_cur < 0)
		app->panel_cur = 0;
	geometry(app->mode, app->screen_w, app->screen_h, &g);
	all_lines(app, scratch_items, n, g.colw - 1, true, &scratch_lines);
	app->panel_top = focus_top(app, &scratch_lines, g.rows * g.cols);
}

unsigned panel_zoom(struct app *app)
{
	if (app->mode == MODE_PANEL) {
		/* Back where z was pressed: the metrics panel, or the canvas (from anywhere else). */
		app->mode = app->zoom_from == MODE_METRICS ? MODE_METRICS : MODE_CANVAS;
	} else {
		if (app->mode != MODE_METRICS)
			app->panel_cur = 0;
		app->zoom_from = app->mode;
		app->mode = MODE_PANEL;
	}
	follow(app);
	return CHG_VIEW;
}

/* Enter on advice that names a change: its commands, as one undoable edit. */
unsigned panel_apply(struct app *app)
{
	char act[240], cmds[240], *p, *semi;
	size_t depth;
	unsigned chg = CHG_VIEW;
	int n = panel_items(app, scratch_items);
	if (app->panel_cur < 0 || app->panel_cur >= n || !scratch_items[app->panel_cur].act)
		return say(app, false, "this line names no change to apply (Enter applies the advice marked *)");
	snprintf(act, sizeof act, "%s", scratch_items[app->panel_cur].act); /* the advice changes as it applies */
	snprintf(cmds, sizeof cmds, "%s", act);
	depth = ed_depth(&app->ed);
	for (p = cmds; p && *p; p = semi) {
		semi = strstr(p, "; ");
		if (semi) {
			*semi = '\0';
			semi += 2;
		}
		chg |= app_command(app, p);
		app_settle(app, chg & CHG_MODEL);
		chg &= ~CHG_MODEL;
		if (app->msg_error) {
			char why[600];
			snprintf(why, sizeof why, "%.590s", app->msg);
			ed_merge_since(&app->ed, depth);
			if (ed_depth(&app->ed) > depth)
				ed_undo(&app->ed);
			return chg | CHG_MODEL | CHG_LAYOUT | say(app, true, "not applied: %s (%s)", why, act);
		}
	}
	ed_merge_since(&app->ed, depth);
	snprintf(cmds, sizeof cmds, "%s", act);
	chg |= CHG_MODEL | CHG_LAYOUT | say(app, false, "applied: %s (u undoes it)", cmds);
	return chg;
}

unsigned panel_action(struct app *app, enum action a)
{
	int n;
	struct pgeom g;
	switch (a) {
	case ACT_FIELD_NEXT:
	case ACT_SCROLL_DOWN:
		app->panel_cur++;
		break;
	case ACT_FIELD_PREV:
	case ACT_SCROLL_UP:
		app->panel_cur--;
		break;
	case ACT_TOP:
		app->panel_cur = 0;
		break;
	case ACT_BOTTOM:
		app->panel_cur = PANEL_ITEMS;
		break;
	case ACT_PAGE_DOWN:
	case ACT_PAGE_UP:
		geometry(app->mode, app->screen_w, app->screen_h, &g);
		n = panel_items(app, scratch_items);
		all_lines(app, scratch_items, n, g.colw - 1, true, &scratch_lines);
		{
			int top = focus_top(app, &scratch_lines, g.rows * g.cols) + (a == ACT_PAGE_DOWN ? 1 : -1) * g.rows * g.cols;
			int line = top < 0 ? 0 : top >= scratch_lines.n ? scratch_lines.n - 1 : top;
			app->panel_cur = line >= 0 ? scratch_lines.item[line] : 0;
			app->panel_top = top < 0 ? 0 : top;
		}
		break;
	case ACT_QUIT:
	case ACT_CANCEL:
		if (app->mode != MODE_PANEL && a == ACT_QUIT)
			return CHG_PASS;
		app->mode = MODE_CANVAS;
		return CHG_VIEW;
	default:
		return CHG_PASS;
	}
	follow(app);
	return CHG_VIEW;
}

/* ---- painting ------------------------------------------------------------------------- */

/* "↑ 3" on the top edge and "↓ 5 more" on the bottom edge of a frame, where lines are cut. */
void scroll_marks(struct cellbuf *c, int x, int y, int w, int h, int above, int below)
{
	char t[48];
	if (above > 0) {
		snprintf(t, sizeof t, " %s %d more ", c->ascii ? "^" : "\u2191", above);
		cellbuf_text(c, x + w - 3 - (int)strlen(t) + (c->ascii ? 0 : 2), y, w - 4, ROLE_DIM, t);
	}
	if (below > 0) {
		snprintf(t, sizeof t, " %s %d more ", c->ascii ? "v" : "\u2193", below);
		cellbuf_text(c, x + w - 3 - (int)strlen(t) + (c->ascii ? 0 : 2), y + h - 1, w - 4, ROLE_DIM, t);
	}
}

static void paint(const struct app *app, struct cellbuf *c, const struct pgeom *g, bool focus)
{
	static struct pitem it[PANEL_ITEMS];
	static struct plines l;
	bool keep[PANEL_ITEMS];
	int n = panel_items(app, it), i, k, top = 0, slots = g->rows * g->cols, hidden = 0, shown = 0;
	int edge_lines[PANEL_ITEMS] = { 0 }; /* lines of each item, as the column wraps it */
	all_lines(app, it, n, g->colw - 1, focus, &l);
	if (focus) {
		top = focus_top(app, &l, slots);
	} else if (l.n > slots) {
		/* Too small for everything: the items that matter most, in their order. */
		static struct plines one;
		int prio, used = 0, count[PANEL_ITEMS] = { 0 };
		for (i = 0; i < l.n; i++)
			count[l.item[i]]++;
		memcpy(edge_lines, count, sizeof edge_lines);
		memset(keep, 0, sizeof keep);
		for (prio = 0; prio <= 9; prio++)
			for (i = 0; i < n; i++)
				if (it[i].prio == prio && used + count[i] <= slots) {
					keep[i] = true;
					used += count[i];
				}
		one.n = 0;
		for (i = 0; i < l.n; i++)
			if (keep[l.item[i]]) {
				snprintf(one.text[one.n], sizeof one.text[0], "%s", l.text[i]);
				one.role[one.n] = l.role[i];
				one.item[one.n++] = l.item[i];
			} else {
				hidden++;
			}
		l = one;
	}
	for (i = top, k = 0; i < l.n && k < slots; i++, k++) {
		int col = k / g->rows, row = k % g->rows;
		bool sel = focus && l.item[i] == app->panel_cur;
		if (sel)
			cellbuf_fill(c, g->x + 1 + col * g->colw, g->y + 1 + row, g->colw - (col + 1 < g->cols ? 1 : 0), 1,
				     ROLE_SELECTED);
		cellbuf_text(c, g->x + 1 + col * g->colw, g->y + 1 + row, g->colw - 1, sel ? ROLE_SELECTED : l.role[i], l.text[i]);
		shown++;
	}
	if (!focus && hidden)
		for (i = 0; i < n; i++)
			if (it[i].edge && !keep[i] && g->w > 30) {
				/* After the frame's title (" metrics "), in what is left of the edge; it is on
				 * screen, so not among the lines left out. */
				int x = g->x + 2 + 9 + 1, room = g->w - (x - g->x) - 2;
				char t[500];
				snprintf(t, sizeof t, " %s ", it[i].text);
				cellbuf_text(c, x, g->y, room, it[i].role, t);
				hidden -= edge_lines[i];
				break;
			}
	if (focus)
		scroll_marks(c, g->x, g->y, g->w, g->h, top, l.n - top - shown);
	else if (hidden) {
		char t[48];
		snprintf(t, sizeof t, " %d more line%s: z ", hidden, hidden == 1 ? "" : "s");
		cellbuf_text(c, g->x + g->w - 2 - (int)strlen(t), g->y + g->h - 1, g->w - 4, ROLE_DIM, t);
	}
}

void panel_draw(const struct app *app, struct cellbuf *c, int x0, int y0, int w, int h)
{
	struct pgeom g;
	bool focus = app->mode == MODE_METRICS;
	g.x = x0;
	g.y = y0;
	g.w = w;
	g.h = h;
	g.cols = w >= 76 && h < 16 ? 2 : 1;
	g.colw = (w - 2) / g.cols;
	g.rows = h - 2 > 1 ? h - 2 : 1;
	cellbuf_box(c, x0, y0, w, h, focus ? ROLE_HEADING : ROLE_DIM);
	cellbuf_text(c, x0 + 2, y0, w - 4, focus ? ROLE_HEADING : ROLE_DIM, focus ? " metrics: j/k select, Enter applies * " : " metrics ");
	paint(app, c, &g, focus);
}

/* z: the panel on the whole screen, every line of it. */
void panel_zoom_draw(const struct app *app, struct cellbuf *c)
{
	struct pgeom g;
	geometry(MODE_PANEL, c->w, c->h, &g);
	cellbuf_fill(c, 0, 0, c->w, c->h, ROLE_NORMAL);
	cellbuf_printf(c, 0, 0, c->w, ROLE_TITLE, " metrics of %s (j/k select, Enter applies *, z back)", app->design.name);
	cellbuf_fill_role(c, 0, 0, c->w, ROLE_TITLE);
	cellbuf_box(c, g.x, g.y, g.w, g.h, ROLE_HEADING);
	paint(app, c, &g, true);
}
