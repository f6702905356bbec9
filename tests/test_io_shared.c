/* What the designer computes once per edit and shares (ports per switch, the check, the
 * inventory, the canvas routes) equals what each computes on its own, on every shipped
 * example, every equivalence design, every template, and designs of many groups built to
 * hit the odd cases (repeated names, peer and mesh bundles, a group bundled to itself). */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/design_io.h"
#include "layouts/place.h"
#include "layouts/template.h"
#include "model/inventory.h"

#include "shipped.h"

TestSuite(shared, .init = setup, .fini = teardown);

#define SETS(dst, s) snprintf((dst), sizeof(dst), "%s", (s))

static void same_everywhere(const struct design *d, const char *what)
{
	struct catalog cat;
	struct ncf_diag a = { 0 }, b = { 0 };
	struct inventory ia;
	struct placement pa, pb;
	long *down = calloc(d->switches.n + 1, sizeof *down), *up = calloc(d->switches.n + 1, sizeof *up);
	size_t i;
	int ea, eb;
	design_catalog(d, &shipped, &cat);
	switch_ports_all(d, down, up);
	for (i = 0; i < d->switches.n; i++) {
		long dn, upl;
		switch_ports_used(d, DESIGN_SWITCH(d, i), &dn, &upl);
		cr_expect_eq(down[i], dn, "%s: switches[%zu] down %ld, alone %ld", what, i, down[i], dn);
		cr_expect_eq(up[i], upl, "%s: switches[%zu] up %ld, alone %ld", what, i, up[i], upl);
	}
	ea = design_check(d, &cat, &a);
	eb = design_check_ports(d, &cat, down, up, &b);
	cr_expect_eq(ea, eb, "%s: errors", what);
	cr_assert_eq(diag_count(&a), diag_count(&b), "%s: problems", what);
	for (i = 0; i < diag_count(&a); i++) {
		cr_expect_str_eq(diag_get(&a, i)->path, diag_get(&b, i)->path, "%s", what);
		cr_expect_str_eq(diag_get(&a, i)->msg, diag_get(&b, i)->msg, "%s", what);
	}
	{
		/* The editor's way: the check and the ports from one resolution of the ends. */
		struct ncf_diag c = { 0 };
		long *dc = calloc(d->switches.n + 1, sizeof *dc), *uc = calloc(d->switches.n + 1, sizeof *uc);
		cr_expect_eq(design_check_count(d, &cat, dc, uc, &c), ea, "%s: errors", what);
		cr_assert_eq(diag_count(&c), diag_count(&a), "%s: problems", what);
		for (i = 0; i < diag_count(&a); i++)
			cr_expect_str_eq(diag_get(&a, i)->msg, diag_get(&c, i)->msg, "%s", what);
		for (i = 0; i < d->switches.n; i++)
			cr_expect(dc[i] == down[i] && uc[i] == up[i], "%s: switches[%zu]", what, i);
		diag_free(&c);
		free(dc);
		free(uc);
	}
	/* The inventory counts ports by the cable plan, link by link: on a design the check
	 * passes, its busiest switch per group is the one the shared count gives. */
	inventory_compute(d, &cat, &ia);
	cr_assert_eq(ia.switch_groups.n, d->switches.n, "%s", what);
	for (i = 0; ea == 0 && i < d->switches.n; i++) {
		const struct inv_switch_group *s = &VEC_AT(ia.switch_groups, struct inv_switch_group, i);
		cr_expect_eq(s->down, down[i], "%s: switches[%zu] down: plan %ld, shared %ld", what, i, s->down, down[i]);
		cr_expect_eq(s->up, s->count > 0 ? up[i] : 0, "%s: switches[%zu] up: plan %ld, shared %ld", what, i, s->up,
			     up[i]);
	}
	place_design(d, 120, 40, &pa);
	place_design(d, 120, 40, &pb);
	place_routes(d, &cat, &pa);
	place_routes_ports(d, &cat, down, up, &pb);
	cr_assert_eq(pa.routes.n, pb.routes.n, "%s", what);
	for (i = 0; i < pa.routes.n; i++) {
		const struct route *x = &VEC_AT(pa.routes, struct route, i), *y = &VEC_AT(pb.routes, struct route, i);
		cr_expect_str_eq(x->label, y->label, "%s: route %zu", what, i);
		cr_expect(x->x1 == y->x1 && x->y1 == y->y1 && x->x2 == y->x2 && x->y2 == y->y2 && x->ymid == y->ymid &&
				  x->lx == y->lx && x->ly == y->ly && x->hidden == y->hidden && x->oversubscribed == y->oversubscribed,
			  "%s: route %zu", what, i);
	}
	placement_free(&pa);
	placement_free(&pb);
	inventory_free(&ia);
	diag_free(&a);
	diag_free(&b);
	catalog_free(&cat);
	free(down);
	free(up);
}

static void every_file(const char *pattern)
{
	glob_t g;
	size_t i;
	cr_assert_eq(glob(pattern, 0, NULL, &g), 0, "%s", pattern);
	for (i = 0; i < g.gl_pathc; i++) {
		struct design d;
		struct ncf_diag diag = { 0 };
		cr_assert(design_load_file(g.gl_pathv[i], &shipped, &d, &diag), "%s", g.gl_pathv[i]);
		same_everywhere(&d, g.gl_pathv[i]);
		design_free(&d);
		diag_free(&diag);
	}
	globfree(&g);
}

Test(shared, examples_and_equivalence_designs)
{
	every_file("share/examples/*.yaml");
	every_file("tests/data/equiv/*.yaml");
}

Test(shared, templates)
{
	size_t i;
	for (i = 0; i < ntemplates; i++) {
		struct tvalues v;
		struct design d;
		char err[400];
		template_defaults(&templates[i], &v);
		design_init(&d);
		cr_assert(template_build(&templates[i], &v, &shipped, &d, err, sizeof err), "%s", err);
		same_everywhere(&d, templates[i].name);
		design_free(&d);
	}
}

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

static void add_pod(struct design *d, const char *name, int count)
{
	struct server_group *g = vec_push(&d->servers, sizeof *g);
	struct nic_spec *n = vec_push(&g->nics, sizeof *n);
	SETS(g->name, name);
	g->count = count;
	SETS(g->gpu, "h100-sxm5");
	g->gpus = 8;
	SETS(g->scaleup, "nvswitch-gen3");
	SETS(n->model, "connectx-7-ndr");
	n->count = 8;
}

/* Many groups, as a user draws pods one by one, with every wiring, and the cases that
 * sharing must not get wrong: a name used twice (leaves, or not: names_of leaf names), leaves
 * linked to leaves (peer), servers to servers (mesh), a group bundled to itself, a bundle to
 * a name nobody has. With every name unique the ends are taken from their resolution, else
 * through the names: both give what comparing names gives. */
static void many_groups(int names_of)
{
	struct design d;
	char name[32], leaf[32];
	int i, wiring[] = { WIRE_TOR, WIRE_RAIL, WIRE_SPREAD };
	design_init(&d);
	SETS(d.name, "odd");
	add_switch(&d, "spine", ROLE_SPINE, 16);
	add_switch(&d, "core", ROLE_CORE, 8);
	for (i = 0; i < 150; i++) {
		snprintf(name, sizeof name, "pod%d", i);
		snprintf(leaf, sizeof leaf, "leaf%d", i % names_of);
		add_pod(&d, name, 1 + i % 5);
		add_switch(&d, leaf, ROLE_LEAF, 1 + i % 8);
		add_bundle(&d, name, leaf, 8, wiring[i % 3]);
		add_bundle(&d, leaf, "spine", 2 + i % 4, wiring[(i + 1) % 3]);
	}
	add_bundle(&d, "leaf1", "leaf2", 2, WIRE_SPREAD);   /* peer */
	add_bundle(&d, "spine", "spine", 1, WIRE_SPREAD);   /* to itself */
	add_bundle(&d, "pod3", "pod4", 1, WIRE_MESH);       /* mesh */
	add_bundle(&d, "spine", "core", 4, WIRE_SPREAD);
	add_bundle(&d, "leaf7", "nowhere", 2, WIRE_SPREAD); /* dangling */
	design_assign_ids(&d);
	cr_assert_eq(design_names_unique(&d), names_of >= 150);
	same_everywhere(&d, names_of >= 150 ? "odd cases, names unique" : "odd cases, names repeated");
	design_free(&d);
}

Test(shared, many_groups_and_odd_cases)
{
	many_groups(140); /* the last ten leaves' names are used twice */
	many_groups(150);
}
