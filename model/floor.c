#include "model/floor.h"
#include "model/alloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const rack_kind_names[] = { "server", "domain", "network", NULL };

#define DEFAULT_UNITS 42
#define DEFAULT_KW 40.0
#define DEFAULT_ROW 10
#define ASSUMED_SERVER_U 4

void floor_member_name(char *out, size_t size, const char *group, long count, long member)
{
	int w = count >= 100000 ? 6 : count >= 10000 ? 5 : count >= 1000 ? 4 : count >= 100 ? 3 : 2;
	snprintf(out, size, "%.46s-%0*ld", group, w, member + 1);
}

static void note(struct floor *f, const char *s)
{
	size_t n = strlen(f->note);
	if (strstr(f->note, s))
		return;
	snprintf(f->note + n, sizeof f->note - n, "%s%s", n ? "; " : "", s);
}

/* A device waiting for a place in a network rack. */
struct pending {
	int kind;        /* GK_SWITCH */
	size_t group;
	long member;
	int row, cluster; /* cluster: RP_MIDDLE or RP_END */
	int height;
	double power_W;
};

/* A server rack (or domain rack) before rows are known. */
/* A device by group and member: named only when a rack's first and last are written. */
struct devref {
	int kind;        /* GK_SERVER or GK_SWITCH; GK_NONE: none yet */
	size_t group;
	long member;
};

static void devref_name(const struct design *d, const struct devref *r, char *out, size_t size)
{
	if (r->kind == GK_SERVER)
		floor_member_name(out, size, DESIGN_SERVER(d, r->group)->name, DESIGN_SERVER(d, r->group)->count, r->member);
	else if (r->kind == GK_SWITCH)
		floor_member_name(out, size, DESIGN_SWITCH(d, r->group)->name, DESIGN_SWITCH(d, r->group)->count, r->member);
	else
		out[0] = '\0';
}

struct srack {
	int kind;
	int units_used;
	double power_W;
	int devices;
	struct devref first, last;
	int index;       /* final index in f->racks */
};

static double switch_power(const struct cat_switch *c)
{
	if (!c)
		return 0;
	return c->power_max_W > 0 ? c->power_max_W : c->power_W;
}

static int switch_height(const struct cat_switch *c, struct floor *f)
{
	if (c && c->rack_units > 0)
		return (int)ceil(c->rack_units);
	note(f, "a switch's height is not in the catalog: 1U assumed");
	return 1;
}

/* The bundles the layout asks about, found once: per switch group the server bundles up
 * into it (in design order), per server group its first rail-wired bundle up. */
struct bindex {
	size_t *start, *into;   /* into[start[g] .. start[g+1]) */
	long *rail_first;       /* per server group, -1 when none */
};

static void bindex_build(const struct design *d, const struct cab_bundle *wb, struct bindex *x)
{
	size_t i, nsw = d->switches.n, *fill = xcalloc(nsw + 1, sizeof *fill);
	x->start = xcalloc(nsw + 2, sizeof *x->start);
	x->into = xcalloc(d->bundles.n + 1, sizeof *x->into);
	x->rail_first = xcalloc(d->servers.n + 1, sizeof *x->rail_first);
	for (i = 0; i < d->servers.n; i++)
		x->rail_first[i] = -1;
	for (i = 0; i < d->bundles.n; i++) {
		const struct cab_bundle *r = &wb[i];
		if (r->kind != BK_UP || r->fk != GK_SERVER)
			continue;
		x->start[r->ti + 1]++;
		if (r->wiring == WIRE_RAIL && x->rail_first[r->fi] < 0)
			x->rail_first[r->fi] = (long)i;
	}
	for (i = 1; i <= nsw; i++)
		x->start[i] += x->start[i - 1];
	for (i = 0; i < d->bundles.n; i++) {
		const struct cab_bundle *r = &wb[i];
		if (r->kind == BK_UP && r->fk == GK_SERVER)
			x->into[x->start[r->ti] + fill[r->ti]++] = i;
	}
	free(fill);
}

static void bindex_free(struct bindex *x)
{
	free(x->start);
	free(x->into);
	free(x->rail_first);
}

/* For every member of switch group g, the (server group, member) of the first server
 * wired to it, or group -1. */
static void first_servers(const struct design *d, const struct cab_bundle *wb, const struct bindex *x, size_t g,
			  long *sgrp, long *smem)
{
	long count = DESIGN_SWITCH(d, g)->count, s, j, l;
	size_t k;
	for (s = 0; s < count; s++)
		sgrp[s] = smem[s] = -1;
	for (k = x->start[g]; k < x->start[g + 1]; k++) {
		const struct cab_bundle *r = &wb[x->into[k]];
		long members = DESIGN_SERVER(d, r->fi)->count;
		for (j = 0; j < members; j++)
			for (l = r->lo; l < r->lo + r->n; l++) {
				long t = cabling_target(r, count, r->offset + j, l);
				if (t >= 0 && t < count && sgrp[t] < 0) {
					sgrp[t] = (long)r->fi;
					smem[t] = j;
				}
			}
	}
}

/* The scalable unit of server group gi: the members behind one set of rail leaves of its
 * first rail-wired bundle (0 when it has none), and the group's position offset there. */
static long rail_unit(const struct design *d, const struct cab_bundle *wb, const struct bindex *x, size_t gi, long *off)
{
	const struct cab_bundle *r;
	long units;
	*off = 0;
	if (x->rail_first[gi] < 0)
		return 0;
	r = &wb[x->rail_first[gi]];
	*off = r->offset;
	units = DESIGN_SWITCH(d, r->ti)->count / (r->L > 0 ? r->L : 1);
	if (units < 1)
		units = 1;
	return (r->D + units - 1) / units;
}

/* Is every server bundle into switch group g top-of-rack wired (and is there one)? */
static bool fed_tor(const struct cab_bundle *wb, const struct bindex *x, size_t g)
{
	size_t k;
	for (k = x->start[g]; k < x->start[g + 1]; k++)
		if (wb[x->into[k]].wiring != WIRE_TOR)
			return false;
	return x->start[g + 1] > x->start[g];
}

static int group_place(const struct floor *f, const struct switch_group *sw, bool tor)
{
	int p = f->place[sw->role];
	if (sw->role == ROLE_LEAF)
		return p == RP_AUTO ? (tor ? RP_TOP : RP_MIDDLE) : p;
	return p == RP_AUTO || p == RP_TOP ? RP_MIDDLE : p;
}

/* Servers of group g per rack from the rack's units and power budget, with tor_leaves
 * top-of-rack switches (of height lu and power lp) to share the racks with. */
static int derive_spr(const struct floor *f, long count, int su, double sp, long tor_leaves, int lu, double lp)
{
	int U = f->p.rack_units, spr;
	double P = f->p.rack_power_kW * 1000;
	for (spr = U / (su > 0 ? su : 1); spr > 1; spr--) {
		long racks = (count + spr - 1) / spr, t = racks > 0 ? (tor_leaves + racks - 1) / racks : 0;
		if (spr * su + t * lu > U)
			continue;
		if (sp > 0 && spr * sp + t * lp > P)
			continue;
		break;
	}
	return spr < 1 ? 1 : spr;
}

static int lay_servers(struct floor *f, const struct design *d, struct vec *sracks, size_t first, size_t a, size_t b,
		       int row, int pos)
{
	size_t r;
	for (r = a; r < b; r++) {
		struct srack *sr = &VEC_AT(*sracks, struct srack, first + r);
		struct floor_rack *fr = vec_push(&f->racks, sizeof *fr);
		fr->row = row;
		fr->pos = pos++;
		fr->kind = sr->kind;
		fr->units_used = sr->units_used;
		fr->power_W = sr->power_W;
		fr->devices = sr->devices;
		devref_name(d, &sr->first, fr->first, sizeof fr->first);
		devref_name(d, &sr->last, fr->last, sizeof fr->last);
		snprintf(fr->name, sizeof fr->name, "R%02d-%02d", row + 1, fr->pos + 1);
		sr->index = (int)f->racks.n - 1;
	}
	return pos;
}

/* Network racks of one cluster of a row, switches stacked from the top down. at lists the
 * pending devices of each (row, cluster) in order (see pending_buckets). */
struct buckets {
	size_t *start;   /* per row * 2 + cluster: first index in order */
	size_t *order;   /* indices into pend */
	int rows;
};

static void pending_buckets(const struct vec *pend, int rows, struct buckets *b)
{
	size_t i, nb = (size_t)(rows > 0 ? rows : 0) * 2, *fill;
	b->rows = rows;
	b->start = xcalloc(nb + 2, sizeof *b->start);
	b->order = xcalloc(pend->n + 1, sizeof *b->order);
	fill = xcalloc(nb + 2, sizeof *fill);
	for (i = 0; i < pend->n; i++) {
		const struct pending *pd = &VEC_AT(*pend, struct pending, i);
		if (pd->row >= 0 && pd->row < rows)
			b->start[(size_t)pd->row * 2 + (pd->cluster == RP_END) + 1]++;
	}
	for (i = 1; i <= nb; i++)
		b->start[i] += b->start[i - 1];
	for (i = 0; i < pend->n; i++) {
		const struct pending *pd = &VEC_AT(*pend, struct pending, i);
		size_t k;
		if (pd->row < 0 || pd->row >= rows)
			continue;
		k = (size_t)pd->row * 2 + (pd->cluster == RP_END);
		b->order[b->start[k] + fill[k]++] = i;
	}
	free(fill);
}

static int lay_network(struct floor *f, const struct design *d, const struct vec *pend, const struct buckets *at, int row,
		       int cluster, int pos)
{
	size_t k = (size_t)row * 2 + (cluster == RP_END), oi;
	int U = f->p.rack_units, used = U;
	struct floor_rack *fr = NULL;
	struct devref last = { GK_NONE, 0, 0 };
	if (row < 0 || row >= at->rows)
		return pos;
	for (oi = at->start[k]; oi < at->start[k + 1]; oi++) {
		const struct pending *pd = &VEC_AT(*pend, struct pending, at->order[oi]);
		struct floor_spot *sp;
		if (!fr || used + pd->height > U) {
			if (fr)
				devref_name(d, &last, fr->last, sizeof fr->last);
			fr = vec_push(&f->racks, sizeof *fr);
			fr->row = row;
			fr->pos = pos++;
			fr->kind = RACK_NETWORK;
			snprintf(fr->name, sizeof fr->name, "R%02d-%02d", row + 1, fr->pos + 1);
			used = 0;
		}
		sp = &f->sw[pd->group][pd->member];
		sp->rack = (int)f->racks.n - 1;
		sp->height = pd->height;
		sp->u = U - used - pd->height + 1;
		if (sp->u < 1)
			sp->u = 1;
		used += pd->height;
		fr->units_used = used;
		fr->power_W += pd->power_W;
		last = (struct devref){ GK_SWITCH, pd->group, pd->member };
		if (!fr->devices++)
			devref_name(d, &last, fr->first, sizeof fr->first);
	}
	if (fr)
		devref_name(d, &last, fr->last, sizeof fr->last);
	return pos;
}

void floor_build(const struct design *d, const struct catalog *cat, struct floor *f)
{
	struct vec sracks = { 0 }, pend = { 0 };
	size_t i;
	long *sgrp = NULL, *smem = NULL;
	int *leaf_place;
	int U, row;
	int *tor_used; /* per server rack: units its top-of-rack switches take */
	int rpr = 0;
	struct cab_bundle *wb;
	struct bindex bx;
	struct buckets pend_at;
	memset(f, 0, sizeof *f);
	wb = cabling_bundles(d, cat);
	bindex_build(d, wb, &bx);
	f->p = d->physical;
	if (f->p.rack_units <= 0)
		f->p.rack_units = DEFAULT_UNITS;
	if (f->p.rack_power_kW <= 0)
		f->p.rack_power_kW = DEFAULT_KW;
	if (f->p.rack_width_m <= 0)
		f->p.rack_width_m = 0.6;
	if (f->p.row_pitch_m <= 0)
		f->p.row_pitch_m = 2.4;
	if (f->p.riser_m <= 0)
		f->p.riser_m = 0.5;
	if (f->p.slack_m <= 0)
		f->p.slack_m = 0.5;
	f->place[ROLE_LEAF] = f->p.leaf;
	f->place[ROLE_SPINE] = f->p.spine;
	f->place[ROLE_CORE] = f->p.core;
	if (f->p.spine == RP_TOP || f->p.core == RP_TOP)
		note(f, "spines and core switches stand in network racks: top taken as middle");
	U = f->p.rack_units;
	f->nserver = d->servers.n;
	f->nsw = d->switches.n;
	f->ndomain = d->domains.n;
	f->server = xcalloc(f->nserver + 1, sizeof *f->server);
	f->sw = xcalloc(f->nsw + 1, sizeof *f->sw);
	f->tray = xcalloc(f->ndomain + 1, sizeof *f->tray);
	f->servers_per_rack = xcalloc(f->nserver + 1, sizeof *f->servers_per_rack);
	leaf_place = xcalloc(f->nsw + 1, sizeof *leaf_place);
	for (i = 0; i < f->nsw; i++) {
		const struct switch_group *sw = DESIGN_SWITCH(d, i);
		long s;
		f->sw[i] = xcalloc((size_t)(sw->count > 0 ? sw->count : 0) + 1, sizeof **f->sw);
		for (s = 0; s < sw->count; s++)
			f->sw[i][s].rack = -1;
		leaf_place[i] = group_place(f, sw, fed_tor(wb, &bx, i));
	}
	f->place[ROLE_LEAF] = f->place[ROLE_LEAF] ? f->place[ROLE_LEAF] : (f->nsw ? RP_MIDDLE : RP_MIDDLE);
	for (i = 0; i < f->nsw; i++)
		if (DESIGN_SWITCH(d, i)->role == ROLE_LEAF && f->p.leaf == RP_AUTO) {
			f->place[ROLE_LEAF] = leaf_place[i];
			break;
		}
	if (f->place[ROLE_SPINE] == RP_AUTO || f->place[ROLE_SPINE] == RP_TOP)
		f->place[ROLE_SPINE] = RP_MIDDLE;
	if (f->place[ROLE_CORE] == RP_AUTO || f->place[ROLE_CORE] == RP_TOP)
		f->place[ROLE_CORE] = RP_MIDDLE;
	for (i = 0; i < f->ndomain; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		long n = (long)m->count * m->switch_trays, t;
		f->tray[i] = xcalloc((size_t)(n > 0 ? n : 0) + 1, sizeof **f->tray);
		for (t = 0; t < n; t++)
			f->tray[i][t].rack = -1;
	}

	/* Top-of-rack leaves per server group: how many are fed first by that group. */
	{
		long *tor_count = xcalloc(f->nserver + 1, sizeof *tor_count);
		int *tor_u = xcalloc(f->nserver + 1, sizeof *tor_u);
		double *tor_p = xcalloc(f->nserver + 1, sizeof *tor_p);
		int *domain_first = xcalloc(f->ndomain + 1, sizeof *domain_first);
		long *domain_seen = xcalloc(f->ndomain + 1, sizeof *domain_seen);
		for (i = 0; i < f->nsw; i++) {
			const struct switch_group *sw = DESIGN_SWITCH(d, i);
			const struct cat_switch *c = catalog_switch(cat, sw->model);
			long s;
			if (leaf_place[i] != RP_TOP || sw->role != ROLE_LEAF || sw->count <= 0)
				continue;
			sgrp = xrealloc(sgrp, (size_t)sw->count * sizeof *sgrp);
			smem = xrealloc(smem, (size_t)sw->count * sizeof *smem);
			first_servers(d, wb, &bx, i, sgrp, smem);
			for (s = 0; s < sw->count; s++)
				if (sgrp[s] >= 0) {
					tor_count[sgrp[s]]++;
					tor_u[sgrp[s]] = switch_height(c, f);
					tor_p[sgrp[s]] = switch_power(c);
				}
		}
		/* Server racks. */
		bool run_open = false;
		const char *run_model = NULL;
		int run_su = 0, run_spr = 1;
		double run_sp = 0;
		long run_slot = -1;
		for (i = 0; i < d->domains.n; i++)
			domain_first[i] = -1;
		for (i = 0; i < f->nserver; i++) {
			const struct server_group *g = DESIGN_SERVER(d, i);
			const struct cat_server *s = catalog_server(cat, g->model);
			long n = g->count > 0 ? g->count : 0, j;
			int su = s && s->rack_units > 0 ? (int)ceil(s->rack_units) : 0, spr;
			double sp = s ? s->power_W : 0;
			size_t m;
			f->server[i] = xcalloc((size_t)n + 1, sizeof **f->server);
			if (g->domain[0] && design_find(d, g->domain, &m) == GK_DOMAIN) {
				const struct domain_group *dm = DESIGN_DOMAIN(d, m);
				run_open = false;
				const struct cat_fabric *tray = catalog_fabric(cat, dm->tray);
				int tu = tray && tray->rack_units > 0 ? (int)ceil(tray->rack_units) : 1;
				if (!su)
					su = 1;
				f->servers_per_rack[i] = dm->servers_each;
				if (domain_first[m] < 0) {
					/* One rack per domain: half its trays, the switch trays, the rest. */
					long dd, t;
					domain_first[m] = (int)sracks.n;
					for (dd = 0; dd < dm->count; dd++) {
						struct srack *sr = vec_push(&sracks, sizeof *sr);
						sr->kind = RACK_DOMAIN;
						sr->units_used = (dm->servers_each + 1) / 2 * su;
						for (t = 0; t < dm->switch_trays; t++) {
							struct floor_spot *sp2 = &f->tray[m][dd * dm->switch_trays + t];
							sp2->rack = (int)(sracks.n - 1);
							sp2->u = sr->units_used + 1;
							sp2->height = tu;
							sr->units_used += tu;
							sr->devices++;
							if (tray)
								sr->power_W += tray->power_W;
						}
					}
					note(f, "an NVLink domain is one rack of its trays (the rack power budget does not apply)");
				}
				for (j = 0; j < n; j++) {
					long idx = domain_seen[m]++, dd = idx / (dm->servers_each > 0 ? dm->servers_each : 1), slot;
					struct srack *sr;
					if (dd >= dm->count)
						dd = dm->count - 1;
					if (dd < 0) {
						f->server[i][j].rack = -1;
						continue;
					}
					slot = idx - dd * dm->servers_each;
					sr = &VEC_AT(sracks, struct srack, domain_first[m] + dd);
					f->server[i][j].rack = domain_first[m] + (int)dd;
					f->server[i][j].height = su;
					if (slot < (dm->servers_each + 1) / 2)
						f->server[i][j].u = 1 + (int)slot * su;
					else
						f->server[i][j].u = (dm->servers_each + 1) / 2 * su + dm->switch_trays * tu + 1 +
								    (int)(slot - (dm->servers_each + 1) / 2) * su;
					if (f->server[i][j].u + su - 1 > sr->units_used)
						sr->units_used = f->server[i][j].u + su - 1;
					sr->power_W += sp;
					if (!sr->devices++ || sr->first.kind != GK_SERVER)
						sr->first = (struct devref){ GK_SERVER, i, j };
					sr->last = (struct devref){ GK_SERVER, i, j };
				}
				continue;
			}
			if (!su) {
				su = ASSUMED_SERVER_U;
				note(f, "a server's height is not in the catalog: 4U assumed");
			}
			if (sp <= 0)
				note(f, "a server's power is not in the catalog: the rack power budget is not applied to it");
			/* Groups of the same server written one after another share racks as one
			 * group would (the same hardware, the same layout): a run of them. */
			if (!(run_open && run_model && strcmp(run_model, g->model) == 0 && run_su == su && run_sp == sp)) {
				long total = 0, tors = 0;
				size_t k;
				for (k = i; k < f->nserver; k++) {
					const struct server_group *h = DESIGN_SERVER(d, k);
					if (k > i && (strcmp(h->model, g->model) != 0 || h->domain[0]))
						break;
					total += h->count > 0 ? h->count : 0;
					tors += tor_count[k];
				}
				run_spr = f->p.servers_per_rack > 0 ? f->p.servers_per_rack
								    : derive_spr(f, total, su, sp, tors, tor_u[i], tor_p[i]);
				run_open = true;
				run_model = g->model;
				run_su = su;
				run_sp = sp;
				run_slot = -1;
			}
			spr = run_spr;
			if (sp > f->p.rack_power_kW * 1000)
				note(f, "one server draws more than the rack power budget: one per rack");
			f->servers_per_rack[i] = spr;
			{
				long off, us = rail_unit(d, wb, &bx, i, &off), slot = run_slot;
				for (j = 0; j < n; j++) {
					struct srack *sr;
					/* A new rack when this one is full, and at each scalable unit. */
					if (slot < 0 || slot == spr || (us > 0 && (off + j) % us == 0)) {
						sr = vec_push(&sracks, sizeof *sr);
						sr->kind = RACK_SERVER;
						slot = 0;
					}
					sr = &VEC_AT(sracks, struct srack, sracks.n - 1);
					f->server[i][j].rack = (int)(sracks.n - 1);
					f->server[i][j].u = 1 + (int)slot++ * su;
				f->server[i][j].height = su;
				sr->units_used += su;
				sr->power_W += sp;
				if (!sr->devices++)
					sr->first = (struct devref){ GK_SERVER, i, j };
				sr->last = (struct devref){ GK_SERVER, i, j };
				}
				run_slot = slot;
			}
		}
		free(tor_count);
		free(tor_u);
		free(tor_p);
		free(domain_first);
		free(domain_seen);
	}

	/* Racks per row: one scalable unit (the servers behind one set of rail leaves). */
	rpr = f->p.racks_per_row;
	for (i = 0; i < f->nserver && rpr <= 0; i++) {
		long off, us = rail_unit(d, wb, &bx, i, &off);
		if (us > 0 && f->servers_per_rack[i] > 0)
			rpr = (int)((us + f->servers_per_rack[i] - 1) / f->servers_per_rack[i]);
	}
	if (rpr <= 0)
		rpr = sracks.n < DEFAULT_ROW ? (int)sracks.n : DEFAULT_ROW;
	if (rpr <= 0)
		rpr = 1;
	f->racks_per_row = rpr;
	f->rows = sracks.n ? (int)((sracks.n + (size_t)rpr - 1) / (size_t)rpr) : 1;

	/* Switches: top-of-rack ones into server racks, the rest wait for network racks. */
	tor_used = xcalloc(sracks.n + 1, sizeof *tor_used);
	for (i = 0; i < f->nsw; i++) {
		const struct switch_group *sw = DESIGN_SWITCH(d, i);
		const struct cat_switch *c = catalog_switch(cat, sw->model);
		int h = switch_height(c, f);
		long s;
		if (sw->count <= 0)
			continue;
		sgrp = xrealloc(sgrp, (size_t)sw->count * sizeof *sgrp);
		smem = xrealloc(smem, (size_t)sw->count * sizeof *smem);
		first_servers(d, wb, &bx, i, sgrp, smem);
		for (s = 0; s < sw->count; s++) {
			int srow = 0;
			int where = sw->role == ROLE_LEAF ? leaf_place[i] : group_place(f, sw, false);
			if (sgrp[s] >= 0 && f->server[sgrp[s]][smem[s]].rack >= 0)
				srow = f->server[sgrp[s]][smem[s]].rack / rpr;
			if (sw->role == ROLE_LEAF && where == RP_TOP && sgrp[s] >= 0 &&
			    f->server[sgrp[s]][smem[s]].rack >= 0) {
				int rk = f->server[sgrp[s]][smem[s]].rack;
				struct srack *sr = &VEC_AT(sracks, struct srack, rk);
				tor_used[rk] += h;
				f->sw[i][s].rack = -(rk + 2); /* a server rack, mapped below */
				f->sw[i][s].u = U - tor_used[rk] + 1;
				f->sw[i][s].height = h;
				sr->units_used += h;
				sr->power_W += switch_power(c);
				sr->devices++;
				sr->last = (struct devref){ GK_SWITCH, i, (long)s };
				if (sr->units_used > U)
					note(f, "a server rack holds more than its rack units (servers and top-of-rack switches)");
				continue;
			}
			{
				struct pending *pd = vec_push(&pend, sizeof *pd);
				pd->kind = GK_SWITCH;
				pd->group = i;
				pd->member = s;
				pd->row = sw->role == ROLE_LEAF ? srow : (f->rows - 1) / 2;
				pd->cluster = where == RP_END ? RP_END : RP_MIDDLE;
				pd->height = h;
				pd->power_W = switch_power(c);
			}
		}
	}

	/* Lay out the rows: the first half of the row's server racks, the middle network
	 * cluster, the second half, the end cluster. */
	pending_buckets(&pend, f->rows, &pend_at);
	for (row = 0; row < f->rows; row++) {
		size_t first = (size_t)row * (size_t)rpr, n = 0;
		int pos = 0;
		if (first < sracks.n)
			n = sracks.n - first < (size_t)rpr ? sracks.n - first : (size_t)rpr;
		pos = lay_servers(f, d, &sracks, first, 0, n / 2, row, pos);
		pos = lay_network(f, d, &pend, &pend_at, row, RP_MIDDLE, pos);
		pos = lay_servers(f, d, &sracks, first, n / 2, n, row, pos);
		lay_network(f, d, &pend, &pend_at, row, RP_END, pos);
	}
	/* Server, tray and top-of-rack spots hold server-rack indexes so far. */
	for (i = 0; i < f->nserver; i++) {
		long j;
		for (j = 0; j < DESIGN_SERVER(d, i)->count; j++)
			if (f->server[i][j].rack >= 0)
				f->server[i][j].rack = VEC_AT(sracks, struct srack, f->server[i][j].rack).index;
	}
	for (i = 0; i < f->ndomain; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		long t;
		for (t = 0; t < (long)m->count * m->switch_trays; t++)
			if (f->tray[i][t].rack >= 0)
				f->tray[i][t].rack = VEC_AT(sracks, struct srack, f->tray[i][t].rack).index;
	}
	for (i = 0; i < f->nsw; i++) {
		long s;
		for (s = 0; s < DESIGN_SWITCH(d, i)->count; s++)
			if (f->sw[i][s].rack <= -2)
				f->sw[i][s].rack = VEC_AT(sracks, struct srack, -(f->sw[i][s].rack + 2)).index;
	}
	free(tor_used);
	vec_release(&sracks);
	vec_release(&pend);
	free(pend_at.start);
	free(pend_at.order);
	free(sgrp);
	free(smem);
	free(leaf_place);
	bindex_free(&bx);
	free(wb);
}

void floor_free(struct floor *f)
{
	size_t i;
	for (i = 0; i < f->nserver; i++)
		free(f->server[i]);
	for (i = 0; i < f->nsw; i++)
		free(f->sw[i]);
	for (i = 0; i < f->ndomain; i++)
		free(f->tray[i]);
	free(f->server);
	free(f->sw);
	free(f->tray);
	free(f->servers_per_rack);
	vec_release(&f->racks);
	memset(f, 0, sizeof *f);
}

const struct floor_spot *floor_spot_at(const struct floor *f, const struct cab_end *e)
{
	const struct floor_spot *s = NULL;
	if (e->kind == GK_SERVER && e->group < f->nserver)
		s = &f->server[e->group][e->member];
	else if (e->kind == GK_SWITCH && e->group < f->nsw)
		s = &f->sw[e->group][e->member];
	return s && s->rack >= 0 ? s : NULL;
}

double floor_cable_m(const struct floor *f, const struct floor_spot *a, const struct floor_spot *b)
{
	const struct floor_rack *ra, *rb;
	double ca, cb, top = f->p.rack_units * FLOOR_U_M;
	if (!a || !b || a->rack < 0 || b->rack < 0)
		return 0;
	ca = (a->u - 1 + a->height / 2.0) * FLOOR_U_M;
	cb = (b->u - 1 + b->height / 2.0) * FLOOR_U_M;
	if (a->rack == b->rack)
		return fabs(ca - cb) + f->p.slack_m;
	ra = &VEC_AT(f->racks, struct floor_rack, a->rack);
	rb = &VEC_AT(f->racks, struct floor_rack, b->rack);
	return (top - ca) + (top - cb) + 2 * f->p.riser_m + abs(ra->pos - rb->pos) * f->p.rack_width_m +
	       abs(ra->row - rb->row) * f->p.row_pitch_m + f->p.slack_m;
}
