#include "io/failreport.h"
#include "io/report.h"
#include "io/codec.h"
#include "io/safetext.h"
#include <cJSON.h>
#include <string.h>

const char *const fail_response_names[] = { "reroute", "job-fails", "no-network", NULL };

/* Words of text, wrapped at 78 columns, every line but the first indented by `indent`. */
static void wrap(FILE *out, const char *text, int first_col, int indent)
{
	int col = first_col;
	const char *p = text;
	while (*p) {
		size_t w = strcspn(p, " ");
		if (col > indent && col + 1 + (int)w > 78) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)w, p);
		col += (int)w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

/* A figure with `prec` decimals, or "-" when there is none. */
static void fig(char *buf, size_t size, bool have, double v, int prec)
{
	if (have)
		snprintf(buf, size, "%.*f", prec, v);
	else
		snprintf(buf, size, "-");
}

static void row(FILE *out, const char *label, double b, double a, bool bv, bool av, int prec)
{
	char bs[32], as[32], ch[32];
	fig(bs, sizeof bs, bv, b, prec);
	fig(as, sizeof as, av, a, prec);
	if (bv && av && b > 0)
		snprintf(ch, sizeof ch, "%+.1f%%", 100 * (a / b - 1));
	else
		snprintf(ch, sizeof ch, "%s", bv && !av ? "lost" : "");
	fprintf(out, "  %-26s %12s %12s %9s\n", label, bs, as, ch);
}

static void shrink_text(FILE *out, const struct fail_shrink *s)
{
	char label[80];
	if (s->what == SHRINK_RAILS) {
		fprintf(out, "  %-26s %d -> %d wired NIC ports per node\n", "rails", s->before, s->after);
		return;
	}
	snprintf(label, sizeof label, "'%s'", s->group);
	if (s->what == SHRINK_GONE)
		fprintf(out, "  %-26s all %d switches gone\n", label, s->before);
	else if (s->what == SHRINK_SWITCHES)
		fprintf(out, "  %-26s %d -> %d switches\n", label, s->before, s->after);
	else
		fprintf(out, "  %-26s %d -> %d uplinks per switch%s\n", label, s->before, s->after,
			s->hash == HASH_ECMP ? " (its ECMP group: flows hashed over fewer links)"
			: s->hash == HASH_IB_STATIC ? " (static routing tables over fewer links)"
			: s->hash == HASH_FLUID ? " (adaptive: spread over fewer links)" : "");
}

static void failure_text_raw(FILE *out, const char *file, const struct design *d, const struct fail_point *before,
			     const struct fail_outcome *o)
{
	const struct fail_point *a = &o->after;
	struct fail_shrink sh[24];
	char name[160], label[64], flabel[4200];
	int c, n, i;
	fprintf(out, "ncfabric report: %s %s with %s down\n", d->name, report_file_label(file, flabel, sizeof flabel),
		fail_name(&o->spec, name, sizeof name));
	if (!o->ok) {
		fprintf(out, "  not modelled: %s\n", o->why);
		return;
	}
	fprintf(out, "  change     ");
	wrap(out, o->effect.change, 13, 13);
	fprintf(out, "  response   %s\n", fail_response_names[o->effect.response]);
	fprintf(out, "  NCCL       ");
	wrap(out, o->effect.nccl, 13, 13);
	if (o->effect.port_failover && o->effect.response == FR_JOB_FAILS) {
		fprintf(out, "  failover   ");
		wrap(out,
		     "the NIC has another port: with NCCL_IB_RESILIENCY_PORT_FAILOVER=1 (NCCL 2.29.7 and later) and its "
		     "ports merged into one virtual NIC, NCCL moves the QPs to the surviving port and the job continues at "
		     "reduced capacity (src/transport/net_ib/p2p_resiliency.cc; nccl#2192)",
		     13, 13);
	}
	if (o->effect.caveat[0]) {
		fprintf(out, "  note       ");
		wrap(out, o->effect.caveat, 13, 13);
	}
	fprintf(out, "\n  %-26s %12s %12s %9s\n", "", "before", "after", "change");
	for (c = 0; c < PATTERNS; c++) {
		snprintf(label, sizeof label, "%s busbw GB/s", coll_names[c]);
		row(out, label, before->busbw[c], a->busbw[c], before->avail[c], a->avail[c], 2);
	}
	row(out, "step time ms", before->step_ms, a->step_ms, before->valid, a->valid, 2);
	row(out, "tokens/s", before->tokens_per_s, a->tokens_per_s, before->valid, a->valid, 0);
	row(out, "speedup", before->speedup, a->speedup, before->valid, a->valid, 1);
	row(out, "efficiency %", 100 * before->efficiency, 100 * a->efficiency, before->valid, a->valid, 1);
	row(out, "bisection GB/s", before->bisection_GBps, a->bisection_GBps, true, true, 1);
	row(out, "network ceiling GB/s/node", before->node_ceiling_GBps, a->node_ceiling_GBps, true, true, 1);
	if (!a->valid && a->why[0]) {
		fprintf(out, "  after: ");
		wrap(out, a->why, 9, 9);
	}
	if (before->valid && a->valid)
		fprintf(out, "  the job loses %.1f%% of its tokens/s (step time x %.4f)\n", 100 * o->tokens_loss, o->step_gain);
	else if (o->by_busbw)
		fprintf(out, "  AllReduce loses %.1f%% of its busbw (the design has no job to time)\n", 100 * o->tokens_loss);
	n = fail_shrinks(before, a, sh, 24);
	fprintf(out, "\nShrinks\n");
	if (!n)
		fprintf(out, "  nothing the job's traffic climbs through\n");
	for (i = 0; i < n && i < 24; i++)
		shrink_text(out, &sh[i]);
}

void failure_text(FILE *out, const char *file, const struct design *d, const struct fail_point *before,
		  const struct fail_outcome *o)
{
	struct safe_capture cap;
	failure_text_raw(safe_capture(&cap, out), file, d, before, o);
	safe_release(&cap);
}

static cJSON *point_json(const struct fail_point *p)
{
	cJSON *o = cJSON_CreateObject(), *pats;
	int c;
	cJSON_AddBoolToObject(o, "valid", p->valid);
	if (!p->valid)
		cJSON_AddStringToObject(o, "why", p->why);
	cJSON_AddBoolToObject(o, "connected", p->connected);
	pats = cJSON_AddObjectToObject(o, "patterns");
	for (c = 0; c < PATTERNS; c++) {
		cJSON *e = cJSON_AddObjectToObject(pats, coll_names[c]);
		cJSON_AddBoolToObject(e, "available", p->avail[c]);
		cJSON_AddStringToObject(e, "algorithm", p->avail[c] ? ualgo_names[p->algo[c]] : "");
		cJSON_AddNumberToObject(e, "busbw_GBps", p->busbw[c]);
	}
	cJSON_AddNumberToObject(o, "gpus", p->gpus);
	cJSON_AddNumberToObject(o, "step_ms", p->step_ms);
	cJSON_AddNumberToObject(o, "tokens_per_s", p->tokens_per_s);
	cJSON_AddNumberToObject(o, "speedup", p->speedup);
	cJSON_AddNumberToObject(o, "efficiency", p->efficiency);
	cJSON_AddNumberToObject(o, "bisection_GBps", p->bisection_GBps);
	cJSON_AddNumberToObject(o, "node_ceiling_GBps", p->node_ceiling_GBps);
	cJSON_AddNumberToObject(o, "rails", p->ports);
	return o;
}

struct cJSON *failure_json(const struct fail_point *before, const struct fail_outcome *o)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	struct fail_shrink sh[24];
	char name[160];
	int n, i;
	cJSON_AddStringToObject(root, "spec", fail_name(&o->spec, name, sizeof name));
	cJSON_AddStringToObject(root, "kind", fail_kind_names[o->spec.kind]);
	cJSON_AddBoolToObject(root, "modelled", o->ok);
	if (!o->ok) {
		cJSON_AddStringToObject(root, "why", o->why);
		return root;
	}
	cJSON_AddStringToObject(root, "change", o->effect.change);
	cJSON_AddStringToObject(root, "response", fail_response_names[o->effect.response]);
	cJSON_AddStringToObject(root, "nccl", o->effect.nccl);
	cJSON_AddNumberToObject(root, "detect_s", o->effect.detect_s);
	cJSON_AddBoolToObject(root, "port_failover", o->effect.port_failover);
	cJSON_AddStringToObject(root, "caveat", o->effect.caveat);
	cJSON_AddItemToObject(root, "before", point_json(before));
	cJSON_AddItemToObject(root, "after", point_json(&o->after));
	cJSON_AddNumberToObject(root, "tokens_loss", o->tokens_loss);
	cJSON_AddStringToObject(root, "ranked_by", o->by_busbw ? "allreduce_busbw" : "tokens_per_s");
	cJSON_AddNumberToObject(root, "step_ratio", o->step_gain);
	arr = cJSON_AddArrayToObject(root, "shrinks");
	n = fail_shrinks(before, &o->after, sh, 24);
	for (i = 0; i < n && i < 24; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "what", shrink_names[sh[i].what]);
		cJSON_AddStringToObject(e, "group", sh[i].group);
		cJSON_AddNumberToObject(e, "before", sh[i].before);
		cJSON_AddNumberToObject(e, "after", sh[i].after);
		cJSON_AddBoolToObject(e, "ecmp", sh[i].hash == HASH_ECMP);
		cJSON_AddItemToArray(arr, e);
	}
	return root;
}

static void failures_text_raw(FILE *out, const char *file, const struct design *d, const struct fail_point *before,
			      const struct fail_outcome *o, int n)
{
	int i, k = 0;
	char name[160], label[4200];
	fprintf(out, "ncfabric failures: %s %s, every single failure ranked by what it costs the job\n", d->name,
		report_file_label(file, label, sizeof label));
	if (before->valid)
		fprintf(out, "  intact: step %.2f ms, %.0f tokens/s, speedup %.1f of %d (efficiency %.1f%%)\n\n",
			before->step_ms, before->tokens_per_s, before->speedup, before->gpus, 100 * before->efficiency);
	else
		fprintf(out, "  intact: the job has no step time: %s\n\n", before->why);
	if (!before->valid && before->avail[COLL_ALLREDUCE])
		fprintf(out, "  ranked by AllReduce busbw lost (%.2f GB/s intact)\n\n", before->busbw[COLL_ALLREDUCE]);
	fprintf(out, "  %4s %-28s %-10s %10s %11s %8s\n", "rank", "failure", "response", "step ms",
		before->valid || !before->avail[COLL_ALLREDUCE] ? "tokens/s" : "AR busbw", "lost");
	for (i = 0; i < n; i++) {
		const struct fail_outcome *x = &o[i];
		fail_name(&x->spec, name, sizeof name);
		if (!x->ok)
			continue;
		k++;
		if (x->by_busbw && x->tokens_loss < 1)
			fprintf(out, "  %4d %-28s %-10s %10s %11.2f %7.1f%%\n", k, name, fail_response_names[x->effect.response],
				"-", x->after.busbw[COLL_ALLREDUCE], 100 * x->tokens_loss);
		else if (x->after.valid)
			fprintf(out, "  %4d %-28s %-10s %10.2f %11.0f %7.1f%%\n", k, name,
				fail_response_names[x->effect.response], x->after.step_ms, x->after.tokens_per_s,
				100 * x->tokens_loss);
		else
			fprintf(out, "  %4d %-28s %-10s %10s %11s %8s\n", k, name, fail_response_names[x->effect.response], "-",
				"-", "all");
	}
	for (i = 0; i < n; i++)
		if (!o[i].ok) {
			if (i == 0 || o[i - 1].ok)
				fprintf(out, "\nNot modelled (not a change to whole groups)\n");
			fprintf(out, "  %s: %s\n", fail_name(&o[i].spec, name, sizeof name), o[i].why);
		}
	fprintf(out, "\nA NIC, a server's link or a leaf it plugs into stops the job for %.1f s (NCCL_IB_TIMEOUT x "
		     "NCCL_IB_RETRY_CNT) and a restart from the last checkpoint; the step time shown is the degraded "
		     "restart. 'ncfabric report FILE --fail SPEC' shows one in full.\n",
		fail_detect_seconds(20, 7));
}

void failures_text(FILE *out, const char *file, const struct design *d, const struct fail_point *before,
		   const struct fail_outcome *o, int n)
{
	struct safe_capture cap;
	failures_text_raw(safe_capture(&cap, out), file, d, before, o, n);
	safe_release(&cap);
}

char *failures_json(const char *file, const struct design *d, const struct fail_point *before,
		    const struct fail_outcome *o, int n)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	int i;
	cJSON_AddStringToObject(root, "design", d->name);
	cJSON_AddStringToObject(root, "file", file);
	cJSON_AddItemToObject(root, "intact", point_json(before));
	arr = cJSON_AddArrayToObject(root, "failures");
	for (i = 0; i < n; i++) {
		cJSON *e = failure_json(before, &o[i]);
		cJSON_DeleteItemFromObject(e, "before");
		cJSON_AddNumberToObject(e, "rank", o[i].ok ? i + 1 : 0);
		cJSON_AddItemToArray(arr, e);
	}
	return json_print_free(root);
}
