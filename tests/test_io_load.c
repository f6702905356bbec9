/* Loading and saving designs: round trips for every shipped example, and the bad-input
 * corpus of tests/data/bad (each file's expected message is in tests/data/bad/EXPECTED). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/builtin.h"
#include "io/design_io.h"
#include "io/parse.h"
#include "io/safetext.h"
#include "model/inventory.h"

#include "shipped.h"

TestSuite(io, .init = setup, .fini = teardown);

static void load_or_fail(const char *path, struct design *d)
{
	struct ncf_diag diag = { 0 };
	bool ok = design_load_file(path, &shipped, d, &diag);
	cr_assert(ok, "%s: %d:%d: %s", path, diag_count(&diag) ? diag_get(&diag, 0)->line : 0,
		  diag_count(&diag) ? diag_get(&diag, 0)->col : 0, diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	cr_assert_eq(diag.n_warnings, 0, "%s has warnings: %s", path, diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	diag_free(&diag);
}

static void from_text(const char *text, enum file_format fmt, struct design *d)
{
	struct ncf_diag diag = { 0 };
	cr_assert(design_load_text(text, strlen(text), fmt, &shipped, d, &diag), "%s",
		  diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	diag_free(&diag);
}

/* YAML -> design -> YAML -> design -> JSON -> design -> YAML: same design, same text. */
static void round_trip(const char *path)
{
	struct design a, b, c;
	char *y1, *y2, *j1, *y3;
	load_or_fail(path, &a);
	y1 = design_to_text(&a, FMT_YAML);
	from_text(y1, FMT_YAML, &b);
	cr_assert(design_equal(&a, &b), "%s: YAML round trip changed the design", path);
	y2 = design_to_text(&b, FMT_YAML);
	cr_assert_str_eq(y1, y2, "%s: saving twice gives the same text", path);
	j1 = design_to_text(&b, FMT_JSON);
	from_text(j1, FMT_JSON, &c);
	cr_assert(design_equal(&a, &c), "%s: JSON round trip changed the design", path);
	y3 = design_to_text(&c, FMT_YAML);
	cr_assert_str_eq(y1, y3, "%s: YAML -> JSON -> YAML", path);
	free(y1);
	free(y2);
	free(j1);
	free(y3);
	design_free(&a);
	design_free(&b);
	design_free(&c);
}

Test(io, every_example_round_trips)
{
	DIR *dir = opendir("share/examples");
	struct dirent *e;
	int n = 0;
	cr_assert_not_null(dir);
	while ((e = readdir(dir))) {
		char path[512];
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
			continue;
		snprintf(path, sizeof path, "share/examples/%s", e->d_name);
		round_trip(path);
		n++;
	}
	closedir(dir);
	cr_assert_geq(n, 4, "the examples are there");
}

Test(io, numbers_round_trip_exactly)
{
	struct design a, b;
	char *t;
	const double odd[] = { 0.1, 1.0 / 3.0, 0.30000000000000004, 0.123456789012345 };
	size_t i;
	load_or_fail("share/examples/reference-case.yaml", &a);
	for (i = 0; i < sizeof odd / sizeof *odd; i++) {
		a.job.mfu = odd[i];
		a.job.compute_ms = odd[i] * 1000;
		t = design_to_text(&a, i % 2 ? FMT_JSON : FMT_YAML);
		from_text(t, i % 2 ? FMT_JSON : FMT_YAML, &b);
		cr_assert_eq(b.job.mfu, odd[i], "%.17g came back as %.17g", odd[i], b.job.mfu);
		cr_assert_eq(b.job.compute_ms, odd[i] * 1000);
		design_free(&b);
		free(t);
	}
	design_free(&a);
}

Test(io, strings_that_look_like_numbers_survive)
{
	struct design a, b;
	char *t;
	int f;
	load_or_fail("share/examples/reference-case.yaml", &a);
	snprintf(a.description, sizeof a.description, "%s", "400");
	snprintf(a.job.name, sizeof a.job.name, "%s", "NO");
	for (f = FMT_YAML; f <= FMT_JSON; f++) {
		t = design_to_text(&a, (enum file_format)f);
		from_text(t, (enum file_format)f, &b);
		cr_assert_str_eq(b.description, "400");
		cr_assert_str_eq(b.job.name, "NO");
		design_free(&b);
		free(t);
	}
	design_free(&a);
}

Test(io, builtin_default_is_the_shipped_reference_case)
{
	struct design a, b;
	struct ncf_diag diag = { 0 };
	struct inventory inv;
	load_or_fail("share/examples/reference-case.yaml", &a);
	cr_assert(design_load_default(&shipped, &b, &diag));
	cr_assert(design_equal(&a, &b));
	inventory_compute(&b, &shipped, &inv);
	cr_assert_eq(inv.gpus, 32);
	cr_assert_eq(inv.servers, 4);
	cr_assert_eq(inv.nics_compute, 16);
	inventory_free(&inv);
	design_free(&a);
	design_free(&b);
	diag_free(&diag);
}

/* Elements a and b of schema s are the same bytes, but for where their lists live: each
 * list inside (also inside a struct they hold) has the same elements, to the byte. */
static bool same_bytes(const struct schema *s, const void *a, const void *b)
{
	unsigned char *x = malloc(s->size), *y = malloc(s->size);
	size_t k;
	bool same = true;
	memcpy(x, a, s->size);
	memcpy(y, b, s->size);
	for (k = 0; k < s->nfields && same; k++) {
		const struct field *f = &s->fields[k];
		if (f->type == FT_STRUCT) {
			same = same_bytes(f->sub, (const char *)a + f->off, (const char *)b + f->off);
			memset(x + f->off, 0, f->sub->size);
			memset(y + f->off, 0, f->sub->size);
		} else if (f->type == FT_LIST) {
			const struct vec *va = (const void *)((const char *)a + f->off), *vb = (const void *)((const char *)b + f->off);
			size_t j;
			same = va->n == vb->n;
			for (j = 0; j < va->n && same; j++)
				same = same_bytes(f->sub, (const char *)va->v + j * f->sub->size, (const char *)vb->v + j * f->sub->size);
			memset(x + f->off, 0, sizeof(struct vec));
			memset(y + f->off, 0, sizeof(struct vec));
		}
	}
	same = same && !memcmp(x, y, s->size);
	free(x);
	free(y);
	return same;
}

Test(io, builtin_catalog_is_the_shipped_one)
{
	struct catalog b, text;
	struct ncf_diag diag = { 0 };
	size_t i;
	cr_assert(catalog_load_builtin(&b, &diag));
	cr_assert(schema_equal(&catalog_schema, &b, &shipped));
	/* The parsed copy is what parsing the embedded text gives, to the byte. */
	cr_assert(catalog_load_text(ncf_builtin_catalog, ncf_builtin_catalog_len, FMT_YAML, &text, &diag));
	for (i = 0; i < catalog_schema.nfields; i++) {
		const struct field *f = &catalog_schema.fields[i];
		const struct vec *x = field_list(f, &b), *y = field_list(f, &text);
		size_t j;
		cr_assert_eq(x->n, y->n, "%s", f->key);
		for (j = 0; j < x->n; j++)
			cr_assert(same_bytes(f->sub, (const char *)x->v + j * f->sub->size, (const char *)y->v + j * f->sub->size),
				  "%s[%zu]", f->key, j);
	}
	/* The lists inside parts came with the copy (the shipped cables have orderable lengths). */
	{
		size_t with = 0;
		for (i = 0; i < b.cables.n; i++)
			with += VEC_AT(b.cables, struct cat_cable, i).lengths.n > 0;
		cr_assert_gt(with, 0);
		cr_assert_gt(ncf_builtin_inner_lists, 0);
	}
	catalog_free(&text);
	catalog_free(&b);
	diag_free(&diag);
}

/* A catalog file is taken from the parsed copy only when it is the embedded text: a
 * changed one is read. */
Test(io, a_changed_catalog_file_is_read)
{
	char dir[] = "/tmp/ncf-test-XXXXXX", path[600], source[700];
	struct catalog c;
	struct ncf_diag diag = { 0 };
	const char *old = getenv("NCFABRIC_CATALOG");
	char *text, *at;
	size_t len;
	FILE *f;
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/catalog.yaml", dir);
	text = file_read("share/catalog.yaml", &len, source, sizeof source);
	cr_assert_not_null(text);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fwrite(text, 1, len, f);
	fclose(f);
	setenv("NCFABRIC_CATALOG", path, 1);
	cr_assert(catalog_load_shipped(NULL, &c, source, sizeof source, &diag));
	cr_assert_str_eq(source, path);
	cr_assert(schema_equal(&catalog_schema, &c, &shipped), "the same bytes: the shipped catalog");
	catalog_free(&c);
	at = strstr(text, "name: hgx-a100-8gpu");
	cr_assert_not_null(at);
	at = strstr(at, "    power_W: 6500\n");
	cr_assert_not_null(at);
	at[13] = '7'; /* 7500 */
	f = fopen(path, "w");
	fwrite(text, 1, len, f);
	fclose(f);
	cr_assert(catalog_load_shipped(NULL, &c, source, sizeof source, &diag));
	cr_assert_float_eq(catalog_server(&c, "hgx-a100-8gpu")->power_W, 7500, 1e-9);
	cr_assert_float_eq(catalog_server(&shipped, "hgx-a100-8gpu")->power_W, 6500, 1e-9);
	catalog_free(&c);
	if (old)
		setenv("NCFABRIC_CATALOG", old, 1);
	else
		unsetenv("NCFABRIC_CATALOG");
	unlink(path);
	rmdir(dir);
	free(text);
	diag_free(&diag);
}

Test(io, catalog_entries_name_a_source_and_required_parts)
{
	const char *gpus[] = { "v100-sxm2", "a100-sxm4-80gb", "a100-pcie-80gb", "h100-sxm5", "h100-pcie", "h200-sxm",
			       "h800-sxm", "h20", "b200", "gb200", "l40s", "rtx-4090", "rtx-5090" };
	const char *nics[] = { "connectx-5-100g", "connectx-6-hdr", "connectx-6dx-100g", "connectx-7-ndr",
			       "connectx-8", "bluefield-3-b3240" };
	const char *switches[] = { "qm8700", "qm9700", "q3400", "sn2700", "sn4600", "sn5600", "generic-64x400" };
	size_t i;
	for (i = 0; i < sizeof gpus / sizeof *gpus; i++)
		cr_expect_not_null(catalog_gpu(&shipped, gpus[i]), "GPU %s", gpus[i]);
	for (i = 0; i < sizeof nics / sizeof *nics; i++)
		cr_expect_not_null(catalog_nic(&shipped, nics[i]), "NIC %s", nics[i]);
	for (i = 0; i < sizeof switches / sizeof *switches; i++)
		cr_expect_not_null(catalog_switch(&shipped, switches[i]), "switch %s", switches[i]);
	cr_expect(catalog_fabric(&shipped, "nvswitch-gen3")->nvls);
	cr_expect_not(catalog_fabric(&shipped, "nvswitch-gen2")->nvls);
	/* Every entry of every kind starts with a name and carries a source (required field). */
	for (i = 0; i < catalog_schema.nfields; i++) {
		const struct field *f = &catalog_schema.fields[i];
		const struct vec *v = (const struct vec *)((const char *)&shipped + f->off);
		const struct field *src = schema_field(f->sub, "source");
		size_t j;
		cr_assert_gt(v->n, 0, "catalog %s is not empty", f->key);
		for (j = 0; j < v->n; j++)
			cr_expect(strlen((const char *)v->v + j * f->sub->size + src->off) > 10, "%s %s has a source",
				  f->key, (const char *)v->v + j * f->sub->size);
	}
}

Test(io, catalog_duplicate_names_rejected)
{
	struct catalog c;
	struct ncf_diag diag = { 0 };
	const char *text = "gpus:\n  - {name: x, sm: 80, pcie_gen: 4, pcie_lanes: 16, source: s}\n"
			   "  - {name: x, sm: 90, pcie_gen: 5, pcie_lanes: 16, source: s}\n";
	cr_assert_not(catalog_load_text(text, strlen(text), FMT_YAML, &c, &diag));
	cr_assert_str_eq(diag_get(&diag, 0)->msg, "duplicate GPU name 'x' in the catalog");
	cr_assert_eq(diag_get(&diag, 0)->line, 3);
	diag_free(&diag);
}

Test(io, design_catalog_overrides)
{
	struct design d;
	struct catalog cat;
	const char *text = "ncfabric: 1\nname: o\ncatalog:\n  nics:\n    - {name: my-nic, speed_gbps: 800, ports: 1, "
			   "protocol: roce, pcie_gen: 6, pcie_lanes: 16, source: lab}\n"
			   "servers:\n  - {name: s, count: 2, gpu: h100-sxm5, gpus: 8, scaleup: nvswitch-gen3,"
			   " nics: [{model: my-nic, count: 8}]}\n";
	from_text(text, FMT_YAML, &d);
	design_catalog(&d, &shipped, &cat);
	cr_assert_eq(catalog_nic(&cat, "my-nic")->speed_gbps, 800);
	catalog_free(&cat);
	design_free(&d);
}

static char *trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

Test(io, bad_inputs_give_one_clear_message)
{
	FILE *f = fopen("tests/data/bad/EXPECTED", "r");
	char line[1024];
	int n = 0;
	cr_assert_not_null(f);
	while (fgets(line, sizeof line, f)) {
		char *bar = strchr(trim(line), '|'), path[512], got[1024], shown[1200];
		struct design d, before;
		struct ncf_diag diag = { 0 };
		const struct ncf_problem *p;
		if (!bar || line[0] == '#')
			continue;
		*bar = '\0';
		snprintf(path, sizeof path, "tests/data/bad/%.400s", line);
		memset(&d, 0xA5, sizeof d);
		memcpy(&before, &d, sizeof d);
		cr_assert_not(design_load_file(path, &shipped, &d, &diag), "%s loads", path);
		cr_assert_eq(memcmp(&d, &before, sizeof d), 0, "%s: a failed load changes nothing", path);
		cr_assert_eq(diag.n_errors, 1, "%s: exactly one error, got %d", path, diag.n_errors);
		for (p = diag_get(&diag, 0); p->sev != NCF_ERROR; p++)
			;
		snprintf(got, sizeof got, "%d:%d: %s", p->line, p->col, p->msg);
		/* EXPECTED holds what a terminal shows: the message as the filter prints it. */
		cr_expect_str_eq(safe_str(got, shown, sizeof shown), bar + 1, "%s", path);
		diag_free(&diag);
		n++;
	}
	fclose(f);
	cr_assert_geq(n, 25);
}

Test(io, every_bad_file_has_an_expectation)
{
	DIR *dir = opendir("tests/data/bad");
	struct dirent *e;
	char expected[65536] = "";
	FILE *f = fopen("tests/data/bad/EXPECTED", "r");
	size_t n = fread(expected, 1, sizeof expected - 1, f);
	expected[n] = '\0';
	fclose(f);
	while ((e = readdir(dir))) {
		char key[300];
		if (e->d_name[0] == '.' || strcmp(e->d_name, "EXPECTED") == 0)
			continue;
		snprintf(key, sizeof key, "%s|", e->d_name);
		cr_expect_not_null(strstr(expected, key), "%s has no line in EXPECTED", e->d_name);
	}
	closedir(dir);
}

Test(io, save_is_atomic_and_keeps_a_backup)
{
	char dir[] = "/tmp/ncf-test-XXXXXX", path[600], bak[600], err[256];
	struct design a, b;
	struct stat st;
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/d.yaml", dir);
	snprintf(bak, sizeof bak, "%s/d.yaml~", dir);
	load_or_fail("share/examples/reference-case.yaml", &a);
	cr_assert(design_save(&a, path, err, sizeof err), "%s", err);
	cr_assert_neq(stat(bak, &st), 0, "no backup of a file that did not exist");
	a.job.mfu = 0.5;
	cr_assert(design_save(&a, path, err, sizeof err), "%s", err);
	cr_assert_eq(stat(bak, &st), 0, "the previous version is kept as FILE~");
	load_or_fail(path, &b);
	cr_assert(design_equal(&a, &b));
	design_free(&b);
	load_or_fail(bak, &b);
	cr_assert_float_eq(b.job.mfu, 0.4, 1e-12, "the backup holds the old design");
	design_free(&b);
	/* A directory that cannot be written: the save fails with a message, nothing changes. */
	snprintf(path, sizeof path, "%s/missing/d.yaml", dir);
	cr_assert_not(design_save(&a, path, err, sizeof err));
	cr_assert(strstr(err, "cannot create a file beside"), "%s", err);
	design_free(&a);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	cr_assert_eq(system(path), 0);
}

Test(io, json_positions)
{
	struct ncf_diag diag = { 0 };
	struct design d;
	const char *text = "{\n  \"ncfabric\": 1,\n  \"name\": \"j\",\n  \"servers\": [\n    {\"name\": \"s\", \"count\": 2,"
			   " \"gpu\": \"h100-sxm\", \"gpus\": 8, \"scaleup\": \"nvswitch-gen3\"}\n  ]\n}\n";
	cr_assert_not(design_load_text(text, strlen(text), FMT_JSON, &shipped, &d, &diag));
	cr_assert_eq(diag_get(&diag, 0)->line, 5);
	cr_assert_eq(diag_get(&diag, 0)->col, 38);
	cr_assert_str_eq(diag_get(&diag, 0)->msg, "unknown GPU 'h100-sxm' (did you mean 'h100-sxm5'?)");
	diag_free(&diag);
}

Test(io, format_guess)
{
	cr_assert_eq(format_guess("a.json", "", 0), FMT_JSON);
	cr_assert_eq(format_guess("a.yml", "{", 1), FMT_YAML);
	cr_assert_eq(format_guess("-", "  {\"a\":1}", 9), FMT_JSON);
	cr_assert_eq(format_guess("-", "a: 1", 4), FMT_YAML);
}

/* ncfabric.5 documents every key a file may hold. */
static void keys_documented(const struct schema *s, const char *man)
{
	size_t i;
	for (i = 0; i < s->nfields; i++) {
		const struct field *f = &s->fields[i];
		char bold[80];
		snprintf(bold, sizeof bold, "%s", f->key);
		cr_expect_not_null(strstr(man, bold), "ncfabric.5 does not mention '%s' (%s)", f->key, s->name);
		if (f->type == FT_LIST || f->type == FT_STRUCT)
			keys_documented(f->sub, man);
	}
}

Test(io, man5_documents_every_key)
{
	size_t len;
	char err[128], *man = file_read("share/ncfabric.5", &len, err, sizeof err);
	cr_assert_not_null(man, "%s", err);
	keys_documented(&design_schema, man);
	free(man);
}

/* A file with several mistakes: every one is reported in file order, each at its place. */
Test(io, every_error_of_a_file_is_reported)
{
	struct design d;
	struct ncf_diag diag = { 0 };
	static const char *const want[] = { "6:12: expected a whole number for 'count', got 'four'",
					     "12:9: unknown key 'cout' in NIC entry (did you mean 'count'?)",
					     "15:11: expected leaf, spine or core for 'role', got 'leafx'" };
	size_t i;
	cr_assert_not(design_load_file("tests/data/many-errors.yaml", &shipped, &d, &diag));
	cr_assert_eq(diag.n_errors, 3, "got %d errors", diag.n_errors);
	for (i = 0; i < 3; i++) {
		const struct ncf_problem *p = diag_get(&diag, i);
		char got[400];
		snprintf(got, sizeof got, "%d:%d: %s", p->line, p->col, p->msg);
		cr_expect_str_eq(got, want[i]);
	}
	diag_free(&diag);
}

/* The default design is copied from the image the build decoded (io/builtin.h): the same
 * design, to the byte, as parsing its text gives. */
Test(io, builtin_default_image_is_the_parsed_text)
{
	struct design a, b;
	struct ncf_diag diag = { 0 };
	cr_assert_gt(ncf_builtin_default_image_len, sizeof(struct design), "the default design has problems: no image");
	cr_assert(design_load_text(ncf_builtin_default, ncf_builtin_default_len, FMT_YAML, &shipped, &a, &diag));
	cr_assert(design_load_default(&shipped, &b, &diag));
	cr_assert_eq(diag_count(&diag), 0);
	cr_assert(design_equal(&a, &b));
	cr_assert(same_bytes(&design_schema, &a, &b));
	design_free(&a);
	design_free(&b);
	diag_free(&diag);
}

/* Checked as a loaded design is: against a catalog that lacks its parts, the default design
 * is parsed after all, so that its errors come with their lines. */
Test(io, builtin_default_is_checked_against_the_catalog_given)
{
	struct catalog none;
	struct design d;
	struct ncf_diag diag = { 0 };
	schema_init(&catalog_schema, &none);
	cr_assert_not(design_load_default(&none, &d, &diag));
	cr_assert_gt(diag.n_errors, 0);
	cr_assert_gt(diag_get(&diag, 0)->line, 0, "%s", diag_get(&diag, 0)->msg);
	diag_free(&diag);
}

/* An image is the object again, for every shipped example (lists inside lists: a server
 * group's NICs, the canvas's notes); a cut or padded one is refused and leaves it empty. */
Test(io, schema_image_round_trips)
{
	static const char *files[] = { "share/examples/dgx-h100-1su.yaml", "share/examples/gb200-nvl72.yaml",
				       "share/examples/mixed-generations.yaml", "share/examples/pcie-box.yaml",
				       "share/examples/reference-two-racks.yaml", "share/examples/textbook-mesh.yaml" };
	size_t i;
	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		struct design d, back;
		size_t n;
		unsigned char *img;
		load_or_fail(files[i], &d);
		n = schema_image_write(&design_schema, &d, NULL);
		cr_assert_gt(n, sizeof d);
		img = malloc(n + 1);
		cr_assert_eq(schema_image_write(&design_schema, &d, img), n);
		cr_assert(schema_image_read(&design_schema, &back, img, n), "%s", files[i]);
		cr_assert(design_equal(&d, &back), "%s", files[i]);
		cr_assert(same_bytes(&design_schema, &d, &back), "%s", files[i]);
		design_free(&back);
		cr_assert_not(schema_image_read(&design_schema, &back, img, n - 1));
		cr_assert_eq(back.servers.n + back.switches.n + back.bundles.n, 0);
		img[n] = 0;
		cr_assert_not(schema_image_read(&design_schema, &back, img, n + 1));
		cr_assert_not(schema_image_read(&design_schema, &back, img, sizeof d - 1));
		free(img);
		design_free(&d);
	}
	/* the shipped catalog too: parts holding lists of their own (cable lengths) */
	{
		struct catalog back;
		size_t n = schema_image_write(&catalog_schema, &shipped, NULL);
		unsigned char *img = malloc(n);
		schema_image_write(&catalog_schema, &shipped, img);
		cr_assert(schema_image_read(&catalog_schema, &back, img, n));
		cr_assert(same_bytes(&catalog_schema, &shipped, &back));
		catalog_free(&back);
		free(img);
	}
}

/* The built-in catalog's parts are borrowed, not copied (vec.h): changing the catalog a
 * design makes of them copies the lists it changes, and the built-in parts stay as built. */
Test(io, builtin_catalog_parts_are_borrowed)
{
	struct catalog b, again;
	struct ncf_diag diag = { 0 };
	struct design d;
	size_t ngpus;
	cr_assert(catalog_load_builtin(&b, &diag));
	cr_assert(vec_borrowed(&b.gpus));
	cr_assert(vec_borrowed(&b.switches));
	cr_assert_not(vec_borrowed(&b.cables), "cables hold lists: copied");
	ngpus = b.gpus.n;
	/* a design with a GPU of its own */
	cr_assert(design_load_file("tests/data/validate/rtx4090-p2p-4.yaml", &b, &d, &diag), "%s",
		  diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	catalog_merge_in(&b, &d.catalog);
	cr_assert_not(vec_borrowed(&b.gpus), "changed: its own now");
	cr_assert(vec_borrowed(&b.switches), "unchanged: still borrowed");
	cr_assert_eq(b.gpus.n, ngpus + 1);
	cr_assert_float_eq(catalog_gpu(&b, "rtx-4090-p2p")->memory_GB, 24, 1e-9);
	cr_assert_float_eq(catalog_gpu(&b, "a100-sxm4-80gb")->memory_GB, catalog_gpu(&shipped, "a100-sxm4-80gb")->memory_GB,
			   1e-9);
	/* a push onto a borrowed list copies it first */
	memset(vec_push(&b.switches, sizeof(struct cat_switch)), 0, sizeof(struct cat_switch));
	cr_assert_not(vec_borrowed(&b.switches));
	cr_assert(catalog_load_builtin(&again, &diag));
	cr_assert(schema_equal(&catalog_schema, &again, &shipped), "the built-in parts are as built");
	cr_assert_null(catalog_gpu(&again, "rtx-4090-p2p"));
	catalog_free(&again);
	catalog_free(&b);
	design_free(&d);
	diag_free(&diag);
}

/* Which comments a save leaves out: the leading block (comment and blank lines, each with its
 * newline) is measured in bytes; a '#' in a quoted or block scalar is no comment. */
Test(io, comments_a_save_knows_of)
{
	size_t head;
	const char *a = "# one\n\n  # two\nname: x\n", *b = "# h\nname: 'a # b'\nd: |\n  # text\n";
	const char *c = "# h\nname: x # said\n", *e = "name: x\n", *f = "# é\n# ü\nname: \"é\" # c\n";
	cr_assert(!yaml_comments(a, strlen(a), &head));
	cr_assert_eq(head, 15);
	cr_assert(!yaml_comments(b, strlen(b), &head));
	cr_assert_eq(head, 4);
	cr_assert(yaml_comments(c, strlen(c), &head));
	cr_assert_eq(head, 4);
	cr_assert(!yaml_comments(e, strlen(e), &head));
	cr_assert_eq(head, 0);
	/* libyaml counts characters, not bytes: the UTF-8 before the comment does not shift it. */
	cr_assert(yaml_comments(f, strlen(f), &head));
	cr_assert_eq(head, 10);
	cr_assert(!yaml_comments(f, strlen(f) - 4, &head));
}
