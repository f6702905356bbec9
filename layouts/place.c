#include "layouts/place.h"
#include "model/alloc.h"
#include "model/strmap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Placement and routing cost O(groups + bundles) and what the screen shows: names are
 * looked up through hash maps built once per call, a block is tried only against the
 * blocks that can overlap its row, and the bundles between two rows are counted in one
 * pass. */

/* Copy at most max bytes of src to dst + at, within size (NUL-terminated); returns the new
 * end. printf would do, at ten times the cost, for every group on every edit. */
static size_t put(char *dst, size_t size, size_t at, const char *src, size_t max)
{
	size_t n = strlen(src);
	if (n > max)
		n = max;
	if (at + n > size - 1)
		n = at < size - 1 ? size - 1 - at : 0;
	memcpy(dst + at, src, n);
	dst[at + n] = '\0';
	return at + n;
}

/* "name  count x what", as "%.40s %d x %.40s" prints it. */
static void group_label(char label[96], const char *name, long count, const char *what)
{
	char num[24];
	size_t at = put(label, 96, 0, name, 40), k = 0;
	unsigned long v = count < 0 ? (unsigned long)-count : (unsigned long)count;
	do
		num[sizeof num - 1 - k++] = (char)('0' + v % 10);
	while ((v /= 10) && k < sizeof num - 1);
	if (count < 0)
		num[sizeof num - 1 - k++] = '-';
	at = put(label, 96, at, " ", 1);
	memmove(num, num + sizeof num - k, k);
	num[k] = '\0';
	at = put(label, 96, at, num, k);
	at = put(label, 96, at, " x ", 3);
	put(label, 96, at, what, 40);
}

static struct block *add(struct placement *p, int kind, int id, const char *name, int tier, const char *label)
{
	struct block *b = vec_push(&p->blocks, sizeof *b);
	b->kind = kind;
	b->id = id;
	b->tier = tier;
	put(b->name, sizeof b->name, 0, name, sizeof b->name);
	put(b->label, sizeof b->label, 0, label, 95);
	return b;
}

bool block_overlap(const struct block *a, const struct block *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

/* The blocks a block on row y (p->box_h high) must not overlap: indices into p->blocks of
 * the blocks that stand so far (pinned, or placed on an earlier row) and reach into it. */
struct row_obstacles {
	size_t *v, n;
};

static void row_obstacles(const struct placement *p, const size_t *stand, size_t nstand, int y, struct row_obstacles *o)
{
	size_t j;
	o->n = 0;
	for (j = 0; j < nstand; j++) {
		const struct block *b = &VEC_AT(p->blocks, struct block, stand[j]);
		if (b->y < y + p->box_h && y < b->y + b->h)
			o->v[o->n++] = stand[j];
	}
}

static bool free_at(const struct placement *p, const struct row_obstacles *ob, const struct block *self, int x, int y,
		    int w)
{
	size_t i;
	struct block probe = *self;
	probe.x = x;
	probe.y = y;
	probe.w = w;
	for (i = 0; i < ob->n; i++) {
		const struct block *o = &VEC_AT(p->blocks, struct block, ob->v[i]);
		if (o != self && (o->pinned || o->w > 0) && block_overlap(&probe, o))
			return false;
	}
	return true;
}

#define PLACE_MAX_GAP 8 /* rows from one tier to the next on a tall canvas */

/* How high a block is: a box when every tier fits as boxes with a row between them for the
 * bundles, else one row (4 tiers need 15 rows as boxes, 7 as rows). */
static int box_height(int rows, int h)
{
	return (rows - 1) * (PLACE_BOX_H + 1) + PLACE_BOX_H <= h ? PLACE_BOX_H : PLACE_COMPACT_H;
}

static int row_y(int tier, int top_tier, int h, int bh)
{
	/* Rows spread over the height, the top tier first and servers last, with at least a
	 * row between tiers for the bundles (box_height makes the blocks one row high when
	 * boxes do not leave it); on a tall canvas the diagram keeps a readable spacing and
	 * sits in the middle. A canvas lower than the tiers stacks them at its bottom edge
	 * rather than past it. */
	int rows = top_tier + 1, gap, total, y;
	if (rows == 1)
		return h > bh ? (h - bh) / 2 : 0;
	gap = (h - bh) / (rows - 1);
	if (gap > PLACE_MAX_GAP)
		gap = PLACE_MAX_GAP;
	if (gap < bh + 1)
		gap = bh + 1;
	total = (rows - 1) * gap + bh;
	y = (h > total ? (h - total) / 2 : 0) + (top_tier - tier) * gap;
	return y + bh <= h ? y : (h - bh > 0 ? h - bh : 0);
}

void place_design(const struct design *d, int w, int h, struct placement *p)
{
	size_t i;
	int tier, top = 0;
	char label[96];
	struct strmap pins;
	struct row_obstacles ob;
	size_t *first, *fill, *order, *stand, nstand = 0;
	memset(p, 0, sizeof *p);
	p->w = w;
	p->h = h;
	/* A block per group and note, a "+N more" one per tier at most: the storage at once. */
	p->blocks.cap = d->servers.n + d->domains.n + d->switches.n + d->canvas.notes.n + ROLE_CORE + 3;
	p->blocks.v = xmalloc(p->blocks.cap * sizeof(struct block));
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		group_label(label, g->name, g->count, g->model[0] ? g->model : g->gpu);
		add(p, GK_SERVER, g->id, g->name, 0, label);
	}
	for (i = 0; i < d->domains.n; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		group_label(label, m->name, m->count, "NVLink domain");
		add(p, GK_DOMAIN, m->id, m->name, 0, label);
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *s = DESIGN_SWITCH(d, i);
		group_label(label, s->name, s->count, s->model);
		add(p, GK_SWITCH, s->id, s->name, 1 + s->role, label);
		if (1 + s->role > top)
			top = 1 + s->role;
	}
	p->box_h = box_height(top + 1, h);
	/* Notes stand where the user put them. */
	for (i = 0; i < d->canvas.notes.n; i++) {
		const struct note *nt = &VEC_AT(d->canvas.notes, struct note, i);
		struct block *b = add(p, GK_NOTE, 0, "", -1, nt->text);
		int len = (int)strlen(b->label) + 4;
		b->pinned = true;
		b->h = p->box_h;
		b->w = len < w ? len : w;
		b->x = nt->x + b->w <= w ? nt->x : (w - b->w > 0 ? w - b->w : 0);
		b->y = nt->y + b->h <= h ? nt->y : (h - b->h > 0 ? h - b->h : 0);
		snprintf(b->name, sizeof b->name, "note %zu", i + 1);
	}
	/* Pinned blocks first, so the others flow around them. A block takes the first
	 * position written for its name. */
	strmap_init(&pins, d->canvas.positions.n);
	for (i = 0; i < d->canvas.positions.n; i++)
		strmap_add(&pins, VEC_AT(d->canvas.positions, struct position, i).block, (int)i);
	for (i = 0; i < p->blocks.n; i++) {
		struct block *b = &VEC_AT(p->blocks, struct block, i);
		int at = b->kind == GK_NOTE ? -1 : strmap_get(&pins, b->name);
		const struct position *pos = at < 0 ? NULL : &VEC_AT(d->canvas.positions, struct position, (size_t)at);
		int len = (int)strlen(b->label) + 4;
		if (b->kind == GK_NOTE)
			continue;
		b->h = p->box_h;
		if (pos) {
			b->pinned = true;
			b->w = len < w ? len : w;
			b->x = pos->x + b->w <= w ? pos->x : (w - b->w > 0 ? w - b->w : 0);
			b->y = pos->y + b->h <= h ? pos->y : (h - b->h > 0 ? h - b->h : 0);
		}
	}
	strmap_free(&pins);
	/* The blocks of each tier in design order, by a counting sort (a tier's pass touches
	 * its own blocks only), and the blocks that stand so far: the pinned ones and notes. */
	first = xcalloc((size_t)top + 3, sizeof *first);
	fill = xcalloc((size_t)top + 2, sizeof *fill);
	order = xmalloc((p->blocks.n ? p->blocks.n : 1) * sizeof *order);
	/* Room for every block and a "+N more" one per tier. */
	stand = xmalloc((p->blocks.n + (size_t)top + 2) * sizeof *stand);
	ob.v = xmalloc((p->blocks.n + (size_t)top + 2) * sizeof *ob.v);
	for (i = 0; i < p->blocks.n; i++) {
		const struct block *b = &VEC_AT(p->blocks, struct block, i);
		if (b->pinned)
			stand[nstand++] = i;
		else if (b->tier >= 0 && b->tier <= top)
			first[b->tier + 1]++;
	}
	for (tier = 0; tier <= top; tier++) {
		first[tier + 1] += first[tier];
		fill[tier] = first[tier];
	}
	for (i = 0; i < p->blocks.n; i++) {
		const struct block *b = &VEC_AT(p->blocks, struct block, i);
		if (!b->pinned && b->tier >= 0 && b->tier <= top)
			order[fill[b->tier]++] = i;
	}
	for (tier = 0; tier <= top; tier++) {
		int n = (int)(first[tier + 1] - first[tier]), k = 0, j, slot, fit = w / PLACE_MIN_W, shown,
		    y = row_y(tier, top, h, p->box_h);
		size_t more = 0;
		if (!n)
			continue;
		/* More blocks than the row holds: the last slot says how many are not shown. */
		shown = n <= fit ? n : (fit > 1 ? fit - 1 : 0);
		if (shown < n) {
			snprintf(label, sizeof label, "+%d more", n - shown);
			add(p, GK_NONE, 0, "", tier, label)->h = p->box_h;
			more = p->blocks.n; /* its index + 1 */
		}
		slot = w / (shown < n ? shown + 1 : n);
		row_obstacles(p, stand, nstand, y, &ob);
		for (j = 0; j < n + (more > 0); j++) {
			struct block *b;
			int bw, x0, dx;
			i = j < n ? order[first[tier] + (size_t)j] : more - 1;
			b = &VEC_AT(p->blocks, struct block, i);
			if (k >= shown && b->kind != GK_NONE) {
				b->w = b->h = 0; /* hidden: counted in the "+N more" block */
				b->x = b->y = 0;
				continue;
			}
			bw = (int)strlen(b->label) + 4;
			if (bw > slot - 1)
				bw = slot - 1 > 5 ? slot - 1 : 5;
			x0 = k * slot + (slot - bw) / 2;
			k++;
			b->y = y;
			/* Nearest free stretch of the row: try the slot, then step outwards. */
			for (dx = 0; dx < w; dx++) {
				if (x0 + dx + bw <= w && free_at(p, &ob, b, x0 + dx, y, bw)) {
					x0 += dx;
					break;
				}
				if (x0 - dx >= 0 && free_at(p, &ob, b, x0 - dx, y, bw)) {
					x0 -= dx;
					break;
				}
			}
			b->x = x0;
			b->w = bw;
			if (bw > 0) { /* placed on this row: later blocks go around it */
				ob.v[ob.n++] = i;
				stand[nstand++] = i;
			}
			if ((int)strlen(b->label) > bw - 4 && bw > 5) {
				b->label[bw - 5] = '~'; /* cut labels say so */
				b->label[bw - 4] = '\0';
			}
		}
	}
	free(ob.v);
	free(stand);
	free(order);
	free(first);
	free(fill);
}

static const char *speed_text(int gbps, char *buf, size_t size)
{
	if (gbps >= 1000 && gbps % 1000 == 0)
		snprintf(buf, size, "%dT", gbps / 1000);
	else
		snprintf(buf, size, "%dG", gbps);
	return buf;
}

/* Crossing rows, counted in one pass over the bundles: a table of row pairs (the y of the
 * upper and the lower block a bundle joins), each with how many blocks its bundles go up
 * into so far, and a table of (row pair, upper block), each with its place among them. */
struct row_pair {
	int yhi, ylo;
	size_t n;
	bool used;
};

struct pair_end {
	const struct row_pair *pair;
	int upper;
	size_t idx;
	bool used;
};

static size_t mix(int a, int b, int c)
{
	return (size_t)(unsigned)a * 2654435761u ^ (size_t)(unsigned)b * 40503u ^ (size_t)(unsigned)c * 97u;
}

static struct row_pair *pair_slot(struct row_pair *t, size_t cap, int yhi, int ylo)
{
	size_t j = mix(yhi, ylo, 0) & (cap - 1);
	while (t[j].used && (t[j].yhi != yhi || t[j].ylo != ylo))
		j = (j + 1) & (cap - 1);
	if (!t[j].used) {
		t[j].used = true;
		t[j].yhi = yhi;
		t[j].ylo = ylo;
	}
	return &t[j];
}

/* The place of the upper block among the blocks its row pair's bundles go up into, given
 * the first time it is asked. */
static size_t end_index(struct pair_end *t, size_t cap, struct row_pair *pair, int upper)
{
	size_t j = (mix(pair->yhi, pair->ylo, upper) ^ (size_t)upper) & (cap - 1);
	while (t[j].used && (t[j].pair != pair || t[j].upper != upper))
		j = (j + 1) & (cap - 1);
	if (!t[j].used) {
		t[j].used = true;
		t[j].pair = pair;
		t[j].upper = upper;
		t[j].idx = pair->n++;
	}
	return t[j].idx;
}

void place_routes(const struct design *d, const struct catalog *cat, struct placement *p)
{
	long *down = NULL, *up = NULL;
	if (cat && d->switches.n) {
		down = xmalloc(d->switches.n * sizeof *down);
		up = xmalloc(d->switches.n * sizeof *up);
		switch_ports_all(d, down, up);
	}
	place_routes_ports(d, cat, down, up, p);
	free(down);
	free(up);
}

/* Is one block wholly above the other, with rows between them? */
static bool above(const struct block *a, const struct block *b)
{
	return a->y + a->h <= b->y;
}

/* How a line joins two blocks. */
enum join { JOIN_NONE, JOIN_TIERS, JOIN_SIDE };

_Static_assert(sizeof(((struct route *)0)->from) == sizeof(((struct bundle *)0)->from) &&
		   sizeof(((struct route *)0)->to) == sizeof(((struct bundle *)0)->to),
	       "a route's names are its bundle's");

/* A bundle on its way to a route: its blocks (-1: no block of that name), how they are
 * joined, the crossing row's pair and place among the pair's upper blocks, its route, and
 * its links and speed (0: not in its label) for the label's short form. */
struct bref {
	int lo, hi, gbps;
	unsigned char join;
	long links;
	size_t idx, route;
	struct row_pair *pair;
};

/* Where a line between a and b runs (not its crossing row when they are a tier apart, which
 * the caller shares out): the ends on their borders and the first rows outside them. None
 * when no row joins them (boxes touching, or side by side on a one-row canvas). */
static enum join route_ends(const struct placement *p, const struct block *a, const struct block *b, struct route *r)
{
	r->x1 = a->x + a->w / 2;
	r->x2 = b->x + b->w / 2;
	if (above(b, a) || above(a, b)) {
		const struct block *top = above(b, a) ? b : a;
		bool up = top == b; /* the line goes up from a to b */
		int *xt = up ? &r->x2 : &r->x1, *xb = up ? &r->x1 : &r->x2;
		const struct block *bottom = up ? a : b;
		/* A straight line where the boxes face each other: into the upper one's middle
		 * (where the other lines into it meet) if the lower one spans it, or the other way. */
		if (*xt > bottom->x && *xt < bottom->x + bottom->w - 1)
			*xb = *xt;
		else if (*xb > top->x && *xb < top->x + top->w - 1)
			*xt = *xb;
		r->e1 = up ? a->y : a->y + a->h - 1;
		r->y1 = up ? r->e1 - 1 : r->e1 + 1;
		r->e2 = up ? b->y + b->h - 1 : b->y;
		r->y2 = up ? r->e2 + 1 : r->e2 - 1;
		return (up ? r->y2 <= r->y1 : r->y1 <= r->y2) ? JOIN_TIERS : JOIN_NONE;
	}
	/* Side by side: over their tops, or under them at the top of the canvas. */
	r->ymid = (a->y < b->y ? a->y : b->y) - 1;
	if (r->ymid >= 0) {
		r->e1 = a->y;
		r->e2 = b->y;
		r->y1 = a->y - 1;
		r->y2 = b->y - 1;
		return JOIN_SIDE;
	}
	r->ymid = a->y + a->h > b->y + b->h ? a->y + a->h : b->y + b->h;
	r->e1 = a->y + a->h - 1;
	r->e2 = b->y + b->h - 1;
	r->y1 = r->e1 + 1;
	r->y2 = r->e2 + 1;
	return r->ymid < p->h ? JOIN_SIDE : JOIN_NONE;
}

static void mark(struct placement *p, int x, int y, unsigned bits)
{
	if (x >= 0 && x < p->w && y >= 0 && y < p->h)
		p->cells[(size_t)y * (size_t)p->w + (size_t)x] |= (unsigned char)bits;
}

/* A straight leg from (xa, ya) to (xb, yb): each cell says which way the line leaves it. */
static void leg(struct placement *p, int xa, int ya, int xb, int yb, unsigned warn)
{
	int dx = (xb > xa) - (xb < xa), dy = (yb > ya) - (yb < ya);
	unsigned fwd = dx > 0 ? PL_RIGHT : dx < 0 ? PL_LEFT : dy > 0 ? PL_DOWN : PL_UP;
	unsigned back = fwd == PL_RIGHT ? PL_LEFT : fwd == PL_LEFT ? PL_RIGHT : fwd == PL_DOWN ? PL_UP : PL_DOWN;
	while (xa != xb || ya != yb) {
		mark(p, xa, ya, fwd | warn);
		xa += dx;
		ya += dy;
		mark(p, xa, ya, back | warn);
	}
}

/* A label of n columns at (x, y): inside the area with a space either side that touches no
 * block, line or label. */
static bool label_fits(const struct placement *p, int x, int y, int n)
{
	const unsigned char *row;
	int i;
	if (y < 0 || y >= p->h || x < 1 || x + n + 1 > p->w)
		return false;
	row = p->cells + (size_t)y * (size_t)p->w;
	/* Its ends first: a label that does not fit mostly runs into the next line over. */
	if ((row[x - 1] | row[x + n]) & (PL_LINE | PL_BLOCK | PL_LABEL))
		return false;
	for (i = x; i < x + n; i++)
		if (row[i] & (PL_LINE | PL_BLOCK | PL_LABEL))
			return false;
	return true;
}

static bool label_at(struct placement *p, struct route *r, int x, int y, int n)
{
	int i;
	if (!label_fits(p, x, y, n))
		return false;
	for (i = x - 1; i <= x + n; i++)
		mark(p, i, y, PL_LABEL);
	r->lx = x;
	r->ly = y;
	return true;
}

/* Rows of a leg from the crossing row to y (the crossing row left out), nearest first: a
 * label beside column x on one of them. */
static bool beside_leg(struct placement *p, struct route *r, int x, int y, int n)
{
	int step = y > r->ymid ? 1 : -1, k;
	for (k = r->ymid + step; y != r->ymid && (y - k) * step >= 0; k += step)
		if (label_at(p, r, x + 2, k, n) || label_at(p, r, x - 1 - n, k, n))
			return true;
	return false;
}

/* The first free place for a label of n columns: beside the crossing (after it, then before
 * it), beside the from leg, beside the to leg; for a block's bundle to itself, beside the
 * block, then over and under it. */
static bool place_label(struct placement *p, struct route *r, const struct block *self, int n)
{
	int lo = r->x1 < r->x2 ? r->x1 : r->x2, hi = r->x1 < r->x2 ? r->x2 : r->x1;
	if (self)
		return label_at(p, r, self->x + self->w + 1, self->y + self->h / 2, n) ||
		       label_at(p, r, self->x - 1 - n, self->y + self->h / 2, n) ||
		       label_at(p, r, self->x + 2, self->y - 1, n) || label_at(p, r, self->x + 2, self->y + self->h, n);
	return label_at(p, r, hi + 2, r->ymid, n) || label_at(p, r, lo - 1 - n, r->ymid, n) ||
	       beside_leg(p, r, r->x1, r->y1, n) || beside_leg(p, r, r->x2, r->y2, n);
}

/* A bundle's label ("256 x 400G 1:1", "full mesh, 12 x 100G"; "!" marks an oversubscribed
 * switch), and what its short form needs (route_short). */
static void route_label(const struct design *d, const struct catalog *cat, const long *down, const long *up,
			const struct bundle *b, struct route *r, struct bref *br)
{
	size_t si;
	bool to_switch = design_find(d, b->to, &si) == GK_SWITCH, ratio = to_switch && cat && down && up;
	long links = bundle_links(d, b);
	int gbps = cat && (r->self || ratio) ? bundle_speed_gbps(d, cat, b) : 0;
	char sp[16];
	speed_text(gbps, sp, sizeof sp);
	if (ratio)
		r->oversubscribed = up[si] > 0 && down[si] > up[si];
	if (r->self && gbps > 0)
		snprintf(r->label, sizeof r->label, "full mesh, %ld x %s", links, sp);
	else if (r->self)
		snprintf(r->label, sizeof r->label, "full mesh, %ld links", links);
	else if (ratio && up[si] > 0)
		snprintf(r->label, sizeof r->label, "%ld x %s %s%.2g:1", links, sp, r->oversubscribed ? "!" : "",
			 (double)down[si] / up[si]);
	else if (ratio)
		snprintf(r->label, sizeof r->label, "%ld x %s", links, sp);
	else
		snprintf(r->label, sizeof r->label, "%ld links", links);
	br->links = links;
	br->gbps = ratio || r->self ? gbps : 0;
}

/* The short form of a label: "256x400G" ("!" after it for an oversubscribed switch),
 * "mesh 12x100G", a bare link count; built by hand, as group_label is. */
static void route_short(const struct route *r, const struct bref *br, char *out, size_t size)
{
	char num[24], sp[16];
	size_t at = 0, k = 0;
	unsigned long v = br->links < 0 ? 0 : (unsigned long)br->links;
	do
		num[sizeof num - 2 - k++] = (char)('0' + v % 10);
	while ((v /= 10) && k < sizeof num - 2);
	num[sizeof num - 1] = '\0';
	if (r->self)
		at = put(out, size, at, "mesh ", 5);
	at = put(out, size, at, num + sizeof num - 1 - k, k);
	if (br->gbps > 0) {
		at = put(out, size, at, "x", 1);
		at = put(out, size, at, speed_text(br->gbps, sp, sizeof sp), sizeof sp);
	}
	if (r->oversubscribed)
		put(out, size, at, "!", 1);
}

/* Does a line crossing at row y miss every block but at its two ends' borders? */
static bool clear_at(const struct placement *p, const struct route *r, int y)
{
	int lo = r->x1 < r->x2 ? r->x1 : r->x2, hi = r->x1 < r->x2 ? r->x2 : r->x1, x, k;
	const unsigned char *row;
	if (y < 0 || y >= p->h || lo < 0 || hi >= p->w)
		return false;
	row = p->cells + (size_t)y * (size_t)p->w;
	for (x = lo; x <= hi; x++)
		if (row[x] & PL_BLOCK)
			return false;
	for (k = r->y1 < y ? r->y1 : y; k <= (r->y1 < y ? y : r->y1); k++)
		if (k >= 0 && k < p->h && (p->cells[(size_t)k * (size_t)p->w + (size_t)r->x1] & PL_BLOCK))
			return false;
	for (k = r->y2 < y ? r->y2 : y; k <= (r->y2 < y ? y : r->y2); k++)
		if (k >= 0 && k < p->h && (p->cells[(size_t)k * (size_t)p->w + (size_t)r->x2] & PL_BLOCK))
			return false;
	return true;
}

/* Two blocks side by side: over their tops (the ends on their top borders), rows upwards
 * from the one over the higher block, or else under them, rows downwards: the first row
 * whose line misses the other blocks. */
static bool side_row(const struct placement *p, struct route *r, const struct block *a, const struct block *b)
{
	int top = (a->y < b->y ? a->y : b->y) - 1, bottom = a->y + a->h > b->y + b->h ? a->y + a->h : b->y + b->h, y;
	struct route u = *r;
	u.e1 = a->y;
	u.e2 = b->y;
	u.y1 = u.e1 - 1;
	u.y2 = u.e2 - 1;
	for (y = top; y >= 0; y--)
		if (clear_at(p, &u, y)) {
			u.ymid = y;
			*r = u;
			return true;
		}
	u.e1 = a->y + a->h - 1;
	u.e2 = b->y + b->h - 1;
	u.y1 = u.e1 + 1;
	u.y2 = u.e2 + 1;
	for (y = bottom; y < p->h; y++)
		if (clear_at(p, &u, y)) {
			u.ymid = y;
			*r = u;
			return true;
		}
	return false;
}

/* Blocks a tier apart: the row want, or the nearest row between them, whose line misses
 * the other blocks. */
static bool tier_row(const struct placement *p, struct route *r, int want)
{
	int y0 = r->y1 < r->y2 ? r->y1 : r->y2, gap = abs(r->y1 - r->y2) + 1, d;
	for (d = 0; d < gap; d++) {
		if (want - d >= y0 && clear_at(p, r, want - d)) {
			r->ymid = want - d;
			return true;
		}
		if (d && want + d < y0 + gap && clear_at(p, r, want + d)) {
			r->ymid = want + d;
			return true;
		}
	}
	return false;
}

/* A line clear of the other blocks: its row found with its ends where route_ends put them,
 * or else with either end at its border's first or last column; where no such line is,
 * the line as it was (drawn under the block in its way). */
static void clear_route(const struct placement *p, struct route *r, const struct block *a, const struct block *b,
			int join, int want)
{
	int xa[3] = { r->x1, a->x + 1, a->x + a->w - 2 }, xb[3] = { r->x2, b->x + 1, b->x + b->w - 2 }, i, j;
	struct route keep = *r;
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			if ((i && xa[i] == xa[0]) || (j && xb[j] == xb[0]))
				continue;
			r->x1 = xa[i];
			r->x2 = xb[j];
			if (join == JOIN_SIDE ? side_row(p, r, a, b) : tier_row(p, r, want))
				return;
			*r = keep;
		}
}

void place_routes_ports(const struct design *d, const struct catalog *cat, const long *down, const long *up,
			struct placement *p)
{
	size_t i, k, nb = d->bundles.n, cap = 16, shown = 0, nv = 0, found = 0;
	bool pinned = false; /* a block stands where the user put it */
	struct strmap blocks;
	struct bref *br = xmalloc((nb ? nb : 1) * sizeof *br);
	size_t *vis; /* the drawn routes' bundles */
	struct row_pair *pairs;
	struct pair_end *ends;
	/* Each name's first block; the bundles whose ends are both drawn size the tables. */
	strmap_init(&blocks, p->blocks.n);
	for (i = 0; i < p->blocks.n; i++)
		strmap_add(&blocks, VEC_AT(p->blocks, struct block, i).name, (int)i);
	for (k = 0; k < nb; k++) {
		br[k].lo = strmap_get(&blocks, DESIGN_BUNDLE(d, k)->from);
		br[k].hi = strmap_get(&blocks, DESIGN_BUNDLE(d, k)->to);
		br[k].idx = 0;
		br[k].pair = NULL;
		br[k].join = JOIN_NONE;
		found += br[k].lo >= 0 && br[k].hi >= 0;
		shown += br[k].lo >= 0 && br[k].hi >= 0 && VEC_AT(p->blocks, struct block, (size_t)br[k].lo).w > 0 &&
			 VEC_AT(p->blocks, struct block, (size_t)br[k].hi).w > 0;
	}
	strmap_free(&blocks);
	/* A route per bundle whose ends are found: the storage at once, not by doubling. */
	if (!p->routes.v && found) {
		p->routes.v = xmalloc(found * sizeof(struct route));
		p->routes.cap = found;
	}
	while (cap < 2 * shown)
		cap *= 2;
	pairs = xcalloc(cap, sizeof *pairs);
	ends = xcalloc(cap, sizeof *ends);
	vis = xmalloc((shown ? shown : 1) * sizeof *vis);
	for (i = 0; i < nb; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		const struct block *lo, *hi;
		struct route *r;
		if (br[i].lo < 0 || br[i].hi < 0)
			continue;
		lo = &VEC_AT(p->blocks, struct block, (size_t)br[i].lo);
		hi = &VEC_AT(p->blocks, struct block, (size_t)br[i].hi);
		r = vec_push(&p->routes, sizeof *r); /* zeroed */
		/* Names of one size: copied whole (a NUL within), no strlen per bundle. */
		memcpy(r->from, b->from, sizeof r->from);
		memcpy(r->to, b->to, sizeof r->to);
		r->ly = -1;
		r->hidden = lo->w == 0 || hi->w == 0;
		r->self = lo == hi;
		if (r->self) {
			r->x1 = r->x2 = lo->x + lo->w / 2;
			r->y1 = r->y2 = r->ymid = r->e1 = r->e2 = lo->y;
		} else if ((br[i].join = (char)route_ends(p, lo, hi, r)) == JOIN_NONE) {
			r->hidden = true; /* no row between the blocks: nothing to draw on */
		} else if (!r->hidden && br[i].join == JOIN_TIERS && r->x1 != r->x2) {
			/* A tier apart, with a turn: a crossing row between them, one per upper block,
			 * the rows split in order of first use (a straight line takes the middle). */
			bool rises = above(hi, lo);
			br[i].pair = pair_slot(pairs, cap, rises ? hi->y : lo->y, rises ? lo->y : hi->y);
			br[i].idx = end_index(ends, cap, br[i].pair, rises ? br[i].hi : br[i].lo);
		}
		br[i].route = p->routes.n - 1;
		if (!r->hidden) { /* a hidden bundle is not drawn: no label */
			route_label(d, cat, down, up, b, r, &br[i]);
			vis[nv++] = i;
		}
	}
	/* The cells: blocks, then lines, then each label where it is free. */
	free(p->cells);
	p->cells = xcalloc((size_t)(p->w > 0 ? p->w : 1) * (size_t)(p->h > 0 ? p->h : 1), 1);
	for (i = 0; i < p->blocks.n; i++) {
		const struct block *bl = &VEC_AT(p->blocks, struct block, i);
		int y, x;
		pinned |= bl->pinned && bl->w > 0;
		for (y = bl->y; y < bl->y + bl->h; y++)
			for (x = bl->x; x < bl->x + bl->w; x++)
				mark(p, x, y, PL_BLOCK);
	}
	/* Crossing rows, now that the rows' turns are counted: a tier apart, the row shared out
	 * or the nearest one to it whose line misses the other blocks (a block the user moved
	 * into the way); side by side, the first such row over their tops, or else under them. */
	for (k = 0; k < nv; k++) {
		struct route *r = &VEC_AT(p->routes, struct route, br[i = vis[k]].route);
		const struct block *a = &VEC_AT(p->blocks, struct block, (size_t)br[i].lo);
		const struct block *b = &VEC_AT(p->blocks, struct block, (size_t)br[i].hi);
		int y0, gap, want;
		size_t n = br[i].pair ? br[i].pair->n : 1;
		if (br[i].join == JOIN_SIDE) {
			clear_route(p, r, a, b, JOIN_SIDE, r->ymid);
			continue;
		}
		if (br[i].join != JOIN_TIERS)
			continue;
		y0 = r->y1 < r->y2 ? r->y1 : r->y2;
		gap = abs(r->y1 - r->y2) + 1;
		want = y0 + (gap * ((int)br[i].idx + 1)) / ((int)n + 1);
		r->ymid = want > y0 + gap - 1 ? y0 + gap - 1 : want;
		/* Between neighbouring tiers' rows only a moved block or a note can be in the way. */
		if (pinned || abs(a->tier - b->tier) > 1)
			clear_route(p, r, a, b, JOIN_TIERS, r->ymid);
	}
	for (k = 0; k < nv; k++) {
		const struct route *r = &VEC_AT(p->routes, struct route, br[vis[k]].route);
		if (r->self)
			continue;
		leg(p, r->x1, r->e1, r->x1, r->ymid, r->oversubscribed ? PL_WARN : 0);
		leg(p, r->x1, r->ymid, r->x2, r->ymid, r->oversubscribed ? PL_WARN : 0);
		leg(p, r->x2, r->ymid, r->x2, r->e2, r->oversubscribed ? PL_WARN : 0);
	}
	for (k = 0; k < nv; k++) {
		struct route *r = &VEC_AT(p->routes, struct route, br[i = vis[k]].route);
		const struct block *self = r->self ? &VEC_AT(p->blocks, struct block, (size_t)br[i].lo) : NULL;
		char shorter[48];
		if (place_label(p, r, self, (int)strlen(r->label)))
			continue;
		/* The long form fits nowhere: the short one, or none (the long one kept, not drawn). */
		route_short(r, &br[i], shorter, sizeof shorter);
		if (place_label(p, r, self, (int)strlen(shorter)))
			put(r->label, sizeof r->label, 0, shorter, sizeof r->label - 1);
	}
	free(br);
	free(vis);
	free(pairs);
	free(ends);
}

void placement_free(struct placement *p)
{
	vec_release(&p->blocks);
	vec_release(&p->routes);
	free(p->cells);
	p->cells = NULL;
}

const struct block *placement_find(const struct placement *p, const char *name)
{
	size_t i;
	for (i = 0; i < p->blocks.n; i++)
		if (strcmp(VEC_AT(p->blocks, struct block, i).name, name) == 0)
			return &VEC_AT(p->blocks, struct block, i);
	return NULL;
}
