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

/* Component key at a level: (switch group, node block). Mesh planes: one component. */
struct ckey {
	int sw;
	long b;
};

static struct ckey key_at(const struct topo_ngroup *g, const struct topo_plane *p, int lv, long local)
{
	struct ckey k;
	if (p->kind == PLANE_MESH) {
		k.sw = -2 - p->leaf;
		k.b = 0;
		return k;
	}
	k.sw = p->level[lv].sw;
	k.b = topo_comp(&p->level[lv], topo_pos(g, p, local));
	return k;
}

static bool key_eq(struct ckey a, struct ckey b)
{
	return a.sw == b.sw && a.b == b.b;
}

/* Is key k on the chain of node `local` of group g (plane p)? */
static bool on_chain(const struct topo_ngroup *g, const struct topo_plane *p, long local, struct ckey k)
{
	int lv;
	for (lv = 0; lv < p->nlevels; lv++)
		if (key_eq(key_at(g, p, lv, local), k))
			return true;
	return false;
}

static const struct topo_plane *plane_of(const struct topo_ngroup *g, int pi)
{
	if (!g->nplanes)
		return NULL;
	return &g->plane[pi < g->nplanes ? pi : 0];
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

/* The pieces of communicator k, in its order: one per node group it crosses. */
static int segments(const struct topo *t, const struct span *s, long k, struct seg *out, int max)
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

/* Keep the tightest resource: the smallest capacity over demand (the factor is that,
 * capped at 1; route_eval sets it at the end). */
static void take(struct route_out *o, double demand, const struct cap *c, int gi, int pi, int lv)
{
	double ratio;
	if (demand <= 0)
		return;
	ratio = c->eff > 0 ? c->eff / demand : 0;
	if (o->ng < 0 || ratio < o->capacity / o->demand - 1e-12) {
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

/* ---- ring and pairs: closed form over segments ---------------------------------------- */

/* Which components hold all of a communicator's nodes: a segment's nodes lie between its
 * first and last node, so a component holds them all when it is on both of their chains.
 * Counted once per communicator and plane: key -> segments wholly inside. */
struct inside {
	struct ckey *k;
	int *n;
	long *nodes;   /* communicator nodes of those segments */
	size_t cap;
};

static unsigned *inside_stamp(void);
static unsigned inside_gen(void);

static size_t inside_slot(const struct inside *in, struct ckey k)
{
	size_t i = (size_t)(((uint64_t)(k.sw + 7) * 0x9e3779b97f4a7c15ULL ^ (uint64_t)k.b * 0xff51afd7ed558ccdULL) % in->cap);
	const unsigned *st = inside_stamp();
	unsigned gen = inside_gen();
	while (st[i] == gen && !key_eq(in->k[i], k))
		i = (i + 1) % in->cap;
	return i;
}

/* The table is scratch memory kept between calls (cleared by a generation stamp), so a
 * recompute of a design of many groups does not clear kilobytes per call. */
static struct {
	struct ckey *k;
	int *n;
	long *nodes;
	unsigned *stamp;
	size_t cap;
	unsigned gen;
} scratch;

static void inside_build(struct inside *in, const struct seg *sg, int ns, int pi)
{
	int i, lv;
	size_t need = (size_t)ns * TOPO_MAX_LEVELS * 2 + 8;
	if (scratch.cap < need) {
		free(scratch.k);
		free(scratch.n);
		free(scratch.nodes);
		free(scratch.stamp);
		scratch.cap = need * 2;
		scratch.k = xcalloc(scratch.cap, sizeof *scratch.k);
		scratch.n = xcalloc(scratch.cap, sizeof *scratch.n);
		scratch.nodes = xcalloc(scratch.cap, sizeof *scratch.nodes);
		scratch.stamp = xcalloc(scratch.cap, sizeof *scratch.stamp);
		scratch.gen = 0;
	}
	if (++scratch.gen == 0) {
		memset(scratch.stamp, 0, scratch.cap * sizeof *scratch.stamp);
		scratch.gen = 1;
	}
	in->cap = need;
	in->k = scratch.k;
	in->n = scratch.n;
	in->nodes = scratch.nodes;
	for (i = 0; i < ns; i++) {
		const struct topo_plane *p = plane_of(sg[i].g, pi);
		if (!p)
			continue;
		for (lv = 0; lv < p->nlevels; lv++) {
			struct ckey k = key_at(sg[i].g, p, lv, sg[i].lo);
			size_t j;
			if (!on_chain(sg[i].g, p, sg[i].hi, k))
				continue;
			j = inside_slot(in, k);
			if (scratch.stamp[j] != scratch.gen) {
				scratch.stamp[j] = scratch.gen;
				in->k[j] = k;
				in->n[j] = 0;
				in->nodes[j] = 0;
			}
			in->k[j] = k;
			in->n[j]++;
			in->nodes[j] += sg[i].n;
		}
	}
}

static unsigned *inside_stamp(void)
{
	return scratch.stamp;
}

static unsigned inside_gen(void)
{
	return scratch.gen;
}

static bool inside_all(const struct inside *in, struct ckey k, int ns)
{
	size_t j = inside_slot(in, k);
	return scratch.stamp[j] == scratch.gen && in->n[j] == ns;
}

static long inside_nodes(const struct inside *in, struct ckey k)
{
	size_t j = inside_slot(in, k);
	return scratch.stamp[j] == scratch.gen ? in->nodes[j] : 0;
}

static void inside_free(struct inside *in)
{
	(void)in; /* scratch memory: kept for the next call */
}

/* Components at level lv a segment's nodes visit (node blocks), and the most communicator
 * nodes one of them holds. */
static long seg_blocks(const struct seg *s, const struct topo_plane *p, int lv, long step, long *most)
{
	const struct topo_level *l = &p->level[lv];
	long x0 = topo_pos(s->g, p, s->lo), x1 = topo_pos(s->g, p, s->hi), b0, b1, per_block;
	if (p->kind == PLANE_MESH || l->size >= TOPO_ALL) {
		*most = s->n;
		return 1;
	}
	b0 = (x0 + l->shift) / l->size; /* positions are >= 0 after the shift */
	b1 = (x1 + l->shift) / l->size;
	per_block = ceil_l(l->size, (long)s->g->spn * step);
	*most = per_block < s->n ? per_block : s->n;
	if (l->modulus > 0) {
		long blocks = b1 - b0 + 1, comps = blocks < l->modulus ? blocks : l->modulus;
		/* An interleaved component holds every modulus-th block. */
		*most = ceil_l(s->n, comps);
		return comps;
	}
	return b1 - b0 + 1;
}

static void eval_ring(const struct topo *t, const struct route_in *in, struct route_out *o, bool pairs)
{
	int maxseg = t->nplaced > 0 ? t->nplaced : 1;
	struct seg *sg = xcalloc((size_t)maxseg, sizeof *sg);
	long k, step = in->span.step > 0 ? in->span.step : 1;
	int maxp = 0, i;
	double conc = in->concurrent > 0 ? in->concurrent : 1;
	bool odd_wrap = !pairs && in->cross_rail && in->span.len > 2 && in->span.len % 2 == 1;
	bool cross = pairs ? in->pair_cross_rail : odd_wrap;
	for (i = 0; i < t->nplaced; i++)
		if (t->ng[t->order[i]].nplanes > maxp)
			maxp = t->ng[t->order[i]].nplanes;
	for (k = 0; k < in->span.count; k++) {
		int ns = segments(t, &in->span, k, sg, maxseg), pi;
		if (ns == 0 || in->span.len < 2)
			continue;
		for (pi = 0; pi < maxp; pi++) {
			struct inside ins;
			inside_build(&ins, sg, ns, pi);
			for (i = 0; i < ns; i++) {
				const struct seg *s = &sg[i];
				const struct topo_plane *p = plane_of(s->g, pi);
				int lv;
				if (!p)
					continue;
				if (p->kind == PLANE_MESH) {
					/* A direct link between the two nodes carries every channel's hop. */
					struct topo_level ml = p->level[0];
					struct cap c;
					long per_pair = p->links / (p->mesh_peers > 0 ? p->mesh_peers : 1);
					ml.uplinks = (int)(per_pair > 0 ? per_pair : 1);
					ml.link_GBps = p->gbps / 8.0;
					ml.switches = 1;
					ml.hash = HASH_NONE;
					c = capacity(&ml, 1, 1, true);
					take(o, conc * in->rate, &c, s->gi, pi, 0);
					continue;
				}
				for (lv = 0; lv < p->nlevels; lv++) {
					const struct topo_level *l = &p->level[lv];
					struct ckey kf = key_at(s->g, p, lv, s->lo);
					long most, blocks = seg_blocks(s, p, lv, step, &most);
					bool leaves = blocks > 1 || !inside_all(&ins, kf, ns);
					bool rails_apart = l->rails < p->links || p->links < s->g->wired;
					long block_nodes = l->size >= TOPO_ALL ? in->span.len : ceil_l(l->size, s->g->spn);
					double runs, share, demand;
					long flows, dests;
					struct cap c;
					if (!leaves && !(cross && rails_apart))
						continue;
					/* Hops leaving one component: one per ring (or pair chain) that enters
					 * and leaves it; pairs further apart than a block leave from every node;
					 * interleaved components are entered once per block; at random, a hop
					 * leaves with probability (n - m)/(n - 1). */
					if (in->placement == PLACE_RANDOM && l->size < TOPO_ALL)
						runs = (double)most * (in->span.len - most) / (in->span.len - 1.0);
					else if (pairs && in->distance > 1)
						runs = in->distance * step >= block_nodes ? (double)most : (double)in->distance;
					else if (l->modulus > 0)
						runs = (double)most;
					else
						runs = 1;
					/* Communicators interleaved node by node (a rank's peers a whole number of
					 * nodes apart): each family with nodes in the component leaves it. */
					if (in->span.stride > 0 && in->span.stride < step) {
						long fam = step / in->span.stride;
						runs *= (double)(fam < block_nodes ? fam : block_nodes);
					}
					if (runs <= 0)
						continue;
					share = pairs ? 1.0
						      : rail_share(in->channels * (int)conc, l->rails * s->g->spn,
								   s->g->wired * s->g->spn);
					demand = runs * conc * in->rate * share;
					flows = (long)ceil(runs * (pairs ? conc * in->p2p_channels
									 : ceil(in->channels * conc * in->runtime * share)) *
							   t->qps);
					dests = (long)ceil(runs * (pairs ? conc : l->rails * s->g->spn));
					if (l->uplinks <= 0) {
						if (leaves)
							unroutable(o, "traffic must leave '%s', which has no uplinks%s",
								   s->g->name, "");
						else
							unroutable(o,
								   "an odd number of nodes with NCCL_CROSS_NIC: the ring's wrap hop changes rail, and the rails of '%s' meet nowhere%s",
								   s->g->name, " (set fabric.cross_nic false)");
						continue;
					}
					c = capacity(l, flows, dests, true);
					take(o, demand, &c, s->gi, pi, lv);
					{
						double su = runs / (double)(most > 0 ? most : 1) * share;
						if (su > o->share_up[lv])
							o->share_up[lv] = min_d(1, su);
					}
				}
			}
			inside_free(&ins);
		}
	}
	free(sg);
}

/* ---- alltoall: uniform destinations -------------------------------------------------- */

static void eval_alltoall(const struct topo *t, const struct route_in *in, struct route_out *o)
{
	int maxseg = t->nplaced > 0 ? t->nplaced : 1;
	struct seg *sg = xcalloc((size_t)maxseg, sizeof *sg);
	long k, step = in->span.step > 0 ? in->span.step : 1, n = in->span.len;
	int maxp = 0, i;
	double conc = in->concurrent > 0 ? in->concurrent : 1;
	for (i = 0; i < t->nplaced; i++)
		if (t->ng[t->order[i]].nplanes > maxp)
			maxp = t->ng[t->order[i]].nplanes;
	if (n < 2) {
		free(sg);
		return;
	}
	for (k = 0; k < in->span.count; k++) {
		int ns = segments(t, &in->span, k, sg, maxseg), pi;
		for (pi = 0; pi < maxp; pi++) {
			struct inside ins;
			inside_build(&ins, sg, ns, pi);
			for (i = 0; i < ns; i++) {
				const struct seg *s = &sg[i];
				const struct topo_plane *p = plane_of(s->g, pi);
				int lv;
				if (!p)
					continue;
				for (lv = 0; lv < p->nlevels; lv++) {
					const struct topo_level *l = &p->level[lv];
					struct ckey kf = key_at(s->g, p, lv, s->lo);
					long most, blocks = seg_blocks(s, p, lv, step, &most);
					double m, inside, share_out, railf, demand, peers;
					long flows, dests;
					struct cap c;
					int wired = s->g->wired > 0 ? s->g->wired : 1;
					/* Communicator nodes in the busiest component: a block, or all the
					 * segments that lie wholly in the first segment's component. */
					m = (double)most;
					if (blocks == 1 && (double)inside_nodes(&ins, kf) > m)
						m = (double)inside_nodes(&ins, kf);
					railf = (double)l->rails / p->links * ((double)p->links / wired);
					if (railf > 1)
						railf = 1;
					/* Share of a port's bytes that leave the component: PXN keeps each byte
					 * on its destination's rail; without it a byte for another rail leaves
					 * a rail component even when both nodes are in it. */
					inside = (m - 1) / (n - 1);
					if (!in->pxn && l->rails < wired && p->kind == PLANE_SWITCH)
						inside *= (double)l->rails / wired;
					share_out = 1 - inside;
					if (share_out <= 1e-12)
						continue;
					demand = m * conc * in->rate * railf * share_out;
					if (in->span.stride > 0 && in->span.stride < step)
						demand *= (double)(step / in->span.stride); /* interleaved families */
					peers = (n - m) * (in->gpus > 0 ? in->gpus : 1);
					flows = (long)min_d(1e15, m * conc * (in->gpus > 0 ? in->gpus : 1) * railf * peers *
									(in->p2p_channels > 0 ? in->p2p_channels : 1) * t->qps);
					dests = (long)min_d(1e15, (n - m) * l->rails * s->g->spn);
					if (p->kind == PLANE_MESH) {
						/* Each peer over its own pair links. */
						struct topo_level ml = *l;
						double per_peer = in->rate / (n - 1) * conc;
						ml.uplinks = p->links / (p->mesh_peers > 0 ? (int)p->mesh_peers : 1);
						if (ml.uplinks < 1)
							ml.uplinks = 1;
						ml.link_GBps = p->gbps / 8.0;
						ml.switches = 1;
						ml.hash = HASH_NONE;
						c = capacity(&ml, 1, 1, true);
						take(o, per_peer, &c, s->gi, pi, lv);
						continue;
					}
					if (l->uplinks <= 0) {
						unroutable(o, "alltoall traffic must leave '%s'%s, and there is no path up",
							   s->g->name, in->pxn ? "" : " (without PXN it changes rail)");
						continue;
					}
					c = capacity(l, flows, dests, false);
					take(o, demand, &c, s->gi, pi, lv);
					if (share_out > o->share_up[lv])
						o->share_up[lv] = share_out;
				}
			}
			inside_free(&ins);
		}
	}
	free(sg);
}

/* ---- trees: the exact count of crossing edges, cached per layout ------------------------ */

struct comp_count {
	int sw;
	long b;
	long count;
	bool used;
};

struct hmap {
	struct comp_count *v;
	size_t cap;
};

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

static struct comp_count *hmap_get(struct hmap *m, struct ckey k)
{
	size_t i = (size_t)(mix((uint64_t)(k.sw + 7) * 0x9e3779b97f4a7c15ULL ^ (uint64_t)k.b) % m->cap);
	while (m->v[i].used && !(m->v[i].sw == k.sw && m->v[i].b == k.b))
		i = (i + 1) % m->cap;
	if (!m->v[i].used) {
		m->v[i].used = true;
		m->v[i].sw = k.sw;
		m->v[i].b = k.b;
		m->v[i].count = 0;
	}
	return &m->v[i];
}

/* The crossing-edge table of one layout: for each (node group, plane, level) the most
 * crossing tree edges (both trees) touching one component, and for meshes the most tree
 * edges on one pair. */
struct tree_table {
	uint64_t key;
	int nng;
	long *most;   /* [ng][plane][level] */
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
	h = fnv(h, s, sizeof *s);
	h = fnv(h, &placement, sizeof placement);
	return h;
}

static long *most_at(const struct tree_table *tt, int gi, int pi, int lv)
{
	return &tt->most[((size_t)gi * TOPO_MAX_PLANES + (size_t)pi) * TOPO_MAX_LEVELS + (size_t)lv];
}

static void count_trees(const struct topo *t, const struct span *s, int placement, struct tree_table *tt)
{
	long n = s->len, k, x, step = s->step > 0 ? s->step : 1;
	int pi, lv, tree, maxp = 0, i;
	struct hmap m;
	long *gloc = xcalloc((size_t)n, sizeof *gloc);
	int *gidx = xcalloc((size_t)n, sizeof *gidx);
	for (i = 0; i < t->nplaced; i++)
		if (t->ng[t->order[i]].nplanes > maxp)
			maxp = t->ng[t->order[i]].nplanes;
	tt->nng = t->nng;
	tt->most = xcalloc((size_t)t->nng * TOPO_MAX_PLANES * TOPO_MAX_LEVELS, sizeof *tt->most);
	m.cap = (size_t)n * 2 + 16;
	m.v = xcalloc(m.cap, sizeof *m.v);
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
				memset(m.v, 0, m.cap * sizeof *m.v);
				/* Count, for each component, the tree edges with one end inside it. */
				for (tree = 0; tree < 2; tree++)
					for (x = 0; x < n; x++) {
						long y = dtree_parent(n, tree, x);
						const struct topo_ngroup *gx, *gy;
						const struct topo_plane *px, *py;
						struct ckey kx, ky;
						if (y < 0 || gidx[x] < 0 || gidx[y] < 0)
							continue;
						gx = &t->ng[gidx[x]];
						gy = &t->ng[gidx[y]];
						px = plane_of(gx, pi);
						py = plane_of(gy, pi);
						if (!px || !py)
							continue;
						if (px->kind == PLANE_MESH) {
							/* Edges on one direct pair: key the pair by its lower node. */
							struct ckey pk = { -1, (x < y ? x : y) * n + (x < y ? y : x) };
							if (lv == 0)
								hmap_get(&m, pk)->count++;
							continue;
						}
						if (lv < px->nlevels) {
							kx = key_at(gx, px, lv, gloc[x]);
							if (!on_chain(gy, py, gloc[y], kx))
								hmap_get(&m, kx)->count++;
						}
						if (lv < py->nlevels) {
							ky = key_at(gy, py, lv, gloc[y]);
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
					if (!p)
						continue;
					mo = most_at(tt, gidx[x], pi, lv);
					if (p->kind == PLANE_MESH) {
						long y;
						if (lv)
							continue;
						for (tree = 0; tree < 2; tree++) {
							struct ckey pk;
							y = dtree_parent(n, tree, x);
							if (y < 0)
								continue;
							pk.sw = -1;
							pk.b = (x < y ? x : y) * n + (x < y ? y : x);
							cc = hmap_get(&m, pk);
							if (cc->count > *mo)
								*mo = cc->count;
						}
						continue;
					}
					if (lv >= p->nlevels)
						continue;
					cc = hmap_get(&m, key_at(g, p, lv, gloc[x]));
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

static void eval_tree(const struct topo *t, const struct route_in *in, struct route_out *o, int placement)
{
	const struct tree_table *tt;
	int i, pi, lv;
	double conc = in->concurrent > 0 ? in->concurrent : 1;
	long n = in->span.len;
	if (n < 2)
		return;
	tt = tree_table(t, &in->span, placement);
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
				double share, demand, per_edge;
				long flows;
				struct cap c;
				if (placement == PLACE_RANDOM && p->kind == PLANE_SWITCH && l->size < TOPO_ALL) {
					/* Random placement: an edge leaves an m-node component with probability
					 * (n - m)/(n - 1); both trees give each node 4 edge ends on average. */
					double mm = min_d((double)n, (double)l->size / g->spn);
					E = (long)ceil(4 * mm * (n - mm) / (n - 1));
				}
				if (E <= 0)
					continue;
				/* Each tree edge carries B/4 per direction (two trees, each half the data,
				 * at the bus rate B = 2 x algbw), this component's share of the rails. */
				share = rail_share(in->channels * (int)conc, l->rails * g->spn, g->wired * g->spn);
				per_edge = in->rate / 4 * share;
				demand = E * conc * per_edge;
				flows = (long)ceil(E * ceil(in->channels * conc * in->runtime / 2.0 * share) * t->qps);
				if (p->kind == PLANE_MESH) {
					struct topo_level ml = *l;
					ml.uplinks = p->links / (p->mesh_peers > 0 ? (int)p->mesh_peers : 1);
					if (ml.uplinks < 1)
						ml.uplinks = 1;
					ml.link_GBps = p->gbps / 8.0;
					ml.switches = 1;
					ml.hash = HASH_NONE;
					c = capacity(&ml, flows, E, true);
					take(o, E * conc * in->rate / 4, &c, gi, pi, lv);
					continue;
				}
				if (l->uplinks <= 0) {
					unroutable(o, "tree edges must leave '%s'%s, and there is no path up", g->name, "");
					continue;
				}
				c = capacity(l, flows, E * l->rails * g->spn, false);
				take(o, demand, &c, gi, pi, lv);
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
	if (in->span.len < 2 || in->rate <= 0 || in->kind == TK_INNETWORK || !t->nng)
		return;
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
