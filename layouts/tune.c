/* tune.c: the designer's search over a design's own parameters (tune.h). */
#include "layouts/tune.h"
#include "model/diag.h"
#include "model/alloc.h"
#include "model/metrics.h"
#include "model/num.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void add_value(struct tune_axis *a, const char *v)
{
	int i;
	for (i = 0; i < a->nvalues; i++)
		if (!strcmp(a->values[i], v))
			return;
	if (a->nvalues < OPT_MAX_VALUES)
		snprintf(a->values[a->nvalues++], sizeof a->values[0], "%s", v);
}

static void add_int(struct tune_axis *a, long v)
{
	char t[24];
	snprintf(t, sizeof t, "%ld", v);
	add_value(a, t);
}

static void set_own(struct tune_axis *a, const char *v)
{
	int i;
	a->own = -1;
	for (i = 0; i < a->nvalues; i++)
		if (!strcmp(a->values[i], v))
			a->own = i;
}

static struct tune_axis *new_axis(struct tune_space *s, int kind, int index, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static struct tune_axis *new_axis(struct tune_space *s, int kind, int index, const char *fmt, ...)
{
	struct tune_axis *a;
	va_list ap;
	if (s->naxes == OPT_MAX_AXES)
		return NULL;
	a = &s->axes[s->naxes++];
	memset(a, 0, sizeof *a);
	a->kind = kind;
	a->index = index;
	a->own = -1;
	va_start(ap, fmt);
	vsnprintf(a->name, sizeof a->name, fmt, ap);
	va_end(ap);
	return a;
}

/* The design's own value of axis a, as text. */
static void own_value(const struct design *d, const struct tune_axis *a, char *buf, size_t size)
{
	switch (a->kind) {
	case TK_ROUTING:
		snprintf(buf, size, "%s", routing_names[d->fabric.routing]);
		break;
	case TK_LINKS:
		snprintf(buf, size, "%d", DESIGN_BUNDLE(d, a->index)->links_each);
		break;
	case TK_NICS:
		snprintf(buf, size, "%d", VEC_AT(DESIGN_SERVER(d, a->index)->nics, struct nic_spec, a->nic).count);
		break;
	default:
		snprintf(buf, size, "%s", DESIGN_SWITCH(d, a->index)->model);
		break;
	}
}

/* The one compute NIC of server group g that the group buys, or -1. */
static int compute_nic(const struct server_group *g, const struct catalog *cat)
{
	const struct cat_server *srv = g->model[0] ? catalog_server(cat, g->model) : NULL;
	size_t i;
	int found = -1;
	if (srv && srv->nics_included)
		return -1;
	for (i = 0; i < g->nics.n; i++)
		if (VEC_AT(g->nics, struct nic_spec, i).use == NIC_COMPUTE) {
			if (found >= 0)
				return -1;
			found = (int)i;
		}
	return found;
}

static bool is_switch(const struct design *d, const char *name)
{
	size_t i;
	return design_find(d, name, &i) == GK_SWITCH;
}

/* Does a bundle leave server group g? */
static bool has_bundle_from(const struct design *d, const char *g)
{
	size_t i;
	for (i = 0; i < d->bundles.n; i++)
		if (!strcmp(DESIGN_BUNDLE(d, i)->from, g))
			return true;
	return false;
}

void tune_space_default(const struct design *d, const struct catalog *cat, struct tune_space *s)
{
	size_t i, k;
	struct tune_axis *a;
	char own[64];
	memset(s, 0, sizeof *s);
	s->base = d;
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		int L = b->links_each;
		if (!is_switch(d, b->from) || !is_switch(d, b->to) || L < 1)
			continue;
		if (!(a = new_axis(s, TK_LINKS, (int)i, "%s->%s.links", b->from, b->to)))
			break;
		if (L / 4 >= 1)
			add_int(a, L / 4);
		if (L / 2 >= 1)
			add_int(a, L / 2);
		if (3 * L / 4 >= 1 && (3 * L) % 4 == 0)
			add_int(a, 3 * L / 4);
		add_int(a, L);
		add_int(a, 2L * L);
		own_value(d, a, own, sizeof own);
		set_own(a, own);
	}
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		int nic = compute_nic(g, cat), c;
		if (nic < 0 || !has_bundle_from(d, g->name))
			continue;
		c = VEC_AT(g->nics, struct nic_spec, nic).count;
		if (c < 1 || !(a = new_axis(s, TK_NICS, (int)i, "%s.nics", g->name)))
			continue;
		a->nic = nic;
		if (c / 2 >= 1 && c % 2 == 0)
			add_int(a, c / 2);
		add_int(a, c);
		add_int(a, 2L * c);
		set_own(a, (own_value(d, a, own, sizeof own), own));
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *g = DESIGN_SWITCH(d, i);
		const struct cat_switch *m = catalog_switch(cat, g->model);
		if (!m || !(a = new_axis(s, TK_MODEL, (int)i, "%s.model", g->name)))
			continue;
		add_value(a, g->model);
		for (k = 0; k < cat->switches.n; k++) {
			const struct cat_switch *o = &VEC_AT(cat->switches, struct cat_switch, k);
			if (o->protocol == m->protocol && o->port_speed_gbps == m->port_speed_gbps)
				add_value(a, o->name);
		}
		set_own(a, g->model);
		if (a->nvalues < 2)
			s->naxes--; /* one model: nothing to choose */
	}
	if ((a = new_axis(s, TK_ROUTING, -1, "routing"))) {
		/* The design's own first: among equal candidates the first in grid order wins, so
		 * a routing that changes nothing is not proposed. */
		add_value(a, routing_names[d->fabric.routing]);
		add_value(a, "ecmp");
		add_value(a, "adaptive");
		set_own(a, routing_names[d->fabric.routing]);
	}
}

/* The axis named key of the design: an existing one, else a new one of the right kind. */
static struct tune_axis *axis_named(struct tune_space *s, const char *key, char *err, size_t errsz)
{
	const struct design *d = s->base;
	const char *dot = strrchr(key, '.');
	size_t i, glen;
	int k;
	for (k = 0; k < s->naxes; k++)
		if (!strcmp(s->axes[k].name, key)) {
			s->axes[k].nvalues = 0;
			return &s->axes[k];
		}
	if (s->naxes == OPT_MAX_AXES)
		return ncf_fail(err, errsz, "at most %d axes", OPT_MAX_AXES), NULL;
	if (!strcmp(key, "routing"))
		return new_axis(s, TK_ROUTING, -1, "routing");
	if (!dot)
		goto unknown;
	glen = (size_t)(dot - key);
	if (!strcmp(dot, ".links")) {
		for (i = 0; i < d->bundles.n; i++) {
			const struct bundle *b = DESIGN_BUNDLE(d, i);
			char name[2 * NCF_NAME_MAX + 4];
			snprintf(name, sizeof name, "%s->%s", b->from, b->to);
			if (strlen(name) == glen && !strncmp(name, key, glen))
				return new_axis(s, TK_LINKS, (int)i, "%s.links", name);
		}
		return ncf_fail(err, errsz, "no bundle '%.*s' (bundles as FROM->TO.links)", (int)(glen > 80 ? 80 : glen), key), NULL;
	}
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		if (strlen(g->name) == glen && !strncmp(g->name, key, glen) && !strcmp(dot, ".nics")) {
			struct tune_axis *a;
			int nic = -1;
			size_t n;
			for (n = 0; n < g->nics.n; n++)
				if (VEC_AT(g->nics, struct nic_spec, n).use == NIC_COMPUTE)
					nic = nic < 0 ? (int)n : -2;
			if (nic < 0)
				return ncf_fail(err, errsz, "%s.nics: the group needs exactly one compute NIC model", g->name), NULL;
			a = new_axis(s, TK_NICS, (int)i, "%s.nics", g->name);
			a->nic = nic;
			return a;
		}
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *g = DESIGN_SWITCH(d, i);
		if (strlen(g->name) == glen && !strncmp(g->name, key, glen) && !strcmp(dot, ".model"))
			return new_axis(s, TK_MODEL, (int)i, "%s.model", g->name);
	}
unknown:
	return ncf_fail(err, errsz,
		    "no axis '%.80s': routing, FROM->TO.links (a bundle), SERVERGROUP.nics or SWITCHGROUP.model", key),
	       NULL;
}

bool tune_axis_set(struct tune_space *s, const char *kv, const struct catalog *cat, char *err, size_t errsz)
{
	const char *eq = strchr(kv, '='), *p;
	char key[2 * NCF_NAME_MAX + 16], item[64], own[64];
	struct tune_axis tmp, *a;
	int k, at;
	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof key)
		return ncf_fail(err, errsz, "expected KEY=V1,V2,... got '%.60s'", kv);
	snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
	if (!eq[1])
		return ncf_fail(err, errsz, "%s: no values", key);
	/* Find or make the axis on a copy: a bad value leaves the space as it was. */
	{
		struct tune_space copy = *s;
		if (!(a = axis_named(&copy, key, err, errsz)))
			return false;
		at = (int)(a - copy.axes);
		tmp = *a;
	}
	tmp.nvalues = 0;
	for (p = eq + 1; *p;) {
		size_t n = strcspn(p, ",");
		if (!n || n >= sizeof item)
			return ncf_fail(err, errsz, "%s: an empty or too long value in '%.60s'", key, eq + 1);
		if (tmp.nvalues == OPT_MAX_VALUES)
			return ncf_fail(err, errsz, "%s: at most %d values", key, OPT_MAX_VALUES);
		snprintf(item, sizeof item, "%.*s", (int)n, p);
		if (tmp.kind == TK_ROUTING) {
			for (k = 0; routing_names[k] && strcmp(routing_names[k], item); k++)
				;
			if (!routing_names[k])
				return ncf_fail(err, errsz, "routing: '%.40s' is not ecmp, adaptive or spray", item);
		} else if (tmp.kind == TK_MODEL) {
			if (!catalog_switch(cat, item))
				return ncf_fail(err, errsz, "%s: no switch '%.40s' in the catalog", key, item);
		} else {
			long long v;
			char why[120];
			if (num_parse_int(item, &v, why, sizeof why) != NUM_OK || v < 1 || v > 4096)
				return ncf_fail(err, errsz, "%s: expected whole numbers from 1 to 4096, got '%.40s'", key, item);
		}
		add_value(&tmp, item);
		p += n;
		if (*p == ',' && !*++p)
			return ncf_fail(err, errsz, "%s: a value is missing after the last ','", key);
	}
	own_value(s->base, &tmp, own, sizeof own);
	set_own(&tmp, own);
	if (at == s->naxes)
		s->naxes++;
	s->axes[at] = tmp;
	return true;
}

long tune_space_size(const struct tune_space *s)
{
	long n = 1;
	int i;
	for (i = 0; i < s->naxes; i++) {
		if (s->axes[i].nvalues <= 0)
			return 0;
		if (n > OPT_MAX_CANDIDATES * 10L)
			return n;
		n *= s->axes[i].nvalues;
	}
	return n;
}

bool tune_build(const struct tune_space *s, const struct catalog *cat, const int *choice, struct design *d, char *err,
		size_t errsz)
{
	struct ncf_diag diag = { 0 };
	int i, r;
	design_init(d);
	design_free(d);
	design_copy(d, s->base);
	for (i = 0; i < s->naxes; i++) {
		const struct tune_axis *a = &s->axes[i];
		const char *v = a->values[choice[i]];
		switch (a->kind) {
		case TK_ROUTING:
			for (r = 0; routing_names[r]; r++)
				if (!strcmp(routing_names[r], v))
					d->fabric.routing = r;
			break;
		case TK_LINKS:
			DESIGN_BUNDLE(d, a->index)->links_each = atoi(v);
			break;
		case TK_NICS: {
			struct server_group *g = DESIGN_SERVER(d, a->index);
			struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, a->nic);
			int was = n->count, now = atoi(v);
			size_t b;
			/* Every bundle from the group keeps its links per NIC. */
			for (b = 0; b < d->bundles.n; b++) {
				struct bundle *bu = DESIGN_BUNDLE(d, b);
				if (strcmp(bu->from, g->name))
					continue;
				if ((long)bu->links_each * now % was) {
					design_free(d);
					design_init(d);
					return ncf_fail(err, errsz, "%s=%d: %s->%s's %d links are not a whole number per NIC", a->name, now,
						    bu->from, bu->to, bu->links_each);
				}
				bu->links_each = (int)((long)bu->links_each * now / was);
			}
			n->count = now;
			break;
		}
		default:
			snprintf(DESIGN_SWITCH(d, a->index)->model, sizeof DESIGN_SWITCH(d, a->index)->model, "%s", v);
			break;
		}
	}
	if (design_check(d, cat, &diag) > 0) {
		size_t k;
		for (k = 0; k < diag_count(&diag); k++)
			if (diag_get(&diag, k)->sev == NCF_ERROR) {
				ncf_fail(err, errsz, "%s", diag_get(&diag, k)->msg);
				break;
			}
		diag_free(&diag);
		return false;
	}
	diag_free(&diag);
	return true;
}

bool tune_run(const struct tune_space *s, const struct catalog *shipped, const struct opt_request *r,
	      struct opt_result *out, char *err, size_t errsz)
{
	long n = tune_space_size(s), i;
	struct metrics *m;
	struct catalog cat;
	int choice[OPT_MAX_AXES];
	memset(out, 0, sizeof *out);
	out->best = -1;
	if (n <= 0)
		return ncf_fail(err, errsz, "the search space is empty");
	if (n > OPT_MAX_CANDIDATES)
		return ncf_fail(err, errsz, "%ld candidates: more than %d (fewer values with KEY=a,b)", n, OPT_MAX_CANDIDATES);
	design_catalog(s->base, shipped, &cat);
	out->c = xcalloc((size_t)n, sizeof *out->c);
	out->n = n;
	m = xmalloc(sizeof *m);
	memset(choice, 0, sizeof choice);
	for (i = 0; i < n; i++) {
		struct opt_candidate *c = &out->c[i];
		struct design d;
		long rest = i;
		int a;
		for (a = s->naxes - 1; a >= 0; a--) {
			choice[a] = (int)(rest % s->axes[a].nvalues);
			rest /= s->axes[a].nvalues;
		}
		memcpy(c->choice, choice, sizeof choice);
		if (tune_build(s, &cat, choice, &d, c->why, sizeof c->why)) {
			if (r->job)
				d.job = *r->job;
			opt_evaluate(&d, shipped, r, m, c, out);
		}
		design_free(&d);
	}
	free(m);
	catalog_free(&cat);
	opt_finish(out);
	return true;
}

const char *tune_candidate_text(const struct tune_space *s, const struct opt_candidate *c, char *buf, size_t size)
{
	size_t used = 0;
	int i;
	buf[0] = 0;
	for (i = 0; i < s->naxes && used + 1 < size; i++) {
		int k;
		if (c->choice[i] == s->axes[i].own)
			continue;
		k = snprintf(buf + used, size - used, "%s%s=%s", used ? ", " : "", s->axes[i].name,
			     s->axes[i].values[c->choice[i]]);
		if (k > 0)
			used += (size_t)k;
	}
	if (!used)
		snprintf(buf, size, "the design as it is");
	return buf;
}
