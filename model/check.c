/* check.c: what is wrong with a design, as errors and warnings with paths. */
#include "model/design.h"
#include "model/job.h"
#include "model/alloc.h"
#include "model/strmap.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>

int nic_speed_gbps(const struct nic_spec *n, const struct cat_nic *c)
{
	return n->speed_gbps ? n->speed_gbps : (c ? c->speed_gbps : 0);
}

double nic_slot_GBps(const struct nic_spec *n, const struct cat_nic *c)
{
	int gen = n->pcie_gen ? n->pcie_gen : (c ? c->pcie_gen : 0);
	int lanes = n->pcie_lanes ? n->pcie_lanes : (c ? c->pcie_lanes : 0);
	return pcie_GBps(gen, lanes);
}

int server_compute_ports(const struct server_group *g, const struct catalog *cat)
{
	size_t i;
	int ports = 0;
	for (i = 0; i < g->nics.n; i++) {
		const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, i);
		const struct cat_nic *c = catalog_nic(cat, n->model);
		if (n->use == NIC_COMPUTE && c)
			ports += n->count * c->ports;
	}
	return ports;
}

int switch_port_gbps(const struct switch_group *sw, const struct cat_switch *c)
{
	if (!c)
		return 0;
	return c->port_speed_gbps / (sw->breakout > 0 ? sw->breakout : 1);
}

/* Speed of one end of a bundle: the slowest compute NIC of a server group, a switch port. */
static int end_speed_at(const struct design *d, const struct catalog *cat, int kind, size_t i)
{
	size_t k;
	int best = 0;
	switch (kind) {
	case GK_SERVER: {
		const struct server_group *g = DESIGN_SERVER(d, i);
		for (k = 0; k < g->nics.n; k++) {
			const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
			int s = nic_speed_gbps(n, catalog_nic(cat, n->model));
			if (n->use == NIC_COMPUTE && s > 0 && (best == 0 || s < best))
				best = s;
		}
		return best;
	}
	case GK_SWITCH: {
		const struct switch_group *sw = DESIGN_SWITCH(d, i);
		return switch_port_gbps(sw, catalog_switch(cat, sw->model));
	}
	default:
		return 0;
	}
}

static int end_speed(const struct design *d, const struct catalog *cat, const char *name)
{
	size_t i;
	int kind = design_find(d, name, &i);
	return end_speed_at(d, cat, kind, i);
}

/* bundle_speed_gbps from the speeds of the two ends. */
static int speed_of(const struct bundle *b, int a, int z)
{
	if (b->speed_gbps)
		return b->speed_gbps;
	if (a && z)
		return a < z ? a : z;
	return a ? a : z;
}

int bundle_speed_gbps(const struct design *d, const struct catalog *cat, const struct bundle *b)
{
	if (b->speed_gbps)
		return b->speed_gbps;
	return speed_of(b, end_speed(d, cat, b->from), end_speed(d, cat, b->to));
}

int bundle_kind(const struct design *d, const struct bundle *b)
{
	size_t fi, ti;
	enum group_kind fk = design_find(d, b->from, &fi), tk = design_find(d, b->to, &ti);
	if (fk == GK_SERVER && tk == GK_SERVER)
		return BK_MESH;
	if (fk == GK_SWITCH && tk == GK_SWITCH && DESIGN_SWITCH(d, fi)->role >= DESIGN_SWITCH(d, ti)->role)
		return BK_PEER;
	return BK_UP;
}

/* Members of the far end a member of one end is linked to, in a mesh or peer bundle. */
static long peers_of(const struct design *d, const struct bundle *b, bool from_side)
{
	long f = design_group_count(d, b->from), t = design_group_count(d, b->to);
	if (!strcmp(b->from, b->to))
		return f > 0 ? f - 1 : 0;
	return from_side ? t : f;
}

long bundle_links(const struct design *d, const struct bundle *b)
{
	long f = design_group_count(d, b->from), L = b->links_each;
	if (bundle_kind(d, b) == BK_UP)
		return f * L;
	if (!strcmp(b->from, b->to))
		return f * (f > 0 ? f - 1 : 0) / 2 * L;
	return f * design_group_count(d, b->to) * L;
}

long bundle_ports_each(const struct design *d, const struct bundle *b, bool from_side)
{
	long L = b->links_each, t = design_group_count(d, b->to);
	if (bundle_kind(d, b) != BK_UP)
		return L * peers_of(d, b, from_side);
	if (from_side)
		return L;
	return t > 0 ? (design_group_count(d, b->from) * L + t - 1) / t : 0;
}

static long floordiv_l(long a, long b)
{
	long q = a / b;
	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* A bundle's ends as design_find resolves them, once per pass over the bundles (the check
 * and the port count ask about each end many times): kinds, indices, member counts
 * (design_group_count's: 0 for a name no group has) and bundle_kind. */
struct bend {
	int fk, tk, kind;
	size_t fi, ti;
	long fc, tc;
};

static long count_at(const struct design *d, int kind, size_t i)
{
	return kind == GK_SERVER ? DESIGN_SERVER(d, i)->count
	       : kind == GK_DOMAIN ? DESIGN_DOMAIN(d, i)->count : kind == GK_SWITCH ? DESIGN_SWITCH(d, i)->count : 0;
}

static struct bend *bends_make(const struct design *d)
{
	struct bend *be = xcalloc(d->bundles.n + 1, sizeof *be);
	size_t i;
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		struct bend *e = &be[i];
		e->fk = design_find(d, b->from, &e->fi);
		e->tk = design_find(d, b->to, &e->ti);
		e->fc = count_at(d, e->fk, e->fi);
		e->tc = count_at(d, e->tk, e->ti);
		if (e->fk == GK_SERVER && e->tk == GK_SERVER)
			e->kind = BK_MESH;
		else if (e->fk == GK_SWITCH && e->tk == GK_SWITCH &&
			 DESIGN_SWITCH(d, e->fi)->role >= DESIGN_SWITCH(d, e->ti)->role)
			e->kind = BK_PEER;
		else
			e->kind = BK_UP;
	}
	return be;
}

/* bundle_ports_each from the resolved ends. */
static long ports_each_at(const struct bundle *b, const struct bend *e, bool from_side)
{
	long L = b->links_each, t = e->tc;
	if (e->kind != BK_UP) {
		long peers = !strcmp(b->from, b->to) ? (e->fc > 0 ? e->fc - 1 : 0) : from_side ? e->tc : e->fc;
		return L * peers;
	}
	if (from_side)
		return L;
	return t > 0 ? (e->fc * L + t - 1) / t : 0;
}

/* The bundles that name each group of one kind as an end (from or to), in design order:
 * group i's are list[first[i] .. first[i + 1]). Groups that share a name share their
 * bundles, as comparing names would give them. Built in one pass over the bundles: from
 * the resolved ends when no two groups share a name (a name is then its group), else
 * through a map of the kind's names. */
struct ends {
	size_t *first, *list;
};

static void ends_unique(const struct design *d, size_t n, int kind, const struct bend *be, struct ends *e)
{
	size_t b, i, k, total = 0;
	e->first = xcalloc(n + 1, sizeof *e->first);
	for (k = 0; k < 2; k++) {
		if (k == 1) {
			for (i = 0; i < n; i++)
				e->first[i + 1] += e->first[i];
			e->list = xmalloc((total ? total : 1) * sizeof *e->list);
		}
		for (b = 0; b < d->bundles.n; b++) {
			const struct bend *x = &be[b];
			bool from = x->fk == kind, to = x->tk == kind && !(from && x->fi == x->ti);
			if (k == 0) {
				if (from) {
					e->first[x->fi + 1]++;
					total++;
				}
				if (to) {
					e->first[x->ti + 1]++;
					total++;
				}
			} else {
				if (from)
					e->list[e->first[x->fi]++] = b;
				if (to)
					e->list[e->first[x->ti]++] = b;
			}
		}
	}
	for (i = n; i > 0; i--)
		e->first[i] = e->first[i - 1];
	e->first[0] = 0;
}

static void ends_build(const struct design *d, const struct vec *groups, size_t size, size_t name_off, int kind,
		       const struct bend *be, struct ends *e)
{
	size_t n = groups->n, i, k, total = 0;
	struct strmap names;
	int *same;
	if (design_names_unique(d)) {
		ends_unique(d, n, kind, be, e);
		return;
	}
	same = xmalloc((n ? n : 1) * sizeof *same); /* next group with the same name, -1 */
	e->first = xcalloc(n + 1, sizeof *e->first);
	strmap_init(&names, n);
	for (i = n; i-- > 0;) {
		const char *name = (const char *)groups->v + i * size + name_off;
		/* Walking backwards, each group goes in front of its name's chain, so the chain
		 * runs in design order and the map ends up holding the first of each name. */
		same[i] = strmap_get(&names, name);
		strmap_set(&names, name, (int)i);
	}
	/* Two passes: count, then fill, so each group's bundles stay in design order. */
	for (k = 0; k < 2; k++) {
		size_t b;
		if (k == 1) {
			for (i = 0; i < n; i++)
				e->first[i + 1] += e->first[i];
			e->list = xmalloc((total ? total : 1) * sizeof *e->list);
		}
		for (b = 0; b < d->bundles.n; b++) {
			const struct bundle *bu = DESIGN_BUNDLE(d, b);
			int end, g;
			for (end = 0; end < 2; end++) {
				if (end == 1 && !strcmp(bu->from, bu->to))
					break; /* both ends are the same groups: listed once */
				for (g = strmap_get(&names, end ? bu->to : bu->from); g >= 0; g = same[g]) {
					if (k == 0) {
						e->first[g + 1]++;
						total++;
					} else {
						e->list[e->first[g]++] = b;
					}
				}
			}
		}
	}
	/* The fill moved each first[i] to the end of its list: shift back. */
	for (i = n; i > 0; i--)
		e->first[i] = e->first[i - 1];
	e->first[0] = 0;
	strmap_free(&names);
	free(same);
}

static void ends_free(struct ends *e)
{
	free(e->first);
	free(e->list);
}

/* Ports per switch of group sw, following the wiring rules exactly (topo.h "Wiring"): the
 * members of the groups bundled into it are numbered in bundle order, and tor, rail and
 * spread put each link on one switch. down is the busiest switch's. Only the bundles of
 * bix (nb of them, in design order; NULL: every bundle) are looked at: those that do not
 * name sw count nothing. */
static void ports_over(const struct design *d, const struct bend *be, const struct switch_group *sw, const size_t *bix,
		       size_t nb, long *down, long *up)
{
	size_t i;
	long n = sw->count, D = 0, off = 0, *per_sw = NULL, s;
	*down = *up = 0;
	/* D: positions of every group bundled up into sw. */
	for (i = 0; i < nb; i++) {
		size_t k = bix ? bix[i] : i;
		const struct bundle *b = DESIGN_BUNDLE(d, k);
		if (be[k].kind == BK_UP && !strcmp(b->to, sw->name) && strcmp(b->from, sw->name))
			D += be[k].fc;
	}
	if (n > 0 && D > 0)
		per_sw = xcalloc((size_t)n, sizeof *per_sw);
	for (i = 0; i < nb; i++) {
		size_t k = bix ? bix[i] : i;
		const struct bundle *b = DESIGN_BUNDLE(d, k);
		bool from = strcmp(b->from, sw->name) == 0, to = strcmp(b->to, sw->name) == 0;
		long c, L = b->links_each > 0 ? b->links_each : 1;
		if (!from && !to)
			continue;
		if (be[k].kind == BK_PEER) {
			/* Links to switches of its own tier: counted with the uplinks. */
			if (from)
				*up += ports_each_at(b, &be[k], true);
			if (to && !from)
				*up += ports_each_at(b, &be[k], false);
			continue;
		}
		if (from) {
			*up += b->links_each;
			continue;
		}
		c = be[k].fc;
		if (!per_sw || c <= 0) {
			off += c > 0 ? c : 0;
			continue;
		}
		if (b->wiring == WIRE_TOR) {
			long per = (D + n - 1) / n, s0 = off / per, s1 = (off + c - 1) / per;
			for (s = s0; s <= s1 && s < n; s++) {
				long lo = s * per > off ? s * per : off, hi = (s + 1) * per < off + c ? (s + 1) * per : off + c;
				per_sw[s] += (hi - lo) * L;
			}
		} else if (b->wiring == WIRE_RAIL && n / L >= 1) {
			long units = n / L, us = (D + units - 1) / units, u0 = off / us, u1 = (off + c - 1) / us, u, l;
			for (u = u0; u <= u1 && u < units; u++) {
				long lo = u * us > off ? u * us : off, hi = (u + 1) * us < off + c ? (u + 1) * us : off + c;
				for (l = 0; l < L && u * L + l < n; l++)
					per_sw[u * L + l] += hi - lo;
			}
		} else if (b->wiring == WIRE_RAIL) {
			/* Fewer switches than rails: link l on switch l mod n. */
			long l;
			for (l = 0; l < L; l++)
				per_sw[l % n] += c;
		} else {
			/* spread: link l of position p on switch (p L + l) mod n: the links of positions
			 * off..off+c-1 are the numbers off L .. (off + c) L - 1, and switch s takes those
			 * congruent to s mod n. */
			long lo = off * L, hi = (off + c) * L; /* [lo, hi) */
			for (s = 0; s < n; s++)
				per_sw[s] += floordiv_l(hi - 1 - s, n) - floordiv_l(lo - 1 - s, n);
		}
		off += c;
	}
	if (per_sw) {
		for (s = 0; s < n; s++)
			if (per_sw[s] > *down)
				*down = per_sw[s];
		free(per_sw);
	}
}

void switch_ports_used(const struct design *d, const struct switch_group *sw, long *down, long *up)
{
	struct bend *be = bends_make(d);
	ports_over(d, be, sw, NULL, d->bundles.n, down, up);
	free(be);
}

static void ports_all(const struct design *d, const struct bend *be, long *down, long *up)
{
	struct ends e;
	size_t i;
	ends_build(d, &d->switches, sizeof(struct switch_group), offsetof(struct switch_group, name), GK_SWITCH, be, &e);
	for (i = 0; i < d->switches.n; i++)
		ports_over(d, be, DESIGN_SWITCH(d, i), e.list + e.first[i], e.first[i + 1] - e.first[i], &down[i], &up[i]);
	ends_free(&e);
}

void switch_ports_all(const struct design *d, long *down, long *up)
{
	struct bend *be = bends_make(d);
	ports_all(d, be, down, up);
	free(be);
}

const char *name_nearest(const struct vec *v, size_t size, const char *name)
{
	size_t i, best = SIZE_MAX, nl = strlen(name);
	const char *hit = NULL;
	for (i = 0; i < v->n; i++) {
		const char *cand = (const char *)v->v + i * size;
		size_t cl = strlen(cand), j, common = 0, d;
		/* Score: edit-like distance from common prefix plus length difference. */
		for (j = 0; j < nl && j < cl && cand[j] == name[j]; j++)
			common++;
		d = (nl > common ? nl - common : 0) + (cl > common ? cl - common : 0);
		if (strstr(cand, name) || strstr(name, cand))
			d = cl > nl ? cl - nl : nl - cl;
		if (d < best) {
			best = d;
			hit = cand;
		}
	}
	return best <= (nl > 4 ? nl / 2 + 2 : 3) ? hit : NULL;
}

/* A problem's path, "servers[3].nics[1].model", is named for every field the check looks
 * at but written out only when a problem is found there: the check runs on every edit.
 * fmt takes %zu (size_t) and %s only; the text is cut to 128 bytes as snprintf would. */
struct path {
	const char *fmt;       /* "servers[%zu].gpu": %zu (size_t) and %s, in the order of the args */
	const char *s;
	size_t a, b;
	char text[128];
};

/* The path of a field of element a of a list (fmt has one %zu), of element b of a list
 * inside it (two), or of element a of the list named s ("%s[%zu].name"). */
static void set_path(struct path *p, const char *fmt, size_t a)
{
	p->fmt = fmt;
	p->s = NULL;
	p->a = a;
}

static void set_path2(struct path *p, const char *fmt, size_t a, size_t b)
{
	p->fmt = fmt;
	p->s = NULL;
	p->a = a;
	p->b = b;
}

static void set_path_s(struct path *p, const char *fmt, const char *s, size_t a)
{
	p->fmt = fmt;
	p->s = s;
	p->a = a;
}

static const char *path_text(struct path *p)
{
	const char *fmt = p->fmt;
	size_t n = 0, k;
	int a = 0;
	while (*fmt && n < 127) {
		const char *pc = strchr(fmt, '%');
		size_t lit = pc ? (size_t)(pc - fmt) : strlen(fmt);
		if (lit > 127 - n)
			lit = 127 - n;
		memcpy(p->text + n, fmt, lit);
		n += lit;
		if (!pc || n >= 127)
			break;
		if (pc[1] == 'z' && pc[2] == 'u' && a < 2) {
			char digits[24];
			size_t v = a++ ? p->b : p->a;
			k = 0;
			do
				digits[k++] = (char)('0' + v % 10);
			while ((v /= 10) && k < sizeof digits);
			while (k && n < 127)
				p->text[n++] = digits[--k];
			fmt = pc + 3;
		} else if (pc[1] == 's' && p->s) {
			const char *t = p->s;
			k = strlen(t);
			if (k > 127 - n)
				k = 127 - n;
			memcpy(p->text + n, t, k);
			n += k;
			fmt = pc + 2;
		} else {
			p->text[n++] = '%';
			fmt = pc + 1;
		}
	}
	p->text[n] = '\0';
	return p->text;
}

static void unknown_part(struct ncf_diag *diag, const char *path, const char *what, const char *name,
			 const struct vec *v, size_t size)
{
	const char *s = name_nearest(v, size, name);
	if (s)
		diag_add(diag, NCF_ERROR, path, "unknown %s '%s' (did you mean '%s'?)", what, name, s);
	else
		diag_add(diag, NCF_ERROR, path, "unknown %s '%s': not in the catalog", what, name);
}

static void check_names(const struct design *d, struct ncf_diag *diag)
{
	/* Group names are unique across servers, domains and switches: bundles refer to them.
	 * Repeats are found through a hash map (a design may hold thousands of groups); each
	 * group that repeats an earlier name names the first of them. */
	const char *names[3] = { "servers", "domains", "switches" };
	const struct vec *vs[3] = { &d->servers, &d->domains, &d->switches };
	size_t sizes[3] = { sizeof(struct server_group), sizeof(struct domain_group), sizeof(struct switch_group) };
	size_t offs[3] = { offsetof(struct server_group, name), offsetof(struct domain_group, name),
			   offsetof(struct switch_group, name) };
	size_t total = vs[0]->n + vs[1]->n + vs[2]->n, a, i, k = 0, *first;
	struct strmap seen;
	struct path path;
	if (!total)
		return;
	first = xmalloc(total * sizeof *first);
	strmap_init(&seen, total);
	for (a = 0; a < 3; a++)
		for (i = 0; i < vs[a]->n; i++, k++)
			first[k] = (size_t)strmap_add(&seen, (const char *)vs[a]->v + i * sizes[a] + offs[a], (int)k);
	strmap_free(&seen);
	for (a = 0, k = 0; a < 3; a++)
		for (i = 0; i < vs[a]->n; i++, k++) {
			const char *n = (const char *)vs[a]->v + i * sizes[a] + offs[a];
			set_path_s(&path, "%s[%zu].name", names[a], i);
			if (!n[0])
				diag_add(diag, NCF_ERROR, path_text(&path), "a group needs a name");
			if (first[k] != k) {
				size_t f = first[k], fa = f < vs[0]->n ? 0 : f < vs[0]->n + vs[1]->n ? 1 : 2;
				size_t fi = f - (fa > 0 ? vs[0]->n : 0) - (fa > 1 ? vs[1]->n : 0);
				diag_add(diag, NCF_ERROR, path_text(&path), "duplicate group name '%s' (also %s[%zu])", n, names[fa], fi);
			}
		}
	free(first);
}

static void check_servers(const struct design *d, const struct catalog *cat, struct ncf_diag *diag)
{
	size_t i, k, di;
	struct path path;
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		const struct cat_fabric *fab = catalog_fabric(cat, g->scaleup);
		set_path(&path, "servers[%zu].gpu", i);
		if (!catalog_gpu(cat, g->gpu))
			unknown_part(diag, path_text(&path), "GPU", g->gpu, &cat->gpus, sizeof(struct cat_gpu));
		set_path(&path, "servers[%zu].scaleup", i);
		if (!fab)
			unknown_part(diag, path_text(&path), "scale-up fabric", g->scaleup, &cat->fabrics, sizeof(struct cat_fabric));
		else if (fab->kind == FAB_NVSWITCH_TRAY)
			diag_add(diag, NCF_ERROR, path_text(&path), "'%s' is a switch tray: name it in a domains: group", g->scaleup);
		else if (catalog_gpu(cat, g->gpu) && catalog_gpu(cat, g->gpu)->form == FORM_CARD &&
			 (fab->kind == FAB_NVSWITCH || fab->kind == FAB_NVLINK_MESH))
			diag_add(diag, NCF_WARNING, path_text(&path),
				 "%s is a PCIe card: it joins NVLink only through a bridge (scaleup: nvlink-bridge-2way)",
				 g->gpu);
		else if (fab->kind == FAB_NVLINK_BRIDGE && catalog_gpu(cat, g->gpu) &&
			 catalog_gpu(cat, g->gpu)->nvlink_links == 0)
			diag_add(diag, NCF_WARNING, path_text(&path), "%s has no NVLink: the bridge joins nothing", g->gpu);
		else if (fab->max_gpus && g->gpus > fab->max_gpus && !g->domain[0] && fab->kind != FAB_NVLINK_BRIDGE &&
			 fab->kind != FAB_PCIE_SWITCH)
			diag_add(diag, NCF_WARNING, path_text(&path), "%d GPUs per server, but one %s joins at most %d",
				 g->gpus, g->scaleup, fab->max_gpus);
		set_path(&path, "servers[%zu].model", i);
		if (g->model[0] && !catalog_server(cat, g->model))
			unknown_part(diag, path_text(&path), "server", g->model, &cat->servers, sizeof(struct cat_server));
		set_path(&path, "servers[%zu].domain", i);
		if (g->domain[0] && design_find(d, g->domain, &di) != GK_DOMAIN)
			diag_add(diag, NCF_ERROR, path_text(&path), "no NVLink domain group named '%s'", g->domain);
		for (k = 0; k < g->nics.n; k++) {
			const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
			const struct cat_nic *c = catalog_nic(cat, n->model);
			double slot, line;
			set_path2(&path, "servers[%zu].nics[%zu].model", i, k);
			if (!c) {
				unknown_part(diag, path_text(&path), "NIC", n->model, &cat->nics, sizeof(struct cat_nic));
				continue;
			}
			set_path2(&path, "servers[%zu].nics[%zu].speed_gbps", i, k);
			if (n->speed_gbps > c->speed_gbps)
				diag_add(diag, NCF_ERROR, path_text(&path), "%d Gb/s is faster than a %s can run (%d Gb/s)",
					 n->speed_gbps, c->name, c->speed_gbps);
			slot = nic_slot_GBps(n, c);
			line = nic_speed_gbps(n, c) * c->ports / 8.0;
			set_path2(&path, "servers[%zu].nics[%zu]", i, k);
			if (slot > 0 && line > slot * 1.0001)
				diag_add(diag, NCF_WARNING, path_text(&path),
					 "NIC faster than its PCIe slot: %s carries %.1f GB/s, its slot %.1f GB/s",
					 c->name, line, slot);
			{
				/* The transport NCCL uses over it (fabric-physics.md 4). */
				const char *tn = n->transport[0] ? n->transport : c->transport[0] ? c->transport
												   : transport_for(c->protocol);
				const struct cat_transport *tr = catalog_transport(cat, tn);
				set_path2(&path, "servers[%zu].nics[%zu].transport", i, k);
				if (!tr && (n->transport[0] || c->transport[0]))
					unknown_part(diag, path_text(&path), "transport", tn, &cat->transports,
						     sizeof(struct cat_transport));
				else if (tr && n->use == NIC_COMPUTE && strcmp(tr->name, "sockets") == 0)
					diag_add(diag, NCF_WARNING, path_text(&path),
						 "%s runs NCCL's socket transport (no RDMA): %.0f%% of its line rate as measured; a RoCE or InfiniBand NIC carries %.0f%%",
						 c->name, 100 * tr->efficiency,
						 catalog_transport(cat, "roce") ? 100 * catalog_transport(cat, "roce")->efficiency : 98.0);
			}
		}
	}
}

static void check_domains(const struct design *d, const struct catalog *cat, struct ncf_diag *diag)
{
	size_t i, k;
	struct path path;
	struct strmap names;
	int *same;
	long *members;
	if (!d->domains.n)
		return;
	/* Servers naming each domain, in one pass over the server groups (domains that share
	 * a name each count them all, as comparing names would). */
	same = xmalloc(d->domains.n * sizeof *same);
	members = xcalloc(d->domains.n, sizeof *members);
	strmap_init(&names, d->domains.n);
	for (i = d->domains.n; i-- > 0;) {
		same[i] = strmap_get(&names, DESIGN_DOMAIN(d, i)->name);
		strmap_set(&names, DESIGN_DOMAIN(d, i)->name, (int)i);
	}
	for (k = 0; k < d->servers.n; k++) {
		int g;
		for (g = strmap_get(&names, DESIGN_SERVER(d, k)->domain); g >= 0; g = same[g])
			members[g] += DESIGN_SERVER(d, k)->count;
	}
	for (i = 0; i < d->domains.n; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		const struct cat_fabric *t = catalog_fabric(cat, m->tray);
		long servers = members[i];
		set_path(&path, "domains[%zu].tray", i);
		if (!t)
			unknown_part(diag, path_text(&path), "switch tray", m->tray, &cat->fabrics, sizeof(struct cat_fabric));
		else if (t->kind != FAB_NVSWITCH_TRAY)
			diag_add(diag, NCF_ERROR, path_text(&path), "'%s' is not an NVLink switch tray (kind nvswitch-tray)", m->tray);
		set_path(&path, "domains[%zu].count", i);
		if (servers != (long)m->count * m->servers_each)
			diag_add(diag, NCF_WARNING, path_text(&path),
				 "%d domains x %d servers need %ld servers, but %ld name domain '%s'",
				 m->count, m->servers_each, (long)m->count * m->servers_each, servers, m->name);
	}
	strmap_free(&names);
	free(same);
	free(members);
}

static void check_bundles(const struct design *d, const struct catalog *cat, const struct bend *be,
			  struct ncf_diag *diag)
{
	size_t i, k, fi, ti;
	struct ends e;
	struct path path;
	/* Per switch group: the links tor and spread bundles bring into it, and the last of
	 * those bundles. */
	long *even_total = xcalloc(d->switches.n ? d->switches.n : 1, sizeof *even_total);
	size_t *even_last = xcalloc(d->switches.n ? d->switches.n : 1, sizeof *even_last);
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		if (b->wiring == WIRE_RAIL || b->wiring == WIRE_MESH || be[i].tk != GK_SWITCH || be[i].kind != BK_UP)
			continue;
		even_total[be[i].ti] += be[i].fc * (long)b->links_each;
		even_last[be[i].ti] = i;
	}
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		int fk = be[i].fk, tk = be[i].tk, ft, tt, speed, fs, ts;
		fi = be[i].fi;
		ti = be[i].ti;
		set_path(&path, "bundles[%zu].from", i);
		if (fk == GK_NONE || fk == GK_DOMAIN) {
			diag_add(diag, NCF_ERROR, path_text(&path), "no server or switch group named '%s'", b->from);
			continue;
		}
		set_path(&path, "bundles[%zu].to", i);
		if (b->wiring == WIRE_MESH) {
			/* Direct links between servers. */
			if (fk != GK_SERVER || tk != GK_SERVER) {
				set_path(&path, "bundles[%zu].wiring", i);
				diag_add(diag, NCF_ERROR, path_text(&path),
					 "mesh wiring links servers to servers: '%s' and '%s' must both be server groups",
					 b->from, b->to);
				continue;
			}
		} else if (tk == GK_SERVER && fk == GK_SERVER) {
			set_path(&path, "bundles[%zu].wiring", i);
			diag_add(diag, NCF_ERROR, path_text(&path), "a bundle between server groups needs wiring: mesh (direct links)");
			continue;
		} else if (tk != GK_SWITCH) {
			diag_add(diag, NCF_ERROR, path_text(&path), tk == GK_NONE ? "no switch group named '%s'"
					: "'%s' is not a switch group: bundles end on switches (or on servers with wiring: mesh)", b->to);
			continue;
		}
		/* design_tier of each end (the to end is a switch group here; the from end a
		 * server or switch group). */
		ft = fk == GK_SERVER ? 0 : 1 + DESIGN_SWITCH(d, fi)->role;
		tt = tk == GK_SERVER ? 0 : 1 + DESIGN_SWITCH(d, ti)->role;
		if (tk == GK_SWITCH && fk == GK_SERVER && ft >= tt)
			diag_add(diag, NCF_ERROR, path_text(&path), "bundles go up a tier: '%s' (%s) is not above '%s' (%s)",
				 b->to, switch_role_names[tt - 1], b->from,
				 ft == 0 ? "servers" : switch_role_names[ft - 1]);
		if (tk == GK_SWITCH && fk == GK_SWITCH && ft > tt)
			diag_add(diag, NCF_ERROR, path_text(&path), "bundles go up a tier: '%s' (%s) is below '%s' (%s); write it from '%s' to '%s'",
				 b->to, switch_role_names[tt - 1], b->from, switch_role_names[ft - 1], b->to, b->from);
		if (!strcmp(b->from, b->to) && be[i].fc == 1)
			/* A group to itself links its members to one another (peer links, or a mesh of
			 * servers): one member has no other to link to. */
			diag_add(diag, NCF_ERROR, path_text(&path),
				 "a bundle from '%s' to itself links its members to one another (%s), but '%s' has 1 member: it makes no links",
				 b->to, fk == GK_SERVER ? "a mesh" : "peer links", b->to);
		set_path(&path, "bundles[%zu].cable", i);
		if (b->cable[0] && !catalog_cable(cat, b->cable))
			unknown_part(diag, path_text(&path), "cable", b->cable, &cat->cables, sizeof(struct cat_cable));
		fs = end_speed_at(d, cat, fk, fi);
		ts = end_speed_at(d, cat, tk, ti);
		speed = speed_of(b, fs, ts);
		set_path(&path, "bundles[%zu].speed_gbps", i);
		{
			if (b->speed_gbps && ((fs && speed > fs) || (ts && speed > ts)))
				diag_add(diag, NCF_ERROR, path_text(&path), "%d Gb/s is faster than the ports at its ends (%d and %d Gb/s)",
					 speed, fs, ts);
			else if (fs && ts && fs != ts)
				diag_add(diag, NCF_WARNING, path_text(&path),
					 "mismatched speeds: '%s' ports run at %d Gb/s, '%s' ports at %d Gb/s; links run at %d",
					 b->from, fs, b->to, ts, speed);
		}
		if (be[i].kind != BK_UP) {
			/* mesh and peer bundles: every member to every member of the other end */
		} else if (b->wiring == WIRE_RAIL) {
			const struct switch_group *to = DESIGN_SWITCH(d, ti);
			set_path(&path, "bundles[%zu].wiring", i);
			if (to->count % b->links_each)
				diag_add(diag, NCF_WARNING, path_text(&path),
					 "rail wiring puts NIC i of every server on leaf i of its unit: %d switches are not a multiple of %d rails",
					 to->count, b->links_each);
		} else {
			/* Evenness is the switch group's: the links of every bundle into it, however
			 * many groups bring them (checked at the last such bundle). */
			long total = even_total[ti], cnt = DESIGN_SWITCH(d, ti)->count;
			set_path(&path, "bundles[%zu].links_each", i);
			if (even_last[ti] == i && cnt > 0 && total % cnt)
				diag_add(diag, NCF_WARNING, path_text(&path),
					 "%ld links do not spread evenly over %ld switches of '%s'", total, cnt, b->to);
		}
	}
	free(even_total);
	free(even_last);
	/* Server NIC ports: used by bundles, at most what the NICs have. */
	ends_build(d, &d->servers, sizeof(struct server_group), offsetof(struct server_group, name), GK_SERVER, be, &e);
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		int have = server_compute_ports(g, cat), used = 0;
		size_t j;
		for (j = e.first[i]; j < e.first[i + 1]; j++) {
			k = e.list[j];
			if (strcmp(DESIGN_BUNDLE(d, k)->from, g->name) == 0)
				used += (int)ports_each_at(DESIGN_BUNDLE(d, k), &be[k], true);
			else if (strcmp(DESIGN_BUNDLE(d, k)->to, g->name) == 0 && DESIGN_BUNDLE(d, k)->wiring == WIRE_MESH)
				used += (int)ports_each_at(DESIGN_BUNDLE(d, k), &be[k], false);
		}
		set_path(&path, "servers[%zu].nics", i);
		if (used > have)
			diag_add(diag, NCF_ERROR, path_text(&path),
				 "bundles take %d links from each server of '%s', but its compute NICs have %d ports",
				 used, g->name, have);
		else if (used < have && g->count > 0)
			diag_add(diag, NCF_WARNING, path_text(&path), "unconnected NICs: %d of %d compute NIC ports per server of '%s' have no bundle",
				 have - used, have, g->name);
	}
	ends_free(&e);
}

static void check_switches(const struct design *d, const struct catalog *cat, const long *downs, const long *ups,
			   struct ncf_diag *diag)
{
	size_t i;
	struct path path;
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *sw = DESIGN_SWITCH(d, i);
		const struct cat_switch *c = catalog_switch(cat, sw->model);
		long down = downs[i], up = ups[i], radix;
		set_path(&path, "switches[%zu].model", i);
		if (!c) {
			unknown_part(diag, path_text(&path), "switch", sw->model, &cat->switches, sizeof(struct cat_switch));
			continue;
		}
		set_path(&path, "switches[%zu].breakout", i);
		if (sw->breakout > (c->max_breakout ? c->max_breakout : 1))
			diag_add(diag, NCF_ERROR, path_text(&path), "a %s port splits into at most %d, not %d",
				 c->name, c->max_breakout ? c->max_breakout : 1, sw->breakout);
		radix = (long)c->ports * sw->breakout;
		set_path(&path, "switches[%zu]", i);
		if (down + up > radix)
			diag_add(diag, NCF_ERROR, path_text(&path),
				 "ports beyond the switch's radix: each switch of '%s' needs %ld ports (%ld down, %ld up), a %s has %ld",
				 sw->name, down + up, down, up, c->name, radix);
		else if (down + up == 0 && sw->count > 0)
			diag_add(diag, NCF_WARNING, path_text(&path), "switch group '%s' has no bundles", sw->name);
	}
}

/* Does the comma-separated list names (job.groups) name group or domain? */
static bool names_group(const char *names, const char *group, const char *domain)
{
	char name[NCF_NAME_MAX];
	const char *s = names;
	while ((s = design_list_next(s, name, sizeof name)))
		if (name[0] && (!strcmp(group, name) || (domain[0] && !strcmp(domain, name))))
			return true;
	return false;
}

/* Megatron asserts global_batch % (micro_batch_size x DP) == 0 (its micro-batch calculator,
 * "global batch size (..) is not divisible by micro batch size (..) times data parallel size
 * (..)"): a micro-batch is whole sequences. A warning, not an error: the model still runs
 * (the average micro-batch, or the whole micro-batches) and files that loaded keep loading. */
static void check_whole_micro_batches(const struct job *j, const struct job_shape *s, struct ncf_diag *diag)
{
	long gb = j->global_batch, mbs = j->micro_batch_size, per = (long)s->dp * (mbs > 0 ? mbs : s->micro_batches);
	long lo, hi;
	char whole[80];
	if (gb <= 0 || per <= 0 || gb % per == 0)
		return;
	lo = gb / per * per;
	hi = lo + per;
	if (lo)
		snprintf(whole, sizeof whole, "%ld or %ld", lo, hi);
	else
		snprintf(whole, sizeof whole, "%ld", hi);
	if (mbs > 0)
		diag_add(diag, NCF_WARNING, "job.global_batch",
			 "global_batch %ld is not a multiple of DP %d x micro_batch_size %ld = %ld, which Megatron refuses "
			 "(it asserts global_batch %% (micro_batch_size x DP) == 0); the model runs %d micro-batch%s of %ld, "
			 "%ld sequences (global_batch %s is whole)",
			 gb, s->dp, mbs, per, s->micro_batches, s->micro_batches == 1 ? "" : "es", mbs, lo, whole);
	else
		diag_add(diag, NCF_WARNING, "job.global_batch",
			 "a micro-batch of %.4g sequences: global_batch %ld is not a multiple of DP %d x %d micro-batch%s a "
			 "step = %ld, which Megatron refuses (it asserts global_batch %% (micro_batch_size x DP) == 0); the "
			 "model runs %s %.4g (global_batch %s is whole)",
			 (double)gb / per, gb, s->dp, s->micro_batches, s->micro_batches == 1 ? "" : "es", per,
			 (double)gb / per < 1 ? "at least" : "the average,", s->micro_seqs, whole);
}

static void check_job(const struct design *d, const struct catalog *cat, struct ncf_diag *diag)
{
	const struct job *j = &d->job;
	long gpus = 0, used;
	size_t i;
	bool nvls = d->servers.n > 0;
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		const struct cat_fabric *f = catalog_fabric(cat, g->scaleup);
		const struct cat_gpu *gpu = catalog_gpu(cat, g->gpu);
		if (j->groups[0] && !names_group(j->groups, g->name, g->domain))
			continue;
		gpus += (long)g->count * g->gpus;
		if (!f || !f->nvls || !gpu || gpu->sm < 90)
			nvls = false;
	}
	used = j->gpus ? j->gpus : gpus;
	if (j->gpus > gpus)
		diag_add(diag, NCF_ERROR, "job.gpus", "the job asks for %d GPUs, the %s %ld", j->gpus,
			 j->groups[0] ? "groups of job.groups have" : "design has", gpus);
	else if (used > 0) {
		struct job_shape s;
		char why[300];
		const char *field = "job";
		if (!job_shape(j, used, 0, &s, why, sizeof why, &field))
			diag_add(diag, NCF_ERROR, field, "%s", why);
		else {
			check_whole_micro_batches(j, &s, diag);
			if (j->dp && j->dp != s.dp)
				diag_add(diag, NCF_WARNING, "job.dp",
					 "a design that does not match the job: DP %d x TP %d x PP %d x CP %d = %ld, not the %ld GPUs taking part; the model runs DP %d",
					 j->dp, s.tp, s.pp, s.cp, (long)j->dp * s.replica, used, s.dp);
		}
	}
	if ((j->algo == ALGO_NVLS || j->algo == ALGO_NVLSTREE) && !nvls)
		diag_add(diag, NCF_WARNING, "job.algo",
			 "NVLS asked for without NVSwitch: it needs an NVSwitch with NVLS (3rd generation or later) and Hopper or later GPUs");
	if ((j->algo == ALGO_COLLNET) && !d->fabric.sharp)
		diag_add(diag, NCF_WARNING, "job.algo", "CollNet asked for, but fabric.sharp is off");
	if (j->active_params_b > j->params_b)
		diag_add(diag, NCF_ERROR, "job.active_params_b",
			 "the %g billion active parameters are more than the model's %g billion (params_b)", j->active_params_b,
			 j->params_b);
	if (j->expert_params_b > j->params_b)
		diag_add(diag, NCF_ERROR, "job.expert_params_b",
			 "the experts' %g billion parameters are more than the model's %g billion (params_b)",
			 j->expert_params_b, j->params_b);
}

/* One part name, when given: unknown_part if the catalog has no such part. */
static void part_known(struct ncf_diag *diag, struct path *path, const char *what, const char *name,
		       const void *found, const struct vec *v, size_t size)
{
	if (name[0] && !found)
		unknown_part(diag, path_text(path), what, name, v, size);
}

int design_check_parts(const struct design *d, const struct catalog *cat, struct ncf_diag *diag)
{
	int before = diag->n_errors;
	size_t i, k;
	struct path path;
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		set_path(&path, "servers[%zu].gpu", i);
		part_known(diag, &path, "GPU", g->gpu, catalog_gpu(cat, g->gpu), &cat->gpus, sizeof(struct cat_gpu));
		set_path(&path, "servers[%zu].scaleup", i);
		part_known(diag, &path, "scale-up fabric", g->scaleup, catalog_fabric(cat, g->scaleup), &cat->fabrics,
			   sizeof(struct cat_fabric));
		set_path(&path, "servers[%zu].model", i);
		part_known(diag, &path, "server", g->model, catalog_server(cat, g->model), &cat->servers,
			   sizeof(struct cat_server));
		for (k = 0; k < g->nics.n; k++) {
			const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
			set_path2(&path, "servers[%zu].nics[%zu].model", i, k);
			part_known(diag, &path, "NIC", n->model, catalog_nic(cat, n->model), &cat->nics, sizeof(struct cat_nic));
			set_path2(&path, "servers[%zu].nics[%zu].transport", i, k);
			part_known(diag, &path, "transport", n->transport, catalog_transport(cat, n->transport),
				   &cat->transports, sizeof(struct cat_transport));
		}
	}
	for (i = 0; i < d->domains.n; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		set_path(&path, "domains[%zu].tray", i);
		part_known(diag, &path, "switch tray", m->tray, catalog_fabric(cat, m->tray), &cat->fabrics,
			   sizeof(struct cat_fabric));
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *sw = DESIGN_SWITCH(d, i);
		set_path(&path, "switches[%zu].model", i);
		part_known(diag, &path, "switch", sw->model, catalog_switch(cat, sw->model), &cat->switches,
			   sizeof(struct cat_switch));
	}
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		set_path(&path, "bundles[%zu].cable", i);
		part_known(diag, &path, "cable", b->cable, catalog_cable(cat, b->cable), &cat->cables,
			   sizeof(struct cat_cable));
	}
	return diag->n_errors - before;
}

static int check_with(const struct design *d, const struct catalog *cat, const struct bend *be, const long *down,
		      const long *up, struct ncf_diag *diag)
{
	int before = diag->n_errors;
	/* The checks below and the model rely on the schema's ranges (a bundle has at least
	 * one link per member, ...): a design that breaks them is refused before any of it is
	 * computed, whoever built it. */
	if (schema_check(&design_schema, d, "", diag, 20))
		return diag->n_errors - before;
	check_names(d, diag);
	check_servers(d, cat, diag);
	check_domains(d, cat, diag);
	check_switches(d, cat, down, up, diag);
	check_bundles(d, cat, be, diag);
	check_job(d, cat, diag);
	return diag->n_errors - before;
}

int design_check_ports(const struct design *d, const struct catalog *cat, const long *down, const long *up,
		       struct ncf_diag *diag)
{
	struct bend *be = bends_make(d);
	int errors = check_with(d, cat, be, down, up, diag);
	free(be);
	return errors;
}

int design_check_count(const struct design *d, const struct catalog *cat, long *down, long *up, struct ncf_diag *diag)
{
	struct bend *be = bends_make(d);
	int errors;
	ports_all(d, be, down, up);
	errors = check_with(d, cat, be, down, up, diag);
	free(be);
	return errors;
}

int design_check(const struct design *d, const struct catalog *cat, struct ncf_diag *diag)
{
	long *down = xmalloc((d->switches.n ? d->switches.n : 1) * sizeof *down);
	long *up = xmalloc((d->switches.n ? d->switches.n : 1) * sizeof *up);
	int errors = design_check_count(d, cat, down, up, diag);
	free(down);
	free(up);
	return errors;
}
