#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "model/design.h"
#include "model/vec.h"

static const struct field *job_field(const char *key)
{
	const struct field *f = schema_field(&job_schema, key);
	cr_assert(f, "job has no field %s", key);
	return f;
}

Test(schema, int_parse_strict)
{
	struct job j;
	char err[256];
	schema_init(&job_schema, &j);
	cr_assert(field_parse(job_field("gpus"), &j, "64", false, err, sizeof err));
	cr_assert_eq(j.gpus, 64);
	cr_assert_not(field_parse(job_field("gpus"), &j, "64", true, err, sizeof err));
	cr_assert_str_eq(err, "expected a whole number for 'gpus', got the string \"64\"");
	cr_assert_not(field_parse(job_field("gpus"), &j, "6.5", false, err, sizeof err));
	cr_assert_str_eq(err, "expected a whole number for 'gpus', got '6.5'");
	cr_assert_not(field_parse(job_field("gpus"), &j, "-3", false, err, sizeof err));
	cr_assert_str_eq(err, "'gpus' must be from 0 to 100000000, got -3");
	cr_assert_not(field_parse(job_field("gpus"), &j, "99999999999999999999", false, err, sizeof err));
	cr_assert_not(field_parse(job_field("gpus"), &j, "0x10", false, err, sizeof err));
	cr_assert_eq(j.gpus, 64, "a refused value leaves the field alone");
}

Test(schema, num_parse_rejects_nan_inf_and_range)
{
	struct job j;
	char err[256];
	schema_init(&job_schema, &j);
	cr_assert(field_parse(job_field("mfu"), &j, "0.45", false, err, sizeof err));
	cr_assert_float_eq(j.mfu, 0.45, 1e-15);
	cr_assert_not(field_parse(job_field("mfu"), &j, ".nan", false, err, sizeof err));
	cr_assert_not(field_parse(job_field("mfu"), &j, "inf", false, err, sizeof err));
	cr_assert_not(field_parse(job_field("mfu"), &j, "1e999", false, err, sizeof err));
	cr_assert_not(field_parse(job_field("mfu"), &j, "1.5", false, err, sizeof err));
	cr_assert_str_eq(err, "'mfu' must be from 0 to 1, got 1.5");
}

Test(schema, bool_enum_string)
{
	struct fabric_opts f;
	struct job j;
	char err[256];
	schema_init(&fabric_opts_schema, &f);
	cr_assert(f.pxn, "pxn defaults on");
	cr_assert(field_parse(schema_field(&fabric_opts_schema, "sharp"), &f, "true", false, err, sizeof err));
	cr_assert(f.sharp);
	cr_assert_not(field_parse(schema_field(&fabric_opts_schema, "sharp"), &f, "yes", false, err, sizeof err));
	cr_assert_str_eq(err, "expected true or false for 'sharp', got 'yes'");
	cr_assert_not(field_parse(schema_field(&fabric_opts_schema, "routing"), &f, "ospf", false, err, sizeof err));
	cr_assert_str_eq(err, "expected ecmp, adaptive or spray for 'routing', got 'ospf'");
	schema_init(&job_schema, &j);
	cr_assert_not(field_parse(job_field("name"), &j, "400", false, err, sizeof err));
	cr_assert_str_eq(err, "expected a string for 'name', got 400 (quote it to use it as text)");
	cr_assert(field_parse(job_field("name"), &j, "400", true, err, sizeof err));
	cr_assert(field_parse(job_field("name"), &j, "GPT-2 1.5B", false, err, sizeof err));
}

Test(schema, special_scalars)
{
	const char *special[] = { "NO", "yes", "~", "", "400", "1.10", "1e3", "0x1F", "1_000", "-.5", "1:30", ".inf" };
	const char *plain[] = { "dgx", "4 x 8 A100", "GPT-2 1.5B", "a100-sxm4-80gb", "0xZZ", "1.5B" };
	size_t i;
	for (i = 0; i < sizeof special / sizeof *special; i++)
		cr_expect(scalar_is_special(special[i]), "'%s' reads as a non-string", special[i]);
	for (i = 0; i < sizeof plain / sizeof *plain; i++)
		cr_expect_not(scalar_is_special(plain[i]), "'%s' is a plain string", plain[i]);
}

Test(schema, num_format_round_trips_exactly)
{
	const double v[] = { 0.1, 1.0 / 3, 989.5, 2250, 9007199254740993.0, 1e-300, 123456.789, 0.4 };
	char buf[64];
	size_t i;
	for (i = 0; i < sizeof v / sizeof *v; i++) {
		num_format(v[i], buf, sizeof buf);
		cr_expect_eq(strtod(buf, NULL), v[i], "%s reads back to %.17g", buf, v[i]);
	}
	cr_assert_str_eq(num_format(0.1, buf, sizeof buf), "0.1");
	cr_assert_str_eq(num_format(2250, buf, sizeof buf), "2250");
}

Test(schema, suggestions)
{
	cr_assert_str_eq(schema_suggest(&server_group_schema, "cout"), "count");
	cr_assert_str_eq(schema_suggest(&server_group_schema, "gpu_count") ? "x" : "none", "none");
	cr_assert_str_eq(schema_suggest(&bundle_schema, "links"), "links_each");
	cr_assert_null(schema_suggest(&bundle_schema, "zzzzzz"));
}

/* Optional fields are left out of files when empty, so their default must be empty too,
 * or a saved design would load back different. */
static void check_optional_defaults(const struct schema *s)
{
	void *obj = calloc(1, s->size);
	size_t i;
	schema_init(s, obj);
	for (i = 0; i < s->nfields; i++) {
		const struct field *f = &s->fields[i];
		if (f->flags & FF_OPTIONAL)
			cr_expect(field_is_empty(f, obj), "%s.%s is optional but not empty by default", s->name, f->key);
		if (f->type == FT_LIST || f->type == FT_STRUCT)
			check_optional_defaults(f->sub);
	}
	schema_free(s, obj);
	free(obj);
}

Test(schema, optional_fields_default_empty)
{
	check_optional_defaults(&design_schema);
	check_optional_defaults(&catalog_schema);
}

/* A vec that borrows read-only elements (the built-in catalog's): push and remove copy them
 * first, release forgets them; the storage it borrowed is never written or freed. */
Test(schema, borrowed_vec_copies_before_it_changes)
{
	static const int parts[3] = { 10, 20, 30 };
	struct vec v = { (void *)(uintptr_t)parts, 3, 0 }, w;
	int *el;
	cr_assert(vec_borrowed(&v));
	w = v;
	vec_release(&w);
	cr_assert_null(w.v);
	cr_assert_eq(w.n, 0);
	el = vec_push(&v, sizeof(int));
	*el = 40;
	cr_assert_not(vec_borrowed(&v));
	cr_assert_geq(v.cap, 4);
	cr_assert_eq(v.n, 4);
	cr_assert_eq(VEC_AT(v, int, 0), 10);
	cr_assert_eq(VEC_AT(v, int, 3), 40);
	vec_release(&v);
	v = (struct vec){ (void *)(uintptr_t)parts, 3, 0 };
	vec_remove(&v, sizeof(int), 0);
	cr_assert_not(vec_borrowed(&v));
	cr_assert_eq(v.n, 2);
	cr_assert_eq(VEC_AT(v, int, 0), 20);
	vec_release(&v);
	v = (struct vec){ (void *)(uintptr_t)parts, 3, 0 };
	vec_own(&v, sizeof(int));
	cr_assert_not(vec_borrowed(&v));
	cr_assert(v.v != (const void *)parts);
	cr_assert_eq(VEC_AT(v, int, 2), 30);
	vec_release(&v);
	cr_assert_eq(parts[0], 10);
	cr_assert_eq(parts[2], 30);
}
