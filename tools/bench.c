/* bench: what the model, the canvas and the designer cost, from 8 to 131,072 GPUs and from
 * 1 to 1,000 groups. Not a test: it prints a table (make bench), medians of 31 runs of the
 * thread's CPU time (the machine may be shared); whole processes on the wall clock.
 *
 * Rows:
 *   superpod N   DGX H100 SuperPOD-like by GPU count: 8 GPUs and 8 NDR NICs per server,
 *                rail-optimised leaves, a non-blocking fat tree of 2 or 3 tiers (QM9700,
 *                Q3400 past the 65,536 NICs QM9700's three tiers hold);
 *   groups N     N groups and N-1 bundles as a user draws pods one by one: pods of 4 DGX
 *                H100, each on a leaf group of its own (top-of-rack), the leaves rail-wired
 *                at 2:1 in units of 32 to a spine group, the spines spread over a core group;
 *   ecmp N       Ethernet (RoCE, Spectrum-4) leaf-spine with ECMP hashing at 2:1: every
 *                server's 8 NICs on one leaf (top-of-rack), half the leaf's ports up; a
 *                core tier above pods of 64 leaves past 128 leaves.
 * Columns:
 *   recompute    the model as the designer recomputes it after an edit: fabric, NCCL model,
 *                5 patterns x 6 algorithms at 1 GiB, the workload, the bottleneck and the
 *                advice (metrics_compute_some without the scaling curve), its caches warm
 *                (an edit of the job or the size);
 *   cold         the same with every cache cleared (an edit of the hardware: a new graph);
 *   curve        the workload's scaling curve after a cold recompute (metrics_curve: what
 *                the speedup plot and `report` add; the designer makes it only while the
 *                speedup plot is open);
 *   sweep25      5 patterns at 25 sizes from 8 B to 16 GiB (metrics_at);
 *   place        canvas placement and routing at 200x60;
 *   paint        one frame of the designer at 200x60 into its cell buffer;
 *   edit         one designer edit as the - and + keys make it on the server group in the
 *                middle: the edit command with its check, the designer's recompute (model,
 *                busbw plot, teaching view), placement and a frame;
 *   idle_cost    what that edit leaves for when no key waits: the BOM with its cable plan,
 *                the prices, and the frame that shows them (ui/app.h app_idle);
 *   plan         the inventory and its cable plan (every link walked): what `report` and
 *                the exports pay, and an edit only while a view shows the inventory (the
 *                compare view's headlines, with a design pinned);
 *   teach        a frame of the Tree teaching view;
 *   open         opening the design in the designer: its YAML parsed and checked, the first
 *                recompute, placement and frame;
 *   check        ok, ERRORS when the design has errors, REFUSED when an edit was refused,
 *                APART when the model finds the job's nodes not connected (the workload
 *                and its step are then not computed: the row times less of the model);
 *   maxrss       the process's peak resident memory so far.
 * Then: a session of 1,000 edits (counts, links, job fields, moves, undo) on the 100- and
 * 1,000-group designs, and how much memory it adds; and, given the binary (bench BIN),
 * `BIN report --json` on the default design against `true` as whole processes, one run of
 * each in turn, medians of 301 (the wall clock, and the CPU time the kernel accounts to
 * each: steadier on a shared machine).
 *
 * bench [--bin BIN] [--only ROW] [--runs N] [--edits N] [--write DIR] [--check]: ROW as the
 * table prints it ("groups 500", "session 1000", "process"); --edits sets the session's
 * length; --write writes each row's design to DIR/ROW.yaml and stops; --check computes each
 * row's design once and fails (exit 1) unless every one is free of errors and connected, so
 * that no row times a model with nothing to route (make test runs it). A table whose rows
 * are not all ok also ends in exit 1. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <malloc.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "io/design_io.h"
#include "layouts/place.h"
#include "layouts/template.h"
#include "layouts/optimize.h"
#include "io/prices.h"
#include "model/alloc.h"
#include "model/metrics.h"
#include "ui/app.h"

extern char **environ;

#define SETS(dst, s) snprintf((dst), sizeof(dst), "%s", (s))
#define RUNS_MAX 101

static void add_switch(struct design *d, const char *name, int role, int count, const char *model)
{
	struct switch_group *s = vec_push(&d->switches, sizeof *s);
	memset(s, 0, sizeof *s);
	SETS(s->name, name);
	s->role = role;
	s->count = count;
	SETS(s->model, model);
	s->breakout = 1;
}

static void add_bundle(struct design *d, const char *from, const char *to, int each, int wiring)
{
	struct bundle *b = vec_push(&d->bundles, sizeof *b);
	memset(b, 0, sizeof *b);
	SETS(b->from, from);
	SETS(b->to, to);
	b->links_each = each;
	b->wiring = wiring;
}

static struct server_group *add_dgx(struct design *d, const char *name, int count, const char *nic)
{
	struct server_group *g = vec_push(&d->servers, sizeof *g);
	struct nic_spec *n;
	memset(g, 0, sizeof *g);
	SETS(g->name, name);
	g->count = count;
	SETS(g->model, "dgx-h100");
	SETS(g->gpu, "h100-sxm5");
	g->gpus = 8;
	SETS(g->scaleup, "nvswitch-gen3");
	n = vec_push(&g->nics, sizeof *n);
	memset(n, 0, sizeof *n);
	SETS(n->model, nic);
	n->count = 8;
	return g;
}

static void llama70b(struct design *d, int gpus)
{
	d->job.params_b = 70;
	d->job.layers = 80;
	d->job.hidden = 8192;
	d->job.seq_len = 4096;
	d->job.global_batch = gpus;
	d->job.tp = 8;
	d->job.pp = 1; /* any server count keeps DP whole: the edits add and remove single servers */
	d->job.micro_batches = 8;
	d->job.overlap = 0.5;
}

/* superpod: a non-blocking fat tree, rail-optimised at the leaves (a unit of h servers has
 * 8 leaves, one per rail; a leaf h ports down, h up), of two tiers while every leaf reaches
 * every spine (2h leaves), three up to 2h^2 leaves (pods of h leaves and h spines, each leaf
 * one link to each spine of its pod; cores of 2h ports down that every pod reaches: the tier
 * above spreads, switch j of a pod reaching the same block as switch j of every other pod,
 * ncfabric(5) WIRING with |Y| a multiple of L). QM9700 (64 NDR ports, h = 32) holds 65,536
 * NICs so (k^3/4 at k = 64); past that a fourth tier would be needed, which three switch
 * roles cannot draw, so the switches are Quantum-X800 Q3400 (144 x 800G, each split to two
 * NDR ports: 288, h = 128). */
static void make_superpod(struct design *d, int gpus)
{
	int servers = gpus / 8, h = servers > 2048 * 32 / 8 ? 128 : 32, leaves, breakout = h == 32 ? 1 : 2;
	const char *sw = h == 32 ? "qm9700" : "q3400";
	design_init(d);
	SETS(d->name, "bench");
	add_dgx(d, "dgx", servers, "connectx-7-ndr");
	llama70b(d, gpus);
	if (servers < 2) {
		design_assign_ids(d);
		return;
	}
	leaves = 8 * ((servers + h - 1) / h);
	add_switch(d, "leaf", ROLE_LEAF, leaves, sw);
	add_bundle(d, "dgx", "leaf", 8, WIRE_RAIL);
	if (leaves <= 2 * h) {
		add_switch(d, "spine", ROLE_SPINE, leaves / 2, sw);
		add_bundle(d, "leaf", "spine", h, WIRE_SPREAD);
	} else {
		add_switch(d, "spine", ROLE_SPINE, leaves, sw);
		add_bundle(d, "leaf", "spine", h, WIRE_RAIL);
		add_switch(d, "core", ROLE_CORE, leaves / 2, sw);
		add_bundle(d, "spine", "core", h, WIRE_SPREAD);
	}
	for (size_t i = 0; i < d->switches.n; i++)
		VEC_AT(d->switches, struct switch_group, i).breakout = breakout;
	design_assign_ids(d);
}

/* groups: `groups` = 2 x pods + 2 groups and 2 x pods + 1 bundles. */
static void make_groups(struct design *d, int groups)
{
	int i, pods = (groups - 2) / 2, units = (pods + 31) / 32;
	char name[NCF_NAME_MAX], leaf[NCF_NAME_MAX];
	design_init(d);
	SETS(d->name, "many");
	add_switch(d, "spine", ROLE_SPINE, 16 * units, "qm9700");
	add_switch(d, "core", ROLE_CORE, 8 * units > 16 ? 8 * units : 16, "qm9700");
	for (i = 0; i < pods; i++) {
		snprintf(name, sizeof name, "pod%d", i);
		snprintf(leaf, sizeof leaf, "leaf%d", i);
		add_dgx(d, name, 4, "connectx-7-ndr");
		add_switch(d, leaf, ROLE_LEAF, 1, "qm9700");
		add_bundle(d, name, leaf, 8, WIRE_TOR);
	}
	/* Each leaf's 16 uplinks (2:1 under its pod's 32 NIC ports): rail, one to each of the 16
	 * spines of its unit; then the spines' uplinks spread over the core. */
	for (i = 0; i < pods; i++) {
		snprintf(leaf, sizeof leaf, "leaf%d", i);
		add_bundle(d, leaf, "spine", 16, WIRE_RAIL);
	}
	add_bundle(d, "spine", "core", 16, WIRE_SPREAD);
	llama70b(d, pods * 32);
	d->job.pp = 1;
	design_assign_ids(d);
}

/* ecmp: 8 x 400GbE RoCE per server, all on one SN5600 leaf (top-of-rack, 8 servers a leaf:
 * 64 ports down at 400G, 32 up: 2:1), ECMP hashing. Up to 128 leaves every leaf reaches
 * every spine (32 spines or fewer, 128 ports down each); beyond, pods of 64 leaves and 32
 * spines (each leaf one link to each spine of its pod; a spine 64 down, 64 up) under a core
 * tier of 128 ports down that every pod reaches. */
static void make_ecmp(struct design *d, int gpus)
{
	int servers = gpus / 8, leaves = (servers + 7) / 8, spines;
	design_init(d);
	SETS(d->name, "ecmp");
	add_dgx(d, "srv", servers, "connectx-7-400gbe");
	add_switch(d, "leaf", ROLE_LEAF, leaves, "sn5600");
	VEC_AT(d->switches, struct switch_group, 0).breakout = 2;
	add_bundle(d, "srv", "leaf", 8, WIRE_TOR);
	if (leaves <= 128) {
		spines = (leaves * 32 + 127) / 128;
		add_switch(d, "spine", ROLE_SPINE, spines, "sn5600");
		VEC_AT(d->switches, struct switch_group, 1).breakout = 2;
		add_bundle(d, "leaf", "spine", 32, WIRE_SPREAD);
	} else {
		leaves = (leaves + 63) / 64 * 64;
		VEC_AT(d->switches, struct switch_group, 0).count = leaves;
		spines = leaves / 2;
		add_switch(d, "spine", ROLE_SPINE, spines, "sn5600");
		VEC_AT(d->switches, struct switch_group, 1).breakout = 2;
		add_bundle(d, "leaf", "spine", 32, WIRE_RAIL);
		add_switch(d, "core", ROLE_CORE, spines * 64 / 128, "sn5600");
		VEC_AT(d->switches, struct switch_group, 2).breakout = 2;
		add_bundle(d, "spine", "core", 64, WIRE_SPREAD);
	}
	d->fabric.routing = ROUTE_ECMP;
	llama70b(d, gpus);
	design_assign_ids(d);
}

/* The work of this thread, in us: CPU time, not wall time, so that other programs on a
 * shared machine do not count (whole processes below are timed on the wall clock). */
static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static double wall_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static size_t heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}

static long maxrss_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* The id of the server group in the middle of the design. */
static int middle_group(const struct design *d)
{
	return d->servers.n ? DESIGN_SERVER(d, d->servers.n / 2)->id : 0;
}

/* One edit as the designer makes it: the action, then what its change mask says, then a
 * frame (ui/main.c's loop). */
__attribute__((noinline)) static void designer(struct app *app, struct cellbuf *cb, enum action a)
{
	app_settle(app, app_run(app, a));
	app_draw(app, cb);
}

struct row {
	const char *kind;
	int n;
};

static void make_row(const struct row *r, struct design *d)
{
	if (!strcmp(r->kind, "superpod"))
		make_superpod(d, r->n);
	else if (!strcmp(r->kind, "groups"))
		make_groups(d, r->n);
	else
		make_ecmp(d, r->n);
}

/* The row's design: ok (0), or why not, into why (1). */
static int row_check(const struct row *r, const struct catalog *cat, char *why, size_t size)
{
	static struct metrics m;
	struct design d;
	struct catalog merged;
	struct ncf_diag problems = { 0 };
	int bad = 0;
	make_row(r, &d);
	design_catalog(&d, cat, &merged);
	design_check(&d, &merged, &problems);
	metrics_compute_some(&d, &merged, 1024.0 * 1024 * 1024, 0, 0, &m);
	if (problems.n_errors) {
		snprintf(why, size, "%s", diag_get(&problems, 0)->msg);
		bad = 1;
	} else if (!m.fabric.connected) {
		snprintf(why, size, "the model finds the job's nodes not connected");
		bad = 1;
	} else if (m.fabric.gpus != r->n && strcmp(r->kind, "groups")) {
		snprintf(why, size, "%d GPUs, not %d", m.fabric.gpus, r->n);
		bad = 1;
	}
	diag_free(&problems);
	catalog_free(&merged);
	design_free(&d);
	return bad;
}

static int bench_row(const struct row *r, const struct catalog *cat, int runs)
{
	static struct metrics m;
	static struct app app;
	double t_full[RUNS_MAX], t_cold[RUNS_MAX], t_curve[RUNS_MAX], t_sweep[RUNS_MAX], t_place[RUNS_MAX], t_paint[RUNS_MAX], t_edit[RUNS_MAX],
		t_teach[RUNS_MAX], t_open[RUNS_MAX], t_plan[RUNS_MAX], t_cost[RUNS_MAX], bytes[25];
	struct design d;
	struct catalog merged;
	struct ncf_diag problems = { 0 };
	struct cellbuf cb;
	char label[32];
	char *text;
	int k, s, c, nsweep = 25, refused = 0, bad;
	make_row(r, &d);
	design_catalog(&d, cat, &merged);
	design_check(&d, &merged, &problems);
	for (k = 0; k < nsweep; k++)
		bytes[k] = floor(8.0 * pow(2.0, 31.0 * k / 24.0)); /* 8 B .. 16 GiB */
	for (k = 0; k < runs; k++) {
		double t0 = now_us(), t1;
		struct coll_result cr;
		struct placement p;
		metrics_compute_some(&d, &merged, 1024.0 * 1024 * 1024, 0, 0, &m);
		t1 = now_us();
		t_full[k] = t1 - t0;
		/* Cold: every cache of the model cleared first, as after an edit of the hardware
		 * (a new graph: routes and tree counts computed again). */
		fabric_caches_clear();
		t0 = now_us();
		metrics_compute_some(&d, &merged, 1024.0 * 1024 * 1024, 0, 0, &m);
		t1 = now_us();
		t_cold[k] = t1 - t0;
		metrics_curve(&d, &merged, &m);
		t_curve[k] = now_us() - t1;
		t1 = now_us();
		for (s = 0; s < nsweep; s++)
			for (c = 0; c < PATTERNS; c++)
				metrics_at(&m, (enum coll)c, bytes[s], &cr);
		t_sweep[k] = now_us() - t1;
		t1 = now_us();
		place_design(&d, 200, 60, &p);
		place_routes(&d, &merged, &p);
		t_place[k] = now_us() - t1;
		placement_free(&p);
	}
	/* Opening it: the file's text parsed and checked, the designer's first recompute,
	 * placement and frame. */
	text = design_to_text(&d, FMT_YAML);
	cellbuf_init(&cb, 200, 60);
	design_load_plan_warnings(false); /* as the designer loads (ui/main.c) */
	for (k = 0; k < (runs < 11 ? runs : 11); k++) {
		struct design ld;
		struct ncf_diag diag = { 0 };
		double t0 = now_us();
		if (!design_load_text(text, strlen(text), FMT_YAML, cat, &ld, &diag)) {
			fprintf(stderr, "bench: %s %d does not load: %s\n", r->kind, r->n,
				diag_count(&diag) ? diag_get(&diag, 0)->msg : "?");
			exit(1);
		}
		app_init(&app, &ld, cat, NULL);
		app_layout(&app, 200, 60);
		app_draw(&app, &cb);
		t_open[k] = now_us() - t0;
		diag_free(&diag);
		if (k + 1 < (runs < 11 ? runs : 11))
			app_free(&app);
	}
	free(text);
	for (k = 0; k < runs; k++) {
		double t0 = now_us();
		app_draw(&app, &cb);
		t_paint[k] = now_us() - t0;
	}
	/* An edit: - and + on the server group in the middle, in turn (one server fewer, then
	 * back: both are accepted, and each changes the graph the model routes over). */
	app.selected = middle_group(&app.design);
	for (k = 0; k < runs; k++) {
		double t0 = now_us();
		designer(&app, &cb, k % 2 ? ACT_INC : ACT_DEC);
		t_edit[k] = now_us() - t0;
		refused += app.msg_error;
		/* cost: what the edit leaves for when no key waits (the BOM and its prices, and
		 * the frame that shows them; ui/term_curses.c runs it before the next key). */
		t0 = now_us();
		app_settle(&app, app_idle(&app));
		app_draw(&app, &cb);
		t_cost[k] = now_us() - t0;
	}
	/* plan: the inventory and its cable plan alone (an edit pays it only while a view shows
	 * the inventory). */
	for (k = 0; k < runs; k++) {
		struct inventory inv;
		double t0 = now_us();
		inventory_compute(&app.design, &app.catalog, &inv);
		t_plan[k] = now_us() - t0;
		inventory_free(&inv);
	}
	/* A frame of the teaching view on Tree AllReduce (the largest tree of the design). */
	app.mode = MODE_TEACH;
	app.algo_view = UA_TREE;
	app_recompute(&app);
	app.teach_step = app.teach_steps / 2;
	for (k = 0; k < runs; k++) {
		double t0 = now_us();
		app_draw(&app, &cb);
		t_teach[k] = now_us() - t0;
	}
	cellbuf_free(&cb);
	app_free(&app);
	snprintf(label, sizeof label, "%s %d", r->kind, r->n);
	printf("%-15s %7d %6zu %7zu %9.1f %9.1f %8.1f %9.1f %8.1f %8.1f %9.1f %9.1f %8.1f %8.1f %8.2f %6s %8ld\n", label, m.fabric.gpus,
	       d.servers.n + d.switches.n + d.domains.n, d.bundles.n, median(t_full, runs), median(t_cold, runs),
	       median(t_curve, runs), median(t_sweep, runs),
	       median(t_place, runs), median(t_paint, runs), median(t_edit, runs), median(t_cost, runs), median(t_plan, runs), median(t_teach, runs),
	       median(t_open, runs < 11 ? runs : 11) / 1000, problems.n_errors ? "ERRORS" : refused ? "REFUSED" : !m.fabric.connected ? "APART" : "ok",
	       maxrss_kb());
	if (refused)
		fprintf(stderr, "  %d of the %d edits were refused: %s\n", refused, runs, app.msg);
	if (problems.n_errors)
		fprintf(stderr, "  %s\n", diag_get(&problems, 0)->msg);
	fflush(stdout);
	bad = problems.n_errors || refused || !m.fabric.connected;
	diag_free(&problems);
	catalog_free(&merged);
	design_free(&d);
	return bad;
}

/* A session of `edits` edits as a user makes them, each settled and painted: + and - on
 * groups and bundles, the job's overlap typed in, blocks moved, now and then an undo. */
static void session(const struct row *r, const struct catalog *cat, int edits)
{
	static struct app app;
	struct design d;
	struct cellbuf cb;
	size_t before, after;
	unsigned seed = 12345;
	long rss0;
	double t0, t1;
	int k, undos = 0;
	make_row(r, &d);
	cellbuf_init(&cb, 200, 60);
	app_init(&app, &d, cat, NULL);
	app_layout(&app, 200, 60);
	app_draw(&app, &cb);
	before = heap_bytes();
	rss0 = maxrss_kb();
	t0 = now_us();
	for (k = 0; k < edits; k++) {
		const struct design *cur = &app.design;
		size_t ng = cur->servers.n + cur->switches.n, nb = cur->bundles.n, pick;
		char val[32];
		seed = seed * 1103515245u + 12345u;
		pick = (seed >> 8) % 100;
		if (pick < 45 && ng) {
			size_t g = (seed >> 4) % ng;
			app.selected = g < cur->servers.n ? DESIGN_SERVER(cur, g)->id : DESIGN_SWITCH(cur, g - cur->servers.n)->id;
			designer(&app, &cb, (seed >> 16) & 1 ? ACT_DEC : ACT_INC);
		} else if (pick < 60 && nb) {
			app.selected = DESIGN_BUNDLE(cur, (seed >> 4) % nb)->id;
			designer(&app, &cb, (seed >> 16) & 1 ? ACT_DEC : ACT_INC);
		} else if (pick < 75) {
			snprintf(val, sizeof val, "%.2f", 0.3 + (double)((seed >> 4) % 50) / 100);
			ed_set(&app.ed, 0, "job.overlap", val);
			app_settle(&app, CHG_MODEL | CHG_LAYOUT);
			app_draw(&app, &cb);
		} else if (pick < 92 && ng) {
			size_t g = (seed >> 4) % ng;
			const char *name = g < cur->servers.n ? DESIGN_SERVER(cur, g)->name : DESIGN_SWITCH(cur, g - cur->servers.n)->name;
			char block[NCF_NAME_MAX];
			SETS(block, name);
			ed_move(&app.ed, block, (int)((seed >> 12) % 150), (int)((seed >> 20) % 50));
			app_settle(&app, CHG_MODEL | CHG_LAYOUT);
			app_draw(&app, &cb);
		} else {
			designer(&app, &cb, ACT_UNDO);
			undos++;
		}
		app_settle(&app, app_idle(&app)); /* the user pauses: the cost is made */
		app_draw(&app, &cb);
	}
	t1 = now_us();
	after = heap_bytes();
	printf("session: %d edits (%d of them undo) on %s %d: %+.2f MB of heap (%.2f -> %.2f MB), peak RSS %+ld KB, %.2f ms an edit with its idle work\n",
	       edits, undos, r->kind, r->n, ((double)after - (double)before) / 1e6, before / 1e6, after / 1e6,
	       maxrss_kb() - rss0, (t1 - t0) / edits / 1000);
	cellbuf_free(&cb);
	app_free(&app);
}

/* Median wall time of `runs` whole processes of argv, stdout to /dev/null, ms; their
 * median CPU time (user and system, the kernel's account) into *cpu_ms when not NULL. */
static double spawn_ms(char *const argv[], int runs, double *cpu_ms)
{
	double t[RUNS_MAX], c[RUNS_MAX];
	posix_spawn_file_actions_t fa;
	int k;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	for (k = 0; k < runs; k++) {
		pid_t pid;
		int st;
		struct rusage ru;
		double t0 = wall_us();
		if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
			posix_spawn_file_actions_destroy(&fa);
			return -1;
		}
		wait4(pid, &st, 0, &ru);
		t[k] = wall_us() - t0;
		c[k] = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			posix_spawn_file_actions_destroy(&fa);
			return -1;
		}
	}
	posix_spawn_file_actions_destroy(&fa);
	if (cpu_ms)
		*cpu_ms = median(c, runs) / 1000;
	return median(t, runs) / 1000;
}

#define PROCESS_RUNS 301

static void processes(const char *bin, const struct catalog *cat)
{
	char tmpl[] = "/tmp/ncfabric-bench-XXXXXX";
	char path[64], script[80];
	char b0[1024], a_report[] = "report", a_json[] = "--json", a_true[] = "/bin/true";
	char *report[] = { b0, a_report, a_json, NULL };
	char *truth[] = { a_true, NULL };
	double t_true = 0, t_report = 0, c_true = 0, c_report = 0, t_open;
	struct design d;
	struct row big = { "groups", 1000 };
	char *text;
	FILE *f;
	int round;
	snprintf(b0, sizeof b0, "%s", bin);
	/* One run of each in turn, so that both see the same machine; the medians of 301 (the
	 * first runs of each, which warm the page cache, left out). */
	if (spawn_ms(truth, 5, NULL) < 0 || spawn_ms(report, 5, NULL) < 0) {
		printf("processes: %s report --json failed\n", bin);
		return;
	}
	{
		static double wt[PROCESS_RUNS], wr[PROCESS_RUNS], ct[PROCESS_RUNS], cr[PROCESS_RUNS];
		for (round = 0; round < PROCESS_RUNS; round++) {
			wt[round] = spawn_ms(truth, 1, &ct[round]);
			wr[round] = spawn_ms(report, 1, &cr[round]);
			if (wt[round] < 0 || wr[round] < 0) {
				printf("processes: %s report --json failed\n", bin);
				return;
			}
		}
		t_true = median(wt, PROCESS_RUNS);
		t_report = median(wr, PROCESS_RUNS);
		c_true = median(ct, PROCESS_RUNS);
		c_report = median(cr, PROCESS_RUNS);
	}
	printf("process: true %.2f ms, %s report --json (default design) %.2f ms: %.2f x true"
	       " (CPU time %.2f and %.2f ms: %.2f x; medians of %d runs each)\n",
	       t_true, bin, t_report, t_report / t_true, c_true, c_report, c_true > 0 ? c_report / c_true : 0, PROCESS_RUNS);
	/* The 1,000-group design opened in the designer, as a whole process: its first frame
	 * at 200x60, then quit. */
	if (!mkdtemp(tmpl))
		return;
	make_row(&big, &d);
	text = design_to_text(&d, FMT_YAML);
	snprintf(path, sizeof path, "%s/groups.yaml", tmpl);
	snprintf(script, sizeof script, "%s/quit.txt", tmpl);
	if ((f = fopen(path, "w"))) {
		fputs(text, f);
		fclose(f);
	}
	if ((f = fopen(script, "w"))) {
		fputs("# the first frame, then the end of the script\n", f);
		fclose(f);
	}
	{
		char a_script[] = "--script", a_screen[] = "--screen", a_size[] = "200x60";
		char *open[] = { b0, a_script, script, a_screen, a_size, path, NULL };
		t_open = spawn_ms(open, 11, NULL);
		if (t_open >= 0)
			printf("process: %s --script (the designer's first frame at 200x60) on groups 1000: %.1f ms\n", bin, t_open);
		else
			printf("process: %s --script on groups 1000 failed\n", bin);
	}
	free(text);
	design_free(&d);
	unlink(path);
	unlink(script);
	rmdir(tmpl);
	(void)cat;
}

/* ncfabric optimize over about a thousand candidates: leaf-spine with 2..63 servers x its
 * 16 default candidates (oversubscription 1..4, rail or tor, ecmp or adaptive), each built,
 * priced (tests/data/prices-leafspine.yaml) and computed (CPU time). */
static void bench_optimize(const struct catalog *cat)
{
	static struct opt_space s;
	const struct template *t = template_find("leaf-spine");
	struct tvalues v;
	struct price_list p;
	struct ncf_diag diag = { 0 };
	struct opt_request r = { 0 };
	struct opt_result res;
	char err[300];
	double t0;
	if (!t)
		return;
	template_defaults(t, &v);
	opt_space_default(t, &v, &s);
	if (!opt_axis_set(&s, "servers=2..63", cat, err, sizeof err)) {
		fprintf(stderr, "bench: %s\n", err);
		return;
	}
	if (!prices_load_file("tests/data/prices-leafspine.yaml", &p, &diag))
		price_list_init(&p);
	diag_free(&diag);
	r.metric = OPT_BUSBW;
	r.target = 300;
	r.bytes = 1024.0 * 1024 * 1024;
	r.prices = &p;
	t0 = now_us();
	if (opt_run(&s, cat, &r, &res, err, sizeof err)) {
		double us = now_us() - t0;
		printf("optimize: %ld candidates (%ld built, %ld priced) in %.2f s, %.0f us each; front %ld\n", res.n,
		       res.built, res.priced, us / 1e6, us / (double)res.n, res.nfront);
		opt_result_free(&res);
	}
	price_list_free(&p);
}

int main(int argc, char **argv)
{
	static const struct row rows[] = {
		{ "superpod", 8 }, { "superpod", 32 }, { "superpod", 1024 }, { "superpod", 16384 }, { "superpod", 131072 },
		{ "groups", 10 }, { "groups", 100 }, { "groups", 500 }, { "groups", 1000 },
		{ "ecmp", 4096 }, { "ecmp", 16384 }, { "ecmp", 65536 },
	};
	struct catalog cat;
	struct ncf_diag diag = { 0 };
	const char *bin = NULL, *only = NULL, *write = NULL;
	char src[256];
	int runs = 31, edits = 1000, i, check = 0, not_ok = 0;
	size_t r;
	alloc_keep_freed(); /* as ncfabric does */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--bin") && i + 1 < argc)
			bin = argv[++i];
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--edits") && i + 1 < argc)
			edits = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--write") && i + 1 < argc)
			write = argv[++i];
		else if (!strcmp(argv[i], "--check"))
			check = 1;
		else {
			fprintf(stderr, "usage: bench [--bin BIN] [--only ROW] [--runs N] [--edits N] [--write DIR]\n");
			return 2;
		}
	}
	if (runs < 1 || runs > RUNS_MAX)
		runs = 31;
	snprintf(src, sizeof src, "share/catalog.yaml");
	if (!catalog_load_file(src, &cat, &diag) && !catalog_load_shipped(NULL, &cat, src, sizeof src, &diag)) {
		fprintf(stderr, "bench: cannot load the catalog\n");
		return 1;
	}
	if (check) {
		for (r = 0; r < sizeof rows / sizeof *rows; r++) {
			char why[512];
			if (row_check(&rows[r], &cat, why, sizeof why)) {
				fprintf(stderr, "bench: %s %d: %s\n", rows[r].kind, rows[r].n, why);
				not_ok++;
			}
		}
		catalog_free(&cat);
		if (!not_ok)
			printf("bench: the %zu rows' designs are free of errors and connected\n", sizeof rows / sizeof *rows);
		return not_ok ? 1 : 0;
	}
	if (write) {
		for (r = 0; r < sizeof rows / sizeof *rows; r++) {
			struct design d;
			char path[1024], err[256];
			make_row(&rows[r], &d);
			snprintf(path, sizeof path, "%s/%s-%d.yaml", write, rows[r].kind, rows[r].n);
			if (!design_save(&d, path, err, sizeof err)) {
				fprintf(stderr, "bench: %s: %s\n", path, err);
				return 1;
			}
			design_free(&d);
		}
		catalog_free(&cat);
		return 0;
	}
	printf("ncfabric bench (catalog: %s; medians of %d runs of CPU time, in us but open in ms)\n", src, runs);
	printf("%-15s %7s %6s %7s %9s %9s %8s %9s %8s %8s %9s %9s %8s %8s %8s %6s %8s\n", "design", "GPUs", "groups", "bundles",
	       "recompute", "cold", "curve", "sweep25", "place", "paint", "edit", "idle_cost", "plan", "teach", "open_ms", "check", "maxrss_KB");
	for (r = 0; r < sizeof rows / sizeof *rows; r++) {
		char label[32];
		snprintf(label, sizeof label, "%s %d", rows[r].kind, rows[r].n);
		if (!only || !strcmp(only, label))
			not_ok += bench_row(&rows[r], &cat, runs);
	}
	if (!only || !strncmp(only, "session", 7)) {
		static const struct row s100 = { "groups", 100 }, s1000 = { "groups", 1000 };
		if (!only || strcmp(only, "session 1000"))
			session(&s100, &cat, edits);
		if (!only || strcmp(only, "session 100"))
			session(&s1000, &cat, edits);
	}
	if (bin && (!only || !strcmp(only, "process")))
		processes(bin, &cat);
	if (!only || !strcmp(only, "optimize"))
		bench_optimize(&cat);
	catalog_free(&cat);
	if (not_ok) {
		fprintf(stderr, "bench: %d rows are not ok (the check column)\n", not_ok);
		return 1;
	}
	return 0;
}
