#include "io/nccltests.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const test_names[] = { "all_reduce", "all_gather", "reduce_scatter", "alltoall", "sendrecv", "broadcast",
					  "reduce", NULL };

int nt_coll_from_name(const char *s)
{
	int c;
	char norm[64];
	size_t i, o = 0;
	for (i = 0; s[i] && o + 1 < sizeof norm; i++)
		if (s[i] != '_')
			norm[o++] = s[i];
	norm[o] = '\0';
	for (c = 0; c < COLL_COUNT; c++) {
		char tn[32];
		size_t k, t = 0;
		for (k = 0; test_names[c][k]; k++)
			if (test_names[c][k] != '_')
				tn[t++] = test_names[c][k];
		tn[t] = '\0';
		if (strcmp(norm, tn) == 0 || (strncmp(norm, tn, t) == 0 && strcmp(norm + t, "perf") == 0))
			return c;
	}
	return -1;
}

static bool is_num(const char *t, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(t, &end);
	return *t && !*end && !errno && isfinite(*v);
}

/* Split a line into at most max whitespace-separated tokens (in place). */
static int tokens(char *line, char **tok, int max)
{
	int n = 0;
	char *p = line;
	while (*p && n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

bool nt_parse(const char *buf, size_t len, struct nt_log *log, struct ncf_diag *diag)
{
	size_t pos = 0;
	int line = 0;
	memset(log, 0, sizeof *log);
	log->coll = -1;
	if (memchr(buf, '\0', len)) {
		diag_add_at(diag, NCF_ERROR, 1, 1, "binary data: not an nccl-tests log");
		return false;
	}
	while (pos < len) {
		size_t end = pos;
		char text[1024], orig[1024], *tok[20];
		int n, c;
		bool last;
		double v[14];
		while (end < len && buf[end] != '\n')
			end++;
		last = end >= len || end + 1 >= len;
		line++;
		if (end - pos >= sizeof text) {
			diag_add_at(diag, NCF_ERROR, line, 1, "line longer than %zu characters: not an nccl-tests log", sizeof text - 1);
			nt_log_free(log);
			return false;
		}
		memcpy(text, buf + pos, end - pos);
		text[end - pos] = '\0';
		if (end - pos && text[end - pos - 1] == '\r')
			text[end - pos - 1] = '\0';
		pos = end + 1;
		memcpy(orig, text, sizeof orig);
		if (text[0] == '#') {
			for (c = 0; c < COLL_COUNT; c++) {
				char needle[40];
				snprintf(needle, sizeof needle, "%s_perf", test_names[c]);
				if (strstr(text, needle))
					log->coll = c;
			}
			if (strncmp(text, "#  Rank", 7) == 0 || strncmp(text, "# Rank", 6) == 0)
				log->ranks++;
			continue;
		}
		n = tokens(text, tok, 20);
		if (n == 0)
			continue;
		/* size count type redop [root] time algbw busbw wrong [time algbw busbw wrong] */
		{
			int base, k, nums;
			bool root = n == 9 || n >= 13;
			struct nt_row *r;
			base = root ? 5 : 4;
			nums = n - base;
			if (n < 8 || !is_num(tok[0], &v[0]) || !is_num(tok[1], &v[1]) || (root && !is_num(tok[4], &v[4]))) {
				if (last && log->rows.n) {
					log->truncated = true;
					break;
				}
				diag_add_at(diag, NCF_ERROR, line, 1,
					    "expected a result line (size count type redop root time algbw busbw #wrong ...), got '%.40s'",
					    orig);
				nt_log_free(log);
				return false;
			}
			for (k = 0; k < nums && k < 8; k++) {
				double x;
				bool wrong = k == 3 || k == 7;
				if (!is_num(tok[base + k], &x)) {
					if (wrong) /* "#wrong" can be N/A */
						continue;
					if (last && log->rows.n) {
						log->truncated = true;
						goto done;
					}
					diag_add_at(diag, NCF_ERROR, line, 1, "column %d is '%s', expected a number", base + k + 1,
						    tok[base + k]);
					nt_log_free(log);
					return false;
				}
				v[5 + k] = x;
			}
			if (nums < 4) {
				if (last && log->rows.n) {
					log->truncated = true;
					break;
				}
				diag_add_at(diag, NCF_ERROR, line, 1, "a result line needs time, algbw, busbw and #wrong");
				nt_log_free(log);
				return false;
			}
			if (v[0] < 0 || v[0] > 1e15 || v[1] < 0 || v[1] > 1e15) {
				diag_add_at(diag, NCF_ERROR, line, 1, "size %.0f or count %.0f is not a message nccl-tests sends",
					    v[0], v[1]);
				nt_log_free(log);
				return false;
			}
			r = vec_push(&log->rows, sizeof *r);
			r->size = v[0];
			r->count = (long)v[1];
			r->time_us = v[5];
			r->algbw = v[6];
			r->busbw = v[7];
			if (nums >= 8) {
				r->ip_time_us = v[9];
				r->ip_algbw = v[10];
				r->ip_busbw = v[11];
			}
			r->line = line;
		}
	}
done:
	if (!log->rows.n) {
		diag_add_at(diag, NCF_ERROR, line ? line : 1, 1, "no result lines: not an nccl-tests log");
		nt_log_free(log);
		return false;
	}
	return true;
}

void nt_log_free(struct nt_log *log)
{
	vec_release(&log->rows);
}

static long count_of(enum coll c, double size, int ranks)
{
	long elems = (long)(size / 4);
	if (c == COLL_ALLGATHER || c == COLL_REDUCESCATTER || c == COLL_ALLTOALL)
		return ranks > 0 ? elems / ranks : elems;
	return elems;
}

static const char *redop_of(enum coll c)
{
	return (c == COLL_ALLREDUCE || c == COLL_REDUCESCATTER || c == COLL_REDUCE) ? "sum" : "none";
}

void nt_expect(FILE *out, const struct metrics *m, const char *design, enum coll c, int job_algo)
{
	double sizes[40], total = 0;
	int n = sweep_sizes(sizes, 40), k, counted = 0;
	fprintf(out, "# ncfabric expect: %s_perf -b 8 -e 16G -f 2 on %s\n", test_names[c], design);
	fprintf(out, "# %d ranks on %d node%s; the model's prediction, not a measurement\n", m->nccl.nranks,
		m->nccl.node.nnodes, m->nccl.node.nnodes == 1 ? "" : "s");
	fprintf(out, "#\n");
	fprintf(out, "#%62s%31s\n", "out-of-place", "in-place");
	fprintf(out, "#%11s %13s %9s %7s %7s %8s %7s %7s %6s %8s %7s %7s %6s  %s\n", "size", "count", "type", "redop", "root",
		"time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong", "algorithm");
	fprintf(out, "#%11s %13s %9s %7s %7s %8s %7s %7s %6s %8s %7s %7s %6s\n", "(B)", "(elements)", "", "", "", "(us)",
		"(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
	for (k = 0; k < n; k++) {
		struct coll_result r;
		const struct algo_result *a;
		metrics_at(m, c, sizes[k], &r);
		a = coll_pick(&r, job_algo);
		if (!a->available) {
			fprintf(out, "%12.0f %13ld %9s %7s %7d  %s\n", sizes[k], count_of(c, sizes[k], m->nccl.nranks), "float",
				redop_of(c), -1, "cannot run on this design");
			continue;
		}
		fprintf(out, "%12.0f %13ld %9s %7s %7d %8.2f %7.2f %7.2f %6s %8.2f %7.2f %7.2f %6s  # %s/%s\n", sizes[k],
			count_of(c, sizes[k], m->nccl.nranks), "float", redop_of(c), -1, a->time_us, a->algbw_GBps,
			a->busbw_GBps, "N/A", a->time_us, a->algbw_GBps, a->busbw_GBps, "N/A", ualgo_names[a - r.algo],
			a->nalgo >= 0 ? nproto_names[a->proto] : "Simple");
		total += a->busbw_GBps;
		counted++;
	}
	fprintf(out, "# Out of bounds values : 0 OK\n");
	fprintf(out, "# Avg bus bandwidth    : %g \n", counted ? total / counted : 0);
	fprintf(out, "#\n");
}

int nt_compare(FILE *out, const struct metrics *m, const struct design *d, const struct nt_log *log, enum coll c,
	       const char *logname)
{
	const struct fabric *f = &m->fabric;
	size_t i;
	int low = 0, large_low = 0, large = 0, t;
	fprintf(out, "ncfabric compare: %s against %s (%s, %d ranks on %d node%s)\n", logname, d->name, test_names[c],
		m->nccl.nranks, m->nccl.node.nnodes, m->nccl.node.nnodes == 1 ? "" : "s");
	if (log->ranks && log->ranks != m->nccl.nranks)
		fprintf(out, "note: the log has %d ranks, the model %d\n", log->ranks, m->nccl.nranks);
	fprintf(out, "%12s %12s %12s %8s  %s\n", "size", "measured", "predicted", "ratio", "(busbw GB/s; algorithm)");
	for (i = 0; i < log->rows.n; i++) {
		const struct nt_row *r = &VEC_AT(log->rows, struct nt_row, i);
		struct coll_result cr;
		const struct algo_result *a;
		double ratio, measured;
		metrics_at(m, c, r->size, &cr);
		a = coll_pick(&cr, d->job.algo);
		if (!a->available || a->busbw_GBps <= 0) {
			fprintf(out, "%12.0f %12.2f %12s\n", r->size, r->busbw, "-");
			continue;
		}
		/* From the time (4 significant digits), not the rounded busbw column. */
		measured = r->time_us > 0 ? r->size / (1000.0 * r->time_us) * busbw_factor(c, m->nccl.nranks) : r->busbw;
		ratio = measured / a->busbw_GBps;
		fprintf(out, "%12.0f %12.3f %12.3f %8.2f  %s%s\n", r->size, measured, a->busbw_GBps, ratio,
			ualgo_names[a - cr.algo], ratio < 0.8 ? "  LOW: more than 20% below the model" : "");
		if (ratio < 0.8)
			low++;
		if (r->size >= 1 << 20) {
			large++;
			if (ratio < 0.8)
				large_low++;
		}
	}
	if (log->truncated)
		fprintf(out, "(the log ends early: compared as far as it goes)\n");
	fprintf(out, "\n%d of %zu sizes are more than 20%% below the model", low, log->rows.n);
	if (large)
		fprintf(out, " (%d of the %d from 1M up, where bandwidth rules)", large_low, large);
	fprintf(out, ".\n");
	if (!low) {
		fprintf(out, "The measurement tracks the model: the cluster performs as designed.\n");
		return 0;
	}
	fprintf(out, "\nNext checks, in this order:\n");
	fprintf(out, "1. Raw links: each must run at its rated speed (a link trained down shows up here first).\n");
	if (f->node.nnodes > 1)
		fprintf(out, "   - NIC ports: %d x %d Gb/s per node (ibstat / ethtool: rate and width)\n", f->ports,
			f->port_gbps);
	if (f->slot_GBps > 0 && f->node.nnodes > 1)
		fprintf(out, "   - NIC PCIe slots: %.1f GB/s each (lspci -vv: LnkSta speed and width)\n", f->slot_GBps);
	if (f->node.nvl > 0)
		fprintf(out, "   - NVLink: %.0f GB/s per GPU line rate (nvidia-smi nvlink -s)\n", f->nvlink_GBps);
	for (t = 0; t < f->ntiers; t++)
		fprintf(out, "   - %s switch ports: %d Gb/s links\n", switch_role_names[f->tiers[t].role], f->tiers[t].link_gbps);
	fprintf(out, "2. Oversubscription:");
	for (t = 0; t < f->ntiers; t++)
		if (f->tiers[t].ratio > 0)
			fprintf(out, " %s %.3g:1", switch_role_names[f->tiers[t].role], f->tiers[t].ratio);
	fprintf(out, "%s (above 4:1 the fix is more uplinks or spines)\n", f->ntiers ? "" : " none (no switches)");
	fprintf(out, "3. Pattern and topology: NCCL picked %s here; compare NCCL_ALGO=Ring and NCCL_ALGO=Tree runs.\n",
		m->colls[c < PATTERNS ? c : 0].auto_algo >= 0 ? ualgo_labels[m->colls[c < PATTERNS ? c : 0].auto_algo] : "-");
	fprintf(out, "4. Congestion: %s\n",
		f->routing == ROUTE_ECMP ? "static ECMP hashing; collisions vary run to run: try adaptive routing, a LAG, or rail alignment"
					 : "adaptive routing or spraying is on: look for a slow or flapping link");
	fprintf(out, "5. Overlap: in training, check how much communication compute hides (profile the step).\n");
	return low;
}
