/* place.h: where a design's blocks stand on the canvas.
 *
 * Tiers are rows, core on top and servers at the bottom (NVLink domains share the server
 * row); each group is one box however large it is ("32 x dgx-h100"), so placement costs
 * the same for 8 GPUs and for 131,072. A row is cut into equal slots, one per block, and a
 * block is centred in its slot: a block does not move when another one's label changes.
 * Blocks the user moved (the design's canvas positions) keep their place; the others go
 * to the nearest free stretch of their row. A row with more blocks than fit shows what
 * fits and a "+N more" block (kind GK_NONE); hidden blocks have w = h = 0. Tiers that do
 * not fit as boxes with a row between them (4 tiers in 11 rows) are drawn as one-row
 * blocks instead, so no block overlaps another or leaves the area. Positions are in cells
 * of a w x h area. */
#ifndef NCF_PLACE_H
#define NCF_PLACE_H
#include <stdbool.h>
#include "model/design.h"

#define PLACE_BOX_H 3      /* a block's box: a border, its label, a border */
#define PLACE_COMPACT_H 1  /* a block as one row "[ label ]", when the tiers do not fit as boxes */
#define PLACE_MIN_W 8      /* narrowest useful box, with its gap */

struct block {
	int kind;                 /* enum group_kind */
	int id;                   /* group id */
	char name[NCF_NAME_MAX];
	char label[96];           /* "name  count x model", cut to fit */
	int tier;                 /* 0 servers and domains, 1 leaf, 2 spine, 3 core */
	int x, y, w, h;
	bool pinned;              /* placed by the user */
};

/* A bundle drawn as an orthogonal line of three legs: from its `from` block's border at
 * (x1, e1) along column x1 to the crossing row ymid, across to x2, and along column x2 to
 * its `to` block's border at (x2, e2). y1 and y2 are the first rows outside the blocks
 * (e1 - 1 and e2 + 1 for a line up from a lower tier). Lines between the same two rows
 * into the same block share a crossing row (drawn as one tree, not crossings); two blocks
 * side by side (a peer bundle) are joined over their tops. A block's bundle to itself (a
 * mesh of its members) has no line: its label ("full mesh, 12 x 100G") stands beside the
 * block. The label ("256 x 400G 1:1") is where it touches no block, line or other label:
 * beside the crossing, or beside a leg; a shorter form ("256x400G") when the long one fits
 * nowhere; none (ly = -1, label keeps the long form) when neither does. */
struct route {
	char from[NCF_NAME_MAX], to[NCF_NAME_MAX];
	int x1, y1, x2, y2, ymid, e1, e2;
	char label[48];
	int lx, ly;               /* ly = -1: no label shown */
	bool hidden;              /* an end is inside a "+N more" block, or no row joins the blocks:
				     not drawn, no label */
	bool self;                /* from and to are one block: a label, no line */
	bool oversubscribed;      /* the upper switch has more down than up (drawn with a mark) */
};

/* What a cell of the placement holds (struct placement's cells): the directions a line
 * leaves it in (a line's end on a block's border says where the line goes), whether an
 * oversubscribed bundle's line passes, whether a block covers it, whether a label (with
 * the space around it) does. */
enum {
	PL_UP = 1,
	PL_DOWN = 2,
	PL_LEFT = 4,
	PL_RIGHT = 8,
	PL_LINE = PL_UP | PL_DOWN | PL_LEFT | PL_RIGHT,
	PL_WARN = 16,
	PL_BLOCK = 32,
	PL_LABEL = 64,
};

struct placement {
	struct vec blocks;        /* struct block */
	struct vec routes;        /* struct route */
	int w, h;
	int box_h;                /* PLACE_BOX_H, or PLACE_COMPACT_H when the tiers need it */
	unsigned char *cells;     /* w x h, row by row, PL_* bits (place_routes makes it; owned) */
};

/* Place d's groups in a w x h area, and route its bundles (labels need the catalog for
 * speeds; cat may be NULL). */
void place_design(const struct design *d, int w, int h, struct placement *out);
void place_routes(const struct design *d, const struct catalog *cat, struct placement *p);
/* place_routes with the ports per switch already counted (switch_ports_all of d; the
 * labels' ratios), as the designer's editor keeps them. */
void place_routes_ports(const struct design *d, const struct catalog *cat, const long *down, const long *up,
			struct placement *p);
void placement_free(struct placement *p);
/* The block of the group called name, or NULL. */
const struct block *placement_find(const struct placement *p, const char *name);
/* Do two blocks overlap? */
bool block_overlap(const struct block *a, const struct block *b);

#endif
