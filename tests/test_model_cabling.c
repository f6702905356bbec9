/* The cabling plan, the physical layout and the cable plan, against hand-computed values. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include "fixtures.h"
#include "model/bom.h"
#include "model/cableplan.h"
#include "model/inventory.h"

static struct catalog cat;
static struct design d;

static void setup(void)
{
	struct cat_server *s;
	struct cat_switch *w;
	fx_catalog(&cat);
	/* A DGX H100-like box: 10.2 kW, 8U, 8 ports in 4 twin-port cages. */
	s = vec_push(&cat.servers, sizeof *s);
	SETS(s->name, "box");
	SETS(s->gpu, "h100");
	s->gpus = 8;
	SETS(s->scaleup, "nvswitch-gen3");
	s->power_W = 10200;
	s->rack_units = 8;
	s->nic_cages = 4;
	SETS(s->nic_cage, "osfp");
	SETS(s->source, "test");
	/* sw64x400 with 32 twin-port OSFP cages. */
	w = &VEC_AT(cat.switches, struct cat_switch, 1);
	w->cages = 32;
	SETS(w->cage, "osfp");
	memset(&d, 0, sizeof d);
}

static void teardown(void)
{
	design_free(&d);
	catalog_free(&cat);
}

TestSuite(cabling, .init = setup, .fini = teardown);

struct seen {
	long n;
	long to[64][64];      /* [server][link] -> switch */
	int port[64][64];     /* [server][link] -> switch port */
	char used[16][128];   /* [switch][port] */
	bool dup;
};

static void record(const struct cab_link *l, void *v)
{
	struct seen *s = v;
	if (l->bundle == 0 && l->a.member < 64 && l->index % 64 < 64) {
		long link = l->index - l->a.member * DESIGN_BUNDLE(&d, 0)->links_each;
		s->to[l->a.member][link] = l->b.member;
		s->port[l->a.member][link] = l->b.port;
	}
	if (l->b.member < 16 && l->b.port < 128) {
		if (s->used[l->b.member][l->b.port])
			s->dup = true;
		s->used[l->b.member][l->b.port] = 1;
	}
	s->n++;
}

Test(cabling, tor_fills_switches_in_order)
{
	static struct seen s;
	long *down, *up;
	struct inventory inv;
	/* 5 servers, 4 links each, 2 switches: per = ceil(5/2) = 3 servers a switch. */
	fx_clos(&d, 5, 4, WIRE_TOR, 2, 0, 0);
	cr_assert_eq(cabling_walk(&d, &cat, record, &s, NULL), 20);
	cr_expect_eq(s.to[2][3], 0);
	cr_expect_eq(s.to[3][0], 1);
	cr_expect_eq(s.port[2][3], 11, "server 2's last link: the 12th port of switch 0");
	cr_expect_eq(s.port[4][3], 7);
	cabling_switch_use(&d, &cat, 0, &down, &up);
	cr_expect_eq(down[0], 12);
	cr_expect_eq(down[1], 8);
	free(down);
	free(up);
	inventory_compute(&d, &cat, &inv);
	cr_expect_eq(VEC_AT(inv.switch_groups, struct inv_switch_group, 0).down, 12, "the report shows the most any switch uses");
	cr_expect_eq(VEC_AT(inv.switch_groups, struct inv_switch_group, 0).down_total, 20);
	inventory_free(&inv);
	cr_expect_not(s.dup);
}

Test(cabling, rail_puts_nic_i_on_leaf_i_of_its_unit)
{
	static struct seen s;
	/* 64 servers, 8 NICs, 16 leaves: 2 units of 32 servers. */
	fx_clos(&d, 64, 8, WIRE_RAIL, 16, 0, 0);
	cr_assert_eq(cabling_walk(&d, &cat, record, &s, NULL), 512);
	cr_expect_eq(s.to[0][0], 0);
	cr_expect_eq(s.to[0][7], 7);
	cr_expect_eq(s.to[31][7], 7);
	cr_expect_eq(s.to[33][5], 13, "unit 1 (servers 32-63), NIC 5: leaf 8 + 5");
	cr_expect_eq(s.port[33][5], 1, "the second server of its unit: port 1");
	cr_expect_not(s.dup);
}

Test(cabling, spread_and_up_ports_after_the_down_ports)
{
	struct cab_link first = { 0 };
	long *down, *up;
	/* 8 servers x 8 NICs on 1 leaf... no: 64 servers rail on 16 leaves, 32 up each to 8 spines. */
	fx_clos(&d, 64, 8, WIRE_RAIL, 16, 32, 8);
	cabling_switch_use(&d, &cat, 0, &down, &up);
	cr_expect_eq(down[0], 32);
	cr_expect_eq(up[15], 32);
	free(down);
	free(up);
	cabling_switch_use(&d, &cat, 1, &down, &up);
	cr_expect_eq(down[7], 64, "16 leaves x 32 links over 8 spines");
	free(down);
	free(up);
	{
		struct seen *s = calloc(1, sizeof *s);
		cr_assert_eq(cabling_walk(&d, &cat, record, s, NULL), 1024);
		free(s);
	}
	(void)first;
}

struct one {
	long want_bundle, want_index;
	struct cab_link got;
	bool found;
};

static void pick(const struct cab_link *l, void *v)
{
	struct one *o = v;
	if ((long)l->bundle == o->want_bundle && l->index == o->want_index) {
		o->got = *l;
		o->found = true;
	}
}

Test(cabling, spread_link_lands_where_the_rule_says)
{
	struct one o = { 1, 3 * 32 + 9, { 0 }, false };
	fx_clos(&d, 64, 8, WIRE_RAIL, 16, 32, 8);
	cabling_walk(&d, &cat, pick, &o, NULL);
	cr_assert(o.found);
	/* leaf 3, link 9: spine (3*32 + 9) mod 8 = 1; its up port 32 + 9; at spine 1 the
	 * links of leaves 0-2 (4 each) came first: port 12. */
	cr_expect_eq(o.got.b.member, 1);
	cr_expect_eq(o.got.a.port, 41);
	cr_expect_eq(o.got.b.port, 13, "leaves 0-2 gave spine 1 four links each (12), then leaf 3's link 1 and 9");
	cr_expect_eq(o.got.a.cage, 20, "port 41 of 32 twin-port cages: cage 20");
	cr_expect_eq(o.got.a.lane, 1);
}

Test(cabling, server_ports_map_to_twin_cages)
{
	struct one o = { 0, 5, { 0 }, false };
	fx_clos(&d, 4, 8, WIRE_RAIL, 8, 0, 0);
	SETS(DESIGN_SERVER(&d, 0)->model, "box");
	cabling_walk(&d, &cat, pick, &o, NULL);
	cr_assert(o.found);
	cr_expect_eq(o.got.a.port, 5);
	cr_expect_eq(o.got.a.cage, 2, "8 ports over 4 cages: port 5 in cage 2");
	cr_expect_eq(o.got.a.cage_ports, 2);
	cr_expect_eq(o.got.a.nic, 5);
}

Test(cabling, breakout_splits_cages)
{
	struct one o = { 0, 5, { 0 }, false };
	fx_clos(&d, 8, 1, WIRE_TOR, 1, 0, 0);
	DESIGN_SWITCH(&d, 0)->breakout = 2;
	cabling_walk(&d, &cat, pick, &o, NULL);
	cr_assert(o.found);
	/* 2 ports per cage, breakout 2: 4 per cage; port 5 is cage 1, lane 0, sub-port 1. */
	cr_expect_eq(o.got.b.port, 5);
	cr_expect_eq(o.got.b.cage, 1);
	cr_expect_eq(o.got.b.lane, 0);
	cr_expect_eq(o.got.b.sub, 1);
}

Test(cabling, links_to_no_switch_are_problems_not_crashes)
{
	struct ncf_diag p = { 0 };
	fx_clos(&d, 4, 8, WIRE_RAIL, 8, 0, 0);
	DESIGN_SWITCH(&d, 0)->count = 0;
	cr_expect_eq(cabling_walk(&d, &cat, NULL, NULL, &p), 0);
	cr_assert_eq(diag_count(&p), 1);
	cr_expect_str_eq(diag_get(&p, 0)->msg, "srv -> leaf: 32 of 32 links land on no switch (leaf has 0)");
	diag_free(&p);
}

Test(cabling, rail_onto_fewer_switches_than_links)
{
	static struct seen s;
	struct ncf_diag p = { 0 };
	/* Rail on 2 leaves with 8 NICs: link l on leaf l mod 2, 16 per leaf, 4 per server. */
	fx_clos(&d, 4, 8, WIRE_RAIL, 2, 0, 0);
	cr_expect_eq(cabling_walk(&d, &cat, record, &s, &p), 32);
	cr_expect_eq(diag_count(&p), 0);
	cr_expect_eq(s.to[0][0], 0);
	cr_expect_eq(s.to[0][3], 1);
	cr_expect_eq(s.to[3][6], 0);
	cr_expect_eq(s.port[1][5], 6, "server 1's 3rd link to leaf 1, after server 0's 4");
	cr_expect_not(s.dup);
	diag_free(&p);
}

/* Every link of every bundle: which ports it takes at both ends, none twice. */
struct ends {
	long n;
	struct cab_link l[64];
	char used[2][16][64]; /* [server or switch][member][port] */
	bool dup;
};

static void record_ends(const struct cab_link *l, void *v)
{
	struct ends *e = v;
	const struct cab_end *x[2] = { &l->a, &l->b };
	int k;
	if (e->n < 64)
		e->l[e->n] = *l;
	e->n++;
	for (k = 0; k < 2; k++) {
		int kind = x[k]->kind == GK_SERVER ? 0 : 1;
		if (x[k]->member < 16 && x[k]->port < 64) {
			if (e->used[kind][x[k]->member][x[k]->port])
				e->dup = true;
			e->used[kind][x[k]->member][x[k]->port] = 1;
		}
	}
}

Test(cabling, a_bundle_written_in_two_parts_is_wired_as_one)
{
	static struct ends e;
	struct bundle *b;
	/* srv -> leaf rail, 4 + 4 links: as one bundle of 8 on 8 leaves (one unit), link l on
	 * leaf l; as two of 4 they would make 2 units and put server 3's links elsewhere. */
	fx_clos(&d, 4, 8, WIRE_RAIL, 8, 0, 0);
	DESIGN_BUNDLE(&d, 0)->links_each = 4;
	b = vec_push(&d.bundles, sizeof *b);
	*b = *DESIGN_BUNDLE(&d, 0);
	cr_assert_eq(cabling_walk(&d, &cat, record_ends, &e, NULL), 32);
	cr_expect_not(e.dup);
	/* Link 16 is the second part's first: server 0, its port 4, on leaf 4. */
	cr_expect_eq(e.l[16].bundle, 1);
	cr_expect_eq(e.l[16].a.member, 0);
	cr_expect_eq(e.l[16].a.port, 4);
	cr_expect_eq(e.l[16].b.member, 4);
	cr_expect_eq(e.l[16].index, 4, "numbered with the first part's links: member 0, link 4 of 8");
	cr_expect_eq(e.l[31].a.member, 3);
	cr_expect_eq(e.l[31].b.member, 7);
	cr_expect_eq(e.l[31].b.port, 3, "the fourth server on leaf 7");
}

Test(cabling, mesh_links_every_pair_once)
{
	static struct ends e;
	struct bundle *b;
	/* 3 servers, 2 NICs each, linked to each other: 3 pairs, 1 link each. */
	fx_clos(&d, 3, 2, WIRE_TOR, 1, 0, 0);
	b = DESIGN_BUNDLE(&d, 0);
	SETS(b->to, "srv");
	b->links_each = 1;
	b->wiring = WIRE_MESH;
	cr_assert_eq(cabling_walk(&d, &cat, record_ends, &e, NULL), 3);
	cr_expect_not(e.dup);
	/* (0,1): server 0's port 0 (its first peer), server 1's port 0 (its peer 0). */
	cr_expect_eq(e.l[0].a.member, 0);
	cr_expect_eq(e.l[0].a.port, 0);
	cr_expect_eq(e.l[0].b.kind, GK_SERVER);
	cr_expect_eq(e.l[0].b.member, 1);
	cr_expect_eq(e.l[0].b.port, 0);
	/* (1,2): server 1's port 1, server 2's port 1 (its peers are 0 and 1). */
	cr_expect_eq(e.l[2].a.member, 1);
	cr_expect_eq(e.l[2].a.port, 1);
	cr_expect_eq(e.l[2].b.member, 2);
	cr_expect_eq(e.l[2].b.port, 1);
}

Test(cabling, peer_links_after_the_down_ports)
{
	static struct ends e;
	struct bundle *b;
	struct inventory inv;
	long down, up;
	/* 4 servers x 1 NIC on 2 top-of-rack leaves (2 each), the leaves linked by 2 links. */
	fx_clos(&d, 4, 1, WIRE_TOR, 2, 0, 0);
	b = vec_push(&d.bundles, sizeof *b);
	SETS(b->from, "leaf");
	SETS(b->to, "leaf");
	b->links_each = 2;
	cr_assert_eq(cabling_walk(&d, &cat, record_ends, &e, NULL), 6);
	cr_expect_not(e.dup);
	cr_expect_eq(e.l[4].a.member, 0);
	cr_expect_eq(e.l[4].a.port, 2, "after leaf 0's 2 down ports");
	cr_expect_eq(e.l[4].b.member, 1);
	cr_expect_eq(e.l[5].b.port, 3);
	inventory_compute(&d, &cat, &inv);
	switch_ports_used(&d, DESIGN_SWITCH(&d, 0), &down, &up);
	cr_expect_eq(VEC_AT(inv.switch_groups, struct inv_switch_group, 0).up, up, "peer ports as the check counts them");
	cr_expect_eq(VEC_AT(inv.switch_groups, struct inv_switch_group, 0).down, down);
	inventory_free(&inv);
}

Test(cabling, floor_servers_per_rack_and_rows)
{
	struct floor f;
	fx_clos(&d, 64, 8, WIRE_RAIL, 16, 32, 8);
	SETS(DESIGN_SERVER(&d, 0)->model, "box");
	floor_build(&d, &cat, &f);
	/* 40 kW / 10.2 kW = 3 (8U each: 5 would fit 42U); 32-server units: ceil(32/3) = 11 racks a row. */
	cr_expect_eq(f.servers_per_rack[0], 3);
	cr_expect_eq(f.racks_per_row, 11);
	cr_expect_eq(f.rows, 2);
	/* Row 1: 5 server racks, the network rack (8 leaves, then the 8 spines), 6 server racks. */
	cr_expect_str_eq(VEC_AT(f.racks, struct floor_rack, 5).name, "R01-06");
	cr_expect_eq(VEC_AT(f.racks, struct floor_rack, 5).kind, RACK_NETWORK);
	cr_expect_eq(VEC_AT(f.racks, struct floor_rack, 5).devices, 16);
	cr_expect_eq(f.sw[0][0].rack, 5);
	cr_expect_eq(f.sw[0][0].u, 42, "switches stack from the top");
	cr_expect_eq(f.server[0][3].rack, 1);
	cr_expect_eq(f.server[0][3].u, 1);
	cr_expect_eq(f.server[0][32].rack, 12, "unit 2 starts a rack (and a row): R02-01");
	floor_free(&f);
	d.physical.rack_power_kW = 50;
	floor_build(&d, &cat, &f);
	cr_expect_eq(f.servers_per_rack[0], 4, "50 kW: 4 of 10.2 kW");
	floor_free(&f);
}

Test(cabling, floor_cable_lengths)
{
	struct floor f;
	double m;
	fx_clos(&d, 64, 8, WIRE_RAIL, 16, 32, 8);
	SETS(DESIGN_SERVER(&d, 0)->model, "box");
	floor_build(&d, &cat, &f);
	/* dgx-01 (R01-01, U1-8, centre 4U = 0.1778 m) to leaf-01 (R01-06, U42, centre 41.5U):
	 * (1.8669 - 0.1778) + (1.8669 - 1.844675) + 2 x 0.5 riser + 5 racks x 0.6 + 0.5 slack. */
	m = floor_cable_m(&f, &f.server[0][0], &f.sw[0][0]);
	cr_expect(fabs(m - (1.8669 - 0.1778 + 1.8669 - 1.844675 + 1 + 3 + 0.5)) < 1e-9, "%.6f", m);
	/* Within one rack: the height between the two, plus the slack. */
	m = floor_cable_m(&f, &f.server[0][0], &f.server[0][1]);
	cr_expect(fabs(m - (8 * FLOOR_U_M + 0.5)) < 1e-9, "%.6f", m);
	floor_free(&f);
}

Test(cabling, order_lengths)
{
	struct vec l = { 0 };
	double ms[] = { 0.5, 1, 1.5, 2 };
	size_t i;
	cr_expect_eq(cableplan_order_length(NULL, 1.41, true), 1.5);
	cr_expect_eq(cableplan_order_length(NULL, 2.0, true), 2.0);
	cr_expect_eq(cableplan_order_length(NULL, 0.3, false), 1);
	cr_expect_eq(cableplan_order_length(NULL, 4.2, false), 5);
	cr_expect_eq(cableplan_order_length(NULL, 12, false), 15);
	cr_expect_eq(cableplan_order_length(NULL, 52, false), 60);
	for (i = 0; i < 4; i++)
		((struct cat_length *)vec_push(&l, sizeof(struct cat_length)))->m = ms[i];
	cr_expect_eq(cableplan_order_length(&l, 1.2, true), 1.5);
	vec_release(&l);
}

Test(cabling, reference_case_is_dac_by_length)
{
	struct cableplan p;
	fx_reference(&d);
	cableplan_build(&d, &cat, &p, NULL, NULL);
	/* One rack: 4 servers of 4U (height not in the catalog) from U1, the ToR at U42.
	 * Centres 2, 6, 10, 14U and 41.5U; plus 0.5 m slack: 2.26, 2.08, 1.90, 1.72 m. */
	cr_expect_eq(p.floor.racks.n, 1);
	cr_expect_eq(p.by_media[MEDIA_DAC], 16);
	cr_expect_eq(p.cables, 16, "single-port cages: one cable per link");
	cr_expect_eq(p.transceivers, 0);
	cr_assert_eq(p.lines.n, 2);
	cr_expect_eq(VEC_AT(p.lines, struct cp_line, 0).length_m, 2.0);
	cr_expect_eq(VEC_AT(p.lines, struct cp_line, 0).quantity, 8);
	cr_expect_eq(VEC_AT(p.lines, struct cp_line, 1).length_m, 2.5);
	cr_expect_eq(VEC_AT(p.lines, struct cp_line, 1).quantity, 8);
	cableplan_free(&p);
}

Test(cabling, twin_cages_take_one_module_and_a_twin_dac_two_links)
{
	struct cableplan p;
	struct cat_cable *k;
	fx_clos(&d, 4, 8, WIRE_RAIL, 8, 1, 1);
	SETS(DESIGN_SERVER(&d, 0)->model, "box");
	/* Twin-port modules for the box and the switches, and a twin-to-twin DAC. */
	fx_cable(&cat, "twin-sr4", MEDIA_TRANSCEIVER, 400, "osfp", 50);
	k = &VEC_AT(cat.cables, struct cat_cable, cat.cables.n - 1);
	k->ports = 2;
	fx_cable(&cat, "single-sr4", MEDIA_TRANSCEIVER, 400, "osfp", 50);
	fx_cable(&cat, "twin-dac", MEDIA_DAC, 400, "osfp", 2);
	k = &VEC_AT(cat.cables, struct cat_cable, cat.cables.n - 1);
	k->ports = 2;
	DESIGN_BUNDLE(&d, 1)->wiring = WIRE_TOR;
	DESIGN_BUNDLE(&d, 1)->links_each = 2;
	cableplan_build(&d, &cat, &p, NULL, NULL);
	/* 4 boxes x 4 cages (2 links each, to 2 different leaves): 16 twin modules; the
	 * leaves hold one link of each box: 32 single-cage links in 16 twin cages at 8 leaves
	 * (4 ports each: 2 cages each = 16 modules). */
	cr_expect_eq(VEC_AT(p.bundles, struct cp_bundle, 0).optics[0], 16);
	cr_expect_eq(VEC_AT(p.bundles, struct cp_bundle, 0).optics[1], 16);
	cr_expect_eq(VEC_AT(p.bundles, struct cp_bundle, 0).fibres, 32);
	/* leaf -> spine, tor, 2 links each: 8 leaves' twin up cages to the spine's cages,
	 * both links of a cage to one cage (ports 2k, 2k+1): twin DACs in the network rack. */
	cr_expect_eq(VEC_AT(p.bundles, struct cp_bundle, 1).by_media[MEDIA_DAC], 16);
	cr_expect_eq(VEC_AT(p.bundles, struct cp_bundle, 1).cables, 8, "one twin DAC per two links");
	cableplan_free(&p);
}
