/* panel.c: the metrics panel: the model's numbers for the design on screen, the bottleneck,
 * the advice and the design's problems, as lines that fit the panel's width. */
#include "ui/modes.h"
#include "io/units.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *const pattern_labels[] = { "AllReduce", "AllGather", "ReduceScatter", "AllToAll", "send/recv" };

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

void panel_draw(const struct app *app, struct cellbuf *c, int x0, int y0, int w, int h)
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
