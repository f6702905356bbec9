/* nccltests.h: nccl-tests output, read and written.
 *
 * nccl-tests (all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf,
 * sendrecv_perf, broadcast_perf, reduce_perf) prints '#' header lines (its version, "Collective
 * test starting: NAME", the nThread line, one "#  Rank" line per rank, the column header),
 * then one line per size:
 *     size count type redop root | time algbw busbw #wrong | time algbw busbw #wrong
 * (out-of-place, then in-place; #wrong is N/A without validation), and a closing "# Avg bus
 * bandwidth" line. NCCL's own lines (NCCL_DEBUG=INFO, WARN, "NCCL version") may come anywhere
 * in between: they are skipped (the WARN ones counted and the first kept). The reader takes any
 * rank count, with or without the header, with or without the in-place half; a truncated last
 * line ends the log (a partial log is compared as far as it goes); any other line that is not
 * a result is an error naming its line.
 *
 * Which test wrote a log comes from its header when it names the test, and otherwise from the
 * columns, as the tests print them: a root of 0 or more is broadcast (redop none) or reduce;
 * size = count x the type's size for all_reduce and sendrecv (busbw = 2(n-1)/n x algbw for
 * all_reduce, = algbw for sendrecv), size = n x count x the type's size for all_gather,
 * alltoall (redop none: the columns cannot tell these two apart) and reduce_scatter. */
#ifndef NCF_NCCLTESTS_H
#define NCF_NCCLTESTS_H
#include <stdbool.h>
#include <stdio.h>
#include "model/metrics.h"

struct nt_row {
	double size;
	long count;
	int elem;                           /* bytes of one element of its type; 0 unknown */
	int root;                           /* -1: none */
	bool sum;                           /* a reduction op (sum, prod, max, min, avg), not "none" */
	double time_us, algbw, busbw;       /* out-of-place */
	double ip_time_us, ip_algbw, ip_busbw; /* in-place, 0 if absent */
	int line;
};

#define NT_AMBIGUOUS (-2) /* coll_columns: all_gather or alltoall, which columns cannot tell */

struct nt_log {
	int coll;          /* enum coll: the header's word, else the columns'; -1 if neither says */
	int coll_header;   /* what the header names, -1 */
	int coll_columns;  /* what the columns say, -1 or NT_AMBIGUOUS */
	char how[200];     /* how coll was found, in words */
	int ranks;         /* "#  Rank" lines, 0 if none */
	int ranks_columns; /* n from size = n x count x type size, 0 if none */
	int nthreads, ngpus; /* from the nThread line, 0 if absent */
	int nccl_lines;    /* NCCL INFO, WARN and version lines skipped */
	int warns;         /* of those, NCCL WARN lines */
	int warn_line;     /* the first WARN: its line and text */
	char warn[200];
	bool truncated;    /* the last line was cut short */
	struct vec rows;   /* struct nt_row */
};

/* Which collective a test binary name or a --collective word names (all_reduce_perf,
 * ./build/all_reduce_perf, allreduce, all_reduce, ...), or -1. */
int nt_coll_from_name(const char *s);
/* nccl-tests' name of collective c ("all_reduce", ..., "broadcast", "reduce"). */
const char *nt_test_name(int c);
bool nt_parse(const char *buf, size_t len, struct nt_log *log, struct ncf_diag *diag);
void nt_log_free(struct nt_log *log);

/* The table the nccl-tests binary for c should print on the design (sizes 8 B to 16 GiB,
 * doubling), with the algorithm NCCL would pick per size. */
void nt_expect(FILE *out, const struct metrics *m, const char *design, enum coll c, int job_algo);
/* Measured against predicted per size; returns the number of sizes more than 20% below, or
 * -1 when no size could be compared (nothing comparable: the model cannot run c here). */
int nt_compare(FILE *out, const struct metrics *m, const struct design *d, const struct nt_log *log, enum coll c,
	       const char *logname);

#endif
