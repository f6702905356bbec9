/* fabric.c: the summary of the group graph that the report, the panel and exports read. */
#include "model/fabric.h"
#include "model/topo.h"
#include "model/alloc.h"
#include "model/bisect.h"
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static double min_d(double a, double b)
{
	return a < b ? a : b;
}

/* ---- the node and its ceiling ---------------------------------------------------------- */

/* ---- the split by rank: the most the first half of the job's nodes can send to the second
 * The bisection itself is the worst-case balanced cut (bisect.h); this is the capacity of
 * one balanced split, the first floor(n/2) nodes by rank against the rest, so an upper
 * bound of it: the figure shown where bisect.h has no exact programme (direct links, peer
 * stages), and what the tests compare the minimum with. A max-flow on the tree of
 * components, bottom up (exact for a hierarchy): at each component the halves exchange
 * what they can inside; what is left of each side climbs, capped by the component's
 * uplinks (each direction on its own), to its parent. Components are named (switch group,
 * order, number), as the groups bundled into a switch group share them (topo.h "Levels");
 * an interleaved component holds every node of its residue. Planes (the servers' switch
 * bundles, matched by network) are separate networks: their flows add; direct links add
 * the pairs they join across the halves. Cost: the components the job's groups touch, not
 * their nodes. */

struct bcomp {
	int sw, order;
	long b;
	double sa, sb, up;
	int psw, porder;
	long pb;
	int nsw;                /* switches in it */
	bool parent, used;
};

struct bmap {
	struct bcomp *v;
	size_t cap, n;
	size_t *slot;           /* the used slots, n of them, in the order they were filled */
	size_t slot_cap;
};

/* The table's capacity is a power of two. */
static size_t bslot(const struct bmap *m, int sw, int order, long b)
{
	unsigned long long h = ((unsigned long long)(sw + 3) * 0x9e3779b97f4a7c15ULL + (unsigned long long)order) ^
			       (unsigned long long)b * 0xff51afd7ed558ccdULL;
	size_t i = (size_t)((h ^ (h >> 31)) & (m->cap - 1));
	while (m->v[i].used && !(m->v[i].sw == sw && m->v[i].order == order && m->v[i].b == b))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static struct bcomp *bget(struct bmap *m, int sw, int order, long b)
{
	size_t i = bslot(m, sw, order, b);
	if (m->v[i].used)
		return &m->v[i];
	if (m->n * 2 + 2 >= m->cap) {
		/* Grow before inserting: rehash every entry. */
		struct bmap nm;
		size_t k;
		nm.cap = m->cap * 2;
		nm.n = 0;
		nm.v = xcalloc(nm.cap, sizeof *nm.v);
		nm.slot = m->slot;
		nm.slot_cap = m->slot_cap;
		/* In slot order (the table is dense here: the scan costs its entries). */
		for (k = 0; k < m->cap; k++)
			if (m->v[k].used) {
				size_t j = bslot(&nm, m->v[k].sw, m->v[k].order, m->v[k].b);
				nm.v[j] = m->v[k];
				nm.slot[nm.n++] = j;
			}
		free(m->v);
		*m = nm;
		i = bslot(m, sw, order, b);
	}
	if (m->n == m->slot_cap) {
		m->slot_cap = m->slot_cap ? m->slot_cap * 2 : 64;
		m->slot = xrealloc(m->slot, m->slot_cap * sizeof *m->slot);
	}
	m->slot[m->n] = i;
	memset(&m->v[i], 0, sizeof m->v[i]);
	m->v[i].used = true;
	m->v[i].sw = sw;
	m->v[i].order = order;
	m->v[i].b = b;
	m->n++;
	return &m->v[i];
}

/* What one run of a half's nodes adds to the leaf-level components it falls in. */
struct half_run {
	struct bmap *m;
	const struct topo_ngroup *g;
	const struct topo_plane *p;
	double per_node;
	bool side_b;
	bool agg;               /* one component per block for all its rail groups (alike) */
	long x_first, x_last;   /* the group's used positions in the plane */
	/* Bulk: a leaf component strictly inside the group's (first < id < last, not one the
	 * halves split) holds this group's nodes of one half only: nothing matches inside, it
	 * sends min(its half, its uplinks) up. Its parent takes that without the leaf being
	 * stored (the table is the cost at 10^5 leaf switches). */
	bool bulk;
	long id_first, id_last, id_split[2];
	struct bcomp *pend_parent;  /* the parent being filled by consecutive bulk leaves */
	double pend_add;
	int pend_rail;
	long pend_x;
};

/* A position of the group in leaf-level component id (it names the component's chain). */
static long rep_position(const struct half_run *r, long id)
{
	const struct topo_level *l = &r->p->level[0];
	long B, x;
	if (l->size >= TOPO_ALL)
		return r->x_first;
	B = id - l->base;
	if (l->modulus > 0) {
		long B0 = (r->x_first + l->shift) / l->size;
		B = B0 + (((B - B0) % l->modulus) + l->modulus) % l->modulus;
	}
	x = B * l->size - l->shift;
	if (x < r->x_first)
		x = r->x_first;
	/* The first node position at or after it (nodes are spn positions apart). */
	x = r->x_first + (x - r->x_first + r->g->spn - 1) / r->g->spn * r->g->spn;
	return x <= r->x_last ? x : r->x_last;
}

/* The chain above leaf-level component bc of rail `rail` at position x: each level's
 * component (its rail group's), its uplinks, its parent. */
static void half_chain_at(const struct half_run *r, struct bcomp *cur, long x, int rail, int lv0)
{
	int lv;
	for (lv = lv0; lv < r->p->nlevels && !cur->parent; lv++) {
		const struct topo_level *l = &r->p->level[lv];
		const struct topo_level *u = lv + 1 < r->p->nlevels ? &r->p->level[lv + 1] : NULL;
		long groups = r->agg ? topo_rail_groups(l) : 1;
		cur->parent = true;
		cur->nsw = (int)(l->switches * groups);
		cur->up = l->uplinks > 0 ? (double)groups * l->switches * l->uplinks * l->link_GBps : 0;
		if (!u) {
			cur->psw = -1;
			return;
		}
		cur->psw = u->sw;
		cur->porder = u->order;
		cur->pb = topo_comp_rail(u, x, rail);
		cur = bget(r->m, u->sw, u->order, cur->pb); /* may move the table: cur is the new entry */
	}
}

static void half_chain(const struct half_run *r, struct bcomp *cur, long x, int rail)
{
	half_chain_at(r, cur, x, rail, 0);
}


/* What bulk leaves gathered for one parent, into it. */
static void bulk_flush(struct half_run *r)
{
	struct bcomp *pc;
	if (!r->pend_parent)
		return;
	pc = r->pend_parent;
	r->pend_parent = NULL;
	if (r->side_b)
		pc->sb += r->pend_add;
	else
		pc->sa += r->pend_add;
	if (!pc->parent)
		half_chain_at(r, pc, r->pend_x, r->pend_rail, 1);
}

static void half_add(long lo, long hi, long count, void *arg)
{
	struct half_run *r = arg;
	const struct topo_level *l0 = &r->p->level[0];
	long G = r->agg ? 1 : topo_rail_groups(l0), id, g, Gk = topo_rail_groups(l0);
	long rm = l0->rail_mod > 0 ? l0->rail_mod : 1, rb = l0->rail_block > 0 ? l0->rail_block : 1;
	/* Only the rail groups this group's ports reach: rail l is in group (l mod rm) / rb. */
	if (!r->agg && r->p->links > 0 && r->p->links < rm && (r->p->links - 1) / rb + 1 < G)
		G = (r->p->links - 1) / rb + 1;
	/* Each rail group of a block is a component with its share of the node's ports (or,
	 * alike in every group at every level, one for all of them: key block x G). */
	double share = r->agg ? 1 : r->p->links > 0 ? (double)l0->rails / r->p->links : 1;
	long groups = r->agg ? Gk : 1;
	double up = l0->uplinks > 0 ? (double)groups * l0->switches * l0->uplinks * l0->link_GBps : 0;
	for (id = lo; id <= hi; id++)
		for (g = 0; g < G; g++) {
			int rail = (int)(g * (l0->rail_block > 0 ? l0->rail_block : 1));
			struct bcomp *bc;
			if (r->bulk && id > r->id_first && id < r->id_last && id != r->id_split[0] && id != r->id_split[1]) {
				double v = count * r->per_node * share, send = v < up ? v : up;
				long x;
				int psw, por;
				long pb;
				if (r->p->nlevels < 2 || send <= 0)
					continue; /* nothing above it, or no uplinks: it adds nothing */
				x = rep_position(r, id);
				psw = r->p->level[1].sw;
				por = r->p->level[1].order;
				pb = topo_comp_rail(&r->p->level[1], x, rail);
				if (r->pend_parent && !(r->pend_parent->sw == psw && r->pend_parent->order == por &&
							r->pend_parent->b == pb))
					bulk_flush(r);
				if (!r->pend_parent) {
					r->pend_parent = bget(r->m, psw, por, pb);
					r->pend_add = 0;
					r->pend_x = x;
					r->pend_rail = rail;
				}
				r->pend_add += send;
				continue;
			}
			bulk_flush(r); /* (bget below may move the table) */
			bc = bget(r->m, l0->sw, l0->order, id * Gk + g);
			if (r->side_b)
				bc->sb += count * r->per_node * share;
			else
				bc->sa += count * r->per_node * share;
			if (!bc->parent)
				half_chain(r, bc, rep_position(r, id), rail);
		}
}

/* Links between two components joined by peer bundles: every switch of one to every switch
 * of the other, L links per pair, over each bundle between their groups. */
static double peer_pair(const struct topo *t, const struct bcomp *x, const struct bcomp *y)
{
	double c = 0;
	int k;
	for (k = 0; k < t->npeers; k++) {
		const struct topo_peer *pe = &t->peers[k];
		if ((pe->a == x->sw && pe->b == y->sw) || (pe->a == y->sw && pe->b == x->sw))
			c += (double)pe->links * pe->link_GBps * x->nsw * y->nsw;
	}
	return c;
}

/* What is left of each half in the children of one peer component, exchanged over the peer
 * links between them: a max-flow (Edmonds-Karp on the children, with a path through a
 * third switch where two are not linked, as an ISL chain routes). With more children than
 * PEER_EXACT, the links are taken as a hub: each child's up to its own peer links. */
#define PEER_EXACT 96
struct pend {
	const struct bcomp *c;
	size_t parent;
	double ra, rb;
};

static double peer_flow(const struct topo *t, const struct pend *ch, size_t k)
{
	size_t V = k + 2, S = k, T = k + 1, i, j;
	double *cap, flow = 0, sa = 0, sb = 0;
	size_t *prev, *queue;
	if (k > PEER_EXACT) {
		for (i = 0; i < k; i++) {
			sa += min_d(ch[i].ra, ch[i].c->up);
			sb += min_d(ch[i].rb, ch[i].c->up);
		}
		return min_d(sa, sb);
	}
	cap = xcalloc(V * V, sizeof *cap);
	prev = xcalloc(V, sizeof *prev);
	queue = xcalloc(V, sizeof *queue);
	for (i = 0; i < k; i++) {
		cap[S * V + i] = ch[i].ra;
		cap[i * V + T] = ch[i].rb;
		for (j = i + 1; j < k; j++)
			cap[i * V + j] = cap[j * V + i] = peer_pair(t, ch[i].c, ch[j].c);
	}
	for (;;) {
		size_t qh = 0, qt = 0, v;
		double push = 1e300;
		for (i = 0; i < V; i++)
			prev[i] = V;
		prev[S] = S;
		queue[qt++] = S;
		while (qh < qt && prev[T] == V) {
			size_t u = queue[qh++];
			for (v = 0; v < V; v++)
				if (prev[v] == V && cap[u * V + v] > 1e-9) {
					prev[v] = u;
					queue[qt++] = v;
				}
		}
		if (prev[T] == V)
			break;
		for (v = T; v != S; v = prev[v])
			push = min_d(push, cap[prev[v] * V + v]);
		for (v = T; v != S; v = prev[v]) {
			cap[prev[v] * V + v] -= push;
			cap[v * V + prev[v]] += push;
		}
		flow += push;
	}
	free(cap);
	free(prev);
	free(queue);
	return flow;
}

static int bcomp_order(const void *pa, const void *pb)
{
	const struct bcomp *a = *(const struct bcomp *const *)pa, *b = *(const struct bcomp *const *)pb;
	return a->order != b->order ? (a->order < b->order ? -1 : 1) : 0;
}


/* Slots ascending: an LSD radix sort of 11 bits a pass, as far as the table's size needs. */
static void slots_sort(size_t *s, size_t n, size_t cap)
{
	static size_t *tmp;
	static size_t tmp_cap;
	size_t shift, i;
	if (n < 2)
		return;
	if (n < 64) {
		for (i = 1; i < n; i++) {
			size_t v = s[i], j = i;
			for (; j > 0 && s[j - 1] > v; j--)
				s[j] = s[j - 1];
			s[j] = v;
		}
		return;
	}
	if (tmp_cap < n) {
		free(tmp);
		tmp_cap = n;
		tmp = xmalloc(n * sizeof *tmp);
	}
	for (shift = 0; shift < sizeof(size_t) * 8 && ((cap - 1) >> shift); shift += 11) {
		size_t cnt[2048] = { 0 }, *a = s, *b = tmp, sum = 0, d;
		for (i = 0; i < n; i++)
			cnt[(a[i] >> shift) & 2047]++;
		for (d = 0; d < 2048; d++) {
			size_t c = cnt[d];
			cnt[d] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[cnt[(a[i] >> shift) & 2047]++] = a[i];
		memcpy(s, b, n * sizeof *s);
	}
}

/* plane_flow's table, kept for the next call (its entries clear). */
static struct bmap bpool;

static double plane_flow(const struct topo *t, int pi, long h)
{
	struct bmap m;
	int i;
	size_t k, nc = 0, npend = 0, cpend = 0;
	double flow = 0;
	struct bcomp **list;
	struct pend *pend = NULL;
	bool agg = true;
	size_t want = 16, want_agg = 16, alloc;
	bool bulk = true;
	size_t cap0;
	/* Rail groups alike everywhere (every group reaching a level splits it into as many):
	 * one component per block carries them all. Else each rail group on its own. The
	 * table starts at the leaf-level components the groups touch (it grows for the rest). */
	{
		long *G_of = xcalloc((size_t)(t->nsw > 0 ? t->nsw : 1) * 2, sizeof *G_of);
		for (i = 0; i < t->nplaced; i++) {
			const struct topo_ngroup *g = &t->ng[t->order[i]];
			const struct topo_plane *p;
			int lv;
			if (!g->used || pi >= g->nswitch)
				continue;
			p = &g->plane[pi];
			for (lv = 0; lv < p->nlevels; lv++) {
				const struct topo_level *l = &p->level[lv];
				long G = topo_rail_groups(l), *e;
				if (l->sw < 0 || l->sw >= t->nsw)
					continue;
				e = &G_of[l->sw * 2 + (l->order & 1)];
				if (!*e)
					*e = G;
				else if (*e != G)
					agg = false;
			}
			{
				const struct topo_level *l = &p->level[0];
				long blocks = l->size >= TOPO_ALL ? 1
					      : l->modulus > 0 ? l->modulus
							       : (topo_pos(g, p, g->used - 1) - topo_pos(g, p, 0)) / l->size + 2;
				want += (size_t)blocks * (size_t)topo_rail_groups(l) * (size_t)g->spn;
				want_agg += (size_t)blocks * (size_t)g->spn;
			}
		}
		free(G_of);
	}
	if (agg)
		want = want_agg;
	m.cap = 64;
	while (m.cap < want * 2 && m.cap < ((size_t)1 << 22))
		m.cap *= 2;
	m.n = 0;
	/* The table's memory is kept from one call to the next (fresh pages cost a fault each:
	 * at 10^5 components that was most of the recompute). */
	if (bpool.cap >= m.cap) {
		m.v = bpool.v; /* bpool.cap entries allocated (all clear), m.cap of them used */
		alloc = bpool.cap;
	} else {
		free(bpool.v);
		m.v = xcalloc(m.cap, sizeof *m.v);
		alloc = m.cap;
	}
	cap0 = m.cap; /* the table owns it now (bget may replace it as it grows: a new cap) */
	m.slot = bpool.slot;
	m.slot_cap = bpool.slot_cap;
	bpool.v = NULL;
	bpool.cap = 0;
	bpool.slot = NULL;
	bpool.slot_cap = 0;
	/* Bulk leaves need each group's leaf components to itself but at its ends. */
	bulk = bulk && topo_leaves_apart(t, pi);
	for (i = 0; i < t->nplaced; i++) {
		const struct topo_ngroup *g = &t->ng[t->order[i]];
		struct half_run r;
		long a;
		if (!g->used || pi >= g->nswitch)
			continue;
		long trays = 1, tr;
		const struct topo_level *l0;
		r.m = &m;
		r.g = g;
		r.agg = agg;
		r.p = &g->plane[pi];
		l0 = &r.p->level[0];
		/* An NVLink domain whose servers sit in different components sends from each. */
		if (g->spn > 1 && l0->size < TOPO_ALL &&
		    (l0->size % g->spn || ((r.p->pos + l0->shift) % g->spn + g->spn) % g->spn))
			trays = g->spn;
		r.per_node = g->ceiling_GBps * ((double)r.p->links / (g->wired > 0 ? g->wired : 1)) / (double)trays;
		a = h > g->first ? (h - g->first < g->used ? h - g->first : g->used) : 0;
		r.pend_parent = NULL;
		r.bulk = bulk && trays == 1 && l0->size < TOPO_ALL && l0->modulus <= 0 &&
			 (r.p->nlevels < 2 || !(r.p->level[1].order & 1));
		if (r.bulk) {
			r.id_first = topo_comp(l0, topo_pos(g, r.p, 0));
			r.id_last = topo_comp(l0, topo_pos(g, r.p, g->used - 1));
			r.id_split[0] = a > 0 ? topo_comp(l0, topo_pos(g, r.p, a - 1)) : r.id_first;
			r.id_split[1] = a < g->used ? topo_comp(l0, topo_pos(g, r.p, a)) : r.id_last;
		}
		for (tr = 0; tr < trays; tr++) {
			r.x_first = topo_pos(g, r.p, 0) + tr;
			r.x_last = topo_pos(g, r.p, g->used - 1) + tr;
			r.side_b = false;
			topo_runs(l0, r.x_first, g->spn, a, half_add, &r);
			bulk_flush(&r);
			r.side_b = true;
			topo_runs(l0, topo_pos(g, r.p, a) + tr, g->spn, g->used - a, half_add, &r);
			bulk_flush(&r);
		}
	}
	/* Bottom up: match inside, send the rest up (parents have higher orders). */
	/* Components in order of their level (a counting sort: orders are small). */
	/* Within a level in slot order (the sums are added in that order): the used slots
	 * sorted (a radix sort: the table is mostly empty at 10^5 leaves, whose bulk is not
	 * stored), then counted by level. */
	list = xcalloc(m.n ? m.n : 1, sizeof *list);
	slots_sort(m.slot, m.n, m.cap);
	{
		size_t start[4 * TOPO_MAX_LEVELS + 4] = { 0 }, o, nb = sizeof start / sizeof *start;
		bool odd = false;
		for (k = 0; k < m.n; k++) {
			const struct bcomp *e = &m.v[m.slot[k]];
			if ((size_t)e->order + 1 >= nb)
				odd = true;
			else
				start[e->order + 1]++;
		}
		if (odd) {
			for (k = 0; k < m.n; k++)
				list[nc++] = &m.v[m.slot[k]];
			qsort(list, nc, sizeof *list, bcomp_order);
		} else {
			for (o = 1; o < nb; o++)
				start[o] += start[o - 1];
			for (k = 0; k < m.n; k++)
				list[start[m.v[m.slot[k]].order]++] = &m.v[m.slot[k]];
			nc = m.n;
		}
	}
	for (k = 0; k < nc; k++) {
		struct bcomp *bc = list[k];
		double match, ra, rb;
		if (bc->order & 1) {
			/* A peer component: its children exchange over the peer links. */
			size_t self = (size_t)(bc - m.v), q, nk = 0, rest = 0;
			struct pend *mine = xcalloc(npend ? npend : 1, sizeof *mine);
			for (q = 0; q < npend; q++) {
				if (pend[q].parent == self)
					mine[nk++] = pend[q];
				else
					pend[rest++] = pend[q];
			}
			npend = rest;
			/* The class's switches no child holds carry transit (an ISL chain through a
			 * switch with no job node under it): alike, so one node per group. */
			{
				long *covered = xcalloc((size_t)t->nsw + 1, sizeof *covered);
				int gsw;
				struct bcomp *transit = xcalloc((size_t)t->nsw + 1, sizeof *transit);
				size_t nt = 0;
				for (q = 0; q < nk; q++)
					if (mine[q].c->sw >= 0 && mine[q].c->sw < t->nsw)
						covered[mine[q].c->sw] += mine[q].c->nsw;
				mine = xrealloc(mine, (nk + (size_t)t->nsw + 1) * sizeof *mine);
				for (gsw = 0; gsw < t->nsw; gsw++)
					if (t->sw[gsw].peer_class == bc->sw && t->sw[gsw].members > covered[gsw]) {
						transit[nt].sw = gsw;
						transit[nt].nsw = (int)(t->sw[gsw].members - covered[gsw]);
						mine[nk++] = (struct pend){ &transit[nt], self, 0, 0 };
						nt++;
					}
				flow += peer_flow(t, mine, nk);
				free(covered);
				free(transit);
			}
			free(mine);
		}
		match = bc->sa < bc->sb ? bc->sa : bc->sb;
		flow += match;
		ra = bc->sa - match;
		rb = bc->sb - match;
		if (bc->psw >= 0 && bc->parent && bc->up > 0) {
			size_t j = bslot(&m, bc->psw, bc->porder, bc->pb);
			if (!m.v[j].used)
				continue;
			if (bc->porder & 1) {
				if (npend == cpend) {
					cpend = cpend ? cpend * 2 : 16;
					pend = xrealloc(pend, cpend * sizeof *pend);
				}
				pend[npend++] = (struct pend){ bc, j, ra, rb };
			} else {
				m.v[j].sa += ra < bc->up ? ra : bc->up;
				m.v[j].sb += rb < bc->up ? rb : bc->up;
			}
		}
	}
	free(pend);
	free(list);
	/* Left clear for the next call: only the slots used. */
	for (k = 0; k < m.n; k++)
		memset(&m.v[m.slot[k]], 0, sizeof *m.v);
	bpool.v = m.v;
	/* Grown: the table is a new allocation of m.cap entries (not told by its address: a
	 * second growth may get the first table's freed block back). */
	bpool.cap = m.cap == cap0 ? alloc : m.cap;
	bpool.slot = m.slot;
	bpool.slot_cap = m.slot_cap;
	return flow;
}

/* The most the first floor(n/2) nodes by rank can send to the rest: the max-flow of one
 * balanced split, so at least the bisection (the least over every balanced split). */
double fabric_rank_flow(const struct topo *t)
{
	long n = t->nodes, h = n / 2;
	double flow = 0, mesh = 0, side_a = 0, side_b = 0;
	int pi, i, j, maxp = 0, *ng_of = NULL, maxs = 0;
	if (n < 2)
		return 0;
	for (i = 0; i < t->nplaced; i++) {
		const struct topo_ngroup *g = &t->ng[t->order[i]];
		long a = h > g->first ? (h - g->first < g->used ? h - g->first : g->used) : 0;
		if (!g->used)
			continue;
		if (g->nswitch > maxp)
			maxp = g->nswitch;
		side_a += a * g->ceiling_GBps;
		side_b += (g->used - a) * g->ceiling_GBps;
		if (g->server + 1 > maxs)
			maxs = g->server + 1;
	}
	for (pi = 0; pi < maxp; pi++)
		flow += plane_flow(t, pi, h);
	/* Direct links: every pair of nodes across the halves that a mesh joins (servers do not
	 * forward), each bundle counted once, at most what the nodes on each side can send. */
	ng_of = xcalloc((size_t)(maxs > 0 ? maxs : 1), sizeof *ng_of);
	for (i = 0; i < maxs; i++)
		ng_of[i] = -1;
	for (i = 0; i < t->nplaced; i++)
		if (t->ng[t->order[i]].used)
			ng_of[t->ng[t->order[i]].server] = t->order[i];
	for (i = 0; i < t->nplaced; i++) {
		const struct topo_ngroup *g = &t->ng[t->order[i]];
		long ag = h > g->first ? (h - g->first < g->used ? h - g->first : g->used) : 0, bg = g->used - ag;
		if (!g->used)
			continue;
		for (j = g->nswitch; j < g->nplanes; j++) {
			const struct topo_plane *p = &g->plane[j];
			const struct topo_ngroup *o;
			double pair = p->mesh_peers > 0 ? (double)(p->links / p->mesh_peers) * p->gbps / 8.0 : 0;
			long ao, bo;
			if (p->kind != PLANE_MESH || p->leaf >= maxs || ng_of[p->leaf] < 0)
				continue;
			o = &t->ng[ng_of[p->leaf]];
			if (o != g && ng_of[p->leaf] < t->order[i])
				continue; /* the other group counts this bundle */
			ao = h > o->first ? (h - o->first < o->used ? h - o->first : o->used) : 0;
			bo = o->used - ao;
			if (o == g)
				mesh += (double)ag * bg * pair;
			else
				mesh += ((double)ag * bo + (double)bg * ao) * pair;
		}
	}
	free(ng_of);
	if (mesh > 0)
		flow += min_d(mesh, min_d(side_a, side_b));
	return min_d(flow, min_d(side_a, side_b));
}

/* The bisection of a graph is the same after an edit of the job that keeps its placement:
 * the tree's minimum is kept per graph (its layout, which names the placement and every
 * level's capacities, and the nodes' ceilings and planes, which it does not). */
#define BIS_CACHE 8
static struct {
	unsigned long long key;
	bool valid, exact;
	int bound;
	double GBps;
} bis_cache[BIS_CACHE];
static int bis_next;

static unsigned long long bis_key(const struct topo *t)
{
	unsigned long long h = t->layout ^ 0x5851f42d4c957f2dULL, bits;
	int i;
	for (i = 0; i < t->nplaced; i++) {
		const struct topo_ngroup *g = &t->ng[t->order[i]];
		memcpy(&bits, &g->ceiling_GBps, sizeof bits);
		h = (h ^ bits ^ ((unsigned long long)g->nswitch << 48)) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	return (h ^ (unsigned long long)t->nodes) * 0x9e3779b97f4a7c15ULL;
}

/* The worst-case balanced cut (bisect.h); where the shape is no tree of blocks (direct
 * links, peer stages), the one split by rank: an upper bound. */
static void bisection(const struct topo *t, struct fabric *f)
{
	unsigned long long key = bis_key(t);
	int i;
	for (i = 0; i < BIS_CACHE; i++)
		if (bis_cache[i].valid && bis_cache[i].key == key) {
			f->bisection_GBps = bis_cache[i].GBps;
			f->bisection_exact = bis_cache[i].exact;
			f->bisection_bound = bis_cache[i].bound;
			return;
		}
	if (!bisect_tree(t, &f->bisection_GBps, &f->bisection_exact)) {
		/* (Not kept: the peer links it reads are not in the layout.) */
		f->bisection_GBps = fabric_rank_flow(t);
		f->bisection_exact = false;
		f->bisection_bound = 1;
		return;
	}
	f->bisection_bound = f->bisection_exact ? 0 : -1;
	i = bis_next;
	bis_next = (bis_next + 1) % BIS_CACHE;
	bis_cache[i].key = key;
	bis_cache[i].valid = true;
	bis_cache[i].exact = f->bisection_exact;
	bis_cache[i].bound = f->bisection_bound;
	bis_cache[i].GBps = f->bisection_GBps;
}

/* ---- summary --------------------------------------------------------------------------- */

/* a is b with collnet as given (b's own collnet is not read). */
static bool same_node(const struct nccl_node *a, const struct nccl_node *b, bool collnet)
{
	return a->sm == b->sm && a->ppn == b->ppn && a->cpu == b->cpu && a->nvl == b->nvl &&
	       a->nvswitch == b->nvswitch && a->nvls == b->nvls && a->pci_gpu == b->pci_gpu &&
	       a->pci_intra == b->pci_intra && a->intra_path == b->intra_path && a->sockets == b->sockets &&
	       a->sw_gpus == b->sw_gpus && a->sw_up == b->sw_up && a->sys_bw == b->sys_bw && a->p2p == b->p2p &&
	       a->bridge_gpus == b->bridge_gpus && a->bridge_nvl == b->bridge_nvl && a->gpus == b->gpus && a->cards == b->cards &&
	       a->ports_per_card == b->ports_per_card && a->net_bw == b->net_bw && a->card_pci == b->card_pci &&
	       a->net_on_cpu == b->net_on_cpu && a->pxn_return == b->pxn_return && a->collnet == collnet;
}

/* The tiers being listed, by switch group, and for those whose level joins all of a
 * group's positions, the job's nodes its one component holds (nodes_under), counted as
 * the tiers are listed (single_count): every used group whose plane reaches that component
 * (of that switch group, at that order), once whichever of its planes and levels do; the
 * job's nodes when none does. */
struct reach {
	int *tier;      /* [switch group]: its tier while the tiers are listed, -1 (-2: no room) */
	bool single[FABRIC_MAX_TIERS];  /* [tier]: counted so */
	int order[FABRIC_MAX_TIERS];    /* its level's order */
	long id[FABRIC_MAX_TIERS];      /* and component (topo_comp_rail, rail 0) */
	long n[FABRIC_MAX_TIERS];       /* the nodes so far */
};

static void reach_build(const struct topo *t, struct reach *r)
{
	int i;
	memset(r, 0, sizeof *r);
	r->tier = xmalloc((size_t)(t->nsw > 0 ? t->nsw : 1) * sizeof *r->tier);
	for (i = 0; i < t->nsw; i++)
		r->tier[i] = -1;
}

/* Level o of group h's switch plane hp, of tier ti, seen as the tiers are listed (after
 * add_tier had it): it adds h's nodes to the tier's count if it is that one component and
 * h is not counted there yet (*counted: h's tiers so far). A group reaching the component
 * before its tier is made would have made it (add_tier makes the tier of the first level
 * of its switch group of even order, and the count's order is even), so none is missed. */
static void single_count(struct reach *r, int ti, const struct topo_ngroup *h, const struct topo_plane *hp,
			 const struct topo_level *o, unsigned *counted)
{
	if (*counted >> ti & 1u)
		return;
	if (o->order == r->order[ti] && topo_comp_rail(o, topo_pos(h, hp, 0), 0) == r->id[ti]) {
		r->n[ti] += h->used;
		*counted |= 1u << ti;
	}
}

/* The counts as nodes_under; then the list's memory. */
static void reach_free(const struct topo *t, struct reach *r, struct fabric *f)
{
	int i;
	for (i = 0; i < f->ntiers; i++)
		if (r->single[i])
			f->tiers[i].nodes_under = (double)(r->n[i] > 0 ? r->n[i] : t->nodes);
	free(r->tier);
}

static int add_tier(const struct design *d, const struct catalog *cat, const struct topo *t, struct reach *r,
		    struct fabric *f, const struct topo_ngroup *g, const struct topo_plane *p, int lv)
{
	const struct topo_level *l = &p->level[lv];
	const struct switch_group *sg;
	struct tier *tr;
	int i, up_gbps, down_gbps;
	double down, up;
	bool lag;
	if (l->sw < 0 || (l->order & 1))
		return -1; /* a peer stage: the switches of the groups its bundle joins, listed as theirs */
	if (l->sw < t->nsw && r->tier[l->sw] >= 0)
		return r->tier[l->sw];
	/* (A switch group of the topology has r->tier set when its tier is made.) */
	for (i = 0; i < f->ntiers && l->sw >= t->nsw; i++)
		if (f->tiers[i].sw == l->sw)
			return i;
	if (f->ntiers >= FABRIC_MAX_TIERS) {
		if (l->sw < t->nsw)
			r->tier[l->sw] = -2; /* (the list stays full) */
		return -1;
	}
	if (l->sw < t->nsw)
		r->tier[l->sw] = f->ntiers;
	sg = DESIGN_SWITCH(d, l->sw);
	(void)cat;
	tr = &f->tiers[f->ntiers];
	memset(tr, 0, sizeof *tr);
	tr->role = sg->role;
	snprintf(tr->group, sizeof tr->group, "%s", sg->name);
	tr->sw = l->sw;
	tr->level = lv + 1;
	tr->count = sg->count;
	down = t->sw[l->sw].down_GBps;
	up = t->sw[l->sw].up_GBps;
	up_gbps = t->sw[l->sw].up_gbps;
	down_gbps = t->sw[l->sw].down_gbps;
	lag = t->sw[l->sw].lag;
	tr->down_GBps = down;
	tr->up_GBps = up;
	tr->uplinks = l->uplinks && !l->peer ? l->uplinks : 0;
	tr->link_gbps = up_gbps ? up_gbps : down_gbps;
	tr->ratio = up > 0 ? down / up : 0;
	tr->lag = lag;
	tr->peer = l->peer;
	tr->hash = l->hash;
	tr->planes = l->rails > 0 ? (p->links + l->rails - 1) / l->rails : 1;
	tr->rail = lv == 0 && p->wiring == WIRE_RAIL;
	tr->sharp = t->sw[l->sw].sharp;
	tr->protocol = t->sw[l->sw].protocol;
	/* Job nodes one component of this level joins (components count servers of every group
	 * bundled into the switch group, so the job's whole node count bounds it). */
	if (l->size >= TOPO_ALL && l->modulus <= 0) {
		/* (counted as the tiers are listed: single_count) */
		r->single[f->ntiers] = true;
		r->order[f->ntiers] = l->order;
		r->id[f->ntiers] = topo_comp_rail(l, topo_pos(g, p, 0), 0);
	} else if (l->size < TOPO_ALL)
		tr->nodes_under = min_d((double)t->nodes, (double)l->size / (g->spn > 0 ? g->spn : 1));
	if (l->modulus > 0)
		tr->nodes_under = min_d((double)t->nodes, ceil((double)t->nodes / l->modulus));
	f->ntiers++;
	return f->ntiers - 1;
}

/* Tiers by role, then name: the same switch groups written in another order list alike. */
static int tier_cmp_sw(const struct design *d, const struct tier *a, const struct tier *b)
{
	int ta = DESIGN_SWITCH(d, a->sw)->role, tb = DESIGN_SWITCH(d, b->sw)->role;
	if (ta != tb)
		return ta - tb;
	return strcmp(a->group, b->group);
}

static void summarize(const struct design *d, const struct catalog *cat, const struct topo *t, struct fabric *f,
		      bool full)
{
	const struct topo_ngroup *g0 = NULL, *slow, *last = NULL;
	int i, k, pi, lv, last_k = -1;
	bool last_sharp = false;
	struct reach reach = { 0 };
	memset(f, 0, sizeof *f);
	f->gpus = t->gpus;
	f->design_gpus = t->design_gpus;
	f->design_nodes = t->design_nodes;
	f->proto_forced = d->job.proto;
	f->routing = d->fabric.routing;
	f->pxn = d->fabric.pxn;
	f->qps = t->qps;
	f->placement = d->job.placement;
	f->connected = t->connected;
	f->heterogeneous = t->heterogeneous;
	f->nproblems = t->nproblems;
	memcpy(f->problems, t->problems, sizeof f->problems);
	for (i = 0; i < t->nplaced; i++)
		if (t->ng[t->order[i]].used) {
			g0 = &t->ng[t->order[i]];
			break;
		}
	if (!g0 || f->gpus < 1) {
		snprintf(f->note, sizeof f->note, "no GPUs in the design");
		f->node.ppn = f->node.nnodes = 1;
		f->connected = true;
		return;
	}
	/* The kinds of node the job runs on, each as NCCL sees it. */
	f->node_ceiling_GBps = -1;
	slow = g0;
	if (full)
		reach_build(t, &reach);
	for (i = 0; i < t->nplaced; i++) {
		const struct topo_ngroup *g = &t->ng[t->order[i]];
		double ceil_g;
		unsigned counted = 0;
		bool sharp = d->fabric.sharp && g->nic_sharp && g->nplanes > 0;
		if (!g->used)
			continue;
		for (pi = 0; pi < g->nplanes && sharp; pi++)
			for (lv = 0; lv < g->plane[pi].nlevels; lv++) {
				int sw = g->plane[pi].level[lv].sw;
				if (sw < 0 || !t->sw[sw].sharp)
					sharp = false;
			}
		/* Its node as NCCL sees it: g->nccl with collnet = sharp. A group whose node is
		 * the last one's, byte for byte up to collnet, with the same sharp, is of the same
		 * kind: same_node reads only those bytes, and the last one was found equal to
		 * its kind (last_k; -1 when it was not, or it made no kind). */
		if (last && last_k >= 0 && sharp == last_sharp &&
		    !memcmp(&g->nccl, &last->nccl, offsetof(struct nccl_node, collnet)))
			k = last_k;
		else {
			for (k = 0; k < f->nclasses; k++)
				if (same_node(&f->classes[k], &g->nccl, sharp))
					break;
			if (k == f->nclasses && f->nclasses < FABRIC_MAX_CLASSES) {
				f->classes[f->nclasses] = g->nccl;
				f->classes[f->nclasses++].collnet = sharp;
			}
			last = g;
			last_sharp = sharp;
			/* (A kind just made is its node unless a field is NaN.) */
			last_k = k < f->nclasses && same_node(&f->classes[k], &g->nccl, sharp) ? k : -1;
		}
		if (g->ceiling_GBps < slow->ceiling_GBps - 1e-9)
			slow = g;
		ceil_g = g->ceiling_GBps;
		if (f->node_ceiling_GBps < 0 || ceil_g < f->node_ceiling_GBps)
			f->node_ceiling_GBps = ceil_g;
		for (pi = 0; pi < g->nplanes && full; pi++)
			for (lv = 0; lv < g->plane[pi].nlevels; lv++) {
				int sw = g->plane[pi].level[lv].sw, ti = -1;
				/* (Listed already, or no room: add_tier would return at once.) */
				if (sw >= 0 && sw < t->nsw)
					ti = reach.tier[sw];
				if (ti == -1) {
					add_tier(d, cat, t, &reach, f, g, &g->plane[pi], lv);
					ti = sw >= 0 && sw < t->nsw ? reach.tier[sw] : -1;
				}
				if (ti >= 0 && reach.single[ti] && pi < g->nswitch)
					single_count(&reach, ti, g, &g->plane[pi], &g->plane[pi].level[lv], &counted);
			}
		if (g->nplanes && g->plane[0].kind == PLANE_MESH)
			f->mesh = true;
	}
	if (full)
		reach_free(t, &reach, f);
	if (f->node_ceiling_GBps < 0)
		f->node_ceiling_GBps = 0;
	/* Tiers in order: leaves first. */
	for (i = 1; i < f->ntiers; i++)
		for (k = i; k > 0 && tier_cmp_sw(d, &f->tiers[k - 1], &f->tiers[k]) > 0; k--) {
			struct tier tmp = f->tiers[k];
			f->tiers[k] = f->tiers[k - 1];
			f->tiers[k - 1] = tmp;
		}
	/* The node: the most limited kind, as NCCL's all-gather leaves it. */
	{
		struct nccl_model m;
		fabric_nccl(f, (int)t->nodes, t->gpus, 0, &m);
		f->node = m.node;
		f->node.nnodes = (int)t->nodes;
		f->node.ppn = t->gpus < g0->gpus ? t->gpus : g0->gpus;
		if (f->nclasses > 1)
			f->node.ppn = (int)((t->gpus + t->nodes - 1) / t->nodes);
	}
	/* The node shown: the one with the least network (it paces every ring); the first in
	 * rank order among equals (slow, found in the loop over the kinds). */
	g0 = slow;
	snprintf(f->server_group, sizeof f->server_group, "%s", g0->name);
	f->servers_per_node = g0->spn;
	f->domain_node = g0->spn > 1;
	f->ports = g0->wired * g0->spn;
	f->cards = g0->cards;
	f->port_gbps = g0->port_gbps;
	f->port_GBps = g0->port_gbps / 8.0;
	f->slot_GBps = g0->slot_GBps;
	f->wiring = g0->nplanes ? g0->plane[0].wiring : WIRE_SPREAD;
	f->lag = g0->nplanes && g0->plane[0].lag && g0->plane[0].lag_size > 1;
	{
		const struct server_group *s = DESIGN_SERVER(d, g0->server);
		const struct topo_ngroup *gn = g0;
		const struct cat_gpu *gpu;
		/* NVLink: the slowest kind's, as the node's NCCL figure is. */
		for (i = 0; i < t->nplaced; i++) {
			const struct topo_ngroup *g = &t->ng[t->order[i]];
			if (g->used && g->nccl.nvl < gn->nccl.nvl)
				gn = g;
		}
		gpu = catalog_gpu(cat, DESIGN_SERVER(d, gn->server)->gpu);
		if (gpu && gn->nccl.nvl > 0)
			f->nvlink_GBps = gpu->nvlink_links * gpu->nvlink_link_GBps;
		f->gpus_per_link = g0->wired ? (double)s->gpus / g0->wired : 0;
		{
			int nics = g0->nccl.cards > 0 ? g0->nccl.cards : 0;
			f->gpus_per_nic = nics ? (g0->gpus + nics - 1) / nics : g0->gpus;
		}
	}
	if (t->nodes > 1 && full) {
		/* The worst-case balanced cut (bisect.h); where the shape is no tree of blocks
		 * (direct links, peer stages, interleaved levels) the one split by rank, an upper
		 * bound. */
		bisection(t, f);
	}
	f->bisection_per_gpu_GBps = t->gpus > 1 && t->nodes > 1 ? f->bisection_GBps / (t->gpus / 2.0) : 0;
	if (!t->connected)
		snprintf(f->note, sizeof f->note, "%s", t->disconnect);
	else if (f->heterogeneous) {
		int lo = 0, hi = 0;
		for (i = 0; i < t->nplaced; i++) {
			const struct topo_ngroup *g = &t->ng[t->order[i]];
			if (!g->used)
				continue;
			if (!lo || g->gpus < lo)
				lo = g->gpus;
			if (g->gpus > hi)
				hi = g->gpus;
		}
		if (lo != hi)
			/* No node has the mean GPU count NCCL's tuning sees: say what there is. */
			snprintf(f->note, sizeof f->note,
				 "the job spans %d kinds of node, of %d to %d GPUs (the node shown has NCCL's mean, %d); NCCL takes the smallest channel count and speed of all",
				 f->nclasses, lo, hi, f->node.ppn);
		else
			snprintf(f->note, sizeof f->note,
				 "the job spans %d kinds of node; NCCL takes the smallest channel count and speed of all, and the figures shown are the most limited node's",
				 f->nclasses);
	}
}

void fabric_summarize(const struct design *d, const struct catalog *cat, const struct topo *t, struct fabric *f)
{
	summarize(d, cat, t, f, true);
}

void fabric_summarize_job(const struct design *d, const struct catalog *cat, const struct topo *t, struct fabric *f)
{
	summarize(d, cat, t, f, false);
}

void fabric_build(const struct design *d, const struct catalog *cat, int gpus, struct fabric *f)
{
	struct topo t;
	topo_build(d, cat, gpus, &t);
	fabric_summarize(d, cat, &t, f);
	topo_free(&t);
}

struct nccl_node fabric_subnode(const struct nccl_node *node, int ranks, int per_node)
{
	struct nccl_node n = *node;
	int G = node->ppn, concurrent;
	if (per_node < 1)
		per_node = 1;
	if (per_node > G)
		per_node = G;
	concurrent = G / per_node;
	n.ppn = per_node;
	n.nnodes = (ranks + per_node - 1) / per_node;
	if (concurrent > 1 && n.cards > 0) {
		/* The node's communicators run at once and share its NICs. */
		if (n.cards >= concurrent) {
			n.cards /= concurrent;
		} else {
			n.net_bw *= (double)n.cards / concurrent;
			n.card_pci *= (double)n.cards / concurrent;
			n.cards = 1;
		}
	}
	n.pxn_return = n.cards > 0 && per_node <= n.cards;
	if (per_node == 1)
		n.nvls = false;
	n.span = per_node;
	nccl_node_host(&n);
	return n;
}

/* NCCL's model of a communicator depends on the kinds of node and the communicator's shape
 * only; a recompute asks for the same few many times (the job's step and every variant the
 * advice weighs build the same DP and TP communicators), and building one runs NCCL's
 * tuning over every algorithm and protocol. Remembered by their inputs, compared whole. */
#define NCCL_CACHE 16
static struct nccl_memo {
	bool valid;
	int n, nodes, ranks, per_node, span, proto;
	struct nccl_node cls[FABRIC_MAX_CLASSES];
	struct nccl_model m;
} nccl_cache[NCCL_CACHE];
static int nccl_next;

static void nccl_span_build(const struct fabric *f, int nodes, int ranks, int per_node, int span, struct nccl_model *m)
{
	struct nccl_node cls[FABRIC_MAX_CLASSES];
	int i, n = f->nclasses > 0 ? f->nclasses : 1;
	for (i = 0; i < n; i++) {
		struct nccl_node c = f->nclasses > 0 ? f->classes[i] : f->node;
		if (per_node > 0) {
			c = fabric_subnode(&c, ranks, per_node);
		} else if (ranks < c.ppn) {
			c.ppn = ranks;
			c.span = ranks;
		}
		if (span > c.span) {
			c.span = span;
			nccl_node_host(&c);
		} else if (per_node <= 0 && ranks < c.gpus) {
			nccl_node_host(&c);
		}
		c.nnodes = nodes;
		cls[i] = c;
	}
	nccl_model_build_multi(cls, n, nodes > 0 ? nodes : 1, ranks, m);
	if (f->proto_forced > PROTO_AUTO && f->proto_forced <= PROTO_SIMPLE)
		nccl_model_only_proto(m, (enum nproto)(f->proto_forced - 1));
}

void fabric_nccl_span(const struct fabric *f, int nodes, int ranks, int per_node, int span, struct nccl_model *m)
{
	const struct nccl_node *in = f->nclasses > 0 ? f->classes : &f->node;
	int i, n = f->nclasses > 0 ? f->nclasses : 1;
	struct nccl_memo *e;
	for (i = 0; i < NCCL_CACHE; i++) {
		e = &nccl_cache[i];
		if (e->valid && e->n == n && e->nodes == nodes && e->ranks == ranks && e->per_node == per_node &&
		    e->span == span && e->proto == f->proto_forced && !memcmp(e->cls, in, (size_t)n * sizeof *in)) {
			*m = e->m;
			return;
		}
	}
	nccl_span_build(f, nodes, ranks, per_node, span, m);
	e = &nccl_cache[nccl_next];
	nccl_next = (nccl_next + 1) % NCCL_CACHE;
	e->valid = true;
	e->n = n;
	e->nodes = nodes;
	e->ranks = ranks;
	e->per_node = per_node;
	e->span = span;
	e->proto = f->proto_forced;
	memcpy(e->cls, in, (size_t)n * sizeof *in);
	e->m = *m;
}

void fabric_nccl(const struct fabric *f, int nodes, int ranks, int per_node, struct nccl_model *m)
{
	fabric_nccl_span(f, nodes, ranks, per_node, 0, m);
}

/* The routing of one traffic shape is the same at any rate: demand scales with it and
 * capacity does not, so the busiest resource is the same one. It is computed once at unit
 * rate and cached per (graph, shape): a recompute asks for the same shapes for every
 * collective, and the designer recomputes after edits that do not touch the graph. */
#define LOSS_CACHE 64
static struct {
	unsigned long long key;
	bool valid;
	struct route_out r;
} loss_cache[LOSS_CACHE];
static int loss_next;

static unsigned long long shape_key(const struct topo *t, const struct route_in *in)
{
	struct route_in k = *in;
	const unsigned char *c = (const unsigned char *)&k;
	unsigned long long h = t->layout ^ 0x2545f4914f6cdd1dULL;
	size_t i;
	k.rate = 0;
	for (i = 0; i < sizeof k; i++)
		h = (h ^ c[i]) * 1099511628211ULL;
	return h;
}

void fabric_caches_clear(void)
{
	memset(bis_cache, 0, sizeof bis_cache);
	bis_next = 0;
	memset(loss_cache, 0, sizeof loss_cache);
	loss_next = 0;
	memset(nccl_cache, 0, sizeof nccl_cache);
	nccl_next = 0;
	route_caches_clear();
}

static void route_cached(const struct topo *t, const struct route_in *in, struct route_out *r)
{
	unsigned long long key;
	struct route_in unit;
	int i;
	if (in->rate <= 0) {
		route_eval(t, in, r);
		return;
	}
	key = shape_key(t, in);
	for (i = 0; i < LOSS_CACHE; i++)
		if (loss_cache[i].valid && loss_cache[i].key == key)
			break;
	if (i == LOSS_CACHE) {
		unit = *in;
		unit.rate = 1;
		i = loss_next;
		loss_next = (loss_next + 1) % LOSS_CACHE;
		route_eval(t, &unit, &loss_cache[i].r);
		loss_cache[i].key = key;
		loss_cache[i].valid = true;
	}
	*r = loss_cache[i].r;
	/* Back to the real rate. */
	r->demand *= in->rate;
	if (!r->unroutable && r->ng >= 0)
		r->factor = r->demand > 0 ? min_d(1, r->capacity / r->demand) : 1;
}

void fabric_loss(const struct topo *t, const struct fabric *f, const struct route_in *in, struct fabric_loss *o)
{
	struct route_out r;
	int i;
	memset(o, 0, sizeof *o);
	o->factor = 1;
	o->binding = -1;
	route_cached(t, in, &r);
	o->factor = r.factor;
	o->unroutable = r.unroutable;
	{
		/* The reason as snprintf "%s" would copy it (a printf per traffic cost more than
		 * the rest of this function). */
		size_t n = strnlen(r.why, sizeof o->why - 1);
		memcpy(o->why, r.why, n);
		o->why[n] = 0;
	}
	o->demand_GBps = r.demand;
	o->capacity_GBps = r.capacity;
	o->flows = r.flows;
	o->links = r.links;
	o->hash = r.hash;
	o->hashed = r.flows > 0 && r.links > 0 && r.hash != HASH_FLUID && r.hash != HASH_NONE;
	if (r.ng >= 0 && r.factor < 1 - 1e-12) {
		const struct topo_plane *p = &t->ng[r.ng].plane[r.plane];
		if (p->kind == PLANE_MESH) {
			o->direct = true;
		} else {
			int sw = p->level[r.level].sw;
			for (i = 0; i < f->ntiers; i++)
				if (f->tiers[i].sw == sw)
					o->binding = i;
		}
	}
	/* Share of traffic leaving each tier's components: the busiest at its level. */
	for (i = 0; i < f->ntiers; i++) {
		int lv = f->tiers[i].level - 1;
		if (lv >= 0 && lv < TOPO_MAX_LEVELS)
			o->share_up[i] = r.share_up[lv];
	}
	(void)f;
}
