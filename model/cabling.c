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

/* Kinds, folding and positions; the ports come after. */
static struct cab_bundle *resolve(const struct design *d, const struct catalog *cat)
{
	size_t n = d->bundles.n, i, k;
	struct cab_bundle *w = xcalloc(n + 1, sizeof *w);
	int *gbps = xcalloc(n + 1, sizeof *gbps);
	long *D = xcalloc(d->switches.n + 1, sizeof *D);
	for (i = 0; i < n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		struct cab_bundle *r = &w[i];
		r->fk = design_find(d, b->from, &r->fi);
		r->tk = design_find(d, b->to, &r->ti);
		r->wiring = b->wiring;
		r->head = i;
		r->n = r->L = b->links_each > 0 ? b->links_each : 1;
		r->to_port = -1;
		gbps[i] = bundle_speed_gbps(d, cat, b);
		if (r->fk == GK_SERVER && r->tk == GK_SWITCH)
			r->kind = BK_UP;
		else if (r->fk == GK_SERVER && r->tk == GK_SERVER && b->wiring == WIRE_MESH)
			r->kind = BK_MESH;
		else if (r->fk == GK_SWITCH && r->tk == GK_SWITCH)
			r->kind = bundle_kind(d, b);
		else
			r->kind = -1;
		if (r->kind < 0)
			continue;
		/* One bundle written in parts: the same ends, wiring, LAG and speed. */
		for (k = 0; k < i; k++) {
			struct cab_bundle *o = &w[k];
			const struct bundle *ob = DESIGN_BUNDLE(d, k);
			if (o->head == k && o->kind >= 0 && o->fk == r->fk && o->fi == r->fi && o->tk == r->tk &&
			    o->ti == r->ti && ob->wiring == b->wiring && ob->lag == b->lag && gbps[k] == gbps[i]) {
				r->head = k;
				r->lo = o->L;
				o->L += r->n;
				break;
			}
		}
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
	for (i = 0; i < n; i++)
		if (w[i].kind == BK_UP)
			w[i].D = D[w[i].ti];
	for (i = 0; i < n; i++)
		if (w[i].head != i) {
			w[i].offset = w[w[i].head].offset;
			w[i].D = w[w[i].head].D;
		}
	free(gbps);
	free(D);
	return w;
}

/* Down ports per member of switch group g: what the up bundles into it land there. */
static void down_use(const struct design *d, const struct cab_bundle *w, size_t g, long *down)
{
	long count = count_of(d, GK_SWITCH, g), j, l, s;
	size_t i;
	for (i = 0; i < d->bundles.n; i++) {
		const struct cab_bundle *r = &w[i];
		long members;
		if (r->kind != BK_UP || r->ti != g || count <= 0)
			continue;
		members = count_of(d, r->fk, r->fi);
		for (j = 0; j < members; j++)
			for (l = r->lo; l < r->lo + r->n; l++) {
				s = cabling_target(r, count, r->offset + j, l);
				if (s >= 0 && s < count)
					down[s]++;
			}
	}
}

struct cab_bundle *cabling_bundles(const struct design *d, const struct catalog *cat)
{
	size_t n = d->bundles.n, i, k;
	struct cab_bundle *w = resolve(d, cat);
	/* Server ports: the group's bundles in order, then mesh bundles into it. */
	for (k = 0; k < d->servers.n; k++) {
		long port = 0;
		for (i = 0; i < n; i++) {
			struct cab_bundle *r = &w[i];
			if (r->head != i || r->fk != GK_SERVER || r->fi != k || r->kind < 0)
				continue;
			r->from_port = port;
			port += r->kind == BK_MESH ? r->L * peers(d, r, true) : r->L;
		}
		for (i = 0; i < n; i++) {
			struct cab_bundle *r = &w[i];
			if (r->head != i || r->kind != BK_MESH || r->ti != k || r->fi == k)
				continue;
			r->to_port = port;
			port += r->L * peers(d, r, false);
		}
	}
	/* Switch up and peer ports: blocks in bundle order after the group's down ports. */
	for (k = 0; k < d->switches.n; k++) {
		long port = 0, s, count = count_of(d, GK_SWITCH, k), *down = xcalloc((size_t)count + 1, sizeof *down);
		down_use(d, w, k, down);
		for (s = 0; s < count; s++)
			if (down[s] > port)
				port = down[s];
		free(down);
		for (i = 0; i < n; i++) {
			struct cab_bundle *r = &w[i];
			if (r->head != i || r->kind < 0 || r->kind == BK_MESH)
				continue;
			if (r->fk == GK_SWITCH && r->fi == k) {
				r->from_port = port;
				port += r->kind == BK_PEER ? r->L * peers(d, r, true) : r->L;
			} else if (r->kind == BK_PEER && r->ti == k) {
				r->to_port = port;
				port += r->L * peers(d, r, false);
			}
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
	return w;
}

void cabling_switch_use(const struct design *d, const struct catalog *cat, size_t g, long **down, long **up)
{
	long count = count_of(d, GK_SWITCH, g), s;
	size_t i;
	struct cab_bundle *w = resolve(d, cat);
	*down = xcalloc((size_t)count + 1, sizeof **down);
	*up = xcalloc((size_t)count + 1, sizeof **up);
	down_use(d, w, g, *down);
	for (i = 0; i < d->bundles.n; i++) {
		const struct cab_bundle *r = &w[i];
		long each = 0;
		if (r->kind < 0 || r->kind == BK_MESH)
			continue;
		if (r->fk == GK_SWITCH && r->fi == g)
			each = r->kind == BK_PEER ? r->n * peers(d, r, true) : r->n;
		else if (r->kind == BK_PEER && r->ti == g)
			each = r->n * peers(d, r, false);
		for (s = 0; s < count; s++)
			(*up)[s] += each;
	}
	free(w);
}

/* Fill a server end: port k of member j of server group gi. False if k is beyond its NICs. */
static bool server_end(const struct design *d, const struct catalog *cat, size_t gi, long j, long k, struct cab_end *e)
{
	const struct server_group *g = DESIGN_SERVER(d, gi);
	size_t i;
	int base = 0, ports = server_compute_ports(g, cat), cages = cabling_server_cages(g, cat);
	memset(e, 0, sizeof *e);
	e->kind = GK_SERVER;
	e->group = gi;
	e->member = j;
	e->nic_spec = -1;
	if (k < 0 || k >= ports)
		return false;
	e->port = (int)k;
	e->cage = cabling_server_cage(g, cat, (int)k);
	e->cage_ports = cages > 0 && ports > cages ? (ports + cages - 1) / cages : 1;
	for (i = 0; i < g->nics.n; i++) {
		const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, i);
		const struct cat_nic *c = catalog_nic(cat, n->model);
		int q;
		if (n->use != NIC_COMPUTE || !c)
			continue;
		q = n->count * c->ports;
		if (k < base + q) {
			e->nic_spec = (int)i;
			e->nic = (int)(k - base) / c->ports;
			e->nic_port = (int)(k - base) % c->ports;
			e->lane = e->nic_port;
			return true;
		}
		base += q;
	}
	return false;
}

static long radix(const struct switch_group *g, const struct cat_switch *c)
{
	return c ? (long)c->ports * (g->breakout > 0 ? g->breakout : 1) : 0;
}

/* Fill a switch end: port p of member j of switch group gi. False beyond its radix. */
static bool switch_end(const struct design *d, const struct catalog *cat, size_t gi, long j, long p, struct cab_end *e)
{
	const struct switch_group *g = DESIGN_SWITCH(d, gi);
	const struct cat_switch *c = catalog_switch(cat, g->model);
	int b = g->breakout > 0 ? g->breakout : 1, per = cabling_switch_cage_ports(g, c);
	memset(e, 0, sizeof *e);
	e->kind = GK_SWITCH;
	e->group = gi;
	e->member = j;
	e->nic_spec = -1;
	if (p < 0 || p >= radix(g, c))
		return false;
	e->port = (int)p;
	e->cage = (int)(p / per);
	e->cage_ports = per;
	e->lane = (int)(p % per) / b;
	e->sub = (int)(p % b);
	return true;
}

static bool fill_end(const struct design *d, const struct catalog *cat, int kind, size_t gi, long j, long port,
		     struct cab_end *e)
{
	return kind == GK_SERVER ? server_end(d, cat, gi, j, port, e) : switch_end(d, cat, gi, j, port, e);
}

struct walker {
	const struct design *d;
	const struct catalog *cat;
	cab_fn fn;
	void *ctx;
	long walked, beyond;
};

static void emit(struct walker *w, size_t bundle, long index, const struct cab_bundle *r, long am, long ap, long bm,
		 long bp)
{
	struct cab_link lk;
	lk.bundle = bundle;
	lk.index = index;
	if (!fill_end(w->d, w->cat, r->fk, r->fi, am, ap, &lk.a) || !fill_end(w->d, w->cat, r->tk, r->ti, bm, bp, &lk.b)) {
		w->beyond++;
		return;
	}
	w->walked++;
	if (w->fn)
		w->fn(&lk, w->ctx);
}

long cabling_walk(const struct design *d, const struct catalog *cat, cab_fn fn, void *ctx, struct ncf_diag *problems)
{
	size_t nsw = d->switches.n, i;
	struct cab_bundle *wb = cabling_bundles(d, cat);
	long **next = xcalloc(nsw + 1, sizeof *next);
	struct walker w = { d, cat, fn, ctx, 0, 0 };
	for (i = 0; i < nsw; i++)
		next[i] = xcalloc((size_t)count_of(d, GK_SWITCH, i) + 1, sizeof **next);
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
	free(next);
	free(wb);
	return w.walked;
}
