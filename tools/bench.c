/* bench: how long a full recompute and a size sweep take, for designs of 8 to 131,072 GPUs.
 * Not a test: it prints a table (make bench). Designs are DGX H100 SuperPOD-like: 8 GPUs
 * and 8 NDR NICs per server, rail-optimised leaves, spines, and a core tier once the
 * spines run out of radix. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include <sys/resource.h>
#include "io/design_io.h"
#include "layouts/place.h"
#include "model/metrics.h"
#include "ui/app.h"

#define SETS(dst, s) snprintf((dst), sizeof(dst), "%s", (s))

static void add_switch(struct design *d, const char *name, int role, int count)
{
	struct switch_group *s = vec_push(&d->switches, sizeof *s);
	SETS(s->name, name);
	s->role = role;
	s->count = count;
	SETS(s->model, "qm9700");
	s->breakout = 1;
}

static void add_bundle(struct design *d, const char *from, const char *to, int each, int wiring)
{
	struct bundle *b = vec_push(&d->bundles, sizeof *b);
	SETS(b->from, from);
	SETS(b->to, to);
	b->links_each = each;
	b->wiring = wiring;
}

static void make_design(struct design *d, int gpus)
{
	int servers = gpus / 8, leaves, spines, cores;
	struct server_group *g;
	struct nic_spec *n;
	design_init(d);
	SETS(d->name, "bench");
	g = vec_push(&d->servers, sizeof *g);
	SETS(g->name, "dgx");
	g->count = servers;
	SETS(g->model, "dgx-h100");
	SETS(g->gpu, "h100-sxm5");
	g->gpus = 8;
	SETS(g->scaleup, "nvswitch-gen3");
	n = vec_push(&g->nics, sizeof *n);
	SETS(n->model, "connectx-7-ndr");
	n->count = 8;
	d->job.params_b = 70;
	d->job.layers = 80;
	d->job.hidden = 8192;
	d->job.seq_len = 4096;
	d->job.global_batch = gpus;
	d->job.tp = 8;
	d->job.pp = gpus >= 64 ? 4 : 1;
	d->job.micro_batches = 8;
	d->job.overlap = 0.5;
	if (servers < 2) {
		design_assign_ids(d);
		return;
	}
	/* Leaves: one per rail per 32-server unit, half ports down, half up. */
	leaves = 8 * ((servers + 31) / 32);
	add_switch(d, "leaf", ROLE_LEAF, leaves);
	add_bundle(d, "dgx", "leaf", 8, WIRE_RAIL);
	if (leaves > 1) {
		spines = leaves / 2 > 0 ? leaves / 2 : 1;
		if (leaves * 32 / spines > 64)
			spines = leaves * 32 / 64;
		add_switch(d, "spine", ROLE_SPINE, spines);
		if (leaves <= 64) {
			add_bundle(d, "leaf", "spine", 32, WIRE_SPREAD);
		} else {
			/* Pods of 32 leaves and 32 spines: each leaf's 32 uplinks go one to each
			 * spine of its pod; spines send half their ports up to the core. */
			spines = leaves;
			d->switches.n--;
			add_switch(d, "spine", ROLE_SPINE, spines);
			add_bundle(d, "leaf", "spine", 32, WIRE_RAIL);
			cores = spines / 2;
			add_switch(d, "core", ROLE_CORE, cores);
			add_bundle(d, "spine", "core", 32, WIRE_SPREAD);
		}
	}
	design_assign_ids(d);
}

/* Many groups: `pods` server groups of 4 DGX H100, each on a leaf group of its own (one
 * switch, top-of-rack), the leaves rail-wired in units of 32 to a spine group (16 spines
 * a unit), the spines spread over a core group: pods + 2 groups... as a user would draw
 * pods one by one. 2 x pods + 2 groups, 2 x pods + 1 bundles. */
static void make_many(struct design *d, int pods)
{
	int i, units = (pods + 31) / 32;
	char name[NCF_NAME_MAX], leaf[NCF_NAME_MAX];
	design_init(d);
	SETS(d->name, "many");
	add_switch(d, "spine", ROLE_SPINE, 16 * units);
	add_switch(d, "core", ROLE_CORE, 8 * units > 16 ? 8 * units : 16);
	for (i = 0; i < pods; i++) {
		struct server_group *g;
		struct nic_spec *n;
		snprintf(name, sizeof name, "pod%d", i);
		snprintf(leaf, sizeof leaf, "leaf%d", i);
		g = vec_push(&d->servers, sizeof *g);
		memset(g, 0, sizeof *g);
		SETS(g->name, name);
		g->count = 4;
		SETS(g->model, "dgx-h100");
		SETS(g->gpu, "h100-sxm5");
		g->gpus = 8;
		SETS(g->scaleup, "nvswitch-gen3");
		n = vec_push(&g->nics, sizeof *n);
		memset(n, 0, sizeof *n);
		SETS(n->model, "connectx-7-ndr");
		n->count = 8;
		add_switch(d, leaf, ROLE_LEAF, 1);
		add_bundle(d, name, leaf, 8, WIRE_TOR);
	}
	/* Each leaf's 32 uplinks: rail onto the 16 spines of its unit (2 each); then the spines'
	 * uplinks spread over the core. */
	for (i = 0; i < pods; i++) {
		snprintf(leaf, sizeof leaf, "leaf%d", i);
		add_bundle(d, leaf, "spine", 16, WIRE_RAIL);
	}
	add_bundle(d, "spine", "core", 16, WIRE_SPREAD);
	d->job.params_b = 70;
	d->job.layers = 80;
	d->job.hidden = 8192;
	d->job.seq_len = 4096;
	d->job.global_batch = pods * 32;
	d->job.tp = 8;
	d->job.micro_batches = 8;
	d->job.overlap = 0.5;
	design_assign_ids(d);
}

static double now_us(void)
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

int main(void)
{
	/* SuperPOD-like designs by GPU count, then many-group designs by server groups. */
	static const struct {
		int many, n;
	} rows[] = { { 0, 8 }, { 0, 32 }, { 0, 1024 }, { 0, 16384 }, { 0, 131072 }, { 1, 4 }, { 1, 48 }, { 1, 248 }, { 1, 498 } };
	static struct metrics m;
	struct catalog cat, merged;
	struct ncf_diag diag = { 0 };
	char src[256];
	size_t i;
	snprintf(src, sizeof src, "share/catalog.yaml");
	if (!catalog_load_file(src, &cat, &diag) && !catalog_load_shipped(NULL, &cat, src, sizeof src, &diag)) {
		fprintf(stderr, "bench: cannot load the catalog\n");
		return 1;
	}
	printf("ncfabric bench (catalog: %s)\n", src);
	printf("%9s %7s %8s %14s %14s %12s %12s %10s %10s %10s %11s %10s\n", "GPUs", "groups", "bundles", "recompute_us",
	       "sweep25_us", "place_us", "paint_us", "edit_us", "plan_us", "teach_us", "check", "maxrss_KB");
	for (i = 0; i < sizeof rows / sizeof *rows; i++) {
		struct design d;
		double t_full[31], t_sweep[31], t_place[31], t_paint[31], t_edit[31], t_plan[31], t_teach[31], bytes[32];
		static struct app app;
		struct design copy;
		struct cellbuf cb;
		int k, runs = 31, nsweep = 0;
		struct rusage ru;
		struct ncf_diag problems = { 0 };
		if (rows[i].many)
			make_many(&d, rows[i].n);
		else
			make_design(&d, rows[i].n);
		design_catalog(&d, &cat, &merged);
		design_check(&d, &merged, &problems);
		for (k = 0; k < 25; k++)
			bytes[nsweep++] = floor(8.0 * pow(2.0, 31.0 * k / 24.0)); /* 8 B .. 16 GiB */
		for (k = 0; k < runs; k++) {
			double t0 = now_us(), t1;
			int c, s;
			struct coll_result cr;
			struct placement p;
			metrics_compute(&d, &merged, 1024.0 * 1024 * 1024, 0, &m);
			t1 = now_us();
			t_full[k] = t1 - t0;
			for (s = 0; s < nsweep; s++)
				for (c = 0; c < PATTERNS; c++)
					metrics_at(&m, (enum coll)c, bytes[s], &cr);
			t_sweep[k] = now_us() - t1;
			t1 = now_us();
			place_design(&d, 200, 60, &p);
			t_place[k] = now_us() - t1;
			placement_free(&p);
		}
		/* One frame of the designer at 200x60: paint from state into the cell buffer. */
		design_copy(&copy, &d);
		design_assign_ids(&copy);
		app_init(&app, &copy, &cat, NULL);
		app_layout(&app, 200, 60);
		cellbuf_init(&cb, 200, 60);
		for (k = 0; k < runs; k++) {
			double t0 = now_us();
			app_draw(&app, &cb);
			t_paint[k] = now_us() - t0;
		}
		/* What an edit of the hardware costs in the designer: the model, the check, the
		 * inventory (its cable plan is rebuilt: the design it was built for is forgotten), the
		 * busbw plot, the teaching view's lessons. plan: the inventory alone. (An edit of the
		 * job or the size costs edit - plan: the plan is kept.) */
		for (k = 0; k < runs; k++) {
			double t0 = now_us();
			struct inventory inv;
			if (app.inv_of_valid) {
				design_free(&app.inv_of);
				app.inv_of_valid = false;
			}
			app_recompute(&app);
			t_edit[k] = now_us() - t0;
			t0 = now_us();
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
		getrusage(RUSAGE_SELF, &ru);
		printf("%9d %7zu %8zu %14.1f %14.1f %12.1f %12.1f %10.1f %10.1f %10.1f %11s %10ld\n", m.fabric.gpus,
		       d.servers.n + d.switches.n + d.domains.n, d.bundles.n, median(t_full, runs), median(t_sweep, runs),
		       median(t_place, runs), median(t_paint, runs), median(t_edit, runs), median(t_plan, runs),
		       median(t_teach, runs),
		       problems.n_errors ? "ERRORS" : "ok", ru.ru_maxrss);
		if (problems.n_errors)
			fprintf(stderr, "  %s\n", diag_get(&problems, 0)->msg);
		diag_free(&problems);
		catalog_free(&merged);
		design_free(&d);
	}
	printf("recompute: fabric + NCCL model + 5 patterns x 6 algorithms at 1G + workload and scaling curve\n");
	printf("sweep25: 5 patterns at 25 sizes from 8 B to 16 GiB; place: canvas placement at 200x60;\n");
	printf("paint: one frame of the designer at 200x60 into its cell buffer (curses then sends the difference);\n");
	printf("edit: the designer's whole recompute after an edit of the hardware; plan: of which the inventory and\n");
	printf("its cable plan (kept when an edit leaves the hardware alone); teach: a frame of the Tree teaching view\n");
	printf("rows 1-5: SuperPOD-like, rail leaves, spines, a core tier beyond; rows 6-9: N server groups of 4 servers,\n");
	printf("each on a leaf group of its own, leaves rail-wired to spines in units of 32, spines to a core\n");
	printf("(2N+2 groups, 2N+1 bundles)\n");
	catalog_free(&cat);
	return 0;
}
