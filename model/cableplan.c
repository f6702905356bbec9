#include "model/cableplan.h"
#include "model/alloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per cage of a device, what the links through it need. */
struct cage {
	int nlinks;
	float maxlen;
	long far;                    /* cage id of the first link's far end */
	unsigned char same_far;      /* every link goes to that far cage */
	unsigned char far_single;    /* every far cage holds one link only */
	unsigned char counted;       /* its cable (copper) or module (optics) is counted */
	unsigned char engines;       /* splitter fibres counted, one bit per engine */
	const struct cat_cable *module;
};

/* What an end of a link plugs into. */
struct endinfo {
	const char *cage, *top;
	int capacity;                /* Gb/s of the whole cage */
	int native;                  /* logical ports one cage holds without breakout */
	int cage_ports;              /* logical ports one cage holds (after breakout) */
	int in_cage;                 /* this port's index within its cage */
	long id;                     /* cage id */
};

struct ctx {
	const struct design *d;
	const struct catalog *cat;
	struct cableplan *p;
	long *sw_base, *srv_base;
	long *sw_cpm, *srv_cpm;
	struct cage *cages;
	long ncages;
	int pass;
	double *bundle_max;
	int *bundle_mode;
	bool *bundle_mode_set;
	size_t line_start;           /* first line of the current bundle */
	size_t cur_bundle;
	cp_fn fn;
	void *fnctx;
	char unknown_name[CP_NAME_MAX]; /* a part the catalog lacks, as the link's cable_name */
	struct module_memo *modules; /* MODULE_MEMO slots: the modules that fit a kind of end */
	unsigned next_module;
	struct endinfo *sw_end;      /* per switch group: what its ends plug into (id and port aside) */
	struct endinfo **srv_end;    /* per server group, per NIC entry + 1 (0: none): the same */
	struct cable_memo {          /* recent cable searches: their candidates, whatever the length */
		bool valid;
		int media, speed, n;
		bool splitter;
		const char *xc, *xt, *yc, *yt;
		const struct cat_cable *cand[8];
		int ncand;
		bool overflow;
	} memo[4];
	unsigned next_memo;
};

static bool top_ok(const char *want, const char *have)
{
	return !want[0] || !have[0] || strcmp(want, have) == 0;
}

static bool same_cage(const char *a, const char *b)
{
	return a[0] && b[0] && strcmp(a, b) == 0;
}

/* What an end of group kind/gi plugs into, but for the cage id and the port in it. */
/* What an end of switch group gi, or of NIC entry spec (-1: none) of server group gi, plugs
 * into, but for the cage id and the port in it. */
static void end_template(const struct design *d, const struct catalog *cat, int kind, size_t gi, int spec,
			 struct endinfo *out)
{
	memset(out, 0, sizeof *out);
	out->cage = out->top = "";
	if (kind == GK_SWITCH) {
		const struct switch_group *g = DESIGN_SWITCH(d, gi);
		const struct cat_switch *s = catalog_switch(cat, g->model);
		out->cage_ports = cabling_switch_cage_ports(g, s);
		if (s) {
			out->cage = s->cage;
			out->top = s->top;
			out->native = s->cages > 0 && s->ports >= s->cages ? s->ports / s->cages : 1;
			out->capacity = s->port_speed_gbps * out->native;
		}
	} else {
		const struct server_group *g = DESIGN_SERVER(d, gi);
		const struct cat_server *s = catalog_server(cat, g->model);
		const struct nic_spec *n = spec >= 0 ? &VEC_AT(g->nics, struct nic_spec, spec) : NULL;
		const struct cat_nic *nc = n ? catalog_nic(cat, n->model) : NULL;
		int ports = server_compute_ports(g, cat), cages = cabling_server_cages(g, cat);
		out->cage_ports = cages > 0 && ports > cages ? (ports + cages - 1) / cages : 1;
		out->native = out->cage_ports;
		out->capacity = (n ? nic_speed_gbps(n, nc) : 0) * out->cage_ports;
		if (s && s->nic_cage[0]) {
			out->cage = s->nic_cage;
			out->top = s->nic_top;
		} else if (nc) {
			out->cage = nc->cage;
			out->top = nc->top;
		}
	}
}

static void end_info(struct ctx *c, const struct cab_end *e, struct endinfo *out)
{
	if (e->kind == GK_SWITCH) {
		*out = c->sw_end[e->group];
		out->id = c->sw_base[e->group] + e->member * c->sw_cpm[e->group] + e->cage;
	} else {
		*out = c->srv_end[e->group][e->nic_spec + 1];
		out->id = c->srv_base[e->group] + e->member * c->srv_cpm[e->group] + e->cage;
	}
	if (e->cage_ports > 0)
		out->cage_ports = e->cage_ports;
	out->in_cage = e->port % out->cage_ports;
}

/* ---- part choice -------------------------------------------------------------------- */

static bool module_fits(const struct cat_cable *k, const struct endinfo *e, int mode)
{
	int ports = k->ports > 0 ? k->ports : 1;
	if (k->media != MEDIA_TRANSCEIVER || k->fibre != mode || !same_cage(k->cage, e->cage) || !top_ok(k->top, e->top))
		return false;
	return ports * k->speed_gbps == e->capacity || (ports == 1 && e->native == 1 && k->speed_gbps >= e->capacity);
}

/* The transceiver for a cage: fits, and reaches len (a reach of 0 is not known: taken
 * last). Exact top matches first. The modules that fit an end are found once per kind of
 * end (a few slots, by the end's cage, top, capacity and the fibre mode). */
#define MODULE_MEMO 8
#define MODULE_CAND 8

struct module_memo {
	bool valid, overflow;
	const char *cage, *top;
	int capacity, native, mode, ncand;
	const struct cat_cable *cand[MODULE_CAND];
	char unknown[CP_NAME_MAX]; /* what the module must be when none fits or reaches */
};

static const struct cat_cable *pick_module_in(const struct cat_cable *const *cand, int n, const struct endinfo *e,
					      double len)
{
	const struct cat_cable *best = NULL;
	int best_score = -1, i;
	for (i = 0; i < n; i++) {
		const struct cat_cable *k = cand[i];
		int score;
		if (k->reach_m > 0 && k->reach_m + 1e-9 < len)
			continue;
		score = (k->reach_m > 0 ? 2 : 0) + (k->top[0] && strcmp(k->top, e->top) == 0);
		if (score > best_score) {
			best = k;
			best_score = score;
		}
	}
	return best;
}

static struct module_memo *module_memo_for(struct ctx *c, const struct endinfo *e, int mode);

static const struct cat_cable *pick_module(struct ctx *c, const struct endinfo *e, int mode, double len)
{
	struct module_memo *m = module_memo_for(c, e, mode);
	size_t i;
	if (!m->overflow)
		return pick_module_in(m->cand, m->ncand, e, len);
	{
		/* More modules fit than the memo holds: all of them, in catalog order. */
		const struct cat_cable *best = NULL;
		int best_score = -1;
		for (i = 0; i < c->cat->cables.n; i++) {
			const struct cat_cable *kc = &VEC_AT(c->cat->cables, struct cat_cable, i);
			const struct cat_cable *one[1] = { kc };
			int score;
			if (!module_fits(kc, e, mode) || !pick_module_in(one, 1, e, len))
				continue;
			score = (kc->reach_m > 0 ? 2 : 0) + (kc->top[0] && strcmp(kc->top, e->top) == 0);
			if (score > best_score) {
				best = kc;
				best_score = score;
			}
		}
		return best;
	}
}

static struct module_memo *module_memo_for(struct ctx *c, const struct endinfo *e, int mode)
{
	struct module_memo *m = NULL;
	size_t i;
	int k;
	for (k = 0; k < MODULE_MEMO; k++) {
		struct module_memo *x = &c->modules[k];
		if (x->valid && x->cage == e->cage && x->top == e->top && x->capacity == e->capacity && x->native == e->native &&
		    x->mode == mode) {
			m = x;
			break;
		}
	}
	if (!m) {
		m = &c->modules[c->next_module++ % MODULE_MEMO];
		memset(m, 0, sizeof *m);
		m->valid = true;
		m->cage = e->cage;
		m->top = e->top;
		m->capacity = e->capacity;
		m->native = e->native;
		m->mode = mode;
		for (i = 0; i < c->cat->cables.n && !m->overflow; i++) {
			const struct cat_cable *kc = &VEC_AT(c->cat->cables, struct cat_cable, i);
			if (!module_fits(kc, e, mode))
				continue;
			if (m->ncand == MODULE_CAND)
				m->overflow = true;
			else
				m->cand[m->ncand++] = kc;
		}
		snprintf(m->unknown, sizeof m->unknown, "%dG %s%s transceiver (%s%s%s, %s)", e->capacity,
			 e->native >= 2 ? "twin-port " : "", e->cage[0] ? e->cage : "unknown-cage", e->top[0] ? e->top : "",
			 e->top[0] ? " top, " : "", fibre_mode_names[mode],
			 m->ncand ? "beyond the reach of the catalog's" : "not in the catalog");
	}
	return m;
}

/* Is k a cable of media m shaped for these cages, whatever the length: straight (ports n,
 * split 1) or a splitter whose twin end sits at x (ports n, split n, one link per far plug)? */
static bool cable_shape(const struct cat_cable *k, int media, int speed, const struct endinfo *x, const struct endinfo *y,
			int n, bool splitter)
{
	int ports = k->ports > 0 ? k->ports : 1, split = k->split > 0 ? k->split : 1;
	bool fwd, rev;
	if (k->media != media || k->speed_gbps != speed || ports != n || k->reach_m <= 0)
		return false;
	if (splitter ? split != n : split != 1)
		return false;
	fwd = same_cage(k->cage, x->cage) && top_ok(k->top, x->top) && same_cage(k->far_cage, y->cage) &&
	      top_ok(k->far_top, y->top);
	rev = !splitter && same_cage(k->cage, y->cage) && top_ok(k->top, y->top) && same_cage(k->far_cage, x->cage) &&
	      top_ok(k->far_top, x->top);
	return fwd || rev;
}

/* The first such cable in catalog order that reaches len. Links of a bundle ask the same
 * question but for the length: the candidates of the last question are kept. */
static const struct cat_cable *pick_cable(struct ctx *c, int media, int speed, const struct endinfo *x,
					  const struct endinfo *y, int n, bool splitter, double len)
{
	struct cable_memo *m = NULL;
	size_t i;
	int k;
	for (k = 0; k < 4; k++) {
		struct cable_memo *o = &c->memo[k];
		if (o->valid && o->media == media && o->speed == speed && o->n == n && o->splitter == splitter &&
		    o->xc == x->cage && o->xt == x->top && o->yc == y->cage && o->yt == y->top) {
			m = o;
			break;
		}
	}
	if (!m) {
		m = &c->memo[c->next_memo++ % 4];
		memset(m, 0, sizeof *m);
		m->valid = true;
		m->media = media;
		m->speed = speed;
		m->n = n;
		m->splitter = splitter;
		m->xc = x->cage;
		m->xt = x->top;
		m->yc = y->cage;
		m->yt = y->top;
		for (i = 0; i < c->cat->cables.n; i++) {
			const struct cat_cable *kc = &VEC_AT(c->cat->cables, struct cat_cable, i);
			if (!cable_shape(kc, media, speed, x, y, n, splitter))
				continue;
			if (m->ncand == (int)(sizeof m->cand / sizeof m->cand[0])) {
				m->overflow = true;
				break;
			}
			m->cand[m->ncand++] = kc;
		}
	}
	for (k = 0; k < m->ncand; k++)
		if (m->cand[k]->reach_m + 1e-9 >= len)
			return m->cand[k];
	if (m->overflow)
		for (i = 0; i < c->cat->cables.n; i++) {
			const struct cat_cable *kc = &VEC_AT(c->cat->cables, struct cat_cable, i);
			if (cable_shape(kc, media, speed, x, y, n, splitter) && kc->reach_m + 1e-9 >= len)
				return kc;
		}
	return NULL;
}

static const struct cat_fibre *pick_fibre(const struct catalog *cat, int mode, int split, double len)
{
	size_t i;
	const struct cat_fibre *any = NULL;
	for (i = 0; i < cat->fibres.n; i++) {
		const struct cat_fibre *f = &VEC_AT(cat->fibres, struct cat_fibre, i);
		int s = f->split > 0 ? f->split : 1;
		if (f->mode != mode || s != split)
			continue;
		if (f->reach_m <= 0 || f->reach_m + 1e-9 >= len)
			return f;
		if (!any)
			any = f;
	}
	return any;
}

double cableplan_order_length(const struct vec *lengths, double len, bool copper)
{
	size_t i;
	double best = 0;
	if (lengths && lengths->n) {
		for (i = 0; i < lengths->n; i++) {
			double m = VEC_AT(*lengths, struct cat_length, i).m;
			if (m + 1e-9 >= len && (best == 0 || m < best))
				best = m;
		}
		if (best > 0)
			return best;
	}
	if (copper)
		return ceil(len * 2 - 1e-9) / 2;
	if (len <= 10)
		return ceil(len - 1e-9) < 1 ? 1 : ceil(len - 1e-9);
	if (len <= 50)
		return ceil(len / 5 - 1e-9) * 5;
	return ceil(len / 10 - 1e-9) * 10;
}

static const char *part_at(const struct vec *lengths, double m, const char *fallback)
{
	size_t i;
	if (lengths)
		for (i = 0; i < lengths->n; i++) {
			const struct cat_length *l = &VEC_AT(*lengths, struct cat_length, i);
			if (fabs(l->m - m) < 1e-9 && l->part[0])
				return l->part;
		}
	return fallback;
}

/* ---- lines ------------------------------------------------------------------------- */

static void add_line(struct ctx *c, int kind, const struct cat_cable *k, const struct cat_fibre *f, const char *name,
		     const char *part, double m, int end, long qty)
{
	size_t i;
	struct cp_line *l;
	for (i = c->line_start; i < c->p->lines.n; i++) {
		l = &VEC_AT(c->p->lines, struct cp_line, i);
		if (l->kind == kind && l->end == end && fabs(l->length_m - m) < 1e-9 && strcmp(l->name, name) == 0) {
			l->quantity += qty;
			return;
		}
	}
	l = vec_push(&c->p->lines, sizeof *l);
	l->kind = kind;
	l->cable = k;
	l->fibre = f;
	snprintf(l->name, sizeof l->name, "%s", name);
	snprintf(l->part, sizeof l->part, "%s", part ? part : "");
	l->length_m = m;
	l->bundle = c->cur_bundle;
	l->end = end;
	l->quantity = qty;
}

/* The bundle's fibre: multimode when its longest link is within the multimode modules'
 * reach at both of its ends, else single-mode. */
static int bundle_mode(struct ctx *c, size_t b, const struct endinfo *a, const struct endinfo *z)
{
	double len = c->bundle_max[b];
	const struct cat_cable *ma, *mz;
	if (c->bundle_mode_set[b])
		return c->bundle_mode[b];
	ma = pick_module(c, a, FIBRE_MMF, len);
	mz = pick_module(c, z, FIBRE_MMF, len);
	c->bundle_mode[b] = FIBRE_SMF;
	if (ma && mz && (ma->reach_m <= 0 || ma->reach_m + 1e-9 >= len) && (mz->reach_m <= 0 || mz->reach_m + 1e-9 >= len))
		c->bundle_mode[b] = FIBRE_MMF;
	else if (!pick_module(c, a, FIBRE_SMF, len) && !pick_module(c, z, FIBRE_SMF, len) && (ma || mz))
		c->bundle_mode[b] = FIBRE_MMF;
	c->bundle_mode_set[b] = true;
	return c->bundle_mode[b];
}

/* A part that carries this link for len metres: beyond its stated reach (0: not known)? */
static void note_reach(struct cp_bundle *pb, const char *name, double reach, double len, bool *over)
{
	if (reach <= 0 || reach + 1e-9 >= len)
		return;
	*over = true;
	if (len > pb->over_m)
		pb->over_m = len;
	if (!pb->over_part[0] || reach < pb->over_reach_m) {
		pb->over_reach_m = reach;
		snprintf(pb->over_part, sizeof pb->over_part, "%s", name);
	}
}

static void note_missing(struct cp_bundle *pb, const char *name, bool *missing)
{
	*missing = true;
	if (!pb->missing[0])
		snprintf(pb->missing, sizeof pb->missing, "%s", name);
}

/* ---- the three walks ---------------------------------------------------------------- */

static void walk(const struct cab_link *l, void *v)
{
	struct ctx *c = v;
	struct endinfo ea, eb;
	struct cage *ca, *cb;
	const struct floor *f = &c->p->floor;
	double len = floor_cable_m(f, floor_spot_at(f, &l->a), floor_spot_at(f, &l->b));
	end_info(c, &l->a, &ea);
	end_info(c, &l->b, &eb);
	if (ea.id < 0 || ea.id >= c->ncages || eb.id < 0 || eb.id >= c->ncages)
		return;
	ca = &c->cages[ea.id];
	cb = &c->cages[eb.id];
	if (c->pass == 0) {
		struct cage *pair[2] = { ca, cb };
		long far[2] = { eb.id, ea.id };
		int k;
		for (k = 0; k < 2; k++) {
			struct cage *g = pair[k];
			if (g->nlinks++ == 0) {
				g->far = far[k];
				g->same_far = 1;
				g->far_single = 1;
			} else if (g->far != far[k]) {
				g->same_far = 0;
			}
			if (len > g->maxlen)
				g->maxlen = (float)len;
		}
		if (len > c->bundle_max[l->bundle])
			c->bundle_max[l->bundle] = len;
		return;
	}
	if (c->pass == 1) {
		if (cb->nlinks != 1)
			ca->far_single = 0;
		if (ca->nlinks != 1)
			cb->far_single = 0;
		return;
	}
	{
		/* pass 2: decide, count, report */
		const struct bundle *bd = DESIGN_BUNDLE(c->d, l->bundle);
		struct cp_bundle *pb = &VEC_AT(c->p->bundles, struct cp_bundle, l->bundle);
		struct cp_link out;
		int speed = c->p->wb[l->bundle].gbps, want = bd->media, m;
		static const int auto_order[] = { MEDIA_DAC, MEDIA_ACC, MEDIA_AOC };
		const struct cat_cable *k = NULL;
		struct cage *owner = NULL;
		bool splitter = false, over = false, missing = false;
		if (l->bundle != c->cur_bundle) {
			c->cur_bundle = l->bundle;
			c->line_start = c->p->lines.n;
		}
		memset(&out, 0, sizeof out);
		out.length_m = len;
		for (m = 0; m < 3 && !k; m++) {
			int media = want == MEDIA_AUTO ? auto_order[m] : want;
			double reach;
			if (media == MEDIA_TRANSCEIVER)
				break;
			if (ca->nlinks == cb->nlinks && ca->same_far && cb->same_far) {
				reach = ca->maxlen > cb->maxlen ? ca->maxlen : cb->maxlen;
				k = pick_cable(c, media, speed, &ea, &eb, ca->nlinks, false, reach);
				owner = ca;
			}
			if (!k && cb->nlinks >= 2 && cb->far_single) {
				k = pick_cable(c, media, speed, &eb, &ea, cb->nlinks, true, cb->maxlen);
				owner = cb;
				splitter = true;
			}
			if (!k && ca->nlinks >= 2 && ca->far_single) {
				k = pick_cable(c, media, speed, &ea, &eb, ca->nlinks, true, ca->maxlen);
				owner = ca;
				splitter = true;
			}
			if (want != MEDIA_AUTO)
				break;
		}
		if (!k && want != MEDIA_AUTO && want != MEDIA_TRANSCEIVER) {
			/* The bundle asks for a cable the catalog has no part for: count it by name. */
			out.media = want;
			out.order_m = cableplan_order_length(NULL, len, want != MEDIA_AOC);
			out.cable_name = c->unknown_name;
			snprintf(c->unknown_name, sizeof c->unknown_name, "%dG %s %s (not in the catalog)", speed,
				 ea.cage[0] ? ea.cage : "", media_names[want]);
			add_line(c, CP_CABLE, NULL, NULL, out.cable_name, "", out.order_m, -1, 1);
			note_missing(pb, out.cable_name, &missing);
			pb->cables++;
			c->p->cables++;
		} else if (k) {
			double cover = owner->maxlen;
			if (!splitter && cb->maxlen > cover)
				cover = cb->maxlen;
			out.media = k->media;
			out.cable = k;
			out.order_m = cableplan_order_length(&k->lengths, cover, k->media != MEDIA_AOC);
			out.cable_name = k->name;
			note_reach(pb, k->name, k->reach_m, len, &over);
			if (!owner->counted) {
				owner->counted = 1;
				add_line(c, CP_CABLE, k, NULL, k->name, part_at(&k->lengths, out.order_m, k->part), out.order_m, -1, 1);
				pb->cables++;
				c->p->cables++;
			}
		} else {
			/* Transceivers at both ends, fibre between. */
			int mode = bundle_mode(c, l->bundle, &ea, &eb), e;
			struct cage *cg[2] = { ca, cb };
			struct endinfo *ei[2] = { &ea, &eb };
			int span[2], pe[2], x, split;
			const struct cat_fibre *fb;
			double flen;
			out.media = MEDIA_TRANSCEIVER;
			out.fibre_mode = mode;
			for (e = 0; e < 2; e++) {
				int engines;
				if (!cg[e]->counted) {
					cg[e]->counted = 1;
					cg[e]->module = pick_module(c, ei[e], mode, cg[e]->maxlen);
					if (cg[e]->module) {
						add_line(c, CP_TRANSCEIVER, cg[e]->module, NULL, cg[e]->module->name, cg[e]->module->part, 0,
							 e, 1);
						if (strcmp(pb->optic[e], cg[e]->module->name) != 0)
							snprintf(pb->optic[e], sizeof pb->optic[e], "%s", cg[e]->module->name);
					} else {
						const char *uname = module_memo_for(c, ei[e], mode)->unknown;
						add_line(c, CP_TRANSCEIVER, NULL, NULL, uname, "", 0, e, 1);
						if (strcmp(pb->optic[e], uname) != 0)
							snprintf(pb->optic[e], sizeof pb->optic[e], "%s", uname);
					}
					pb->optics[e]++;
					c->p->transceivers++;
				}
				out.optic[e] = cg[e]->module;
				if (cg[e]->module)
					note_reach(pb, cg[e]->module->name, cg[e]->module->reach_m, len, &over);
				else
					note_missing(pb, module_memo_for(c, ei[e], mode)->unknown, &missing);
				engines = cg[e]->module && cg[e]->module->ports > 0 ? cg[e]->module->ports : (ei[e]->native > 1 ? 2 : 1);
				if (ei[e]->cage_ports >= engines) {
					pe[e] = ei[e]->cage_ports / engines;
					span[e] = 1;
				} else {
					pe[e] = 1;
					span[e] = engines / ei[e]->cage_ports;
				}
				if (ei[e]->cage_ports >= 2)
					pb->twin[e] = true;
			}
			x = pe[1] >= pe[0] ? 1 : 0;
			split = pe[x] >= 2 ? pe[x] : 1;
			flen = split > 1 ? cg[x]->maxlen : len;
			fb = pick_fibre(c->cat, mode, split, flen);
			out.fibre = fb;
			out.order_m = cableplan_order_length(fb ? &fb->lengths : NULL, flen, false);
			if (fb) {
				out.cable_name = fb->name;
				note_reach(pb, fb->name, fb->reach_m, flen, &over);
			} else {
				out.cable_name = c->unknown_name;
				snprintf(c->unknown_name, sizeof c->unknown_name, "%s MPO fibre%s (not in the catalog)",
					 mode == FIBRE_SMF ? "single-mode" : "multimode", split > 1 ? ", 1:2 splitter" : "");
				note_missing(pb, out.cable_name, &missing);
			}
			if (split > 1) {
				int engine = ei[x]->in_cage / split;
				if (!(cg[x]->engines & (1u << (engine & 7)))) {
					cg[x]->engines |= (unsigned char)(1u << (engine & 7));
					add_line(c, CP_FIBRE, NULL, fb, out.cable_name, fb ? part_at(&fb->lengths, out.order_m, fb->part) : "",
						 out.order_m, -1, 1);
					pb->fibres++;
					c->p->fibres++;
				}
			} else {
				int n = span[0] > span[1] ? span[0] : span[1];
				add_line(c, CP_FIBRE, NULL, fb, out.cable_name, fb ? part_at(&fb->lengths, out.order_m, fb->part) : "",
					 out.order_m, -1, n);
				pb->fibres += n;
				c->p->fibres += n;
			}
			pb->fibre_mode = mode;
		}
		pb->links++;
		pb->over_links += over;
		pb->missing_links += missing;
		pb->by_media[out.media]++;
		c->p->links++;
		c->p->by_media[out.media]++;
		if (pb->links == 1 || len < pb->min_m)
			pb->min_m = len;
		if (len > pb->max_m)
			pb->max_m = len;
		if (!pb->by_media_cable[out.media][0])
			snprintf(pb->by_media_cable[out.media], sizeof pb->by_media_cable[out.media], "%s", out.cable_name);
		if (c->fn)
			c->fn(l, &out, c->fnctx);
	}
}

/* Lines by bundle, then cables, transceivers (from end first) and fibres, then length. */
static int line_order(const void *x, const void *y)
{
	const struct cp_line *a = x, *b = y;
	if (a->bundle != b->bundle)
		return a->bundle < b->bundle ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind - b->kind;
	if (a->end != b->end)
		return a->end - b->end;
	if (a->length_m != b->length_m)
		return a->length_m < b->length_m ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The bundle's warnings (cableplan.h, parts). */
static void parts_warnings(const struct design *d, size_t i, const struct cp_bundle *b, struct ncf_diag *diag)
{
	const struct bundle *bd = DESIGN_BUNDLE(d, i);
	char path[48];
	snprintf(path, sizeof path, "bundles[%zu]", i);
	if (b->over_links)
		diag_add(diag, NCF_WARNING, path,
			 "%s -> %s: %ld of %ld links are longer than %s reaches (up to %.1f m, reach %g m): shorten the runs "
			 "(the physical layout) or use a part that reaches",
			 bd->from, bd->to, b->over_links, b->links, b->over_part, b->over_m, b->over_reach_m);
	if (b->missing_links)
		diag_add(diag, NCF_WARNING, path,
			 "%s -> %s: %ld of %ld links use a part the catalog does not have: %s; the BOM counts it with no part "
			 "number",
			 bd->from, bd->to, b->missing_links, b->links, b->missing);
}

void cableplan_build(const struct design *d, const struct catalog *cat, struct cableplan *p, cp_fn fn, void *ctx)
{
	struct ctx c;
	size_t i;
	long base = 0;
	memset(p, 0, sizeof *p);
	memset(&c, 0, sizeof c);
	c.d = d;
	c.cat = cat;
	c.p = p;
	c.fn = fn;
	c.fnctx = ctx;
	floor_build(d, cat, &p->floor);
	p->wb = cabling_bundles(d, cat);
	c.modules = xcalloc(MODULE_MEMO, sizeof *c.modules);
	c.sw_end = xcalloc(d->switches.n + 1, sizeof *c.sw_end);
	c.srv_end = xcalloc(d->servers.n + 1, sizeof *c.srv_end);
	for (i = 0; i < d->switches.n; i++)
		end_template(d, cat, GK_SWITCH, i, -1, &c.sw_end[i]);
	for (i = 0; i < d->servers.n; i++) {
		size_t k, nn = DESIGN_SERVER(d, i)->nics.n;
		c.srv_end[i] = xcalloc(nn + 1, sizeof **c.srv_end);
		for (k = 0; k <= nn; k++)
			end_template(d, cat, GK_SERVER, i, (int)k - 1, &c.srv_end[i][k]);
	}
	c.sw_base = xcalloc(d->switches.n + 1, sizeof *c.sw_base);
	c.sw_cpm = xcalloc(d->switches.n + 1, sizeof *c.sw_cpm);
	c.srv_base = xcalloc(d->servers.n + 1, sizeof *c.srv_base);
	c.srv_cpm = xcalloc(d->servers.n + 1, sizeof *c.srv_cpm);
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *g = DESIGN_SWITCH(d, i);
		const struct cat_switch *s = catalog_switch(cat, g->model);
		long radix = s ? (long)s->ports * (g->breakout > 0 ? g->breakout : 1) : 0;
		int per = cabling_switch_cage_ports(g, s);
		c.sw_base[i] = base;
		c.sw_cpm[i] = (radix + per - 1) / per;
		base += c.sw_cpm[i] * (g->count > 0 ? g->count : 0);
	}
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		c.srv_base[i] = base;
		c.srv_cpm[i] = cabling_server_cages(g, cat);
		base += c.srv_cpm[i] * (g->count > 0 ? g->count : 0);
	}
	c.ncages = base;
	c.cages = xcalloc((size_t)base + 1, sizeof *c.cages);
	c.bundle_max = xcalloc(d->bundles.n + 1, sizeof *c.bundle_max);
	c.bundle_mode = xcalloc(d->bundles.n + 1, sizeof *c.bundle_mode);
	c.bundle_mode_set = xcalloc(d->bundles.n + 1, sizeof *c.bundle_mode_set);
	for (i = 0; i < d->bundles.n; i++) {
		struct cp_bundle *b = vec_push(&p->bundles, sizeof *b);
		b->media = MEDIA_AUTO;
	}
	c.cur_bundle = (size_t)-1;
	for (c.pass = 0; c.pass < 3; c.pass++)
		cabling_walk_with(d, cat, p->wb, walk, &c, c.pass == 2 ? &p->problems : NULL);
	if (p->lines.n > 1)
		qsort(p->lines.v, p->lines.n, sizeof(struct cp_line), line_order);
	for (i = 0; i < d->bundles.n; i++) {
		struct cp_bundle *b = &VEC_AT(p->bundles, struct cp_bundle, i);
		int m, best = MEDIA_AUTO;
		for (m = 1; m < 5; m++)
			if (b->by_media[m] > (best ? b->by_media[best] : 0))
				best = m;
		b->media = best;
		snprintf(b->cable, sizeof b->cable, "%s", b->by_media_cable[best]);
		parts_warnings(d, i, b, &p->parts);
	}
	free(c.sw_base);
	free(c.sw_cpm);
	free(c.srv_base);
	free(c.srv_cpm);
	free(c.cages);
	free(c.bundle_max);
	free(c.bundle_mode);
	free(c.bundle_mode_set);
	for (i = 0; i < d->servers.n; i++)
		free(c.srv_end[i]);
	free(c.srv_end);
	free(c.sw_end);
	free(c.modules);
}

void cableplan_free(struct cableplan *p)
{
	free(p->wb);
	p->wb = NULL;
	floor_free(&p->floor);
	vec_release(&p->lines);
	vec_release(&p->bundles);
	diag_free(&p->problems);
	diag_free(&p->parts);
	memset(p, 0, sizeof *p);
}
