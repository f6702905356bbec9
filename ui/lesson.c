/* lesson.c: the guided lesson: its pages as data, their text filled in from the model, and the
 * lesson as a mode over the live canvas. */
#include "ui/lesson.h"
#include "ui/app.h"
#include "ui/modes.h"
#include <stdio.h>
#include <string.h>

const struct lesson_page lesson_pages[] = {
	{ "Measure", "reference-case", "", { NULL },
	  "The reference case: 4 servers of 8 x A100 (NVSwitch inside), 4 x 100 Gb/s RoCE NICs each, one top-of-rack "
	  "switch, GPT-2 1.5B trained data-parallel on {gpus} GPUs. The panel is the model: the gradients' AllReduce runs "
	  "at {busbw} GB/s busbw with {pick} (NCCL's choice), a training step takes {step} ms, the speedup is {speedup} "
	  "of {gpus}: {eff}% efficiency. Where does the rest go?" },
	{ "The ceiling", "reference-case", "", { NULL },
	  "Between servers each one has {ports} x {port_gbps} Gb/s = {ceiling} GB/s, shared by its 8 GPUs; busbw counts "
	  "what every GPU must move across that. NCCL's own model predicts {nccl_ring} GB/s for Ring and the panel "
	  "agrees ({ring}): NCCL binds each channel to one NIC, and one switch gives a packet no choice of path, so "
	  "nothing collides here. The rest of the step is the gradients' transfer itself." },
	{ "The textbook's numbers", "reference-case", "", { NULL },
	  "The textbook measured 38 GB/s for Ring here: {gap}% under the {ceiling} GB/s ceiling, more than the 20% its "
	  "own first step calls a problem to check (ncfabric compare says so). It reports 47 GB/s after Tree and a LAG, "
	  "and 52% -> 87% efficiency; those do not follow from each other: if 38 GB/s gives 52%, 47 GB/s gives at most "
	  "{eff47}%, and 87% would need {bw87} GB/s. ncfabric predicts the physics, not the anecdote." },
	{ "Where flows collide", "reference-case", "racks=2", { NULL },
	  "The same servers in 2 racks, each ToR with 4 uplinks to 2 spines. Now the ring crosses a switch tier: its "
	  "{flows} connections leaving a rack are hashed onto the ToR's {links} uplinks by static ECMP, the busiest "
	  "carries {emax} of them and every connection waits for it: Ring {ring} GB/s instead of {nccl_ring}. Press t, "
	  "then c, to see one draw. {bottleneck}" },
	{ "Try Tree", "reference-case", "racks=2", { "set job.algo tree", NULL },
	  "NCCL_ALGO=Tree (job.algo tree): its two trees send 4 edges across the racks, hashed the same way. AllReduce "
	  "{busbw} GB/s, step {step} ms, speedup {speedup}, efficiency {eff}%. NCCL itself would pick {nccl_pick}: it "
	  "does not see the switches." },
	{ "A LAG", "reference-case", "racks=2", { "select a100->tor", "set lag true", NULL },
	  "Bond each server's four links into a LAG: NCCL now sees one device at one port's speed (it reads the port, "
	  "NCCL issue 1015) and each queue pair takes one member; Ring falls to {ring} GB/s. A LAG is one more hashed "
	  "choice, not a cure; between two switches it spreads flows like ECMP does." },
	{ "More entropy, or adaptive", "reference-case", "racks=2", { "set fabric.qps_per_connection 4", NULL },
	  "NCCL_IB_QPS_PER_CONNECTION=4 gives ECMP four queue pairs per connection to hash: the busiest uplink's share "
	  "evens out and Ring gets {ring} GB/s. Adaptive routing spreads each packet (fabric.routing adaptive), but needs "
	  "switches and NICs built for it (Spectrum-X, InfiniBand AR); on these parts it stays static." },
	{ "Rule: data parallel", "leaf-spine", "", { NULL },
	  "Data parallelism sends the whole gradient through AllReduce every step, across every tier. Keep the leaves "
	  "at 1:1 (here {oversub_leaf}), give each GPU enough network ({ceiling} GB/s per node here) and keep hashed "
	  "uplinks from colliding (rails, adaptive routing, enough uplinks). This design: {gpus} GPUs, AllReduce "
	  "{busbw} GB/s, efficiency {eff}%." },
	{ "Rule: hybrid parallel", "superpod", "", { NULL },
	  "A 70B model does not fit one GPU: tensor parallelism (every layer, heavy) stays inside the server's NVLink "
	  "({nvlink} GB/s per GPU as NCCL counts it), data parallelism crosses the network. Rail-optimised wiring gives GPU k of every "
	  "server the same leaf, so rings stay on one rail. {gpus} GPUs: AllReduce {busbw} GB/s, step {step} ms, "
	  "efficiency {eff}%." },
	{ "Rule: huge models", "nvl72", "", { NULL },
	  "The largest models put tensor and expert parallelism inside one NVLink domain of 72 GPUs (GB200 NVL72: "
	  "{nvlink} GB/s per GPU as NCCL counts it), so the network between racks carries the data-parallel part only. {gpus} GPUs: "
	  "AllReduce {busbw} GB/s across racks, step {step} ms, efficiency {eff}%. Esc ends the lesson; u undoes it." },
};
const int lesson_npages = (int)(sizeof lesson_pages / sizeof lesson_pages[0]);

/* The value of {key}, or NULL if the key is unknown. */
static const char *field(const struct app *app, const char *key, char *buf, size_t size)
{
	const struct metrics *m = &app->metrics;
	const struct fabric *f = &m->fabric;
	const struct coll_result *ar = &m->colls[COLL_ALLREDUCE];
	const struct algo_result *pick = coll_pick(ar, app->design.job.algo);
	int t;
	if (!strcmp(key, "gpus"))
		snprintf(buf, size, "%d", m->work.gpus ? m->work.gpus : f->gpus);
	else if (!strcmp(key, "busbw"))
		snprintf(buf, size, "%.1f", pick->busbw_GBps);
	else if (!strcmp(key, "pick"))
		snprintf(buf, size, "%s", ualgo_labels[pick - ar->algo]);
	else if (!strcmp(key, "ring") || !strcmp(key, "tree")) {
		const struct algo_result *a = &ar->algo[key[0] == 'r' ? UA_RING : UA_TREE];
		snprintf(buf, size, a->available ? "%.1f" : "n/a", a->busbw_GBps);
	} else if (!strcmp(key, "nccl_ring"))
		snprintf(buf, size, "%.1f", ar->algo[UA_RING].nccl_busbw_GBps);
	else if (!strcmp(key, "nccl_pick"))
		snprintf(buf, size, "%s", ar->auto_algo >= 0 ? ualgo_labels[ar->auto_algo] : "nothing");
	else if (!strcmp(key, "gap"))
		/* The textbook's measured 38 GB/s against this design's ceiling. */
		snprintf(buf, size, "%.0f", f->node_ceiling_GBps > 0 ? 100 * (1 - 38 / f->node_ceiling_GBps) : 0.0);
	else if (!strcmp(key, "eff47"))
		/* Efficiency e = T / (T + C/bw): 52% at 38 GB/s fixes C/T; at 47 GB/s
		 * e = 1 / (1 + (1/0.52 - 1) 38/47). */
		snprintf(buf, size, "%.0f", 100 / (1 + (1 / 0.52 - 1) * 38.0 / 47.0));
	else if (!strcmp(key, "bw87"))
		/* The bandwidth 87% needs: (1/0.87 - 1) = (1/0.52 - 1) 38 / bw. */
		snprintf(buf, size, "%.0f", (1 / 0.52 - 1) * 38.0 / (1 / 0.87 - 1));
	else if (!strcmp(key, "step"))
		snprintf(buf, size, "%.1f", m->work.step_ms);
	else if (!strcmp(key, "speedup"))
		snprintf(buf, size, "%.1f", m->work.speedup);
	else if (!strcmp(key, "eff"))
		snprintf(buf, size, "%.0f", 100.0 * m->work.efficiency);
	else if (!strcmp(key, "ports"))
		snprintf(buf, size, "%d", f->ports);
	else if (!strcmp(key, "port_gbps"))
		snprintf(buf, size, "%d", f->port_gbps);
	else if (!strcmp(key, "ceiling"))
		snprintf(buf, size, "%.1f", f->node_ceiling_GBps);
	else if (!strcmp(key, "nvlink"))
		snprintf(buf, size, "%.0f", f->node.nvl);
	else if (!strcmp(key, "flows"))
		snprintf(buf, size, "%d", app->cong.flows);
	else if (!strcmp(key, "links"))
		snprintf(buf, size, "%d", app->cong.links);
	else if (!strcmp(key, "emax"))
		snprintf(buf, size, "%.2f", app->cong.emax);
	else if (!strcmp(key, "bottleneck"))
		snprintf(buf, size, "%s", m->bottleneck);
	else if (!strcmp(key, "oversub_leaf")) {
		snprintf(buf, size, "no uplinks");
		for (t = 0; t < f->ntiers; t++)
			if (f->tiers[t].role == ROLE_LEAF && f->tiers[t].ratio > 0)
				snprintf(buf, size, "%.3g:1", f->tiers[t].ratio);
	} else
		return NULL;
	return buf;
}

void lesson_text(const struct app *app, int i, char *buf, size_t size)
{
	const char *p = lesson_pages[i].text;
	size_t used = 0;
	buf[0] = '\0';
	while (*p && used + 1 < size) {
		const char *end = *p == '{' ? strchr(p, '}') : NULL;
		char key[32], val[400];
		const char *v = NULL;
		if (end && end - p - 1 < (long)sizeof key) {
			snprintf(key, sizeof key, "%.*s", (int)(end - p - 1), p + 1);
			v = field(app, key, val, sizeof val);
		}
		if (v) {
			used += (size_t)snprintf(buf + used, size - used, "%s", v);
			p = end + 1;
		} else {
			buf[used++] = *p++;
			buf[used] = '\0';
		}
		if (used >= size)
			used = size - 1;
	}
}

/* ---- the lesson as a mode -------------------------------------------------------------- */

/* The lesson works on a copy: the user's design, its history, its saved state and its
 * file wait in app->stash until lesson_end gives them back. */
static void lesson_begin(struct app *app)
{
	if (app->stash.active)
		return;
	app->stash.design = app->design;
	design_copy(&app->design, &app->stash.design);
	ed_history_take(&app->ed, &app->stash.hist);
	app->stash.generation = app->ed.generation;
	app->stash.saved = app->saved;
	app->stash.saved_valid = app->saved_valid;
	app->stash.saved_generation = app->saved_generation;
	app->saved_valid = false;
	snprintf(app->stash.file, sizeof app->stash.file, "%s", app->file);
	app->stash.builtin = app->builtin;
	app->stash.disk_mtime_ns = app->disk_mtime_ns;
	app->stash.disk_size = app->disk_size;
	app->stash.selected = app->selected;
	app->file[0] = '\0';
	app->builtin = false;
	app->disk_mtime_ns = app->disk_size = -1;
	app->stash.active = true;
	mark_saved(app);
}

unsigned lesson_end(struct app *app)
{
	if (!app->stash.active)
		return CHG_NONE;
	ed_free(&app->ed);
	design_free(&app->design);
	app->design = app->stash.design;
	ed_init(&app->ed, &app->design, app->shipped);
	ed_history_put(&app->ed, &app->stash.hist);
	app->ed.generation = app->stash.generation;
	app->cost.valid = false; /* the user's design again: its cost, with no change to show */
	if (app->saved_valid)
		design_free(&app->saved);
	app->saved = app->stash.saved;
	app->saved_valid = app->stash.saved_valid;
	app->saved_generation = app->stash.saved_generation;
	snprintf(app->file, sizeof app->file, "%s", app->stash.file);
	app->builtin = app->stash.builtin;
	app->disk_mtime_ns = app->stash.disk_mtime_ns;
	app->disk_size = app->stash.disk_size;
	app->selected = app->stash.selected;
	memset(&app->stash, 0, sizeof app->stash);
	ensure_selection(app);
	if (app->mode == MODE_LESSON)
		app->mode = MODE_CANVAS;
	app->teach_play = 0;
	say(app, false, "the lesson is over: your design is back%s%.300s", app->file[0] ? ", " : "", app->file);
	return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

/* Open page i of the lesson: build its design from scratch, run its commands. */
unsigned lesson_open(struct app *app, int i)
{
	const struct lesson_page *p = &lesson_pages[i];
	size_t depth;
	unsigned chg;
	int k;
	lesson_begin(app); /* the lesson's pages are built on a copy: the user's design waits */
	depth = ed_depth(&app->ed);
	chg = build_template(app, p->template_name, p->sets);
	for (k = 0; k < 4 && p->cmds[k] && !app->msg_error; k++)
		chg |= app_command(app, p->cmds[k]);
	ed_merge_since(&app->ed, depth); /* the page is one edit: u undoes it */
	app->cost.valid = false; /* another page's design, not an edit: no cost change to show */
	app->lesson_page = i;
	app->mode = MODE_LESSON;
	app->pattern = COLL_ALLREDUCE;
	app->bytes = 1024.0 * 1024 * 1024;
	if (!app->msg_error)
		say(app, false, "lesson %d of %d: n next, b back, Esc ends it and gives your design back", i + 1,
		    lesson_npages);
	return chg | CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

unsigned lesson_resume(struct app *app)
{
	int page = app->lesson_page;
	unsigned chg = lesson_open(app, page);
	if (page && !app->msg_error)
		say(app, false, "lesson page %d of %d again: n next, b back, Esc ends (:lesson 1 restarts)", page + 1,
		    lesson_npages);
	return chg;
}

unsigned lesson_action(struct app *app, enum action a)
{
	switch (a) {
	case ACT_QUIT:
	case ACT_LESSON:
	case ACT_CANCEL:
		if (app->mode != MODE_LESSON)
			return CHG_PASS;
		return lesson_end(app);
	case ACT_PAGE_NEXT:
	case ACT_PAGE_PREV: {
		int to = app->lesson_page + (a == ACT_PAGE_NEXT ? 1 : -1);
		if (to < 0 || to >= lesson_npages)
			return say(app, false, "%s page of the lesson (Esc ends it)", to < 0 ? "the first" : "the last");
		return lesson_open(app, to);
	}
	default:
		return CHG_PASS;
	}
}

/* The lesson's page over the canvas; the metrics panel stays in view and follows it. */
void lesson_draw(const struct app *app, struct cellbuf *c)
{
	char text[1600];
	int x, y, w, h, bh;
	app_canvas_area(c->w, c->h, &x, &y, &w, &h);
	bh = h < 9 ? h : 9;
	lesson_text(app, app->lesson_page, text, sizeof text);
	cellbuf_fill(c, x, y, w, bh, ROLE_NORMAL);
	cellbuf_box(c, x, y, w, bh, ROLE_HEADING);
	cellbuf_printf(c, x + 2, y, w - 4, ROLE_HEADING, " lesson %d/%d: %s (n next, b back, Esc ends) ", app->lesson_page + 1,
		       lesson_npages, lesson_pages[app->lesson_page].title);
	cellbuf_wrap(c, x + 2, y + 1, w - 4, bh - 2, ROLE_NORMAL, text);
}
