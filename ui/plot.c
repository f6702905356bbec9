/* plot.c: the plots: busbw against message size per algorithm, speedup against GPU count. */
#include "ui/modes.h"
#include "io/units.h"
#include <math.h>
#include <stdio.h>

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
	if (a != ACT_QUIT && a != ACT_CANCEL)
		return CHG_PASS;
	app->mode = app->back;
	return CHG_VIEW;
}

static const char marks[UA_COUNT] = { 'R', 'T', 'N', 'S', 'C', 'P' };

void plot_draw(const struct app *app, struct cellbuf *c)
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
