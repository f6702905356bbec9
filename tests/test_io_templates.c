/* Templates: every template builds a valid design with the counts its formulas give, and
 * the superpod template matches NVIDIA's published reference-architecture tables. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/design_io.h"
#include "layouts/place.h"
#include "layouts/template.h"
#include "model/inventory.h"

#include "shipped.h"

TestSuite(templates, .init = setup, .fini = teardown);

/* Build t with "k=v" settings (NULL-terminated), check it, round-trip it through YAML. */
static void build(const char *name, const char *const *sets, struct design *d)
{
	const struct template *t = template_find(name);
	struct tvalues v;
	struct ncf_diag diag = { 0 };
	struct catalog cat;
	struct design back;
	char err[600], *text;
	cr_assert_not_null(t, "template %s", name);
	template_defaults(t, &v);
	for (; sets && *sets; sets++)
		cr_assert(template_set(t, &v, *sets, &shipped, err, sizeof err), "%s", err);
	design_init(d);
	cr_assert(template_build(t, &v, &shipped, d, err, sizeof err), "%s", err);
	design_catalog(d, &shipped, &cat);
	cr_assert_eq(design_check(d, &cat, &diag), 0, "%s: %s", name, diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	catalog_free(&cat);
	diag_free(&diag);
	text = design_to_text(d, FMT_YAML);
	cr_assert(design_load_text(text, strlen(text), FMT_YAML, &shipped, &back, &diag), "%s loads back: %s", name,
		  diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	cr_assert(design_equal(d, &back), "%s round-trips", name);
	design_free(&back);
	diag_free(&diag);
	free(text);
}

static void counts(const struct design *d, struct inventory *inv)
{
	struct catalog cat;
	design_catalog(d, &shipped, &cat);
	inventory_compute(d, &cat, inv);
	catalog_free(&cat);
}

Test(templates, every_template_with_defaults)
{
	size_t i;
	for (i = 0; i < ntemplates; i++) {
		struct design d;
		build(templates[i].name, NULL, &d);
		cr_expect_gt(d.servers.n, 0, "%s has servers", templates[i].name);
		design_free(&d);
	}
}

Test(templates, reference_case_is_the_builtin_default)
{
	struct design a, b;
	struct ncf_diag diag = { 0 };
	build("reference-case", NULL, &a);
	cr_assert(design_load_default(&shipped, &b, &diag));
	cr_assert(design_equal(&a, &b), "the template and share/examples/reference-case.yaml agree");
	design_free(&a);
	design_free(&b);
	diag_free(&diag);
}

Test(templates, fat_tree_matches_the_textbook)
{
	int k;
	for (k = 4; k <= 16; k += 4) {
		char set[32];
		const char *sets[] = { set, NULL };
		struct design d;
		struct inventory inv;
		snprintf(set, sizeof set, "k=%d", k);
		build("fat-tree", sets, &d);
		counts(&d, &inv);
		cr_expect_eq(inv.servers, (long)k * k * k / 4, "k=%d: k^3/4 hosts", k);
		cr_expect_eq(inv.switches[0] + inv.switches[1] + inv.switches[2], 5L * k * k / 4, "k=%d: 5k^2/4 switches", k);
		cr_expect_eq(inv.switches[ROLE_CORE], (long)k * k / 4);
		{
			size_t g;
			for (g = 0; g < inv.switch_groups.n; g++)
				cr_expect_eq(VEC_AT(inv.switch_groups, struct inv_switch_group, g).free, 0,
					     "k=%d: a full fat tree uses every port of %s", k,
					     VEC_AT(inv.switch_groups, struct inv_switch_group, g).name);
		}
		inventory_free(&inv);
		design_free(&d);
	}
	{
		const char *sets[] = { "k=8", "pods=3", NULL };
		struct design d;
		struct inventory inv;
		build("fat-tree", sets, &d);
		counts(&d, &inv);
		cr_expect_eq(inv.servers, 3 * 16, "a partial build: 3 pods of (k/2)^2 hosts");
		cr_expect_eq(inv.switches[ROLE_LEAF], 12);
		inventory_free(&inv);
		design_free(&d);
	}
}

struct ra_row {
	int units, servers, leaf, spine, core;
	long node_leaf, leaf_spine, spine_core;
};

static void superpod_rows(const char *gen, const char *server, const struct ra_row *rows, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		char u[32], g[32], s[64];
		const char *sets[] = { u, g, s, NULL };
		struct design d;
		struct inventory inv;
		snprintf(u, sizeof u, "units=%d", rows[i].units);
		snprintf(g, sizeof g, "generation=%s", gen);
		snprintf(s, sizeof s, "server=%s", server);
		build("superpod", sets, &d);
		counts(&d, &inv);
		cr_expect_eq(inv.servers, rows[i].servers, "%s %d SU: nodes", gen, rows[i].units);
		cr_expect_eq(inv.switches[ROLE_LEAF], rows[i].leaf, "%s %d SU: leaves", gen, rows[i].units);
		cr_expect_eq(inv.switches[ROLE_SPINE], rows[i].spine, "%s %d SU: spines", gen, rows[i].units);
		cr_expect_eq(inv.switches[ROLE_CORE], rows[i].core, "%s %d SU: cores", gen, rows[i].units);
		cr_expect_eq(VEC_AT(inv.bundles, struct inv_link, 0).links, rows[i].node_leaf, "%s %d SU: node-leaf cables",
			     gen, rows[i].units);
		cr_expect_eq(VEC_AT(inv.bundles, struct inv_link, 1).links, rows[i].leaf_spine, "%s %d SU: leaf-spine cables",
			     gen, rows[i].units);
		if (rows[i].core)
			cr_expect_eq(VEC_AT(inv.bundles, struct inv_link, 2).links, rows[i].spine_core,
				     "%s %d SU: spine-core cables", gen, rows[i].units);
		inventory_free(&inv);
		design_free(&d);
	}
}

/* DGX SuperPOD B200 RA, larger-configuration table (hardware.md section 8.2). */
Test(templates, superpod_matches_nvidia_b200_ra)
{
	static const struct ra_row rows[] = {
		{ 2, 64, 16, 8, 0, 512, 512, 0 },
		{ 4, 128, 32, 16, 0, 1024, 1024, 0 },
		{ 8, 256, 64, 32, 0, 2048, 2048, 0 },
		{ 16, 512, 128, 128, 64, 4096, 4096, 4096 },
		{ 32, 1024, 256, 256, 128, 8192, 8192, 8192 },
		{ 64, 2048, 512, 512, 256, 16384, 16384, 16384 },
	};
	superpod_rows("ndr", "dgx-b200", rows, sizeof rows / sizeof rows[0]);
}

/* DGX SuperPOD H100 RA, Table 4 (section 8.1): switch counts; NVIDIA lists 31 nodes per SU
 * (one position goes to UFM), the template fills all 32, so cables are 256 per SU. */
Test(templates, superpod_matches_nvidia_h100_ra_switches)
{
	static const struct ra_row rows[] = {
		{ 1, 32, 8, 4, 0, 256, 256, 0 },
		{ 2, 64, 16, 8, 0, 512, 512, 0 },
		{ 3, 96, 24, 16, 0, 768, 768, 0 },
		{ 4, 128, 32, 16, 0, 1024, 1024, 0 },
	};
	superpod_rows("ndr", "dgx-h100", rows, sizeof rows / sizeof rows[0]);
}

/* DGX SuperPOD B300 XDR RA (section 8.3): 72 nodes per SU. */
Test(templates, superpod_matches_nvidia_xdr_ra)
{
	static const struct ra_row rows[] = {
		{ 1, 72, 8, 4, 0, 576, 576, 0 },
		{ 2, 144, 16, 8, 0, 1152, 1152, 0 },
		{ 4, 288, 32, 18, 0, 2304, 2304, 0 },
		{ 8, 576, 64, 36, 0, 4608, 4608, 0 },
		{ 18, 1296, 144, 72, 0, 10368, 10368, 0 },
	};
	superpod_rows("xdr", "dgx-b200", rows, sizeof rows / sizeof rows[0]);
}

Test(templates, leaf_spine_grid)
{
	static const char *const servers[] = { "servers=2", "servers=17", "servers=64", "servers=256" };
	static const char *const ratios[] = { "oversubscription=1", "oversubscription=2", "oversubscription=3",
					      "oversubscription=4" };
	static const char *const wirings[] = { "wiring=rail", "wiring=tor" };
	size_t a, b, c;
	for (a = 0; a < 4; a++)
		for (b = 0; b < 4; b++)
			for (c = 0; c < 2; c++) {
				const char *sets[] = { servers[a], ratios[b], wirings[c], NULL };
				struct design d;
				build("leaf-spine", sets, &d);
				design_free(&d);
			}
	{
		/* The target ratio is what the leaves get: 64 servers on 2 leaves, 32 x 400G down, 16 up. */
		const char *sets[] = { "servers=64", "nics=1", "oversubscription=2", "wiring=tor", NULL };
		struct design d;
		struct inventory inv;
		build("leaf-spine", sets, &d);
		counts(&d, &inv);
		cr_expect_eq(VEC_AT(inv.switch_groups, struct inv_switch_group, 0).down, 32);
		cr_expect_eq(VEC_AT(inv.switch_groups, struct inv_switch_group, 0).up, 16);
		inventory_free(&inv);
		design_free(&d);
	}
}

/* Past what two tiers join (every leaf on every spine), leaf-spine and nvl72 refuse with
 * the reason instead of building leaves that share no spine (the engine would have called
 * them joined). 257 servers x 8 rails at 1:1: 72 leaves of 29 uplinks need 36 spines. */
Test(templates, two_tiers_refuse_what_needs_a_third)
{
	const struct template *t = template_find("leaf-spine");
	struct tvalues v;
	struct design d;
	char err[600];
	template_defaults(t, &v);
	cr_assert(template_set(t, &v, "servers=257", &shipped, err, sizeof err), "%s", err);
	design_init(&d);
	cr_assert_not(template_build(t, &v, &shipped, &d, err, sizeof err));
	cr_assert(strstr(err, "72 leaves with 29 uplinks each cannot all reach the 36 qm9700 spines"), "%s", err);
	design_free(&d);
	t = template_find("nvl72");
	template_defaults(t, &v);
	cr_assert(template_set(t, &v, "racks=29", &shipped, err, sizeof err), "%s", err);
	design_init(&d);
	cr_assert_not(template_build(t, &v, &shipped, &d, err, sizeof err));
	cr_assert(strstr(err, "need a third tier"), "%s", err);
	design_free(&d);
}

Test(templates, other_grids)
{
	static const char *const nvl[] = { "racks=1", "racks=2", "racks=8", "racks=28" };
	static const char *const rail[] = { "servers=2", "servers=32", "servers=64" };
	static const char *const box[] = { "nics=1", "nics=2" };
	size_t i;
	for (i = 0; i < 4; i++) {
		const char *sets[] = { nvl[i], NULL };
		struct design d;
		struct inventory inv;
		build("nvl72", sets, &d);
		counts(&d, &inv);
		cr_expect_eq(inv.gpus, 72L * atoi(nvl[i] + 6));
		cr_expect_eq(inv.nvswitch_trays, 9L * atoi(nvl[i] + 6));
		inventory_free(&inv);
		design_free(&d);
	}
	for (i = 0; i < 3; i++) {
		const char *sets[] = { rail[i], NULL };
		struct design d;
		build("rail-only", sets, &d);
		cr_expect_eq(d.switches.n, 1);
		cr_expect_eq(DESIGN_SWITCH(&d, 0)->count, 8, "one switch per rail");
		design_free(&d);
	}
	for (i = 0; i < 2; i++) {
		const char *sets[] = { box[i], NULL };
		struct design d;
		build("pcie-box", sets, &d);
		design_free(&d);
	}
}

Test(templates, bad_parameters_name_template_parameter_and_range)
{
	const struct template *t = template_find("leaf-spine");
	struct tvalues v;
	struct design d;
	char err[600];
	template_defaults(t, &v);
	cr_assert_not(template_set(t, &v, "severs=3", &shipped, err, sizeof err));
	cr_assert(strstr(err, "template 'leaf-spine' has no parameter 'severs' (it has: servers, server,"), "%s", err);
	cr_assert_not(template_set(t, &v, "servers=1", &shipped, err, sizeof err));
	cr_assert_str_eq(err, "template 'leaf-spine', parameter 'servers': expected a whole number from 2 to 100000, got '1'");
	cr_assert_not(template_set(t, &v, "wiring=star", &shipped, err, sizeof err));
	cr_assert_str_eq(err, "template 'leaf-spine', parameter 'wiring': expected rail or tor, got 'star'");
	cr_assert_not(template_set(t, &v, "leaf=qm9999", &shipped, err, sizeof err));
	cr_assert_str_eq(err, "template 'leaf-spine', parameter 'leaf': expected a switch from the catalog, got 'qm9999'");
	cr_assert_not(template_set(t, &v, "servers", &shipped, err, sizeof err));
	cr_assert_str_eq(err, "template 'leaf-spine': expected KEY=VALUE, got 'servers'");
	/* A combination that cannot be built says which part runs out. */
	t = template_find("rail-only");
	template_defaults(t, &v);
	cr_assert(template_set(t, &v, "servers=100", &shipped, err, sizeof err));
	design_init(&d);
	cr_assert_not(template_build(t, &v, &shipped, &d, err, sizeof err));
	cr_assert_str_eq(err, "template 'rail-only': rail-only joins each rail on one switch: 100 servers need 100 ports, a qm9700 has 64");
	cr_assert_eq(d.servers.n, 0, "nothing half-built");
	design_free(&d);
}

Test(templates, every_template_places_without_overlap)
{
	static const int sizes[][2] = { { 80, 24 }, { 200, 60 } };
	size_t i, s, a, b;
	for (i = 0; i < ntemplates; i++) {
		struct design d;
		build(templates[i].name, NULL, &d);
		for (s = 0; s < 2; s++) {
			struct placement p;
			place_design(&d, sizes[s][0], sizes[s][1] - 6, &p);
			place_routes(&d, &shipped, &p);
			for (a = 0; a < p.routes.n; a++) {
				const struct route *r = &VEC_AT(p.routes, struct route, a);
				cr_expect(r->y2 <= r->y1 + 1, "%s: %s->%s runs upward", templates[i].name, r->from, r->to);
				cr_expect(r->lx >= 0 && r->lx + (int)strlen(r->label) <= p.w && r->ly >= 0 && r->ly < p.h,
					  "%s: label '%s' inside", templates[i].name, r->label);
			}
			for (a = 0; a < p.blocks.n; a++) {
				const struct block *x = &VEC_AT(p.blocks, struct block, a);
				if (!x->w)
					continue;
				cr_expect(x->x >= 0 && x->x + x->w <= p.w && x->y >= 0 && x->y + x->h <= p.h, "%s: %s inside",
					  templates[i].name, x->name);
				for (b = 0; b < a; b++)
					cr_expect_not(block_overlap(x, &VEC_AT(p.blocks, struct block, b)), "%s: %s overlaps",
						      templates[i].name, x->name);
			}
			placement_free(&p);
		}
		design_free(&d);
	}
}

/* --set goes through the one number parser: 0x10, 1e1 and 007 are refused with the fix
 * (they used to be built as 0 and 1), and an accepted number is kept as written exactly. */
Test(templates, set_numbers_are_strict)
{
	const struct template *t = template_find("leaf-spine");
	struct tvalues v;
	char err[600];
	template_defaults(t, &v);
	cr_assert_not(template_set(t, &v, "servers=0x10", &shipped, err, sizeof err));
	cr_expect_str_eq(err, "template 'leaf-spine', parameter 'servers': expected a whole number from 2 to 100000, got '0x10' (hexadecimal: write 16)");
	cr_assert_not(template_set(t, &v, "nics=0x1", &shipped, err, sizeof err));
	cr_expect_str_eq(err, "template 'leaf-spine', parameter 'nics': expected a whole number from 1 to 16, got '0x1' (hexadecimal: write 1)");
	cr_assert_not(template_set(t, &v, "servers=007", &shipped, err, sizeof err));
	cr_expect_str_eq(err, "template 'leaf-spine', parameter 'servers': expected a whole number from 2 to 100000, got '007' (a leading zero, octal to some readers: write 7)");
	cr_assert_not(template_set(t, &v, "oversubscription=0x2", &shipped, err, sizeof err));
	cr_expect_str_eq(err, "template 'leaf-spine', parameter 'oversubscription': expected a number from 1 to 16, got '0x2' (hexadecimal: write 2)");
	cr_assert(template_set(t, &v, "oversubscription=1e1", &shipped, err, sizeof err), "%s", err);
	cr_expect_str_eq(v.v[7], "10", "a real 1e1 is ten, kept as 10");
	cr_assert(template_set(t, &v, "servers=+40", &shipped, err, sizeof err), "%s", err);
	cr_expect_str_eq(v.v[0], "40");
	t = template_find("superpod");
	template_defaults(t, &v);
	cr_assert_not(template_set(t, &v, "units=1e1", &shipped, err, sizeof err));
	cr_expect_str_eq(err, "template 'superpod', parameter 'units': expected a whole number from 1 to 128, got '1e1' (an exponent: write 10)");
	cr_expect_str_eq(v.v[0], "1", "a refused value leaves the default");
}

/* Templates trust no catalog: parts a --catalog file may describe (a server without
 * compute NICs, a one-port switch) are refused with a reason, never divided by. */
Test(templates, odd_catalog_parts_are_refused_not_divided_by)
{
	struct catalog cat;
	struct cat_server *srv;
	struct cat_switch *sw;
	struct tvalues v;
	struct design d;
	char err[600];
	const struct template *t;
	size_t i;
	memset(&cat, 0, sizeof cat);
	catalog_merge(&cat, &shipped, &(struct catalog){ 0 });
	for (i = 0; i < cat.servers.n; i++) {
		srv = &VEC_AT(cat.servers, struct cat_server, i);
		if (!strcmp(srv->name, "dgx-h100"))
			srv->compute_nics = 0;
	}
	for (i = 0; i < cat.switches.n; i++) {
		sw = &VEC_AT(cat.switches, struct cat_switch, i);
		if (!strcmp(sw->name, "qm9700"))
			sw->ports = 1;
	}
	t = template_find("rail-only");
	template_defaults(t, &v);
	design_init(&d);
	cr_assert_not(template_build(t, &v, &cat, &d, err, sizeof err));
	cr_expect_str_eq(err, "template 'rail-only': a dgx-h100 has no compute NICs to make rails of");
	design_free(&d);
	t = template_find("superpod");
	template_defaults(t, &v);
	design_init(&d);
	cr_assert_not(template_build(t, &v, &cat, &d, err, sizeof err));
	cr_expect_str_eq(err, "template 'superpod': a qm9700 has 1 ports: too few for a non-blocking leaf");
	design_free(&d);
	t = template_find("leaf-spine");
	template_defaults(t, &v);
	design_init(&d);
	cr_assert_not(template_build(t, &v, &cat, &d, err, sizeof err));
	cr_expect_str_eq(err, "template 'leaf-spine': a qm9700 has 1 ports: none left for servers at 1:1");
	design_free(&d);
	catalog_free(&cat);
}
