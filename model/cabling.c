#include "model/cabling.h"
#include "model/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cabling_switch_cage_ports(const struct switch_group *g, const struct cat_switch *c)
{
	int q = 1, b = g->breakout > 0 ? g->breakout : 1;
	if (c && c->cages > 0 && c->ports >= c->cages)
		q = c->ports / c->cages;
	return q * b;
}

int cabling_server_cages(const struct server_group *g, const struct catalog *cat)
{
	const struct cat_server *s = catalog_server(cat, g->model);
	int ports = server_compute_ports(g, cat);
	if (s && s->nic_cages > 0 && s->nic_cages < ports)
		return s->nic_cages;
	return ports;
}

int cabling_server_cage(const struct server_group *g, const struct catalog *cat, int port)
{
	const struct cat_server *s = catalog_server(cat, g->model);
	int ports = server_compute_ports(g, cat);
	if (s && s->nic_cages > 0 && s->nic_cages < ports)
		return (int)((long)port * s->nic_cages / ports);
	return port;
}

static long count_of(const struct design *d, int kind, size_t i)
{
	long n = kind == GK_SERVER ? DESIGN_SERVER(d, i)->count : kind == GK_SWITCH ? DESIGN_SWITCH(d, i)->count : 0;
	return n > 0 ? n : 0;
}

long cabling_target(const struct cab_bundle *b, long count, long p, long l)
{
	long L = b->L > 0 ? b->L : 1;
	if (count <= 0 || b->kind != BK_UP)
		return -1;
	switch (b->wiring) {
	case WIRE_TOR: {
		long per = (b->D + count - 1) / count;
		return per > 0 ? p / per : -1;
	}
	case WIRE_RAIL: {
		long units = count / L, us;
		if (units < 1)
			return l % count;
		us = (b->D + units - 1) / units;
		return us > 0 ? (p / us) * L + l : -1;
	}
	default:
		return (p * L + l) % count;
	}
}

/* Members of the other end one member of b's from (or to) end is linked to. */
static long peers(const struct design *d, const struct cab_bundle *b, bool from_side)
{
	if (b->fk == b->tk && b->fi == b->ti) {
		long n = count_of(d, b->fk, b->fi);
		return n > 0 ? n - 1 : 0;
	}
	return from_side ? count_of(d, b->tk, b->ti) : count_of(d, b->fk, b->fi);
}

/* The speed of one end, as bundle_speed_gbps takes it (check.c): the slowest compute NIC
 * of a server group, a switch group's port. */
static int end_gbps(const struct design *d, const struct catalog *cat, int kind, size_t i)
{
	size_t k;
	int best = 0;
	if (kind == GK_SERVER) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		for (k = 0; k < g->nics.n; k++) {
			const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
			int s = nic_speed_gbps(n, catalog_nic(cat, n->model));
			if (n->use == NIC_COMPUTE && s > 0 && (best == 0 || s < best))
				best = s;
		}
		return best;
	}
	if (kind == GK_SWITCH) {
		const struct switch_group *sw = DESIGN_SWITCH(d, i);
		return switch_port_gbps(sw, catalog_switch(cat, sw->model));
	}
	return 0;
}

/* Bundles fold into one when they have the same ends, wiring, LAG and speed: their key. */
struct fold_key {
	int fk, tk, wiring, lag, gbps;
	size_t fi, ti, index;
};

static int fold_order(const void *p, const void *q)
{
	const struct fold_key *x = p, *y = q;
#define CMP(u, v) \
	if ((u) != (v)) \
		return (u) < (v) ? -1 : 1
	CMP(x->fk, y->fk);
	CMP(x->fi, y->fi);
	CMP(x->tk, y->tk);
	CMP(x->ti, y->ti);
	CMP(x->wiring, y->wiring);
	CMP(x->lag, y->lag);
	CMP(x->gbps, y->gbps);
	CMP(x->index, y->index);
#undef CMP
	return 0;
}

static bool same_fold(const struct fold_key *x, const struct fold_key *y)
{
	return x->fk == y->fk && x->fi == y->fi && x->tk == y->tk && x->ti == y->ti && x->wiring == y->wiring &&
	       x->lag == y->lag && x->gbps == y->gbps;
}

/* Kinds, folding and positions; the ports come after. */
static struct cab_bundle *resolve(const struct design *d, const struct catalog *cat)
{
	size_t n = d->bundles.n, i, k;
	struct cab_bundle *w = xcalloc(n + 1, sizeof *w);
	long *D = xcalloc(d->switches.n + 1, sizeof *D);
	int *srv_gbps = xcalloc(d->servers.n + 1, sizeof *srv_gbps), *sw_gbps = xcalloc(d->switches.n + 1, sizeof *sw_gbps);
	for (i = 0; i < d->servers.n; i++)
		srv_gbps[i] = end_gbps(d, cat, GK_SERVER, i);
	for (i = 0; i < d->switches.n; i++)
		sw_gbps[i] = end_gbps(d, cat, GK_SWITCH, i);
	for (i = 0; i < n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		struct cab_bundle *r = &w[i];
		int a, z;
		r->fk = design_find(d, b->from, &r->fi); /* one hash index for every lookup (design.c) */
		r->tk = design_find(d, b->to, &r->ti);
		r->wiring = b->wiring;
		r->head = i;
		r->n = r->L = b->links_each > 0 ? b->links_each : 1;
		r->to_port = -1;
		a = r->fk == GK_SERVER ? srv_gbps[r->fi] : r->fk == GK_SWITCH ? sw_gbps[r->fi] : 0;
		z = r->tk == GK_SERVER ? srv_gbps[r->ti] : r->tk == GK_SWITCH ? sw_gbps[r->ti] : 0;
		r->gbps = b->speed_gbps ? b->speed_gbps : a && z ? (a < z ? a : z) : a ? a : z;
		if (r->fk == GK_SERVER && r->tk == GK_SWITCH)
			r->kind = BK_UP;
		else if (r->fk == GK_SERVER && r->tk == GK_SERVER && b->wiring == WIRE_MESH)
			r->kind = BK_MESH;
		else if (r->fk == GK_SWITCH && r->tk == GK_SWITCH)
			r->kind = DESIGN_SWITCH(d, r->fi)->role >= DESIGN_SWITCH(d, r->ti)->role ? BK_PEER : BK_UP;
		else
			r->kind = -1;
	}
	/* One bundle written in parts: the same ends, wiring, LAG and speed. Sorted by that
	 * key (then by index), each run of equals folds into its first bundle, in design order. */
	{
		struct fold_key *key = xcalloc(n + 1, sizeof *key);
		size_t m = 0;
		for (i = 0; i < n; i++) {
			const struct bundle *b = DESIGN_BUNDLE(d, i);
			if (w[i].kind >= 0)
				key[m++] = (struct fold_key){ w[i].fk, w[i].tk, b->wiring, b->lag, w[i].gbps, w[i].fi, w[i].ti, i };
		}
		if (m > 1)
			qsort(key, m, sizeof *key, fold_order);
		for (i = 0; i < m; i = k) {
			size_t h = key[i].index;
			for (k = i + 1; k < m && same_fold(&key[i], &key[k]); k++) {
				struct cab_bundle *r = &w[key[k].index];
				r->head = h;
				r->lo = w[h].L;
				w[h].L += r->n;
			}
		}
		free(key);
	}
	for (i = 0; i < n; i++) {
		struct cab_bundle *r = &w[i];
		if (r->head != i) {
			r->L = w[r->head].L;
			continue;
		}
		if (r->kind == BK_UP) {
			r->offset = D[r->ti];
			D[r->ti] += count_of(d, r->fk, r->fi);
		}
	}
	for (i = 0; i < n; i++) {
		if (w[i].head != i) {
			w[i].offset = w[w[i].head].offset;
		}
		if (w[i].kind == BK_UP)
			w[i].D = D[w[i].ti];
	}
	free(D);
	free(srv_gbps);
	free(sw_gbps);
	return w;
}

/* Down ports of every switch: what the up bundles into each group land on each member. */
static long **down_use(const struct design *d, const struct cab_bundle *w)
{
	long **down = xcalloc(d->switches.n + 1, sizeof *down), j, l, s;
	size_t i;
	for (i = 0; i < d->switches.n; i++)
		down[i] = xcalloc((size_t)count_of(d, GK_SWITCH, i) + 1, sizeof **down);
	for (i = 0; i < d->bundles.n; i++) {
		const struct cab_bundle *r = &w[i];
		long members, count;
		if (r->kind != BK_UP)
			continue;
		count = count_of(d, GK_SWITCH, r->ti);
		members = count_of(d, r->fk, r->fi);
		if (count <= 0)
			continue;
		for (j = 0; j < members; j++)
			for (l = r->lo; l < r->lo + r->n; l++) {
				s = cabling_target(r, count, r->offset + j, l);
				if (s >= 0 && s < count)
					down[r->ti][s]++;
			}
	}
	return down;
}

/* Up and peer ports one switch of each group uses. */
static long *up_use(const struct design *d, const struct cab_bundle *w)
{
	long *up = xcalloc(d->switches.n + 1, sizeof *up);
	size_t i;
	for (i = 0; i < d->bundles.n; i++) {
		const struct cab_bundle *r = &w[i];
		if (r->kind < 0 || r->kind == BK_MESH)
			continue;
		if (r->fk == GK_SWITCH)
			up[r->fi] += r->kind == BK_PEER ? r->n * peers(d, r, true) : r->n;
		if (r->kind == BK_PEER && !(r->tk == r->fk && r->ti == r->fi))
			up[r->ti] += r->n * peers(d, r, false);
	}
	return up;
}

struct cab_bundle *cabling_bundles(const struct design *d, const struct catalog *cat)
{
	size_t n = d->bundles.n, i;
	struct cab_bundle *w = resolve(d, cat);
	long *srv_port = xcalloc(d->servers.n + 1, sizeof *srv_port), *sw_port = xcalloc(d->switches.n + 1, sizeof *sw_port);
	long **down = down_use(d, w);
	/* Server ports: the group's bundles in order, then mesh bundles into it. */
	for (i = 0; i < n; i++) {
		struct cab_bundle *r = &w[i];
		if (r->head != i || r->fk != GK_SERVER || r->kind < 0)
			continue;
		r->from_port = srv_port[r->fi];
		srv_port[r->fi] += r->kind == BK_MESH ? r->L * peers(d, r, true) : r->L;
	}
	for (i = 0; i < n; i++) {
		struct cab_bundle *r = &w[i];
		if (r->head != i || r->kind != BK_MESH || r->ti == r->fi)
			continue;
		r->to_port = srv_port[r->ti];
		srv_port[r->ti] += r->L * peers(d, r, false);
	}
	/* Switch up and peer ports: blocks in bundle order after the group's down ports. */
	for (i = 0; i < d->switches.n; i++) {
		long s, count = count_of(d, GK_SWITCH, i);
		for (s = 0; s < count; s++)
			if (down[i][s] > sw_port[i])
				sw_port[i] = down[i][s];
		free(down[i]);
	}
	free(down);
	for (i = 0; i < n; i++) {
		struct cab_bundle *r = &w[i];
		if (r->head != i || r->kind < 0 || r->kind == BK_MESH)
			continue;
		if (r->fk == GK_SWITCH) {
			r->from_port = sw_port[r->fi];
			sw_port[r->fi] += r->kind == BK_PEER ? r->L * peers(d, r, true) : r->L;
		}
		if (r->kind == BK_PEER && !(r->tk == r->fk && r->ti == r->fi)) {
			r->to_port = sw_port[r->ti];
			sw_port[r->ti] += r->L * peers(d, r, false);
		}
	}
	/* Parts: their links follow the head's first ones. */
	for (i = 0; i < n; i++) {
		struct cab_bundle *r = &w[i], *h = &w[w[i].head];
		if (r->head == i)
			continue;
		r->from_port = h->from_port + r->lo;
		r->to_port = h->to_port >= 0 ? h->to_port + r->lo : -1;
	}
	free(srv_port);
	free(sw_port);
	return w;
}

void cabling_ports(const struct design *d, const struct cab_bundle *wb, long ***down, long **up)
{
	*down = down_use(d, wb);
	*up = up_use(d, wb);
}

void cabling_switch_use(const struct design *d, const struct catalog *cat, size_t g, long **down, long **up)
{
	long count = count_of(d, GK_SWITCH, g), s, **dn, *upe;
	size_t i;
	struct cab_bundle *w = resolve(d, cat);
	cabling_ports(d, w, &dn, &upe);
	*down = dn[g];
	*up = xcalloc((size_t)count + 1, sizeof **up);
	for (s = 0; s < count; s++)
		(*up)[s] = upe[g];
	for (i = 0; i < d->switches.n; i++)
		if (i != g)
			free(dn[i]);
	free(dn);
	free(upe);
	free(w);
}

/* ---- the walk ------------------------------------------------------------------------ */

/* What one server group's compute ports are (the same on every member). */
struct srv_ports {
	int ports, cages, cage_ports;
	int *cage, *spec, *nic, *nic_port; /* per port */
};

struct sw_ports {
	long radix;
	int per, breakout;
};

struct walker {
	const struct design *d;
	cab_fn fn;
	void *ctx;
	struct srv_ports *srv;
	struct sw_ports *sw;
	long walked, beyond;
};

static void srv_ports_init(const struct server_group *g, const struct catalog *cat, struct srv_ports *o)
{
	size_t i;
	int base = 0, k;
	memset(o, 0, sizeof *o);
	o->ports = server_compute_ports(g, cat);
	o->cages = cabling_server_cages(g, cat);
	o->cage_ports = o->cages > 0 && o->ports > o->cages ? (o->ports + o->cages - 1) / o->cages : 1;
	o->cage = xcalloc((size_t)o->ports + 1, sizeof *o->cage);
	o->spec = xcalloc((size_t)o->ports + 1, sizeof *o->spec);
	o->nic = xcalloc((size_t)o->ports + 1, sizeof *o->nic);
	o->nic_port = xcalloc((size_t)o->ports + 1, sizeof *o->nic_port);
	for (k = 0; k < o->ports; k++) {
		o->cage[k] = cabling_server_cage(g, cat, k);
		o->spec[k] = -1;
	}
	for (i = 0; i < g->nics.n; i++) {
		const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, i);
		const struct cat_nic *c = catalog_nic(cat, n->model);
		if (n->use != NIC_COMPUTE || !c)
			continue;
		for (k = 0; k < n->count * c->ports && base + k < o->ports; k++) {
			o->spec[base + k] = (int)i;
			o->nic[base + k] = k / c->ports;
			o->nic_port[base + k] = k % c->ports;
		}
		base += n->count * c->ports;
	}
}

static void srv_ports_free(struct srv_ports *o)
{
	free(o->cage);
	free(o->spec);
	free(o->nic);
	free(o->nic_port);
}

/* Fill an end: port p of member j of group gi. False beyond the device's ports. */
static bool fill_end(const struct walker *w, int kind, size_t gi, long j, long p, struct cab_end *e)
{
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->group = gi;
	e->member = j;
	e->nic_spec = -1;
	if (kind == GK_SERVER) {
		const struct srv_ports *o = &w->srv[gi];
		if (p < 0 || p >= o->ports || o->spec[p] < 0)
			return false;
		e->port = (int)p;
		e->cage = o->cage[p];
		e->cage_ports = o->cage_ports;
		e->nic_spec = o->spec[p];
		e->nic = o->nic[p];
		e->nic_port = o->nic_port[p];
		e->lane = e->nic_port;
		return true;
	} else {
		const struct sw_ports *o = &w->sw[gi];
		if (p < 0 || p >= o->radix)
			return false;
		e->port = (int)p;
		e->cage = (int)(p / o->per);
		e->cage_ports = o->per;
		e->lane = (int)(p % o->per) / o->breakout;
		e->sub = (int)(p % o->breakout);
		return true;
	}
}

static void emit(struct walker *w, size_t bundle, long index, const struct cab_bundle *r, long am, long ap, long bm,
		 long bp)
{
	struct cab_link lk;
	lk.bundle = bundle;
	lk.index = index;
	if (!fill_end(w, r->fk, r->fi, am, ap, &lk.a) || !fill_end(w, r->tk, r->ti, bm, bp, &lk.b)) {
		w->beyond++;
		return;
	}
	w->walked++;
	if (w->fn)
		w->fn(&lk, w->ctx);
}

long cabling_walk(const struct design *d, const struct catalog *cat, cab_fn fn, void *ctx, struct ncf_diag *problems)
{
	struct cab_bundle *wb = cabling_bundles(d, cat);
	long n = cabling_walk_with(d, cat, wb, fn, ctx, problems);
	free(wb);
	return n;
}

long cabling_walk_with(const struct design *d, const struct catalog *cat, const struct cab_bundle *wb, cab_fn fn,
		       void *ctx, struct ncf_diag *problems)
{
	size_t nsw = d->switches.n, i;
	long **next = xcalloc(nsw + 1, sizeof *next);
	struct walker w = { d, fn, ctx, NULL, NULL, 0, 0 };
	w.srv = xcalloc(d->servers.n + 1, sizeof *w.srv);
	w.sw = xcalloc(nsw + 1, sizeof *w.sw);
	for (i = 0; i < d->servers.n; i++)
		srv_ports_init(DESIGN_SERVER(d, i), cat, &w.srv[i]);
	for (i = 0; i < nsw; i++) {
		const struct switch_group *g = DESIGN_SWITCH(d, i);
		const struct cat_switch *c = catalog_switch(cat, g->model);
		w.sw[i].breakout = g->breakout > 0 ? g->breakout : 1;
		w.sw[i].radix = c ? (long)c->ports * w.sw[i].breakout : 0;
		w.sw[i].per = cabling_switch_cage_ports(g, c);
		next[i] = xcalloc((size_t)count_of(d, GK_SWITCH, i) + 1, sizeof **next);
	}
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		const struct cab_bundle *r = &wb[i];
		long nf = count_of(d, r->fk, r->fi), nt = count_of(d, r->tk, r->ti), j, k, l, idx = 0, nowhere = 0,
		     all = 0;
		char path[64];
		if (r->kind < 0)
			continue;
		w.beyond = 0;
		if (r->kind == BK_UP) {
			all = nf * r->n;
			for (j = 0; j < nf; j++)
				for (l = 0; l < r->n; l++) {
					long s = cabling_target(r, nt, r->offset + j, r->lo + l);
					if (s < 0 || s >= nt) {
						nowhere++;
						continue;
					}
					emit(&w, i, j * r->L + r->lo + l, r, j, r->from_port + l, s, next[r->ti][s]++);
				}
		} else {
			/* Peer and mesh: every pair, L links each (within one group, every pair once,
			 * the lower member first). idx numbers the pairs. */
			bool self = r->fk == r->tk && r->fi == r->ti;
			for (j = 0; j < nf; j++)
				for (k = self ? j + 1 : 0; k < nt; k++, idx++)
					for (l = 0; l < r->n; l++, all++)
						emit(&w, i, idx * r->L + r->lo + l, r, j,
						     r->from_port + (self ? k - 1 : k) * r->L + l, k,
						     (self ? r->from_port : r->to_port) + j * r->L + l);
		}
		snprintf(path, sizeof path, "bundles[%zu]", i);
		if (problems && nowhere)
			diag_add(problems, NCF_ERROR, path, "%s -> %s: %ld of %ld links land on no switch (%s has %ld)",
				 b->from, b->to, nowhere, all, b->to, nt);
		if (problems && w.beyond)
			diag_add(problems, NCF_ERROR, path, "%s -> %s: %ld of %ld links need a port beyond what the devices have",
				 b->from, b->to, w.beyond, all);
	}
	for (i = 0; i < nsw; i++)
		free(next[i]);
	for (i = 0; i < d->servers.n; i++)
		srv_ports_free(&w.srv[i]);
	free(next);
	free(w.srv);
	free(w.sw);
	return w.walked;
}
