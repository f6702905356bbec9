/* The drawn canvas of every shipped example and template, at 80x24, 100x30 and 200x60,
 * checked cell by cell: the canvas frame is whole (no block over it); every box border is
 * whole but for junctions where a line meets it; every line cell's arms lead to another
 * line cell or into a block (no line ends in empty space or in a label); every bundle's
 * line starts and ends at its blocks; every label is where it says, off blocks and lines,
 * with a space either side. And the three cases of the canvas labels issue as goldens. */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "screens.h"
#include "layouts/template.h"
#include "ui/modes.h"

TestSuite(canvas, .init = setup, .fini = teardown);

enum { U = PL_UP, D = PL_DOWN, L = PL_LEFT, R = PL_RIGHT };

/* The arms of a line glyph, or -1 for a cell that is not one. */
static int arms(uint32_t ch)
{
	switch (ch) {
	case 0x2502: return U | D;         /* │ */
	case 0x2500: return L | R;         /* ─ */
	case 0x250c: return D | R;         /* ┌ */
	case 0x2510: return D | L;         /* ┐ */
	case 0x2514: return U | R;         /* └ */
	case 0x2518: return U | L;         /* ┘ */
	case 0x251c: return U | D | R;     /* ├ */
	case 0x2524: return U | D | L;     /* ┤ */
	case 0x252c: return D | L | R;     /* ┬ */
	case 0x2534: return U | L | R;     /* ┴ */
	case 0x253c: return U | D | L | R; /* ┼ */
	default: return -1;
	}
}

static int opposite(int arm)
{
	return arm == U ? D : arm == D ? U : arm == L ? R : L;
}

struct canvas_case {
	const char *what;
	struct cellbuf cb;
	int ox, oy, w, h; /* the inside of the frame, as the placement's area */
	int cx, cy, cw, ch;
	int *owner;       /* w x h: index + 1 of the block covering the cell, 0 for none */
};

static uint32_t at(const struct canvas_case *k, int x, int y)
{
	return k->cb.cells[(size_t)(k->oy + y) * (size_t)k->cb.w + (size_t)(k->ox + x)].ch;
}

static const struct block *owner(const struct canvas_case *k, int x, int y)
{
	int o;
	if (x < 0 || y < 0 || x >= k->w || y >= k->h)
		return NULL;
	o = k->owner[y * k->w + x];
	return o ? &VEC_AT(app.place.blocks, struct block, (size_t)o - 1) : NULL;
}

/* The junction a line arriving with arm `arm` makes on block b's border at (x, y), or 0
 * when the cell is no place for one (a corner, or not a border). */
static uint32_t junction(const struct block *b, int x, int y, int arm)
{
	bool side = x == b->x || x == b->x + b->w - 1, edge = y == b->y || y == b->y + b->h - 1;
	if (side && edge)
		return 0;
	if (arm == D && y == b->y)
		return 0x2534; /* down into a top border: ┴ */
	if (arm == U && y == b->y + b->h - 1)
		return 0x252c; /* ┬ */
	if (arm == R && x == b->x)
		return 0x2524; /* ┤ */
	if (arm == L && x == b->x + b->w - 1)
		return 0x251c; /* ├ */
	return 0;
}

static void check_frame(const struct canvas_case *k)
{
	const struct cell *c = k->cb.cells;
	int x, y, W = k->cb.w;
	cr_expect_eq(c[k->cy * W + k->cx].ch, 0x250c, "%s: frame corner", k->what);
	cr_expect_eq(c[k->cy * W + k->cx + k->cw - 1].ch, 0x2510, "%s: frame corner", k->what);
	cr_expect_eq(c[(k->cy + k->ch - 1) * W + k->cx].ch, 0x2514, "%s: frame corner", k->what);
	cr_expect_eq(c[(k->cy + k->ch - 1) * W + k->cx + k->cw - 1].ch, 0x2518, "%s: frame corner", k->what);
	for (x = k->cx + 1; x < k->cx + k->cw - 1; x++)
		cr_expect_eq(c[(k->cy + k->ch - 1) * W + x].ch, 0x2500, "%s: the frame's bottom edge at column %d is %04x", k->what, x,
			     c[(k->cy + k->ch - 1) * W + x].ch);
	for (y = k->cy + 1; y < k->cy + k->ch - 1; y++) {
		cr_expect_eq(c[y * W + k->cx].ch, 0x2502, "%s: the frame's left edge at row %d", k->what, y);
		cr_expect_eq(c[y * W + k->cx + k->cw - 1].ch, 0x2502, "%s: the frame's right edge at row %d", k->what, y);
	}
}

/* Blocks inside the area, apart, with whole borders (a junction only where a line comes). */
static void check_blocks(struct canvas_case *k)
{
	size_t i;
	int x, y;
	for (i = 0; i < app.place.blocks.n; i++) {
		const struct block *b = &VEC_AT(app.place.blocks, struct block, i);
		if (!b->w)
			continue;
		cr_assert(b->x >= 0 && b->y >= 0 && b->x + b->w <= k->w && b->y + b->h <= k->h, "%s: %s (%d,%d %dx%d) outside %dx%d",
			  k->what, b->name, b->x, b->y, b->w, b->h, k->w, k->h);
		for (y = b->y; y < b->y + b->h; y++)
			for (x = b->x; x < b->x + b->w; x++) {
				cr_assert_eq(k->owner[y * k->w + x], 0, "%s: %s overlaps another block at %d,%d", k->what, b->name, x, y);
				k->owner[y * k->w + x] = (int)i + 1;
			}
	}
	for (i = 0; i < app.place.blocks.n; i++) {
		const struct block *b = &VEC_AT(app.place.blocks, struct block, i);
		if (!b->w)
			continue;
		if (b->h == 1) {
			cr_expect_eq(at(k, b->x, b->y), '[', "%s: %s opens with [", k->what, b->name);
			cr_expect_eq(at(k, b->x + b->w - 1, b->y), ']', "%s: %s closes with ]", k->what, b->name);
			continue;
		}
		cr_assert_eq(b->h, PLACE_BOX_H, "%s: %s", k->what, b->name);
		cr_expect_eq(at(k, b->x, b->y), 0x250c, "%s: %s corner", k->what, b->name);
		cr_expect_eq(at(k, b->x + b->w - 1, b->y), 0x2510, "%s: %s corner", k->what, b->name);
		cr_expect_eq(at(k, b->x, b->y + 2), 0x2514, "%s: %s corner", k->what, b->name);
		cr_expect_eq(at(k, b->x + b->w - 1, b->y + 2), 0x2518, "%s: %s corner", k->what, b->name);
		for (x = b->x + 1; x < b->x + b->w - 1; x++) {
			uint32_t t = at(k, x, b->y), u = at(k, x, b->y + 2);
			cr_expect(t == 0x2500 || t == 0x2534, "%s: %s's top border at %d is %04x", k->what, b->name, x, t);
			cr_expect(u == 0x2500 || u == 0x252c, "%s: %s's bottom border at %d is %04x", k->what, b->name, x, u);
			/* A junction has its line. */
			if (t == 0x2534)
				cr_expect(b->y > 0 && arms(at(k, x, b->y - 1)) > 0 && (arms(at(k, x, b->y - 1)) & D) && !owner(k, x, b->y - 1),
					  "%s: the junction on %s's top at %d has no line", k->what, b->name, x);
			if (u == 0x252c)
				cr_expect(b->y + 3 < k->h && arms(at(k, x, b->y + 3)) > 0 && (arms(at(k, x, b->y + 3)) & U) &&
						  !owner(k, x, b->y + 3),
					  "%s: the junction under %s at %d has no line", k->what, b->name, x);
		}
		for (x = b->x; x < b->x + b->w; x += b->w - 1) {
			uint32_t s = at(k, x, b->y + 1);
			cr_expect(s == 0x2502 || s == (x == b->x ? 0x2524u : 0x251cu), "%s: %s's side at %d is %04x", k->what, b->name, x, s);
		}
	}
}

/* Every line cell outside the blocks leads on, in each of its arms, to a line cell that
 * comes back, or into a block: the junction on a box's border, or a one-row block. */
static void check_lines(const struct canvas_case *k)
{
	static const int dirs[4] = { U, D, L, R };
	int x, y, j;
	for (y = 0; y < k->h; y++)
		for (x = 0; x < k->w; x++) {
			int a = arms(at(k, x, y));
			if (owner(k, x, y) || a < 0)
				continue;
			for (j = 0; j < 4; j++) {
				int nx = x + (dirs[j] == L ? -1 : dirs[j] == R), ny = y + (dirs[j] == U ? -1 : dirs[j] == D);
				const struct block *b;
				if (!(a & dirs[j]))
					continue;
				cr_assert(nx >= 0 && ny >= 0 && nx < k->w && ny < k->h, "%s: the line at %d,%d runs into the frame", k->what, x, y);
				b = owner(k, nx, ny);
				if (!b) {
					int n = arms(at(k, nx, ny));
					cr_expect(n > 0 && (n & opposite(dirs[j])), "%s: the line at %d,%d ends in empty space or a label (%04x beside it)",
						  k->what, x, y, at(k, nx, ny));
				} else if (b->h >= 3) {
					cr_expect_eq(at(k, nx, ny), junction(b, nx, ny, dirs[j]),
						     "%s: the line at %d,%d meets %s's border without a junction", k->what, x, y, b->name);
				}
			}
		}
}

/* Each bundle: its line leaves both its blocks (a self-mesh has none), its label is drawn
 * where the placement says, off blocks, with a space either side. */
static void check_routes(const struct canvas_case *k, bool every_label)
{
	size_t i;
	int x;
	for (i = 0; i < app.place.routes.n; i++) {
		const struct route *r = &VEC_AT(app.place.routes, struct route, i);
		const struct block *a = placement_find(&app.place, r->from), *b = placement_find(&app.place, r->to);
		int n = (int)strlen(r->label);
		if (r->hidden)
			continue;
		cr_assert(a && b, "%s: %s->%s", k->what, r->from, r->to);
		if (r->self) {
			cr_expect(strstr(r->label, "mesh"), "%s: %s's bundle to itself says it is a mesh: '%s'", k->what, r->from, r->label);
			cr_expect(r->ly >= a->y - 1 && r->ly <= a->y + a->h, "%s: the mesh label stands beside %s", k->what, r->from);
		} else {
			int a1 = arms(at(k, r->x1, r->y1)), a2 = arms(at(k, r->x2, r->y2));
			cr_expect(owner(k, r->x1, r->e1) == a && !owner(k, r->x1, r->y1), "%s: %s->%s starts on %s", k->what, r->from, r->to,
				  r->from);
			cr_expect(owner(k, r->x2, r->e2) == b && !owner(k, r->x2, r->y2), "%s: %s->%s ends on %s", k->what, r->from, r->to,
				  r->to);
			cr_expect(a1 > 0 && (a1 & (r->e1 > r->y1 ? D : U)), "%s: %s->%s leaves %s", k->what, r->from, r->to, r->from);
			cr_expect(a2 > 0 && (a2 & (r->e2 > r->y2 ? D : U)), "%s: %s->%s reaches %s", k->what, r->from, r->to, r->to);
		}
		if (every_label)
			cr_expect_geq(r->ly, 0, "%s: %s->%s has its label '%s' on the canvas", k->what, r->from, r->to, r->label);
		if (r->ly < 0)
			continue;
		cr_assert(r->lx >= 1 && r->lx + n + 1 <= k->w && r->ly < k->h, "%s: label '%s' at %d,%d", k->what, r->label, r->lx, r->ly);
		for (x = 0; x < n; x++) {
			cr_expect_not(owner(k, r->lx + x, r->ly), "%s: label '%s' over a block", k->what, r->label);
			cr_expect_eq(at(k, r->lx + x, r->ly), (uint32_t)(unsigned char)r->label[x], "%s: label '%s' drawn whole", k->what,
				     r->label);
		}
		cr_expect(at(k, r->lx - 1, r->ly) == ' ' || at(k, r->lx - 1, r->ly) == '>', "%s: a space before '%s'", k->what, r->label);
		cr_expect_eq(at(k, r->lx + n, r->ly), ' ', "%s: a space after '%s'", k->what, r->label);
	}
}

/* every_label: each drawn bundle's label is on the canvas too (a busy canvas leaves out
 * the ones that fit nowhere). */
static void check_canvas(const char *what, int W, int H, bool every_label)
{
	struct canvas_case k;
	memset(&k, 0, sizeof k);
	k.what = what;
	app_layout(&app, W, H);
	app_canvas_area(W, H, &k.cx, &k.cy, &k.cw, &k.ch);
	k.ox = k.cx + 1;
	k.oy = k.cy + 1;
	k.w = k.cw - 2;
	k.h = k.ch - 2;
	cr_assert_eq(app.place.w, k.w, "%s", what);
	cr_assert_eq(app.place.h, k.h, "%s", what);
	cellbuf_init(&k.cb, W, H);
	canvas_draw(&app, &k.cb, k.cx, k.cy, k.cw, k.ch);
	k.owner = calloc((size_t)(k.w * k.h), sizeof *k.owner);
	check_frame(&k);
	check_blocks(&k);
	check_lines(&k);
	check_routes(&k, every_label);
	free(k.owner);
	cellbuf_free(&k.cb);
}

static const int sizes[][2] = { { 80, 24 }, { 100, 30 }, { 200, 60 } };

Test(canvas, every_example_is_drawn_whole)
{
	glob_t g;
	size_t i, s;
	cr_assert_eq(glob("share/examples/*.yaml", 0, NULL, &g), 0);
	cr_assert_geq(g.gl_pathc, 7, "the shipped examples");
	for (i = 0; i < g.gl_pathc; i++) {
		open_app(g.gl_pathv[i]);
		for (s = 0; s < 3; s++) {
			char what[300];
			snprintf(what, sizeof what, "%s at %dx%d", g.gl_pathv[i], sizes[s][0], sizes[s][1]);
			check_canvas(what, sizes[s][0], sizes[s][1], true);
		}
		app_free(&app);
	}
	globfree(&g);
	/* And a busy one: leaves crossed onto two spine groups, servers on two leaves, a peer
	 * bundle between leaves, a self-mesh. */
	open_app("tests/data/canvas-busy.yaml");
	for (s = 0; s < 3; s++) {
		char what[300];
		snprintf(what, sizeof what, "tests/data/canvas-busy.yaml at %dx%d", sizes[s][0], sizes[s][1]);
		check_canvas(what, sizes[s][0], sizes[s][1], false);
	}
	app_free(&app);
}

Test(canvas, every_template_is_drawn_whole)
{
	size_t i, s;
	for (i = 0; i < ntemplates; i++) {
		open_template(templates[i].name);
		for (s = 0; s < 3; s++) {
			char what[300];
			snprintf(what, sizeof what, "template %s at %dx%d", templates[i].name, sizes[s][0], sizes[s][1]);
			check_canvas(what, sizes[s][0], sizes[s][1], true);
		}
		app_free(&app);
	}
}

/* The three screens: two leaf groups joined up to one spine as one tree, their
 * labels beside its ends (mixed-generations); four tiers in 11 rows drawn as one-row
 * blocks with their bundles between them, the selected bundle marked (fat-tree, 4 x b:
 * the edge-to-host bundle); a server group meshed to itself, said beside the box
 * (textbook-mesh). */
static void canvas_golden(const char *file, const char *script, const char *name)
{
	char *t;
	open_app(file);
	t = screen(script, 80, 24);
	golden(name, t);
	free(t);
	app_free(&app);
}

Test(canvas, tree_of_two_leaves_80x24)
{
	canvas_golden("share/examples/mixed-generations.yaml", "", "canvas-mixed-generations-80x24");
}

Test(canvas, textbook_mesh_80x24)
{
	canvas_golden("share/examples/textbook-mesh.yaml", "", "canvas-textbook-mesh-80x24");
}

Test(canvas, four_tiers_in_eleven_rows_80x24)
{
	char *t;
	open_template("fat-tree");
	t = screen("bbbb", 80, 24);
	cr_assert(strstr(t, "[ core 16 x fat-tree-k8 ]"), "one-row blocks:\n%s", t);
	cr_assert(strstr(t, ">128 x 400G 1:1"), "the selected bundle's label is marked:\n%s", t);
	golden("canvas-fat-tree-bundle-80x24", t);
	free(t);
	app_free(&app);
}

/* Blocks the user moved: the spine down among the leaves (its bundles over the tops), a
 * leaf down against its servers' row, the spine over one leaf (a straight line and the
 * tree's junction beside it): drawn whole all the same. */
Test(canvas, moved_blocks_are_drawn_whole)
{
	static const char *const moves[] = { "klUUU", "kKUU", "klHHHHHHHHHH" };
	size_t m, s;
	for (m = 0; m < sizeof moves / sizeof *moves; m++) {
		char *t;
		open_app("share/examples/mixed-generations.yaml");
		t = screen(moves[m], 80, 24);
		free(t);
		cr_assert_gt(app.design.canvas.positions.n, 0, "'%s' moved a block", moves[m]);
		for (s = 0; s < 3; s++) {
			char what[300];
			snprintf(what, sizeof what, "mixed-generations after '%s' at %dx%d", moves[m], sizes[s][0], sizes[s][1]);
			check_canvas(what, sizes[s][0], sizes[s][1], false);
		}
		app_free(&app);
	}
}
