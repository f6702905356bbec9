/* route.c: demand on every level's uplinks against their capacity, per traffic pattern. */
#include "model/route.h"
#include "model/alloc.h"
#include "model/congest.h"
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const traffic_kind_names[] = { "ring", "tree", "alltoall", "pairs", "in-network", NULL };

struct span span_all(long n)
{
	struct span s = { 0, n, 1, 0, 1 };
	return s;
}

static double min_d(double a, double b)
{
	return a < b ? a : b;
}

static long ceil_l(long a, long b)
{
	return b > 0 ? (a + b - 1) / b : 0;
}

static long floordiv(long a, long b)
{
	long q = a / b;
	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* ---- NCCL's double binary tree (fabric-physics.md 2.3) ------------------------------ */

static long btree_parent(long n, long r)
{
	long b, p;
	if (r <= 0 || r >= n)
		return -1;
	b = r & -r;
	p = (r ^ b) | (b << 1);
	return p < n ? p : r ^ b;
}

long dtree_parent(long n, int tree, long x)
{
	long p;
	if (tree == 0 || n < 2)
		return btree_parent(n, x);
	if (n % 2 == 0) {
		/* Mirror: x -> n-1-x. */
		p = btree_parent(n, n - 1 - x);
		return p < 0 ? -1 : n - 1 - p;
	}
	/* Shift by one: tree 1's node x is tree 0's node x-1 (mod n). */
	p = btree_parent(n, (x - 1 + n) % n);
	return p < 0 ? -1 : (p + 1) % n;
}

/* ---- a node's components ------------------------------------------------------------ */

/* A component: (switch group, order, number) at one level (topo.h "Levels"). The order
 * tells a leaf level from the peer stage above it, which names the same switch group. */
struct ckey {
	int sw, order;
	long b;
};

static struct ckey key_at(const struct topo_ngroup *g, const struct topo_plane *p, int lv, long local)
{
	struct ckey k;
	k.sw = p->level[lv].sw;
	k.order = p->level[lv].order;
	k.b = topo_comp_rail(&p->level[lv], topo_pos(g, p, local), 0);
	return k;
}

static bool key_eq(struct ckey a, struct ckey b)
{
	return a.sw == b.sw && a.order == b.order && a.b == b.b;
}

/* The component of node `local` of g (plane p) at level (sw, order), when its chain
 * climbs through that level. */
static bool comp_at(const struct topo_ngroup *g, const struct topo_plane *p, long local, long tray, int sw, int order,
		    long *id)
{
	int lv;
	for (lv = 0; lv < p->nlevels; lv++)
		if (p->level[lv].sw == sw && p->level[lv].order == order) {
			*id = topo_comp_rail(&p->level[lv], topo_pos(g, p, local) + (tray < g->spn ? tray : 0), 0);
			return true;
		}
	return false;
}

/* Is component k on the chain of node `local` of group g (plane p)? */
static bool on_chain(const struct topo_ngroup *g, const struct topo_plane *p, long local, struct ckey k)
{
	long id;
	return comp_at(g, p, local, 0, k.sw, k.order, &id) && id == k.b;
}

/* Trays a node of g is counted by at level l: 1 when every node's servers (an NVLink
 * domain's trays) sit in one component, else each tray on its own, with 1/spn of the
 * node's traffic (a rack split across two rail units sends from both). */
static long trays_at(const struct topo_ngroup *g, const struct topo_plane *p, const struct topo_level *l)
{
	if (g->spn <= 1 || l->size >= TOPO_ALL)
		return 1;
	if (l->size % g->spn == 0 && ((p->pos + l->shift) % g->spn + g->spn) % g->spn == 0)
		return 1;
	return g->spn;
}

/* Switch plane pi of g: planes are matched across groups by the network they reach (topo.h);
 * a group with fewer planes uses its first. NULL: no switch plane. */
static const struct topo_plane *plane_of(const struct topo_ngroup *g, int pi)
{
	if (g->nswitch <= 0)
		return NULL;
	return &g->plane[pi < g->nswitch ? pi : 0];
}

static int max_switch_planes(const struct topo *t)
{
	int i, m = 0;
	for (i = 0; i < t->nplaced; i++)
		if (t->ng[t->order[i]].nswitch > m)
			m = t->ng[t->order[i]].nswitch;
	return m;
}

/* g's first mesh plane to group h, or -1. */
static int mesh_plane(const struct topo_ngroup *g, const struct topo_ngroup *h)
{
	int k;
	for (k = g->nswitch; k < g->nplanes; k++)
		if (g->plane[k].kind == PLANE_MESH && g->plane[k].leaf == h->server)
			return k;
	return -1;
}

/* Rails of one component's share of a node's channels (channels go round-robin over the
 * node's wired ports): the busiest component gets ceil(C rails / ports) of C. */
static double rail_share(int channels, int rails, int wired)
{
	double c = channels > 0 ? channels : 1, per;
	if (wired <= 0 || rails >= wired)
		return 1;
	per = ceil(c * rails / wired);
	return min_d(1, per / c);
}

/* ---- the communicator's segments ---------------------------------------------------- */

struct seg {
	const struct topo_ngroup *g;
	int gi;
	long lo, hi;    /* first and last local node of the group in the communicator */
	long n;         /* communicator nodes in it */
};

/* The memos below (segments, a piece's and a tree level's capacity) are transparent:
 * route_memos(false) turns them off for the tests that check it; hits counts their uses. */
static bool memos_on = true;
static long memo_hits;

void route_memos(bool on)
{
	memos_on = on;
	memo_hits = 0;
	route_caches_clear();
}

long route_memo_hits(void)
{
	return memo_hits;
}

/* The last communicator's segments: a recompute asks for the same one (the job's world,
 * or a DP span over the same nodes) for its ring, pairs, all-to-all and trees, a walk over
 * every placed group each time. Kept by the graph (its address, its node groups' and the
 * placement's hash: topo.layout covers the order, first and used that segments read) and
 * the communicator's nodes; cleared with the other caches. */
static struct {
	const struct topo *t;
	const struct topo_ngroup *ng;
	unsigned long long layout;
	int nng, nplaced, n;
	long a, step, len;
	struct seg *v;
	int cap;
} seg_memo;

static int segments_walk(const struct topo *t, const struct span *s, long k, struct seg *out, int max);

/* The pieces of communicator k, in its order: one per node group it crosses. */
static int segments(const struct topo *t, const struct span *s, long k, struct seg *out, int max)
{
	long a = s->first + k * s->stride, step = s->step > 0 ? s->step : 1;
	int n;
	if (memos_on && seg_memo.v && seg_memo.t == t && seg_memo.ng == t->ng && seg_memo.layout == t->layout &&
	    seg_memo.nng == t->nng && seg_memo.nplaced == t->nplaced && seg_memo.a == a && seg_memo.step == step &&
	    seg_memo.len == s->len && seg_memo.n <= max) {
		memcpy(out, seg_memo.v, (size_t)seg_memo.n * sizeof *out);
		memo_hits++;
		return seg_memo.n;
	}
	n = segments_walk(t, s, k, out, max);
	if (n == max && max < t->nplaced)
		return n; /* cut short by the caller's room: not the whole answer */
	if (n > seg_memo.cap) {
		free(seg_memo.v);
		seg_memo.cap = n;
		seg_memo.v = xmalloc((size_t)n * sizeof *seg_memo.v);
	}
	if (n)
		memcpy(seg_memo.v, out, (size_t)n * sizeof *out);
	else if (!seg_memo.v)
		return n;
	seg_memo.t = t;
	seg_memo.ng = t->ng;
	seg_memo.layout = t->layout;
	seg_memo.nng = t->nng;
	seg_memo.nplaced = t->nplaced;
	seg_memo.a = a;
	seg_memo.step = step;
	seg_memo.len = s->len;
	seg_memo.n = n;
	return n;
}

static void segments_clear(void)
{
	free(seg_memo.v);
	memset(&seg_memo, 0, sizeof seg_memo);
}

static int segments_walk(const struct topo *t, const struct span *s, long k, struct seg *out, int max)
{
	long a = s->first + k * s->stride, step = s->step > 0 ? s->step : 1, last = a + (s->len - 1) * step;
	int i, n = 0;
	for (i = 0; i < t->nplaced && n < max; i++) {
		const struct topo_ngroup *g = &t->ng[t->order[i]];
		long g0 = g->first, g1 = g->first + g->used - 1, j0, j1;
		if (!g->used || g1 < a || g0 > last)
			continue;
		j0 = g0 > a ? ceil_l(g0 - a, step) : 0;
		j1 = (g1 - a) / step;
		if (j1 > s->len - 1)
			j1 = s->len - 1;
		if (j0 > j1)
			continue;
		out[n].g = g;
		out[n].gi = t->order[i];
		out[n].lo = a + j0 * step - g0;
		out[n].hi = a + j1 * step - g0;
		out[n].n = j1 - j0 + 1;
		n++;
	}
	return n;
}

/* Room for the segments of one communicator: one buffer per caller (`slot`), kept from
 * one evaluation to the next (at 1,000 groups a fresh zeroed array per evaluation cost
 * more than the segments it held); segments() fills what it returns. */
enum { SEG_RING, SEG_A2A, SEG_TREE_COUNT, SEG_TREE, SEG_SLOTS };
static struct seg *seg_room(int slot, int n)
{
	static struct seg *buf[SEG_SLOTS];
	static int cap[SEG_SLOTS];
	if (n > cap[slot]) {
		cap[slot] = 2 * n;
		free(buf[slot]);
		buf[slot] = xmalloc((size_t)cap[slot] * sizeof *buf[slot]);
	}
	return buf[slot];
}

/* ---- capacity of a component's uplinks, with hashing where a device chooses ---------- */

struct cap {
	double fluid, eff;   /* without and with hashing, GB/s */
	long flows, links;
	int hash;
};

/* Capacity for traffic leaving one component at level lv: `flows` queue pairs towards
 * `dests` destination ports. single_dest: the traffic goes to one neighbour (a ring hop,
 * a pair): on a peer level only that pair's links carry it. */
static struct cap capacity(const struct topo_level *l, long flows, long dests, bool single_dest)
{
	struct cap c = { 0, 0, 0, 0, HASH_NONE };
	double link = l->link_GBps;
	long sw = l->switches > 0 ? l->switches : 1, U = l->uplinks;
	if (l->peer && single_dest) {
		sw = 1;
		U = l->pair_links;
	}
	c.fluid = (double)sw * U * link;
	c.eff = c.fluid;
	c.hash = l->hash;
	if (U <= 0 || link <= 0)
		return c;
	if (flows < 1)
		flows = 1;
	switch (l->hash) {
	case HASH_ECMP: {
		/* Per switch: its flows hashed over its ECMP group (or each LAG's members). */
		long Fsw = ceil_l(flows, sw), H = l->hash_links > 0 ? l->hash_links : U, groups = U / H;
		long Fg;
		double per;
		if (l->peer && single_dest)
			H = U, groups = 1;
		if (groups < 1)
			groups = 1;
		Fg = ceil_l(Fsw, groups);
		per = groups * min_d((double)H * link, Fg * link / hash_expected_max(Fg, H));
		c.eff = min_d(c.fluid, sw * per);
		c.flows = Fg;
		c.links = H;
		break;
	}
	case HASH_IB_STATIC: {
		/* One uplink per destination port (the subnet manager's tables): D destinations
		 * spread D-mod-k over U links. */
		long Dsw = ceil_l(dests > 0 ? dests : 1, sw);
		double per = Dsw >= U ? U * link * ((double)Dsw / U) / (double)ceil_l(Dsw, U) : Dsw * link;
		c.eff = min_d(c.fluid, sw * per);
		c.flows = Dsw;
		c.links = U;
		break;
	}
	default:
		break;
	}
	return c;
}

/* A direct link's capacity: no choice, no hashing. */
static struct cap direct_cap(double GBps)
{
	struct cap c = { GBps, GBps, 0, 0, HASH_NONE };
	return c;
}

/* Keep the tightest resource: the smallest capacity over demand (the factor is that,
 * capped at 1; route_eval sets it at the end). */
static void take(const struct topo *t, struct route_out *o, double demand, const struct cap *c, int gi, int pi, int lv)
{
	double ratio, have;
	bool tighter;
	if (demand <= 0)
		return;
	ratio = c->eff > 0 ? c->eff / demand : 0;
	have = o->ng >= 0 ? o->capacity / o->demand : 0;
	/* Equal ratios: the group first by name, whatever order the design lists them in. */
	tighter = o->ng < 0 || ratio < have * (1 - 1e-12) ||
		  (ratio <= have * (1 + 1e-12) && gi != o->ng && strcmp(t->ng[gi].name, t->ng[o->ng].name) < 0);
	if (tighter) {
		o->ng = gi;
		o->plane = pi;
		o->level = lv;
		o->demand = demand;
		o->capacity = c->eff;
		o->flows = c->eff < c->fluid - 1e-9 ? c->flows : 0;
		o->links = c->eff < c->fluid - 1e-9 ? c->links : 0;
		o->hash = c->hash;
	}
}

static void unroutable(struct route_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void unroutable(struct route_out *o, const char *fmt, ...)
{
	va_list ap;
	if (o->unroutable)
		return;
	o->unroutable = true;
	o->factor = 0;
	va_start(ap, fmt);
	vsnprintf(o->why, sizeof o->why, fmt, ap);
	va_end(ap);
}

/* A group without a bundle cannot send to another node. */
static bool no_network(const struct seg *sg, int ns, struct route_out *o)
{
	int i;
	for (i = 0; i < ns; i++)
		if (!sg[i].g->nplanes) {
			unroutable(o, "'%s' has no bundle to the network", sg[i].g->name);
			return true;
		}
	return false;
}

/* ---- loads: what every segment sends out of the components it visits, summed ---------
 * A contribution adds v (demand, flows, destinations, nodes) to every component lo..hi of
 * one level (switch group, order), on behalf of a group's plane and level. The load of a
 * component is the sum of what covers it, whichever group, plane or segment it comes from
 * (groups bundled into one switch group share its components). The sweep visits the
 * pieces of constant load: O(contributions log contributions) per communicator, never per
 * node. */
enum why_up { UP_LEAVE, UP_WRAP, UP_PAIR_RAIL, UP_A2A };

struct contrib {
	int sw, order;
	long lo, hi;
	double v[4];
	int gi, pi, lv;     /* node group, plane (index in the group), level */
	int why;            /* enum why_up: what the traffic is, when there is no uplink */
	long block_nodes;   /* nodes of the segment one component holds (the up share) */
	long G;             /* rail groups of the level (components per block) */
};

struct event {
	int sw, order;
	long pos;
	int add;            /* 0: the contribution ends before pos, 1: it starts at pos */
	size_t i;
};

static struct {
	struct contrib *c;
	size_t n, cap;
	struct event *e;
	size_t ecap;
	size_t *active;
	size_t *where;      /* where[i]: contribution i's place in active while it is there */
	size_t acap;
} acc;

static void acc_reset(void)
{
	acc.n = 0;
}

/* How a ring's contribution got its values (ring_values makes them again for another
 * traffic over the same hops): the base of its group and level, times `times`; kind RK_INNER
 * multiplied the first three by hops first, RK_RANDOM set the node count to 1/trays. */
enum ring_kind { RK_PLAIN, RK_INNER, RK_RANDOM };
struct recipe {
	int gi, pi, lv, kind;
	long block_nodes, trays;
	double hops, times;
};

/* While on, every contribution added records rec.cur (with its times) in rec.r. */
static struct {
	bool on;
	struct recipe cur;
	struct recipe *r;
	size_t cap;
} rec;

static void acc_add(const struct contrib *proto, long lo, long hi, double times)
{
	struct contrib *c;
	int k;
	if (hi < lo || times <= 0)
		return;
	if (acc.n == acc.cap) {
		acc.cap = acc.cap ? acc.cap * 2 : 256;
		acc.c = xrealloc(acc.c, acc.cap * sizeof *acc.c);
	}
	if (rec.on) {
		if (acc.n >= rec.cap) {
			rec.cap = acc.cap;
			rec.r = xrealloc(rec.r, rec.cap * sizeof *rec.r);
		}
		rec.r[acc.n] = rec.cur;
		rec.r[acc.n].times = times;
	}
	c = &acc.c[acc.n++];
	*c = *proto;
	c->lo = lo;
	c->hi = hi;
	for (k = 0; k < 4; k++)
		c->v[k] = proto->v[k] * times;
}

/* topo_runs' callback: arg is the contribution each run of blocks gets, per position; a
 * block is its rail groups' components (the busiest group's share on each). */
static void acc_run(long lo, long hi, long count, void *arg)
{
	const struct contrib *c = arg;
	acc_add(c, lo * c->G, hi * c->G + c->G - 1, (double)count);
}

static int ev_cmp(const void *pa, const void *pb)
{
	const struct event *a = pa, *b = pb;
	if (a->sw != b->sw)
		return a->sw < b->sw ? -1 : 1;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	if (a->pos != b->pos)
		return a->pos < b->pos ? -1 : 1;
	if (a->add != b->add)
		return a->add - b->add;
	return a->i < b->i ? -1 : a->i > b->i ? 1 : 0;
}

/* The events in ev_cmp's order by a stable LSD radix sort of (level, position, add) packed
 * in 64 bits: they are made in contribution order, so equal keys keep their contributions
 * in order, as ev_cmp's last key has it. false when the ranges do not pack (qsort then). */
struct ev_key {
	uint64_t key;
	size_t src;
};

static int bits_for(uint64_t range)
{
	int b = 0;
	while (b < 64 && (range >> b))
		b++;
	return b;
}

static bool ev_radix(struct event *e, size_t ne)
{
	static struct ev_key *a, *b;
	static struct event *tmp;
	static size_t cap;
	long swlo = e[0].sw, swhi = e[0].sw, olo = e[0].order, ohi = e[0].order, plo = e[0].pos, phi = e[0].pos;
	int sb, ob, pb, shift, total, digit;
	size_t i, nbucket;
	uint64_t mask;
	for (i = 1; i < ne; i++) {
		swlo = e[i].sw < swlo ? e[i].sw : swlo;
		swhi = e[i].sw > swhi ? e[i].sw : swhi;
		olo = e[i].order < olo ? e[i].order : olo;
		ohi = e[i].order > ohi ? e[i].order : ohi;
		plo = e[i].pos < plo ? e[i].pos : plo;
		phi = e[i].pos > phi ? e[i].pos : phi;
	}
	sb = bits_for((uint64_t)(swhi - swlo));
	ob = bits_for((uint64_t)(ohi - olo));
	pb = bits_for((uint64_t)phi - (uint64_t)plo);
	total = sb + ob + pb + 1;
	if (total > 64)
		return false;
	if (ne > cap) {
		cap = ne * 2;
		free(a);
		free(b);
		free(tmp);
		a = xmalloc(cap * sizeof *a);
		b = xmalloc(cap * sizeof *b);
		tmp = xmalloc(cap * sizeof *tmp);
	}
	for (i = 0; i < ne; i++) {
		uint64_t k = (uint64_t)(e[i].sw - swlo);
		k = (k << ob) | (uint64_t)(e[i].order - olo);
		k = (k << pb) | ((uint64_t)e[i].pos - (uint64_t)plo);
		a[i].key = (k << 1) | (uint64_t)(e[i].add != 0);
		a[i].src = i;
	}
	/* Digits of about log2(ne) bits (at most 11): the buckets cost as much as the events
	 * per pass, and a ring at 1,000 groups sorts a thousand events, not a million. */
	digit = bits_for((uint64_t)ne);
	digit = digit < 4 ? 4 : digit > 11 ? 11 : digit;
	nbucket = (size_t)1 << digit;
	mask = nbucket - 1;
	for (shift = 0; shift < total; shift += digit) {
		size_t cnt[2048], sum = 0, d;
		struct ev_key *sw;
		memset(cnt, 0, nbucket * sizeof *cnt);
		for (i = 0; i < ne; i++)
			cnt[(a[i].key >> shift) & mask]++;
		if (cnt[(a[0].key >> shift) & mask] == ne)
			continue; /* one digit for all: nothing moves */
		for (d = 0; d < nbucket; d++) {
			size_t c = cnt[d];
			cnt[d] = sum;
			sum += c;
		}
		for (i = 0; i < ne; i++)
			b[cnt[(a[i].key >> shift) & mask]++] = a[i];
		sw = a;
		a = b;
		b = sw;
	}
	for (i = 0; i < ne; i++)
		tmp[i] = e[a[i].src];
	memcpy(e, tmp, ne * sizeof *e);
	return true;
}

typedef void (*piece_fn)(const struct contrib *rep, const double *sum, void *ctx);

/* Room for n contributions' events and active set. */
static void acc_room(size_t n)
{
	if (2 * n > acc.ecap) {
		acc.ecap = 4 * n;
		acc.e = xrealloc(acc.e, acc.ecap * sizeof *acc.e);
	}
	if (n > acc.acap) {
		acc.acap = n * 2;
		acc.active = xrealloc(acc.active, acc.acap * sizeof *acc.active);
		acc.where = xrealloc(acc.where, acc.acap * sizeof *acc.where);
	}
}

/* The events in ev_cmp's order by merging, when it can: per level (switch group, order)
 * the contributions in the order they were made, if their starts rise and their ends rise
 * (the usual case: a group's blocks in order, every group's one contribution to a shared
 * component), give two sorted lists, starts and ends, which merge in one pass (an end
 * before a start at one position, each list in contribution order). false, leaving acc.e
 * as it was, when the levels are too sparse to count or a level's starts or ends fall. */
#define ACC_ORDERS 64
static bool acc_merge(void)
{
	static size_t *first, *ord, cap_first, cap_ord;
	long swlo, swhi, olo, ohi;
	size_t i, nb, ne = 2 * acc.n, out = 0, b;
	int oidx[ACC_ORDERS], norders;
	if (!acc.n)
		return true;
	swlo = swhi = acc.c[0].sw;
	olo = ohi = acc.c[0].order;
	for (i = 1; i < acc.n; i++) {
		const struct contrib *c = &acc.c[i];
		swlo = c->sw < swlo ? c->sw : swlo;
		swhi = c->sw > swhi ? c->sw : swhi;
		olo = c->order < olo ? c->order : olo;
		ohi = c->order > ohi ? c->order : ohi;
	}
	/* The orders present, numbered densely in their order (a chain's orders are 2, 4, 6:
	 * levels are (switch group, order) slots, and half the orders' slots were empty). */
	if (ohi - olo + 1 > ACC_ORDERS)
		return false;
	{
		bool present[ACC_ORDERS] = { false };
		long o;
		for (i = 0; i < acc.n; i++)
			present[acc.c[i].order - olo] = true;
		norders = 0;
		for (o = 0; o <= ohi - olo; o++)
			oidx[o] = present[o] ? norders++ : -1;
	}
	if ((uint64_t)(swhi - swlo + 1) * (uint64_t)norders > 4 * (uint64_t)acc.n + 1024)
		return false;
	nb = (size_t)(swhi - swlo + 1) * (size_t)norders;
	if (nb + 1 > cap_first) {
		cap_first = 2 * (nb + 1);
		free(first);
		first = xmalloc(cap_first * sizeof *first);
	}
	if (acc.n > cap_ord) {
		cap_ord = 2 * acc.n;
		free(ord);
		ord = xmalloc(cap_ord * sizeof *ord);
	}
#define ACC_LEVEL(c) ((size_t)((c)->sw - swlo) * (size_t)norders + (size_t)oidx[(c)->order - olo])
	memset(first, 0, (nb + 1) * sizeof *first);
	for (i = 0; i < acc.n; i++)
		first[ACC_LEVEL(&acc.c[i]) + 1]++;
	for (b = 0; b < nb; b++)
		first[b + 1] += first[b];
	/* ord: the contributions by level, in the order they were made (first[] moves on to
	 * each level's end, then is shifted back). */
	for (i = 0; i < acc.n; i++)
		ord[first[ACC_LEVEL(&acc.c[i])]++] = i;
#undef ACC_LEVEL
	for (b = nb; b > 0; b--)
		first[b] = first[b - 1];
	first[0] = 0;
	for (b = 0; b < nb; b++)
		for (i = first[b] + 1; i < first[b + 1]; i++)
			if (acc.c[ord[i]].lo < acc.c[ord[i - 1]].lo || acc.c[ord[i]].hi < acc.c[ord[i - 1]].hi)
				return false;
	for (b = 0; b < nb; b++) {
		size_t s = first[b], t = first[b], end = first[b + 1];
		/* Each end, after the starts before it (ends and starts rise). */
		for (; t < end; t++) {
			const struct contrib *ct = &acc.c[ord[t]];
			long stop = ct->hi + 1;
			for (; s < end && acc.c[ord[s]].lo < stop; s++)
				acc.e[out++] = (struct event){ ct->sw, ct->order, acc.c[ord[s]].lo, 1, ord[s] };
			acc.e[out++] = (struct event){ ct->sw, ct->order, stop, 0, ord[t] };
		}
	}
	return out == ne;
}

/* The contributions' events in the sweep's order (ev_cmp's), into acc.e. */
static void acc_order(void)
{
	size_t ne = 2 * acc.n, i;
	bool sorted = true;
	acc_room(acc.n);
	if (acc_merge())
		return;
	for (i = 0; i < acc.n; i++) {
		const struct contrib *c = &acc.c[i];
		acc.e[2 * i] = (struct event){ c->sw, c->order, c->lo, 1, i };
		acc.e[2 * i + 1] = (struct event){ c->sw, c->order, c->hi + 1, 0, i };
	}
	for (i = 1; i < ne && sorted; i++)
		sorted = ev_cmp(&acc.e[i - 1], &acc.e[i]) <= 0;
	if (!sorted && (ne < 64 || !ev_radix(acc.e, ne)))
		qsort(acc.e, ne, sizeof *acc.e, ev_cmp);
}

/* The pieces of constant load over the n contributions cs and their events ev (acc's as
 * acc_order made them, or a kept ring's), each to fn. */
static void acc_walk(const struct contrib *cs, size_t n, const struct event *ev, piece_fn fn, void *ctx)
{
	size_t ne = 2 * n, i, k, nact = 0;
	double sum[4] = { 0, 0, 0, 0 };
	for (i = 0; i < ne;) {
		const struct event *e0 = &ev[i];
		size_t j = i;
		/* Every event at this position of this level, then the piece that starts here. */
		while (j < ne && ev[j].sw == e0->sw && ev[j].order == e0->order && ev[j].pos == e0->pos) {
			const struct event *e = &ev[j];
			const struct contrib *c = &cs[e->i];
			if (e->add) {
				acc.where[e->i] = nact;
				acc.active[nact++] = e->i;
				/* (Written out: a loop here was a tenth of the walk.) */
				sum[0] += c->v[0];
				sum[1] += c->v[1];
				sum[2] += c->v[2];
				sum[3] += c->v[3];
			} else {
				/* Out of the active set: the last one takes its place (a component
				 * shared by every group holds a contribution of each, a thousand at
				 * 1,000 groups: no search). */
				size_t at = acc.where[e->i], last = acc.active[--nact];
				acc.active[at] = last;
				acc.where[last] = at;
				sum[0] -= c->v[0];
				sum[1] -= c->v[1];
				sum[2] -= c->v[2];
				sum[3] -= c->v[3];
			}
			j++;
		}
		if (nact == 0) {
			for (k = 0; k < 4; k++)
				sum[k] = 0; /* no drift from one level to the next */
		} else {
			/* The representative: the contribution covering it that sends the most. */
			size_t best = acc.active[0];
			for (k = 1; k < nact; k++)
				if (cs[acc.active[k]].v[0] > cs[best].v[0])
					best = acc.active[k];
			fn(&cs[best], sum, ctx);
		}
		i = j;
	}
}

static void acc_sweep(piece_fn fn, void *ctx)
{
	if (!acc.n)
		return;
	acc_order();
	acc_walk(acc.c, acc.n, acc.e, fn, ctx);
}

/* ---- ring and pairs: the hops that leave each component ------------------------------
 * A ring visits a segment's nodes in order: inside the segment a hop leaves a component at
 * each boundary between the blocks it crosses; the hop from the segment's last node to the
 * next segment's first (the wrap, for the last) leaves unless that node is in the same
 * component. Each hop carries the ring's rate (every channel), at the component's share of
 * the rails. */

/* The last piece's capacity, for the next one with the same load on a level of the same
 * make (the pieces of a thousand alike pods, each on its own leaf switch, come one after
 * another): the loads (bit for bit), the level's inputs to capacity() and `extra`, what
 * else the caller's question reads (all-to-all: the ports per node it spreads over). */
/* What capacity() reads of a level: two levels of one make give the same capacity for the
 * same flows and destinations (the piece and tree memos key on it). */
struct level_make {
	double link;
	int switches, uplinks, hash, hash_links, pair_links;
	bool peer;
};

static struct level_make level_make_of(const struct topo_level *l)
{
	struct level_make k = { l->link_GBps, l->switches, l->uplinks, l->hash, l->hash_links, l->pair_links, l->peer };
	return k;
}

static bool level_make_is(const struct level_make *k, const struct topo_level *l)
{
	return k->link == l->link_GBps && k->switches == l->switches && k->uplinks == l->uplinks && k->hash == l->hash &&
	       k->hash_links == l->hash_links && k->pair_links == l->pair_links && k->peer == l->peer;
}

struct piece_memo {
	bool set;
	double sum[4];
	struct level_make make;
	int extra;
	struct cap c;
};

static bool piece_memo_hit(const struct piece_memo *m, const double *sum, const struct topo_level *l, int extra)
{
	return memos_on && m->set && m->sum[0] == sum[0] && m->sum[1] == sum[1] && m->sum[2] == sum[2] && m->sum[3] == sum[3] &&
	       m->extra == extra && level_make_is(&m->make, l);
}

static void piece_memo_keep(struct piece_memo *m, const double *sum, const struct topo_level *l, int extra,
			    const struct cap *c)
{
	int k;
	m->set = true;
	m->extra = extra;
	for (k = 0; k < 4; k++)
		m->sum[k] = sum[k];
	m->make = level_make_of(l);
	m->c = *c;
}

struct ring_ctx {
	const struct topo *t;
	const struct route_in *in;
	struct route_out *o;
	double conc;
	bool pairs;
	struct piece_memo memo;
};

static void ring_piece(const struct contrib *rep, const double *sum, void *vctx)
{
	struct ring_ctx *x = vctx;
	const struct topo_ngroup *g = &x->t->ng[rep->gi];
	const struct topo_level *l = &g->plane[rep->pi].level[rep->lv];
	double demand = sum[0], frac = 1;
	struct cap c;
	if (x->in->placement == PLACE_RANDOM && !x->pairs) {
		/* At random, a hop leaves an m-node component with probability (n - m)/(n - 1). */
		long n = x->in->span.len;
		double m = sum[3];
		frac = n > 1 ? (n - m) / (n - 1.0) : 0;
		if (frac <= 0)
			return;
		demand *= frac;
	}
	if (demand <= 1e-12)
		return;
	if (l->uplinks <= 0) {
		switch (rep->why) {
		case UP_WRAP:
			unroutable(x->o,
				   "an odd number of nodes with NCCL_CROSS_NIC: the ring's wrap hop changes rail, and the rails of '%s' meet nowhere (set fabric.cross_nic false)",
				   g->name);
			break;
		case UP_PAIR_RAIL:
			unroutable(x->o,
				   "without PXN a pair's GPUs use different rails, and the rails of '%s' meet nowhere (set fabric.pxn true)",
				   g->name);
			break;
		default:
			unroutable(x->o, "traffic from '%s' must leave the switches it reaches, and they have no uplinks", g->name);
			break;
		}
		return;
	}
	if (piece_memo_hit(&x->memo, sum, l, 0)) {
		c = x->memo.c;
		memo_hits++;
	} else {
		c = capacity(l, (long)ceil(sum[1] * frac - 1e-9), (long)ceil(sum[2] * frac - 1e-9), true);
		piece_memo_keep(&x->memo, sum, l, 0, &c);
	}
	take(x->t, x->o, demand, &c, rep->gi, rep->pi, rep->lv);
	{
		double per = x->conc * x->in->rate * (rep->block_nodes > 0 ? rep->block_nodes : 1);
		double su = per > 0 ? demand / per : 0;
		if (su > x->o->share_up[rep->lv])
			x->o->share_up[rep->lv] = min_d(1, su);
	}
}

/* Direct links of a ring hop (or a pair) between nodes of g and h: they carry every channel
 * of the hop. Without them the hop needs a switch plane at both ends. */
static void mesh_hop(const struct topo *t, const struct seg *a, const struct seg *b, double demand, struct route_out *o)
{
	double cap;
	int links = topo_mesh_pair(a->g, b->g, &cap), k;
	if (links > 0) {
		struct cap c = direct_cap(cap);
		if (a->g->nswitch && a->g->wired > 0) {
			/* Beside switch planes, the direct links carry their ports' share. */
			int mesh_ports = 0;
			for (k = a->g->nswitch; k < a->g->nplanes; k++)
				mesh_ports += a->g->plane[k].links;
			demand *= min_d(1, (double)mesh_ports / a->g->wired);
		}
		k = mesh_plane(a->g, b->g);
		take(t, o, demand, &c, a->gi, k >= 0 ? k : 0, 0);
		return;
	}
	if (a->g->nswitch && b->g->nswitch)
		return; /* the switches carry it */
	if (a->g == b->g)
		unroutable(o, "the servers of '%s' are not linked to each other (a mesh links only the groups it names)",
			   a->g->name);
	else
		unroutable(o, "'%s' and '%s' are not linked: no mesh between them, no switch both reach", a->g->name,
			   b->g->name);
}

/* A ring's hops over one graph and communicator, whatever its channels and rate (the job's
 * ring, DP's rings and the send/recv pairs of one recompute take the same hops): the
 * contributions with their recipes and the events in the sweep's order. Only one
 * communicator's (span.count 1) are kept; cleared with the tree counts. */
#define RING_GEO_CACHE 4
#define RING_GEO_MAX 20000 /* contributions (about 4 MB): larger ones are not kept */
static struct ring_geo {
	uint64_t key;
	bool valid;
	int nng;        /* the graph's node groups (the recipes index them) */
	struct contrib *c;
	struct recipe *r;
	struct event *e;
	size_t n, ccap, rcap, ecap;
} ring_geo[RING_GEO_CACHE];
static int ring_geo_next;

/* acc's contributions, recipes and events into rg (no copy: the tables are swapped, and
 * rg's old ones, with their room, become acc's to fill next). */
static void ring_geo_take(struct ring_geo *rg)
{
	struct contrib *c = rg->c;
	struct recipe *r = rg->r;
	struct event *e = rg->e;
	size_t ccap = rg->ccap, rcap = rg->rcap, ecap = rg->ecap;
	rg->c = acc.c;
	rg->ccap = acc.cap;
	rg->r = rec.r;
	rg->rcap = rec.cap;
	rg->e = acc.e;
	rg->ecap = acc.ecap;
	acc.c = c;
	acc.cap = ccap;
	rec.r = r;
	rec.cap = rcap;
	acc.e = e;
	acc.ecap = ecap;
	rg->n = acc.n;
	acc.n = 0;
	/* As much room as the tables given away had (the next traffic is as large). */
	if (acc.cap < rg->ccap) {
		free(acc.c);
		acc.cap = rg->ccap;
		acc.c = xmalloc(acc.cap * sizeof *acc.c);
	}
	if (rec.cap < rg->rcap) {
		free(rec.r);
		rec.cap = rg->rcap;
		rec.r = xmalloc(rec.cap * sizeof *rec.r);
	}
	if (acc.ecap < rg->ecap) {
		free(acc.e);
		acc.ecap = rg->ecap;
		acc.e = xmalloc(acc.ecap * sizeof *acc.e);
	}
}

static uint64_t fnv(uint64_t h, const void *p, size_t n);

/* What the hops depend on, besides the graph: the communicator's nodes (one of them), the
 * pairs' distance and wrap, the odd wrap of NCCL_CROSS_NIC, a ring's random placement and
 * the pairs' rails. */
static uint64_t ring_geo_key(const struct topo *t, const struct route_in *in, bool pairs, long D, bool odd_wrap)
{
	long f[8];
	f[0] = in->span.first;
	f[1] = in->span.len;
	f[2] = in->span.step > 0 ? in->span.step : 1;
	/* Pairs one node apart in a ring of pairs take a ring's hops (their values differ). */
	f[3] = pairs && D > 1 ? D : 1;
	f[4] = pairs && !in->pair_wrap;
	f[5] = odd_wrap;
	f[6] = in->placement == PLACE_RANDOM && !pairs;
	f[7] = pairs && in->pair_cross_rail;
	return fnv((uint64_t)t->layout ^ 0x6a09e667f3bcc909ULL, f, sizeof f);
}

/* A ring's planned values at one group and level, for `trays` trays (each node's share):
 * what each of its contributions scales. */
static void ring_base(const struct topo *t, const struct route_in *in, bool pairs, double conc,
		      const struct topo_ngroup *g, const struct topo_level *l, long block_nodes, long trays, double *v)
{
	long step = in->span.step > 0 ? in->span.step : 1;
	double share;
	int m;
	/* A ring's channels go round-robin over the node's ports; a node's pairs each take one
	 * NIC (fabric-physics.md 3.2), GPU i's pair on rail i: a rail component carries the
	 * pairs of its rails. */
	share = rail_share(pairs ? (int)conc : in->channels * (int)conc, l->rails * g->spn, g->wired * g->spn);
	v[0] = conc * in->rate * share;
	v[1] = (pairs ? conc * share * in->p2p_channels : ceil(in->channels * conc * in->runtime * share)) * t->qps;
	v[2] = pairs ? conc * share : (double)l->rails * g->spn;
	v[3] = 0;
	/* Communicators interleaved node by node (a rank's peers a whole number of nodes
	 * apart): each family with nodes in the component leaves it. */
	if (in->span.stride > 0 && in->span.stride < step) {
		long fam = step / in->span.stride;
		double f = (double)(fam < block_nodes ? fam : block_nodes);
		v[0] *= f;
		v[1] *= f;
		v[2] *= f;
	}
	for (m = 0; m < 4; m++)
		v[m] /= (double)trays;
}

/* The contributions of the kept hops, valued for traffic in (the same operations, in the
 * same order, as when they were first made), in place: every value of a kept contribution
 * is made again from its recipe, so the last traffic's values need not be kept. */
static void ring_values(const struct topo *t, const struct route_in *in, bool pairs, double conc, struct ring_geo *rg)
{
	size_t i;
	int k;
	/* The last base and what it was made of (ring_base reads no more of the group and
	 * level, and the traffic is this call's): alike groups' recipes repeat it. */
	double base[4] = { 0, 0, 0, 0 };
	int spn = -1, wired = -1, rails = -1;
	long block_nodes = -1, trays = -1;
	for (i = 0; i < rg->n; i++) {
		const struct recipe *r = &rg->r[i];
		const struct topo_ngroup *g = &t->ng[r->gi];
		const struct topo_level *l = &g->plane[r->pi].level[r->lv];
		double v[4];
		if (!memos_on || g->spn != spn || g->wired != wired || l->rails != rails || r->block_nodes != block_nodes ||
		    r->trays != trays) {
			ring_base(t, in, pairs, conc, g, l, r->block_nodes, r->trays, base);
			spn = g->spn;
			wired = g->wired;
			rails = l->rails;
			block_nodes = r->block_nodes;
			trays = r->trays;
		} else {
			memo_hits++;
		}
		for (k = 0; k < 4; k++)
			v[k] = base[k];
		if (r->kind == RK_INNER)
			for (k = 0; k < 3; k++)
				v[k] *= r->hops;
		else if (r->kind == RK_RANDOM)
			v[3] = 1.0 / r->trays;
		for (k = 0; k < 4; k++)
			rg->c[i].v[k] = v[k] * r->times;
	}
}

/* pr's values, made the first time one of its level's hops leaves (most levels of a
 * thousand groups' ring see none: the hop to the next group stays in their component). */
static void ring_value(const struct topo *t, const struct route_in *in, bool pairs, double conc,
		       const struct topo_ngroup *g, const struct topo_level *l, long block_nodes, long trays,
		       struct contrib *pr, bool *valued)
{
	if (*valued)
		return;
	ring_base(t, in, pairs, conc, g, l, block_nodes, trays, pr->v);
	*valued = true;
}

/* The hops of communicator k leaving components, as contributions (recorded when rec.on). */
static void ring_hops(const struct topo *t, const struct route_in *in, bool pairs, double conc, const struct seg *sg,
		      int ns, long D, bool odd_wrap)
{
	long step = in->span.step > 0 ? in->span.step : 1;
	int maxp = max_switch_planes(t), i, pi;
	for (pi = 0; pi < maxp; pi++)
		for (i = 0; i < ns; i++) {
			const struct seg *s = &sg[i], *nx = &sg[(i + 1) % ns];
			const struct topo_ngroup *g = s->g;
			const struct topo_plane *p = plane_of(g, pi), *pn = plane_of(nx->g, pi);
			bool last = i == ns - 1, exits = !(pairs && last && !in->pair_wrap);
			long d = step * g->spn, x0, x1;
			int lv;
			if (!p)
				continue;
			x0 = topo_pos(g, p, s->lo);
			x1 = topo_pos(g, p, s->hi);
			for (lv = 0; lv < p->nlevels; lv++) {
				const struct topo_level *l = &p->level[lv];
				bool single = l->size >= TOPO_ALL;
				bool rails_apart = l->rails < p->links || p->links < g->wired;
				long block_nodes = single ? in->span.len : ceil_l(l->size, g->spn);
				long most = single ? s->n : ceil_l(l->size, d);
				double hops = 1;
				struct contrib proto, *pr = &proto;
				long trays, tr;
				int m;
				bool valued = false; /* pr->v made (only for a level a hop leaves) */
				if (most > s->n)
					most = s->n;
				if (single && !(in->placement == PLACE_RANDOM && !pairs) && !(pairs && in->pair_cross_rail && rails_apart)) {
					/* A level of one component (one tray): only the hop to the next segment
					 * can leave it, and it stays when the next node is in the component
					 * (every group under one spine unit or core): nothing to add. */
					long here, there;
					if (!exits)
						continue;
					here = topo_comp_rail(l, x1, 0);
					if (pn && comp_at(nx->g, pn, nx->lo, 0, l->sw, l->order, &there) && there == here &&
					    !(odd_wrap && last && rails_apart))
						continue;
				}
				memset(pr, 0, sizeof *pr);
				pr->sw = l->sw;
				pr->order = l->order;
				pr->gi = s->gi;
				pr->pi = (int)(p - g->plane);
				pr->lv = lv;
				pr->why = UP_LEAVE;
				pr->block_nodes = most;
				pr->G = topo_rail_groups(l);
				/* Pairs further apart than one node: the last D nodes of a block send
				 * out of it. */
				if (pairs && D > 1)
					hops = (double)(D < most ? D : most);
				trays = trays_at(g, p, l);
				rec.cur.gi = s->gi;
				rec.cur.pi = pr->pi;
				rec.cur.lv = lv;
				rec.cur.block_nodes = block_nodes;
				rec.cur.trays = trays;
				rec.cur.hops = hops;
				for (tr = 0; tr < trays; tr++) {
					long y0 = x0 + tr, y1 = x1 + tr;
					if (in->placement == PLACE_RANDOM && !pairs) {
						/* Every node of the component: its hop leaves at random. */
						ring_value(t, in, pairs, conc, g, l, block_nodes, trays, pr, &valued);
						pr->v[3] = 1.0 / trays;
						rec.cur.kind = RK_RANDOM;
						topo_runs(l, y0, d, s->n, acc_run, pr);
						continue;
					}
					if (pairs && in->pair_cross_rail && rails_apart) {
						/* Without PXN a pair's GPUs sit on different rails: every pair
						 * leaves its rail component. */
						pr->why = UP_PAIR_RAIL;
						rec.cur.kind = RK_PLAIN;
						ring_value(t, in, pairs, conc, g, l, block_nodes, trays, pr, &valued);
						topo_runs(l, y0, d, exits ? s->n : s->n - 1, acc_run, pr);
						continue;
					}
					if (!single && s->n > 1) {
						long B0 = floordiv(y0 + l->shift, l->size), B1 = floordiv(y1 + l->shift, l->size);
						struct contrib inner;
						if (d >= l->size || B1 > B0)
							ring_value(t, in, pairs, conc, g, l, block_nodes, trays, pr, &valued);
						inner = *pr;
						for (m = 0; m < 3; m++)
							inner.v[m] *= hops;
						rec.cur.kind = RK_INNER;
						if (d >= l->size) {
							/* Nodes a block or more apart: every hop inside the segment
							 * leaves its node's block. */
							topo_runs(l, y0, d, s->n - 1, acc_run, &inner);
						} else if (B1 > B0) {
							/* Consecutive blocks: one hop out of each but the last
							 * (count blocks, one position each). */
							topo_runs(l, B0 * l->size - l->shift, l->size, B1 - B0, acc_run, &inner);
						}
					}
					if (exits) {
						long here = topo_comp_rail(l, y1, 0), there;
						bool stays = pn && comp_at(nx->g, pn, nx->lo, tr, l->sw, l->order, &there) && there == here;
						rec.cur.kind = RK_PLAIN;
						if (!stays) {
							pr->why = UP_LEAVE;
							ring_value(t, in, pairs, conc, g, l, block_nodes, trays, pr, &valued);
							acc_add(pr, here, here + pr->G - 1, hops);
						} else if (odd_wrap && last && rails_apart) {
							pr->why = UP_WRAP;
							ring_value(t, in, pairs, conc, g, l, block_nodes, trays, pr, &valued);
							acc_add(pr, here, here + pr->G - 1, 1);
						}
					}
				}
			}
		}
}

static void eval_ring(const struct topo *t, const struct route_in *in, struct route_out *o, bool pairs)
{
	int maxseg = t->nplaced > 0 ? t->nplaced : 1;
	struct seg *sg = seg_room(SEG_RING, maxseg);
	long k, D = in->distance > 0 ? in->distance : 1;
	int i;
	double conc = in->concurrent > 0 ? in->concurrent : 1;
	bool odd_wrap = !pairs && in->cross_rail && in->span.len > 2 && in->span.len % 2 == 1;
	struct ring_ctx x = { t, in, o, conc, pairs, { 0 } };
	for (k = 0; k < in->span.count; k++) {
		int ns = segments(t, &in->span, k, sg, maxseg);
		struct ring_geo *rg = NULL;
		uint64_t key = 0;
		if (ns == 0 || in->span.len < 2 || no_network(sg, ns, o))
			continue;
		if (in->span.count == 1) {
			key = ring_geo_key(t, in, pairs, D, odd_wrap);
			for (i = 0; i < RING_GEO_CACHE; i++)
				if (ring_geo[i].valid && ring_geo[i].key == key && ring_geo[i].nng == t->nng)
					rg = &ring_geo[i];
		}
		if (rg) {
			/* The same hops: their values for this traffic, the kept order. */
			ring_values(t, in, pairs, conc, rg);
			if (rg->n)
				acc_room(rg->n);
		} else {
			acc_reset();
			rec.on = in->span.count == 1;
			ring_hops(t, in, pairs, conc, sg, ns, D, odd_wrap);
			rec.on = false;
			if (acc.n)
				acc_order();
		}
		if (rg && rg->n)
			acc_walk(rg->c, rg->n, rg->e, ring_piece, &x);
		else if (!rg && acc.n)
			acc_walk(acc.c, acc.n, acc.e, ring_piece, &x);
		if (!rg && in->span.count == 1 && acc.n <= RING_GEO_MAX) {
			/* Kept: the tables change hands (the entry's old ones become acc's). */
			rg = &ring_geo[ring_geo_next];
			ring_geo_next = (ring_geo_next + 1) % RING_GEO_CACHE;
			ring_geo_take(rg);
			rg->nng = t->nng;
			rg->key = key;
			rg->valid = true;
		}
		/* Direct links: each hop of a mesh over the links of its pair. */
		for (i = 0; i < ns; i++) {
			const struct seg *s = &sg[i], *nx = &sg[(i + 1) % ns];
			bool last = i == ns - 1, exits = !(pairs && last && !in->pair_wrap);
			if (s->g->nplanes == s->g->nswitch && s->g->nswitch)
				continue;
			if (s->n >= 2)
				mesh_hop(t, s, s, conc * in->rate, o);
			if (exits && (nx != s || s->n < 2))
				mesh_hop(t, s, nx, conc * in->rate, o);
		}
		for (i = 0; i < ns; i++) {
			/* A switch-only group next to a mesh-only one. */
			const struct seg *s = &sg[i], *nx = &sg[(i + 1) % ns];
			if (s->g->nswitch && !nx->g->nswitch && nx != s)
				mesh_hop(t, s, nx, conc * in->rate, o);
		}
	}
}

/* ---- alltoall: uniform destinations -------------------------------------------------- */

struct a2a_ctx {
	const struct topo *t;
	const struct route_in *in;
	struct route_out *o;
	struct piece_memo memo;
};

static void a2a_piece(const struct contrib *rep, const double *sum, void *vctx)
{
	struct a2a_ctx *x = vctx;
	const struct route_in *in = x->in;
	const struct topo_ngroup *g = &x->t->ng[rep->gi];
	const struct topo_plane *p = &g->plane[rep->pi];
	const struct topo_level *l = &p->level[rep->lv];
	long n = in->span.len;
	double m = sum[3], inside, share_out, demand, gp = in->gpus > 0 ? in->gpus : 1;
	int wired = g->wired > 0 ? g->wired : 1;
	long flows, dests;
	struct cap c;
	/* Share of a port's bytes that leave the component: PXN keeps each byte on its
	 * destination's rail; without it a byte for another rail leaves a rail component even
	 * when both nodes are in it. */
	inside = n > 1 ? (m - 1) / (n - 1) : 1;
	if (inside < 0)
		inside = 0;
	if (!in->pxn && l->rails < wired)
		inside *= (double)l->rails / wired;
	share_out = 1 - inside;
	if (share_out <= 1e-12)
		return;
	demand = sum[0] * share_out;
	if (demand <= 1e-12)
		return;
	if (l->uplinks <= 0) {
		unroutable(x->o, "alltoall traffic must leave '%s'%s, and there is no path up", g->name,
			   in->pxn ? "" : " (without PXN it changes rail)");
		return;
	}
	if (piece_memo_hit(&x->memo, sum, l, l->rails * g->spn)) {
		c = x->memo.c;
		memo_hits++;
	} else {
		flows = (long)min_d(1e15, sum[1] * (n - m) * gp);
		dests = (long)min_d(1e15, (n - m > 0 ? n - m : 1) * (double)l->rails * g->spn);
		c = capacity(l, flows, dests, false);
		piece_memo_keep(&x->memo, sum, l, l->rails * g->spn, &c);
	}
	take(x->t, x->o, demand, &c, rep->gi, rep->pi, rep->lv);
	if (share_out > x->o->share_up[rep->lv])
		x->o->share_up[rep->lv] = share_out;
}

/* Does level lv of switch plane pi hold the whole communicator in one top component that
 * nothing else adds to? Every segment's plane reaches it as a one-component level without
 * uplinks, all of one key, no other plane index of any segment meets its (switch group,
 * order) (not even through the same plane, which a group of fewer planes uses again), and
 * with PXN or rail components that hold every port. Then its one piece holds
 * the n nodes whose traffic it would weigh: a share (n - 1)/(n - 1) stays inside, nothing
 * leaves (a2a_piece returns at once), and its contributions need not be made. */
static bool a2a_whole_top(const struct route_in *in, const struct seg *sg, int ns, int maxp, int pi, int lv)
{
	const struct topo_level *l0 = NULL;
	long nodes = 0;
	int i, q, m;
	for (i = 0; i < ns; i++) {
		const struct topo_plane *p = plane_of(sg[i].g, pi);
		const struct topo_level *l;
		if (!p || lv >= p->nlevels)
			return false;
		l = &p->level[lv];
		if (l->size < TOPO_ALL || l->uplinks > 0 || (!in->pxn && l->rails < (sg[i].g->wired > 0 ? sg[i].g->wired : 1)))
			return false;
		nodes += sg[i].n;
		if (!l0)
			l0 = l;
		else if (l->sw != l0->sw || l->order != l0->order || l->base != l0->base ||
			 topo_rail_groups(l) != topo_rail_groups(l0))
			return false;
		for (q = 0; q < maxp; q++) {
			const struct topo_plane *pq = plane_of(sg[i].g, q);
			if (q == pi || !pq)
				continue; /* (a group of fewer planes takes its first again: that counts) */
			for (m = 0; m < pq->nlevels; m++)
				if (pq->level[m].sw == l0->sw && pq->level[m].order == l0->order)
					return false;
		}
	}
	return l0 != NULL && nodes == in->span.len; /* its n nodes, every one in a segment */
}

static void eval_alltoall(const struct topo *t, const struct route_in *in, struct route_out *o)
{
	int maxseg = t->nplaced > 0 ? t->nplaced : 1;
	struct seg *sg = seg_room(SEG_A2A, maxseg);
	long k, step = in->span.step > 0 ? in->span.step : 1, n = in->span.len;
	int maxp = max_switch_planes(t), i, j;
	double conc = in->concurrent > 0 ? in->concurrent : 1, gp = in->gpus > 0 ? in->gpus : 1;
	struct a2a_ctx x = { t, in, o, { 0 } };
	int *mesh_only;
	if (n < 2) {
		return;
	}
	mesh_only = xcalloc((size_t)maxseg, sizeof *mesh_only);
	for (k = 0; k < in->span.count; k++) {
		int ns = segments(t, &in->span, k, sg, maxseg), pi;
		if (ns == 0 || no_network(sg, ns, o))
			continue;
		acc_reset();
		for (pi = 0; pi < maxp; pi++) {
			bool whole[TOPO_MAX_LEVELS];
			int lv;
			for (lv = 0; lv < TOPO_MAX_LEVELS; lv++)
				whole[lv] = memos_on && a2a_whole_top(in, sg, ns, maxp, pi, lv);
			for (i = 0; i < ns; i++) {
				const struct seg *s = &sg[i];
				const struct topo_plane *p = plane_of(s->g, pi);
				int wired = s->g->wired > 0 ? s->g->wired : 1;
				if (!p)
					continue;
				for (lv = 0; lv < p->nlevels; lv++) {
					const struct topo_level *l = &p->level[lv];
					struct contrib proto, *pr = &proto;
					double railf = min_d(1, (double)l->rails / wired);
					long trays, tr;
					int m;
					if (whole[lv]) {
						memo_hits++;
						continue;
					}
					memset(pr, 0, sizeof *pr);
					pr->sw = l->sw;
					pr->order = l->order;
					pr->gi = s->gi;
					pr->pi = (int)(p - s->g->plane);
					pr->lv = lv;
					pr->why = UP_A2A;
					pr->G = topo_rail_groups(l);
					/* Per node of the component: its network bytes at this plane's share,
					 * its queue pairs (times the peers outside, in the piece), one node. */
					pr->v[0] = conc * in->rate * railf;
					if (in->span.stride > 0 && in->span.stride < step)
						pr->v[0] *= (double)(step / in->span.stride); /* interleaved families */
					pr->v[1] = conc * gp * railf * (in->p2p_channels > 0 ? in->p2p_channels : 1) * t->qps;
					pr->v[3] = 1;
					trays = trays_at(s->g, p, l);
					for (m = 0; m < 4; m++)
						pr->v[m] /= (double)trays;
					if (l->size >= TOPO_ALL && s->n > 0) /* one component: topo_runs' one run */
						acc_add(pr, l->base * pr->G, l->base * pr->G + pr->G - 1, (double)s->n);
					else
						for (tr = 0; tr < trays; tr++)
							topo_runs(l, topo_pos(s->g, p, s->lo) + tr, step * s->g->spn, s->n, acc_run,
								  pr);
				}
			}
		}
		acc_sweep(a2a_piece, &x);
		/* Direct links: each peer's share over the links of its pair. */
		for (i = 0; i < ns; i++) {
			const struct seg *s = &sg[i];
			if (s->g->nplanes == s->g->nswitch)
				continue;
			for (j = 0; j < ns; j++) {
				const struct seg *h = &sg[j];
				if (j == i && s->n < 2)
					continue;
				mesh_hop(t, s, h, in->rate / (n - 1) * conc, o);
			}
		}
		/* Switch groups to mesh-only groups (the segments of those listed once: the
		 * pairs are ns x ns otherwise, at 1,000 groups most of the evaluation). */
		{
			int nmesh = 0;
			for (j = 0; j < ns; j++)
				if (!sg[j].g->nswitch && sg[j].g->nplanes)
					mesh_only[nmesh++] = j;
			for (i = 0; i < ns && nmesh; i++)
				if (sg[i].g->nswitch)
					for (j = 0; j < nmesh; j++)
						mesh_hop(t, &sg[i], &sg[mesh_only[j]], in->rate / (n - 1) * conc, o);
		}
	}
	free(mesh_only);
}

/* ---- trees: the exact count of crossing edges, cached per layout ------------------------ */

struct comp_count {
	struct ckey k;
	long count;
	bool used;
};

struct hmap {
	struct comp_count *v;
	size_t cap, n;     /* n: entries in use; the table doubles before it is half full */
	size_t alloc;      /* entries allocated (at least cap) */
};

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

/* The capacity is a power of two. */
static size_t hmap_slot(const struct hmap *m, struct ckey k)
{
	size_t i = (size_t)mix(((uint64_t)(k.sw + 7) * 0x9e3779b97f4a7c15ULL + (uint64_t)k.order) ^ (uint64_t)k.b) &
		   (m->cap - 1);
	while (m->v[i].used && !key_eq(m->v[i].k, k))
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* A table of at least `want` entries (a power of two, at least 16), empty; its memory is
 * reused when it is large enough. */
static void hmap_reset(struct hmap *m, size_t want)
{
	size_t cap = 16;
	while (cap < want)
		cap *= 2;
	if (cap > m->alloc) {
		free(m->v);
		m->v = xcalloc(cap, sizeof *m->v);
		m->alloc = cap;
	} else {
		memset(m->v, 0, cap * sizeof *m->v);
	}
	m->cap = cap;
	m->n = 0;
}

static struct comp_count *hmap_get(struct hmap *m, struct ckey k)
{
	size_t i = hmap_slot(m, k);
	if (m->v[i].used)
		return &m->v[i];
	if ((m->n + 1) * 2 > m->cap) {
		struct hmap g = { xcalloc(m->cap * 2, sizeof *m->v), m->cap * 2, 0, m->cap * 2 };
		size_t j;
		for (j = 0; j < m->cap; j++)
			if (m->v[j].used) {
				g.v[hmap_slot(&g, m->v[j].k)] = m->v[j];
				g.n++;
			}
		free(m->v);
		*m = g;
		i = hmap_slot(m, k);
	}
	m->v[i].used = true;
	m->v[i].k = k;
	m->v[i].count = 0;
	m->n++;
	return &m->v[i];
}

/* The crossing-edge table of one layout: for each (node group, plane, level) the most
 * crossing tree edges (both trees) touching one component, and for meshes the most tree
 * edges on one pair (at the group's mesh plane to the pair's other group). */
struct tree_table {
	uint64_t key;
	int nng, np;  /* node groups, planes of the most planed one */
	long *most;   /* [ng][plane][level]: nng x np x TOPO_MAX_LEVELS */
	bool unlinked; /* a tree edge between nodes no mesh and no switch plane joins */
	char why[160];
	bool valid;
};

#define TREE_CACHE 16
static struct tree_table tree_cache[TREE_CACHE];
static int tree_cache_next;

/* Mix n bytes into h, a word at a time (the layout key is hashed on every tree lookup). */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, c, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
		c += 8;
		n -= 8;
	}
	while (n--) {
		h = (h ^ *c++) * 1099511628211ULL;
	}
	return h;
}

static uint64_t layout_key(const struct topo *t, const struct span *s, int placement)
{
	uint64_t h = (uint64_t)t->layout;
	struct span one = *s;
	/* One communicator has no stride to the next: the world's span and a DP span over the
	 * same nodes share their count. */
	if (one.count <= 1)
		one.stride = 0;
	if (one.step <= 0)
		one.step = 1;
	h = fnv(h, &one, sizeof one);
	h = fnv(h, &placement, sizeof placement);
	return h;
}

static long *most_at(const struct tree_table *tt, int gi, int pi, int lv)
{
	return &tt->most[((size_t)gi * (size_t)tt->np + (size_t)pi) * TOPO_MAX_LEVELS + (size_t)lv];
}

/* The table sized for t's groups and their planes (at 1,000 groups of one plane, 8 times
 * less to clear than for TOPO_MAX_PLANES each). */
static void most_alloc(const struct topo *t, struct tree_table *tt)
{
	int i;
	tt->nng = t->nng;
	tt->np = 1;
	for (i = 0; i < t->nng; i++)
		if (t->ng[i].nplanes > tt->np)
			tt->np = t->ng[i].nplanes;
	tt->most = xcalloc((size_t)t->nng * (size_t)tt->np * TOPO_MAX_LEVELS, sizeof *tt->most);
}

static void count_trees_direct(const struct topo *t, const struct span *s, int placement, struct tree_table *tt)
{
	long n = s->len, k, x, step = s->step > 0 ? s->step : 1;
	int pi, lv, tree, maxp = max_switch_planes(t);
	bool meshes = false;
	struct hmap m;
	long *gloc = xcalloc((size_t)n, sizeof *gloc);
	int *gidx = xcalloc((size_t)n, sizeof *gidx);
	int i;
	for (i = 0; i < t->nplaced; i++)
		if (t->ng[t->order[i]].nplanes > t->ng[t->order[i]].nswitch)
			meshes = true;
	most_alloc(t, tt);
	m.v = NULL;
	m.cap = 0;
	m.alloc = 0;
	hmap_reset(&m, (size_t)n * 2 + 16);
	(void)placement;
	for (k = 0; k < s->count; k++) {
		long a = s->first + k * s->stride;
		{
			/* Nodes in order: walk the placed groups alongside. */
			int cur = 0;
			for (x = 0; x < n; x++) {
				long v = a + x * step;
				gidx[x] = -1;
				while (cur < t->nplaced) {
					const struct topo_ngroup *g = &t->ng[t->order[cur]];
					if (g->used && v >= g->first && v < g->first + g->used) {
						gidx[x] = t->order[cur];
						gloc[x] = v - g->first;
						break;
					}
					if (g->used && v < g->first)
						break;
					cur++;
				}
			}
		}
		for (pi = 0; pi < maxp; pi++)
			for (lv = 0; lv < TOPO_MAX_LEVELS; lv++) {
				hmap_reset(&m, m.cap);
				/* Count, for each component, the tree edges with one end inside it. */
				for (tree = 0; tree < 2; tree++)
					for (x = 0; x < n; x++) {
						long y = dtree_parent(n, tree, x);
						const struct topo_ngroup *gx, *gy;
						const struct topo_plane *px, *py;
						if (y < 0 || gidx[x] < 0 || gidx[y] < 0)
							continue;
						gx = &t->ng[gidx[x]];
						gy = &t->ng[gidx[y]];
						px = plane_of(gx, pi);
						py = plane_of(gy, pi);
						if (!px || !py)
							continue;
						if (lv < px->nlevels) {
							struct ckey kx = key_at(gx, px, lv, gloc[x]);
							if (!on_chain(gy, py, gloc[y], kx))
								hmap_get(&m, kx)->count++;
						}
						if (lv < py->nlevels) {
							struct ckey ky = key_at(gy, py, lv, gloc[y]);
							if (!on_chain(gx, px, gloc[x], ky))
								hmap_get(&m, ky)->count++;
						}
					}
				/* The busiest component of each (group, plane, level). */
				for (x = 0; x < n; x++) {
					const struct topo_ngroup *g;
					const struct topo_plane *p;
					struct comp_count *cc;
					long *mo;
					if (gidx[x] < 0)
						continue;
					g = &t->ng[gidx[x]];
					p = plane_of(g, pi);
					if (!p || lv >= p->nlevels)
						continue;
					mo = most_at(tt, gidx[x], (int)(p - g->plane), lv);
					cc = hmap_get(&m, key_at(g, p, lv, gloc[x]));
					if (cc->count > *mo)
						*mo = cc->count;
				}
			}
		if (!meshes)
			continue;
		/* Direct links: the tree edges on each linked pair, keyed by the pair's nodes. */
		hmap_reset(&m, m.cap);
		for (tree = 0; tree < 2; tree++)
			for (x = 0; x < n; x++) {
				long y = dtree_parent(n, tree, x);
				const struct topo_ngroup *gx, *gy;
				struct ckey pk;
				if (y < 0 || gidx[x] < 0 || gidx[y] < 0)
					continue;
				gx = &t->ng[gidx[x]];
				gy = &t->ng[gidx[y]];
				if (topo_mesh_pair(gx, gy, NULL) <= 0) {
					if ((!gx->nswitch || !gy->nswitch) && !tt->unlinked) {
						tt->unlinked = true;
						if (gx == gy)
							snprintf(tt->why, sizeof tt->why,
								 "tree edges join servers of '%s' that are not linked to each other", gx->name);
						else
							snprintf(tt->why, sizeof tt->why,
								 "tree edges join '%s' and '%s', which are not linked", gx->name, gy->name);
					}
					continue;
				}
				pk.sw = -1;
				pk.order = 0;
				pk.b = (x < y ? x : y) * n + (x < y ? y : x);
				hmap_get(&m, pk)->count++;
			}
		for (tree = 0; tree < 2; tree++)
			for (x = 0; x < n; x++) {
				long y = dtree_parent(n, tree, x);
				const struct topo_ngroup *g;
				struct ckey pk;
				struct comp_count *cc;
				int mp;
				long *mo;
				if (y < 0 || gidx[x] < 0 || gidx[y] < 0)
					continue;
				g = &t->ng[gidx[x]];
				mp = mesh_plane(g, &t->ng[gidx[y]]);
				if (mp < 0)
					continue;
				pk.sw = -1;
				pk.order = 0;
				pk.b = (x < y ? x : y) * n + (x < y ? y : x);
				cc = hmap_get(&m, pk);
				mo = most_at(tt, gidx[x], mp, 0);
				if (cc->count > *mo)
					*mo = cc->count;
				/* The parent's side: its plane to the child's group. */
				g = &t->ng[gidx[y]];
				mp = mesh_plane(g, &t->ng[gidx[x]]);
				if (mp >= 0) {
					mo = most_at(tt, gidx[y], mp, 0);
					if (cc->count > *mo)
						*mo = cc->count;
				}
			}
	}
	free(m.v);
	free(gloc);
	free(gidx);
	tt->valid = true;
}

/* The crossing edges by runs (the production count; count_trees_direct visits every node
 * and checks it in tests). Along the communicator's ranks the component at one level is
 * constant over runs: a run ends where the group or the block changes. An edge with both
 * ends in one run crosses nothing, so only edges spanning a run boundary are looked at.
 * NCCL's tree is in order over ranks: the edge of a child c with lowest set bit b joins c
 * and c +- b, and of the children with lowest bit b exactly one edge spans a given
 * boundary (they sit 2b apart, each spanning b), so a boundary has at most one edge per
 * bit and per tree. Each edge is taken once, at the first boundary it spans. Cost:
 * runs x log2(ranks), not ranks (a rail unit of 32 servers is one run). */

struct trun {
	long start;          /* first rank */
	int gi;              /* node group, -1: ranks of no group */
	long local0;         /* local node of the first rank */
	bool has;            /* a key at this level */
	struct ckey key;
};

struct trun_set {
	struct trun *v;
	size_t n, cap;
	long step;
	/* Buckets of 2^shift ranks: bucket[i] is the run holding rank i << shift (a lookup
	 * scans on from there: as many buckets as runs, so a step or two). */
	size_t *bucket, nbucket, bcap;
	int shift;
	bool one_order;      /* every run of a group has a key, all of one order (tree_edge) */
};

static void trun_push(struct trun_set *rs, long start, int gi, long local0, bool has, struct ckey key)
{
	struct trun *r;
	if (rs->n && rs->v[rs->n - 1].start == start)
		rs->n--; /* an empty run before it */
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 64;
		rs->v = xrealloc(rs->v, rs->cap * sizeof *rs->v);
	}
	r = &rs->v[rs->n++];
	r->start = start;
	r->gi = gi;
	r->local0 = local0;
	r->has = has;
	r->key = key;
}

/* The run holding rank x (runs start at rank 0, in order). */
static const struct trun *trun_at(const struct trun_set *rs, long x)
{
	size_t i = rs->bucket[(size_t)x >> rs->shift];
	while (i + 1 < rs->n && rs->v[i + 1].start <= x)
		i++;
	return &rs->v[i];
}

/* The buckets for ranks 0..n-1. */
static void trun_index(struct trun_set *rs, long n)
{
	size_t i, r = 0;
	rs->shift = 0;
	while ((n >> rs->shift) > (long)(2 * rs->n) + 1)
		rs->shift++;
	rs->nbucket = (size_t)(n >> rs->shift) + 1;
	if (rs->nbucket > rs->bcap) {
		rs->bcap = rs->nbucket * 2;
		free(rs->bucket);
		rs->bucket = xmalloc(rs->bcap * sizeof *rs->bucket);
	}
	for (i = 0; i < rs->nbucket; i++) {
		long x = (long)(i << rs->shift);
		while (r + 1 < rs->n && rs->v[r + 1].start <= x)
			r++;
		rs->bucket[i] = r;
	}
}

/* The runs of communicator k at (plane pi, level lv). */
static void tree_runs(const struct span *s, long k, int pi, int lv, const struct seg *sg, int ns,
		      struct trun_set *rs)
{
	long a = s->first + k * s->stride, step = s->step > 0 ? s->step : 1, next = 0;
	struct ckey none = { -1, 0, 0 };
	int i;
	rs->n = 0;
	rs->step = step;
	for (i = 0; i < ns; i++) {
		const struct topo_ngroup *g = sg[i].g;
		const struct topo_plane *p = plane_of(g, pi);
		long r0 = (g->first + sg[i].lo - a) / step, j = 0;
		if (r0 > next)
			trun_push(rs, next, -1, 0, false, none);
		if (!p || lv >= p->nlevels || p->level[lv].size >= TOPO_ALL) {
			bool has = p && lv < p->nlevels;
			trun_push(rs, r0, sg[i].gi, sg[i].lo, has, has ? key_at(g, p, lv, sg[i].lo) : none);
		} else {
			const struct topo_level *l = &p->level[lv];
			long D = step * g->spn, P0 = topo_pos(g, p, sg[i].lo);
			while (j < sg[i].n) {
				/* The ranks of this raw block: up to the first position of the next. */
				long B = floordiv(P0 + j * D + l->shift, l->size);
				long jn = ceil_l((B + 1) * l->size - l->shift - P0, D);
				trun_push(rs, r0 + j, sg[i].gi, sg[i].lo + j * step, true, key_at(g, p, lv, sg[i].lo + j * step));
				j = jn > j ? jn : j + 1;
			}
		}
		next = r0 + sg[i].n;
	}
	if (next < s->len || rs->n == 0)
		trun_push(rs, next, -1, 0, false, none);
}

/* Would tree_runs give communicator k at (pi, lv) as runs of one key with no boundary?
 * Every segment's plane has the level as one component, all of one key, and the segments
 * fill the ranks back to back: then no edge leaves the component, and the level needs no
 * runs (every group under one core). */
static bool tree_level_whole(const struct span *s, long k, int pi, int lv, const struct seg *sg, int ns)
{
	long a = s->first + k * s->stride, step = s->step > 0 ? s->step : 1, next = 0;
	struct ckey k0 = { -1, 0, 0 };
	int i;
	for (i = 0; i < ns; i++) {
		const struct topo_ngroup *g = sg[i].g;
		const struct topo_plane *p = plane_of(g, pi);
		struct ckey key;
		if (!p || lv >= p->nlevels || p->level[lv].size < TOPO_ALL || (g->first + sg[i].lo - a) / step != next)
			return false;
		key = key_at(g, p, lv, sg[i].lo);
		if (i && !key_eq(key, k0))
			return false;
		k0 = key;
		next += sg[i].n;
	}
	return ns > 0 && next == s->len;
}

/* Tree-0 edge (c, parent) spanning boundary beta (between ranks beta - 1 and beta) among the
 * children with lowest bit b, if any. */
static bool span_edge(long n, long beta, long b, long *c, long *p)
{
	long m0 = -floordiv(b - beta, b) * b, cc = (m0 / b) % 2 ? m0 : m0 + b, pp, lo, hi;
	if (cc < 1 || cc >= n)
		return false;
	pp = btree_parent(n, cc);
	if (pp < 0)
		return false;
	lo = cc < pp ? cc : pp;
	hi = cc < pp ? pp : cc;
	if (!(lo < beta && beta <= hi))
		return false;
	*c = cc;
	*p = pp;
	return true;
}

/* One tree edge between ranks x and y: the ends' components it leaves. */
/* Does the edge's other end (run o, local lo) leave component k (the key of a run at this
 * level)? Its own run's key answers when it names the same switch group and order. */
static bool leaves(const struct topo_ngroup *go, const struct topo_plane *po, const struct trun *o, long lo, struct ckey k)
{
	if (o->has && o->key.sw == k.sw && o->key.order == k.order)
		return o->key.b != k.b;
	return !on_chain(go, po, lo, k);
}

/* One tree edge between ranks x and y: the runs whose component it leaves count it (cnt,
 * per run; the runs of one component are summed at the end). With rs->one_order (every
 * run of a group has a key, all of one order) the keys answer alone: a chain's orders
 * rise, so another group's chain meets a key's (switch group, order) only at this level,
 * where its run's key says which component it is in; the edge leaves both ends'
 * components or neither. */
static void tree_edge(const struct topo *t, const struct trun_set *rs, int pi, long x, long y, long *cnt)
{
	const struct trun *rx = trun_at(rs, x), *ry = trun_at(rs, y);
	const struct topo_ngroup *gx, *gy;
	const struct topo_plane *px, *py;
	long lx, ly;
	if (rx == ry || rx->gi < 0 || ry->gi < 0)
		return;
	if (rs->one_order) {
		if (!key_eq(rx->key, ry->key)) {
			cnt[rx - rs->v]++;
			cnt[ry - rs->v]++;
		}
		return;
	}
	gx = &t->ng[rx->gi];
	gy = &t->ng[ry->gi];
	px = plane_of(gx, pi);
	py = plane_of(gy, pi);
	if (!px || !py)
		return;
	lx = rx->local0 + (x - rx->start) * rs->step;
	ly = ry->local0 + (y - ry->start) * rs->step;
	if (rx->has && leaves(gy, py, ry, ly, rx->key))
		cnt[rx - rs->v]++;
	if (ry->has && leaves(gx, px, rx, lx, ry->key))
		cnt[ry - rs->v]++;
}

/* The tree-1 edges of node 0 when n is odd (tree 0's node n-1, which the shift wraps to 0):
 * out[] gets their ends in rank order space; returns how many. */
static int wrap_edges(long n, long (*out)[2])
{
	long r = n - 1, b, k = 0, pr = btree_parent(n, r);
	if (pr >= 0) {
		out[k][0] = (r + 1) % n;
		out[k][1] = (pr + 1) % n;
		k++;
	}
	for (b = 1; b < n && k < 64; b <<= 1) {
		long c;
		for (c = r - b; c <= r + b; c += 2 * b)
			if (c >= 0 && c < n && c != r && (c & -c) == b && btree_parent(n, c) == r) {
				out[k][0] = (c + 1) % n;
				out[k][1] = (r + 1) % n;
				k++;
			}
	}
	return (int)k;
}

/* Tree `tree`'s edge of tree 0's child c (its parent edge), as ranks x (child) and y:
 * false for a root, and for tree 1's edges of node 0 at odd n (wrap_edges has them). */
static bool tree_edge_ranks(long n, int tree, long c, long *x, long *y)
{
	long pp = btree_parent(n, c);
	if (pp < 0)
		return false;
	if (tree == 0) {
		*x = c;
		*y = pp;
	} else if (n % 2 == 0) {
		*x = n - 1 - c;
		*y = n - 1 - pp;
	} else {
		if (c == n - 1 || pp == n - 1)
			return false;
		*x = c + 1;
		*y = pp + 1;
	}
	return true;
}

/* A component's slot in count_trees' dense table: its (switch group, order)'s range. */
static size_t dense_at(const struct ckey *k, const struct ckey *sig, int nsig, const long *bmin, const size_t *off)
{
	int z;
	for (z = 0; z < nsig - 1 && !(sig[z].sw == k->sw && sig[z].order == k->order); z++)
		;
	return off[z] + (size_t)(k->b - bmin[z]);
}

static void count_trees(const struct topo *t, const struct span *s, int placement, struct tree_table *tt)
{
	long n = s->len, k;
	int pi, lv, maxp = max_switch_planes(t), maxseg = t->nplaced > 0 ? t->nplaced : 1, i;
	bool meshes = false;
	struct seg *sg = seg_room(SEG_TREE_COUNT, maxseg);
	/* Kept from one count to the next (fresh pages cost a fault each). */
	static struct trun_set rs;
	static struct hmap m;
	static long *cnt, *dense_cnt;
	static size_t ncnt, ndense, *bound, nbound;
	for (i = 0; i < t->nplaced; i++)
		if (t->ng[t->order[i]].nplanes > t->ng[t->order[i]].nswitch)
			meshes = true;
	if (meshes) {
		/* Direct links are counted pair by pair (count_trees_direct does it). */
		count_trees_direct(t, s, placement, tt);
		return;
	}
	most_alloc(t, tt);
	for (k = 0; k < s->count && n >= 2; k++) {
		int ns = segments(t, s, k, sg, maxseg);
		for (pi = 0; pi < maxp; pi++)
			for (lv = 0; lv < TOPO_MAX_LEVELS; lv++) {
				size_t r, nb, bz;
				long wr[64][2];
				int nw = 0, tree, w;
				long bit;
				bool any = false;
				for (i = 0; i < ns && !any; i++) {
					const struct topo_plane *p = plane_of(sg[i].g, pi);
					any = p && lv < p->nlevels;
				}
				if (!any || tree_level_whole(s, k, pi, lv, sg, ns))
					continue;
				tree_runs(s, k, pi, lv, sg, ns, &rs);
				/* The boundaries an edge can cross: between runs of different
				 * components. Neighbouring runs of one component (the groups of one
				 * spine unit, every group under one core) join: an edge between them
				 * leaves neither (leaves() compares their keys), so it needs no look.
				 * None: every run is of one component, which no edge leaves (the
				 * counts stay 0, as most_alloc made them). */
				if (rs.n > nbound) {
					nbound = rs.cap;
					free(bound);
					bound = xmalloc(nbound * sizeof *bound);
				}
				nb = 0;
				for (r = 1; r < rs.n; r++)
					if (!(rs.v[r].has && rs.v[r - 1].has && rs.v[r].gi >= 0 && rs.v[r - 1].gi >= 0 &&
					      key_eq(rs.v[r].key, rs.v[r - 1].key)))
						bound[nb++] = r;
				if (nb == 0)
					continue;
				trun_index(&rs, n);
				rs.one_order = true;
				{
					int order0 = -1;
					for (r = 0; r < rs.n && rs.one_order; r++) {
						if (rs.v[r].gi < 0)
							continue;
						if (order0 < 0 && rs.v[r].has)
							order0 = rs.v[r].key.order;
						rs.one_order = rs.v[r].has && rs.v[r].key.order == order0;
					}
				}
				if (rs.n > ncnt) {
					ncnt = rs.cap;
					free(cnt);
					cnt = xmalloc(ncnt * sizeof *cnt);
				}
				memset(cnt, 0, rs.n * sizeof *cnt);
				if (n % 2 == 1)
					nw = wrap_edges(n, wr);
				for (bit = 1; bit < n && nb > 0; bit <<= 1) {
					if ((n + 2 * bit - 1) / (2 * bit) <= (long)nb) {
						/* Fewer edges of this bit than boundaries: each edge, once. */
						long c;
						for (c = bit; c < n; c += 2 * bit)
							for (tree = 0; tree < 2; tree++) {
								long x, y;
								if (tree_edge_ranks(n, tree, c, &x, &y))
									tree_edge(t, &rs, pi, x, y, cnt);
							}
						continue;
					}
					for (bz = 0; bz < nb; bz++) {
						long beta = rs.v[bound[bz]].start, prev = bz ? rs.v[bound[bz - 1]].start : 0;
						if (beta <= 0 || beta >= n)
							continue;
						for (tree = 0; tree < 2; tree++) {
							/* The boundary in tree 0's ranks: tree 1 is tree 0 mirrored
							 * (even n) or shifted by one (odd n). */
							long b0 = tree == 0 ? beta : n % 2 == 0 ? n - beta : beta - 1, c, pp, x, y;
							if (b0 < 1 || b0 >= n || !span_edge(n, b0, bit, &c, &pp) ||
							    !tree_edge_ranks(n, tree, c, &x, &y))
								continue;
							if ((x < y ? x : y) < prev)
								continue; /* spans an earlier boundary: taken there */
							tree_edge(t, &rs, pi, x, y, cnt);
						}
					}
				}
				for (w = 0; w < nw; w++)
					tree_edge(t, &rs, pi, wr[w][0], wr[w][1], cnt);
				/* Each component's count is its runs' (a component can hold several runs:
				 * interleaved blocks, groups sharing a block), then the busiest component
				 * of each (group, plane, level). */
				{
					/* When each key's runs are consecutive (keys rising along the ranks,
					 * per switch group and order: blocks in order), a component's
					 * runs sum in place; else through the table. */
					bool ordered = true, mono = true;
					size_t q, r0;
					struct ckey last[8], prev = { 0, 0, 0 };
					int nlast = 0, z;
					bool have_prev = false;
					/* Keys rising along the ranks (switch group, order, number; equal
					 * only for adjacent runs): each key's runs are consecutive, however
					 * many switch groups (a thousand leaves of one pod each). */
					for (r = 0; r < rs.n && mono; r++) {
						const struct ckey *kk = &rs.v[r].key;
						if (!rs.v[r].has || rs.v[r].gi < 0)
							continue;
						if (have_prev && key_eq(*kk, prev))
							mono = r > 0 && rs.v[r - 1].has && key_eq(rs.v[r - 1].key, *kk);
						else if (have_prev)
							mono = kk->sw > prev.sw || (kk->sw == prev.sw && (kk->order > prev.order ||
											    (kk->order == prev.order && kk->b > prev.b)));
						prev = *kk;
						have_prev = true;
					}
					for (r = 0; r < rs.n && ordered && !mono; r++) {
						if (!rs.v[r].has || rs.v[r].gi < 0)
							continue;
						for (z = 0; z < nlast; z++)
							if (last[z].sw == rs.v[r].key.sw && last[z].order == rs.v[r].key.order)
								break;
						if (z == nlast) {
							if (nlast == 8) {
								ordered = false;
								break;
							}
							last[nlast++] = rs.v[r].key;
						} else if (rs.v[r].key.b < last[z].b ||
							   (rs.v[r].key.b == last[z].b && r > 0 &&
							    !(rs.v[r - 1].has && key_eq(rs.v[r - 1].key, rs.v[r].key)))) {
							ordered = false;
						} else {
							last[z] = rs.v[r].key;
						}
					}
					/* Out of order (interleaved components): a dense table per switch group
					 * and order when the numbers are compact (a hash's random reads were the
					 * cost at 10^5 runs), else the hash. */
					bool dense = false;
					int nsig = 0;
					struct ckey sig[8];
					long bmin[8], bmax[8];
					size_t off[8], total = 0;
					if (!ordered) {
						dense = true;
						for (r = 0; r < rs.n && dense; r++) {
							const struct ckey *kk = &rs.v[r].key;
							if (!rs.v[r].has || rs.v[r].gi < 0)
								continue;
							for (z = 0; z < nsig && !(sig[z].sw == kk->sw && sig[z].order == kk->order); z++)
								;
							if (z == nsig) {
								if (nsig == 8) {
									dense = false;
									break;
								}
								sig[nsig] = *kk;
								bmin[nsig] = bmax[nsig] = kk->b;
								nsig++;
							} else {
								bmin[z] = kk->b < bmin[z] ? kk->b : bmin[z];
								bmax[z] = kk->b > bmax[z] ? kk->b : bmax[z];
							}
						}
						for (z = 0; z < nsig && dense; z++) {
							off[z] = total;
							total += (size_t)(bmax[z] - bmin[z]) + 1;
							if (total > 4 * rs.n + 4096)
								dense = false;
						}
						if (dense) {
							if (total > ndense) {
								free(dense_cnt);
								ndense = total * 2;
								dense_cnt = xmalloc(ndense * sizeof *dense_cnt);
							}
							memset(dense_cnt, 0, total * sizeof *dense_cnt);
							for (r = 0; r < rs.n; r++)
								if (rs.v[r].gi >= 0 && rs.v[r].has)
									dense_cnt[dense_at(&rs.v[r].key, sig, nsig, bmin, off)] += cnt[r];
						} else {
							hmap_reset(&m, 2 * rs.n + 16);
							for (r = 0; r < rs.n; r++)
								if (rs.v[r].gi >= 0 && rs.v[r].has)
									hmap_get(&m, rs.v[r].key)->count += cnt[r];
						}
					}
					for (r0 = 0; r0 < rs.n; r0 = q) {
						long c = 0;
						/* The runs of one key: [r0, q). */
						for (q = r0 + 1; q < rs.n && rs.v[q].has && rs.v[r0].has &&
								 key_eq(rs.v[q].key, rs.v[r0].key);
						     q++)
							;
						if (!rs.v[r0].has)
							continue;
						if (ordered)
							for (r = r0; r < q; r++)
								c += rs.v[r].gi >= 0 ? cnt[r] : 0;
						else if (dense)
							c = dense_cnt[dense_at(&rs.v[r0].key, sig, nsig, bmin, off)];
						else
							c = hmap_get(&m, rs.v[r0].key)->count;
						for (r = r0; r < q; r++) {
							const struct topo_ngroup *g;
							const struct topo_plane *p;
							long *mo;
							if (rs.v[r].gi < 0)
								continue;
							g = &t->ng[rs.v[r].gi];
							p = plane_of(g, pi);
							mo = most_at(tt, rs.v[r].gi, (int)(p - g->plane), lv);
							if (c > *mo)
								*mo = c;
						}
					}
				}
			}
	}
	tt->valid = true;
}

bool route_tree_counts_agree(const struct topo *t, const struct span *s, char *why, size_t size)
{
	struct tree_table a, b;
	size_t i, n;
	bool same = true;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	count_trees(t, s, PLACE_CONTIGUOUS, &a);
	count_trees_direct(t, s, PLACE_CONTIGUOUS, &b);
	n = (size_t)t->nng * (size_t)a.np * TOPO_MAX_LEVELS;
	if (a.unlinked != b.unlinked) {
		snprintf(why, size, "unlinked: runs %d, direct %d", a.unlinked, b.unlinked);
		same = false;
	}
	for (i = 0; i < n && same; i++)
		if (a.most[i] != b.most[i]) {
			snprintf(why, size, "group %zu plane %zu level %zu: runs %ld, direct %ld", i / ((size_t)a.np * TOPO_MAX_LEVELS),
				 i / TOPO_MAX_LEVELS % (size_t)a.np, i % TOPO_MAX_LEVELS, a.most[i], b.most[i]);
			same = false;
		}
	free(a.most);
	free(b.most);
	return same;
}

void route_caches_clear(void)
{
	int i;
	for (i = 0; i < TREE_CACHE; i++) {
		free(tree_cache[i].most);
		memset(&tree_cache[i], 0, sizeof tree_cache[i]);
	}
	tree_cache_next = 0;
	for (i = 0; i < RING_GEO_CACHE; i++) {
		free(ring_geo[i].c);
		free(ring_geo[i].r);
		free(ring_geo[i].e);
		memset(&ring_geo[i], 0, sizeof ring_geo[i]);
	}
	ring_geo_next = 0;
	segments_clear();
}

static const struct tree_table *tree_table(const struct topo *t, const struct span *s, int placement)
{
	uint64_t key = layout_key(t, s, placement);
	int i;
	struct tree_table *tt;
	for (i = 0; i < TREE_CACHE; i++)
		if (tree_cache[i].valid && tree_cache[i].key == key && tree_cache[i].nng == t->nng)
			return &tree_cache[i];
	tt = &tree_cache[tree_cache_next];
	tree_cache_next = (tree_cache_next + 1) % TREE_CACHE;
	free(tt->most);
	memset(tt, 0, sizeof *tt);
	count_trees(t, s, placement, tt);
	tt->key = key;
	return tt;
}

/* eval_tree's capacities by edge count, per level index: alike groups (a thousand pods,
 * each on its own leaf switch) ask about levels of the same make with the few edge counts
 * a run of ranks has. An entry holds while the level's inputs to capacity() are those it
 * was made for (the level's make, its destinations per edge, the queue pairs per edge). */
#define TREE_MEMO_E 64
struct tree_memo {
	struct level_make make;
	double qp_edge;
	int dests_edge;
	bool set;
	uint64_t have;           /* bit E: c[E] made */
	struct cap c[TREE_MEMO_E];
};

static bool tree_memo_for(struct tree_memo *m, const struct topo_level *l, int dests_edge, double qp_edge)
{
	if (m->set && m->qp_edge == qp_edge && m->dests_edge == dests_edge && level_make_is(&m->make, l))
		return true;
	m->set = true;
	m->make = level_make_of(l);
	m->qp_edge = qp_edge;
	m->dests_edge = dests_edge;
	m->have = 0;
	return false;
}

static void eval_tree(const struct topo *t, const struct route_in *in, struct route_out *o, int placement)
{
	const struct tree_table *tt;
	int i, pi, lv;
	double conc = in->concurrent > 0 ? in->concurrent : 1;
	long n = in->span.len;
	if (n < 2)
		return;
	{
		/* A group without a bundle in the tree. */
		int maxseg = t->nplaced > 0 ? t->nplaced : 1, ns;
		struct seg *sg = seg_room(SEG_TREE, maxseg);
		long k;
		for (k = 0; k < in->span.count && !o->unroutable; k++) {
			ns = segments(t, &in->span, k, sg, maxseg);
			no_network(sg, ns, o);
		}
		if (o->unroutable)
			return;
	}
	tt = tree_table(t, &in->span, placement);
	if (tt->unlinked) {
		unroutable(o, "%s", tt->why);
		return;
	}
	/* A level's rail share and queue pairs per edge depend on its rails and its group's
	 * servers and ports only: made again when those change (alike groups follow each other). */
	int rails_was = -1, spn_was = -1, wired_was = -1;
	double share = 0, qp_edge = 0;
	struct tree_memo memo[TOPO_MAX_LEVELS];
	for (lv = 0; lv < TOPO_MAX_LEVELS; lv++) {
		memo[lv].set = false;
		memo[lv].have = 0;
	}
	for (i = 0; i < t->nplaced; i++) {
		int gi = t->order[i];
		const struct topo_ngroup *g = &t->ng[gi];
		if (!g->used)
			continue;
		for (pi = 0; pi < g->nplanes; pi++) {
			const struct topo_plane *p = &g->plane[pi];
			for (lv = 0; lv < p->nlevels; lv++) {
				const struct topo_level *l = &p->level[lv];
				long E = *most_at(tt, gi, pi, lv);
				double demand, per_edge;
				long flows;
				struct cap c;
				if (p->kind == PLANE_MESH) {
					/* Each edge on a direct pair carries B/4 a direction over its links. */
					double cap;
					int k, mesh_ports = 0;
					if (lv || E <= 0)
						continue;
					for (k = 0; k < t->nng && t->ng[k].server != p->leaf; k++)
						;
					if (k == t->nng || topo_mesh_pair(g, &t->ng[k], &cap) <= 0)
						continue;
					c = direct_cap(cap);
					demand = E * conc * in->rate / 4;
					if (g->nswitch && g->wired > 0) {
						for (k = g->nswitch; k < g->nplanes; k++)
							mesh_ports += g->plane[k].links;
						demand *= min_d(1, (double)mesh_ports / g->wired);
					}
					take(t, o, demand, &c, gi, pi, lv);
					continue;
				}
				if (placement == PLACE_RANDOM && l->size < TOPO_ALL) {
					/* Random placement: an edge leaves an m-node component with probability
					 * (n - m)/(n - 1); both trees give each node 4 edge ends on average. */
					double mm = min_d((double)n, (double)l->size / g->spn);
					E = (long)ceil(4 * mm * (n - mm) / (n - 1));
				}
				if (E <= 0)
					continue;
				/* Each tree edge carries B/4 per direction (two trees, each half the data,
				 * at the bus rate B = 2 x algbw), this component's share of the rails. */
				if (l->rails != rails_was || g->spn != spn_was || g->wired != wired_was) {
					rails_was = l->rails;
					spn_was = g->spn;
					wired_was = g->wired;
					share = rail_share(in->channels * (int)conc, l->rails * g->spn, g->wired * g->spn);
					qp_edge = ceil(in->channels * conc * in->runtime / 2.0 * share);
				}
				per_edge = in->rate / 4 * share;
				demand = E * conc * per_edge;
				if (l->uplinks <= 0) {
					unroutable(o, "tree edges must leave '%s', and there is no path up", g->name);
					continue;
				}
				{
					struct tree_memo *tm = &memo[lv];
					bool known = tree_memo_for(tm, l, l->rails * g->spn, qp_edge) && E < TREE_MEMO_E &&
						     (tm->have >> E & 1) && memos_on;
					if (known) {
						c = tm->c[E];
						memo_hits++;
					} else {
						flows = (long)ceil(E * qp_edge * t->qps);
						c = capacity(l, flows, E * l->rails * g->spn, false);
						if (E < TREE_MEMO_E) {
							tm->c[E] = c;
							tm->have |= 1ull << E;
						}
					}
				}
				take(t, o, demand, &c, gi, pi, lv);
				{
					double m = l->size >= TOPO_ALL ? (double)n : min_d((double)n, (double)l->size / g->spn);
					double su = E / (4.0 * (m > 0 ? m : 1)) * share;
					if (su > o->share_up[lv])
						o->share_up[lv] = min_d(1, su);
				}
			}
		}
	}
}

/* ---- entry ------------------------------------------------------------------------- */

void route_eval(const struct topo *t, const struct route_in *in, struct route_out *o)
{
	memset(o, 0, sizeof *o);
	o->factor = 1;
	o->ng = o->plane = o->level = -1;
	if (in->span.len < 2 || in->kind == TK_INNETWORK || !t->nng)
		return;
	if (in->rate <= 0) {
		/* Point-to-point traffic planned at nothing: a node without a network port. */
		if (in->kind == TK_ALLTOALL || in->kind == TK_PAIRS)
			unroutable(o, "a node of the job has no network port");
		return;
	}
	switch (in->kind) {
	case TK_RING:
		eval_ring(t, in, o, false);
		break;
	case TK_PAIRS:
		eval_ring(t, in, o, true);
		break;
	case TK_ALLTOALL:
		eval_alltoall(t, in, o);
		break;
	case TK_TREE:
		eval_tree(t, in, o, in->placement);
		break;
	default:
		break;
	}
	if (o->unroutable)
		o->factor = 0;
	else if (o->ng >= 0)
		o->factor = min_d(1, o->capacity / o->demand);
}
