/* topo.c: the group graph: node groups, planes, levels of components, placement. */
#include "model/topo.h"
#include "model/alloc.h"
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names to indices ----------------------------------------------------------------
 * Bundle ends are found through the design's own name index (design_find: the first group
 * of each name), which stays built across recomputes of one design. */

/* The names of one kind of group: where the first is, how far apart they are, how many. */
struct name_run {
	const char *first;
	size_t stride, n;
};

/* A name's place as last found, for the next lookup's guess. */
struct name_ref {
	const struct name_run *run; /* of its kind (NULL: none found yet) */
	int kind, index;
	int step;                /* the guess that was right last: 1 the next group, 0 the same */
};

/* Per kind (enum group_kind), the design's runs of names; none for other kinds. */
static void name_runs(const struct design *d, struct name_run runs[GK_SWITCH + 1])
{
	memset(runs, 0, (GK_SWITCH + 1) * sizeof *runs);
	runs[GK_SERVER] = (struct name_run){ d->servers.n ? DESIGN_SERVER(d, 0)->name : NULL, sizeof(struct server_group),
					     d->servers.n };
	runs[GK_DOMAIN] = (struct name_run){ d->domains.n ? DESIGN_DOMAIN(d, 0)->name : NULL, sizeof(struct domain_group),
					     d->domains.n };
	runs[GK_SWITCH] = (struct name_run){ d->switches.n ? DESIGN_SWITCH(d, 0)->name : NULL, sizeof(struct switch_group),
					     d->switches.n };
}

static int names_find(const struct design *d, const char *name, int *index)
{
	size_t i = 0;
	int kind = design_find(d, name, &i);
	*index = kind != GK_NONE ? (int)i : 0;
	return kind;
}

/* Do two names, each in an array of NCF_NAME_MAX bytes as the design holds them, say the
 * same? A name of at most 7 letters is in the arrays' first 8 bytes: when those are equal
 * and hold a zero byte, the names are; otherwise strcmp says. (Most names are that short:
 * pod12, leaf12, spine; one bundle end then costs a few instructions, not a call.) */
static inline bool names_equal(const char *a, const char *b)
{
	uint64_t x, y;
	_Static_assert(NCF_NAME_MAX >= sizeof x, "names_equal reads a name's first 8 bytes");
	memcpy(&x, a, sizeof x);
	memcpy(&y, b, sizeof y);
	if (x == y && ((x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL))
		return true; /* the same 8 bytes, a zero byte among them: the end of both */
	return !strcmp(a, b);
}

/* The group `step` after the one found last at *near, when it is called name. */
static inline bool names_guess(const struct name_ref *near, int step, const char *name)
{
	size_t i = (size_t)near->index + (size_t)step;
	return i < near->run->n && names_equal(near->run->first + i * near->run->stride, name);
}

/* names_find_near's other ways: the other step (0, the same group, after 1; or 1 after 0),
 * then the design's index. */
static int names_find_far(const struct design *d, const struct name_run *runs, bool unique, const char *name, int *index,
			  struct name_ref *near)
{
	int kind;
	if (unique && near->run && names_guess(near, 1 - near->step, name)) {
		near->step = 1 - near->step;
		near->index += near->step;
		*index = near->index;
		return near->kind;
	}
	kind = names_find(d, name, index);
	if (kind == GK_SERVER || kind == GK_DOMAIN || kind == GK_SWITCH) {
		near->run = &runs[kind];
		near->kind = kind;
		near->index = *index;
	}
	return kind;
}

/* names_find, trying first the group after the last one found at *near, then that group
 * itself (bundles are mostly written in the order of their groups: pod0 to leaf0, pod1
 * to leaf1, then every leaf to the spine). A guess is only taken when no two groups share
 * a name (unique: design_names_unique), so that it is the group design_find would give.
 * (Inline, the rest apart: two per bundle, and the first guess is mostly right.) */
static inline int names_find_near(const struct design *d, const struct name_run *runs, bool unique, const char *name,
				  int *index, struct name_ref *near)
{
	if (unique && near->run && names_guess(near, near->step, name)) {
		near->index += near->step;
		*index = near->index;
		return near->kind;
	}
	return names_find_far(d, runs, unique, name, index, near);
}

/* ---- the build context ------------------------------------------------------------- */

struct rbundle {               /* a bundle with its ends resolved */
	int fk, fi, tk, ti;         /* kinds (enum group_kind) and design indices */
	int fkey, tkey;             /* its ends among servers then switches (end_key), -1 */
	int links, wiring, gbps;
	bool lag;
	bool merged;                /* folded into an earlier bundle with the same ends and kind */
};

struct swinfo {                /* per switch group */
	long members;               /* |Y| */
	long positions;             /* D: members of all groups bundled into it */
	int nlower;                 /* bundles into it from below */
	int tier;                   /* 1 leaf, 2 spine, 3 core */
	long up_ports;              /* uplinks per switch */
	int up_bundle;              /* first bundle going up from it, -1 */
	int nup_groups;             /* distinct groups its up bundles reach */
	int peer_bundle;            /* a bundle to a group of its own tier (or itself), -1 */
	long peer_links;            /* per switch: its links over every peer bundle */
	double peer_GBps;           /* their capacity */
	int peer_class;             /* switch groups joined by peer bundles: the least of them */
	long class_members;         /* switches of every group in its peer class */
	int protocol;
	bool ar;                    /* adaptive routing capable */
	bool known;
	bool sharp;                 /* its model reduces in the network (topo_switch.sharp) */
	/* What one switch's links carry, summed over the bundles in design order as they are
	 * resolved (switch_summary's). */
	double up_GBps, down_GBps;
	int up_gbps, down_gbps;
	bool up_lag;
	long down_links;
};

/* Catalog lookups, remembered for one build: the groups of a design mostly name the same
 * few parts. */
struct memo {
	const void *hit;
	const char *name;
};

/* The last node ngroup_nccl made, with what it was made from: the groups of a design are
 * mostly alike (a thousand pods of the same servers), and NCCL's view of the node depends on
 * the server and its ports only. */
struct node_memo {
	const struct server_group *s;
	int cls;                    /* its srv_class */
	int gpus, spn, wired, port_gbps, lag_ports;
	struct nccl_node nccl;
	int protocol, ports, cards;
	bool nic_ar, nic_sharp;
	double slot_GBps, ceiling_GBps;
};

/* ---- partitions ---------------------------------------------------------------------
 * A partition of the members of one group into components, as an affine-floor function:
 *   id(v) = floor((v + shift) / size), then mod modulus when modulus > 0; size TOPO_ALL: one.
 */
struct part {
	long size, shift, modulus;
};

/* Components at one level, over the leaf group's positions x and the plane's rails l:
 *   node block B(x) = base + floor((x + X.shift) / X.size) [mod X.modulus], or base alone
 *   when X is one block (X.size TOPO_ALL);
 *   rail group g(l) = (l mod rail_mod) / rail_block, G = rail_mod / rail_block groups;
 *   component index ci = B*G + g, which also numbers the level's switches in blocks of mw:
 *   switch v of the level's group belongs to component floor(v / mw). The numbers are the
 *   switch group's own, so planes of different node groups bundled into it agree. */
struct lstate {
	struct part X;
	long base;
	long G, rail_mod, rail_block, mw;
};

/* The levels a plane's chain gives from one level up, by what they are made from: the
 * switch group reached, the state of the components there, the plane's links and its
 * leaf group's positions. Node groups bundled alike (a thousand pods, each on a leaf
 * group of its own under one spine) climb to the same state one level up, and the chain
 * above is the same: it is copied, not made again (its problems, already said, would be
 * said alike). One entry per level: the last chain made from there. */
struct chain_key {
	int cur, lv;
	long L, D;
	struct lstate st;
	bool nic_ar;                /* the NICs' part in the levels' hashing (plane_hashing) */
};

struct chain_memo {
	bool set;
	struct chain_key key;
	int nlevels;
	struct topo_level level[TOPO_MAX_LEVELS];
	unsigned long long tail[TOPO_MAX_LEVELS]; /* levels_tail from each level */
};

struct ctx {
	struct node_memo node;
	struct chain_memo chain[TOPO_MAX_LEVELS];
	struct memo m_nic, m_gpu_part, m_fabric_part, m_switch_part;
	int *srv_speed, *sw_speed;  /* port speed at each end: slowest compute NIC, switch port */
	int *srv_have;              /* compute ports of a server (NICs known to the catalog) */
	int *srv_slow;              /* slowest compute NIC known, with ports (0: none) */
	int *srv_class;             /* the first of a run of server groups of the same hardware
				     * (same_server_bytes with the one before) */
	const struct cat_gpu **srv_gpu; /* its GPU in the catalog */
	bool *srv_nic_ar;           /* its NICs take out-of-order data (server_nic_ar) */
	signed char *side;          /* per end_key: the network it speaks (protocols) */
	int *from_first, *from_next; /* bundles of each server group (as `from`), in design order */
	void *scratch;              /* one block holding the arrays above and below (scratch_room's) */
	int *ng_of_server;          /* node group of each server group, -1 */
	int nmesh;                  /* mesh bundles in the design */
	int npeers;                 /* peer bundles (peer_list) */
	int *sw_net;                /* network of each switch group: the least switch group it is joined to */
	const struct design *d;
	const struct catalog *cat;
	struct topo *t;
	bool unique;                /* no two groups share a name (design_names_unique) */
	struct rbundle *rb;
	struct swinfo *sw;
	long *offset;               /* per bundle: position of the lower group's first member in `to` */
};

#define MEMO(kind, type, fn)                                                                  \
	static const type *kind(struct ctx *c, const char *name)                              \
	{                                                                                     \
		if (!c->m_##kind.name || strcmp(c->m_##kind.name, name)) {                     \
			c->m_##kind.name = name;                                                \
			c->m_##kind.hit = fn(c->cat, name);                                     \
		}                                                                             \
		return c->m_##kind.hit;                                                       \
	}
MEMO(nic, struct cat_nic, catalog_nic)
MEMO(gpu_part, struct cat_gpu, catalog_gpu)
MEMO(fabric_part, struct cat_fabric, catalog_fabric)
MEMO(switch_part, struct cat_switch, catalog_switch)
#undef MEMO

static void problem(struct topo *t, int severity, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void problem(struct topo *t, int severity, const char *path, const char *fmt, ...)
{
	va_list ap;
	struct topo_problem *p;
	int i;
	char msg[sizeof p->msg];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	for (i = 0; i < t->nproblems; i++)
		if (!strcmp(t->problems[i].msg, msg) && !strcmp(t->problems[i].path, path))
			return;
	if (t->nproblems >= TOPO_MAX_PROBLEMS)
		return;
	p = &t->problems[t->nproblems++];
	p->severity = severity;
	snprintf(p->path, sizeof p->path, "%s", path);
	snprintf(p->msg, sizeof p->msg, "%s", msg);
}

static const char *bpath(int b, char *buf)
{
	snprintf(buf, 32, "bundles[%d]", b);
	return buf;
}

static long group_members(const struct ctx *c, int kind, int i)
{
	switch (kind) {
	case GK_SERVER:
		return DESIGN_SERVER(c->d, i)->count;
	case GK_SWITCH:
		return DESIGN_SWITCH(c->d, i)->count;
	default:
		return 0;
	}
}

static int end_gbps(const struct ctx *c, int kind, int i)
{
	return kind == GK_SERVER ? c->srv_speed[i] : kind == GK_SWITCH ? c->sw_speed[i] : 0;
}

/* Aligned slices of one block: a build's tables cost one allocation, and none is cleared
 * (each entry is set as it is made). */
static void *carve(char **at, size_t n, size_t size)
{
	void *p = *at;
	*at += (n * size + 15) / 16 * 16;
	return p;
}

/* The block, kept from one build to the next and grown as needed (builds do not nest).
 * At 1,000 groups it is about 200 KB: freed each build, glibc gave it back to the kernel
 * and the next build took it again page by page (55 page faults a recompute in make bench,
 * a fifth of its time). */
static void *scratch_room(size_t bytes)
{
	static void *block;
	static size_t size;
	if (bytes > size) {
		free(block);
		size = bytes + bytes / 4;
		block = xmalloc(size);
	}
	return block;
}

static int sw_tier(const struct ctx *c, int kind, int i)
{
	return kind == GK_SWITCH ? c->sw[i].tier : 0;
}

/* A server group or switch group as one index: servers first, then switches; -1 for
 * anything else. */
static int end_key(const struct design *d, int kind, int i)
{
	return kind == GK_SERVER ? i : kind == GK_SWITCH ? (int)d->servers.n + i : -1;
}

/* What bundle b adds to the links of the switches at its ends (switch_summary): the
 * uplinks of its lower end, the downlinks of its upper end; merged bundles count too. */
static void switch_links(struct ctx *c, const struct bundle *b, const struct rbundle *r)
{
	int ft, tt;
	if (r->fk == GK_NONE || r->tk == GK_NONE || r->fk == GK_DOMAIN || r->tk == GK_DOMAIN)
		return;
	ft = sw_tier(c, r->fk, r->fi);
	tt = sw_tier(c, r->tk, r->ti);
	if (r->fk == GK_SWITCH && tt > ft) {
		struct swinfo *s = &c->sw[r->fi];
		s->up_GBps += b->links_each * r->gbps / 8.0;
		if (!s->up_gbps || r->gbps < s->up_gbps)
			s->up_gbps = r->gbps;
		s->up_lag = s->up_lag || b->lag;
	}
	if (r->tk == GK_SWITCH && ft < tt && c->sw[r->ti].members > 0) {
		struct swinfo *s = &c->sw[r->ti];
		long total = group_members(c, r->fk, r->fi) * (long)b->links_each;
		s->down_links += total;
		s->down_GBps += (double)total * r->gbps / 8.0;
		if (!s->down_gbps || r->gbps < s->down_gbps)
			s->down_gbps = r->gbps;
	}
}

/* Are two server groups the same hardware, as bytes: GPU (and GPUs per server), scale-up
 * fabric, CPU, sockets and NICs? Equal bytes are equal strings and numbers, so it implies
 * same_server (and is transitive: a run of them is one hardware); unequal bytes (a name
 * shortened in place keeps bytes past its end) say nothing. Two comparisons of memory
 * instead of four of strings, for the thousand alike groups of a design. */
static bool same_server_bytes(const struct server_group *a, const struct server_group *b)
{
	const size_t from = offsetof(struct server_group, gpu),
		     to = offsetof(struct server_group, scaleup) + sizeof a->scaleup;
	_Static_assert(offsetof(struct server_group, gpu) < offsetof(struct server_group, scaleup),
		       "same_server_bytes compares gpu .. scaleup as one block");
	return a->cpu == b->cpu && a->sockets == b->sockets && a->nics.n == b->nics.n &&
	       !memcmp((const char *)a + from, (const char *)b + from, to - from) &&
	       (!a->nics.n || !memcmp(a->nics.v, b->nics.v, a->nics.n * sizeof(struct nic_spec)));
}

/* Do the compute NICs of a server group take out-of-order data (adaptive routing,
 * spraying)? Every one the catalog knows must; none known: no. */
static bool server_nic_ar(struct ctx *c, const struct server_group *s)
{
	size_t k;
	bool any = false, ar = true;
	for (k = 0; k < s->nics.n; k++) {
		const struct nic_spec *ns = &VEC_AT(s->nics, struct nic_spec, k);
		const struct cat_nic *cn = nic(c, ns->model);
		if (ns->use != NIC_COMPUTE || !cn || ns->count <= 0)
			continue;
		any = true;
		ar = ar && cn->adaptive_routing;
	}
	return any && ar;
}

static void resolve_bundles(struct ctx *c)
{
	const struct design *d = c->d;
	size_t i, k, nb = d->bundles.n ? d->bundles.n : 1, nsv = d->servers.n ? d->servers.n : 1,
		     nsw = d->switches.n ? d->switches.n : 1, nkey = d->servers.n + d->switches.n + 1;
	struct name_ref near_from = { NULL, GK_NONE, 0, 1 }, near_to = { NULL, GK_NONE, 0, 1 };
	struct name_run runs[GK_SWITCH + 1];
	int *last, *first;
	const struct cat_switch *cs_prev = NULL;
	char *at;
	size_t bytes = (nb * sizeof *c->rb + 15) / 16 * 16 + (nb * sizeof *c->offset + 15) / 16 * 16 +
		       (nsw * sizeof *c->sw + 15) / 16 * 16 + (nb * sizeof(int) + 15) / 16 * 16 +
		       3 * ((nsw * sizeof(int) + 15) / 16 * 16) + 2 * ((nkey * sizeof(int) + 15) / 16 * 16) +
		       5 * ((nsv * sizeof(int) + 15) / 16 * 16) + (nsv * sizeof *c->srv_gpu + 15) / 16 * 16 +
		       (nkey + 15) / 16 * 16 + (nsv * sizeof *c->srv_nic_ar + 15) / 16 * 16;
	name_runs(d, runs);
	c->scratch = at = scratch_room(bytes);
	c->rb = carve(&at, nb, sizeof *c->rb);
	c->offset = carve(&at, nb, sizeof *c->offset);
	c->sw = carve(&at, nsw, sizeof *c->sw);
	c->from_next = carve(&at, nb, sizeof(int));
	c->sw_speed = carve(&at, nsw, sizeof(int));
	c->sw_net = carve(&at, nsw, sizeof(int));
	last = carve(&at, nkey, sizeof(int));
	first = carve(&at, nkey, sizeof(int));
	c->srv_speed = carve(&at, nsv, sizeof(int));
	c->ng_of_server = carve(&at, nsv, sizeof(int));
	c->srv_have = carve(&at, nsv, sizeof(int));
	c->srv_slow = carve(&at, nsv, sizeof(int));
	c->srv_class = carve(&at, nsv, sizeof(int));
	c->srv_gpu = carve(&at, nsv, sizeof *c->srv_gpu);
	c->srv_nic_ar = carve(&at, nsv, sizeof *c->srv_nic_ar);
	c->side = carve(&at, nkey, sizeof *c->side);
	c->from_first = first; /* a server group's key is its index */
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		int best = 0, have = 0, slow = 0;
		c->ng_of_server[i] = -1;
		if (i > 0 && same_server_bytes(DESIGN_SERVER(d, i - 1), g)) {
			/* The hardware of the group before: its ports and GPU. */
			c->srv_class[i] = c->srv_class[i - 1];
			c->srv_gpu[i] = c->srv_gpu[i - 1];
			c->srv_nic_ar[i] = c->srv_nic_ar[i - 1];
			c->srv_speed[i] = c->srv_speed[i - 1];
			c->srv_have[i] = c->srv_have[i - 1];
			c->srv_slow[i] = c->srv_slow[i - 1];
			continue;
		}
		c->srv_class[i] = (int)i;
		c->srv_gpu[i] = gpu_part(c, g->gpu);
		c->srv_nic_ar[i] = server_nic_ar(c, g);
		for (k = 0; k < g->nics.n; k++) {
			const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
			const struct cat_nic *cn = nic(c, n->model);
			int sp = nic_speed_gbps(n, cn);
			if (n->use == NIC_COMPUTE && sp > 0 && (best == 0 || sp < best))
				best = sp;
			if (n->use == NIC_COMPUTE && cn)
				have += n->count * cn->ports;
			if (n->use == NIC_COMPUTE && cn && n->count > 0 && sp > 0 && (!slow || sp < slow))
				slow = sp;
		}
		c->srv_speed[i] = best;
		c->srv_have[i] = have;
		c->srv_slow[i] = slow;
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *g = DESIGN_SWITCH(d, i);
		/* The part of the group before when the model is the same (a thousand
		 * leaves of one model): its port speed too, when the breakout is the same. */
		bool like = i > 0 && names_equal(g->model, DESIGN_SWITCH(d, i - 1)->model);
		const struct cat_switch *cs = like ? cs_prev : switch_part(c, g->model);
		c->sw[i] = (struct swinfo){
			.members = g->count,
			.tier = g->role + 1,
			.up_bundle = -1,
			.peer_bundle = -1,
			.peer_class = (int)i,
			.known = cs != NULL,
			.protocol = cs ? cs->protocol : PROTO_ETHERNET,
			.ar = cs && cs->adaptive_routing,
			.sharp = cs && cs->sharp && cs->protocol == PROTO_INFINIBAND,
		};
		c->sw_speed[i] = like && g->breakout == DESIGN_SWITCH(d, i - 1)->breakout ? c->sw_speed[i - 1]
											    : switch_port_gbps(g, cs);
		cs_prev = cs;
		c->sw_net[i] = (int)i;
		c->side[d->servers.n + i] = (signed char)(cs ? cs->protocol == PROTO_INFINIBAND : -1);
	}
	for (i = 0; i < nkey; i++)
		first[i] = last[i] = -1;
	/* Each bundle's ends and speed; then the same ends wired the same way: one bundle
	 * written as two (its links add up). Only bundles from the same group can match:
	 * compare along that group's list (which, for a server group, is its planes'). Then
	 * the positions of the lower groups in each switch group, in bundle order. */
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		struct rbundle *r = &c->rb[i];
		int a, z, key, o;
		r->fk = names_find_near(d, runs, c->unique, b->from, &r->fi, &near_from);
		r->tk = names_find_near(d, runs, c->unique, b->to, &r->ti, &near_to);
		r->links = b->links_each > 0 ? b->links_each : 1;
		r->wiring = b->wiring;
		r->lag = b->lag;
		r->merged = false;
		/* Its own speed, or the slower of its two ends (check.c's bundle_speed_gbps). */
		a = end_gbps(c, r->fk, r->fi);
		z = end_gbps(c, r->tk, r->ti);
		r->gbps = b->speed_gbps ? b->speed_gbps : (a && z ? (a < z ? a : z) : (a ? a : z));
		r->fkey = end_key(d, r->fk, r->fi);
		r->tkey = end_key(d, r->tk, r->ti);
		switch_links(c, b, r);
		c->from_next[i] = -1;
		c->offset[i] = 0;
		if (r->wiring == WIRE_MESH)
			c->nmesh++;
		key = r->fkey;
		if (key < 0)
			continue;
		for (o = first[key]; o >= 0; o = c->from_next[o]) {
			struct rbundle *q = &c->rb[o];
			if (q->tk == r->tk && q->ti == r->ti && q->wiring == r->wiring && q->lag == r->lag && q->gbps == r->gbps) {
				q->links += r->links;
				r->merged = true;
				break;
			}
		}
		if (r->merged)
			continue;
		if (first[key] < 0)
			first[key] = (int)i;
		else
			c->from_next[last[key]] = (int)i;
		last[key] = (int)i;
		if (r->tk == GK_SWITCH && sw_tier(c, r->fk, r->fi) < c->sw[r->ti].tier) {
			c->offset[i] = c->sw[r->ti].positions;
			c->sw[r->ti].positions += group_members(c, r->fk, r->fi);
			c->sw[r->ti].nlower++;
		}
	}
	/* Switch to switch: uplinks, peer links, peer classes (switch groups joined by peer
	 * bundles, one component at the peer stage) and networks (switch groups joined by
	 * bundles; a plane's network is its leaf's class), the classes by union-find, each
	 * named after its least group whatever the order of the unions. */
	for (i = 0; i < d->bundles.n; i++) {
		struct rbundle *r = &c->rb[i];
		struct swinfo *s;
		int a, b;
		if (r->merged || r->fk != GK_SWITCH || r->tk != GK_SWITCH)
			continue;
		s = &c->sw[r->fi];
		for (a = r->fi; c->sw_net[a] != a; a = c->sw_net[a])
			;
		for (b = r->ti; c->sw_net[b] != b; b = c->sw_net[b])
			;
		if (a != b)
			c->sw_net[a > b ? a : b] = a < b ? a : b;
		if (c->sw[r->ti].tier > s->tier) {
			s->up_ports += r->links;
			if (s->up_bundle < 0) {
				s->up_bundle = (int)i;
				s->nup_groups = 1;
			} else if (c->rb[s->up_bundle].ti != r->ti) {
				s->nup_groups++;
			}
		} else {
			/* A peer bundle joins both of its ends: L links between every pair. */
			struct swinfo *o = &c->sw[r->ti];
			long far = r->ti == r->fi ? s->members - 1 : o->members, near = s->members;
			c->npeers++;
			if (s->peer_bundle < 0)
				s->peer_bundle = (int)i;
			if (o->peer_bundle < 0)
				o->peer_bundle = (int)i;
			if (far > 0) {
				s->peer_links += r->links * far;
				s->peer_GBps += r->links * far * r->gbps / 8.0;
			}
			if (r->ti != r->fi && near > 0) {
				o->peer_links += r->links * near;
				o->peer_GBps += r->links * near * r->gbps / 8.0;
			}
			for (a = r->fi; c->sw[a].peer_class != a; a = c->sw[a].peer_class)
				;
			for (b = r->ti; c->sw[b].peer_class != b; b = c->sw[b].peer_class)
				;
			if (a != b)
				c->sw[a > b ? a : b].peer_class = a < b ? a : b;
		}
	}
	/* Roots are least in their class: one pass upwards leaves every group on its root. */
	for (i = 0; i < d->switches.n; i++) {
		struct swinfo *s = &c->sw[i];
		s->peer_class = c->sw[s->peer_class].peer_class;
		c->sw_net[i] = c->sw_net[c->sw_net[i]];
		c->sw[s->peer_class].class_members += s->members;
	}
	for (i = 0; i < d->switches.n; i++)
		c->sw[i].class_members = c->sw[c->sw[i].peer_class].class_members;
}

/* ---- partitions (struct part, struct lstate above) ---------------------------------- */

static const struct part PART_ONE = { TOPO_ALL, 0, 0 };

static long floordiv(long a, long b)
{
	long q = a / b;
	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static long part_id(const struct part *p, long v)
{
	long id;
	if (p->size >= TOPO_ALL)
		return 0;
	id = floordiv(v + p->shift, p->size);
	if (p->modulus > 0) {
		id %= p->modulus;
		if (id < 0)
			id += p->modulus;
	}
	return id;
}

/* How the up bundle of a group joins its members: the classes of members that share an
 * upper switch. kind: 0 one class, 1 blocks of `size` positions, 2 residues mod `modulus`;
 * upper_per_class: upper switches serving one class. */
struct upmap {
	int kind;
	long size, modulus;
	long upper_per_class;
};

static long ceil_div(long a, long b)
{
	return b > 0 ? (a + b - 1) / b : 0;
}

static long gcd_l(long a, long b)
{
	while (b) {
		long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* The classes of positions q in the upper group of bundle bi (L links each, into a group
 * of n switches holding D positions) whose members share upper switches. */
static struct upmap up_classes(struct ctx *c, int bi)
{
	const struct rbundle *r = &c->rb[bi];
	long n = c->sw[r->ti].members, D = c->sw[r->ti].positions, L = r->links;
	struct upmap u = { 0, 0, 0, n };
	char path[32];
	if (n <= 0)
		return u;
	switch (r->wiring) {
	case WIRE_TOR:
		u.kind = 1;
		u.size = ceil_div(D, n) > 0 ? ceil_div(D, n) : 1;
		u.upper_per_class = 1;
		break;
	case WIRE_RAIL:
		if (n / L < 1)
			break; /* one unit: every member reaches the same switches */
		u.kind = 1;
		u.size = ceil_div(D, n / L) > 0 ? ceil_div(D, n / L) : 1;
		u.upper_per_class = L;
		break;
	default: /* spread: link l of position q goes to (q L + l) mod n */
		if (L >= n)
			break;
		if (n % L == 0) {
			u.kind = 2;
			u.modulus = n / L;
			u.upper_per_class = L;
		} else if (D < n / gcd_l(n, L)) {
			problem(c->t, NCF_WARNING, bpath(bi, path),
				"spread wiring of %ld links over %ld switches joins only some members: computed as one component",
				L, n);
		}
		else if (n >= 2 * L && D > 1)
			/* Overlapping runs of upper switches chain every member together, but
			 * neighbours (their runs L apart, L <= n - L) share none: up-down routing
			 * joins only members with a switch in common. */
			problem(c->t, NCF_WARNING, bpath(bi, path),
				"spread wiring of %ld links over %ld switches leaves neighbours with no switch in common: "
				"computed as one component, which overstates it (make the links divide the switches)",
				L, n);
		break;
	}
	return u;
}

/* Everything joins: one component of `members` switches. */
static void lstate_one(struct lstate *s, long L, long members)
{
	s->X = PART_ONE;
	s->base = 0;
	s->G = 1;
	s->rail_mod = s->rail_block = L > 0 ? L : 1;
	s->mw = members > 0 ? members : 1;
}

/* Every rail group of a block joins. */
static void lstate_rails_join(struct lstate *s)
{
	s->G = 1;
	s->rail_block = s->rail_mod;
}

/* A partition with one block over the D positions of the leaf group is the one component
 * (a block as wide as the group and "all" give the same numbers). */
static void lstate_norm(struct lstate *s, long D)
{
	long b0, b1;
	if (s->X.size >= TOPO_ALL)
		return;
	if (D < 1)
		D = 1;
	if (s->X.modulus == 1) {
		s->X = PART_ONE;
		return;
	}
	b0 = floordiv(s->X.shift, s->X.size);
	b1 = floordiv(D - 1 + s->X.shift, s->X.size);
	if (b0 == b1) {
		s->base += part_id(&s->X, 0);
		s->X = PART_ONE;
	}
}

/* ci' = ci + sh: the components keep apart, numbered in the upper group. */
static bool join_shift(struct lstate *s, long sh)
{
	if (sh % s->G)
		return false;
	s->base += sh / s->G;
	return true;
}

/* ci' = floor((ci + sh) / f): f consecutive components join. */
static bool join_div(struct lstate *s, long sh, long f)
{
	long c0, fb;
	if (f <= 1)
		return join_shift(s, sh);
	if (sh % s->G)
		return false;
	c0 = s->base + sh / s->G;
	if (s->G % f == 0) {
		/* Rail groups join f at a time inside each block. */
		s->G /= f;
		s->rail_block *= f;
		s->base = c0;
		return true;
	}
	if (f % s->G)
		return false;
	/* Every rail of a block joins; blocks join fb at a time. */
	fb = f / s->G;
	lstate_rails_join(s);
	if (s->X.size >= TOPO_ALL) {
		s->base = floordiv(c0, fb);
		return true;
	}
	if (!s->X.modulus) {
		if (s->X.size > LONG_MAX / 4 / fb)
			return false;
		s->X.shift += c0 * s->X.size;
		s->X.size *= fb;
		s->base = 0;
		return true;
	}
	/* Interleaved blocks (residues r of M, numbered c0 + r) taken fb at a time. */
	if (floordiv(c0, fb) == floordiv(c0 + s->X.modulus - 1, fb)) {
		s->X = PART_ONE;
		s->base = floordiv(c0, fb);
		return true;
	}
	if (s->X.modulus % fb || c0 % fb || s->X.size > LONG_MAX / 4 / fb)
		return false;
	s->X.size *= fb;
	s->X.modulus /= fb;
	s->base = c0 / fb;
	return true;
}

/* ci' = (ci + sh) mod R: components R apart join (interleaved wiring above). */
static bool join_mod(struct lstate *s, long sh, long R)
{
	if (R <= 1) {
		s->X = PART_ONE;
		s->base = 0;
		lstate_rails_join(s);
		return true;
	}
	if (R % s->G == 0 && sh % s->G == 0) {
		long Rb = R / s->G, c0 = s->base + sh / s->G;
		if (s->X.size >= TOPO_ALL) {
			s->base = c0 % Rb;
			return true;
		}
		if (!s->X.modulus || s->X.modulus % Rb == 0) {
			s->X.shift += c0 * s->X.size;
			s->X.modulus = Rb;
			s->base = 0;
			return true;
		}
		if (c0 % Rb + s->X.modulus <= Rb) {
			/* The residues fit below R without wrapping: they keep their numbers. */
			s->base = c0 % Rb;
			return true;
		}
		return false;
	}
	if (s->G % R == 0 && sh % R == 0) {
		/* Fewer classes than rail groups: rail groups R apart join, every block joins. */
		s->rail_mod = s->rail_block * R;
		s->G = R;
		s->X = PART_ONE;
		s->base = 0;
		return true;
	}
	return false;
}

/* Join the components of state s (over the `lower` switches of its group, numbered v, at
 * offset off in the upper group) by the classes u of their up bundle. False: a shape the
 * engine does not compute. */
static bool lstate_join(struct lstate *s, const struct upmap *u, long off, long L, long upper_members, long lower)
{
	long sh;
	if (u->kind == 0) {
		lstate_one(s, L, upper_members);
		return true;
	}
	if (s->mw < 1)
		s->mw = 1;
	if (u->kind == 1) {
		long b = u->size > 0 ? u->size : 1;
		if (off % s->mw == 0 && b % s->mw == 0) {
			/* b / mw components per class of upper switches. */
			sh = off / s->mw;
			if (!join_div(s, sh, b / s->mw)) {
				/* Not periodic, but every component of the group may fall in one class. */
				long k0 = floordiv(off, b), k1 = floordiv(off + (lower > 0 ? lower : 1) - 1, b);
				if (k0 != k1)
					return false;
				lstate_one(s, L, u->upper_per_class);
				s->base = k0;
				return true;
			}
			s->mw = u->upper_per_class;
			return true;
		}
		if (off % s->mw)
			return false;
		sh = off / s->mw;
		if (s->mw % b == 0 && off % b == 0) {
			/* A component spans mw / b whole classes: nothing new joins. */
			if (!join_shift(s, sh))
				return false;
			s->mw = u->upper_per_class * (s->mw / b);
			return true;
		}
		return false;
	}
	/* Residues mod R: a component of mw consecutive positions covers mw residues. */
	{
		long R = u->modulus;
		if (s->mw >= R) {
			lstate_one(s, L, upper_members);
			return true;
		}
		if (R % s->mw == 0 && off % s->mw == 0 && join_mod(s, off / s->mw, R / s->mw)) {
			s->mw *= u->upper_per_class;
			return true;
		}
		if (lower <= s->mw) {
			/* One component in the group: its switches' residues are its class. */
			long mw = s->mw;
			lstate_one(s, L, mw * u->upper_per_class);
			s->base = (off % R) / mw;
			return off % R + mw <= R;
		}
		return false;
	}
}

/* ---- node groups ------------------------------------------------------------------ */

static double min_d(double a, double b)
{
	return a < b ? a : b;
}

/* The node as NCCL sees it (collective-model.md section 2): GPUs, NVLink or PCIe inside,
 * network ports and the PCIe path to them. */
static bool same_server(const struct server_group *a, const struct server_group *b)
{
	size_t k;
	if (strcmp(a->gpu, b->gpu) || strcmp(a->scaleup, b->scaleup) || a->cpu != b->cpu || a->sockets != b->sockets ||
	    a->nics.n != b->nics.n)
		return false;
	for (k = 0; k < a->nics.n; k++) {
		const struct nic_spec *x = &VEC_AT(a->nics, struct nic_spec, k), *y = &VEC_AT(b->nics, struct nic_spec, k);
		if (strcmp(x->model, y->model) || x->count != y->count || x->speed_gbps != y->speed_gbps ||
		    x->pcie_gen != y->pcie_gen || x->pcie_lanes != y->pcie_lanes || x->attach != y->attach ||
		    x->use != y->use || strcmp(x->transport, y->transport))
			return false;
	}
	return true;
}

static void ngroup_nccl_made(struct ctx *c, struct topo_ngroup *g, const struct server_group *s, int lag_ports);

/* As the last group's when its server and ports are the same (node_memo). */
static void ngroup_nccl(struct ctx *c, struct topo_ngroup *g, const struct server_group *s, int lag_ports)
{
	struct node_memo *m = &c->node;
	if (m->s && m->gpus == g->gpus && m->spn == g->spn && m->wired == g->wired && m->port_gbps == g->port_gbps &&
	    m->lag_ports == lag_ports && (m->cls == c->srv_class[g->server] || same_server(m->s, s))) {
		g->nccl = m->nccl;
		g->protocol = m->protocol;
		g->ports = m->ports;
		g->cards = m->cards;
		g->nic_ar = m->nic_ar;
		g->nic_sharp = m->nic_sharp;
		g->slot_GBps = m->slot_GBps;
		g->ceiling_GBps = m->ceiling_GBps;
		return;
	}
	ngroup_nccl_made(c, g, s, lag_ports);
	m->s = s;
	m->cls = c->srv_class[g->server];
	m->gpus = g->gpus;
	m->spn = g->spn;
	m->wired = g->wired;
	m->port_gbps = g->port_gbps;
	m->lag_ports = lag_ports;
	m->nccl = g->nccl;
	m->protocol = g->protocol;
	m->ports = g->ports;
	m->cards = g->cards;
	m->nic_ar = g->nic_ar;
	m->nic_sharp = g->nic_sharp;
	m->slot_GBps = g->slot_GBps;
	m->ceiling_GBps = g->ceiling_GBps;
}

static void ngroup_nccl_made(struct ctx *c, struct topo_ngroup *g, const struct server_group *s, int lag_ports)
{
	const struct cat_gpu *gpu = gpu_part(c, s->gpu);
	const struct cat_fabric *fab = fabric_part(c, s->scaleup);
	struct nccl_node *n = &g->nccl;
	size_t k;
	int cards = 0, ports = 0, attach = ATTACH_PCIE_SWITCH, slot_gen = 0, slot_lanes = 0;
	double slot_payload = 0, slot_nccl;
	memset(n, 0, sizeof *n);
	g->protocol = -1;
	g->nic_ar = c->srv_nic_ar[g->server];
	g->nic_sharp = true;
	for (k = 0; k < s->nics.n; k++) {
		const struct nic_spec *ns = &VEC_AT(s->nics, struct nic_spec, k);
		const struct cat_nic *cn = nic(c, ns->model);
		double pl;
		if (ns->use != NIC_COMPUTE || !cn || ns->count <= 0)
			continue;
		cards += ns->count;
		ports += ns->count * cn->ports;
		pl = nic_slot_GBps(ns, cn);
		if (!slot_payload || pl < slot_payload) {
			slot_payload = pl;
			slot_gen = ns->pcie_gen ? ns->pcie_gen : cn->pcie_gen;
			slot_lanes = ns->pcie_lanes ? ns->pcie_lanes : cn->pcie_lanes;
		}
		if (attach == ATTACH_PCIE_SWITCH)
			attach = ns->attach;
		if (!n->transport[0]) {
			/* The transport NCCL uses: the entry's, else the NIC's, else by protocol. */
			const char *tn = ns->transport[0] ? ns->transport : cn->transport[0] ? cn->transport
											  : transport_for(cn->protocol);
			const struct cat_transport *tr = catalog_transport(c->cat, tn);
			size_t tl = strnlen(tn, sizeof n->transport - 1); /* no printf per group */
			memcpy(n->transport, tn, tl);
			n->transport[tl] = '\0';
			n->net_eff = tr ? tr->efficiency : 1;
			n->net_lat = cn->latency_us > 0 ? cn->latency_us : tr ? tr->latency_us : 0;
		}
		if (g->protocol < 0)
			g->protocol = cn->protocol;
		g->nic_sharp = g->nic_sharp && cn->sharp && cn->protocol == PROTO_INFINIBAND;
	}
	if (g->protocol < 0) {
		g->protocol = PROTO_ETHERNET;
		g->nic_sharp = false; /* (and nic_ar: server_nic_ar) */
	}
	g->ports = ports;
	g->slot_GBps = slot_payload;
	g->ceiling_GBps = 0;
	g->cards = 0;
	if (cards && ports && g->wired) {
		int ppc = ports / cards, used_cards = (g->wired + ppc - 1) / ppc;
		double port = g->port_gbps / 8.0, cg;
		cg = used_cards * g->spn * min_d(ppc * port, slot_payload > 0 ? slot_payload : 1e9);
		if (g->wired < used_cards * ppc)
			cg = min_d(cg, g->wired * g->spn * port);
		g->ceiling_GBps = cg;
		g->cards = used_cards * g->spn;
	}
	n->sm = gpu ? gpu->sm : 80;
	n->ppn = g->gpus;
	n->nnodes = 1;
	n->cpu = s->cpu;
	if (gpu && fab && (fab->kind == FAB_NVSWITCH || fab->kind == FAB_NVLINK_MESH) && gpu->nvlink_links > 0) {
		n->nvl = gpu->nvlink_links * nccl_nvlink_per_link(gpu->sm);
		n->nvswitch = fab->kind == FAB_NVSWITCH;
		n->nvls = fab->nvls && gpu->sm >= 90;
	}
	n->pci_gpu = gpu ? nccl_pcie_bw(gpu->pcie_gen, gpu->pcie_lanes) : 12;
	/* The host (fabric-physics.md 5): sockets, PCIe switches, bridges, P2P. */
	n->gpus = n->span = g->gpus;
	n->sockets = s->sockets > 1 ? s->sockets : 1;
	n->sys_bw = cpu_sys_GBps(s->cpu);
	n->p2p = !gpu || gpu->pcie_p2p == P2P_SUPPORTED;
	if (fab && fab->kind == FAB_PCIE_SWITCH) {
		n->sw_gpus = fab->max_gpus > 0 ? fab->max_gpus : g->gpus;
		n->sw_up = fab->pcie_gen ? nccl_pcie_bw(fab->pcie_gen, fab->pcie_lanes) : n->pci_gpu;
	}
	if (gpu && fab && fab->kind == FAB_NVLINK_BRIDGE && gpu->nvlink_links > 0) {
		/* NCCL counts the bridge's links per peer (collective-model.md 2.3). */
		n->bridge_gpus = fab->max_gpus > 1 ? fab->max_gpus : 2;
		n->bridge_nvl = gpu->nvlink_links * nccl_nvlink_per_link(gpu->sm);
	}
	nccl_node_host(n);
	if (cards && ports && g->wired) {
		int ppc = ports / cards, used_cards = (g->wired + ppc - 1) / ppc;
		n->cards = used_cards * g->spn;
		n->ports_per_card = (g->wired + used_cards - 1) / used_cards;
		if (lag_ports > 0) {
			/* Bonded links: NCCL sees one device per LAG, at one port's speed (it reads the
			 * port's attributes; nccl#1015), and one port carries each queue pair. */
			int devices = g->wired - lag_ports;
			n->cards = (devices > 0 ? devices : 1) * g->spn;
			n->ports_per_card = 1;
		}
		if (n->ports_per_card < 1)
			n->ports_per_card = 1;
	}
	n->net_bw = g->port_gbps / 8.0;
	slot_nccl = slot_gen ? nccl_pcie_bw(slot_gen, slot_lanes) : n->pci_gpu;
	n->card_pci = attach == ATTACH_CPU ? min_d(slot_nccl, n->pci_gpu) / (cpu_is_intel(s->cpu) ? 1.2 : 1.0)
					   : min_d(slot_nccl, n->pci_gpu);
	n->net_on_cpu = attach == ATTACH_CPU;
	{
		int G = g->gpus, nics = cards * g->spn;
		int per_nic = nics ? (G + nics - 1) / nics : G;
		n->pxn_return = per_nic <= 1;
	}
	n->cross_nic = c->d->fabric.cross_nic;
}

static void level_from(struct topo_level *l, const struct lstate *s, long L)
{
	l->size = s->X.size;
	l->shift = s->X.size >= TOPO_ALL ? 0 : s->X.shift;
	l->modulus = s->X.size >= TOPO_ALL ? 0 : s->X.modulus;
	l->base = s->base;
	l->rail_mod = (int)s->rail_mod;
	l->rail_block = (int)s->rail_block;
	l->rail_groups = l->rail_block > 0 && l->rail_mod / l->rail_block > 0 ? l->rail_mod / l->rail_block : 1;
	l->rails = (int)(s->G > 0 ? ceil_div(L, s->G) : L);
	if (l->rails < 1)
		l->rails = 1;
	l->switches = (int)(s->mw > 0 ? s->mw : 1);
}

/* Hashing at the uplinks of levels lo..hi-1: who chooses among them (fabric-physics.md
 * section 1), with NICs that take out-of-order data or not (nic_ar). */
static void plane_hashing(struct ctx *c, bool nic_ar, struct topo_plane *p, int lo, int hi)
{
	int lv, routing = c->d->fabric.routing;
	for (lv = lo; lv < hi; lv++) {
		struct topo_level *l = &p->level[lv];
		const struct swinfo *s = &c->sw[l->sw];
		bool ib = s->protocol == PROTO_INFINIBAND;
		/* Per-packet path choice needs switches that route adaptively and NICs that place
		 * out-of-order packets (adaptive); spraying (EFA SRD) is the NIC's own doing. */
		bool adaptive = (routing == ROUTE_ADAPTIVE && s->ar && nic_ar) || (routing == ROUTE_SPRAY && nic_ar);
		if (!l->uplinks) {
			l->hash = HASH_NONE;
			continue;
		}
		if (l->lag && !adaptive) {
			l->hash = HASH_ECMP; /* ECMP over next hops, then the LAG's member hash: one uniform draw */
			l->hash_links = l->uplinks;
		} else if (l->lag) {
			/* Adaptive across next hops, hashed across each LAG's members. */
			long per = l->peer ? l->pair_links : 0;
			const struct rbundle *ub = &c->rb[l->up_bundle];
			long uppers = c->sw[ub->ti].members;
			if (!per)
				per = uppers > 0 && l->uplinks >= uppers ? l->uplinks / uppers : 1;
			l->hash = per > 1 ? HASH_ECMP : HASH_FLUID;
			l->hash_links = (int)per;
		} else if (adaptive) {
			l->hash = HASH_FLUID;
			l->hash_links = l->uplinks;
		} else if (ib) {
			l->hash = HASH_IB_STATIC; /* the subnet manager's tables: one port per destination */
			l->hash_links = l->uplinks;
		} else {
			l->hash = HASH_ECMP;
			l->hash_links = l->uplinks;
		}
	}
}

/* One step of the shape hashes: v mixed into h. */
static unsigned long long mix(unsigned long long h, unsigned long long v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

/* Two ints as one word of a hash. */
static unsigned long long pair(int a, int b)
{
	return (unsigned long long)(unsigned)a | (unsigned long long)(unsigned)b << 32;
}

/* A hash of one level: the fields routing reads (ints two to a word). */
static unsigned long long level_hash(const struct topo_level *lv)
{
	unsigned long long h = 0x84222325cbf29ce4ULL, bits;
	memcpy(&bits, &lv->link_GBps, sizeof bits);
	h = mix(h, pair(lv->sw, lv->order));
	h = mix(h, (unsigned long long)lv->size);
	h = mix(h, (unsigned long long)lv->shift);
	h = mix(h, (unsigned long long)lv->modulus);
	h = mix(h, (unsigned long long)lv->base);
	h = mix(h, pair(lv->rail_mod, lv->rail_block));
	h = mix(h, pair(lv->rails, lv->switches));
	h = mix(h, pair(lv->uplinks, lv->hash << 1 | lv->peer)); /* (hash: an enum hash_kind) */
	h = mix(h, pair(lv->hash_links, lv->pair_links));
	return mix(h, bits);
}

/* A hash of levels from..nlevels-1 of a plane (its levels_hash from 0): each level's
 * level_hash mixed in from the top down, so that the hash of a chain copied from above a
 * level is kept with it (chain_memo.tail). */
static unsigned long long levels_tail(const struct topo_plane *p, int from, int to, unsigned long long above)
{
	int lv;
	for (lv = to - 1; lv >= from; lv--)
		above = mix(above, level_hash(&p->level[lv]));
	return above;
}

static const unsigned long long LEVELS_TOP = 0x6a09e667f3bcc909ULL; /* levels_tail above the top */
/* Levels of a plane above its leaf group: level 1 from the servers' wiring, then one level
 * per up bundle until the top (or a peer bundle, which joins the top's switches to each
 * other, or to the switch group at its other end). */
/* The same chain_key, field by field. */
static bool chain_key_eq(const struct chain_key *a, const struct chain_key *b)
{
	return a->cur == b->cur && a->lv == b->lv && a->L == b->L && a->D == b->D && a->nic_ar == b->nic_ar &&
	       a->st.X.size == b->st.X.size && a->st.X.shift == b->st.X.shift && a->st.X.modulus == b->st.X.modulus &&
	       a->st.base == b->st.base && a->st.G == b->st.G && a->st.rail_mod == b->st.rail_mod &&
	       a->st.rail_block == b->st.rail_block && a->st.mw == b->st.mw;
}

static void plane_levels(struct ctx *c, struct topo_plane *p, int bi, bool nic_ar)
{
	const struct rbundle *r = &c->rb[bi];
	long n = c->sw[r->ti].members, D = c->sw[r->ti].positions, L = r->links;
	struct lstate st;
	struct chain_key keys[TOPO_MAX_LEVELS];
	unsigned long long tail[TOPO_MAX_LEVELS + 1];
	int cur = r->ti, lv, made = 0, skipped = 0, copied = -1;
	char path[32];
	if (n < 1)
		n = 1;
	st.base = 0;
	/* Level 1: which leaf each rail of each server position reaches (topo.h "Wiring"). */
	switch (r->wiring) {
	case WIRE_TOR:
		st.X = (struct part){ ceil_div(D, n) > 0 ? ceil_div(D, n) : 1, 0, 0 };
		st.G = 1;
		st.rail_mod = st.rail_block = L;
		p->lag_size = (int)L;
		break;
	default:
		if (r->wiring == WIRE_RAIL && n / L >= 1) {
			st.X = (struct part){ ceil_div(D, n / L) > 0 ? ceil_div(D, n / L) : 1, 0, 0 };
			st.G = L;
			st.rail_mod = L;
			st.rail_block = 1;
			p->lag_size = 1;
			break;
		}
		if (r->wiring != WIRE_RAIL && n % L == 0 && n > L) {
			st.X = (struct part){ 1, 0, n / L }; /* interleaved: position x reaches (x mod n/L) L + l */
			st.G = L;
			st.rail_mod = L;
			st.rail_block = 1;
			p->lag_size = 1;
			break;
		}
		/* Rails onto fewer switches, or spread over a number of them the links divide:
		 * link l of every position reaches switch l mod n. */
		if (L % n && n % L)
			problem(c->t, NCF_WARNING, bpath(bi, path),
				"%s wiring of %ld links over %ld switches (neither divides the other): computed as link l on switch l mod %ld",
				wiring_names[r->wiring], L, n, n);
		st.X = PART_ONE;
		st.G = n < L ? n : L;
		st.rail_mod = n;
		st.rail_block = 1;
		p->lag_size = (int)(L / n > 0 ? L / n : 1);
		break;
	}
	st.mw = 1;
	lstate_norm(&st, D);
	p->nlevels = 1;
	for (lv = 0; lv < TOPO_MAX_LEVELS; lv++) {
		struct swinfo *s = &c->sw[cur];
		struct topo_level *at = &p->level[lv];
		int ub = s->up_bundle;
		struct upmap u;
		struct chain_key *key = &keys[lv];
		if (lv == 0 && s->nlower <= 1) {
			/* A leaf group of this plane's alone: no other plane starts from it. */
			skipped = 1;
			goto make;
		}
		key->cur = cur;
		key->lv = lv;
		key->L = L;
		key->D = D;
		key->st = st;
		key->nic_ar = nic_ar;
		if (c->chain[lv].set && chain_key_eq(&c->chain[lv].key, key)) {
			const struct chain_memo *m = &c->chain[lv];
			int k;
			for (k = lv; k < m->nlevels; k++) { /* (a level or two: copies of known size) */
				p->level[k] = m->level[k];
				tail[k] = m->tail[k];
			}
			p->nlevels = m->nlevels;
			copied = lv;
			break;
		}
		made = lv + 1;
	make:
		memset(at, 0, sizeof *at);
		at->sw = cur;
		at->order = 2 * c->sw[cur].tier;
		at->up_bundle = -1;
		level_from(at, &st, L);
		p->nlevels = lv + 1;
		if (ub < 0) {
			/* The top, unless peer links join its switches to each other or to a group of
			 * their own tier (recorded at both ends of the peer bundle). */
			if (s->peer_bundle >= 0 && s->peer_links > 0 && lv + 1 < TOPO_MAX_LEVELS) {
				const struct rbundle *pr = &c->rb[s->peer_bundle];
				struct topo_level *nx = &p->level[lv + 1];
				long members = s->class_members;
				at->uplinks = (int)s->peer_links;
				at->link_GBps = s->peer_GBps / s->peer_links;
				at->lag = pr->lag;
				at->up_bundle = s->peer_bundle;
				at->peer = true;
				at->pair_links = pr->links;
				lstate_one(&st, L, members);
				/* One component of every switch group peer bundles join, named after the
				 * least of them. */
				memset(nx, 0, sizeof *nx);
				nx->sw = s->peer_class;
				nx->order = 2 * c->sw[cur].tier + 1;
				nx->up_bundle = -1;
				level_from(nx, &st, L);
				p->nlevels = lv + 2;
			}
			break;
		}
		if (s->nup_groups > 1)
			problem(c->t, NCF_WARNING, bpath(ub, path),
				"switch group '%s' has uplinks to %d groups: the engine follows '%s' and counts every uplink",
				DESIGN_SWITCH(c->d, cur)->name, s->nup_groups, DESIGN_SWITCH(c->d, c->rb[ub].ti)->name);
		at->uplinks = (int)s->up_ports;
		at->link_GBps = c->rb[ub].gbps / 8.0;
		at->lag = c->rb[ub].lag;
		at->up_bundle = ub;
		if (lv + 1 >= TOPO_MAX_LEVELS) {
			problem(c->t, NCF_ERROR, bpath(ub, path), "more than %d switch tiers above a server: not computed",
				TOPO_MAX_LEVELS);
			break;
		}
		u = up_classes(c, ub);
		if (!lstate_join(&st, &u, c->offset[ub], L, c->sw[c->rb[ub].ti].members, c->sw[cur].members)) {
			problem(c->t, NCF_ERROR, bpath(ub, path),
				"the engine cannot compute this wiring: '%s' joins the components below it in groups that do not nest (make the switch counts divide each other)",
				DESIGN_SWITCH(c->d, c->rb[ub].ti)->name);
			lstate_one(&st, L, c->sw[c->rb[ub].ti].members);
		}
		lstate_norm(&st, D);
		cur = c->rb[ub].ti;
	}
	/* The levels above the top are zero (build_ngroups left them to this). */
	for (lv = p->nlevels; lv < TOPO_MAX_LEVELS; lv++)
		memset(&p->level[lv], 0, sizeof p->level[lv]);
	/* The levels made here hashed (those copied were with theirs), and their hashes from
	 * the top down. */
	if (copied < 0) {
		copied = p->nlevels;
		tail[copied] = LEVELS_TOP;
	}
	plane_hashing(c, nic_ar, p, 0, copied);
	for (lv = copied - 1; lv >= 0; lv--)
		tail[lv] = levels_tail(p, lv, lv + 1, tail[lv + 1]);
	p->levels_hash = tail[0];
	for (lv = skipped; lv < made; lv++) {
		struct chain_memo *m = &c->chain[lv];
		m->set = true;
		m->key = keys[lv];
		m->nlevels = p->nlevels;
		memcpy(&m->level[lv], &p->level[lv], (size_t)(p->nlevels - lv) * sizeof *m->level);
		memcpy(&m->tail[lv], &tail[lv], (size_t)(p->nlevels - lv) * sizeof *m->tail);
	}
}

/* A hash of a node group's planes and levels: what routing reads besides the placement. */
static unsigned long long ngroup_shape(const struct topo_ngroup *g)
{
	unsigned long long h = 0x84222325cbf29ce4ULL;
	int p;
	h = mix(h, pair(g->spn, g->wired));
	h = mix(h, pair(g->gpus, g->nplanes));
	for (p = 0; p < g->nplanes; p++) {
		const struct topo_plane *pl = &g->plane[p];
		h = mix(h, pair(pl->kind, pl->net));
		h = mix(h, (unsigned long long)pl->pos);
		h = mix(h, pair(pl->leaf, pl->links));
		h = mix(h, pair(pl->gbps, pl->nlevels));
		h = mix(h, (unsigned long long)pl->mesh_peers);
		h = mix(h, pl->levels_hash);
	}
	return h;
}

/* A mesh bundle to a group without servers (or of a group of one server to itself) links
 * nothing: say so, once. */
static void mesh_empty(struct ctx *c, int bi)
{
	const struct bundle *b = DESIGN_BUNDLE(c->d, bi);
	char path[32];
	if (!strcmp(b->from, b->to))
		problem(c->t, NCF_WARNING, bpath(bi, path), "a mesh of '%s' to itself needs two servers: it links nothing",
			b->from);
	else
		problem(c->t, NCF_WARNING, bpath(bi, path), "a mesh between '%s' and '%s', one of which has no servers: it links nothing",
			b->from, b->to);
}

/* A group's planes in the order that matches them across groups (topo.h): switch planes by
 * network, then leaf group, then bundle; meshes after them, by the group they reach. */
static bool plane_before(const struct topo_plane *a, const struct topo_plane *b)
{
	if (a->kind != b->kind)
		return a->kind == PLANE_SWITCH;
	if (a->net != b->net)
		return a->net < b->net;
	if (a->leaf != b->leaf)
		return a->leaf < b->leaf;
	return a->bundle < b->bundle;
}

static void sort_planes(const struct ctx *c, struct topo_ngroup *g)
{
	int i, k;
	g->nswitch = 0;
	for (i = 0; i < g->nplanes; i++) {
		g->plane[i].net = g->plane[i].kind == PLANE_SWITCH ? c->sw_net[g->plane[i].leaf] : -1;
		g->nswitch += g->plane[i].kind == PLANE_SWITCH;
	}
	for (i = 1; i < g->nplanes; i++)
		for (k = i; k > 0 && plane_before(&g->plane[k], &g->plane[k - 1]); k--) {
			struct topo_plane tmp = g->plane[k];
			g->plane[k] = g->plane[k - 1];
			g->plane[k - 1] = tmp;
		}
}

/* A node group cleared but for its name and its NCCL node, which build_ngroups writes
 * whole (two thirds of its bytes). */
static void ngroup_clear(struct topo_ngroup *g)
{
	const size_t name_end = offsetof(struct topo_ngroup, name) + sizeof g->name,
		     nccl = offsetof(struct topo_ngroup, nccl), nccl_end = nccl + sizeof g->nccl;
	_Static_assert(offsetof(struct topo_ngroup, name) + sizeof((struct topo_ngroup *)0)->name <=
			       offsetof(struct topo_ngroup, nccl),
		       "ngroup_clear: the name comes before the NCCL node");
	memset(g, 0, offsetof(struct topo_ngroup, name));
	memset((char *)g + name_end, 0, nccl - name_end);
	memset((char *)g + nccl_end, 0, sizeof *g - nccl_end);
}

/* A plane cleared but for its levels, which plane_levels clears as it makes them (and
 * those past the top): at 1,000 groups, most of a plane's bytes. */
static void plane_clear(struct topo_plane *p)
{
	const size_t levels = offsetof(struct topo_plane, level), levels_end = levels + sizeof p->level;
	memset(p, 0, levels);
	memset((char *)p + levels_end, 0, sizeof *p - levels_end);
}

static void build_ngroups(struct ctx *c)
{
	const struct design *d = c->d;
	struct topo *t = c->t;
	size_t i, k;
	int *domain_ng = xmalloc((d->domains.n ? d->domains.n : 1) * sizeof *domain_ng);
	size_t planes_used = 0;
	char path[48];
	for (i = 0; i < d->domains.n; i++)
		domain_ng[i] = -1;
	/* Not cleared: each group and plane is cleared as it is made, and only those made are
	 * read (at 1,000 groups the two tables are 630 KB, a tenth of a recompute to clear). */
	t->ng = xmalloc((d->servers.n ? d->servers.n : 1) * sizeof *t->ng);
	t->nng = 0;
	t->planes = xmalloc((d->bundles.n + (size_t)c->nmesh + 1) * sizeof *t->planes);
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *s = DESIGN_SERVER(d, i);
		struct topo_ngroup *g;
		int di = -1, port = 0, lag_ports = 0;
		if (s->domain[0] && names_find(d, s->domain, &di) != GK_DOMAIN)
			di = -1;
		if (di >= 0 && domain_ng[di] >= 0) {
			snprintf(path, sizeof path, "servers[%zu].domain", i);
			problem(t, NCF_WARNING, path,
				"NVLink domain '%s' already takes its servers from '%s': the engine counts one server group per domain",
				s->domain, t->ng[domain_ng[di]].name);
			continue;
		}
		g = &t->ng[t->nng];
		ngroup_clear(g);
		g->plane = t->planes + planes_used;
		memcpy(g->name, s->name, sizeof g->name); /* same size, NUL-terminated: no printf per group */
		g->name[sizeof g->name - 1] = '\0';
		g->server = (int)i;
		g->gpu = c->srv_gpu[i];
		g->domain = di;
		g->spn = 1;
		g->nodes = s->count;
		if (di >= 0) {
			const struct domain_group *dg = DESIGN_DOMAIN(d, di);
			g->spn = dg->servers_each > 0 ? dg->servers_each : 1;
			g->nodes = s->count / g->spn;
			if (dg->count < g->nodes)
				g->nodes = dg->count;
			domain_ng[di] = t->nng;
		}
		g->gpus = s->gpus * g->spn;
		g->first = -1;
		/* Planes: the group's bundles, in order, each taking ports. */
		g->port_gbps = 0;
		for (k = (size_t)(c->from_first[i] >= 0 ? c->from_first[i] : (int)d->bundles.n); k < d->bundles.n;
		     k = c->from_next[k] >= 0 ? (size_t)c->from_next[k] : d->bundles.n) {
			struct rbundle *r = &c->rb[k];
			struct topo_plane *p;
			if (r->merged || r->fk != GK_SERVER || r->fi != (int)i)
				continue;
			if (g->nplanes >= TOPO_MAX_PLANES) {
				problem(t, NCF_WARNING, bpath((int)k, path), "more than %d bundles from '%s': the rest are not computed",
					TOPO_MAX_PLANES, s->name);
				break;
			}
			if (r->tk != GK_SWITCH && !(r->tk == GK_SERVER && r->wiring == WIRE_MESH))
				continue; /* check.c reports it */
			if (r->tk == GK_SERVER && (r->ti == (int)i ? s->count - 1 : DESIGN_SERVER(d, r->ti)->count) < 1) {
				mesh_empty(c, (int)k);
				continue;
			}
			p = &g->plane[g->nplanes++];
			plane_clear(p);
			p->bundle = (int)k;
			p->links = r->links;
			if (r->tk == GK_SERVER) {
				/* A mesh: L links to every peer. */
				long peers = r->ti == (int)i ? s->count - 1 : DESIGN_SERVER(d, r->ti)->count;
				p->links = (int)(r->links * (peers > 0 ? peers : 0));
			}
			p->port_base = port;
			p->gbps = r->gbps;
			p->wiring = r->wiring;
			p->lag = r->lag;
			port += p->links;
			if (!g->port_gbps || (r->gbps && r->gbps < g->port_gbps))
				g->port_gbps = r->gbps;
			if (r->tk == GK_SERVER) {
				memset(p->level, 0, sizeof p->level);
				p->kind = PLANE_MESH;
				p->leaf = r->ti;
				p->lag_size = 1;
				p->mesh_peers = r->ti == (int)i ? s->count - 1 : DESIGN_SERVER(d, r->ti)->count;
				p->nlevels = 1;
				p->level[0].sw = -1;
				p->level[0].size = TOPO_ALL;
				p->level[0].rails = p->links;
				p->level[0].switches = 1;
				p->level[0].up_bundle = -1;
				continue;
			}
			p->kind = PLANE_SWITCH;
			p->leaf = r->ti;
			p->pos = c->offset[k];
			plane_levels(c, p, (int)k, c->srv_nic_ar[i]);
			if (p->lag && p->lag_size > 1)
				lag_ports += p->links - p->links / p->lag_size;
		}
		/* Mesh bundles into this group from others count as its ports too. */
		for (k = 0; k < (c->nmesh ? d->bundles.n : 0); k++) {
			const struct rbundle *r = &c->rb[k];
			if (!r->merged && r->tk == GK_SERVER && r->ti == (int)i && r->fi != (int)i && r->fk == GK_SERVER &&
			    r->wiring == WIRE_MESH && g->nplanes < TOPO_MAX_PLANES) {
				struct topo_plane *p;
				if (DESIGN_SERVER(d, r->fi)->count < 1) {
					mesh_empty(c, (int)k);
					continue;
				}
				p = &g->plane[g->nplanes++];
				memset(p, 0, sizeof *p);
				p->kind = PLANE_MESH;
				p->bundle = (int)k;
				p->leaf = r->fi;
				p->links = (int)(r->links * DESIGN_SERVER(d, r->fi)->count);
				p->port_base = port;
				p->gbps = r->gbps;
				p->lag_size = 1;
				p->mesh_peers = DESIGN_SERVER(d, r->fi)->count;
				p->nlevels = 1;
				p->level[0].sw = -1;
				p->level[0].size = TOPO_ALL;
				p->level[0].rails = p->links;
				p->level[0].switches = 1;
				p->level[0].up_bundle = -1;
				port += p->links;
				if (!g->port_gbps || (r->gbps && r->gbps < g->port_gbps))
					g->port_gbps = r->gbps;
			}
		}
		sort_planes(c, g);
		port = 0;
		for (k = 0; k < (size_t)g->nplanes; k++) {
			g->plane[k].port_base = port;
			port += g->plane[k].links;
		}
		g->wired = port < c->srv_have[i] ? port : c->srv_have[i];
		/* The NIC's own speed caps what a link runs at. */
		if (c->srv_slow[i] && (!g->port_gbps || c->srv_slow[i] < g->port_gbps))
			g->port_gbps = c->srv_slow[i];
		c->ng_of_server[i] = t->nng;
		planes_used += g->nplanes;
		ngroup_nccl(c, g, s, lag_ports);
		for (k = 0; k < (size_t)g->nplanes; k++)
			if (g->plane[k].kind == PLANE_MESH)
				g->plane[k].levels_hash = levels_tail(&g->plane[k], 0, g->plane[k].nlevels, LEVELS_TOP);
		g->shape = ngroup_shape(g);
		if (!g->wired)
			g->nccl.cards = 0;
		t->nng++;
	}
	free(domain_ng);
}

/* ---- placement ---------------------------------------------------------------------- */

/* job.groups: comma-separated server group names in rank order. */
static int parse_order(const struct design *d, const struct topo *t, int *order)
{
	const char *s = d->job.groups;
	int n = 0, i;
	if (!s[0]) {
		for (i = 0; i < t->nng; i++)
			order[n++] = i;
		return n;
	}
	for (;;) {
		char name[NCF_NAME_MAX];
		if (!(s = design_list_next(s, name, sizeof name)))
			break;
		for (i = 0; i < t->nng; i++) {
			int j;
			bool dup = false;
			for (j = 0; j < n; j++)
				dup = dup || order[j] == i;
			if (!dup && (!strcmp(t->ng[i].name, name) ||
				     (t->ng[i].domain >= 0 && !strcmp(DESIGN_DOMAIN(d, t->ng[i].domain)->name, name)))) {
				order[n++] = i;
				break;
			}
		}
	}
	return n;
}

void topo_place(const struct design *d, struct topo *t, int gpus)
{
	long left;
	int i;
	t->nplaced = parse_order(d, t, t->order);
	t->design_gpus = 0;
	t->design_nodes = 0;
	for (i = 0; i < t->nplaced; i++) {
		const struct topo_ngroup *g = &t->ng[t->order[i]];
		long gg = g->nodes * (long)g->gpus;
		t->design_gpus = (int)(t->design_gpus + gg > 2000000000L ? 2000000000L : t->design_gpus + gg);
		t->design_nodes += g->nodes;
	}
	t->gpus = gpus > 0 ? gpus : (d->job.gpus > 0 ? d->job.gpus : t->design_gpus);
	if (t->gpus > t->design_gpus)
		t->gpus = t->design_gpus;
	left = t->gpus;
	t->nodes = 0;
	for (i = 0; i < t->nng; i++) {
		t->ng[i].first = -1;
		t->ng[i].used = 0;
		t->ng[i].last_gpus = 0;
	}
	/* One pass over the placed groups: each takes its nodes (contiguous, in placement
	 * order, while GPUs are left); the layout hashes everything the routing reads of the
	 * placed graph (route.c and fabric.c key their caches on it): where each group is
	 * placed, and its shape (ngroup_shape); heterogeneous: the job's node groups differ in
	 * what NCCL sees; and the slowest and the smallest GPU. */
	{
		unsigned long long h = 1469598103934665603ULL;
		const struct topo_ngroup *a = NULL;
		const struct cat_gpu *seen = NULL; /* the last GPU weighed: again, it changes nothing */
		h = mix(h, (unsigned long long)t->nng);
		h = mix(h, (unsigned long long)t->nplaced);
		h = mix(h, (unsigned long long)t->routing);
		h = mix(h, (unsigned long long)t->qps);
		t->heterogeneous = false;
		t->slow_gpu = t->small_gpu = NULL;
		for (i = 0; i < t->nplaced; i++) {
			struct topo_ngroup *g = &t->ng[t->order[i]];
			const struct cat_gpu *gpu = g->gpu;
			long can = g->nodes * (long)g->gpus, take = left < can ? left : can;
			if (left > 0 && take > 0 && g->gpus > 0) {
				g->first = t->nodes;
				g->used = (take + g->gpus - 1) / g->gpus;
				g->last_gpus = (int)(take - (g->used - 1) * g->gpus);
				t->nodes += g->used;
				left -= take;
			}
			h = mix(h, (unsigned long long)t->order[i]);
			h = mix(h, (unsigned long long)g->first);
			h = mix(h, (unsigned long long)g->used);
			h = mix(h, g->shape);
			if (!g->used)
				continue;
			if (gpu && gpu != seen) {
				if (gpu->bf16_tflops > 0 && (!t->slow_gpu || gpu->bf16_tflops < t->slow_gpu->bf16_tflops))
					t->slow_gpu = gpu;
				if (gpu->memory_GB > 0 && (!t->small_gpu || gpu->memory_GB < t->small_gpu->memory_GB))
					t->small_gpu = gpu;
				seen = gpu;
			}
			if (!a)
				a = g;
			else if (g->gpus != a->gpus || g->nccl.sm != a->nccl.sm || g->nccl.nvl != a->nccl.nvl ||
				 g->nccl.cards != a->nccl.cards || g->nccl.net_bw != a->nccl.net_bw || g->wired != a->wired)
				t->heterogeneous = true;
		}
		t->layout = h;
	}
}

/* What job.groups and job.gpus ask for that the placement cannot give: a name that is no
 * group, a group named twice, more GPUs than the named groups hold. */
static void check_groups(const struct design *d, struct topo *t, int gpus)
{
	const char *s = d->job.groups;
	int want = gpus > 0 ? gpus : d->job.gpus, i, n = 0;
	bool *seen = xcalloc(t->nng ? (size_t)t->nng : 1, sizeof *seen);
	for (;;) {
		char name[NCF_NAME_MAX];
		if (!(s = design_list_next(s, name, sizeof name)))
			break;
		for (i = 0; i < t->nng; i++)
			if (!strcmp(t->ng[i].name, name) ||
			    (t->ng[i].domain >= 0 && !strcmp(DESIGN_DOMAIN(d, t->ng[i].domain)->name, name)))
				break;
		if (!name[0])
			problem(t, NCF_ERROR, "job.groups", "job.groups has an empty name between its commas");
		else if (i == t->nng)
			problem(t, NCF_ERROR, "job.groups",
				"job.groups names '%s', which is no server group or NVLink domain of the design: the job runs without it",
				name);
		else if (seen[i])
			problem(t, NCF_WARNING, "job.groups", "job.groups names '%s' twice: it takes part once", name);
		else
			n++;
		if (i < t->nng)
			seen[i] = true;
	}
	free(seen);
	if (d->job.groups[0] && n == 0)
		problem(t, NCF_ERROR, "job.groups", "job.groups names no server group of the design");
	if (want > 0 && t->gpus < want && t->design_gpus > 0)
		problem(t, NCF_WARNING, d->job.groups[0] ? "job.groups" : "job.gpus",
			"the job asks for %d GPUs, but %s %d: it runs on %d", want,
			d->job.groups[0] ? "the groups job.groups names hold" : "its server groups hold", t->design_gpus,
			t->gpus);
}

/* ---- connectivity -------------------------------------------------------------------- */

/* sum_{i=0}^{n-1} floor((a i + b) / m) for a, b >= 0, m > 0 (the classic reduction). */
static unsigned long long floor_sum(unsigned long long n, unsigned long long m, unsigned long long a,
				    unsigned long long b)
{
	unsigned long long ans = 0;
	for (;;) {
		unsigned long long ymax, tmp;
		if (a >= m) {
			ans += n * (n - 1) / 2 * (a / m);
			a %= m;
		}
		if (b >= m) {
			ans += n * (b / m);
			b %= m;
		}
		ymax = a * n + b;
		if (ymax < m)
			break;
		n = ymax / m;
		b = ymax % m;
		tmp = m;
		m = a;
		a = tmp;
	}
	return ans;
}

/* Components holding raw blocks B0..B1 of level l, `per` each. */
static void blocks_runs(const struct topo_level *l, long B0, long B1, long per, topo_run_fn fn, void *arg)
{
	long M = l->modulus, nb = B1 - B0 + 1, full, rem, r0;
	if (nb <= 0 || per <= 0)
		return;
	if (M <= 0) {
		fn(l->base + B0, l->base + B1, per, arg);
		return;
	}
	full = nb / M;
	rem = nb % M;
	if (full)
		fn(l->base, l->base + M - 1, per * full, arg);
	if (!rem)
		return;
	r0 = ((B0 % M) + M) % M;
	if (r0 + rem <= M) {
		fn(l->base + r0, l->base + r0 + rem - 1, per, arg);
	} else {
		fn(l->base + r0, l->base + M - 1, per, arg);
		fn(l->base, l->base + r0 + rem - 1 - M, per, arg);
	}
}

static long ceil_l(long a, long b)
{
	return floordiv(a + b - 1, b);
}

void topo_runs(const struct topo_level *l, long x0, long d, long n, topo_run_fn fn, void *arg)
{
	long s = l->size, B0, B1, c0, c1;
	if (n <= 0)
		return;
	if (d < 1)
		d = 1;
	if (s >= TOPO_ALL) {
		fn(l->base, l->base, n, arg);
		return;
	}
	B0 = floordiv(x0 + l->shift, s);
	B1 = floordiv(x0 + (n - 1) * d + l->shift, s);
	if (B0 == B1) {
		blocks_runs(l, B0, B0, n, fn, arg);
		return;
	}
	if (l->modulus > 0 && B1 - B0 + 1 > l->modulus && s % d) {
		/* Long interleaved runs of unequal blocks: count each residue exactly, in runs of
		 * equal counts. */
		unsigned long long P = (unsigned long long)s * (unsigned long long)l->modulus;
		unsigned long long y0 = (unsigned long long)(x0 + l->shift), start = 0;
		long r, prev = -1;
		for (r = 0; r <= l->modulus; r++) {
			long cnt = -1;
			if (r < l->modulus) {
				unsigned long long A = (unsigned long long)r * s, Bw = A + s;
				cnt = (long)(floor_sum((unsigned long long)n, P, (unsigned long long)d, y0 + P - A) -
					     floor_sum((unsigned long long)n, P, (unsigned long long)d, y0 + P - Bw));
			}
			if (r > 0 && cnt != prev && prev > 0)
				fn(l->base + (long)start, l->base + r - 1, prev, arg);
			if (r == 0 || cnt != prev)
				start = (unsigned long long)r;
			prev = cnt;
		}
		return;
	}
	c0 = ((B0 + 1) * s - l->shift - x0 - 1) / d + 1;
	c1 = n - ceil_l(B1 * s - l->shift - x0, d);
	blocks_runs(l, B0, B0, c0, fn, arg);
	blocks_runs(l, B1, B1, c1, fn, arg);
	if (B1 - B0 < 2)
		return;
	if (s % d == 0) {
		blocks_runs(l, B0 + 1, B1 - 1, s / d, fn, arg);
	} else if (B1 - B0 - 1 <= 64) {
		long B;
		for (B = B0 + 1; B < B1; B++) {
			long lo = B * s - l->shift, hi = lo + s - 1;
			long cnt = floordiv(hi - x0, d) - ceil_l(lo - x0, d) + 1;
			blocks_runs(l, B, B, cnt, fn, arg);
		}
	} else {
		blocks_runs(l, B0 + 1, B1 - 1, ceil_l(s, d), fn, arg); /* at most this many each */
	}
}

/* A group's leaf components in one plane (topo_leaves_apart). */
struct lrange {
	int sw, order;
	long lo, hi;
};

static int lrange_cmp(const void *pa, const void *pb)
{
	const struct lrange *a = pa, *b = pb;
	if (a->sw != b->sw)
		return a->sw < b->sw ? -1 : 1;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->hi < b->hi ? -1 : a->hi > b->hi;
}

bool topo_leaves_apart(const struct topo *t, int pi)
{
	struct lrange *lr = xmalloc((size_t)(t->nplaced > 0 ? t->nplaced : 1) * sizeof *lr);
	size_t nl = 0, q;
	bool apart = true;
	int i;
	for (i = 0; i < t->nplaced; i++) {
		const struct topo_ngroup *g = &t->ng[t->order[i]];
		const struct topo_level *l0;
		if (!g->used || pi >= g->nswitch)
			continue;
		l0 = &g->plane[pi].level[0];
		lr[nl].sw = l0->sw;
		lr[nl].order = l0->order;
		lr[nl].lo = l0->size >= TOPO_ALL ? 0 : topo_comp(l0, topo_pos(g, &g->plane[pi], 0));
		lr[nl].hi = l0->size >= TOPO_ALL ? 0 : topo_comp(l0, topo_pos(g, &g->plane[pi], g->used - 1));
		nl++;
	}
	/* Placement order mostly is leaf order already (a thousand pods, each on its own leaf
	 * group or the next block of a shared one): sort only when it is not. */
	for (q = 1; q < nl && lrange_cmp(&lr[q - 1], &lr[q]) <= 0; q++)
		;
	if (q < nl)
		qsort(lr, nl, sizeof *lr, lrange_cmp);
	for (q = 1; q < nl && apart; q++)
		if (lr[q].sw == lr[q - 1].sw && lr[q].order == lr[q - 1].order && lr[q].lo < lr[q - 1].hi)
			apart = false;
	free(lr);
	return apart;
}

const struct topo_ngroup *topo_node(const struct topo *t, long i, long *local)
{
	int k;
	for (k = 0; k < t->nplaced; k++) {
		const struct topo_ngroup *g = &t->ng[t->order[k]];
		if (g->used && i >= g->first && i < g->first + g->used) {
			*local = i - g->first;
			return g;
		}
	}
	return NULL;
}

int topo_mesh_pair(const struct topo_ngroup *g, const struct topo_ngroup *h, double *GBps)
{
	int k, links = 0;
	double cap = 0;
	for (k = 0; k < g->nplanes; k++) {
		const struct topo_plane *p = &g->plane[k];
		long per;
		if (p->kind != PLANE_MESH || p->leaf != h->server || p->mesh_peers < 1)
			continue;
		per = p->links / p->mesh_peers;
		links += (int)per;
		cap += (double)per * p->gbps / 8.0;
	}
	if (GBps)
		*GBps = cap;
	return links;
}

/* The top component of a switch plane: (switch group, order, number) for node `local`. */
struct tkey {
	int sw, order;
	long id;
};

static struct tkey top_key(const struct topo_ngroup *g, const struct topo_plane *p, long local)
{
	const struct topo_level *l = &p->level[p->nlevels - 1];
	struct tkey k;
	k.sw = l->sw;
	k.order = l->order;
	k.id = topo_comp_rail(l, topo_pos(g, p, local), 0);
	return k;
}

static bool tkey_eq(struct tkey a, struct tkey b)
{
	return a.sw == b.sw && a.order == b.order && a.id == b.id;
}

/* Does plane p's top level hold nodes 0..used-1 of g in one component? *parts: how many
 * it splits them into. */
static bool plane_whole(const struct topo_ngroup *g, const struct topo_plane *p, long *parts)
{
	const struct topo_level *l = &p->level[p->nlevels - 1];
	long b0, b1;
	*parts = 1;
	if (l->size >= TOPO_ALL || g->used <= 1)
		return true;
	b0 = floordiv(topo_pos(g, p, 0) + l->shift, l->size);
	b1 = floordiv(topo_pos(g, p, g->used - 1) + l->shift, l->size);
	if (b0 == b1)
		return true;
	*parts = l->modulus > 0 && b1 - b0 + 1 > l->modulus ? l->modulus : b1 - b0 + 1;
	return false;
}

/* Every pair of the job's nodes can reach each other: inside a group over a switch plane
 * that holds all its nodes, or a mesh of the group to itself; between two groups over a
 * network in which both reach the same top component, or a mesh between them (servers do
 * not forward: a mesh joins only the pairs it names). */
static void check_connected(const struct design *d, struct topo *t)
{
	int *used = xcalloc(t->nplaced ? (size_t)t->nplaced : 1, sizeof *used);
	int nu = 0, i, j, k;
	bool fast = false;
	t->connected = true;
	t->disconnect[0] = 0;
	for (i = 0; i < t->nplaced; i++)
		if (t->ng[t->order[i]].used)
			used[nu++] = t->order[i];
	if (t->nodes <= 1)
		goto done;
	for (i = 0; i < nu; i++) {
		const struct topo_ngroup *g = &t->ng[used[i]];
		const struct topo_plane *split = NULL;
		long parts = 1, pp;
		/* (A mesh to itself is among its planes past the switch planes.) */
		bool whole = g->used <= 1 || (g->nplanes > g->nswitch && topo_mesh_pair(g, g, NULL) > 0);
		if (!g->nplanes) {
			t->connected = false;
			snprintf(t->disconnect, sizeof t->disconnect, "not connected: group '%s' has no bundle to the network",
				 g->name);
			goto done;
		}
		for (k = 0; k < g->nswitch && !whole; k++) {
			if (plane_whole(g, &g->plane[k], &pp))
				whole = true;
			else if (!split) {
				split = &g->plane[k];
				parts = pp;
			}
		}
		if (whole)
			continue;
		t->connected = false;
		if (split)
			snprintf(t->disconnect, sizeof t->disconnect,
				 "not connected: the servers of '%s' reach %ld separate '%s' switches with nothing above them",
				 g->name, parts, DESIGN_SWITCH(d, split->level[split->nlevels - 1].sw)->name);
		else
			snprintf(t->disconnect, sizeof t->disconnect,
				 "not connected: the servers of '%s' are not linked to each other (a mesh links only the groups it names)",
				 g->name);
		goto done;
	}
	if (nu < 2)
		goto done;
	/* Most designs: one top component of the first group holds every group. */
	{
		const struct topo_ngroup *g0 = &t->ng[used[0]];
		for (k = 0; k < g0->nswitch && !fast; k++) {
			struct tkey key;
			long pp;
			if (!plane_whole(g0, &g0->plane[k], &pp))
				continue;
			key = top_key(g0, &g0->plane[k], 0);
			fast = true;
			for (i = 1; i < nu && fast; i++) {
				const struct topo_ngroup *g = &t->ng[used[i]];
				bool in = false;
				for (j = 0; j < g->nswitch && !in; j++)
					in = plane_whole(g, &g->plane[j], &pp) && tkey_eq(top_key(g, &g->plane[j], 0), key);
				fast = in;
			}
		}
	}
	if (fast)
		goto done;
	/* Otherwise pair by pair: the groups each top component holds whole, as bit sets; a
	 * group reaches the union of its components' sets and the groups it is meshed with. */
	{
		size_t words = ((size_t)nu + 63) / 64, nk = 0, capk = (size_t)nu * TOPO_MAX_PLANES + 1;
		struct tkey *keys = xcalloc(capk, sizeof *keys);
		unsigned long long *bits = xcalloc(capk * words, sizeof *bits);
		unsigned long long *reach = xcalloc(words, sizeof *reach);
		int *kof = xcalloc((size_t)nu * TOPO_MAX_PLANES, sizeof *kof);
		for (i = 0; i < nu; i++) {
			const struct topo_ngroup *g = &t->ng[used[i]];
			for (k = 0; k < g->nswitch; k++) {
				long pp;
				struct tkey key;
				size_t q;
				kof[i * TOPO_MAX_PLANES + k] = -1;
				if (!plane_whole(g, &g->plane[k], &pp))
					continue;
				key = top_key(g, &g->plane[k], 0);
				for (q = 0; q < nk && !tkey_eq(keys[q], key); q++)
					;
				if (q == nk)
					keys[nk++] = key;
				bits[q * words + (size_t)i / 64] |= 1ULL << (i % 64);
				kof[i * TOPO_MAX_PLANES + k] = (int)q;
			}
		}
		for (i = 0; i < nu && t->connected; i++) {
			const struct topo_ngroup *g = &t->ng[used[i]];
			memset(reach, 0, words * sizeof *reach);
			for (k = 0; k < g->nswitch; k++) {
				int q = kof[i * TOPO_MAX_PLANES + k];
				size_t w;
				if (q >= 0)
					for (w = 0; w < words; w++)
						reach[w] |= bits[(size_t)q * words + w];
			}
			for (j = 0; j < nu; j++) {
				if (j == i || (reach[j / 64] >> (j % 64) & 1) || topo_mesh_pair(g, &t->ng[used[j]], NULL) > 0)
					continue;
				t->connected = false;
				snprintf(t->disconnect, sizeof t->disconnect, "not connected: group '%s' has no path to group '%s'",
					 g->name, t->ng[used[j]].name);
				break;
			}
		}
		free(keys);
		free(bits);
		free(reach);
		free(kof);
	}
done:
	free(used);
}

/* ---- build ------------------------------------------------------------------------------ */

static void protocols(struct ctx *c)
{
	const struct design *d = c->d;
	size_t i;
	char path[32];
	int routing = d->fabric.routing;
	/* The network each end speaks (-1: not known): 1 InfiniBand, 0 Ethernet (RoCE and
	 * plain Ethernet NICs both run on Ethernet switches, and so does EFA). Switches have
	 * theirs from resolve_bundles; a server group speaks its node group's NICs'. */
	for (i = 0; i < d->servers.n; i++) {
		int k = c->ng_of_server[i];
		c->side[i] = (signed char)(k >= 0 && c->t->ng[k].ports ? c->t->ng[k].protocol == PROTO_INFINIBAND : -1);
	}
	for (i = 0; i < d->bundles.n; i++) {
		const struct rbundle *r = &c->rb[i];
		int fs, ts;
		if (r->merged)
			continue;
		/* (A bundle's upper end speaks only when it is a switch group.) */
		fs = r->fkey >= 0 ? c->side[r->fkey] : -1;
		ts = fs >= 0 && r->tk == GK_SWITCH ? c->side[r->tkey] : -1;
		if (fs >= 0 && ts >= 0 && fs != ts)
			problem(c->t, NCF_ERROR, bpath((int)i, path),
				"protocol mismatch: '%s' speaks %s, '%s' speaks %s", DESIGN_BUNDLE(d, i)->from,
				fs ? "InfiniBand" : "Ethernet", DESIGN_BUNDLE(d, i)->to, ts ? "InfiniBand" : "Ethernet");
		/* Spraying is the NIC's (SRD varies each packet's entropy over ECMP paths): only
		 * adaptive routing needs switches that pick the egress (fabric-physics.md 1.6). */
		if (routing == ROUTE_ADAPTIVE && r->tk == GK_SWITCH && c->sw[r->ti].known && !c->sw[r->ti].ar)
			problem(c->t, NCF_WARNING, "fabric.routing",
				"%s routing asked for, but '%s' (%s) cannot route adaptively: computed as static hashing",
				routing_names[routing], DESIGN_BUNDLE(d, i)->to, DESIGN_SWITCH(d, r->ti)->model);
	}
	if (routing == ROUTE_ADAPTIVE || routing == ROUTE_SPRAY) {
		int k;
		for (k = 0; k < c->t->nng; k++)
			if (c->t->ng[k].ports && !c->t->ng[k].nic_ar && c->t->ng[k].nplanes)
				problem(c->t, NCF_WARNING, "fabric.routing",
					"%s routing needs NICs that take packets out of order; the NICs of '%s' do not",
					routing_names[routing], c->t->ng[k].name);
	}
}

/* Per switch group: what one switch's down and up links carry (the report's tiers), from
 * the sums switch_links made. */
static void switch_summary(struct ctx *c)
{
	const struct design *d = c->d;
	size_t i;
	struct topo *t = c->t;
	t->nsw = (int)d->switches.n;
	t->sw = xmalloc((d->switches.n ? d->switches.n : 1) * sizeof *t->sw);
	for (i = 0; i < d->switches.n; i++) {
		const struct swinfo *w = &c->sw[i];
		t->sw[i] = (struct topo_switch){
			.members = w->members,
			.tier = w->tier,
			.down_GBps = w->down_GBps,
			.up_GBps = w->up_GBps,
			.down_gbps = w->down_gbps,
			.up_gbps = w->up_gbps,
			.lag = w->up_lag,
			.protocol = w->protocol,
			.ar = w->ar,
			.known = w->known,
			.peer_class = w->peer_class,
			.sharp = w->sharp,
		};
		/* One switch's downlinks: the busiest switch's share of all the links into the
		 * group (the same however many bundles bring them), at their mean speed. */
		if (w->down_links > 0)
			t->sw[i].down_GBps = (double)((w->down_links + w->members - 1) / w->members) * (w->down_GBps / w->down_links);
	}
}

/* The peer bundles, for the bisection's max-flow among the switches they join. */
static void peer_list(struct ctx *c)
{
	size_t i, n = (size_t)c->npeers;
	struct topo *t = c->t;
	t->peers = xmalloc((n ? n : 1) * sizeof *t->peers);
	for (i = 0; i < c->d->bundles.n && (size_t)t->npeers < n; i++) {
		const struct rbundle *r = &c->rb[i];
		struct topo_peer *pe;
		if (r->merged || r->fk != GK_SWITCH || r->tk != GK_SWITCH || c->sw[r->ti].tier > c->sw[r->fi].tier)
			continue;
		pe = &t->peers[t->npeers++];
		pe->a = r->fi;
		pe->b = r->ti;
		pe->links = r->links;
		pe->link_GBps = r->gbps / 8.0;
	}
}

void topo_build(const struct design *d, const struct catalog *cat, int gpus, struct topo *t)
{
	struct ctx c;
	memset(t, 0, sizeof *t);
	memset(&c, 0, sizeof c);
	c.d = d;
	c.cat = cat;
	c.t = t;
	t->routing = d->fabric.routing;
	t->qps = d->fabric.qps_per_connection > 0 ? d->fabric.qps_per_connection : 1;
	c.unique = design_names_unique(d);
	resolve_bundles(&c);
	build_ngroups(&c);
	protocols(&c);
	t->order = xcalloc(t->nng ? (size_t)t->nng : 1, sizeof *t->order);
	topo_place(d, t, gpus);
	check_groups(d, t, gpus);
	check_connected(d, t);
	if (!t->connected)
		problem(t, NCF_ERROR, "job", "%s", t->disconnect);
	switch_summary(&c);
	peer_list(&c);
}

void topo_free(struct topo *t)
{
	free(t->ng);
	free(t->order);
	free(t->sw);
	free(t->planes);
	free(t->peers);
	memset(t, 0, sizeof *t);
}

void topo_check(const struct design *d, const struct catalog *cat, struct ncf_diag *diag)
{
	struct topo t;
	int i;
	topo_build(d, cat, 0, &t);
	for (i = 0; i < t.nproblems; i++)
		diag_add(diag, t.problems[i].severity, t.problems[i].path, "%s", t.problems[i].msg);
	topo_free(&t);
}
