/* targets.c: fuzz targets. A design that loads is also reported, exported and saved
 * back, so the model and the writers see every odd but valid design the fuzzer finds. */
#include "tests/fuzz/targets.h"
#include <stdlib.h>
#include <string.h>
#include "io/design_io.h"
#include "io/export.h"
#include "io/nccltests.h"
#include "io/units.h"
#include "layouts/place.h"
#include "layouts/template.h"
#include "model/bom.h"
#include "model/metrics.h"

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
