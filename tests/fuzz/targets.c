/* targets.c: fuzz targets. A design that loads is also reported, exported and saved
 * back, so the model and the writers see every odd but valid design the fuzzer finds. */
#define _XOPEN_SOURCE 700
#include "tests/fuzz/targets.h"
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include "io/design_io.h"
#include "io/diff.h"
#include "io/export.h"
#include "io/report.h"
#include "io/nccltests.h"
#include "io/prices.h"
#include "model/cost.h"
#include "model/failure.h"
#include "io/units.h"
#include "layouts/place.h"
#include "layouts/template.h"
#include "model/bom.h"
#include "model/compare.h"
#include "model/inventory.h"
#include "model/metrics.h"
#include "model/fabric.h"
#include "tests/fuzz/model_gen.h"

static struct catalog *shipped(void)
{
	static struct catalog cat;
	static int loaded;
	if (!loaded) {
		struct ncf_diag diag = { 0 };
		if (!catalog_load_builtin(&cat, &diag))
			abort();
		diag_free(&diag);
		loaded = 1;
	}
	return &cat;
}

static int design(const uint8_t *data, size_t size, enum file_format fmt)
{
	static struct metrics m;
	struct design d, back;
	struct ncf_diag diag = { 0 };
	struct catalog cat;
	if (design_load_text((const char *)data, size, fmt, shipped(), &d, &diag)) {
		char *text = design_to_text(&d, fmt), err[200];
		struct bom b;
		struct placement p;
		const char *const fmts[] = { "bom-csv", "bom-json", "dot" };
		size_t i;
		design_catalog(&d, shipped(), &cat);
		metrics_compute(&d, &cat, 1 << 20, 0, &m);
		bom_compute(&d, &cat, &b);
		bom_free(&b);
		place_design(&d, 80, 20, &p);
		place_routes(&d, &cat, &p);
		placement_free(&p);
		for (i = 0; i < sizeof fmts / sizeof *fmts; i++)
			free(export_text(&d, &cat, fmts[i], err, sizeof err));
		/* What was saved loads back to the same design. */
		if (!text || !design_load_text(text, strlen(text), fmt, shipped(), &back, &diag) || !design_equal(&d, &back))
			abort();
		design_free(&back);
		free(text);
		catalog_free(&cat);
		design_free(&d);
	}
	diag_free(&diag);
	return 0;
}

int fuzz_design_yaml(const uint8_t *data, size_t size)
{
	return design(data, size, FMT_YAML);
}

int fuzz_design_json(const uint8_t *data, size_t size)
{
	return design(data, size, FMT_JSON);
}

int fuzz_catalog(const uint8_t *data, size_t size)
{
	struct catalog c;
	struct ncf_diag diag = { 0 };
	if (size && catalog_load_text((const char *)data + 1, size - 1, data[0] & 1 ? FMT_JSON : FMT_YAML, &c, &diag))
		catalog_free(&c);
	diag_free(&diag);
	return 0;
}

/* A price file; one that loads prices the reference case's bill of materials. */
int fuzz_prices(const uint8_t *data, size_t size)
{
	struct price_list p;
	struct ncf_diag diag = { 0 };
	if (prices_load_text((const char *)data, size, &p, &diag)) {
		struct design d;
		struct catalog cat;
		struct bom b;
		struct cost c;
		if (!design_load_default(shipped(), &d, &diag))
			abort();
		design_catalog(&d, shipped(), &cat);
		bom_compute(&d, &cat, &b);
		cost_compute(&b, &cat, &p, 32, 100, 1000, &c);
		if (c.total < 0)
			abort();
		cost_free(&c);
		bom_free(&b);
		catalog_free(&cat);
		design_free(&d);
		price_list_free(&p);
	}
	diag_free(&diag);
	return 0;
}

/* A failure spec (text up to the first NUL); one that parses is applied to a shipped
 * design (the first byte picks which) and evaluated. */
int fuzz_fail(const uint8_t *data, size_t size)
{
	static const char *const files[] = { NULL, "dgx-h100-1su", "gb200-nvl72", "mixed-generations" };
	static struct fail_outcome o;
	struct fail_spec s;
	struct fail_point before;
	struct ncf_diag diag = { 0 };
	struct design d;
	struct catalog cat;
	struct metrics *m;
	char text[300], err[200], path[200];
	size_t n = size > 1 ? size - 1 : 0;
	if (!size)
		return 0;
	if (n >= sizeof text)
		n = sizeof text - 1;
	memcpy(text, data + 1, n);
	text[n] = 0;
	if (!fail_parse(text, &s, err, sizeof err))
		return 0;
	if (files[data[0] & 3]) {
		snprintf(path, sizeof path, "share/examples/%s.yaml", files[data[0] & 3]);
		if (!design_load_file(path, shipped(), &d, &diag)) {
			diag_free(&diag);
			return 0;
		}
	} else if (!design_load_default(shipped(), &d, &diag)) {
		abort();
	}
	design_catalog(&d, shipped(), &cat);
	m = calloc(1, sizeof *m);
	metrics_compute(&d, &cat, 1 << 20, 0, m);
	fail_point_from(m, d.job.algo, &before);
	free(m);
	fail_evaluate(&d, &cat, &s, 1 << 20, 0, &before, &o);
	catalog_free(&cat);
	design_free(&d);
	diag_free(&diag);
	return 0;
}

int fuzz_nccltests(const uint8_t *data, size_t size)
{
	struct nt_log log;
	struct ncf_diag diag = { 0 };
	if (nt_parse((const char *)data, size, &log, &diag))
		nt_log_free(&log);
	diag_free(&diag);
	return 0;
}

/* --set KEY=VALUE for each template, then a build; also the size parser. */
int fuzz_set(const uint8_t *data, size_t size)
{
	char text[256], err[600];
	struct tvalues v;
	struct design d;
	const struct template *t;
	double bytes;
	if (!size || size >= sizeof text)
		return 0;
	t = &templates[data[0] % ntemplates];
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	parse_size(text, &bytes, err, sizeof err);
	template_defaults(t, &v);
	if (template_set(t, &v, text, shipped(), err, sizeof err)) {
		design_init(&d);
		/* Builds that are too large for a fuzzer's budget are skipped, not run. */
		if (!strstr(text, "units=") && !strstr(text, "servers=") && !strstr(text, "racks=") && !strstr(text, "k="))
			template_build(t, &v, shipped(), &d, err, sizeof err);
		design_free(&d);
	}
	return 0;
}

/* A measured AllReduce log (nccl-tests' layout), for compare. */
static const char measured_log[] =
	"# nThread 1 nGpus 1 minBytes 8 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20\n"
	"# Using devices\n"
	"#  Rank  0 Group  0 Pid 1 on node0 device  0 [0x07] NVIDIA A100-SXM4-80GB\n"
	"#\n"
	"#                                                              out-of-place                       in-place\n"
	"#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
	"#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n"
	"     1048576        262144     float     sum      -1    120.1    8.73   16.91      0    119.8    8.75   16.96      0\n"
	"  1073741824     268435456     float     sum      -1    29000   37.03   71.74      0    29010   37.01   71.71      0\n"
	"# Out of bounds values : 0 OK\n"
	"# Avg bus bandwidth    : 44.3\n";

static char scratch[64];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void scratch_remove(void)
{
	if (scratch[0])
		nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_scratch_dir(void)
{
	if (!scratch[0]) {
		snprintf(scratch, sizeof scratch, "/tmp/ncf-fuzz-XXXXXX");
		if (!mkdtemp(scratch))
			abort();
		atexit(scratch_remove);
	}
	return scratch;
}

static const char *scratch_dir(void)
{
	return fuzz_scratch_dir();
}

int fuzz_pipeline(const uint8_t *data, size_t size)
{
	static struct metrics m;
	static const char *const fmts[] = { "yaml", "json", "bom-csv", "bom-yaml", "bom-json", "dot" };
	struct design d, base;
	struct ncf_diag diag = { 0 }, problems = { 0 };
	struct catalog cat, bcat;
	struct inventory inv;
	struct report_in r;
	struct nt_log log;
	struct headline ha[HEADLINES_MAX], hb[HEADLINES_MAX];
	struct vec changes = { 0 };
	struct diff_in in;
	struct placement p;
	FILE *null;
	char err[600], out[256];
	size_t i;
	int n;
	if (!size)
		return 0;
	if (!design_load_text((const char *)data + 1, size - 1, data[0] & 1 ? FMT_JSON : FMT_YAML, shipped(), &d, &problems)) {
		diag_free(&problems);
		return 0;
	}
	null = fopen("/dev/null", "w");
	if (!null)
		abort();
	design_catalog(&d, shipped(), &cat);
	inventory_compute(&d, &cat, &inv);
	metrics_compute(&d, &cat, ldexp(1.0, data[0] % 35), 0, &m);
	r = (struct report_in){ &d, &cat, "built-in", "fuzz.yaml", &inv, &problems, &m, (data[0] & 2) != 0, NULL, NULL, NULL, NULL, NULL };
	report_text(null, &r);
	free(report_json(&r));
	diag_print(null, "fuzz.yaml", &problems, true);
	for (n = 0; n < PATTERNS; n++)
		nt_expect(null, &m, d.name, (enum coll)n, d.job.algo);
	if (nt_parse(measured_log, sizeof measured_log - 1, &log, &diag)) {
		nt_compare(null, &m, &d, &log, COLL_ALLREDUCE, "measured.log");
		nt_log_free(&log);
	}
	for (i = 0; i < sizeof fmts / sizeof *fmts; i++)
		free(export_text(&d, &cat, fmts[i], err, sizeof err));
	snprintf(out, sizeof out, "%s/astra", scratch_dir());
	export_files(&d, &cat, "astra-sim", out, err, sizeof err);
	snprintf(out, sizeof out, "%s/netbox", scratch_dir());
	export_files(&d, &cat, "netbox", out, err, sizeof err);
	place_design(&d, 80 + data[0] % 80, 20 + data[0] % 30, &p);
	place_routes(&d, &cat, &p);
	placement_free(&p);
	/* diff against the built-in design, both ways round */
	if (design_load_default(shipped(), &base, &diag)) {
		design_catalog(&base, shipped(), &bcat);
		n = headlines_of(&base, &bcat, m.bytes, ha, HEADLINES_MAX);
		headlines_of(&d, &cat, m.bytes, hb, HEADLINES_MAX);
		design_diff(&base, &d, &changes);
		in = (struct diff_in){ base.name, "a.yaml", d.name, "b.yaml", m.bytes, &changes, ha, hb, n };
		diff_text(null, &in);
		free(diff_json(&in));
		vec_release(&changes);
		catalog_free(&bcat);
		design_free(&base);
	}
	/* Both formats load back to the same design. */
	for (n = 0; n < 2; n++) {
		struct design back;
		char *text = design_to_text(&d, n ? FMT_JSON : FMT_YAML);
		if (!text || !design_load_text(text, strlen(text), n ? FMT_JSON : FMT_YAML, shipped(), &back, &diag) ||
		    !design_equal(&d, &back))
			abort();
		design_free(&back);
		free(text);
	}
	fclose(null);
	inventory_free(&inv);
	catalog_free(&cat);
	design_free(&d);
	diag_free(&problems);
	diag_free(&diag);
	return 0;
}

/* The model's cost: a design from the bytes (tests/fuzz/model_gen.c), checked as the
 * designer checks an edit; one the check accepts is recomputed cold (every cache
 * cleared, as after an edit of the hardware). Over the limit ($NCFABRIC_FUZZ_LIMIT_MS, or
 * MODEL_GEN_LIMIT_MS) on the best of three runs, the target aborts: libFuzzer keeps the
 * input. Returns nothing else: the time is in fuzz_model_last_ms. */
double fuzz_model_last_ms;

int fuzz_model(const uint8_t *data, size_t size)
{
	static struct catalog cat;
	static int made;
	static struct metrics m;
	struct design d;
	struct ncf_diag diag = { 0 };
	const char *env = getenv("NCFABRIC_FUZZ_LIMIT_MS");
	double limit = env && atof(env) > 0 ? atof(env) : MODEL_GEN_LIMIT_MS;
	if (!made) {
		model_gen_catalog(&cat);
		made = 1;
	}
	fuzz_model_last_ms = 0;
	model_gen_design(data, size, &cat, &d);
	if (design_check(&d, &cat, &diag) == 0) {
		int k;
		double best = 1e300;
		for (k = 0; k < 3; k++) {
			double t;
			fabric_caches_clear();
			t = model_gen_recompute_ms(&d, &cat, &m);
			if (t < best)
				best = t;
			if (best <= limit)
				break;
		}
		fuzz_model_last_ms = best;
		if (best > limit && size) {
			fprintf(stderr, "fuzz_model: recompute %.2f ms > %.2f ms (%d GPUs, %zu groups, %zu bundles)\n", best, limit,
				m.fabric.gpus, d.servers.n + d.switches.n + d.domains.n, d.bundles.n);
			abort();
		}
	}
	diag_free(&diag);
	design_free(&d);
	return 0;
}
