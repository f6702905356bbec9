/* The recompute's cost (issue 12: no design may take more than 16 ms): the largest designs
 * the templates build (a k=128 fat tree of 4,194,304 GPUs, 128 SuperPOD units (NDR and XDR), the largest two-tier leaf-spine and NVL72 builds) and designs from fuzz bytes (tests/fuzz/model_gen.c,
 * tests/fuzz/regressions/model/gen-*), each recomputed cold (every cache cleared, as after
 * an edit of the hardware), best of three. The inputs named slow-* are designs the fuzzer
 * once found over the limit (10^5 leaf switches over 10^5 servers: the bisection and the
 * tree count visit every leaf component); they are held to it like the others. Timing is skipped
 * under valgrind and the sanitizers (make valgrind, make check), which run it for errors,
 * and the limit widens on a machine slower than the one it was set on (machine_scale). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "io/design_io.h"
#include "layouts/template.h"
#include "model/fabric.h"
#include "model/metrics.h"
#include "model/route.h"
#include "model/topo.h"
#include "tests/fuzz/model_gen.h"
#include "tests/fuzz/targets.h"

#include "shipped.h"

TestSuite(recompute, .init = setup, .fini = teardown);

static bool timed(void)
{
	const char *pre = getenv("LD_PRELOAD");
#if defined(__SANITIZE_ADDRESS__)
	return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return false;
#endif
#endif
	return !(pre && strstr(pre, "vgpreload"));
}

/* How much slower this machine is, now, than the one the limit was set on: a fixed
 * workload of the model's kind (200,000 scattered updates of a 4 MiB table and a pass over
 * it), best of five, against the 1.6 ms it took there (2 shared cores, Debian 12), measured
 * again beside each design (the other tests run at the same time). Never below 1: the limit
 * only widens on a slower or busier machine. */
static double machine_scale(void)
{
	double scale = 0;
	{
		size_t n = (size_t)1 << 19, i, k;
		unsigned long long *v = calloc(n, sizeof *v), x = 88172645463325252ULL, sum = 0;
		double best = 1e300;
		cr_assert_not_null(v);
		for (k = 0; k < 5; k++) {
			struct timespec a, z;
			double t;
			clock_gettime(CLOCK_MONOTONIC, &a);
			for (i = 0; i < 200000; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				v[x & (n - 1)] += i;
			}
			for (i = 0; i < n; i++)
				sum += v[i];
			clock_gettime(CLOCK_MONOTONIC, &z);
			t = (z.tv_sec - a.tv_sec) * 1e3 + (z.tv_nsec - a.tv_nsec) / 1e6;
			if (t < best)
				best = t;
		}
		free(v);
		scale = best / 1.6 > 1 ? best / 1.6 : 1;
		if (scale > 1)
			cr_log_info("calibration %.3f ms (sum %llu): the limit is %.1f ms now", best, sum, MODEL_GEN_LIMIT_MS * scale);
	}
	return scale;
}

static double cold_ms(const struct design *d, const struct catalog *cat)
{
	static struct metrics m;
	double best = 1e300;
	int k;
	for (k = 0; k < 3; k++) {
		struct timespec a, z;
		double t;
		fabric_caches_clear();
		clock_gettime(CLOCK_MONOTONIC, &a);
		metrics_compute(d, cat, 1 << 30, 0, &m);
		clock_gettime(CLOCK_MONOTONIC, &z);
		t = (z.tv_sec - a.tv_sec) * 1e3 + (z.tv_nsec - a.tv_nsec) / 1e6;
		if (t < best)
			best = t;
	}
	return best;
}

Test(recompute, largest_templates_within_16ms)
{
	static const char *const sets[][3] = {
		{ "fat-tree", "k=128", NULL },
		{ "leaf-spine", "servers=256", NULL },
		{ "leaf-spine", "servers=128", "wiring=tor" },
		{ "superpod", "units=128", NULL },
		{ "superpod", "units=128", "generation=xdr" },
		{ "nvl72", "racks=28", NULL },
	};
	size_t i;
	for (i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		const struct template *t = template_find(sets[i][0]);
		struct tvalues v;
		struct design d;
		struct catalog merged;
		char err[600];
		int k;
		double ms;
		template_defaults(t, &v);
		for (k = 1; k < 3 && sets[i][k]; k++)
			cr_assert(template_set(t, &v, sets[i][k], &shipped, err, sizeof err), "%s", err);
		design_init(&d);
		cr_assert(template_build(t, &v, &shipped, &d, err, sizeof err), "%s", err);
		design_catalog(&d, &shipped, &merged);
		/* Over the limit, measured again (up to three times, with the calibration): a
		 * neighbour's burst is not the model's cost. */
		for (k = 0; k < 3; k++) {
			ms = cold_ms(&d, &merged);
			if (!timed() || ms <= MODEL_GEN_LIMIT_MS * machine_scale())
				break;
		}
		cr_log_info("%s %s %s: %.2f ms", sets[i][0], sets[i][1], sets[i][2] ? sets[i][2] : "", ms);
		if (timed())
			cr_expect_lt(k, 3, "%s %s: recompute %.2f ms, three times over the limit", sets[i][0], sets[i][1], ms);
		catalog_free(&merged);
		design_free(&d);
	}
}

Test(recompute, fuzz_designs_within_16ms)
{
	DIR *dir = opendir("tests/fuzz/regressions/model");
	struct dirent *e;
	int n = 0, k;
	cr_assert_not_null(dir);
	setenv("NCFABRIC_FUZZ_LIMIT_MS", "1e9", 1); /* the target must not abort: this test judges */
	while ((e = readdir(dir))) {
		char path[512];
		unsigned char buf[4096];
		size_t len;
		FILE *f;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "tests/fuzz/regressions/model/%s", e->d_name);
		f = fopen(path, "rb");
		cr_assert_not_null(f, "%s", path);
		len = fread(buf, 1, sizeof buf, f);
		fclose(f);
		for (k = 0; k < 3; k++) {
			fuzz_model(buf, len);
			if (!timed() || fuzz_model_last_ms <= MODEL_GEN_LIMIT_MS * machine_scale())
				break;
		}
		cr_log_info("%s: %.2f ms", e->d_name, fuzz_model_last_ms);
		if (timed())
			cr_expect_lt(k, 3, "%s: recompute %.2f ms, three times over the limit", e->d_name, fuzz_model_last_ms);
		n++;
	}
	closedir(dir);
	cr_assert_gt(n, 5);
}

/* Each design of files (loaded) and of templates (name, then an optional KEY=VALUE; NULL
 * name ends), with its merged catalog, to check. */
struct tset {
	const char *name, *set;
};

static void each_design(const char *const *files, size_t nfiles, const struct tset *tsets,
			void (*check)(const char *what, const struct design *d, const struct catalog *cat))
{
	size_t i;
	for (i = 0; i < nfiles; i++) {
		struct design d;
		struct catalog merged;
		struct ncf_diag diag = { 0 };
		cr_assert(design_load_file(files[i], &shipped, &d, &diag), "%s", files[i]);
		design_catalog(&d, &shipped, &merged);
		check(files[i], &d, &merged);
		catalog_free(&merged);
		design_free(&d);
		diag_free(&diag);
	}
	for (i = 0; tsets[i].name; i++) {
		const struct template *t = template_find(tsets[i].name);
		struct tvalues v;
		struct design d;
		struct catalog merged;
		char err[600];
		cr_assert(t, "no template %s", tsets[i].name);
		template_defaults(t, &v);
		if (tsets[i].set)
			cr_assert(template_set(t, &v, tsets[i].set, &shipped, err, sizeof err), "%s", err);
		design_init(&d);
		cr_assert(template_build(t, &v, &shipped, &d, err, sizeof err), "%s: %s", tsets[i].name, err);
		design_catalog(&d, &shipped, &merged);
		check(tsets[i].name, &d, &merged);
		catalog_free(&merged);
		design_free(&d);
	}
}

/* The designer recomputes without the scaling curve and makes it only for the speedup plot
 * (metrics_compute_some, metrics_curve): the figures must be the ones metrics_compute
 * gives, the curve included once it is made, on every shipped example, a failure test
 * design and every template at its defaults. */
/* The padding of NCCL's graphs, which come back from functions by value (its bytes are
 * whatever the copy left), cleared so the two can be compared byte for byte. */
static void graph_pad(struct nccl_graph *g)
{
	struct nccl_graph z;
	memset(&z, 0, sizeof z);
	z.c = g->c;
	z.bi = g->bi;
	z.be = g->be;
	z.cross = g->cross;
	memcpy(g, &z, sizeof z);
}

static void model_pad(struct nccl_model *m)
{
	graph_pad(&m->ring);
	graph_pad(&m->tree);
	graph_pad(&m->nvls);
	graph_pad(&m->collnet);
}

static void same_with_and_without_curve(const char *what, const struct design *d, const struct catalog *cat)
{
	static struct metrics full, some;
	fabric_caches_clear();
	metrics_compute(d, cat, 1024.0 * 1024 * 1024, 0, &full);
	fabric_caches_clear();
	metrics_compute_some(d, cat, 1024.0 * 1024 * 1024, 0, 0, &some);
	cr_assert(!some.work.has_curve && some.work.ncurve == 0, "%s: a curve without METRICS_CURVE", what);
	cr_assert(!full.work.valid || full.work.has_curve, "%s: metrics_compute made no curve", what);
	cr_assert_float_eq(some.work.step_ms, full.work.step_ms, 0, "%s: step %.6f vs %.6f", what, some.work.step_ms,
			   full.work.step_ms);
	cr_assert_float_eq(some.colls[0].algo[0].busbw_GBps, full.colls[0].algo[0].busbw_GBps, 0, "%s", what);
	metrics_curve(d, cat, &some);
	cr_assert_eq(some.work.ncurve, full.work.ncurve, "%s: %d points, metrics_compute %d", what, some.work.ncurve,
		     full.work.ncurve);
	/* Both were cleared whole before they were filled: every byte must agree, curve and
	 * every other figure (but the graphs' padding). */
	model_pad(&some.nccl);
	model_pad(&full.nccl);
	cr_assert(!memcmp(&some, &full, sizeof some), "%s: metrics differ with the curve made afterwards", what);
	if (full.work.valid)
		cr_assert_gt(full.work.ncurve, 0, "%s: a valid job with no curve", what);
}

Test(recompute, the_curve_made_later_is_the_same)
{
	static const char *const files[] = { "share/examples/dgx-h100-1su.yaml", "share/examples/gb200-nvl72.yaml",
					     "share/examples/mixed-generations.yaml", "share/examples/pcie-box.yaml",
					     "share/examples/reference-case.yaml", "share/examples/reference-two-racks.yaml",
					     "share/examples/textbook-mesh.yaml", "tests/data/fail-8spine.yaml" };
	static const struct tset tsets[] = { { "single-node", NULL }, { "leaf-spine", NULL }, { "fat-tree", NULL },
					     { "superpod", NULL },    { "nvl72", NULL },      { "rail-only", NULL },
					     { "pcie-box", NULL },    { "reference-case", NULL }, { NULL, NULL } };
	each_design(files, sizeof files / sizeof files[0], tsets, same_with_and_without_curve);
}

/* A ring's hops are kept per graph and communicator and valued again for another ring or a
 * ring of pairs over the same nodes (route.c ring_geo): each traffic must route exactly as
 * it does alone, with nothing kept. Traffic a (the job's ring: 8 GPUs, C channels) goes
 * first, then b (DP's: 8 rings of one GPU, other channels) and the send/recv pairs, on
 * every example and template, contiguous and at random. */
static void route_alone(const struct topo *t, const struct route_in *in, struct route_out *o)
{
	fabric_caches_clear();
	route_eval(t, in, o);
}

static void rings_share_hops(const char *what, const struct design *d, const struct catalog *cat)
{
	struct topo t;
	struct route_in a, b, p;
	struct route_out alone, after;
	int placement;
	topo_build(d, cat, 0, &t);
	for (placement = 0; placement < 2; placement++) {
		memset(&a, 0, sizeof a);
		a.kind = TK_RING;
		a.rate = 37.5;
		a.channels = 8;
		a.runtime = 4;
		a.gpus = 8;
		a.concurrent = 1;
		a.cross_rail = true;
		a.placement = placement ? PLACE_RANDOM : PLACE_CONTIGUOUS;
		a.span = span_all(t.nodes);
		b = a;
		b.rate = 12.25;
		b.channels = 2;
		b.runtime = 2;
		b.gpus = 1;
		b.concurrent = 8;
		b.cross_rail = false;
		b.span.stride = 1;
		p = a;
		p.kind = TK_PAIRS;
		p.rate = 6.5;
		p.distance = 1;
		p.pair_wrap = true;
		p.p2p_channels = 1;
		p.concurrent = 8;
		p.gpus = 1;
		route_alone(&t, &b, &alone);
		fabric_caches_clear();
		route_eval(&t, &a, &after);
		route_eval(&t, &b, &after);
		cr_assert(!memcmp(&alone, &after, sizeof alone), "%s (placement %d): DP's ring after the job's differs: factor %.17g vs %.17g",
			  what, placement, after.factor, alone.factor);
		route_alone(&t, &p, &alone);
		fabric_caches_clear();
		route_eval(&t, &a, &after);
		route_eval(&t, &p, &after);
		cr_assert(!memcmp(&alone, &after, sizeof alone), "%s (placement %d): the pairs after the ring differ: factor %.17g vs %.17g",
			  what, placement, after.factor, alone.factor);
	}
	topo_free(&t);
	fabric_caches_clear();
}

Test(recompute, rings_over_the_same_nodes_share_their_hops_exactly)
{
	static const char *const files[] = { "share/examples/dgx-h100-1su.yaml", "share/examples/gb200-nvl72.yaml",
					     "share/examples/mixed-generations.yaml", "share/examples/pcie-box.yaml",
					     "share/examples/reference-case.yaml", "share/examples/reference-two-racks.yaml",
					     "share/examples/textbook-mesh.yaml", "tests/data/fail-8spine.yaml",
					     "tests/data/two-racks-spectrum-x.yaml" };
	static const struct tset tsets[] = { { "leaf-spine", "wiring=tor" }, { "leaf-spine", "oversubscription=2" },
					     { "fat-tree", "k=8" },          { "superpod", "units=4" },
					     { "nvl72", "racks=4" },         { "rail-only", NULL },
					     { NULL, NULL } };
	each_design(files, sizeof files / sizeof files[0], tsets, rings_share_hops);
}
