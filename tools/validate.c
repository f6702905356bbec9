/* validate: the model against published measurements (make validate).
 *
 * Reads a points file (tests/data/validate/points.yaml): per class of hardware a tolerance
 * (median and maximum relative error), and per point a design file, a collective, a message
 * size, optionally the GPU count and a forced algorithm (NCCL_ALGO), the metric measured
 * (busbw by default; step_ms, tokens_per_s, efficiency, speedup for the training job; with
 * relative_gpus, the ratio of the metric at gpus to the metric at relative_gpus, a scaling
 * measurement) and the published value with its source. Each point is computed with
 * metrics_compute, exactly as `ncfabric report` does. It prints every point and a table of
 * the median and maximum error per class, and exits 1 when a class is outside its
 * tolerance (2 on a bad points file). Errors are (model - measured) / measured. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/design_io.h"
#include "io/parse.h"
#include "io/units.h"
#include "model/metrics.h"

#define MAX_CLASSES 16
#define MAX_POINTS 512

struct vclass {
	char name[32], what[96];
	double tol_median, tol_max;
	int n;
	double err[MAX_POINTS];
};

static const char *text_of(const struct tnode *map, const char *key)
{
	const struct tnode *v = tnode_get(map, key, NULL);
	return v && v->kind == TN_SCALAR ? v->text : NULL;
}

static int fail(const char *file, const struct tnode *at, const char *msg, const char *what)
{
	fprintf(stderr, "validate: %s:%d:%d: %s%s%s\n", file, at ? at->line : 0, at ? at->col : 0, msg,
		what ? " " : "", what ? what : "");
	return 2;
}

static bool number_of(const struct tnode *map, const char *key, double *out)
{
	const char *s = text_of(map, key);
	char *end;
	if (!s)
		return false;
	*out = strtod(s, &end);
	return end != s && *end == '\0' && isfinite(*out);
}

static int name_index(const char *const *names, const char *s)
{
	int i;
	for (i = 0; names[i]; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(const double *v, int n)
{
	double s[MAX_POINTS];
	int i;
	for (i = 0; i < n; i++)
		s[i] = fabs(v[i]);
	qsort(s, (size_t)n, sizeof s[0], cmp_d);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* The model's value of metric for the point; false with why when it has none. */
static bool model_value(const struct metrics *m, int coll, int algo, const char *metric, double *out, const char **why)
{
	const struct coll_result *r = &m->colls[coll];
	const struct algo_result *a;
	if (strcmp(metric, "step_ms") == 0 || strcmp(metric, "tokens_per_s") == 0 || strcmp(metric, "tokens_per_gpu") == 0 ||
	    strcmp(metric, "efficiency") == 0 || strcmp(metric, "speedup") == 0) {
		if (!m->work.valid) {
			*why = m->work.why;
			return false;
		}
		*out = strcmp(metric, "step_ms") == 0	   ? m->work.step_ms
		       : strcmp(metric, "tokens_per_s") == 0 ? m->work.tokens_per_s
		       : strcmp(metric, "tokens_per_gpu") == 0 ? m->work.tokens_per_s / (m->work.gpus > 0 ? m->work.gpus : 1)
		       : strcmp(metric, "efficiency") == 0   ? m->work.efficiency
							     : m->work.speedup;
		return true;
	}
	if (algo < 0) {
		if (r->auto_algo < 0) {
			*why = "NCCL picks no algorithm";
			return false;
		}
		a = &r->algo[r->auto_algo];
	} else {
		a = &r->algo[algo];
	}
	if (!a->available) {
		*why = a->reason ? a->reason : "unavailable";
		return false;
	}
	if (strcmp(metric, "busbw") == 0)
		*out = a->busbw_GBps;
	else if (strcmp(metric, "a2a_net_GBps") == 0 && r->nodes > 1)
		/* What each GPU sends over the network per second in an all-to-all: the remote
		 * share (N - ppn) / N of its bytes (DeepEP's "RDMA" bandwidth). */
		*out = a->algbw_GBps * (r->ranks - (double)r->ranks / r->nodes) / r->ranks;
	else if (strcmp(metric, "algbw") == 0)
		*out = a->algbw_GBps;
	else if (strcmp(metric, "time_us") == 0)
		*out = a->time_us;
	else
		return false;
	return true;
}

int main(int argc, char **argv)
{
	const char *file = argc > 1 ? argv[1] : "tests/data/validate/points.yaml";
	char err[256], dir[1024], src[1024];
	size_t len, i;
	char *buf = file_read(file, &len, err, sizeof err);
	struct ncf_diag diag = { 0 };
	struct tnode *root, *classes, *points;
	struct catalog shipped;
	struct vclass cls[MAX_CLASSES];
	int ncls = 0, bad = 0, c;
	const char *slash;
	if (!buf) {
		fprintf(stderr, "validate: %s: %s\n", file, err);
		return 2;
	}
	root = parse_yaml(buf, len, &diag);
	free(buf);
	if (!root) {
		diag_print(stderr, file, &diag, true);
		diag_free(&diag);
		return 2;
	}
	if (!catalog_load_shipped(argv[0], &shipped, src, sizeof src, &diag)) {
		diag_print(stderr, "catalog", &diag, true);
		return 2;
	}
	slash = strrchr(file, '/');
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - file) : 1, slash ? file : ".");
	classes = tnode_get(root, "classes", NULL);
	points = tnode_get(root, "points", NULL);
	if (root->kind != TN_MAP || !classes || classes->kind != TN_SEQ || !points || points->kind != TN_SEQ)
		return fail(file, root, "expected a map with the sequences classes: and points:", NULL);
	for (i = 0; i < classes->n && ncls < MAX_CLASSES; i++) {
		const struct tnode *k = classes->kids[i];
		const char *name = k->kind == TN_MAP ? text_of(k, "name") : NULL;
		struct vclass *v = &cls[ncls];
		memset(v, 0, sizeof *v);
		if (!name || !number_of(k, "median", &v->tol_median) || !number_of(k, "max", &v->tol_max))
			return fail(file, k, "expected a class with name, median and max", NULL);
		snprintf(v->name, sizeof v->name, "%s", name);
		snprintf(v->what, sizeof v->what, "%s", text_of(k, "what") ? text_of(k, "what") : "");
		ncls++;
	}
	printf("%-34s %-14s %9s %9s %7s\n", "point", "class", "measured", "model", "error");
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < points->n; i++) {
		const struct tnode *p = points->kids[i];
		const char *id, *klass, *design, *coll_s, *size_s, *algo_s, *metric, *why = NULL;
		double measured, bytes = 1 << 30, gpus = 0, value = 0;
		int coll = COLL_ALLREDUCE, algo = -1, k;
		char path[2048];
		struct design d;
		struct catalog cat;
		struct metrics *m;
		if (p->kind != TN_MAP)
			return fail(file, p, "expected a point (a map)", NULL);
		id = text_of(p, "id");
		klass = text_of(p, "class");
		design = text_of(p, "design");
		coll_s = text_of(p, "collective");
		size_s = text_of(p, "size");
		algo_s = text_of(p, "algo");
		metric = text_of(p, "metric") ? text_of(p, "metric") : "busbw";
		if (!id || !klass || !design || !number_of(p, "measured", &measured) || !text_of(p, "source"))
			return fail(file, p, "expected a point with id, class, design, measured and source", NULL);
		for (k = 0; k < ncls && strcmp(cls[k].name, klass) != 0; k++)
			;
		if (k == ncls)
			return fail(file, p, "unknown class", klass);
		if (coll_s && (coll = name_index(coll_names, coll_s)) < 0)
			return fail(file, p, "unknown collective", coll_s);
		if (coll >= PATTERNS)
			return fail(file, p, "collective not modelled", coll_s);
		if (size_s && !parse_size(size_s, &bytes, err, sizeof err))
			return fail(file, p, err, NULL);
		if (algo_s && strcmp(algo_s, "auto") != 0 && (algo = name_index(ualgo_names, algo_s)) < 0)
			return fail(file, p, "unknown algorithm", algo_s);
		if (text_of(p, "gpus") && (!number_of(p, "gpus", &gpus) || gpus < 1))
			return fail(file, p, "gpus: expected a positive count", NULL);
		snprintf(path, sizeof path, "%s/%s", dir, design);
		diag_clear(&diag);
		if (!design_load_file(path, &shipped, &d, &diag)) {
			diag_print(stderr, path, &diag, false);
			return 2;
		}
		design_catalog(&d, &shipped, &cat);
		m = malloc(sizeof *m);
		if (!m)
			return 2;
		metrics_compute(&d, &cat, bytes, (int)gpus, m);
		if (text_of(p, "relative_gpus") || text_of(p, "relative_design")) {
			/* A ratio: the metric on this point over the same metric on relative_gpus GPUs of
			 * relative_design (each defaulting to the point's own): a scaling measurement. */
			double rg = 0, base = 0;
			bool ok = (!text_of(p, "relative_gpus") || (number_of(p, "relative_gpus", &rg) && rg >= 1)) &&
				  model_value(m, coll, algo, metric, &value, &why);
			if (ok && text_of(p, "relative_design")) {
				struct design rd;
				struct catalog rc;
				char rpath[2048];
				snprintf(rpath, sizeof rpath, "%s/%s", dir, text_of(p, "relative_design"));
				diag_clear(&diag);
				if (!design_load_file(rpath, &shipped, &rd, &diag)) {
					diag_print(stderr, rpath, &diag, false);
					return 2;
				}
				design_catalog(&rd, &shipped, &rc);
				metrics_compute(&rd, &rc, bytes, (int)rg, m);
				ok = model_value(m, coll, algo, metric, &base, &why) && base > 0;
				catalog_free(&rc);
				design_free(&rd);
			} else if (ok) {
				metrics_compute(&d, &cat, bytes, (int)rg, m);
				ok = model_value(m, coll, algo, metric, &base, &why) && base > 0;
			}
			if (!ok) {
				printf("%-34s %-14s %9.4g %9s  %s\n", id, klass, measured, "-", why ? why : "no ratio");
				bad++;
				free(m);
				catalog_free(&cat);
				design_free(&d);
				continue;
			}
			value /= base;
			why = NULL;
			printf("%-34s %-14s %9.4g %9.4g %+6.1f%%\n", id, klass, measured, value, 100 * (value - measured) / measured);
			if (cls[k].n < MAX_POINTS)
				cls[k].err[cls[k].n++] = (value - measured) / measured;
			free(m);
			catalog_free(&cat);
			design_free(&d);
			continue;
		}
		if (!model_value(m, coll, algo, metric, &value, &why)) {
			printf("%-34s %-14s %9.4g %9s  %s\n", id, klass, measured, "-", why ? why : "no such metric");
			bad++;
		} else {
			/* A point a constant was fitted on (fit: true) is shown, not scored. */
			bool fit = text_of(p, "fit") && strcmp(text_of(p, "fit"), "true") == 0;
			double e = (value - measured) / measured;
			printf("%-34s %-14s %9.4g %9.4g %+6.1f%%%s\n", id, klass, measured, value, 100 * e,
			       fit ? "  (fitted on, not scored)" : "");
			if (!fit && cls[k].n < MAX_POINTS)
				cls[k].err[cls[k].n++] = e;
		}
		free(m);
		catalog_free(&cat);
		design_free(&d);
	}
	printf("\n%-16s %6s %8s %8s %8s   %s\n", "class", "points", "median", "max", "bias", "tolerance (median, max)");
	for (c = 0; c < ncls; c++) {
		struct vclass *v = &cls[c];
		double med = 0, mx = 0, bias, s[MAX_POINTS];
		int j;
		if (v->n == 0) {
			printf("%-16s %6d %8s %8s %8s   %.0f%%, %.0f%%  (no points)\n", v->name, 0, "-", "-", "-",
			       100 * v->tol_median, 100 * v->tol_max);
			continue;
		}
		med = median_of(v->err, v->n);
		for (j = 0; j < v->n; j++) {
			if (fabs(v->err[j]) > mx)
				mx = fabs(v->err[j]);
			s[j] = v->err[j];
		}
		qsort(s, (size_t)v->n, sizeof s[0], cmp_d);
		bias = v->n % 2 ? s[v->n / 2] : (s[v->n / 2 - 1] + s[v->n / 2]) / 2;
		printf("%-16s %6d %7.1f%% %7.1f%% %+7.1f%%   %.0f%%, %.0f%%%s\n", v->name, v->n, 100 * med, 100 * mx,
		       100 * bias, 100 * v->tol_median, 100 * v->tol_max,
		       med > v->tol_median + 1e-12 || mx > v->tol_max + 1e-12 ? "  OUTSIDE" : "");
		if (med > v->tol_median + 1e-12 || mx > v->tol_max + 1e-12)
			bad++;
	}
	tnode_free(root);
	catalog_free(&shipped);
	diag_free(&diag);
	return bad ? 1 : 0;
}
