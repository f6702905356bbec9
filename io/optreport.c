#include "io/optreport.h"
#include "io/codec.h"
#include "io/costreport.h"
#include "io/safetext.h"
#include "model/alloc.h"
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *metric_value(int metric, double v, char *buf, size_t size)
{
	if (metric == OPT_EFFICIENCY)
		snprintf(buf, size, "%.1f%%", 100 * v);
	else if (metric == OPT_TOKENS)
		snprintf(buf, size, "%.0f tokens/s", v);
	else
		snprintf(buf, size, "%.2f GB/s", v);
	return buf;
}

void opt_plot(FILE *out, const struct opt_space *s, const struct opt_request *r, const struct opt_result *res, int width,
	      int height)
{
	double xmin = HUGE_VAL, xmax = -HUGE_VAL, ymin = HUGE_VAL, ymax = -HUGE_VAL;
	char *grid, a[32], b[32];
	long i;
	int x, y, ty = -1;
	(void)s;
	for (i = 0; i < res->n; i++) {
		const struct opt_candidate *c = &res->c[i];
		if (!c->cost_known || !c->metric_known)
			continue;
		xmin = fmin(xmin, c->cost);
		xmax = fmax(xmax, c->cost);
		ymin = fmin(ymin, c->metric);
		ymax = fmax(ymax, c->metric);
	}
	if (xmin > xmax)
		return;
	ymin = fmin(ymin, r->target);
	ymax = fmax(ymax, r->target);
	if (xmax - xmin <= 0)
		xmax = xmin + 1;
	if (ymax - ymin <= 0)
		ymax = ymin + 1;
	grid = xmalloc((size_t)(width * height));
	memset(grid, ' ', (size_t)(width * height));
	ty = height - 1 - (int)lround((r->target - ymin) / (ymax - ymin) * (height - 1));
	for (x = 0; x < width; x++)
		grid[ty * width + x] = '-';
	for (i = 0; i < res->n; i++) {
		const struct opt_candidate *c = &res->c[i];
		char *cell, mark;
		if (!c->cost_known || !c->metric_known)
			continue;
		x = (int)lround((c->cost - xmin) / (xmax - xmin) * (width - 1));
		y = height - 1 - (int)lround((c->metric - ymin) / (ymax - ymin) * (height - 1));
		cell = &grid[y * width + x];
		mark = i == res->best ? '#' : c->front ? '*' : '.';
		/* the chosen one wins a cell, then the front, then the rest */
		if (*cell == '#' || (*cell == '*' && mark == '.'))
			continue;
		*cell = mark;
	}
	for (y = 0; y < height; y++) {
		char lab[24] = "";
		if (y == 0)
			metric_value(r->metric, ymax, lab, sizeof lab);
		else if (y == height - 1)
			metric_value(r->metric, ymin, lab, sizeof lab);
		else if (y == ty)
			snprintf(lab, sizeof lab, "target");
		fprintf(out, "  %14s |%.*s\n", lab, width, grid + y * width);
	}
	fprintf(out, "  %14s +", "");
	for (x = 0; x < width; x++)
		fputc('-', out);
	fprintf(out, "\n  %14s  %-*s%s\n", "", width - (int)strlen(format_money(xmax, b, sizeof b)),
		format_money(xmin, a, sizeof a), b);
	fprintf(out, "  %14s  cost; # the choice, * the Pareto front, . the other candidates, - the target\n", "");
	free(grid);
}

static void opt_text_raw(FILE *out, const struct opt_space *s, const struct opt_request *r, const struct opt_result *res,
			 const char *currency)
{
	char buf[400], mv[40], money[32];
	long i;
	int a;
	fprintf(out, "ncfabric optimize: template %s, target %s at least ", s->t->name, opt_metric_names[r->metric]);
	fprintf(out, "%s", metric_value(r->metric, r->target, mv, sizeof mv));
	if (r->budget > 0)
		fprintf(out, ", budget %s %s", format_money(r->budget, money, sizeof money), currency);
	fprintf(out, "\n  grid");
	for (a = 0; a < s->naxes; a++) {
		int k;
		fprintf(out, "%s %s {", a ? ";" : "", s->axes[a].name);
		for (k = 0; k < s->axes[a].nvalues; k++)
			fprintf(out, "%s%s", k ? ", " : "", s->axes[a].values[k]);
		fprintf(out, "}");
	}
	fprintf(out, "\n  %ld candidates: %ld built, %ld priced, %ld with a %s\n", res->n, res->built, res->priced,
		res->evaluated, r->metric == OPT_BUSBW ? "busbw" : "step time");
	if (res->priced < res->built && res->missing[0])
		fprintf(out, "  unknown cost: no price for %s (--prices FILE names them)\n", res->missing);
	fprintf(out, "\nPareto front (cost against %s; # the choice, + meets the target too)\n", opt_metric_names[r->metric]);
	if (!res->nfront)
		fprintf(out, "  none: no candidate has both a known cost and a known %s\n", opt_metric_names[r->metric]);
	for (i = 0; i < res->nfront; i++) {
		const struct opt_candidate *c = &res->c[res->front[i]];
		fprintf(out, "  %c %14s %s  %-18s %s\n", res->front[i] == res->best ? '#' : c->meets ? '+' : ' ',
			format_money(c->cost, money, sizeof money), currency, metric_value(r->metric, c->metric, mv, sizeof mv),
			opt_candidate_text(s, c, buf, sizeof buf));
	}
	if (res->nfront) {
		fprintf(out, "\n");
		opt_plot(out, s, r, res, 60, 12);
	}
	fprintf(out, "\n");
	if (res->best >= 0) {
		const struct opt_candidate *c = &res->c[res->best];
		fprintf(out, "Cheapest meeting the target: %s %s, %s\n  %s\n", format_money(c->cost, money, sizeof money),
			currency, metric_value(r->metric, c->metric, mv, sizeof mv), opt_candidate_text(s, c, buf, sizeof buf));
	} else {
		/* Candidates that reach the target but have no cost cannot be chosen: say so, so
		 * that a missing price is not read as a target no design reaches. */
		long reach = 0, k;
		for (k = 0; k < res->n; k++)
			reach += res->c[k].built && res->c[k].metric_known && !res->c[k].cost_known &&
				 res->c[k].metric >= r->target * (1 - 1e-12);
		if (reach)
			fprintf(out, "No priced candidate meets the target: %ld candidate%s reach%s it but lack%s prices (%s; --prices FILE names them).\n",
				reach, reach == 1 ? "" : "s", reach == 1 ? "es" : "", reach == 1 ? "s" : "",
				res->missing[0] ? res->missing : "parts without a price");
		else
			fprintf(out, "No candidate meets the target%s.\n", r->budget > 0 ? " within the budget" : "");
	}
}

void opt_text(FILE *out, const struct opt_space *s, const struct opt_request *r, const struct opt_result *res,
	      const char *currency)
{
	struct safe_capture cap;
	opt_text_raw(safe_capture(&cap, out), s, r, res, currency);
	safe_release(&cap);
}

static cJSON *candidate_json(const struct opt_space *s, const struct opt_candidate *c)
{
	cJSON *o = cJSON_CreateObject(), *p = cJSON_AddObjectToObject(o, "parameters");
	int a;
	for (a = 0; a < s->naxes; a++)
		cJSON_AddStringToObject(p, s->axes[a].name, s->axes[a].values[c->choice[a]]);
	cJSON_AddBoolToObject(o, "built", c->built);
	if (c->cost_known)
		cJSON_AddNumberToObject(o, "cost", c->cost);
	else
		cJSON_AddNullToObject(o, "cost");
	if (c->metric_known)
		cJSON_AddNumberToObject(o, "metric", c->metric);
	else
		cJSON_AddNullToObject(o, "metric");
	cJSON_AddBoolToObject(o, "meets", c->meets);
	cJSON_AddBoolToObject(o, "front", c->front);
	if (c->why[0])
		cJSON_AddStringToObject(o, "why", c->why);
	return o;
}

char *opt_json(const struct opt_space *s, const struct opt_request *r, const struct opt_result *res,
	       const char *currency)
{
	cJSON *root = cJSON_CreateObject(), *axes, *arr, *front;
	long i;
	int a, k;
	cJSON_AddStringToObject(root, "template", s->t->name);
	cJSON_AddStringToObject(root, "metric", opt_metric_names[r->metric]);
	cJSON_AddNumberToObject(root, "target", r->target);
	if (r->budget > 0)
		cJSON_AddNumberToObject(root, "budget", r->budget);
	else
		cJSON_AddNullToObject(root, "budget");
	cJSON_AddStringToObject(root, "currency", currency);
	axes = cJSON_AddObjectToObject(root, "axes");
	for (a = 0; a < s->naxes; a++) {
		cJSON *v = cJSON_AddArrayToObject(axes, s->axes[a].name);
		for (k = 0; k < s->axes[a].nvalues; k++)
			cJSON_AddItemToArray(v, cJSON_CreateString(s->axes[a].values[k]));
	}
	cJSON_AddNumberToObject(root, "candidates", (double)res->n);
	cJSON_AddNumberToObject(root, "built", (double)res->built);
	cJSON_AddNumberToObject(root, "priced", (double)res->priced);
	cJSON_AddNumberToObject(root, "evaluated", (double)res->evaluated);
	front = cJSON_AddArrayToObject(root, "front");
	for (i = 0; i < res->nfront; i++)
		cJSON_AddItemToArray(front, candidate_json(s, &res->c[res->front[i]]));
	if (res->best >= 0)
		cJSON_AddItemToObject(root, "best", candidate_json(s, &res->c[res->best]));
	else
		cJSON_AddNullToObject(root, "best");
	arr = cJSON_AddArrayToObject(root, "all");
	for (i = 0; i < res->n; i++)
		cJSON_AddItemToArray(arr, candidate_json(s, &res->c[i]));
	return json_print_free(root);
}
