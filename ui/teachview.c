/* teachview.c: the teaching view. The collective of the pattern shown on this very design,
 * step by step (Ring, Tree, NVLS, AllToAll), played forwards or backwards; the formulas
 * with this design's numbers; the ring's flows hashed onto the links that bind. The model
 * (model/teach.h) builds every step; this file only steps, plays and paints. */
#include "ui/modes.h"
#include "io/units.h"
#include "ui/lesson.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void teach_rebuild(struct app *app)
{
	app->teach_anim = app->pattern == COLL_ALLTOALL ? ANIM_A2A
			  : app->pattern != COLL_ALLREDUCE ? ANIM_RING
			  : app->algo_view == UA_TREE ? ANIM_TREE
			  : app->algo_view == UA_NVLS ? ANIM_NVLS : ANIM_RING;
	if (app->teach_anim == ANIM_NVLS) {
		app->lesson_ok = nvls_lesson_build(&app->metrics, &app->nvls, app->lesson_why, sizeof app->lesson_why);
		app->teach_steps = 2;
	} else if (app->teach_anim == ANIM_A2A) {
		app->lesson_ok = a2a_lesson_build(&app->metrics, &app->a2a, app->lesson_why, sizeof app->lesson_why);
		app->teach_steps = app->a2a.nsteps;
	} else if (app->teach_anim == ANIM_TREE) {
		app->lesson_ok = tree_lesson_build(&app->metrics, &app->tree, app->lesson_why, sizeof app->lesson_why);
		app->teach_steps = app->tree.nsteps;
	} else {
		app->lesson_ok = ring_lesson_build(&app->metrics, app->pattern, &app->lesson, app->lesson_why,
						   sizeof app->lesson_why);
		app->teach_steps = app->lesson.nsteps;
	}
	app->cong_ok = congestion_lesson_build(&app->metrics, app->cong_seed, &app->cong, app->cong_why,
					       sizeof app->cong_why);
	{ /* the formulas follow Ring AllReduce, the pattern they explain */
		struct ring_lesson ar;
		char why[200];
		app->formulas.n = 0;
		if (ring_lesson_build(&app->metrics, COLL_ALLREDUCE, &ar, why, sizeof why))
			formulas_build(&app->metrics, &ar, &app->formulas);
	}
	if (!app->lesson_ok)
		app->teach_steps = 0;
	if (app->teach_shown != app->pattern * 8 + app->teach_anim) {
		/* another pattern or algorithm: its animation starts at the beginning */
		app->teach_shown = app->pattern * 8 + app->teach_anim;
		app->teach_step = 0;
		app->teach_play = 0;
	}
	if (app->teach_step > app->teach_steps)
		app->teach_step = app->teach_steps;
	if (!app->lesson_ok)
		app->teach_play = 0;
}

static unsigned teach_move(struct app *app, int to)
{
	int last = app->lesson_ok ? app->teach_steps : 0;
	app->teach_step = to < 0 ? 0 : to > last ? last : to;
	if ((app->teach_play > 0 && app->teach_step == last) || (app->teach_play < 0 && app->teach_step == 0))
		app->teach_play = 0; /* played to the end */
	return CHG_VIEW;
}

unsigned app_tick(struct app *app)
{
	/* Speeds 1, 2, 4, 8, 16 steps a second on a 250 ms tick: every 4th, 2nd tick, or 1, 2, 4 steps a tick. */
	int every = app->teach_speed < 2 ? 4 >> app->teach_speed : 1;
	int steps = app->teach_speed > 2 ? 1 << (app->teach_speed - 2) : 1;
	if (app->mode != MODE_TEACH || !app->teach_play || !app->lesson_ok)
		return CHG_NONE;
	if (++app->teach_ticks % every)
		return CHG_NONE;
	return teach_move(app, app->teach_step + app->teach_play * steps);
}

unsigned teach_open(struct app *app)
{
	if (app->mode != MODE_TEACH && app->mode != MODE_HELP)
		app->teach_back = app->mode == MODE_LESSON ? MODE_LESSON : MODE_CANVAS;
	app->mode = MODE_TEACH;
	if (!app->lesson_ok)
		return say(app, true, "%s (v changes the pattern)", app->lesson_why);
	return say(app, false, "Space steps, p plays, f formulas, c congestion, v pattern, V algorithm, ? keys");
}

/* Closing the view stops it playing, takes its hints away and goes back where it was
 * opened: the canvas, or the lesson's page. */
static unsigned teach_close(struct app *app)
{
	app->mode = app->teach_back == MODE_LESSON ? MODE_LESSON : MODE_CANVAS;
	app->teach_play = 0;
	app->msg[0] = '\0';
	app->msg_error = false;
	if (app->mode == MODE_LESSON)
		say(app, false, "back to lesson page %d of %d: n next, b back, Esc ends it", app->lesson_page + 1, lesson_npages);
	return CHG_VIEW;
}

unsigned teach_action(struct app *app, enum action a)
{
	switch (a) {
	case ACT_QUIT:
	case ACT_TEACH:
	case ACT_CANCEL:
		if (app->mode != MODE_TEACH)
			return CHG_PASS;
		return teach_close(app);
	case ACT_STEP_NEXT:
	case ACT_STEP_PREV:
		app->teach_play = 0;
		return teach_move(app, app->teach_step + (a == ACT_STEP_NEXT ? 1 : -1));
	case ACT_TOP:
	case ACT_BOTTOM:
		if (app->mode != MODE_TEACH)
			return CHG_PASS;
		app->teach_play = 0;
		return teach_move(app, a == ACT_TOP ? 0 : app->teach_steps);
	case ACT_STEP_FIRST:
	case ACT_STEP_LAST:
		app->teach_play = 0;
		return teach_move(app, a == ACT_STEP_FIRST ? 0 : app->teach_steps);
	case ACT_PLAY:
	case ACT_PLAY_BACK: {
		int dir = a == ACT_PLAY ? 1 : -1;
		app->teach_play = app->teach_play == dir ? 0 : dir;
		app->teach_ticks = 0;
		if (app->teach_play > 0 && app->teach_step >= app->teach_steps)
			app->teach_step = 0; /* play again from the start */
		else if (app->teach_play < 0 && app->teach_step == 0)
			app->teach_step = app->teach_steps;
		return CHG_VIEW;
	}
	case ACT_FASTER:
	case ACT_SLOWER:
		app->teach_speed += a == ACT_FASTER ? 1 : -1;
		app->teach_speed = app->teach_speed < 0 ? 0 : app->teach_speed > 4 ? 4 : app->teach_speed;
		return say(app, false, "%d step%s a second", 1 << app->teach_speed, app->teach_speed ? "s" : "");
	case ACT_FORMULAS:
	case ACT_CONGESTION: {
		int page = a == ACT_FORMULAS ? TEACH_FORMULAS : TEACH_CONGESTION;
		app->teach_page = app->teach_page == page ? TEACH_STEPS : page;
		return CHG_VIEW;
	}
	case ACT_REDRAW_HASH:
		app->cong_seed++;
		app->cong_ok = congestion_lesson_build(&app->metrics, app->cong_seed, &app->cong, app->cong_why,
						       sizeof app->cong_why);
		app->teach_page = TEACH_CONGESTION;
		return CHG_VIEW;
	default:
		return CHG_PASS;
	}
}

/* ---- painting ------------------------------------------------------------------------- */

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

void teach_draw(const struct app *app, struct cellbuf *c)
{
	const struct ring_lesson *l = &app->lesson;
	int i, y;
	cellbuf_fill(c, 0, 0, c->w, c->h, ROLE_NORMAL);
	if (!app->lesson_ok) {
		cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "teach (Esc back, v pattern, V algorithm)");
		cellbuf_wrap(c, 1, 2, c->w - 2, 4, ROLE_WARNING, app->lesson_why);
		return;
	}
	if (app->teach_page == TEACH_CONGESTION) {
		draw_congestion(app, c);
		return;
	}
	if (app->teach_page == TEACH_FORMULAS) {
		cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "teach: the formulas with this design's numbers (f: the steps, Esc back)");
		/* Each formula wraps at the screen's width, so nothing is cut at 80 columns; when the
		 * lines do not fit, the blank ones between the parts go first. */
		int need = 0;
		bool blanks;
		for (i = 0; i < app->formulas.n; i++)
			need += app->formulas.line[i][0] ? cellbuf_wrap_lines(c->w - 2, app->formulas.line[i]) : 1;
		blanks = need <= c->h - 3;
		for (i = 0, y = 2; i < app->formulas.n && y < c->h - 1; i++)
			if (app->formulas.line[i][0])
				y += cellbuf_wrap(c, 1, y, c->w - 2, c->h - 1 - y, ROLE_NORMAL, app->formulas.line[i]);
			else
				y += blanks;
		return;
	}
	{
		const char *play = app->teach_play ? app->teach_play > 0 ? ", playing" : ", playing backwards" : "";
		int st = app->teach_step, n = app->teach_steps;
		if (app->teach_anim == ANIM_TREE) {
			cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "teach: Tree AllReduce, step %d of %d, %s%s (V: algorithm)", st,
				       n, st == n ? "done" : st < app->tree.depth ? "reduce up" : "broadcast down", play);
			draw_teach_tree(app, c);
		} else if (app->teach_anim == ANIM_NVLS) {
			cellbuf_printf(c, 1, 0, c->w - 2, ROLE_TITLE, "teach: NVLS AllReduce, step %d of 2, %s%s (V: algorithm)", st,
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
