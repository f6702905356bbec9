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

/* The switch (0-based) link l of the member at position p lands on, or -1. */
static long target(int wiring, long p, long l, long L, long total, long count)
{
	long s;
	if (count <= 0 || total <= 0)
		return -1;
	if (wiring == WIRE_TOR) {
		long per = (total + count - 1) / count;
		s = p / per;
	} else if (wiring == WIRE_RAIL) {
		long units = count / L, us;
		if (units < 1)
			units = 1;
		us = (total + units - 1) / units;
		s = (p / us) * L + l;
	} else {
		s = (p * L + l) % count;
	}
	return s < count ? s : -1;
}

/* Position offset of bundle i's from group among the members bundled into its switch
 * group, and the total of those members. */
static void into_offset(const struct design *d, size_t i, long *off, long *total)
{
	const struct bundle *b = DESIGN_BUNDLE(d, i);
	size_t k;
	*off = *total = 0;
	for (k = 0; k < d->bundles.n; k++) {
		const struct bundle *o = DESIGN_BUNDLE(d, k);
		long n;
		if (strcmp(o->to, b->to) != 0)
			continue;
		n = design_group_count(d, o->from);
		if (k < i)
			*off += n;
		*total += n;
	}
}

void cabling_switch_use(const struct design *d, size_t g, long **down, long **up)
{
	const struct switch_group *sw = DESIGN_SWITCH(d, g);
	long count = sw->count > 0 ? sw->count : 0, j, l, s;
	size_t i;
	*down = xcalloc((size_t)count + 1, sizeof **down);
	*up = xcalloc((size_t)count + 1, sizeof **up);
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		if (strcmp(b->from, sw->name) == 0) {
			for (s = 0; s < count; s++)
				(*up)[s] += b->links_each;
		} else if (strcmp(b->to, sw->name) == 0 && count > 0) {
			long off, total, members = design_group_count(d, b->from), L = b->links_each;
			into_offset(d, i, &off, &total);
			for (j = 0; j < members; j++) {
				if (b->wiring == WIRE_TOR) {
					s = target(b->wiring, off + j, 0, L, total, count);
					if (s >= 0)
						(*down)[s] += L;
					continue;
				}
				for (l = 0; l < L; l++) {
					s = target(b->wiring, off + j, l, L, total, count);
					if (s >= 0)
						(*down)[s]++;
				}
			}
		}
	}
}

/* Fill a server end: port k of member j of server group gi. False if k is beyond its NICs. */
static bool server_end(const struct design *d, const struct catalog *cat, size_t gi, long j, int k, struct cab_end *e)
{
	const struct server_group *g = DESIGN_SERVER(d, gi);
	size_t i;
	int base = 0;
	memset(e, 0, sizeof *e);
	e->kind = GK_SERVER;
	e->group = gi;
	e->member = j;
	e->port = k;
	e->nic_spec = -1;
	e->cage = cabling_server_cage(g, cat, k);
	e->cage_ports = 1;
	{
		int ports = server_compute_ports(g, cat), cages = cabling_server_cages(g, cat);
		if (cages > 0 && ports > cages)
			e->cage_ports = (ports + cages - 1) / cages;
	}
	for (i = 0; i < g->nics.n; i++) {
		const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, i);
		const struct cat_nic *c = catalog_nic(cat, n->model);
		int q;
		if (n->use != NIC_COMPUTE || !c)
			continue;
		q = n->count * c->ports;
		if (k < base + q) {
			e->nic_spec = (int)i;
			e->nic = (k - base) / c->ports;
			e->nic_port = (k - base) % c->ports;
			e->lane = e->nic_port;
			return true;
		}
		base += q;
	}
	return false;
}

static void switch_end(const struct design *d, const struct catalog *cat, size_t gi, long j, int p, struct cab_end *e)
{
	const struct switch_group *g = DESIGN_SWITCH(d, gi);
	int b = g->breakout > 0 ? g->breakout : 1, per = cabling_switch_cage_ports(g, catalog_switch(cat, g->model));
	memset(e, 0, sizeof *e);
	e->kind = GK_SWITCH;
	e->group = gi;
	e->member = j;
	e->port = p;
	e->cage = p / per;
	e->cage_ports = per;
	e->lane = (p % per) / b;
	e->sub = p % b;
	e->nic_spec = -1;
}

static long radix(const struct switch_group *g, const struct cat_switch *c)
{
	return c ? (long)c->ports * (g->breakout > 0 ? g->breakout : 1) : 0;
}

long cabling_walk(const struct design *d, const struct catalog *cat, cab_fn fn, void *ctx, struct ncf_diag *problems)
{
	size_t nsw = d->switches.n, i, k;
	long **next = xcalloc(nsw + 1, sizeof *next), *upbase = xcalloc(nsw + 1, sizeof *upbase), walked = 0;
	for (i = 0; i < nsw; i++) {
		long *down, *up, s, count = DESIGN_SWITCH(d, i)->count;
		cabling_switch_use(d, i, &down, &up);
		for (s = 0; s < count; s++)
			if (down[s] > upbase[i])
				upbase[i] = down[s];
		free(down);
		free(up);
		next[i] = xcalloc((size_t)(count > 0 ? count : 0) + 1, sizeof **next);
	}
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		size_t fi, ti;
		enum group_kind fk = design_find(d, b->from, &fi), tk = design_find(d, b->to, &ti);
		long members, count, off, total, j, l, L = b->links_each, nowhere = 0, beyond = 0, from_off = 0;
		const struct switch_group *to;
		const struct cat_switch *tc;
		long to_radix;
		int from_ports = 0;
		char path[64];
		if ((fk != GK_SERVER && fk != GK_SWITCH) || tk != GK_SWITCH)
			continue;
		to = DESIGN_SWITCH(d, ti);
		tc = catalog_switch(cat, to->model);
		to_radix = radix(to, tc);
		members = design_group_count(d, b->from);
		count = to->count;
		into_offset(d, i, &off, &total);
		for (k = 0; k < i; k++)
			if (strcmp(DESIGN_BUNDLE(d, k)->from, b->from) == 0)
				from_off += DESIGN_BUNDLE(d, k)->links_each;
		if (fk == GK_SERVER)
			from_ports = server_compute_ports(DESIGN_SERVER(d, fi), cat);
		else
			from_off += upbase[fi];
		for (j = 0; j < members; j++)
			for (l = 0; l < L; l++) {
				struct cab_link lk;
				long s = target(b->wiring, off + j, l, L, total, count), port;
				if (s < 0) {
					nowhere++;
					continue;
				}
				port = next[ti][s]++;
				if (port >= to_radix) {
					beyond++;
					continue;
				}
				lk.bundle = i;
				lk.index = j * L + l;
				if (fk == GK_SERVER) {
					if (from_off + l >= from_ports ||
					    !server_end(d, cat, fi, j, (int)(from_off + l), &lk.a)) {
						beyond++;
						continue;
					}
				} else {
					const struct switch_group *fg = DESIGN_SWITCH(d, fi);
					if (from_off + l >= radix(fg, catalog_switch(cat, fg->model))) {
						beyond++;
						continue;
					}
					switch_end(d, cat, fi, j, (int)(from_off + l), &lk.a);
				}
				switch_end(d, cat, ti, s, (int)port, &lk.b);
				walked++;
				if (fn)
					fn(&lk, ctx);
			}
		snprintf(path, sizeof path, "bundles[%zu]", i);
		if (problems && nowhere)
			diag_add(problems, NCF_ERROR, path, "%s -> %s: %ld of %ld links land on no switch (%s has %ld; %s wiring of %ld links each)",
				 b->from, b->to, nowhere, members * L, b->to, count, wiring_names[b->wiring], L);
		if (problems && beyond)
			diag_add(problems, NCF_ERROR, path, "%s -> %s: %ld of %ld links need a port beyond what the devices have",
				 b->from, b->to, beyond, members * L);
	}
	for (i = 0; i < nsw; i++)
		free(next[i]);
	free(next);
	free(upbase);
	return walked;
}
