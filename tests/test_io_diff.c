/* Comparing two designs: the changes found over the schema, the headline numbers and their
 * deltas (checked against numbers derived by hand from the catalog), and the JSON form. */
#include <criterion/criterion.h>
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "io/design_io.h"
#include "io/diff.h"

#include "shipped.h"

TestSuite(diff, .init = setup, .fini = teardown);

static void load(const char *path, struct design *d)
{
	struct ncf_diag diag = { 0 };
	cr_assert(design_load_file(path, &shipped, d, &diag), "%s", path);
	diag_free(&diag);
}

static int collect(const struct design *d, struct headline *h)
{
	struct catalog cat;
	int n;
	design_catalog(d, &shipped, &cat);
	n = headlines_of(d, &cat, 1024.0 * 1024 * 1024, h, HEADLINES_MAX);
	catalog_free(&cat);
	return n;
}

static const struct headline *find(const struct headline *h, int n, const char *key)
{
	int i;
	for (i = 0; i < n; i++)
		if (strcmp(h[i].key, key) == 0)
			return &h[i];
	cr_assert_fail("no headline '%s'", key);
	return NULL;
}

static const char *change(const struct vec *v, size_t i, char *buf, size_t size)
{
	cr_assert_lt(i, v->n);
	return change_text(&VEC_AT(*v, struct design_change, i), buf, size);
}

Test(diff, a_design_equals_itself)
{
	struct design a, b;
	struct vec changes = { 0 };
	struct headline ha[HEADLINES_MAX], hb[HEADLINES_MAX];
	int n, k, verdict;
	char buf[64];
	load("share/examples/dgx-h100-1su.yaml", &a);
	load("share/examples/dgx-h100-1su.yaml", &b);
	{ /* placed on the canvas: layout, not a change */
		struct position *p = vec_push(&b.canvas.positions, sizeof *p);
		snprintf(p->block, sizeof p->block, "leaf");
		p->x = 7;
	}
	cr_assert_eq(design_diff(&a, &b, &changes), 0);
	n = collect(&a, ha);
	cr_assert_eq(collect(&b, hb), n);
	cr_assert_geq(n, 20);
	for (k = 0; k < n; k++) {
		cr_expect_str_eq(headline_delta(&ha[k], &hb[k], &verdict, buf, sizeof buf), "=", "%s", ha[k].key);
		cr_expect_eq(verdict, 0);
	}
	vec_release(&changes);
	design_free(&a);
	design_free(&b);
}

/* Twice the NICs on the reference case, each wired to the ToR (what + does inside a
 * server): two changes, and the ceiling doubles. */
Test(diff, more_nics_on_the_reference_case)
{
	struct design a, b;
	struct vec changes = { 0 };
	struct headline ha[HEADLINES_MAX], hb[HEADLINES_MAX];
	const struct headline *x, *y;
	int n, verdict;
	char buf[200];
	load("share/examples/reference-case.yaml", &a);
	design_copy(&b, &a);
	VEC_AT(DESIGN_SERVER(&b, 0)->nics, struct nic_spec, 0).count = 8;
	DESIGN_BUNDLE(&b, 0)->links_each = 8;
	cr_assert_eq(design_diff(&a, &b, &changes), 2);
	cr_expect_str_eq(change(&changes, 0, buf, sizeof buf), "server group 'a100': nics[0].count 4 -> 8");
	cr_expect_str_eq(change(&changes, 1, buf, sizeof buf), "bundle 'a100 -> tor': links_each 4 -> 8");
	n = collect(&a, ha);
	collect(&b, hb);
	(void)n;
	/* 4 (8) x 100 Gb/s per server = 50 (100) GB/s. */
	x = find(ha, n, "node_ceiling");
	y = find(hb, n, "node_ceiling");
	cr_expect_float_eq(x->value, 50.0, 1e-9);
	cr_expect_float_eq(y->value, 100.0, 1e-9);
	cr_expect_str_eq(headline_delta(x, y, &verdict, buf, sizeof buf), "+50.0 (+100%)");
	cr_expect_eq(verdict, 1, "a higher ceiling is better");
	cr_expect_str_eq(headline_value(y, buf, sizeof buf), "100.0 GB/s");
	/* 32 GPUs, 4 servers, one ToR: unchanged; 16 -> 32 cables. */
	cr_expect_float_eq(find(ha, n, "gpus")->value, 32, 1e-9);
	cr_expect_float_eq(find(ha, n, "links")->value, 16, 1e-9);
	cr_expect_float_eq(find(hb, n, "links")->value, 32, 1e-9);
	cr_expect_str_eq(headline_delta(find(ha, n, "links"), find(hb, n, "links"), &verdict, buf, sizeof buf),
			 "+16 (+100%)");
	cr_expect_eq(verdict, 0, "more cables is neither better nor worse");
	/* The step gets shorter: lower is better. */
	x = find(ha, n, "step_ms");
	y = find(hb, n, "step_ms");
	cr_expect_lt(y->value, x->value);
	headline_delta(x, y, &verdict, buf, sizeof buf);
	cr_expect_eq(verdict, 1, "a shorter step is better: %s", buf);
	cr_expect_gt(find(hb, n, "speedup")->value, find(ha, n, "speedup")->value);
	vec_release(&changes);
	design_free(&a);
	design_free(&b);
}

Test(diff, groups_added_removed_and_fields_changed)
{
	struct design a, b;
	struct vec changes = { 0 };
	struct switch_group *s;
	char buf[300];
	load("share/examples/dgx-h100-1su.yaml", &a);
	design_copy(&b, &a);
	vec_remove(&b.bundles, sizeof(struct bundle), 1);    /* leaf -> spine */
	vec_remove(&b.switches, sizeof(struct switch_group), 1); /* spine */
	s = vec_push(&b.switches, sizeof *s);
	snprintf(s->name, sizeof s->name, "spare");
	snprintf(s->model, sizeof s->model, "qm9700");
	s->count = 2;
	b.fabric.routing = 0;
	cr_assert_eq(design_diff(&a, &b, &changes), 4);
	cr_expect_str_eq(change(&changes, 0, buf, sizeof buf),
			 "switch group 'spine' removed (role spine, count 4, model qm9700, breakout 1)");
	cr_expect_str_eq(change(&changes, 1, buf, sizeof buf), "switch group 'spare' added (role leaf, count 2, model qm9700)");
	cr_expect_str_eq(change(&changes, 2, buf, sizeof buf),
			 "bundle 'leaf -> spine' removed (links_each 32, wiring spread, media auto)");
	cr_expect_str_eq(change(&changes, 3, buf, sizeof buf), "fabric: routing adaptive -> ecmp");
	vec_release(&changes);
	design_free(&a);
	design_free(&b);
}

Test(diff, json_reads_back)
{
	struct design a, b;
	struct vec changes = { 0 };
	struct headline ha[HEADLINES_MAX], hb[HEADLINES_MAX];
	struct diff_in in;
	char *text;
	cJSON *root, *e;
	int n;
	load("share/examples/reference-case.yaml", &a);
	design_copy(&b, &a);
	DESIGN_SERVER(&b, 0)->count = 8;
	design_diff(&a, &b, &changes);
	n = collect(&a, ha);
	collect(&b, hb);
	in = (struct diff_in){ a.name, "a.yaml", b.name, "b.yaml", 1024.0 * 1024 * 1024, &changes, ha, hb, n };
	text = diff_json(&in);
	cr_assert_not_null(text);
	root = cJSON_Parse(text);
	cr_assert_not_null(root, "%s", text);
	e = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "changes"), 0);
	cr_expect_str_eq(cJSON_GetObjectItem(e, "kind")->valuestring, "changed");
	cr_expect_str_eq(cJSON_GetObjectItem(e, "object")->valuestring, "server group 'a100'");
	cr_expect_str_eq(cJSON_GetObjectItem(e, "field")->valuestring, "count");
	cr_expect_str_eq(cJSON_GetObjectItem(e, "b")->valuestring, "8");
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "numbers")), n);
	e = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "numbers"), 0);
	cr_expect_str_eq(cJSON_GetObjectItem(e, "key")->valuestring, "gpus");
	cr_expect_float_eq(cJSON_GetObjectItem(e, "a")->valuedouble, 32, 1e-9);
	cr_expect_float_eq(cJSON_GetObjectItem(e, "b")->valuedouble, 64, 1e-9);
	cr_expect_float_eq(cJSON_GetObjectItem(e, "delta")->valuedouble, 32, 1e-9);
	cr_expect_str_eq(cJSON_GetObjectItem(e, "verdict")->valuestring, "changed");
	cJSON_Delete(root);
	free(text);
	vec_release(&changes);
	design_free(&a);
	design_free(&b);
}
