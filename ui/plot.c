/* plot.c: the plots: busbw against message size per algorithm, speedup against GPU count. */
#include "ui/modes.h"
#include "io/units.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

unsigned plot_open(struct app *app, enum action a)
{
	if (app->mode != MODE_PLOT)
		app->back = app->mode;
	app->plot = a == ACT_PLOT_BUSBW ? PLOT_BUSBW : PLOT_SPEEDUP;
	app->mode = MODE_PLOT;
	return CHG_VIEW;
}

unsigned plot_action(struct app *app, enum action a)
{
	if (a == ACT_PLOT_SCALE) {
		app->plot_log = !app->plot_log;
		return say(app, false, "busbw axis %s (y switches)", app->plot_log ? "logarithmic" : "linear");
	}
	if (a != ACT_QUIT && a != ACT_CANCEL)
		return CHG_PASS;
	app->mode = app->back;
	return CHG_VIEW;
}

static const char marks[UA_COUNT] = { 'R', 'T', 'N', 'S', 'C', 'P' };

/* Text at (x, y) unless it would run into the last label on that row (its end in *last). */
static void label(struct cellbuf *c, int x, int y, int *last, int role, const char *text)
{
	int len = (int)strlen(text);
	if (x + len > c->w - 1)
		x = c->w - 1 - len; /* the last label ends at the edge */
	if (x <= *last)
		return;
	cellbuf_text(c, x, y, len, role, text);
	*last = x + len; /* a space before the next */
}

/* The two axes: up from (x0, y0 + h) to y0, and along to x0 + w. */
static void axes(struct cellbuf *c, int x0, int y0, int w, int h)
{
	int i;
	for (i = 0; i <= h; i++)
		cellbuf_put(c, x0, y0 + i, c->ascii ? '|' : 0x2502, ROLE_DIM);
	cellbuf_hline(c, x0, y0 + h, w, ROLE_DIM);
}

/* The row of value v on a y axis of h rows above y0 + h: linear from 0 to ymax, or
 * logarithmic from 10^lo to 10^hi. */
static int ypos(double v, double ymax, bool log_axis, double lo, double hi, int y0, int h)
{
	double f = log_axis ? (log10(v) - lo) / (hi - lo) : v / ymax;
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return y0 + h - (int)lround(f * h);
}

static void draw_busbw(const struct app *app, struct cellbuf *c, int x0, int y0, int w, int h)
{
	double ymax = 0, ymin = 0, lo = 0, hi = 0;
	int u, k, i, last = -1, x;
	bool log_axis = app->plot_log;
	char sz[32], t[32];
	cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "%s busbw GB/s by message size, %d rank%s (v pattern, y %s axis, Esc back)",
		       pattern_labels[app->pattern], app->metrics.colls[app->pattern].ranks,
		       app->metrics.colls[app->pattern].ranks == 1 ? "" : "s", log_axis ? "linear" : "log");
	for (u = 0; u < UA_COUNT; u++)
		for (k = 0; k < app->plot_n; k++) {
			double v = app->plot_busbw[u][k];
			if (v > ymax)
				ymax = v;
			if (v > 0 && (ymin <= 0 || v < ymin))
				ymin = v;
		}
	if (ymax <= 0) {
		cellbuf_text(c, 2, 3, c->w - 4, ROLE_WARNING, "nothing to plot");
		return;
	}
	axes(c, x0, y0, w, h);
	if (log_axis) {
		/* Whole decades: every size shows, the smallest ones too. */
		lo = floor(log10(ymin));
		hi = ceil(log10(ymax));
		if (hi <= lo)
			hi = lo + 1;
		for (i = (int)lo; i <= (int)hi; i++) {
			int row = ypos(pow(10, i), ymax, true, lo, hi, y0, h);
			if (h >= (int)(hi - lo) * 2 || (i - (int)lo) % 2 == 0 || i == (int)hi)
				cellbuf_printf(c, 0, row, x0, ROLE_DIM, "%7g", pow(10, i));
		}
	} else {
		for (i = 0; i <= 4; i++)
			cellbuf_printf(c, 0, y0 + h - i * h / 4, x0, ROLE_DIM, "%7.4g", ymax * i / 4);
	}
	/* x: one column per size, doubling: a logarithmic axis; labels only where they fit. */
	for (k = 0; k < app->plot_n; k++)
		label(c, x0 + 1 + k * (w - 2) / (app->plot_n - 1), y0 + h + 1, &last, ROLE_DIM,
		      format_size(app->plot_sizes[k], sz, sizeof sz));
	for (u = 0; u < UA_COUNT; u++)
		for (k = 0; k < app->plot_n; k++) {
			double v = app->plot_busbw[u][k];
			if (v < 0 || (log_axis && v <= 0))
				continue;
			cellbuf_put(c, x0 + 1 + k * (w - 2) / (app->plot_n - 1), ypos(v, ymax, log_axis, lo, hi, y0, h),
				    (uint32_t)marks[u], app->plot_pick[k] == u ? ROLE_NUMBER : ROLE_NORMAL);
		}
	snprintf(t, sizeof t, "bytes, log scale");
	cellbuf_text(c, c->w - 1 - (int)strlen(t), y0 + h + 2, (int)strlen(t), ROLE_DIM, t);
	x = 1;
	for (u = 0; u < UA_COUNT; u++) {
		bool any = false;
		for (k = 0; k < app->plot_n; k++)
			any |= app->plot_busbw[u][k] >= 0;
		if (any)
			x += cellbuf_printf(c, x, c->h - 2, c->w - x, ROLE_NORMAL, "%c %s  ", marks[u], ualgo_labels[u]);
	}
	cellbuf_text(c, x, c->h - 2, c->w - x, ROLE_DIM, "(bold: NCCL's pick at that size)");
}

static void draw_speedup(const struct app *app, struct cellbuf *c, int x0, int y0, int w, int h)
{
	const struct workload *wl = &app->metrics.work;
	int n = wl->ncurve, k, i, last_n = -1, last_e = -1;
	double ymax = 0;
	char t[32];
	cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "speedup against GPU count, weak scaling (same work per GPU; Esc: back)");
	for (k = 0; k < n; k++)
		if (wl->curve[k].gpus > ymax)
			ymax = wl->curve[k].gpus;
	if (ymax <= 0) {
		cellbuf_text(c, 2, 3, c->w - 4, ROLE_WARNING, "no workload: the job needs params_b, seq_len and global_batch");
		return;
	}
	axes(c, x0, y0, w, h);
	for (i = 0; i <= 4; i++)
		cellbuf_printf(c, 0, y0 + h - i * h / 4, x0, ROLE_DIM, "%7.4g", ymax * i / 4);
	cellbuf_text(c, 0, y0 + h + 1, x0, ROLE_DIM, "   GPUs");
	cellbuf_text(c, 0, y0 + h + 2, x0, ROLE_DIM, "    eff");
	for (k = 0; k < n; k++) {
		int px = x0 + 1 + (n > 1 ? k * (w - 2) / (n - 1) : 0);
		cellbuf_put(c, px, ypos(wl->curve[k].gpus, ymax, false, 0, 0, y0, h), '.', ROLE_DIM);
		cellbuf_put(c, px, ypos(wl->curve[k].amdahl, ymax, false, 0, 0, y0, h), 'A', ROLE_WARNING);
		cellbuf_put(c, px, ypos(wl->curve[k].speedup, ymax, false, 0, 0, y0, h), 'S', ROLE_NUMBER);
		snprintf(t, sizeof t, "%d", wl->curve[k].gpus);
		label(c, px, y0 + h + 1, &last_n, ROLE_DIM, t);
		snprintf(t, sizeof t, "%.0f%%", 100 * wl->curve[k].efficiency);
		label(c, px, y0 + h + 2, &last_e, ROLE_DIM, t);
	}
	cellbuf_printf(c, 1, c->h - 3, c->w - 2, ROLE_NUMBER, "S step-time speedup N x T_calc / (T_calc + T_comm)   . ideal (N)");
	cellbuf_printf(c, 1, c->h - 2, c->w - 2, ROLE_WARNING,
		       "A textbook Amdahl form N/(1+(N-1)r), r = T_comm/T_calc as a serial fraction");
}

void plot_draw(const struct app *app, struct cellbuf *c)
{
	/* Rows: the title, a blank, the plot down to its axis, the x labels (and, for the speedup,
	 * the efficiency), the legend, the status line. */
	int x0 = 9, y0 = 2, w = c->w - x0 - 2, h = c->h - 8;
	cellbuf_fill(c, 0, 0, c->w, c->h - 1, ROLE_NORMAL);
	if (app->plot == PLOT_BUSBW)
		draw_busbw(app, c, x0, y0, w, h);
	else
		draw_speedup(app, c, x0, y0, w, h);
}
