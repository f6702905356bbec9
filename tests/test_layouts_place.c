#include <criterion/criterion.h>
#include "fixtures.h"
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
	size_t i, shown = 0, hidden = 0;
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
	/* Bundles between the same two rows split the gap between them in design order: each
	 * crossing as counting them one by one gives it. */
	ylo = calloc(p.routes.n, sizeof *ylo);
	yhi = calloc(p.routes.n, sizeof *yhi);
	for (i = 0; i < p.routes.n; i++) {
		ylo[i] = placement_find(&p, VEC_AT(p.routes, struct route, i).from)->y;
		yhi[i] = placement_find(&p, VEC_AT(p.routes, struct route, i).to)->y;
	}
	for (i = 0; i < p.routes.n; i++) {
		const struct route *r = &VEC_AT(p.routes, struct route, i);
		int idx = 0, n = 0, gap, want;
		size_t j;
		for (j = 0; j < p.routes.n; j++)
			if (ylo[j] == ylo[i] && yhi[j] == yhi[i]) {
				idx += j < i;
				n++;
			}
		gap = r->y1 - r->y2 + 1;
		want = gap > 0 ? r->y2 + gap * (idx + 1) / (n + 1) : r->y2;
		cr_expect_eq(r->ymid, want > r->y1 ? r->y1 : want, "route %zu: %d of %d between its rows", i, idx, n);
	}
	free(ylo);
	free(yhi);
	placement_free(&p);
	design_free(&d);
	catalog_free(&cat);
}
