/* place.h: where a design's blocks stand on the canvas.
 *
 * Tiers are rows, core on top and servers at the bottom (NVLink domains share the server
 * row); each group is one box however large it is ("32 x dgx-h100"), so placement costs
 * the same for 8 GPUs and for 131,072. A row is cut into equal slots, one per block, and a
 * block is centred in its slot: a block does not move when another one's label changes.
 * Blocks the user moved (the design's canvas positions) keep their place; the others go
 * to the nearest free stretch of their row. A row with more blocks than fit shows what
 * fits and a "+N more" block (kind GK_NONE); hidden blocks have w = h = 0. Positions are
 * in cells of a w x h area. */
#ifndef NCF_PLACE_H
#define NCF_PLACE_H
#include <stdbool.h>
#include "model/design.h"

#define PLACE_BOX_H 3
#define PLACE_MIN_W 8  /* narrowest useful box, with its gap */

struct block {
	int kind;                 /* enum group_kind */
	int id;                   /* group id */
	char name[NCF_NAME_MAX];
	char label[96];           /* "name  count x model", cut to fit */
	int tier;                 /* 0 servers and domains, 1 leaf, 2 spine, 3 core */
	int x, y, w, h;
	bool pinned;              /* placed by the user */
};

/* A bundle drawn as an orthogonal line: up from the lower block's top edge at x1 to row
 * ymid, across to x2, up to the upper block's bottom edge. The label ("256 x 400G 1:1")
 * sits on row ymid, beside the crossing. */
struct route {
	char from[NCF_NAME_MAX], to[NCF_NAME_MAX];
	int x1, y1, x2, y2, ymid;
	char label[48];
	int lx, ly;
	bool hidden;              /* an end is inside a "+N more" block: not drawn, no label */
	bool oversubscribed;      /* the upper switch has more down than up (drawn with a mark) */
};

struct placement {
	struct vec blocks;        /* struct block */
	struct vec routes;        /* struct route */
	int w, h;
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
