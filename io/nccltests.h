/* nccltests.h: nccl-tests output, read and written.
 *
 * nccl-tests (all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf,
 * sendrecv_perf) prints '#' header lines, one line per size:
 *     size count type redop root | time algbw busbw #wrong | time algbw busbw #wrong
 * (out-of-place, then in-place), and a closing "# Avg bus bandwidth" line. The reader
 * takes any rank count, with or without the header, with or without the in-place half;
 * a truncated last line ends the log (a partial log is compared as far as it goes);
 * anything else that is not such a line is an error naming its line. */
#ifndef NCF_NCCLTESTS_H
#define NCF_NCCLTESTS_H
#include <stdbool.h>
#include <stdio.h>
#include "model/metrics.h"

struct nt_row {
	double size;
	long count;
	double time_us, algbw, busbw;       /* out-of-place */
	double ip_time_us, ip_algbw, ip_busbw; /* in-place, 0 if absent */
	int line;
};

struct nt_log {
	int coll;        /* enum coll, -1 if the log does not say */
	int ranks;       /* "#  Rank" lines, 0 if none */
	bool truncated;  /* the last line was cut short */
	struct vec rows; /* struct nt_row */
};

/* Which collective a test binary name or a --collective word names (all_reduce_perf,
 * allreduce, all_reduce, ...), or -1. */
int nt_coll_from_name(const char *s);
bool nt_parse(const char *buf, size_t len, struct nt_log *log, struct ncf_diag *diag);
void nt_log_free(struct nt_log *log);

/* The table the nccl-tests binary for c should print on the design (sizes 8 B to 16 GiB,
 * doubling), with the algorithm NCCL would pick per size. */
void nt_expect(FILE *out, const struct metrics *m, const char *design, enum coll c, int job_algo);
/* Measured against predicted per size; returns the number of sizes more than 20% below. */
int nt_compare(FILE *out, const struct metrics *m, const struct design *d, const struct nt_log *log, enum coll c,
	       const char *logname);

#endif
