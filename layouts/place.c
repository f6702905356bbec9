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

/* The blocks a block on row y (PLACE_BOX_H high) must not overlap: indices into p->blocks
 * of the pinned and placed blocks that reach into the row. */
struct row_obstacles {
	size_t *v, n;
};

static void row_obstacles(const struct placement *p, int y, struct row_obstacles *o)
{
	size_t i;
	o->n = 0;
	for (i = 0; i < p->blocks.n; i++) {
		const struct block *b = &VEC_AT(p->blocks, struct block, i);
		if ((b->pinned || b->w > 0) && b->y < y + PLACE_BOX_H && y < b->y + b->h)
			o->v[o->n++] = i;
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

static int row_y(int tier, int top_tier, int h)
{
	/* Rows spread over the height, the top tier first and servers last; a row of space
	 * between tiers for the bundles when it fits, touching boxes when it does not; on a
	 * tall canvas the diagram keeps a readable spacing and sits in the middle. */
	int rows = top_tier + 1, gap, total;
	if (rows == 1)
		return h > PLACE_BOX_H ? (h - PLACE_BOX_H) / 2 : 0;
	gap = (h - PLACE_BOX_H) / (rows - 1);
	if (gap > PLACE_MAX_GAP)
		gap = PLACE_MAX_GAP;
	if (gap < PLACE_BOX_H)
		gap = PLACE_BOX_H;
	total = (rows - 1) * gap + PLACE_BOX_H;
	return (h > total ? (h - total) / 2 : 0) + (top_tier - tier) * gap;
}

void place_design(const struct design *d, int w, int h, struct placement *p)
{
	size_t i;
	int tier, top = 0;
	char label[96];
	struct strmap pins;
	struct row_obstacles ob;
	memset(p, 0, sizeof *p);
	p->w = w;
	p->h = h;
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
	/* Notes stand where the user put them. */
	for (i = 0; i < d->canvas.notes.n; i++) {
		const struct note *nt = &VEC_AT(d->canvas.notes, struct note, i);
		struct block *b = add(p, GK_NOTE, 0, "", -1, nt->text);
		int len = (int)strlen(b->label) + 4;
		b->pinned = true;
		b->h = PLACE_BOX_H;
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
		b->h = PLACE_BOX_H;
		if (pos) {
			b->pinned = true;
			b->w = len < w ? len : w;
			b->x = pos->x + b->w <= w ? pos->x : (w - b->w > 0 ? w - b->w : 0);
			b->y = pos->y + b->h <= h ? pos->y : (h - b->h > 0 ? h - b->h : 0);
		}
	}
	strmap_free(&pins);
	/* Room for every block and a "+N more" one per tier. */
	ob.v = xmalloc((p->blocks.n + (size_t)top + 2) * sizeof *ob.v);
	for (tier = 0; tier <= top; tier++) {
		int n = 0, k = 0, slot, fit = w / PLACE_MIN_W, shown, y = row_y(tier, top, h);
		for (i = 0; i < p->blocks.n; i++)
			n += VEC_AT(p->blocks, struct block, i).tier == tier && !VEC_AT(p->blocks, struct block, i).pinned;
		if (!n)
			continue;
		/* More blocks than the row holds: the last slot says how many are not shown. */
		shown = n <= fit ? n : (fit > 1 ? fit - 1 : 0);
		if (shown < n) {
			snprintf(label, sizeof label, "+%d more", n - shown);
			add(p, GK_NONE, 0, "", tier, label)->h = PLACE_BOX_H;
		}
		slot = w / (shown < n ? shown + 1 : n);
		row_obstacles(p, y, &ob);
		for (i = 0; i < p->blocks.n; i++) {
			struct block *b = &VEC_AT(p->blocks, struct block, i);
			int bw, x0, dx;
			if (b->tier != tier || b->pinned)
				continue;
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
			if (bw > 0)
				ob.v[ob.n++] = i; /* placed on this row: later blocks go around it */
			if ((int)strlen(b->label) > bw - 4 && bw > 5) {
				b->label[bw - 5] = '~'; /* cut labels say so */
				b->label[bw - 4] = '\0';
			}
		}
	}
	free(ob.v);
}

static const char *speed_text(int gbps, char *buf, size_t size)
{
	if (gbps >= 1000 && gbps % 1000 == 0)
		snprintf(buf, size, "%dT", gbps / 1000);
	else
		snprintf(buf, size, "%dG", gbps);
	return buf;
}

/* The rows a bundle joins (the y of its lower and upper block), counted in one pass: an
 * open-addressing table of row pairs, each with how many bundles join it so far. */
struct row_pair {
	int ylo, yhi;
	size_t n;
	bool used;
};

static struct row_pair *pair_slot(struct row_pair *t, size_t cap, int ylo, int yhi)
{
	size_t j = ((size_t)(unsigned)ylo * 2654435761u ^ (size_t)(unsigned)yhi * 40503u) & (cap - 1);
	while (t[j].used && (t[j].ylo != ylo || t[j].yhi != yhi))
		j = (j + 1) & (cap - 1);
	if (!t[j].used) {
		t[j].used = true;
		t[j].ylo = ylo;
		t[j].yhi = yhi;
	}
	return &t[j];
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

void place_routes_ports(const struct design *d, const struct catalog *cat, const long *down, const long *up,
			struct placement *p)
{
	size_t i, k, nb = d->bundles.n, cap = 16;
	struct strmap blocks;
	int *lo_of = xmalloc((nb ? nb : 1) * sizeof *lo_of), *hi_of = xmalloc((nb ? nb : 1) * sizeof *hi_of);
	size_t *idx = xcalloc(nb ? nb : 1, sizeof *idx);
	struct row_pair *pairs, **pair_of = xcalloc(nb ? nb : 1, sizeof *pair_of);
	while (cap < 2 * nb)
		cap *= 2;
	pairs = xcalloc(cap, sizeof *pairs);
	/* Each name's first block. */
	strmap_init(&blocks, p->blocks.n);
	for (i = 0; i < p->blocks.n; i++)
		strmap_add(&blocks, VEC_AT(p->blocks, struct block, i).name, (int)i);
	/* Bundles between the same two rows take different rows for their crossing: each one's
	 * place among them in design order, and (after the pass) how many there are. */
	for (k = 0; k < nb; k++) {
		lo_of[k] = strmap_get(&blocks, DESIGN_BUNDLE(d, k)->from);
		hi_of[k] = strmap_get(&blocks, DESIGN_BUNDLE(d, k)->to);
		if (lo_of[k] >= 0 && hi_of[k] >= 0) {
			pair_of[k] = pair_slot(pairs, cap, VEC_AT(p->blocks, struct block, (size_t)lo_of[k]).y,
					       VEC_AT(p->blocks, struct block, (size_t)hi_of[k]).y);
			idx[k] = pair_of[k]->n++;
		}
	}
	strmap_free(&blocks);
	for (i = 0; i < nb; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		const struct block *lo, *hi;
		struct route *r;
		char sp[16];
		long links;
		int gap;
		if (lo_of[i] < 0 || hi_of[i] < 0)
			continue;
		lo = &VEC_AT(p->blocks, struct block, (size_t)lo_of[i]);
		hi = &VEC_AT(p->blocks, struct block, (size_t)hi_of[i]);
		r = vec_push(&p->routes, sizeof *r);
		put(r->from, sizeof r->from, 0, b->from, sizeof r->from);
		put(r->to, sizeof r->to, 0, b->to, sizeof r->to);
		r->hidden = lo->w == 0 || hi->w == 0;
		r->x1 = lo->x + lo->w / 2;
		r->y1 = lo->y - 1;
		r->x2 = hi->x + hi->w / 2;
		r->y2 = hi->y + hi->h;
		gap = r->y1 - r->y2 + 1;
		r->ymid = gap > 0 ? r->y2 + (gap * ((int)idx[i] + 1)) / ((int)pair_of[i]->n + 1) : r->y2;
		if (r->ymid > r->y1)
			r->ymid = r->y1;
		if (!r->hidden) { /* a hidden bundle is not drawn: no label */
			size_t si;
			bool to_switch = design_find(d, b->to, &si) == GK_SWITCH;
			links = bundle_links(d, b);
			if (to_switch && cat && down && up) {
				long dn = down[si], upl = up[si];
				r->oversubscribed = upl > 0 && dn > upl;
				if (upl > 0)
					snprintf(r->label, sizeof r->label, "%ld x %s %s%.2g:1", links,
						 speed_text(bundle_speed_gbps(d, cat, b), sp, sizeof sp), r->oversubscribed ? "!" : "",
						 (double)dn / upl);
				else
					snprintf(r->label, sizeof r->label, "%ld x %s", links,
						 speed_text(bundle_speed_gbps(d, cat, b), sp, sizeof sp));
			} else {
				snprintf(r->label, sizeof r->label, "%ld links", links);
			}
		}
		r->ly = r->ymid;
		r->lx = (r->x1 > r->x2 ? r->x1 : r->x2) + 2;
		if (r->lx + (int)strlen(r->label) > p->w)
			r->lx = (r->x1 < r->x2 ? r->x1 : r->x2) - 1 - (int)strlen(r->label);
		if (r->lx < 0)
			r->lx = 0;
	}
	free(lo_of);
	free(hi_of);
	free(idx);
	free(pair_of);
	free(pairs);
}

void placement_free(struct placement *p)
{
	vec_release(&p->blocks);
	vec_release(&p->routes);
}

const struct block *placement_find(const struct placement *p, const char *name)
{
	size_t i;
	for (i = 0; i < p->blocks.n; i++)
		if (strcmp(VEC_AT(p->blocks, struct block, i).name, name) == 0)
			return &VEC_AT(p->blocks, struct block, i);
	return NULL;
}
