/* NCCL's double binary tree counted by runs (model/route.c: only edges spanning a boundary
 * where the group or the block changes are looked at) against the count node by node, on
 * the shipped examples, every design under tests/data, every template at several sizes and
 * designs drawn from fuzz bytes (tests/fuzz/model_gen.c), each for the world communicator
 * and strided, offset and split ones (DP and PP shapes). The two must agree exactly. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "io/design_io.h"
#include "layouts/template.h"
#include "model/route.h"
#include "model/topo.h"
#include "tests/fuzz/model_gen.h"

#include "shipped.h"

TestSuite(trees, .init = setup, .fini = teardown);

static int spans_checked;

static void agree(const struct design *d, const struct catalog *cat, const char *what)
{
	struct topo t;
	struct span sp[6];
	int ns = 0, q;
	long n;
	char why[200];
	topo_build(d, cat, 0, &t);
	n = t.nodes;
	if (n >= 2 && n <= 200000) {
		sp[ns++] = span_all(n);
		if (n >= 4) { /* two halves side by side */
			sp[ns] = span_all(n / 2);
			sp[ns].count = 2;
			sp[ns].stride = n / 2;
			ns++;
		}
		if (n >= 6) { /* three interleaved: nodes 3 apart (a PP or DP stride) */
			sp[ns] = span_all(n / 3);
			sp[ns].count = 3;
			sp[ns].stride = 1;
			sp[ns].step = 3;
			ns++;
		}
		if (n >= 10) { /* odd nodes only */
			sp[ns] = span_all((n - 1) / 2);
			sp[ns].first = 1;
			sp[ns].step = 2;
			ns++;
		}
		if (n >= 7) { /* an offset, odd or even length */
			sp[ns] = span_all(n - 3);
			sp[ns].first = 2;
			ns++;
		}
	}
	for (q = 0; q < ns; q++) {
		cr_assert(route_tree_counts_agree(&t, &sp[q], why, sizeof why),
			  "%s, span %d (first %ld len %ld count %ld stride %ld step %ld): %s", what, q, sp[q].first, sp[q].len,
			  sp[q].count, sp[q].stride, sp[q].step, why);
		spans_checked++;
	}
	topo_free(&t);
}

static void agree_file(const struct design *d, const struct catalog *cat, const char *path, void *arg)
{
	(void)arg;
	agree(d, cat, path);
}

static void agree_files(const char *pattern)
{
	shipped_each_design(pattern, agree_file, NULL);
}

Test(trees, by_runs_equals_node_by_node_on_files)
{
	spans_checked = 0;
	agree_files("share/examples/*.yaml");
	agree_files("tests/data/*.yaml");
	agree_files("tests/data/*/*.yaml");
	cr_assert_gt(spans_checked, 100, "%d spans", spans_checked);
}

Test(trees, by_runs_equals_node_by_node_on_templates)
{
	static const char *const sets[][3] = {
		{ "fat-tree", "k=4", NULL },	 { "fat-tree", "k=8", "pods=3" },   { "fat-tree", "k=12", NULL },
		{ "fat-tree", "k=16", "pods=5" }, { "superpod", "units=1", NULL },   { "superpod", "units=3", NULL },
		{ "superpod", "units=4", NULL }, { "nvl72", "racks=3", NULL },	    { "nvl72", "racks=8", NULL },
		{ "leaf-spine", "servers=7", "wiring=tor" }, { "leaf-spine", "servers=33", NULL },
		{ "leaf-spine", "servers=257", "oversubscription=3" }, { "leaf-spine", "servers=256", NULL },
	};
	size_t i;
	spans_checked = 0;
	for (i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		const struct template *t = template_find(sets[i][0]);
		struct tvalues v;
		struct design d;
		struct catalog merged;
		char err[600], what[64];
		int k;
		cr_assert_not_null(t, "%s", sets[i][0]);
		template_defaults(t, &v);
		for (k = 1; k < 3 && sets[i][k]; k++)
			cr_assert(template_set(t, &v, sets[i][k], &shipped, err, sizeof err), "%s", err);
		design_init(&d);
		cr_assert(template_build(t, &v, &shipped, &d, err, sizeof err), "%s", err);
		design_catalog(&d, &shipped, &merged);
		snprintf(what, sizeof what, "%s %s %s", sets[i][0], sets[i][1], sets[i][2] ? sets[i][2] : "");
		agree(&d, &merged, what);
		catalog_free(&merged);
		design_free(&d);
	}
	cr_assert_gt(spans_checked, 50, "%d spans", spans_checked);
}

Test(trees, by_runs_equals_node_by_node_on_fuzz_designs)
{
	struct catalog cat;
	unsigned long long x = 88172645463325252ULL;
	int i, designs = 0;
	model_gen_catalog(&cat);
	spans_checked = 0;
	for (i = 0; i < 150; i++) {
		uint8_t buf[256];
		size_t k;
		struct design d;
		struct ncf_diag diag = { 0 };
		char what[32];
		for (k = 0; k < sizeof buf; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[k] = (uint8_t)x;
		}
		model_gen_design(buf, 64 + (size_t)(x % 192), &cat, &d);
		if (design_check(&d, &cat, &diag) == 0) {
			snprintf(what, sizeof what, "fuzz design %d", i);
			agree(&d, &cat, what);
			designs++;
		}
		diag_free(&diag);
		design_free(&d);
	}
	catalog_free(&cat);
	cr_assert_gt(designs, 10, "%d designs pass the check", designs);
}
