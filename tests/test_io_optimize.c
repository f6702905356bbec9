/* The optimiser (layouts/optimize.h): a grid whose optimum is worked out by hand, and a
 * larger one checked against an exhaustive search written here independently. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "io/design_io.h"
#include "io/prices.h"
#include "layouts/optimize.h"
#include "layouts/tune.h"
#include "model/metrics.h"

#include "shipped.h"

TestSuite(optimize, .init = setup, .fini = teardown);

static void load_prices(const char *path, struct price_list *p)
{
	struct ncf_diag diag = { 0 };
	cr_assert(prices_load_file(path, p, &diag), "%s", path);
	diag_free(&diag);
}

static void space_of(const char *name, const char *const *sets, const char *const *vary, struct opt_space *s)
{
	const struct template *t = template_find(name);
	struct tvalues v;
	char err[400];
	cr_assert_not_null(t);
	template_defaults(t, &v);
	for (; sets && *sets; sets++)
		cr_assert(template_set(t, &v, *sets, &shipped, err, sizeof err), "%s", err);
	opt_space_default(t, &v, s);
	for (; vary && *vary; vary++)
		cr_assert(opt_axis_set(s, *vary, &shipped, err, sizeof err), "%s", err);
}

/* The reference case in two racks (prices-reference.yaml): 4 servers x 150,000 + 16 NICs x
 * 1,000 + 4 switches (2 ToRs, 2 spines) x 20,000 + 16 server DACs x 100 = 697,600, plus
 * 2 ToRs x U uplinks DACs x 100: U = 2 gives 698,000, U = 4 698,400. With 2 uplinks the
 * ring's flows collide on fewer links (39.2% efficiency), with 4 less (53.0%): at a target
 * of 40% the cheapest is U = 4, at 30% U = 2. Routing does not matter (the ConnectX-5 do
 * not reorder: adaptive routing falls back to ECMP), so each cost appears twice and the
 * first in grid order (ecmp) is chosen. */
Test(optimize, finds_the_hand_computed_optimum)
{
	static struct opt_space s;
	static const char *const sets[] = { "racks=2", NULL }, *const vary[] = { "uplinks=2,4", NULL };
	struct price_list p;
	struct opt_request r = { 0 };
	struct opt_result res;
	char err[300], text[200];
	space_of("reference-case", sets, vary, &s);
	load_prices("tests/data/prices-reference.yaml", &p);
	cr_assert_eq(opt_space_size(&s), 4);
	r.metric = OPT_EFFICIENCY;
	r.target = 0.40;
	r.bytes = 1 << 30;
	r.prices = &p;
	cr_assert(opt_run(&s, &shipped, &r, &res, err, sizeof err), "%s", err);
	cr_assert_eq(res.priced, 4);
	cr_assert_float_eq(res.c[0].cost, 698000, 1e-6); /* uplinks 2, ecmp */
	cr_assert_float_eq(res.c[1].cost, 698000, 1e-6); /* uplinks 2, adaptive */
	cr_assert_float_eq(res.c[2].cost, 698400, 1e-6);
	cr_assert_geq(res.best, 0);
	cr_assert_float_eq(res.c[res.best].cost, 698400, 1e-6);
	cr_assert_str_eq(opt_candidate_text(&s, &res.c[res.best], text, sizeof text), "uplinks=4, routing=ecmp");
	cr_assert_eq(res.nfront, 2, "both costs are on the front (the dearer is better)");
	opt_result_free(&res);
	r.target = 0.30;
	cr_assert(opt_run(&s, &shipped, &r, &res, err, sizeof err), "%s", err);
	cr_assert_float_eq(res.c[res.best].cost, 698000, 1e-6);
	opt_result_free(&res);
	/* A budget under 698,000 leaves nothing. */
	r.budget = 697999;
	cr_assert(opt_run(&s, &shipped, &r, &res, err, sizeof err), "%s", err);
	cr_assert_eq(res.best, -1);
	opt_result_free(&res);
	price_list_free(&p);
}

/* leaf-spine, 32 DGX H100 (prices-leafspine.yaml), its default grid: oversubscription 1..4
 * x wiring rail, tor x routing ecmp, adaptive; target AllReduce busbw 300 GB/s. The check
 * builds every candidate itself (template_set, template_build, routing) and searches them
 * all: the optimiser must agree on the choice and on the front. */
Test(optimize, agrees_with_an_exhaustive_search)
{
	static struct opt_space s;
	static const char *const sets[] = { "servers=32", NULL };
	static const char *const over[] = { "1", "2", "3", "4" }, *const wire[] = { "rail", "tor" },
				 *const route[] = { "ecmp", "adaptive" };
	const struct template *t = template_find("leaf-spine");
	struct price_list p;
	struct opt_request r = { 0 };
	struct opt_result res;
	struct metrics *m = calloc(1, sizeof *m);
	double cost[16], bw[16], best_cost = HUGE_VAL, front_metric = -1;
	int i, best = -1, nfront = 0, front[16];
	char err[300];
	space_of("leaf-spine", sets, NULL, &s);
	load_prices("tests/data/prices-leafspine.yaml", &p);
	cr_assert_eq(opt_space_size(&s), 16);
	for (i = 0; i < 16; i++) {
		struct tvalues v;
		struct design d;
		struct catalog cat;
		struct bom b;
		struct cost c;
		char kv[64];
		template_defaults(t, &v);
		cr_assert(template_set(t, &v, "servers=32", &shipped, err, sizeof err));
		snprintf(kv, sizeof kv, "oversubscription=%s", over[i / 4]);
		cr_assert(template_set(t, &v, kv, &shipped, err, sizeof err));
		snprintf(kv, sizeof kv, "wiring=%s", wire[(i / 2) % 2]);
		cr_assert(template_set(t, &v, kv, &shipped, err, sizeof err));
		design_init(&d);
		cr_assert(template_build(t, &v, &shipped, &d, err, sizeof err), "%s", err);
		d.fabric.routing = i % 2 ? ROUTE_ADAPTIVE : ROUTE_ECMP;
		(void)route;
		design_catalog(&d, &shipped, &cat);
		metrics_compute(&d, &cat, 1 << 30, 0, m);
		bw[i] = coll_pick(&m->colls[COLL_ALLREDUCE], d.job.algo)->busbw_GBps;
		bom_compute(&d, &cat, &b);
		cost_compute(&b, &cat, &p, 256, 0, 0, &c);
		cr_assert(c.complete, "candidate %d has a line without a price", i);
		cost[i] = c.total;
		if (bw[i] >= 300 && (cost[i] < best_cost || (cost[i] == best_cost && bw[i] > bw[best]))) {
			best = i;
			best_cost = cost[i];
		}
		cost_free(&c);
		bom_free(&b);
		catalog_free(&cat);
		design_free(&d);
	}
	/* The front by hand: sort by cost (then busbw), keep what beats every cheaper one. */
	{
		int order[16], j, k;
		for (i = 0; i < 16; i++)
			order[i] = i;
		for (i = 1; i < 16; i++)
			for (j = i; j > 0; j--) {
				int a = order[j - 1], b = order[j];
				if (cost[b] < cost[a] || (cost[b] == cost[a] && bw[b] > bw[a])) {
					order[j - 1] = b;
					order[j] = a;
				}
			}
		for (k = 0; k < 16; k++)
			if (bw[order[k]] > front_metric + 1e-12 * front_metric) {
				front[nfront++] = order[k];
				front_metric = bw[order[k]];
			}
	}
	r.metric = OPT_BUSBW;
	r.target = 300;
	r.bytes = 1 << 30;
	r.prices = &p;
	cr_assert(opt_run(&s, &shipped, &r, &res, err, sizeof err), "%s", err);
	cr_assert_geq(best, 0);
	cr_assert_eq(res.best, best, "optimiser %ld, exhaustive %d", res.best, best);
	cr_assert_eq(res.nfront, nfront);
	for (i = 0; i < nfront; i++) {
		cr_assert_eq(res.front[i], front[i]);
		cr_assert_float_eq(res.c[front[i]].cost, cost[front[i]], 1e-6);
		cr_assert_float_eq(res.c[front[i]].metric, bw[front[i]], 1e-9);
	}
	/* The choice is not the cheapest candidate: the cheaper ones miss the target. */
	for (i = 0; i < 16; i++)
		if (cost[i] < best_cost)
			cr_assert_lt(bw[i], 300);
	cr_assert_lt(res.c[res.front[0]].cost, best_cost);
	opt_result_free(&res);
	price_list_free(&p);
	free(m);
}

Test(optimize, targets_and_axes_are_strict)
{
	static struct opt_space s;
	int metric;
	double v;
	char err[300];
	cr_assert(opt_target_parse("efficiency=80%", &metric, &v, err, sizeof err));
	cr_assert_eq(metric, OPT_EFFICIENCY);
	cr_assert_float_eq(v, 0.8, 1e-12);
	cr_assert(opt_target_parse("tokens=200000", &metric, &v, err, sizeof err));
	cr_assert_eq(metric, OPT_TOKENS);
	cr_assert(!opt_target_parse("efficiency=1.5", &metric, &v, err, sizeof err));
	cr_assert(strstr(err, "at most 1"), "%s", err);
	cr_assert(!opt_target_parse("speed=3", &metric, &v, err, sizeof err));
	cr_assert(strstr(err, "unknown metric 'speed'"), "%s", err);
	cr_assert(!opt_target_parse("busbw=", &metric, &v, err, sizeof err));
	cr_assert(!opt_target_parse("busbw=-1", &metric, &v, err, sizeof err));
	cr_assert(!opt_target_parse("busbw", &metric, &v, err, sizeof err));
	space_of("leaf-spine", NULL, NULL, &s);
	cr_assert_eq(s.naxes, 3);
	cr_assert(opt_axis_set(&s, "servers=4..6", &shipped, err, sizeof err), "%s", err);
	cr_assert_eq(opt_space_size(&s), 4 * 2 * 2 * 3);
	cr_assert(opt_axis_set(&s, "leaf=*", &shipped, err, sizeof err), "%s", err);
	cr_assert_eq(s.axes[s.naxes - 2].nvalues, (int)shipped.switches.n);
	cr_assert_str_eq(s.axes[s.naxes - 1].name, "routing", "routing stays last");
	cr_assert(!opt_axis_set(&s, "colour=red", &shipped, err, sizeof err));
	cr_assert(strstr(err, "no parameter 'colour'"), "%s", err);
	cr_assert(!opt_axis_set(&s, "wiring=rail,star", &shipped, err, sizeof err));
	cr_assert(!opt_axis_set(&s, "routing=ecmp,magic", &shipped, err, sizeof err));
	cr_assert(strstr(err, "not ecmp, adaptive or spray"), "%s", err);
	cr_assert(!opt_axis_set(&s, "servers=9..2", &shipped, err, sizeof err));
	cr_assert(!opt_axis_set(&s, "servers=1,", &shipped, err, sizeof err));
	cr_assert(!opt_axis_set(&s, "servers=", &shipped, err, sizeof err));
}

/* ---- the designer's search over a design's own parameters (layouts/tune.h) ------------ */

static void design_of(const char *name, const char *set, struct design *d)
{
	const struct template *t = template_find(name);
	struct tvalues v;
	char err[300];
	template_defaults(t, &v);
	if (set)
		cr_assert(template_set(t, &v, set, &shipped, err, sizeof err), "%s", err);
	design_init(d);
	cr_assert(template_build(t, &v, &shipped, d, err, sizeof err), "%s", err);
}

/* The reference case's NICs by hand (prices-reference.yaml): each NIC is 1,000 and its DAC
 * 100 on 4 servers, so 2 NICs per server cost 637,600 - 8 x 1,100 = 628,800 and 8 NICs
 * 637,600 + 16 x 1,100 = 655,200; at 90% efficiency only 8 NICs reach it. */
Test(optimize, tune_the_designs_nics_by_hand)
{
	static struct tune_space s;
	struct design d;
	struct price_list p;
	struct opt_request r = { 0 };
	struct opt_result res;
	char err[300], text[200];
	design_of("reference-case", NULL, &d);
	load_prices("tests/data/prices-reference.yaml", &p);
	tune_space_default(&d, &shipped, &s);
	cr_assert(tune_axis_set(&s, "tor.model=sn2700", &shipped, err, sizeof err), "%s", err);
	cr_assert(tune_axis_set(&s, "routing=ecmp", &shipped, err, sizeof err), "%s", err);
	cr_assert_eq(tune_space_size(&s), 3, "a100.nics = 2, 4, 8");
	cr_assert_not(tune_axis_set(&s, "a100.nics=0", &shipped, err, sizeof err));
	cr_assert_not(tune_axis_set(&s, "tor.model=nosuch", &shipped, err, sizeof err));
	cr_assert(strstr(err, "no switch 'nosuch'"), "%s", err);
	cr_assert_eq(tune_space_size(&s), 3, "a refused axis leaves the space as it was");
	r.metric = OPT_EFFICIENCY;
	r.target = 0.9;
	r.bytes = 1 << 30;
	r.prices = &p;
	cr_assert(tune_run(&s, &shipped, &r, &res, err, sizeof err), "%s", err);
	cr_assert_eq(res.priced, 3);
	cr_assert_float_eq(res.c[0].cost, 628800, 1e-6);
	cr_assert_float_eq(res.c[1].cost, 637600, 1e-6);
	cr_assert_float_eq(res.c[2].cost, 655200, 1e-6);
	cr_assert_eq(res.best, 2);
	cr_assert_str_eq(tune_candidate_text(&s, &res.c[2], text, sizeof text), "a100.nics=8");
	cr_assert_str_eq(tune_candidate_text(&s, &res.c[1], text, sizeof text), "the design as it is");
	cr_assert_eq(res.nfront, 3, "each more NIC buys efficiency");
	opt_result_free(&res);
	price_list_free(&p);
	design_free(&d);
}

/* The two-rack reference case searched as a design (tor->spine.links) gives what the
 * template's search gives for its uplinks (finds_the_hand_computed_optimum): 698,000 and
 * 698,400 USD, and at 40% the 4 uplinks the design already has. A candidate with more
 * uplinks than a switch has ports is not built, with the check's reason. */
Test(optimize, tune_agrees_with_the_templates_search)
{
	static struct tune_space s;
	struct design d;
	struct price_list p;
	struct opt_request r = { 0 };
	struct opt_result res;
	char err[300], text[200];
	design_of("reference-case", "racks=2", &d);
	load_prices("tests/data/prices-reference.yaml", &p);
	tune_space_default(&d, &shipped, &s);
	cr_assert(tune_axis_set(&s, "tor->spine.links=2,4,40", &shipped, err, sizeof err), "%s", err);
	cr_assert(tune_axis_set(&s, "a100.nics=4", &shipped, err, sizeof err), "%s", err);
	cr_assert(tune_axis_set(&s, "tor.model=sn2700", &shipped, err, sizeof err), "%s", err);
	cr_assert(tune_axis_set(&s, "spine.model=sn2700", &shipped, err, sizeof err), "%s", err);
	cr_assert(tune_axis_set(&s, "routing=ecmp", &shipped, err, sizeof err), "%s", err);
	cr_assert_eq(tune_space_size(&s), 3);
	r.metric = OPT_EFFICIENCY;
	r.target = 0.40;
	r.bytes = 1 << 30;
	r.prices = &p;
	cr_assert(tune_run(&s, &shipped, &r, &res, err, sizeof err), "%s", err);
	cr_assert_float_eq(res.c[0].cost, 698000, 1e-6);
	cr_assert_float_eq(res.c[1].cost, 698400, 1e-6);
	cr_assert_float_eq(res.c[0].metric, 0.392, 0.0005);
	cr_assert_float_eq(res.c[1].metric, 0.530, 0.0005);
	cr_assert_not(res.c[2].built, "40 uplinks per ToR do not fit a 32-port switch");
	cr_assert(res.c[2].why[0], "and it says why");
	cr_assert_eq(res.best, 1);
	cr_assert_str_eq(tune_candidate_text(&s, &res.c[1], text, sizeof text), "the design as it is");
	opt_result_free(&res);
	price_list_free(&p);
	design_free(&d);
}

/* The NIC and switch models `ncfabric optimize` adds by default: the same protocol and port
 * speed only. The shipped InfiniBand parts have one per speed (no axis); the 200G Ethernet
 * SN4600 has the SN3700 beside it (32 ports), the ConnectX-6 Dx 200G no twin. */
Test(optimize, same_speed_parts_join_the_default_grid)
{
	static struct opt_space s;
	static const char *const ib[] = { "servers=32", NULL },
			       *const eth[] = { "servers=32", "leaf=sn4600", "spine=sn4600", "nic=connectx-6dx-200g", NULL };
	int i;
	space_of("leaf-spine", ib, NULL, &s);
	opt_space_parts(&s, &shipped);
	cr_assert_eq(opt_space_size(&s), 16, "NDR: one switch and one NIC at 400G");
	space_of("leaf-spine", eth, NULL, &s);
	opt_space_parts(&s, &shipped);
	cr_assert_eq(opt_space_size(&s), 64);
	cr_assert_str_eq(s.axes[s.naxes - 1].name, "routing", "routing stays last");
	for (i = 0; i < s.naxes; i++)
		if (!strcmp(s.axes[i].name, "leaf")) {
			cr_assert_eq(s.axes[i].nvalues, 2);
			cr_assert_str_eq(s.axes[i].values[0], "sn4600", "the value first");
			cr_assert_str_eq(s.axes[i].values[1], "sn3700");
		}
}
