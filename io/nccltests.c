#include "io/nccltests.h"
#include "io/safetext.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const test_names[] = { "all_reduce", "all_gather", "reduce_scatter", "alltoall", "sendrecv", "broadcast",
					  "reduce", NULL };

const char *nt_test_name(int c)
{
	return c >= 0 && c < COLL_COUNT ? test_names[c] : "?";
}

int nt_coll_from_name(const char *s)
{
	int c;
	char norm[64];
	size_t i, o = 0;
	const char *base = strrchr(s, '/');
	s = base ? base + 1 : s; /* ./build/all_reduce_perf */
	for (i = 0; s[i] && o + 1 < sizeof norm; i++)
		if (s[i] != '_')
			norm[o++] = s[i];
	norm[o] = '\0';
	if (o > 3 && !strcmp(norm + o - 3, "mpi")) /* all_reduce_perf_mpi */
		norm[o - 3] = '\0';
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

/* A word of a '#' line that names a test binary ("all_reduce_perf", "./x/reduce_perf"):
 * the whole word, so that "reduce_perf" is not found inside "all_reduce_perf". */
static int test_of_word(const char *w)
{
	const char *base = strrchr(w, '/');
	size_t n;
	base = base ? base + 1 : w;
	n = strlen(base);
	if (n > 1 && (base[n - 1] == ',' || base[n - 1] == ':' || base[n - 1] == ')'))
		n--;
	if ((n > 5 && !strncmp(base + n - 5, "_perf", 5)) || (n > 9 && !strncmp(base + n - 9, "_perf_mpi", 9))) {
		char word[64];
		snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), base);
		return nt_coll_from_name(word);
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

/* Bytes of one element of an nccl-tests type name, 0 if unknown. */
static int elem_size(const char *type)
{
	static const struct {
		const char *name;
		int size;
	} types[] = { { "int8", 1 }, { "uint8", 1 }, { "char", 1 }, { "f8e4m3", 1 }, { "f8e5m2", 1 }, { "half", 2 },
		      { "bfloat16", 2 }, { "int32", 4 }, { "uint32", 4 }, { "int", 4 }, { "float", 4 }, { "int64", 8 },
		      { "uint64", 8 }, { "double", 8 } };
	size_t i;
	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if (!strcmp(type, types[i].name))
			return types[i].size;
	return 0;
}

/* Where the numbers of a result line are, from the column header when there is one. */
struct layout {
	bool known, root;
	int base;       /* tokens before the numbers: size count type redop [root] */
	int col[8];     /* time algbw busbw wrong, out-of-place then in-place, from base; -1 absent */
};

static void layout_default(struct layout *L, int n)
{
	int k;
	L->root = n == 9 || n >= 13;
	L->base = L->root ? 5 : 4;
	for (k = 0; k < 8; k++)
		L->col[k] = k;
}

/* "#       size         count      type   redop    root     time   algbw   busbw  #wrong ..." */
static bool layout_header(char *text, struct layout *L)
{
	char *tok[64];
	int n = tokens(text, tok, 64), i, k, seen[4] = { 0, 0, 0, 0 };
	static const char *const names[4][2] = { { "time", "cputime" }, { "algbw", NULL }, { "busbw", NULL },
						  { "#wrong", "error" } };
	if (n < 6 || strcmp(tok[0], "#") || strcmp(tok[1], "size") || strcmp(tok[2], "count"))
		return false;
	memset(L, 0, sizeof *L);
	L->known = true;
	L->root = n > 5 && !strcmp(tok[5], "root");
	L->base = L->root ? 5 : 4;
	for (k = 0; k < 8; k++)
		L->col[k] = -1;
	for (i = 1 + L->base; i < n; i++)
		for (k = 0; k < 4; k++)
			if (!strcmp(tok[i], names[k][0]) || (names[k][1] && !strcmp(tok[i], names[k][1]))) {
				if (seen[k] < 2)
					L->col[k + 4 * seen[k]] = i - 1 - L->base;
				seen[k]++;
			}
	return L->col[0] >= 0 && L->col[2] >= 0;
}

/* Lines NCCL itself prints into the test's output: "host:pid:tid [dev] NCCL INFO ...",
 * "... NCCL WARN ...", "NCCL version 2.19.3+cuda12.2". */
static int nccl_line(const char *text)
{
	if (strstr(text, "NCCL WARN "))
		return 2;
	if (strstr(text, "NCCL INFO ") || !strncmp(text, "NCCL version", 12) || strstr(text, "] NCCL "))
		return 1;
	return 0;
}

/* The collective the columns say wrote the rows, and n for those that split the data. */
static void identify(struct nt_log *log)
{
	size_t i;
	int whole = 0, split = 0, rooted = 0, none = 0, sum = 0, n = 0;
	const struct nt_row *big = NULL;
	for (i = 0; i < log->rows.n; i++) {
		const struct nt_row *r = &VEC_AT(log->rows, struct nt_row, i);
		double ratio;
		if (r->root >= 0)
			rooted++;
		if (r->sum)
			sum++;
		else
			none++;
		if (r->size <= 0 || r->count <= 0 || !r->elem)
			continue;
		ratio = r->size / ((double)r->count * r->elem);
		if (fabs(ratio - 1) < 1e-9) {
			whole++;
		} else if (ratio > 1.5 && fabs(ratio - floor(ratio + 0.5)) < 1e-9) {
			split++;
			n = (int)floor(ratio + 0.5);
		}
		if (!big || r->algbw > big->algbw)
			big = r;
	}
	log->coll_columns = -1;
	if (!log->rows.n)
		return;
	if (rooted) {
		log->coll_columns = none > sum ? COLL_BROADCAST : COLL_REDUCE;
		return;
	}
	if (split > whole) {
		log->ranks_columns = n;
		log->coll_columns = sum > none ? COLL_REDUCESCATTER : NT_AMBIGUOUS;
		return;
	}
	if (whole && big && big->algbw >= 0.1) {
		double f = big->busbw / big->algbw;
		/* busbw = algbw x 2(n-1)/n for AllReduce (1 with one rank), = algbw for send/recv */
		if (f > 1.02)
			log->coll_columns = COLL_ALLREDUCE;
		else if (f > 0.98 && log->ranks != 1)
			log->coll_columns = COLL_SENDRECV;
	}
}

bool nt_parse(const char *buf, size_t len, struct nt_log *log, struct ncf_diag *diag)
{
	size_t pos = 0;
	int line = 0;
	struct layout L = { 0 };
	memset(log, 0, sizeof *log);
	log->coll = log->coll_header = log->coll_columns = -1;
	if (memchr(buf, '\0', len)) {
		diag_add_at(diag, NCF_ERROR, 1, 1, "binary data: not an nccl-tests log");
		return false;
	}
	while (pos < len) {
		size_t end = pos;
		char text[1024], orig[1024], *tok[64];
		int n, kind;
		bool last;
		double v[16];
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
			char copy[1024];
			int k;
			if (strncmp(text, "#  Rank", 7) == 0 || strncmp(text, "# Rank", 6) == 0)
				log->ranks++;
			sscanf(text, "# nThread %d nGpus %d", &log->nthreads, &log->ngpus);
			memcpy(copy, text, sizeof copy);
			if (layout_header(copy, &L))
				continue;
			memcpy(copy, text, sizeof copy);
			n = tokens(copy, tok, 64);
			for (k = 0; k < n && log->coll_header < 0; k++)
				log->coll_header = test_of_word(tok[k]);
			continue;
		}
		if ((kind = nccl_line(text)) != 0) {
			log->nccl_lines++;
			if (kind == 2 && !log->warns++) {
				log->warn_line = line;
				snprintf(log->warn, sizeof log->warn, "%.190s", orig);
			}
			continue;
		}
		n = tokens(text, tok, 64);
		if (n == 0)
			continue;
		/* size count type redop [root] time algbw busbw wrong [time algbw busbw wrong] */
		{
			struct layout R = L;
			int k, nums, need;
			struct nt_row *r;
			if (!R.known)
				layout_default(&R, n);
			nums = n - R.base;
			need = R.col[2] + 1;
			if (n < R.base + 3 || !is_num(tok[0], &v[0]) || !is_num(tok[1], &v[1]) || (R.root && !is_num(tok[4], &v[4]))) {
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
			for (k = 0; k < 8; k++) {
				double x;
				bool wrong = k == 3 || k == 7;
				v[5 + k] = 0;
				if (R.col[k] < 0 || R.col[k] >= nums)
					continue;
				if (!is_num(tok[R.base + R.col[k]], &x)) {
					if (wrong) /* "#wrong" can be N/A */
						continue;
					if (last && log->rows.n) {
						log->truncated = true;
						goto done;
					}
					diag_add_at(diag, NCF_ERROR, line, 1, "column %d is '%s', expected a number", R.base + R.col[k] + 1,
						    tok[R.base + R.col[k]]);
					nt_log_free(log);
					return false;
				}
				v[5 + k] = x;
			}
			if (nums < need || nums < 3) {
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
			r->elem = elem_size(tok[2]);
			r->sum = strcmp(tok[3], "none") != 0;
			r->root = R.root ? (int)v[4] : -1;
			r->time_us = v[5];
			r->algbw = v[6];
			r->busbw = v[7];
			r->ip_time_us = v[9];
			r->ip_algbw = v[10];
			r->ip_busbw = v[11];
			r->line = line;
		}
	}
done:
	if (!log->rows.n) {
		diag_add_at(diag, NCF_ERROR, line ? line : 1, 1, "nothing comparable: no result line parsed (not an nccl-tests log?)");
		nt_log_free(log);
		return false;
	}
	identify(log);
	if (log->coll_header >= 0) {
		log->coll = log->coll_header;
		snprintf(log->how, sizeof log->how, "%s_perf, as its header says", test_names[log->coll]);
		if (log->coll_columns >= 0 && log->coll_columns != log->coll)
			snprintf(log->how + strlen(log->how), sizeof log->how - strlen(log->how),
				 " (its columns look like %s_perf)", test_names[log->coll_columns]);
	} else if (log->coll_columns >= 0) {
		log->coll = log->coll_columns;
		snprintf(log->how, sizeof log->how, "%s_perf, from its columns (%s)", test_names[log->coll],
			 log->coll == COLL_BROADCAST || log->coll == COLL_REDUCE ? "a root"
			 : log->coll == COLL_REDUCESCATTER                      ? "a reduction, size = n x count"
			 : log->coll == COLL_ALLREDUCE                          ? "size = count, busbw = 2(n-1)/n x algbw"
										: "size = count, busbw = algbw");
	} else if (log->coll_columns == NT_AMBIGUOUS) {
		snprintf(log->how, sizeof log->how, "all_gather_perf or alltoall_perf: their columns are alike");
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

static void nt_expect_raw(FILE *out, const struct metrics *m, const char *design, enum coll c, int job_algo);

void nt_expect(FILE *out, const struct metrics *m, const char *design, enum coll c, int job_algo)
{
	struct safe_capture cap;
	nt_expect_raw(safe_capture(&cap, out), m, design, c, job_algo);
	safe_release(&cap);
}

static void nt_expect_raw(FILE *out, const struct metrics *m, const char *design, enum coll c, int job_algo)
{
	double sizes[40], total = 0;
	int n = sweep_sizes(sizes, 40), k, counted = 0;
	fprintf(out, "# ncfabric expect: %s_perf -b 8 -e 16G -f 2 on %s\n", test_names[c], design);
	fprintf(out, "# %d rank%s on %d node%s; the model's prediction, not a measurement\n", m->nccl.nranks,
		m->nccl.nranks == 1 ? "" : "s",
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

static int nt_compare_raw(FILE *out, const struct metrics *m, const struct design *d, const struct nt_log *log,
			  enum coll c, const char *logname);

int nt_compare(FILE *out, const struct metrics *m, const struct design *d, const struct nt_log *log, enum coll c,
	       const char *logname)
{
	struct safe_capture cap;
	int rc = nt_compare_raw(safe_capture(&cap, out), m, d, log, c, logname);
	safe_release(&cap);
	return rc;
}

static int nt_compare_raw(FILE *out, const struct metrics *m, const struct design *d, const struct nt_log *log,
			  enum coll c, const char *logname)
{
	const struct fabric *f = &m->fabric;
	size_t i;
	int low = 0, high = 0, large_low = 0, large = 0, compared = 0, t;
	fprintf(out, "ncfabric compare: %s against %s (%s, %d rank%s on %d node%s)\n", logname, d->name, test_names[c],
		m->nccl.nranks, m->nccl.nranks == 1 ? "" : "s", m->nccl.node.nnodes, m->nccl.node.nnodes == 1 ? "" : "s");
	if (log->how[0])
		fprintf(out, "the log: %s\n", log->how);
	if (log->ranks && log->ranks != m->nccl.nranks)
		fprintf(out, "note: the log has %d ranks, the model %d\n", log->ranks, m->nccl.nranks);
	else if (!log->ranks && log->ranks_columns && log->ranks_columns != m->nccl.nranks)
		fprintf(out, "note: the log's sizes are for %d ranks, the model has %d\n", log->ranks_columns, m->nccl.nranks);
	if (log->nccl_lines)
		fprintf(out, "note: %d line%s of NCCL's own skipped", log->nccl_lines, log->nccl_lines == 1 ? "" : "s");
	if (log->warns)
		fprintf(out, ", %d NCCL WARN (line %d: %s)", log->warns, log->warn_line, log->warn);
	if (log->nccl_lines)
		fprintf(out, "\n");
	fprintf(out, "%12s %12s %12s %8s  %s\n", "size", "measured", "predicted", "ratio", "(busbw GB/s; algorithm)");
	for (i = 0; i < log->rows.n; i++) {
		const struct nt_row *r = &VEC_AT(log->rows, struct nt_row, i);
		struct coll_result cr;
		const struct algo_result *a;
		double ratio, measured;
		if (r->size <= 0)
			continue; /* 0 bytes per rank: nccl-tests times nothing but latency */
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
			ualgo_names[a - cr.algo],
			ratio < 0.8   ? "  LOW: more than 20% below the model"
			: ratio > 1.2 ? "  HIGH: more than 20% above the model"
				      : "");
		compared++;
		if (ratio < 0.8)
			low++;
		if (ratio > 1.2)
			high++;
		if (r->size >= 1 << 20) {
			large++;
			if (ratio < 0.8)
				large_low++;
		}
	}
	if (log->truncated)
		fprintf(out, "(the log ends early: compared as far as it goes)\n");
	if (!compared) {
		fprintf(out, "\nnothing comparable: the model cannot run %s at any of the log's sizes on this design.\n",
			test_names[c]);
		return -1;
	}
	fprintf(out, "\n%d of %d sizes are more than 20%% below the model", low, compared);
	if (large)
		fprintf(out, " (%d of the %d from 1M up, where bandwidth rules)", large_low, large);
	fprintf(out, ".\n");
	if (high)
		fprintf(out, "%d of %d sizes are more than 20%% above the model: the model leaves something out here "
			"(a faster link, an algorithm it does not know, a wrong design for this log).\n", high, compared);
	if (!low) {
		if (!high)
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
