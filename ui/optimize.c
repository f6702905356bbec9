/* optimize.c: :optimize METRIC=VALUE [budget=X] [KEY=a,b...], the cheapest variant of the
 * design on screen that meets the target (layouts/tune.h: the design's own parameters,
 * priced with the panel's prices and computed with the model). The Pareto front goes to
 * :messages, one line per design on it; the choice is offered as a question, and y applies
 * it as one undoable edit. */
#include "ui/modes.h"
#include "io/costreport.h"
#include "layouts/tune.h"
#include "model/num.h"
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The designer waits for the search: at about a millisecond a candidate (0.4 ms on the
 * reference case, 0.6 ms on a 4-unit SuperPOD here), 2,000 take a second or two. A larger
 * grid is `ncfabric optimize`'s job, or fix axes with KEY=V. */
#define OPTIMIZE_MAX 2000

static struct tune_space tune;   /* the search just made: the question's answer builds from it */
static struct opt_result result;

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static const char *metric_text(int metric, double v, char *buf, size_t size)
{
	if (metric == OPT_EFFICIENCY)
		snprintf(buf, size, "%.1f%%", 100 * v);
	else if (metric == OPT_TOKENS)
		snprintf(buf, size, "%.0f tokens/s", v);
	else
		snprintf(buf, size, "%.1f GB/s", v);
	return buf;
}

unsigned optimize_command(struct app *app, const char *args)
{
	struct opt_request r;
	char err[400], tok[256], what[400], m1[40], m2[40], money[40];
	const char *p = args;
	double t0, ms;
	long i;
	app_idle(app); /* the design's cost and its currency, made now */
	memset(&r, 0, sizeof r);
	opt_result_free(&result);
	while (*p == ' ')
		p++;
	{
		size_t n = strcspn(p, " ");
		snprintf(tok, sizeof tok, "%.*s", (int)(n < sizeof tok ? n : sizeof tok - 1), p);
		p += n;
	}
	if (!tok[0])
		return say(app, true, ":optimize METRIC=VALUE [budget=X] [KEY=a,b...]: efficiency (0..1 or %%), tokens "
				      "(per second) or busbw (GB/s)");
	if (!opt_target_parse(tok, &r.metric, &r.target, err, sizeof err))
		return say(app, true, ":optimize %s", err + (strncmp(err, "--", 2) ? 0 : 2));
	tune_space_default(&app->design, &app->catalog, &tune);
	for (;;) {
		size_t n;
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		n = strcspn(p, " ");
		snprintf(tok, sizeof tok, "%.*s", (int)(n < sizeof tok ? n : sizeof tok - 1), p);
		p += n;
		if (!strncmp(tok, "budget=", 7)) {
			char why[120];
			if (num_parse_real(tok + 7, &r.budget, why, sizeof why) != NUM_OK || !(r.budget > 0))
				return say(app, true, ":optimize budget=X: a cost above 0, got '%.40s'", tok + 7);
		} else if (!tune_axis_set(&tune, tok, &app->catalog, err, sizeof err)) {
			return say(app, true, ":optimize %s", err);
		}
	}
	r.bytes = app->bytes;
	r.prices = &app->prices;
	if (tune_space_size(&tune) > OPTIMIZE_MAX)
		return say(app, true, ":optimize: %ld candidates, more than the designer's %d (about a millisecond each): "
				      "fix some axes with KEY=V (such as routing=%s)",
			   tune_space_size(&tune), OPTIMIZE_MAX, routing_names[app->design.fabric.routing]);
	t0 = now_ms();
	if (!tune_run(&tune, app->shipped, &r, &result, err, sizeof err))
		return say(app, true, ":optimize: %s", err);
	ms = now_ms() - t0;
	say(app, false, "optimize %.200s: %ld candidates (%ld built, %ld priced) in %.0f ms; the front, by cost:", args,
	    result.n, result.built, result.priced, ms);
	for (i = 0; i < result.nfront; i++) {
		const struct opt_candidate *c = &result.c[result.front[i]];
		say(app, false, "  %s %s  %s%s  %s", format_money(c->cost, money, sizeof money), app->cost.currency,
		    metric_text(r.metric, c->metric, m1, sizeof m1), c->meets ? " meets" : "",
		    tune_candidate_text(&tune, c, what, sizeof what));
	}
	if (result.best < 0) {
		if (!result.priced)
			return say(app, true, "optimize: no candidate has a known cost: no price for %.200s (:prices FILE)",
				   result.missing[0] ? result.missing : "some parts");
		return say(app, true, "optimize: none of %ld candidates reaches %s%s (:messages has the front)", result.n,
			   metric_text(r.metric, r.target, m1, sizeof m1), r.budget > 0 ? " within the budget" : "");
	}
	{
		const struct opt_candidate *c = &result.c[result.best];
		tune_candidate_text(&tune, c, what, sizeof what);
		if (!strcmp(what, "the design as it is"))
			return say(app, false, "optimize: the design as it is is the cheapest that reaches %s (%s %s; %ld candidates, %.0f ms)",
				   metric_text(r.metric, r.target, m1, sizeof m1), format_money(c->cost, money, sizeof money),
				   app->cost.currency, result.n, ms);
		app->mode = MODE_CONFIRM;
		app->confirm = CONFIRM_OPTIMIZE;
		snprintf(app->confirm_text, sizeof app->confirm_text,
			 "The cheapest of %ld candidates that reaches %s: %s %s, %s, with %.300s. Apply it? (y applies, u undoes it; n keeps the design; :messages has the front)",
			 result.n, metric_text(r.metric, r.target, m1, sizeof m1), format_money(c->cost, money, sizeof money),
			 app->cost.currency, metric_text(r.metric, c->metric, m2, sizeof m2), what);
		return CHG_VIEW;
	}
}

unsigned optimize_apply(struct app *app)
{
	struct design d;
	char err[300], what[400];
	if (result.best < 0 || !result.c)
		return say(app, true, "optimize: nothing to apply");
	if (!tune_build(&tune, &app->catalog, result.c[result.best].choice, &d, err, sizeof err)) {
		design_free(&d);
		return say(app, true, "optimize: %s", err);
	}
	d.job = app->design.job;
	tune_candidate_text(&tune, &result.c[result.best], what, sizeof what);
	ed_replace(&app->ed, &d);
	design_free(&d);
	opt_result_free(&result);
	ensure_selection(app);
	say(app, false, "applied %.300s (u undoes it)", what);
	return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

void optimize_forget(void)
{
	opt_result_free(&result);
}
