#include <criterion/criterion.h>
#include "topo_helpers.h"
#include "layouts/place.h"
#include <stdlib.h>

static void add_switch(struct design *d, const char *name, int role, int count)
{
	struct switch_group *s = vec_push(&d->switches, sizeof *s);
	SETS(s->name, name);
	s->role = role;
	s->count = count;
	SETS(s->model, "sw64x400");
	s->breakout = 1;
	s->id = d->next_id++;
}

static void no_overlap(const struct placement *p)
{
	size_t i, j;
	for (i = 0; i < p->blocks.n; i++) {
		const struct block *a = &VEC_AT(p->blocks, struct block, i);
		if (a->w == 0)
			continue;
		cr_expect(a->x >= 0 && a->y >= 0 && a->x + a->w <= p->w && a->y + a->h <= p->h,
			  "%s inside %dx%d: %d,%d %dx%d", a->name, p->w, p->h, a->x, a->y, a->w, a->h);
		for (j = 0; j < i; j++)
			cr_expect_not(block_overlap(a, &VEC_AT(p->blocks, struct block, j)), "%s overlaps %s", a->name,
				      VEC_AT(p->blocks, struct block, j).name);
	}
}

Test(place, tiers_are_rows_core_on_top)
{
	struct design d;
	struct placement p;
	fx_reference(&d);
	add_switch(&d, "spine", ROLE_SPINE, 4);
	add_switch(&d, "core", ROLE_CORE, 2);
	place_design(&d, 80, 20, &p);
	cr_assert_eq(placement_find(&p, "core")->y, (20 - (3 * 5 + PLACE_BOX_H)) / 2, "centred: gap (20-3)/3 = 5");
	cr_assert_lt(placement_find(&p, "spine")->y, placement_find(&p, "tor")->y);
	cr_assert_lt(placement_find(&p, "tor")->y, placement_find(&p, "a100")->y);
	cr_assert_eq(placement_find(&p, "a100")->y, placement_find(&p, "core")->y + 3 * 5, "servers on the bottom row");
	cr_assert_leq(placement_find(&p, "a100")->y + PLACE_BOX_H, 20);
	no_overlap(&p);
	placement_free(&p);
	design_free(&d);
}

Test(place, many_blocks_fit_without_overlap)
{
	struct design d;
	struct placement p;
	char name[16];
	int i, sizes[][2] = { { 80, 24 }, { 200, 60 }, { 40, 12 } };
	size_t s;
	fx_reference(&d);
	for (i = 0; i < 12; i++) {
		snprintf(name, sizeof name, "leaf%d", i);
		add_switch(&d, name, ROLE_LEAF, 1);
	}
	for (s = 0; s < 3; s++) {
		size_t k, more = 0;
		place_design(&d, sizes[s][0], sizes[s][1], &p);
		no_overlap(&p);
		for (k = 0; k < p.blocks.n; k++)
			more += VEC_AT(p.blocks, struct block, k).kind == GK_NONE;
		cr_expect_eq(more, sizes[s][0] < 13 * PLACE_MIN_W, "a '+N more' block only when the row is full (%dx%d)",
			     sizes[s][0], sizes[s][1]);
		placement_free(&p);
	}
	design_free(&d);
}

Test(place, pinned_blocks_stay_and_others_avoid_them)
{
	struct design d;
	struct placement p;
	struct position *pos;
	fx_reference(&d);
	pos = vec_push(&d.canvas.positions, sizeof *pos);
	SETS(pos->block, "tor");
	pos->x = 30;
	pos->y = 14;
	place_design(&d, 80, 20, &p);
	cr_assert_eq(placement_find(&p, "tor")->x, 30);
	cr_assert_eq(placement_find(&p, "tor")->y, 14);
	cr_assert(placement_find(&p, "tor")->pinned);
	no_overlap(&p);
	placement_free(&p);
	design_free(&d);
}

Test(place, notes_stay_where_the_user_put_them)
{
	struct design d;
	struct placement p;
	struct note *n;
	fx_reference(&d);
	n = vec_push(&d.canvas.notes, sizeof *n);
	SETS(n->text, "rack row B");
	n->x = 2;
	n->y = 8;
	place_design(&d, 80, 20, &p);
	cr_assert_not_null(placement_find(&p, "note 1"));
	cr_assert_eq(placement_find(&p, "note 1")->x, 2);
	cr_assert_eq(placement_find(&p, "note 1")->y, 8);
	cr_assert_str_eq(placement_find(&p, "note 1")->label, "rack row B");
	no_overlap(&p);
	placement_free(&p);
	design_free(&d);
}

Test(place, stable_under_count_changes)
{
	struct design d;
	struct placement a, b;
	fx_reference(&d);
	add_switch(&d, "leaf2", ROLE_LEAF, 1);
	place_design(&d, 80, 24, &a);
	DESIGN_SWITCH(&d, 0)->count = 100; /* the label grows by two characters */
	place_design(&d, 80, 24, &b);
	cr_assert_eq(placement_find(&a, "leaf2")->x, placement_find(&b, "leaf2")->x, "a neighbour does not move");
	cr_assert_leq(abs(placement_find(&a, "tor")->x - placement_find(&b, "tor")->x), 1);
	placement_free(&a);
	placement_free(&b);
	design_free(&d);
}

Test(place, routes_join_blocks_and_label_count_speed_ratio)
{
	struct design d;
	struct placement p;
	struct catalog cat;
	const struct route *r;
	fx_catalog(&cat);
	fx_reference(&d);
	add_switch(&d, "spine", ROLE_SPINE, 2);
	DESIGN_SWITCH(&d, 0)->model[0] = '\0';
	snprintf(DESIGN_SWITCH(&d, 0)->model, sizeof DESIGN_SWITCH(&d, 0)->model, "sw64x400");
	{
		struct bundle *b = vec_push(&d.bundles, sizeof *b);
		SETS(b->from, "tor");
		SETS(b->to, "spine");
		b->links_each = 2;
	}
	place_design(&d, 80, 20, &p);
	place_routes(&d, &cat, &p);
	cr_assert_eq(p.routes.n, 2);
	r = &VEC_AT(p.routes, struct route, 0);
	cr_assert_str_eq(r->from, "a100");
	cr_assert_eq(r->y1, placement_find(&p, "a100")->y - 1, "starts above the servers");
	cr_assert_eq(r->y2, placement_find(&p, "tor")->y + PLACE_BOX_H, "ends under the leaf");
	cr_assert(r->ymid >= r->y2 && r->ymid <= r->y1);
	cr_assert_str_eq(r->label, "16 x 100G !8:1", "16 links down, 2 up on the tor: oversubscribed, marked");
	cr_assert(r->oversubscribed);
	cr_assert(r->lx >= 0 && r->lx + (int)strlen(r->label) <= 80);
	cr_assert_str_eq(VEC_AT(p.routes, struct route, 1).label, "2 x 400G", "the top tier has no ratio");
	placement_free(&p);
	design_free(&d);
	catalog_free(&cat);
}

/* 300 pods, each on its own leaf, under one spine: a row shows what fits and "+N more";
 * bundles between the same two rows take distinct crossing rows in design order; a bundle
 * with a hidden end is not drawn and has no label; a pinned block keeps its place and the
 * others flow around it. */
Test(place, many_groups_rows_and_hidden_bundles)
{
	struct design d;
	struct placement p;
	struct catalog cat;
	char name[32], leaf[32];
	size_t i, shown = 0, hidden = 0, turned = 0;
	int k, *ylo, *yhi;
	fx_catalog(&cat);
	design_init(&d);
	add_switch(&d, "spine", ROLE_SPINE, 4);
	for (k = 0; k < 300; k++) {
		struct server_group *g = vec_push(&d.servers, sizeof *g);
		struct bundle *b;
		snprintf(name, sizeof name, "pod%d", k);
		snprintf(leaf, sizeof leaf, "leaf%d", k);
		SETS(g->name, name);
		g->count = 4;
		SETS(g->gpu, "h100");
		g->id = d.next_id++;
		add_switch(&d, leaf, ROLE_LEAF, 1);
		b = vec_push(&d.bundles, sizeof *b);
		SETS(b->from, name);
		SETS(b->to, leaf);
		b->links_each = 4;
		b->wiring = WIRE_TOR;
		b = vec_push(&d.bundles, sizeof *b);
		SETS(b->from, leaf);
		SETS(b->to, "spine");
		b->links_each = 2;
	}
	{
		struct position *pos = vec_push(&d.canvas.positions, sizeof *pos);
		SETS(pos->block, "pod7");
		pos->x = 40;
		pos->y = 30;
	}
	place_design(&d, 120, 40, &p);
	place_routes(&d, &cat, &p);
	no_overlap(&p);
	cr_assert_eq(placement_find(&p, "pod7")->x, 40, "pinned");
	cr_assert_eq(placement_find(&p, "pod7")->y, 30);
	cr_assert_eq(p.routes.n, 600);
	for (i = 0; i < p.routes.n; i++) {
		const struct route *r = &VEC_AT(p.routes, struct route, i);
		const struct block *lo = placement_find(&p, r->from), *hi = placement_find(&p, r->to);
		cr_assert_eq(r->hidden, lo->w == 0 || hi->w == 0, "route %zu", i);
		if (r->hidden) {
			cr_expect_str_eq(r->label, "", "a hidden bundle has no label");
			hidden++;
		} else {
			cr_expect_neq(r->label[0], '\0', "route %zu is labelled", i);
			shown++;
		}
	}
	cr_assert_gt(shown, 0);
	cr_assert_gt(hidden, 0);
	/* Drawn lines between the same two rows that turn take a crossing row per upper block,
	 * the blocks in order of first use splitting the rows between: each crossing as
	 * counting them one by one gives it; a straight line takes the middle row. */
	ylo = calloc(p.routes.n, sizeof *ylo);
	yhi = calloc(p.routes.n, sizeof *yhi);
	for (i = 0; i < p.routes.n; i++) {
		ylo[i] = placement_find(&p, VEC_AT(p.routes, struct route, i).from)->y;
		yhi[i] = placement_find(&p, VEC_AT(p.routes, struct route, i).to)->y;
	}
	for (i = 0; i < p.routes.n; i++) {
		const struct route *r = &VEC_AT(p.routes, struct route, i);
		int idx = -1, n = 0, gap, want;
		size_t j, m;
		if (r->hidden)
			continue;
		turned += r->x1 != r->x2;
		cr_assert_lt(r->y2, r->y1, "route %zu: the upper block above the lower one, rows between", i);
		cr_assert_eq(r->e1, r->y1 + 1, "route %zu: from the lower block's top border", i);
		cr_assert_eq(r->e2, r->y2 - 1, "route %zu: to the upper block's bottom border", i);
		if (r->x1 == r->x2)
			idx = 0, n = 1;
		else
			for (j = 0; j < p.routes.n; j++) {
				const struct route *o = &VEC_AT(p.routes, struct route, j);
				bool first = true;
				if (o->hidden || o->x1 == o->x2 || ylo[j] != ylo[i] || yhi[j] != yhi[i])
					continue;
				for (m = 0; m < j; m++) {
					const struct route *q = &VEC_AT(p.routes, struct route, m);
					if (!q->hidden && q->x1 != q->x2 && ylo[m] == ylo[i] && yhi[m] == yhi[i] && !strcmp(q->to, o->to))
						first = false;
				}
				if (!first)
					continue;
				if (!strcmp(o->to, r->to))
					idx = n;
				n++;
			}
		cr_assert_geq(idx, 0, "route %zu", i);
		gap = r->y1 - r->y2 + 1;
		want = r->y2 + gap * (idx + 1) / (n + 1);
		cr_expect_eq(r->ymid, want > r->y1 ? r->y1 : want, "route %zu: %d of %d between its rows", i, idx, n);
	}
	cr_assert_gt(turned, 1, "lines that turn share the rows out");
	free(ylo);
	free(yhi);
	placement_free(&p);
	design_free(&d);
	catalog_free(&cat);
}

/* The reference case with a second leaf, both up to one spine group. */
static void two_leaves_one_spine(struct design *d, struct catalog *cat)
{
	fx_catalog(cat);
	fx_reference(d);
	add_switch(d, "tor2", ROLE_LEAF, 1);
	add_switch(d, "spine", ROLE_SPINE, 2);
	add_bundle(d, "tor", "spine", 2, WIRE_SPREAD);
	add_bundle(d, "tor2", "spine", 2, WIRE_SPREAD);
}

static void place_all(const struct design *d, const struct catalog *cat, int w, int h, struct placement *p)
{
	place_design(d, w, h, p);
	place_routes(d, cat, p);
}

/* Four tiers need 4 x 3 + 3 = 15 rows as boxes with a row between; in 11 they are one row
 * each, 3 rows apart ((11 - 1) / 3), from the top: 0, 3, 6, 9, none past the bottom, and
 * each bundle a straight line between them with its label beside it. */
Test(place, four_tiers_in_eleven_rows_are_one_row_blocks)
{
	struct design d;
	struct placement p;
	struct catalog cat;
	size_t i;
	fx_catalog(&cat);
	fx_reference(&d);
	add_switch(&d, "spine", ROLE_SPINE, 2);
	add_switch(&d, "core", ROLE_CORE, 1);
	add_bundle(&d, "tor", "spine", 2, WIRE_SPREAD);
	add_bundle(&d, "spine", "core", 1, WIRE_SPREAD);
	place_all(&d, &cat, 78, 11, &p);
	cr_assert_eq(p.box_h, PLACE_COMPACT_H);
	cr_assert_eq(placement_find(&p, "core")->y, 0);
	cr_assert_eq(placement_find(&p, "spine")->y, 3);
	cr_assert_eq(placement_find(&p, "tor")->y, 6);
	cr_assert_eq(placement_find(&p, "a100")->y, 9);
	no_overlap(&p);
	cr_assert_eq(p.routes.n, 3);
	for (i = 0; i < p.routes.n; i++) {
		const struct route *r = &VEC_AT(p.routes, struct route, i);
		const struct block *hi = placement_find(&p, r->to);
		cr_assert_eq(r->x1, r->x2, "%s->%s straight: the boxes face each other", r->from, r->to);
		cr_assert_eq(r->x2, hi->x + hi->w / 2, "into the upper block's middle");
		cr_assert_eq(r->e2, hi->y, "a one-row block: its own row is its border");
		cr_assert_eq(r->y2, hi->y + 1);
		cr_assert_eq(r->y1, r->y2 + 1, "two rows between the tiers");
		cr_assert_eq(r->ymid, r->y2 + 1, "2 * 1 / 2 rows down");
		cr_assert_eq(r->ly, r->ymid);
		cr_assert_eq(r->lx, r->x1 + 2, "'%s' beside its line", r->label);
		cr_assert_eq(p.cells[(size_t)r->y2 * 78 + (size_t)r->x2] & PL_LINE, PL_UP | PL_DOWN);
	}
	placement_free(&p);
	design_free(&d);
	catalog_free(&cat);
}

/* Two leaves under one spine, one row between: one crossing row for both (the tree the
 * spine's bundles make), the junction under the spine reaching left, right and up, and
 * each label beyond its own end of the crossing, on no line. */
Test(place, leaves_into_one_spine_are_one_tree)
{
	struct design d;
	struct placement p;
	struct catalog cat;
	const struct route *a, *b;
	const struct block *spine;
	int x;
	two_leaves_one_spine(&d, &cat);
	place_all(&d, &cat, 78, 11, &p);
	cr_assert_eq(p.box_h, PLACE_BOX_H, "3 tiers: 3 x 3 + 2 = 11 rows");
	a = &VEC_AT(p.routes, struct route, 1);
	b = &VEC_AT(p.routes, struct route, 2);
	spine = placement_find(&p, "spine");
	cr_assert_str_eq(a->from, "tor");
	cr_assert_str_eq(b->from, "tor2");
	cr_assert_eq(a->ymid, 3, "the one row between the spine (0-2) and the leaves (4-6)");
	cr_assert_eq(b->ymid, 3);
	cr_assert_eq(a->x2, b->x2);
	cr_assert_eq(a->x2, spine->x + spine->w / 2);
	cr_assert_lt(a->x1, a->x2, "tor on the left");
	cr_assert_gt(b->x1, b->x2, "tor2 on the right");
	cr_assert_eq(p.cells[3 * 78 + a->x2] & PL_LINE, PL_UP | PL_LEFT | PL_RIGHT, "┴ under the spine");
	cr_assert_eq(p.cells[2 * 78 + a->x2] & PL_DOWN, PL_DOWN, "the spine's border says where the line goes");
	cr_assert_eq(p.cells[3 * 78 + a->x1] & PL_LINE, PL_DOWN | PL_RIGHT, "┌ over tor");
	cr_assert_eq(p.cells[3 * 78 + b->x1] & PL_LINE, PL_DOWN | PL_LEFT, "┐ over tor2");
	cr_assert_eq(a->ly, 3);
	cr_assert_eq(a->lx, a->x1 - 1 - (int)strlen(a->label), "'%s' before the left end", a->label);
	cr_assert_eq(b->ly, 3);
	cr_assert_eq(b->lx, b->x1 + 2, "'%s' after the right end", b->label);
	for (x = a->lx - 1; x <= a->lx + (int)strlen(a->label); x++)
		cr_assert_eq(p.cells[3 * 78 + x] & (PL_LINE | PL_BLOCK), 0, "a space either side, on no line");
	placement_free(&p);
	design_free(&d);
	catalog_free(&cat);
}

/* A server group meshed to itself: 4 servers, 4 x 3 / 2 = 6 pairs of 2 links = 12 links of
 * the NICs' 100G, said beside the box on its label row, with no line. */
Test(place, a_self_mesh_is_a_label_beside_its_box)
{
	struct design d;
	struct placement p;
	struct catalog cat;
	const struct route *r;
	const struct block *g;
	size_t c;
	fx_catalog(&cat);
	fx_reference(&d);
	add_bundle(&d, "a100", "a100", 2, WIRE_MESH);
	place_all(&d, &cat, 78, 11, &p);
	r = &VEC_AT(p.routes, struct route, 1);
	g = placement_find(&p, "a100");
	cr_assert(r->self);
	cr_assert_str_eq(r->label, "full mesh, 12 x 100G");
	cr_assert_eq(r->ly, g->y + 1);
	cr_assert_eq(r->lx, g->x + g->w + 1);
	for (c = 0; c < (size_t)(78 * 11); c++)
		if (p.cells[c] & PL_LINE)
			cr_assert(c % 78 == (size_t)placement_find(&p, "tor")->x + (size_t)placement_find(&p, "tor")->w / 2 ||
					  c % 78 == (size_t)g->x + (size_t)g->w / 2,
				  "only the a100-tor line is drawn (cell %zu)", c);
	placement_free(&p);
	design_free(&d);
	catalog_free(&cat);
}

/* A label that fits nowhere in its long form takes the short one ("16x100G"), and none
 * (ly = -1, the long form kept) when that does not fit either. */
Test(place, labels_shorten_then_give_way)
{
	struct design d;
	struct placement p;
	struct catalog cat;
	const struct route *r;
	fx_catalog(&cat);
	fx_reference(&d);
	SETS(DESIGN_SERVER(&d, 0)->name, "a");
	SETS(DESIGN_SWITCH(&d, 0)->name, "t");
	SETS(DESIGN_BUNDLE(&d, 0)->from, "a");
	SETS(DESIGN_BUNDLE(&d, 0)->to, "t");
	/* 20 columns: "t 1 x sw32x100" in a box 18 wide at 1, the line under its middle at 10;
	 * "16 x 100G" (9, a space either side) fits neither before it (1 to 8) nor after it
	 * (12 to 18); "16x100G" (7) does after it. */
	place_all(&d, &cat, 20, 9, &p);
	r = &VEC_AT(p.routes, struct route, 0);
	cr_assert_eq(r->x1, 10);
	cr_assert_eq(r->x2, 10);
	cr_assert_str_eq(r->label, "16x100G", "the short form");
	cr_assert_eq(r->lx, 12);
	cr_assert_eq(r->ly, r->ymid);
	placement_free(&p);
	/* 17 columns: the tor's box 16 wide at 0, the line at 8: 6 columns either side. */
	place_all(&d, &cat, 17, 9, &p);
	r = &VEC_AT(p.routes, struct route, 0);
	cr_assert_eq(r->x1, 8);
	cr_assert_eq(r->ly, -1, "no label at all");
	cr_assert_str_eq(r->label, "16 x 100G");
	placement_free(&p);
	design_free(&d);
	catalog_free(&cat);
}

/* A note pinned where a line would cross: the line takes the nearest row between its tiers
 * that misses every block (one up: 4), the other line into the same spine keeps its row. */
Test(place, lines_go_round_a_pinned_note)
{
	struct design d;
	struct placement p;
	struct catalog cat;
	struct note *nt;
	const struct route *a, *b;
	int x, y, lo;
	two_leaves_one_spine(&d, &cat);
	place_all(&d, &cat, 78, 20, &p);
	a = &VEC_AT(p.routes, struct route, 1);
	cr_assert_eq(placement_find(&p, "spine")->y, 0, "rows 8 apart: (20 - 3) / 2");
	cr_assert_eq(placement_find(&p, "tor")->y, 8);
	cr_assert_eq(a->ymid, 5, "3 + 5 / 2: the middle of rows 3 to 7");
	lo = a->x1;
	placement_free(&p);
	nt = vec_push(&d.canvas.notes, sizeof *nt);
	SETS(nt->text, "x");
	nt->x = lo + 3;
	nt->y = 5;
	place_all(&d, &cat, 78, 20, &p);
	a = &VEC_AT(p.routes, struct route, 1);
	b = &VEC_AT(p.routes, struct route, 2);
	cr_assert_eq(a->x1, lo, "tor stays");
	cr_assert_eq(a->ymid, 4, "the row over the note");
	cr_assert_eq(b->ymid, 5, "tor2's line is not in the note's way");
	for (x = a->x1; x <= a->x2; x++)
		cr_assert_eq(p.cells[4 * 78 + x] & PL_BLOCK, 0);
	for (y = a->ymid; y <= a->y1; y++)
		cr_assert_eq(p.cells[(size_t)y * 78 + (size_t)a->x1] & PL_BLOCK, 0);
	placement_free(&p);
	design_free(&d);
	catalog_free(&cat);
}

/* A note over the whole gap under the tor's middle: no row clears the straight line, so
 * the line's ends move to their borders' first columns (the a100's, then the tor's) and
 * cross the middle row there, clear of the note. */
Test(place, lines_move_their_ends_round_a_note_in_the_way)
{
	struct design d;
	struct placement p;
	struct catalog cat;
	struct note *nt;
	const struct route *r;
	const struct block *tor, *a100;
	int c, x, y;
	fx_catalog(&cat);
	fx_reference(&d);
	place_all(&d, &cat, 78, 9, &p);
	r = &VEC_AT(p.routes, struct route, 0);
	cr_assert_eq(r->x1, r->x2, "straight");
	cr_assert_eq(r->y2, 3, "the tor on rows 0-2");
	cr_assert_eq(r->y1, 5, "the a100 on rows 6-8: rows 3 to 5 between");
	c = r->x1;
	placement_free(&p);
	nt = vec_push(&d.canvas.notes, sizeof *nt);
	SETS(nt->text, "x"); /* 5 wide, 3 high */
	nt->x = c - 2;
	nt->y = 3;
	place_all(&d, &cat, 78, 9, &p);
	r = &VEC_AT(p.routes, struct route, 0);
	tor = placement_find(&p, "tor");
	a100 = placement_find(&p, "a100");
	cr_assert_eq(r->x1, a100->x + 1);
	cr_assert_eq(r->x2, tor->x + 1);
	cr_assert_eq(r->ymid, 4, "the middle row");
	for (y = r->ymid; y <= r->y1; y++)
		cr_assert_eq(p.cells[(size_t)y * 78 + (size_t)r->x1] & PL_BLOCK, 0);
	for (y = r->y2; y <= r->ymid; y++)
		cr_assert_eq(p.cells[(size_t)y * 78 + (size_t)r->x2] & PL_BLOCK, 0);
	for (x = r->x1; x <= r->x2; x++)
		cr_assert_eq(p.cells[(size_t)r->ymid * 78 + (size_t)x] & PL_BLOCK, 0);
	cr_assert_eq(p.cells[(size_t)r->e1 * 78 + (size_t)r->x1] & PL_UP, PL_UP, "the a100's border says where it goes");
	placement_free(&p);
	design_free(&d);
	catalog_free(&cat);
}
