/* optimize.c: the grid search of optimize.h. */
#include "layouts/optimize.h"
#include "model/diag.h"
#include "model/alloc.h"
#include "model/metrics.h"
#include "model/num.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const opt_metric_names[] = { "efficiency", "tokens", "busbw", NULL };


static void axis_add_value(struct opt_axis *a, const char *v)
{
	if (a->nvalues < OPT_MAX_VALUES)
		snprintf(a->values[a->nvalues++], sizeof a->values[0], "%s", v);
}

static struct opt_axis *axis_slot(struct opt_space *s, const char *name, int param)
{
	int i;
	for (i = 0; i < s->naxes; i++)
		if (!strcmp(s->axes[i].name, name)) {
			s->axes[i].nvalues = 0;
			return &s->axes[i];
		}
	if (s->naxes == OPT_MAX_AXES)
		return NULL;
	memset(&s->axes[s->naxes], 0, sizeof s->axes[0]);
	snprintf(s->axes[s->naxes].name, sizeof s->axes[0].name, "%s", name);
	s->axes[s->naxes].param = param;
	return &s->axes[s->naxes++];
}

void opt_space_default(const struct template *t, const struct tvalues *base, struct opt_space *s)
{
	size_t i;
	memset(s, 0, sizeof *s);
	s->t = t;
	s->base = *base;
	for (i = 0; i < t->nparams; i++) {
		const struct tparam *p = &t->params[i];
		struct opt_axis *a;
		if (p->kind == TP_CHOICE) {
			const char *const *c;
			if (!(a = axis_slot(s, p->name, (int)i)))
				return;
			for (c = p->choices; *c; c++)
				axis_add_value(a, *c);
		} else if (!strcmp(p->name, "oversubscription") && (p->kind == TP_NUM || p->kind == TP_INT)) {
			int k;
			char v[16];
			if (!(a = axis_slot(s, p->name, (int)i)))
				return;
			for (k = 1; k <= 4; k++)
				if (k >= p->min && k <= p->max) {
					snprintf(v, sizeof v, "%d", k);
					axis_add_value(a, v);
				}
		}
	}
	{
		struct opt_axis *a = axis_slot(s, "routing", -1);
		if (a) {
			axis_add_value(a, "ecmp");
			axis_add_value(a, "adaptive");
		}
	}
}

void opt_space_parts(struct opt_space *s, const struct catalog *cat)
{
	struct opt_axis routing;
	bool had_routing = s->naxes > 0 && s->axes[s->naxes - 1].param < 0;
	size_t i, k;
	if (had_routing)
		routing = s->axes[--s->naxes];
	for (i = 0; i < s->t->nparams; i++) {
		const struct tparam *p = &s->t->params[i];
		const char *own = s->base.v[i];
		struct opt_axis *a, tmp;
		int j;
		bool taken = false;
		for (j = 0; j < s->naxes; j++)
			taken |= s->axes[j].param == (int)i;
		if (taken || (p->kind != TP_NIC && p->kind != TP_SWITCH))
			continue;
		memset(&tmp, 0, sizeof tmp);
		axis_add_value(&tmp, own);
		if (p->kind == TP_SWITCH) {
			const struct cat_switch *m = catalog_switch(cat, own);
			for (k = 0; m && k < cat->switches.n; k++) {
				const struct cat_switch *o = &VEC_AT(cat->switches, struct cat_switch, k);
				if (strcmp(o->name, own) && o->protocol == m->protocol && o->port_speed_gbps == m->port_speed_gbps)
					axis_add_value(&tmp, o->name);
			}
		} else {
			const struct cat_nic *m = catalog_nic(cat, own);
			for (k = 0; m && k < cat->nics.n; k++) {
				const struct cat_nic *o = &VEC_AT(cat->nics, struct cat_nic, k);
				if (strcmp(o->name, own) && o->protocol == m->protocol && o->speed_gbps == m->speed_gbps &&
				    o->ports == m->ports)
					axis_add_value(&tmp, o->name);
			}
		}
		if (tmp.nvalues < 2 || !(a = axis_slot(s, p->name, (int)i)))
			continue;
		tmp.param = (int)i;
		snprintf(tmp.name, sizeof tmp.name, "%s", p->name);
		*a = tmp;
	}
	if (had_routing && s->naxes < OPT_MAX_AXES)
		s->axes[s->naxes++] = routing;
}

/* The catalog parts of a part parameter's kind. */
static void parts_of(const struct tparam *p, const struct catalog *cat, struct opt_axis *a)
{
	size_t i;
	switch (p->kind) {
	case TP_GPU:
		for (i = 0; i < cat->gpus.n; i++)
			axis_add_value(a, VEC_AT(cat->gpus, struct cat_gpu, i).name);
		break;
	case TP_NIC:
		for (i = 0; i < cat->nics.n; i++)
			axis_add_value(a, VEC_AT(cat->nics, struct cat_nic, i).name);
		break;
	case TP_SWITCH:
		for (i = 0; i < cat->switches.n; i++)
			axis_add_value(a, VEC_AT(cat->switches, struct cat_switch, i).name);
		break;
	case TP_SERVER:
		for (i = 0; i < cat->servers.n; i++)
			axis_add_value(a, VEC_AT(cat->servers, struct cat_server, i).name);
		break;
	case TP_FABRIC:
		for (i = 0; i < cat->fabrics.n; i++)
			axis_add_value(a, VEC_AT(cat->fabrics, struct cat_fabric, i).name);
		break;
	default:
		break;
	}
}

bool opt_axis_set(struct opt_space *s, const char *kv, const struct catalog *cat, char *err, size_t errsz)
{
	const char *eq = strchr(kv, '='), *p;
	char key[32], item[64], one[128];
	size_t klen, i;
	int param = -1;
	struct opt_axis *a, tmp;
	if (!eq || eq == kv)
		return ncf_fail(err, errsz, "--vary: expected KEY=V1,V2,... got '%.60s'", kv);
	klen = (size_t)(eq - kv);
	if (klen >= sizeof key)
		return ncf_fail(err, errsz, "--vary: no parameter '%.*s'", (int)(klen > 40 ? 40 : klen), kv);
	memcpy(key, kv, klen);
	key[klen] = 0;
	if (strcmp(key, "routing")) {
		for (i = 0; i < s->t->nparams; i++)
			if (!strcmp(s->t->params[i].name, key))
				param = (int)i;
		if (param < 0) {
			struct tvalues v = s->base;
			snprintf(one, sizeof one, "%s=", key);
			template_set(s->t, &v, one, cat, err, errsz); /* says which parameters there are */
			return false;
		}
	}
	memset(&tmp, 0, sizeof tmp);
	snprintf(tmp.name, sizeof tmp.name, "%s", key);
	tmp.param = param;
	p = eq + 1;
	if (!*p)
		return ncf_fail(err, errsz, "--vary %s: no values", key);
	if (param >= 0 && !strcmp(p, "*")) {
		const struct tparam *tp = &s->t->params[param];
		if (tp->kind == TP_CHOICE) {
			const char *const *c;
			for (c = tp->choices; *c; c++)
				axis_add_value(&tmp, *c);
		} else {
			parts_of(tp, cat, &tmp);
		}
		if (!tmp.nvalues)
			return ncf_fail(err, errsz, "--vary %s=*: only a choice or a catalog part takes *", key);
	} else if (param >= 0 && s->t->params[param].kind == TP_INT && strstr(p, "..")) {
		long long lo, hi, k;
		char why[120], a1[32], b1[32];
		const char *dots = strstr(p, "..");
		size_t l1 = (size_t)(dots - p);
		if (l1 >= sizeof a1 || strlen(dots + 2) >= sizeof b1)
			return ncf_fail(err, errsz, "--vary %s: expected LO..HI", key);
		memcpy(a1, p, l1);
		a1[l1] = 0;
		snprintf(b1, sizeof b1, "%s", dots + 2);
		if (num_parse_int(a1, &lo, why, sizeof why) != NUM_OK || num_parse_int(b1, &hi, why, sizeof why) != NUM_OK ||
		    lo > hi)
			return ncf_fail(err, errsz, "--vary %s: expected LO..HI with whole numbers LO <= HI, got '%.40s'", key, p);
		if (hi - lo + 1 > OPT_MAX_VALUES)
			return ncf_fail(err, errsz, "--vary %s: at most %d values on one axis", key, OPT_MAX_VALUES);
		for (k = lo; k <= hi; k++) {
			snprintf(item, sizeof item, "%lld", k);
			axis_add_value(&tmp, item);
		}
	} else {
		while (*p) {
			size_t n = strcspn(p, ",");
			if (!n || n >= sizeof item)
				return ncf_fail(err, errsz, "--vary %s: an empty or too long value in '%.60s'", key, eq + 1);
			if (tmp.nvalues == OPT_MAX_VALUES)
				return ncf_fail(err, errsz, "--vary %s: at most %d values on one axis", key, OPT_MAX_VALUES);
			memcpy(item, p, n);
			item[n] = 0;
			axis_add_value(&tmp, item);
			p += n;
			if (*p == ',' && !*++p)
				return ncf_fail(err, errsz, "--vary %s: a value is missing after the last ','", key);
		}
	}
	/* Every value is one the parameter takes. */
	for (i = 0; i < (size_t)tmp.nvalues; i++) {
		if (param < 0) {
			int r;
			for (r = 0; routing_names[r]; r++)
				if (!strcmp(routing_names[r], tmp.values[i]))
					break;
			if (!routing_names[r])
				return ncf_fail(err, errsz, "--vary routing: '%.40s' is not ecmp, adaptive or spray", tmp.values[i]);
		} else {
			struct tvalues v = s->base;
			snprintf(one, sizeof one, "%s=%s", key, tmp.values[i]);
			if (!template_set(s->t, &v, one, cat, err, errsz))
				return false;
		}
	}
	if (!(a = axis_slot(s, key, param)))
		return ncf_fail(err, errsz, "--vary: at most %d axes", OPT_MAX_AXES);
	*a = tmp;
	/* Routing stays the last axis (it varies fastest: its candidates share a build). */
	for (i = 0; i + 1 < (size_t)s->naxes; i++)
		if (s->axes[i].param < 0) {
			struct opt_axis r = s->axes[i];
			memmove(&s->axes[i], &s->axes[i + 1], (size_t)(s->naxes - 1 - (int)i) * sizeof s->axes[0]);
			s->axes[s->naxes - 1] = r;
			break;
		}
	return true;
}

long opt_space_size(const struct opt_space *s)
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

bool opt_target_parse(const char *text, int *metric, double *value, char *err, size_t errsz)
{
	const char *eq = text ? strchr(text, '=') : NULL;
	char v[64], why[120];
	size_t klen, vlen;
	int m;
	bool pct = false;
	if (!eq)
		return ncf_fail(err, errsz, "--target: expected METRIC=VALUE with METRIC efficiency, tokens or busbw");
	klen = (size_t)(eq - text);
	for (m = 0; m < OPT_METRIC_COUNT; m++)
		if (strlen(opt_metric_names[m]) == klen && !strncmp(opt_metric_names[m], text, klen))
			break;
	if (m == OPT_METRIC_COUNT)
		return ncf_fail(err, errsz, "--target: unknown metric '%.*s' (efficiency, tokens or busbw)", (int)(klen > 30 ? 30 : klen),
			    text);
	vlen = strlen(eq + 1);
	if (!vlen || vlen >= sizeof v)
		return ncf_fail(err, errsz, "--target %s: expected a number", opt_metric_names[m]);
	memcpy(v, eq + 1, vlen + 1);
	if (m == OPT_EFFICIENCY && v[vlen - 1] == '%') {
		v[vlen - 1] = 0;
		pct = true;
	}
	if (num_parse_real(v, value, why, sizeof why) != NUM_OK || !(*value > 0))
		return ncf_fail(err, errsz, "--target %s: expected a number above 0, got '%.30s'", opt_metric_names[m], eq + 1);
	if (pct)
		*value /= 100;
	if (m == OPT_EFFICIENCY && *value > 1)
		return ncf_fail(err, errsz, "--target efficiency: at most 1 (or 100%%), got '%.30s'", eq + 1);
	*metric = m;
	return true;
}

bool opt_build(const struct opt_space *s, const struct catalog *shipped, const struct job *job, const int *choice,
	       struct design *d, char *err, size_t errsz)
{
	struct tvalues v = s->base;
	int i, routing = -1;
	for (i = 0; i < s->naxes; i++) {
		const struct opt_axis *a = &s->axes[i];
		if (a->param < 0) {
			int r;
			for (r = 0; routing_names[r]; r++)
				if (!strcmp(routing_names[r], a->values[choice[i]]))
					routing = r;
		} else {
			snprintf(v.v[a->param], sizeof v.v[0], "%s", a->values[choice[i]]);
		}
	}
	design_init(d);
	if (!template_build(s->t, &v, shipped, d, err, errsz))
		return false;
	if (routing >= 0)
		d->fabric.routing = routing;
	if (job)
		d->job = *job;
	return true;
}

static double metric_of(const struct metrics *m, int metric, int job_algo, bool *known)
{
	const struct algo_result *a;
	*known = m->work.valid;
	switch (metric) {
	case OPT_EFFICIENCY:
		return m->work.efficiency;
	case OPT_TOKENS:
		return m->work.tokens_per_s;
	default:
		a = coll_pick(&m->colls[COLL_ALLREDUCE], job_algo);
		*known = a->available;
		return a->available ? a->busbw_GBps : 0;
	}
}

static int by_cost(const long *x, const long *y, const struct opt_candidate *c)
{
	long a = *(const long *)x, b = *(const long *)y;
	if (c[a].cost != c[b].cost)
		return c[a].cost < c[b].cost ? -1 : 1;
	if (c[a].metric != c[b].metric)
		return c[a].metric > c[b].metric ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* qsort with a context, by insertion for the small and a merge for the rest: stable and
 * portable (qsort_r differs between libcs). */
static void sort_idx(long *idx, long n, const struct opt_candidate *c)
{
	long *tmp, w, i, lo, mid, hi, a, b;
	if (n < 2)
		return;
	tmp = xmalloc((size_t)n * sizeof *tmp);
	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			a = lo;
			b = mid;
			for (i = lo; i < hi; i++)
				tmp[i] = (a < mid && (b >= hi || by_cost(&idx[a], &idx[b], c) <= 0)) ? idx[a++] : idx[b++];
		}
		memcpy(idx, tmp, (size_t)n * sizeof *idx);
	}
	free(tmp);
}

/* The parts of a BOM without a price, into buf. */
static void missing_parts(const struct bom *b, const struct cost *c, char *buf, size_t size)
{
	size_t i, used = 0;
	buf[0] = 0;
	for (i = 0; i < c->lines.n && used + 2 < size; i++) {
		const struct cost_line *cl = &VEC_AT(c->lines, struct cost_line, i);
		const struct bom_line *l = &VEC_AT(b->lines, struct bom_line, cl->line);
		int k;
		if (cl->from != PRICE_UNKNOWN || strstr(buf, l->model))
			continue;
		k = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", l->model);
		if (k > 0)
			used += (size_t)k;
	}
}

/* Do two candidates take the same template values (they may differ in routing)? */
static bool same_template_choice(const struct opt_space *s, const int *a, const int *b)
{
	int i;
	for (i = 0; i < s->naxes; i++)
		if (s->axes[i].param >= 0 && a[i] != b[i])
			return false;
	return true;
}

static void apply_routing(const struct opt_space *s, const int *choice, struct design *d)
{
	int i, r;
	for (i = 0; i < s->naxes; i++)
		if (s->axes[i].param < 0)
			for (r = 0; routing_names[r]; r++)
				if (!strcmp(routing_names[r], s->axes[i].values[choice[i]]))
					d->fabric.routing = r;
}

static bool has_overrides(const struct catalog *c)
{
	return c->gpus.n || c->fabrics.n || c->nics.n || c->switches.n || c->cables.n || c->servers.n || c->transports.n ||
	       c->fibres.n;
}

void opt_evaluate(const struct design *d, const struct catalog *shipped, const struct opt_request *r,
		  struct metrics *m, struct opt_candidate *c, struct opt_result *out)
{
	struct catalog cat;
	const struct catalog *ccat;
	bool own;
	c->built = true;
	out->built++;
	/* The merged catalog is a copy of the shipped one: only needed with overrides. */
	own = has_overrides(&d->catalog);
	if (own)
		design_catalog(d, shipped, &cat);
	ccat = own ? &cat : shipped;
	{
		struct bom b;
		struct cost cost;
		metrics_compute_some(d, ccat, r->bytes, 0, 0, m); /* no curve: a candidate is weighed by its step */
		bom_compute(d, ccat, &b);
		cost_compute(&b, ccat, r->prices, (long)m->fabric.design_gpus, m->fabric.bisection_GBps,
			     m->work.valid ? m->work.tokens_per_s : 0, &cost);
		c->cost_known = cost.complete && cost.total > 0;
		c->cost = cost.total;
		if (!c->cost_known) {
			char parts[200];
			missing_parts(&b, &cost, parts, sizeof parts);
			snprintf(c->why, sizeof c->why, "no price for %s", parts);
			if (!out->missing[0])
				snprintf(out->missing, sizeof out->missing, "%s", parts);
		} else {
			out->priced++;
		}
		cost_free(&cost);
		bom_free(&b);
	}
	c->metric = metric_of(m, r->metric, d->job.algo, &c->metric_known);
	if (c->metric_known)
		out->evaluated++;
	else if (!c->why[0])
		snprintf(c->why, sizeof c->why, "%.200s", m->work.why[0] ? m->work.why : "the job has no step time");
	c->meets = c->cost_known && c->metric_known && c->metric >= r->target * (1 - 1e-12) &&
		   (r->budget <= 0 || c->cost <= r->budget * (1 + 1e-12));
	if (own)
		catalog_free(&cat);
}

void opt_finish(struct opt_result *out)
{
	long n = out->n, i, *idx, k;
	double best_metric;
	/* The front and the choice, walking the known candidates by cost. */
	idx = xmalloc((size_t)n * sizeof *idx);
	for (i = 0, k = 0; i < n; i++)
		if (out->c[i].cost_known && out->c[i].metric_known)
			idx[k++] = i;
	sort_idx(idx, k, out->c);
	out->front = xmalloc((size_t)(k > 0 ? k : 1) * sizeof *out->front);
	best_metric = -HUGE_VAL;
	for (i = 0; i < k; i++) {
		struct opt_candidate *c = &out->c[idx[i]];
		/* Sorted by cost, then metric: on the front when it beats every cheaper one. */
		if (best_metric == -HUGE_VAL || c->metric > best_metric + 1e-12 * fabs(best_metric)) {
			c->front = true;
			out->front[out->nfront++] = idx[i];
			best_metric = c->metric;
		}
		if (c->meets && out->best < 0)
			out->best = idx[i];
	}
	free(idx);
}

bool opt_run(const struct opt_space *s, const struct catalog *shipped, const struct opt_request *r,
	     struct opt_result *out, char *err, size_t errsz)
{
	long n = opt_space_size(s), i;
	struct metrics *m;
	int choice[OPT_MAX_AXES];
	struct design last;
	int last_choice[OPT_MAX_AXES];
	bool have_last = false, last_ok = false;
	char last_why[240] = "";
	memset(out, 0, sizeof *out);
	out->best = -1;
	if (n <= 0)
		return ncf_fail(err, errsz, "the search space is empty");
	if (n > OPT_MAX_CANDIDATES)
		return ncf_fail(err, errsz, "%ld candidates: more than %d (fewer values with --vary)", n, OPT_MAX_CANDIDATES);
	out->c = xcalloc((size_t)n, sizeof *out->c);
	out->n = n;
	m = xmalloc(sizeof *m);
	memset(choice, 0, sizeof choice);
	for (i = 0; i < n; i++) {
		struct opt_candidate *c = &out->c[i];
		struct design d;
		long rest = i;
		int a;
		for (a = s->naxes - 1; a >= 0; a--) { /* the last axis varies fastest */
			choice[a] = (int)(rest % s->axes[a].nvalues);
			rest /= s->axes[a].nvalues;
		}
		memcpy(c->choice, choice, sizeof choice);
		/* Candidates that differ only in routing share one build of the template (the
		 * routing axis is applied to the built design, so the result is the same). */
		if (have_last && same_template_choice(s, choice, last_choice)) {
			if (!last_ok) {
				snprintf(c->why, sizeof c->why, "%s", last_why);
				continue;
			}
			design_copy(&d, &last);
			apply_routing(s, choice, &d);
		} else {
			if (have_last)
				design_free(&last);
			have_last = true;
			memcpy(last_choice, choice, sizeof choice);
			last_ok = opt_build(s, shipped, r->job, choice, &d, c->why, sizeof c->why);
			design_init(&last);
			if (!last_ok) {
				snprintf(last_why, sizeof last_why, "%s", c->why);
				design_free(&d);
				continue;
			}
			design_free(&last);
			design_copy(&last, &d);
		}
		opt_evaluate(&d, shipped, r, m, c, out);
		design_free(&d);
	}
	free(m);
	if (have_last)
		design_free(&last);
	opt_finish(out);
	return true;
}

void opt_result_free(struct opt_result *r)
{
	free(r->c);
	free(r->front);
	memset(r, 0, sizeof *r);
}

const char *opt_candidate_text(const struct opt_space *s, const struct opt_candidate *c, char *buf, size_t size)
{
	size_t used = 0;
	int i;
	buf[0] = 0;
	for (i = 0; i < s->naxes && used + 1 < size; i++) {
		int k = snprintf(buf + used, size - used, "%s%s=%s", i ? ", " : "", s->axes[i].name,
				 s->axes[i].values[c->choice[i]]);
		if (k > 0)
			used += (size_t)k;
	}
	return buf;
}
