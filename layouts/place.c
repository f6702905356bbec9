#include "layouts/place.h"
#include <stdio.h>
#include <string.h>

static const struct position *pinned_at(const struct design *d, const char *name)
{
	size_t i;
	for (i = 0; i < d->canvas.positions.n; i++)
		if (strcmp(VEC_AT(d->canvas.positions, struct position, i).block, name) == 0)
			return &VEC_AT(d->canvas.positions, struct position, i);
	return NULL;
}

static struct block *add(struct placement *p, int kind, int id, const char *name, int tier, const char *label)
{
	struct block *b = vec_push(&p->blocks, sizeof *b);
	b->kind = kind;
	b->id = id;
	b->tier = tier;
	snprintf(b->name, sizeof b->name, "%s", name);
	snprintf(b->label, sizeof b->label, "%.95s", label);
	return b;
}

bool block_overlap(const struct block *a, const struct block *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static bool free_at(const struct placement *p, const struct block *self, int x, int y, int w)
{
	size_t i;
	struct block probe = *self;
	probe.x = x;
	probe.y = y;
	probe.w = w;
	for (i = 0; i < p->blocks.n; i++) {
		const struct block *o = &VEC_AT(p->blocks, struct block, i);
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
	memset(p, 0, sizeof *p);
	p->w = w;
	p->h = h;
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		snprintf(label, sizeof label, "%.40s %d x %.40s", g->name, g->count, g->model[0] ? g->model : g->gpu);
		add(p, GK_SERVER, g->id, g->name, 0, label);
	}
	for (i = 0; i < d->domains.n; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		snprintf(label, sizeof label, "%.40s %d x NVLink domain", m->name, m->count);
		add(p, GK_DOMAIN, m->id, m->name, 0, label);
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *s = DESIGN_SWITCH(d, i);
		snprintf(label, sizeof label, "%.40s %d x %.40s", s->name, s->count, s->model);
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
	/* Pinned blocks first, so the others flow around them. */
	for (i = 0; i < p->blocks.n; i++) {
		struct block *b = &VEC_AT(p->blocks, struct block, i);
		const struct position *pos = b->kind == GK_NOTE ? NULL : pinned_at(d, b->name);
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
	for (tier = 0; tier <= top; tier++) {
		int n = 0, k = 0, slot, fit = w / PLACE_MIN_W, shown;
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
		for (i = 0; i < p->blocks.n; i++) {
			struct block *b = &VEC_AT(p->blocks, struct block, i);
			int bw, x0, y = row_y(tier, top, h), dx;
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
				if (x0 + dx + bw <= w && free_at(p, b, x0 + dx, y, bw)) {
					x0 += dx;
					break;
				}
				if (x0 - dx >= 0 && free_at(p, b, x0 - dx, y, bw)) {
					x0 -= dx;
					break;
				}
			}
			b->x = x0;
			b->w = bw;
			if ((int)strlen(b->label) > bw - 4 && bw > 5) {
				b->label[bw - 5] = '~'; /* cut labels say so */
				b->label[bw - 4] = '\0';
			}
		}
	}
}

static const char *speed_text(int gbps, char *buf, size_t size)
{
	if (gbps >= 1000 && gbps % 1000 == 0)
		snprintf(buf, size, "%dT", gbps / 1000);
	else
		snprintf(buf, size, "%dG", gbps);
	return buf;
}

void place_routes(const struct design *d, const struct catalog *cat, struct placement *p)
{
	size_t i, k;
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		const struct block *lo = placement_find(p, b->from), *hi = placement_find(p, b->to);
		struct route *r;
		char sp[16];
		long links = bundle_links(d, b);
		int n_between = 0, idx = 0, gap;
		if (!lo || !hi)
			continue;
		r = vec_push(&p->routes, sizeof *r);
		snprintf(r->from, sizeof r->from, "%s", b->from);
		snprintf(r->to, sizeof r->to, "%s", b->to);
		r->hidden = lo->w == 0 || hi->w == 0;
		r->x1 = lo->x + lo->w / 2;
		r->y1 = lo->y - 1;
		r->x2 = hi->x + hi->w / 2;
		r->y2 = hi->y + hi->h;
		/* Bundles between the same two rows take different rows for their crossing. */
		for (k = 0; k < d->bundles.n; k++) {
			const struct block *a = placement_find(p, DESIGN_BUNDLE(d, k)->from);
			const struct block *z = placement_find(p, DESIGN_BUNDLE(d, k)->to);
			if (a && z && a->y == lo->y && z->y == hi->y) {
				if (k < i)
					idx++;
				n_between++;
			}
		}
		gap = r->y1 - r->y2 + 1;
		r->ymid = gap > 0 ? r->y2 + (gap * (idx + 1)) / (n_between + 1) : r->y2;
		if (r->ymid > r->y1)
			r->ymid = r->y1;
		{
			const struct switch_group *up = NULL;
			size_t si;
			if (design_find(d, b->to, &si) == GK_SWITCH)
				up = DESIGN_SWITCH(d, si);
			if (up && cat) {
				long dn, upl;
				switch_ports_used(d, up, &dn, &upl);
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
