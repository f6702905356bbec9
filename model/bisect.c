/* bisect.c: the worst-case balanced cut of a job's nodes on a tree of components.
 *
 * The graph. In one switch plane the components (topo.h "Levels", named by switch group,
 * order and number) form a tree: a leaf component holds nodes, each joined to it by its
 * links in the plane (w GB/s: the node's ceiling times the plane's share of its ports);
 * every component is joined to its parent by its uplinks (u: switches x uplinks x speed,
 * all rail groups of a block together, as they are alike). Inside a component traffic is
 * free (the model's switches are non-blocking), so a component is one vertex.
 *
 * The cut. A balanced cut colours every vertex A or B with exactly h = floor(n/2) (or
 * n - h) nodes on A, and costs the edges between colours. Fix the components' colours:
 * a node placed like its leaf costs nothing, one placed against it costs w, so with x the
 * nodes under A leaves the cheapest placement costs w |h - x| (move |h - x| nodes off the
 * side that has too many). So
 *     bisection = min over colourings of  sum of u over components coloured unlike their
 *                 parent  +  w |h - x|,   minimised over h and n - h (the halves swap).
 * This is exact (it is the definition: every cut is such a colouring, and for a split the
 * best colouring of the components is the min cut = the max-flow between the halves).
 *
 * The programme. E_v(x) = the least uplink cost inside v's subtree with v coloured A and
 * x nodes under A leaves (v coloured B: E_v(n_v - x), swapping the colours). A child c,
 * seen from a parent coloured A, costs psi_c(x) = min(E_c(x), E_c(n_c - x) + u_c); a
 * parent's E is the min-plus convolution of its children's psi. A leaf has E(n_leaf) = 0
 * and nothing else. x only takes sums of leaf sizes: arrays are in units of their gcd g.
 * The answer is min_x E_root(x) + w |h - x| over both h and n - h. Several roots (a job
 * that is not connected) and the nodes with no port in this plane (free to go either way,
 * 0 on every x) join under one more root at no cost.
 *
 * Nodes of unequal links (by_node): x counts the nodes on A themselves, a leaf coloured A
 * with a of its nodes on A costs its n - a cheapest nodes' links, and the answer is
 * E_root(h) (or n - h). The same programme, exact, in nodes rather than units. Where
 * that is over the budget, the units programme with w the least node's links stands: every
 * colouring costs at least what it says, so it is a lower bound, and exact when a least
 * colouring moves no node (x = h).
 *
 * Identical children (the leaves of a group, the pods of a tier) are combined at once.
 * When psi is concave on its support (every multiple of a step s up to n_c), any two
 * children that are both partly A can trade nodes until one is at an end without raising
 * the sum (f(a + d) + f(b - d) is concave in d, so its least is at an end), so some
 * optimum has at most one child partly A: k copies at x = j n_c + r cost
 * j psi(n_c) + psi(r) + (k - j - 1) psi(0): closed form, the size of the result. Leaves'
 * psi (two points) and that of a component over identical leaves (min of two lines) are
 * concave, so two- and three-tier trees take this path; other shapes are combined by
 * repeated doubling, and the free nodes by a sliding minimum. Two kinds of concave child
 * on one step (pods of a tier, the last one smaller) are combined over the splits the same
 * argument leaves, not every pair (conv_two_concave). Cost: the components the job's
 * groups touch (the leaves strictly inside a group are runs, never stored; a group alone on
 * one leaf component is one run, and takes its parent from the group before when its
 * levels above and their components are the same), and per component its array, n_v / g
 * + 1 entries (the leaves under it, when they are alike); a work budget stops shapes that
 * would cost more (the caller then has no exact minimum).
 *
 * Planes. Each switch plane is a tree of its own and the same split applies to all, so the
 * sum of each plane's minimum is at most the minimum of the sum (bisect.h says when it is
 * exact). */
#include "model/bisect.h"
#include "model/alloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Entries combined in one call, at most (every plane and way together: a few ms; the
 * largest trees, 10^5 leaves, take 10^5). */
#define BIS_BUDGET 3e6
/* Orders a component may have (topo.h: 2 x tier, + 1 for a peer stage). */
#define BIS_ORDERS (4 * TOPO_MAX_LEVELS + 8)

struct bfun {
	long D;                 /* entries 0..D, in units of g nodes */
	double *v;              /* INFINITY where x is not reachable */
};

struct bcomp2 {
	int sw, order;
	long b;
	int lv;                 /* level in the plane of the group that made it */
	long n;                 /* job nodes directly in it (leaf components) */
	double up;              /* to its parent */
	int parent;             /* index, -1 at the top */
	bool chained;
	struct bfun E;
	long nsub;              /* nodes under it */
};

/* Runs of identical leaves strictly inside a group, none stored: k leaves of n nodes. */
struct brun {
	int parent;
	long k, n;
	double up, w;           /* w: each node's links in the plane */
};

/* Nodes of one weight (their links in the plane) in a stored leaf. */
struct wrec {
	int ci;
	long count;
	double w;
};

/* Every array of one call comes from blocks kept for the next call (fresh pages cost a
 * fault each; malloc and free per component were most of the cost at 1,000 groups). */
struct ablock {
	struct ablock *next;
	size_t cap, used;
	double data[];
};

struct btree {
	struct ablock *blocks;  /* the current block first */
	struct bcomp2 *c;
	size_t n, cap;
	int *slot;              /* open addressing: index + 1, 0 empty */
	size_t scap;
	struct brun *run;
	size_t nrun, caprun;
	struct wrec *wr;
	size_t nwr, capwr;
	double *work;           /* the call's, over every plane */
	bool over;              /* the work budget is spent */
	bool notree;            /* the components do not form a tree */
};

static size_t hslot(const struct btree *t, int sw, int order, long b)
{
	unsigned long long h = ((unsigned long long)(sw + 3) * 0x9e3779b97f4a7c15ULL + (unsigned long long)order) ^
			       (unsigned long long)b * 0xff51afd7ed558ccdULL;
	size_t i = (size_t)((h ^ (h >> 31)) & (t->scap - 1));
	while (t->slot[i]) {
		const struct bcomp2 *e = &t->c[t->slot[i] - 1];
		if (e->sw == sw && e->order == order && e->b == b)
			break;
		i = (i + 1) & (t->scap - 1);
	}
	return i;
}

static int comp_get(struct btree *t, int sw, int order, long b, int lv)
{
	size_t i = hslot(t, sw, order, b), k;
	struct bcomp2 *e;
	if (t->slot[i])
		return t->slot[i] - 1;
	if ((t->n + 1) * 2 >= t->scap) {
		free(t->slot);
		t->scap *= 2;
		t->slot = xcalloc(t->scap, sizeof *t->slot);
		for (k = 0; k < t->n; k++)
			t->slot[hslot(t, t->c[k].sw, t->c[k].order, t->c[k].b)] = (int)k + 1;
		i = hslot(t, sw, order, b);
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->c = xrealloc(t->c, t->cap * sizeof *t->c);
	}
	e = &t->c[t->n];
	memset(e, 0, sizeof *e);
	e->sw = sw;
	e->order = order;
	e->b = b;
	e->lv = lv;
	e->parent = -1;
	t->slot[i] = (int)t->n + 1;
	return (int)t->n++;
}

static double level_up(const struct topo_level *l)
{
	return l->uplinks > 0 ? (double)topo_rail_groups(l) * l->switches * l->uplinks * l->link_GBps : 0;
}

/* Levels a and b climb alike: the same switch group and order, the same components of
 * the same positions, the same uplinks (what chain reads of a level: its components
 * through topo_comp_rail with rail 0, which reads no rail_mod or rail_block). */
static bool level_same(const struct topo_level *a, const struct topo_level *b)
{
	return a->sw == b->sw && a->order == b->order && a->size == b->size && a->shift == b->shift &&
	       a->modulus == b->modulus && a->base == b->base && a->rail_groups == b->rail_groups &&
	       a->switches == b->switches && a->uplinks == b->uplinks && a->link_GBps == b->link_GBps;
}

/* The chain above component ci (level lv of plane p, holding position x): uplinks and
 * parents, up to the top. Where it meets a component already chained it checks that x
 * climbs the same way (same uplinks, same parents): else the components are no tree (an
 * interleaved component whose positions climb to different parents) and t->notree says
 * so. */
static void chain(struct btree *t, const struct topo_plane *p, int ci, int lv, long x)
{
	for (; lv < p->nlevels; lv++) {
		const struct topo_level *l = &p->level[lv];
		struct bcomp2 *c = &t->c[ci];
		int pi;
		if (c->chained) {
			const struct bcomp2 *pc = c->parent >= 0 ? &t->c[c->parent] : NULL;
			const struct topo_level *u = lv + 1 < p->nlevels ? &p->level[lv + 1] : NULL;
			if (fabs(c->up - level_up(l)) > 1e-9 * (c->up + 1) || !pc != !u ||
			    (u && (pc->sw != u->sw || pc->order != u->order || pc->b != topo_comp_rail(u, x, 0))))
				t->notree = true;
			if (!pc)
				return;
			ci = c->parent;
			continue;
		}
		c->chained = true;
		c->up = level_up(l);
		if (lv + 1 >= p->nlevels)
			return;
		pi = comp_get(t, p->level[lv + 1].sw, p->level[lv + 1].order, topo_comp_rail(&p->level[lv + 1], x, 0), lv + 1);
		t->c[ci].parent = pi; /* (comp_get may move the table) */
		ci = pi;
	}
}

static void run_add(struct btree *t, int parent, long k, long n, double up, double w)
{
	if (t->nrun && t->run[t->nrun - 1].parent == parent && t->run[t->nrun - 1].n == n &&
	    t->run[t->nrun - 1].up == up && t->run[t->nrun - 1].w == w) {
		t->run[t->nrun - 1].k += k;
		return;
	}
	if (t->nrun == t->caprun) {
		t->caprun = t->caprun ? t->caprun * 2 : 16;
		t->run = xrealloc(t->run, t->caprun * sizeof *t->run);
	}
	t->run[t->nrun++] = (struct brun){ parent, k, n, up, w };
}

static long floordiv_l(long a, long b)
{
	long q = a / b;
	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* What one group's leaf components get, run by run (topo_runs). */
struct leaf_walk {
	struct btree *t;
	const struct topo_plane *p;
	long x_first, x_last, id_first, id_last;
	bool bulk;
	bool own;               /* the group's leaf components are its alone: all of them runs */
	double w;
};

/* The first position of leaf block id, within the group's positions (of an interleaved
 * level, some position: everything above it is one component, plane_min checks). */
static long leaf_pos(const struct leaf_walk *w, long id)
{
	const struct topo_level *l = &w->p->level[0];
	long x;
	if (l->size >= TOPO_ALL)
		return w->x_first;
	x = (id - l->base) * l->size - l->shift;
	return x < w->x_first ? w->x_first : x > w->x_last ? w->x_last : x;
}

static void leaf_add(long lo, long hi, long count, void *arg)
{
	struct leaf_walk *w = arg;
	const struct topo_level *l0 = &w->p->level[0];
	long id = lo;
	while (id <= hi) {
		long x = leaf_pos(w, id), last = hi;
		if (!w->own && (!w->bulk || id == w->id_first || id == w->id_last)) {
			/* (Named by its number, rail group 0 standing for all: an interleaved
			 * component's first block need not hold this group's positions.) */
			int ci = comp_get(w->t, l0->sw, l0->order, id * topo_rail_groups(l0), 0);
			struct btree *t = w->t;
			t->c[ci].n += count;
			if (t->nwr == t->capwr) {
				t->capwr = t->capwr ? t->capwr * 2 : 64;
				t->wr = xrealloc(t->wr, t->capwr * sizeof *t->wr);
			}
			t->wr[t->nwr++] = (struct wrec){ ci, count, w->w };
			chain(t, w->p, ci, 0, x);
			id++;
			continue;
		}
		/* Interior leaves up to the parent's end (or the last interior one): a run. */
		if (!w->own && last >= w->id_last)
			last = w->id_last - 1;
		{
			double up = level_up(l0);
			int parent = -1;
			if (w->p->nlevels > 1) {
				const struct topo_level *l1 = &w->p->level[1];
				if (l1->size < TOPO_ALL) {
					long P = floordiv_l(x + l1->shift, l1->size), xe = (P + 1) * l1->size - l1->shift - 1;
					long ide = topo_comp(l0, xe);
					if (ide < last)
						last = ide;
				}
				parent = comp_get(w->t, l1->sw, l1->order, topo_comp_rail(l1, x, 0), 1);
				chain(w->t, w->p, parent, 1, x);
			}
			if (last < id)
				last = id;
			/* A group's own leaves, as stored ones would be, climb from each one's first
			 * position: the run's last must climb as its first did (what chain would
			 * check from its parent up), and then every leaf between does (own: no
			 * level is interleaved, so components grow with the position). */
			if (w->own && parent >= 0 && last > id) {
				long xl = leaf_pos(w, last);
				int lv;
				for (lv = 2; lv < w->p->nlevels; lv++)
					if (topo_comp(&w->p->level[lv], xl) != topo_comp(&w->p->level[lv], x))
						w->t->notree = true;
			}
			run_add(w->t, parent, last - id + 1, count, up, w->w);
			id = last + 1;
		}
	}
}

/* ---- functions of x ---------------------------------------------------------------------- */

static struct ablock *pool; /* blocks left by the last call */

/* n doubles (or as many bytes' worth of longs), valid until the call ends. */
static void *ar_alloc(struct btree *t, size_t n)
{
	struct ablock *b = t->blocks;
	if (!b || b->cap - b->used < n) {
		size_t cap = n > 65536 ? n : 65536;
		struct ablock **pp = &pool;
		/* A kept block large enough, else a new one. */
		while (*pp && (*pp)->cap < n)
			pp = &(*pp)->next;
		if (*pp) {
			b = *pp;
			*pp = b->next;
		} else {
			b = xmalloc(sizeof *b + cap * sizeof(double));
			b->cap = cap;
		}
		b->used = 0;
		b->next = t->blocks;
		t->blocks = b;
	}
	b->used += n;
	return &b->data[b->used - n];
}

static void ar_release(struct btree *t)
{
	while (t->blocks) {
		struct ablock *b = t->blocks;
		t->blocks = b->next;
		b->next = pool;
		pool = b;
	}
}

/* Entries 0..D, unset: for a function that writes every one. */
static struct bfun fun_alloc(struct btree *t, long D)
{
	struct bfun f;
	f.D = D;
	f.v = ar_alloc(t, (size_t)(D + 1));
	return f;
}

static struct bfun fun_new(struct btree *t, long D)
{
	struct bfun f;
	long i;
	f.D = D;
	f.v = ar_alloc(t, (size_t)(D + 1));
	for (i = 0; i <= D; i++)
		f.v[i] = INFINITY;
	return f;
}

/* b is 0 everywhere (nodes free to go either way). */
static bool zero_fun(const struct bfun *b)
{
	long i;
	for (i = 0; i <= b->D; i++)
		if (b->v[i] != 0)
			return false;
	return true;
}

/* r(x) = min over a(j), x - f <= j <= x: a convolved with 0 on 0..f, in one pass (a deque
 * of increasing values; q has room for a->D + 1 indices). */
static void window_min(const struct bfun *a, long f, struct bfun *r, long *q)
{
	long head = 0, tail = 0, x;
	for (x = 0; x <= r->D; x++) {
		if (x <= a->D) {
			while (tail > head && a->v[q[tail - 1]] >= a->v[x])
				tail--;
			q[tail++] = x;
		}
		while (head < tail && q[head] < x - f)
			head++;
		r->v[x] = head < tail ? a->v[q[head]] : INFINITY;
	}
}

/* Min-plus convolution of a and b (neither freed). */
static struct bfun conv(struct btree *t, const struct bfun *a, const struct bfun *b)
{
	struct bfun r = fun_new(t, a->D + b->D);
	long *ia = ar_alloc(t, (size_t)(a->D + 1)), *ib = ar_alloc(t, (size_t)(b->D + 1));
	long na = 0, nb = 0, i, j;
	for (i = 0; i <= a->D; i++)
		if (isfinite(a->v[i]))
			ia[na++] = i;
	for (i = 0; i <= b->D; i++)
		if (isfinite(b->v[i]))
			ib[nb++] = i;
	if (nb == b->D + 1 && zero_fun(b)) {
		*t->work += (double)(a->D + b->D + 1);
		window_min(a, b->D, &r, ia);
		return r;
	}
	*t->work += (double)na * nb;
	if (*t->work > BIS_BUDGET)
		t->over = true;
	else if (na == a->D + 1 && nb == b->D + 1)
		/* Both finite everywhere (the pods' functions): the same sums, no index lists. */
		for (i = 0; i <= a->D; i++) {
			double ai = a->v[i], *ri = r.v + i;
			for (j = a == b ? i : 0; j <= b->D; j++) {
				double v = ai + b->v[j];
				if (v < ri[j])
					ri[j] = v;
			}
		}
	else
		for (i = 0; i < na; i++)
			for (j = a == b ? i : 0; j < nb; j++) { /* (a with itself: each pair once) */
				double v = a->v[ia[i]] + b->v[ib[j]];
				if (v < r.v[ia[i] + ib[j]])
					r.v[ia[i] + ib[j]] = v;
			}
	return r;
}

/* psi's support: every multiple of s up to D (and nothing else), s returned; 0 if not. */
static long support_step(const struct bfun *f)
{
	long s = 0, i;
	if (f->D == 0 || !isfinite(f->v[0]) || !isfinite(f->v[f->D]))
		return 0;
	for (i = 1; i <= f->D && !s; i++)
		if (isfinite(f->v[i]))
			s = i;
	if (f->D % s)
		return 0;
	for (i = 0; i <= f->D; i++)
		if (isfinite(f->v[i]) != (i % s == 0))
			return 0;
	return s;
}

static bool concave(const struct bfun *f, long s)
{
	long q, M = f->D / s;
	double scale = 0;
	for (q = 0; q <= M; q++)
		scale = fmax(scale, fabs(f->v[q * s]));
	for (q = 1; q < M; q++)
		if (f->v[(q - 1) * s] + f->v[(q + 1) * s] > 2 * f->v[q * s] + 1e-12 * (scale + 1))
			return false;
	return true;
}

/* k copies of psi, min-plus. */
static struct bfun power(struct btree *t, const struct bfun *psi, long k)
{
	long s = support_step(psi);
	struct bfun r, base, tmp;
	if (k == 1)
		return *psi; /* (functions are never written once made) */
	if (s > 0 && concave(psi, s)) {
		long M = psi->D / s, j, rr;
		r = s == 1 ? fun_alloc(t, k * psi->D) : fun_new(t, k * psi->D);
		*t->work += (double)k * M;
		/* x = (j M + rr) s: j children at their end, one at rr s, the rest at 0. */
		for (j = 0; j < k; j++) {
			double *rj = r.v + j * M * s;
			for (rr = 0; rr < M; rr++)
				rj[rr * s] = j * psi->v[psi->D] + psi->v[rr * s] + (double)(k - j - 1) * psi->v[0];
		}
		r.v[k * M * s] = k * psi->v[psi->D];
		return r;
	}
	r = fun_new(t, 0);
	r.v[0] = 0;
	base = fun_new(t, psi->D);
	memcpy(base.v, psi->v, (size_t)(psi->D + 1) * sizeof *base.v);
	while (k > 0 && !t->over) {
		if (k & 1) {
			tmp = conv(t, &r, &base);
			r = tmp;
		}
		k >>= 1;
		if (k) {
			tmp = conv(t, &base, &base);
			base = tmp;
		}
	}
	return r;
}

/* A child's cost seen from a parent coloured A: min(E(x), E(D - x) + u). */
static struct bfun psi_of(struct btree *t, const struct bfun *E, double up)
{
	struct bfun f = fun_alloc(t, E->D);
	long i;
	for (i = 0; i <= E->D; i++) {
		double a = E->v[i], b = E->v[E->D - i] + up;
		f.v[i] = b < a ? b : a; /* (fmin without the call: no value is NaN) */
	}
	return f;
}

/* One kind of child: psi and how many. */
struct kind {
	struct bfun psi;
	long k;
	unsigned long long hash;
};

static unsigned long long fun_hash(const struct bfun *f)
{
	unsigned long long h = 1469598103934665603ULL ^ (unsigned long long)f->D;
	long i;
	for (i = 0; i <= f->D; i++) {
		unsigned long long b;
		double v = f->v[i];
		memcpy(&b, &v, sizeof b);
		h = (h ^ b) * 1099511628211ULL;
	}
	return h;
}

static int kind_cmp(const void *pa, const void *pb)
{
	const struct kind *a = pa, *b = pb;
	if (a->psi.D != b->psi.D)
		return a->psi.D < b->psi.D ? -1 : 1;
	return a->hash < b->hash ? -1 : a->hash > b->hash;
}

/* Two kinds of child, k_a copies of psi_a and k_b of psi_b, both concave on every multiple
 * of one step s up to their ends (what power's closed form asks): their sum's least at x,
 * from a = power(psi_a, k_a) and b = power(psi_b, k_b), visiting only the splits y of x
 * (y under the b children) that an optimum can take. Why that is the minimum: two children
 * both partly A, of either kind, can trade nodes in steps of s until one of them is at an
 * end without raising the sum (f(p + d) + g(q - d) is concave in d on the multiples of s, so
 * its least is at an end of d's range), so some optimum has at most one child partly A.
 * If it is an a child (or none), every b child is at 0 or at its end: y = j D_b, j = 0..k_b.
 * If it is a b child, every a child is: x - y = j D_a, j = 0..k_a. Each such y costs at
 * least the minimum (it is one of conv's sums, a(x - y) + b(y)), and the optimum's y is one
 * of them and costs at most what the optimum does (a and b are the least over their own
 * children), so the least over them is conv's. False (nothing made) when the kinds are not
 * such or this would cost more than conv (then conv), or over the budget. */
static bool conv_two_concave(struct btree *t, const struct kind *ka, const struct kind *kb, const struct bfun *a,
			     const struct bfun *b, struct bfun *out)
{
	long s = support_step(&ka->psi), j, i;
	double cost;
	struct bfun r;
	if (s <= 0 || support_step(&kb->psi) != s || !concave(&ka->psi, s) || !concave(&kb->psi, s))
		return false;
	cost = (double)(ka->k + 1) * (double)(b->D + 1) + (double)(kb->k + 1) * (double)(a->D + 1);
	if (cost >= (double)(a->D + 1) * (double)(b->D + 1))
		return false;
	*t->work += cost;
	if (*t->work > BIS_BUDGET) {
		t->over = true;
		return false;
	}
	r = fun_new(t, a->D + b->D);
	/* The a side's one partial child (or none): y = j D_b. */
	for (j = 0; j <= kb->k; j++) {
		long y = j * kb->psi.D;
		double by = b->v[y], *ry = r.v + y;
		for (i = 0; i <= a->D; i++) {
			double v = a->v[i] + by;
			if (v < ry[i])
				ry[i] = v;
		}
	}
	/* A b child partial: x - y = j D_a. */
	for (j = 0; j <= ka->k; j++) {
		long z = j * ka->psi.D;
		double az = a->v[z], *rz = r.v + z;
		for (i = 0; i <= b->D; i++) {
			double v = az + b->v[i];
			if (v < rz[i])
				rz[i] = v;
		}
	}
	*out = r;
	return true;
}

/* The convolution of every kind (merged where equal). */
static struct bfun combine(struct btree *t, struct kind *kd, size_t nk)
{
	struct bfun acc = { 0, NULL };
	size_t i, j, m = 0;
	bool alike = true;
	for (i = 0; i < nk; i++) {
		kd[i].hash = fun_hash(&kd[i].psi);
		alike = alike && kd[i].hash == kd[0].hash && kd[i].psi.D == kd[0].psi.D;
	}
	if (!alike) /* (the common case, children all alike, needs no sort) */
		qsort(kd, nk, sizeof *kd, kind_cmp);
	/* Equal kinds merged: kd[0..m). */
	for (i = 0; i < nk; i = j) {
		long k = kd[i].k;
		for (j = i + 1; j < nk && kd[j].psi.D == kd[i].psi.D && kd[j].hash == kd[i].hash &&
				!memcmp(kd[j].psi.v, kd[i].psi.v, (size_t)(kd[i].psi.D + 1) * sizeof *kd[i].psi.v);
		     j++)
			k += kd[j].k;
		kd[m] = kd[i];
		kd[m++].k = k;
	}
	for (i = 0; i < m && !t->over; i++) {
		struct bfun p = power(t, &kd[i].psi, kd[i].k), tmp;
		if (t->over)
			break;
		if (!acc.v) {
			acc = p; /* (0 on x = 0 convolved with p is p) */
			continue;
		}
		if (!(m == 2 && conv_two_concave(t, &kd[0], &kd[1], &acc, &p, &tmp))) {
			if (t->over)
				break;
			tmp = conv(t, &acc, &p);
		}
		acc = tmp;
	}
	if (!acc.v) { /* no kind (or over budget): 0 at x = 0 */
		acc = fun_new(t, 0);
		acc.v[0] = 0;
	}
	return acc;
}

static long gcd_l(long a, long b)
{
	while (b) {
		long r = a % b;
		a = b;
		b = r;
	}
	return a;
}


static int wrec_cmp(const void *pa, const void *pb)
{
	const struct wrec *a = pa, *b = pb;
	if (a->ci != b->ci)
		return a->ci < b->ci ? -1 : 1;
	return a->w < b->w ? -1 : a->w > b->w;
}

/* A component's own nodes, seen with it coloured A. By node: a of them on A costs the
 * n - a cheapest put on B (records wr[w0..w1) sorted by weight); else all of them count
 * as on A (x = n, in units of g). */
static struct bfun own_nodes(struct btree *t, const struct bcomp2 *c, long w0, long w1, bool by_node, long g)
{
	struct bfun f = fun_new(t, c->n / g);
	long j, r = w0, used = 0;
	double sum = 0;
	if (!by_node) {
		f.v[f.D] = 0;
		return f;
	}
	/* f(n - j) = the j cheapest. */
	f.v[f.D] = 0;
	for (j = 1; j <= f.D; j++) {
		while (r < w1 && used >= t->wr[r].count) {
			r++;
			used = 0;
		}
		sum += r < w1 ? t->wr[r].w : 0;
		used++;
		f.v[f.D - j] = sum;
	}
	return f;
}

/* ---- one plane ---------------------------------------------------------------------------- */

/* The minimum for plane pi: false when its shape is not a tree (or over budget). */
enum { BIS_OK, BIS_NOTREE, BIS_OVER };

/* Plane pi's worst balanced cut. by_node: x counts the nodes on A themselves (each leaf
 * charges the cheapest of its nodes put against it: exact with nodes of unequal links);
 * else x counts the nodes under A leaves in units of g, and a node moved costs w, the
 * least node's links (exact when they are all equal; else a lower bound). */
static int plane_min(const struct topo *t, int pi, long h, bool by_node, double *work, double *out, bool *uniform)
{
	struct btree bt;
	long free_nodes = 0, g = 0, n = t->nodes, i;
	double w = -1, w_min = -1, best = INFINITY;
	long *ord, *kstart, *rstart, *kl, *rl, *fill, *wstart;
	int gi;
	size_t k, r;
	bool ok = true;
	int apart = -1;
	struct swuse { int user, G; } *use;
	unsigned char *flat;
	/* The last group that took the fast path below: its plane, position and parent. */
	const struct topo_plane *prev_p = NULL;
	long prev_x = 0;
	int prev_parent = -1;
	struct kind *kd = NULL;
	size_t nkd = 0, ckd = 0;
	struct bfun top = { 0, NULL };
	memset(&bt, 0, sizeof bt);
	bt.work = work;
	bt.scap = 256;
	bt.slot = xcalloc(bt.scap, sizeof *bt.slot);
	*uniform = true;
	/* Which group each switch group's levels belong to (use[].user: -1 several, or twice
	 * in one): a group alone at its leaf switch group has its leaf components to itself.
	 * Rail groups alike: every group reaching a switch group splits it into as many (.G,
	 * 0 not yet seen). And the shape: a tree of blocks (flat[gi]: no level interleaved). */
	use = ar_alloc(&bt, (size_t)(t->nsw > 0 ? t->nsw : 1) * sizeof *use / sizeof(double) + 1);
	memset(use, 0, (size_t)(t->nsw > 0 ? t->nsw : 1) * sizeof *use);
	flat = ar_alloc(&bt, (size_t)t->nplaced / sizeof(double) + 1);
	for (gi = 0; gi < t->nplaced; gi++) {
		const struct topo_ngroup *gr = &t->ng[t->order[gi]];
		const struct topo_plane *p;
		const struct topo_level *l0;
		int lv;
		if (!gr->used || pi >= gr->nswitch)
			continue;
		p = &gr->plane[pi];
		l0 = &p->level[0];
		flat[gi] = 1;
		for (lv = 0; lv < p->nlevels; lv++) {
			const struct topo_level *l = &p->level[lv];
			int sw = l->sw;
			if ((l->order & 1) || l->peer || sw < 0)
				ok = false; /* a peer stage: switches joined sideways, no tree */
			/* An interleaved leaf component holds positions of many blocks: they climb
			 * alike only when everything above is one component. */
			if (l->modulus > 0 && l->size < TOPO_ALL) {
				flat[gi] = 0;
				if (lv > 0 && l0->modulus > 0)
					ok = false;
			} else if (lv > 0 && l0->modulus > 0 && l->size < TOPO_ALL)
				ok = false;
			if (sw >= 0 && sw < t->nsw) {
				int G = (int)topo_rail_groups(l);
				use[sw].user = use[sw].user ? -1 : gi + 1;
				/* (By switch group alone: a level of odd order is no tree anyway.) */
				if (!use[sw].G)
					use[sw].G = G;
				else if (use[sw].G != G)
					ok = false;
			}
		}
		/* A node whose servers sit in different leaf components is in several. */
		if (gr->spn > 1 && l0->size < TOPO_ALL &&
		    (l0->size % gr->spn || ((p->pos + l0->shift) % gr->spn + gr->spn) % gr->spn))
			ok = false;
	}
	for (gi = 0; gi < t->nplaced && ok; gi++) {
		const struct topo_ngroup *gr = &t->ng[t->order[gi]];
		const struct topo_plane *p;
		const struct topo_level *l0;
		struct leaf_walk lw;
		double wn;
		int lv;
		if (!gr->used)
			continue;
		if (pi >= gr->nswitch) {
			free_nodes += gr->used;
			continue;
		}
		p = &gr->plane[pi];
		l0 = &p->level[0];
		wn = gr->ceiling_GBps * ((double)p->links / (gr->wired > 0 ? gr->wired : 1));
		if (w < 0)
			w = wn;
		else if (wn != w && fabs(wn - w) > 1e-9 * (wn > w ? wn : w))
			*uniform = false;
		if (w_min < 0 || wn < w_min)
			w_min = wn;
		lw.t = &bt;
		lw.p = p;
		lw.x_first = topo_pos(gr, p, 0);
		lw.x_last = topo_pos(gr, p, gr->used - 1);
		lw.id_first = l0->size >= TOPO_ALL ? l0->base : topo_comp(l0, lw.x_first);
		lw.id_last = l0->size >= TOPO_ALL ? l0->base : topo_comp(l0, lw.x_last);
		/* Its own leaves (by units: by node, stored leaves sum their nodes' links) are
		 * runs, when no level is interleaved (every leaf between two climbs as they do). */
		lw.own = !by_node && flat[gi] && l0->sw >= 0 && l0->sw < t->nsw && use[l0->sw].user == gi + 1 &&
			 l0->order >= 0 && l0->order + 1 < BIS_ORDERS;
		/* Bulk runs need a group's interior leaves to itself (asked only when it has some:
		 * else every leaf is its first or last). */
		if (!lw.own && l0->modulus <= 0 && lw.id_last - lw.id_first >= 2 && apart < 0)
			apart = topo_leaves_apart(t, pi);
		lw.bulk = apart > 0 && l0->modulus <= 0;
		lw.w = wn;
		if (lw.own && l0->modulus <= 0 && lw.id_first == lw.id_last) {
			/* One leaf component, its own (the pods of the bench's 1,000 groups): what
			 * topo_runs and leaf_add would do, one run of one leaf under the parent that
			 * position x climbs to. A group whose levels above the leaf are those of the
			 * last group here, and whose x is in the same component of each, climbs the
			 * same chain: chain has checked it (it only checks a chain once made, and
			 * what it checks, level_up and the components x climbs to, is the same), so
			 * its parent stands. */
			long x = leaf_pos(&lw, lw.id_first);
			int parent = -1;
			if (p->nlevels > 1) {
				bool same = prev_p && prev_p->nlevels == p->nlevels;
				for (lv = 1; lv < p->nlevels && same; lv++)
					same = level_same(&p->level[lv], &prev_p->level[lv]) &&
					       (x == prev_x || topo_comp(&p->level[lv], x) == topo_comp(&prev_p->level[lv], prev_x));
				if (same)
					parent = prev_parent;
				else {
					const struct topo_level *l1 = &p->level[1];
					parent = comp_get(&bt, l1->sw, l1->order, topo_comp_rail(l1, x, 0), 1);
					chain(&bt, p, parent, 1, x);
				}
				prev_p = p;
				prev_x = x;
				prev_parent = parent;
			}
			{
				double up = level_up(l0);
				struct brun *last = bt.nrun ? &bt.run[bt.nrun - 1] : NULL;
				if (last && last->parent == parent && last->n == gr->used && last->up == up && last->w == wn)
					last->k++; /* (run_add's merge, inline) */
				else
					run_add(&bt, parent, 1, gr->used, up, wn);
			}
			continue;
		}
		topo_runs(l0, lw.x_first, gr->spn, gr->used, leaf_add, &lw);
	}
	if (bt.notree || w < 0)
		ok = false;
	if (!ok)
		goto done;
	if (w_min < w)
		w = w_min;
	/* Units: the gcd of the leaves' sizes (and of the nodes outside this plane). */
	for (k = 0; k < bt.n && !by_node; k++)
		if (bt.c[k].n > 0)
			g = gcd_l(g, bt.c[k].n);
	for (r = 0; r < bt.nrun && !by_node; r++)
		g = gcd_l(g, bt.run[r].n);
	if (free_nodes)
		g = gcd_l(g, free_nodes);
	if (g < 1 || by_node)
		g = 1;
	/* A stored leaf's nodes by weight, cheapest first (by_node). */
	wstart = ar_alloc(&bt, bt.n + 2);
	memset(wstart, 0, (bt.n + 2) * sizeof *wstart);
	if (by_node) {
		qsort(bt.wr, bt.nwr, sizeof *bt.wr, wrec_cmp);
		for (r = 0; r < bt.nwr; r++)
			wstart[bt.wr[r].ci + 1]++;
		for (k = 0; k < bt.n; k++)
			wstart[k + 1] += wstart[k];
	}
	/* Children of every component (stored ones, then runs), as index lists. */
	kstart = ar_alloc(&bt, bt.n + 2);
	rstart = ar_alloc(&bt, bt.n + 2);
	memset(kstart, 0, (bt.n + 2) * sizeof *kstart);
	memset(rstart, 0, (bt.n + 2) * sizeof *rstart);
	for (k = 0; k < bt.n; k++)
		if (bt.c[k].parent >= 0)
			kstart[bt.c[k].parent + 1]++;
	for (r = 0; r < bt.nrun; r++)
		if (bt.run[r].parent >= 0)
			rstart[bt.run[r].parent + 1]++;
	for (k = 0; k < bt.n; k++) {
		kstart[k + 1] += kstart[k];
		rstart[k + 1] += rstart[k];
	}
	kl = ar_alloc(&bt, bt.n + 1);
	rl = ar_alloc(&bt, bt.nrun + 1);
	fill = ar_alloc(&bt, bt.n + 1);
	memset(fill, 0, (bt.n + 1) * sizeof *fill);
	for (k = 0; k < bt.n; k++)
		if (bt.c[k].parent >= 0)
			kl[kstart[bt.c[k].parent] + fill[bt.c[k].parent]++] = (long)k;
	memset(fill, 0, (bt.n + 1) * sizeof *fill);
	for (r = 0; r < bt.nrun; r++)
		if (bt.run[r].parent >= 0)
			rl[rstart[bt.run[r].parent] + fill[bt.run[r].parent]++] = (long)r;
	/* Bottom up (parents have higher orders): a counting sort by order (orders are small;
	 * topo.h: 2 x tier). */
	ord = ar_alloc(&bt, bt.n + 1);
	{
		long start[BIS_ORDERS] = { 0 }, o, nb = (long)(sizeof start / sizeof *start);
		for (k = 0; k < bt.n; k++)
			if (bt.c[k].order < 0 || bt.c[k].order + 1 >= nb)
				ok = false;
		if (!ok)
			goto done;
		for (k = 0; k < bt.n; k++)
			start[bt.c[k].order + 1]++;
		for (o = 1; o < nb; o++)
			start[o] += start[o - 1];
		for (k = 0; k < bt.n; k++)
			ord[start[bt.c[k].order]++] = (long)k;
	}
	for (k = 0; k < bt.n && !bt.over; k++) {
		long v = ord[k], q, nk = kstart[v + 1] - kstart[v], nr = rstart[v + 1] - rstart[v];
		struct bcomp2 *c = &bt.c[v];
		if (c->n > 0 && !nk && !nr) {
			c->E = own_nodes(&bt, c, wstart[v], wstart[v + 1], by_node, g);
			continue;
		}
		nkd = 0;
		if (ckd < (size_t)(nk + nr + 1)) {
			ckd = (size_t)(nk + nr + 1);
			kd = xrealloc(kd, ckd * sizeof *kd);
		}
		if (c->n > 0)
			kd[nkd++] = (struct kind){ own_nodes(&bt, c, wstart[v], wstart[v + 1], by_node, g), 1, 0 };
		for (q = 0; q < nk; q++) {
			const struct bcomp2 *ch = &bt.c[kl[kstart[v] + q]];
			kd[nkd++] = (struct kind){ psi_of(&bt, &ch->E, ch->up), 1, 0 };
		}
		for (q = 0; q < nr; q++) {
			const struct brun *ru = &bt.run[rl[rstart[v] + q]];
			struct bfun f = fun_new(&bt, ru->n / g);
			long a;
			if (by_node) /* min((n - a) w, a w + u): the leaf on A or on B */
				for (a = 0; a <= f.D; a++)
					f.v[a] = fmin((double)(f.D - a) * ru->w, (double)a * ru->w + ru->up);
			else {
				f.v[0] = ru->up;
				f.v[f.D] = 0;
			}
			kd[nkd++] = (struct kind){ f, ru->k, 0 };
		}
		c->E = combine(&bt, kd, nkd);
	}
	/* The roots (and nodes outside this plane, free to go either way) under one. */
	nkd = 0;
	{
		size_t roots = 2;
		for (k = 0; k < bt.n; k++)
			roots += bt.c[k].parent < 0;
		for (r = 0; r < bt.nrun; r++)
			roots += bt.run[r].parent < 0;
		if (ckd < roots) {
			ckd = roots;
			kd = xrealloc(kd, ckd * sizeof *kd);
		}
	}
	for (k = 0; k < bt.n && !bt.over; k++)
		if (bt.c[k].parent < 0)
			kd[nkd++] = (struct kind){ psi_of(&bt, &bt.c[k].E, 0), 1, 0 };
	for (r = 0; r < bt.nrun && !bt.over; r++)
		if (bt.run[r].parent < 0) {
			/* Leaves with nothing above: each a root on its own. */
			const struct brun *ru = &bt.run[r];
			struct bfun f = fun_new(&bt, ru->n / g);
			long a;
			if (by_node)
				for (a = 0; a <= f.D; a++)
					f.v[a] = (double)(a < f.D - a ? a : f.D - a) * ru->w;
			else
				f.v[0] = f.v[f.D] = 0;
			kd[nkd++] = (struct kind){ f, ru->k, 0 };
		}
	if (free_nodes && !bt.over) {
		struct bfun f = fun_new(&bt, free_nodes / g);
		for (i = 0; i <= f.D; i++)
			f.v[i] = 0;
		kd[nkd++] = (struct kind){ f, 1, 0 };
	}
	if (!bt.over)
		top = combine(&bt, kd, nkd);
	if (!bt.over) {
		long hh[2] = { h, n - h }, j;
		bool tight = false;
		if (by_node)
			for (j = 0; j < 2; j++)
				best = fmin(best, hh[j] <= top.D ? top.v[hh[j]] : INFINITY);
		else
			for (i = 0; i <= top.D; i++)
				if (isfinite(top.v[i])) { /* (both halves at once: a least is a least) */
					double c0 = top.v[i] + w * (double)labs(hh[0] - i * g);
					double c1 = top.v[i] + w * (double)labs(hh[1] - i * g);
					best = c0 < best ? c0 : best;
					best = c1 < best ? c1 : best;
				}
		/* With unequal nodes: a least colouring that moves no node costs what it says
		 * (its cut has no node's links in it), so the bound is the minimum. */
		for (j = 0; j < 2 && !by_node && !*uniform; j++)
			if (hh[j] % g == 0 && hh[j] / g <= top.D && top.v[hh[j] / g] <= best * (1 + 1e-12))
				tight = true;
		if (tight)
			*uniform = true;
		*out = best;
	}
done:
	ar_release(&bt);
	free(kd);
	free(bt.c);
	free(bt.slot);
	free(bt.run);
	free(bt.wr);
	return !ok ? BIS_NOTREE : bt.over || !isfinite(best) ? BIS_OVER : BIS_OK;
}

/* Every plane the same tree as plane 0, its capacities all scaled by one factor c_p (the
 * switch groups of plane p matched one to one with those of plane 0, every level of every
 * group with the same blocks): then each split's cut in plane p is c_p times that in
 * plane 0, one split is worst for every plane, and the sum of their minima is exact. */
static bool planes_alike(const struct topo *t, int np)
{
	int *map = xmalloc((size_t)(t->nsw > 0 ? t->nsw : 1) * 2 * sizeof *map), pi, i, lv;
	bool same = true;
	for (pi = 1; pi < np && same; pi++) {
		double c = -1;
		for (i = 0; i < t->nsw * 2; i++)
			map[i] = -1; /* [sw of plane pi] -> sw of plane 0, [nsw + sw of plane 0] -> back */
		for (i = 0; i < t->nplaced && same; i++) {
			const struct topo_ngroup *g = &t->ng[t->order[i]];
			const struct topo_plane *p0, *p;
			double cg;
			if (!g->used)
				continue;
			if (g->nswitch != np) {
				same = false;
				break;
			}
			p0 = &g->plane[0];
			p = &g->plane[pi];
			cg = p0->links > 0 ? (double)p->links / p0->links : 0;
			if (c < 0)
				c = cg;
			if (cg <= 0 || fabs(cg - c) > 1e-12 * c || p->nlevels != p0->nlevels || p->pos != p0->pos)
				same = false;
			for (lv = 0; lv < p->nlevels && same; lv++) {
				const struct topo_level *a = &p0->level[lv], *b = &p->level[lv];
				double ua = level_up(a), ub = level_up(b);
				if (a->size != b->size || a->shift != b->shift || a->modulus != b->modulus || a->base != b->base ||
				    a->order != b->order || topo_rail_groups(a) != topo_rail_groups(b) ||
				    fabs(ub - c * ua) > 1e-9 * (ub + c * ua) || a->sw < 0 || b->sw < 0 || a->sw >= t->nsw ||
				    b->sw >= t->nsw)
					same = false;
				else if ((map[b->sw] >= 0 && map[b->sw] != a->sw) || (map[t->nsw + a->sw] >= 0 && map[t->nsw + a->sw] != b->sw))
					same = false;
				else {
					map[b->sw] = a->sw;
					map[t->nsw + a->sw] = b->sw;
				}
			}
		}
	}
	free(map);
	return same;
}

bool bisect_tree(const struct topo *t, double *GBps, bool *exact)
{
	long n = t->nodes, h = n / 2;
	int i, pi, maxp = 0;
	double sum = 0, work = 0, work_node = 0, v[TOPO_MAX_PLANES] = { 0 };
	bool all_exact = true, ex[TOPO_MAX_PLANES];
	if (n < 2) {
		*GBps = 0;
		*exact = true;
		return true;
	}
	for (i = 0; i < t->nplaced; i++) {
		const struct topo_ngroup *g = &t->ng[t->order[i]];
		if (!g->used)
			continue;
		if (g->nplanes > g->nswitch)
			return false; /* direct links: not a tree */
		if (g->nswitch > maxp)
			maxp = g->nswitch;
	}
	if (maxp > TOPO_MAX_PLANES)
		return false;
	/* Every plane in units (a node moved costs the least node's links), then, for planes of
	 * unequal nodes where that is not tight, by node (exact) if the budget left allows. */
	for (pi = 0; pi < maxp; pi++)
		if (plane_min(t, pi, h, false, &work, &v[pi], &ex[pi]) != BIS_OK)
			return false;
	for (pi = 0; pi < maxp; pi++) {
		double vn;
		bool u;
		if (!ex[pi] && plane_min(t, pi, h, true, &work_node, &vn, &u) == BIS_OK) {
			v[pi] = vn;
			ex[pi] = true;
		}
		all_exact = all_exact && ex[pi];
		sum += v[pi];
	}
	*GBps = sum;
	*exact = sum == 0 || (all_exact && (maxp <= 1 || planes_alike(t, maxp)));
	return true;
}
