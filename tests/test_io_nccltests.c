/* The nccl-tests reader, on logs written out by hand in nccl-tests' own format. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "io/design_io.h"
#include "io/nccltests.h"

static bool parse_file(const char *path, struct nt_log *log, struct ncf_diag *diag)
{
	char err[200], *buf;
	size_t len;
	bool ok;
	buf = file_read(path, &len, err, sizeof err);
	cr_assert_not_null(buf, "%s: %s", path, err);
	ok = nt_parse(buf, len, log, diag);
	free(buf);
	return ok;
}

Test(nccltests, names)
{
	cr_assert_eq(nt_coll_from_name("all_reduce_perf"), COLL_ALLREDUCE);
	cr_assert_eq(nt_coll_from_name("allreduce"), COLL_ALLREDUCE);
	cr_assert_eq(nt_coll_from_name("all_gather"), COLL_ALLGATHER);
	cr_assert_eq(nt_coll_from_name("reduce_scatter_perf"), COLL_REDUCESCATTER);
	cr_assert_eq(nt_coll_from_name("alltoall_perf"), COLL_ALLTOALL);
	cr_assert_eq(nt_coll_from_name("sendrecv"), COLL_SENDRECV);
	cr_assert_eq(nt_coll_from_name("bcast"), -1);
}

Test(nccltests, classic_log_with_ranks_and_in_place)
{
	struct nt_log log;
	struct ncf_diag diag = { 0 };
	const struct nt_row *r;
	cr_assert(parse_file("tests/data/nccl/reference-allreduce.log", &log, &diag));
	cr_expect_eq(log.coll, -1, "older logs do not name the test");
	cr_expect_eq(log.ranks, 32);
	cr_expect_eq(log.rows.n, 32);
	cr_expect_not(log.truncated);
	r = &VEC_AT(log.rows, struct nt_row, 31);
	cr_expect_float_eq(r->size, 17179869184.0, 0.5);
	cr_expect_eq(r->count, 4294967296L);
	cr_expect_float_eq(r->busbw, 38.0, 0.01);
	cr_expect_gt(r->ip_time_us, r->time_us, "in-place columns read");
	nt_log_free(&log);
}

Test(nccltests, new_header_names_the_test_and_na_wrong)
{
	struct nt_log log;
	struct ncf_diag diag = { 0 };
	cr_assert(parse_file("tests/data/nccl/h100-allgather.log", &log, &diag));
	cr_expect_eq(log.coll, COLL_ALLGATHER);
	cr_expect_eq(log.ranks, 8);
	cr_expect_eq(log.rows.n, 28);
	nt_log_free(&log);
}

Test(nccltests, bare_and_truncated_and_malformed)
{
	struct nt_log log;
	struct ncf_diag diag = { 0 };
	cr_assert(parse_file("tests/data/nccl/bare-sendrecv.log", &log, &diag), "result lines alone are a log");
	cr_expect_eq(log.rows.n, 10);
	cr_expect_eq(log.ranks, 0);
	nt_log_free(&log);
	cr_assert(parse_file("tests/data/nccl/truncated.log", &log, &diag), "a partial log is read as far as it goes");
	cr_expect(log.truncated);
	cr_expect_eq(log.rows.n, 20);
	nt_log_free(&log);
	cr_assert_not(parse_file("tests/data/nccl/malformed.log", &log, &diag));
	cr_assert_eq(diag_get(&diag, 0)->line, 43);
	cr_assert_str_eq(diag_get(&diag, 0)->msg,
			 "expected a result line (size count type redop root time algbw busbw #wrong ...), got 'NCCL WARN Cuda failure 'out of memory''");
	diag_free(&diag);
}

Test(nccltests, junk_is_refused)
{
	struct nt_log log;
	struct ncf_diag diag = { 0 };
	cr_assert_not(nt_parse("hello\n", 6, &log, &diag));
	cr_assert_eq(diag_get(&diag, 0)->line, 1);
	diag_clear(&diag);
	cr_assert_not(nt_parse("# only comments\n#\n", 18, &log, &diag));
	cr_assert_str_eq(diag_get(&diag, 0)->msg, "no result lines: not an nccl-tests log");
	diag_clear(&diag);
	cr_assert_not(nt_parse("8 2 float sum -1 x 0.00 0.00 0\n", 31, &log, &diag));
	cr_assert_str_eq(diag_get(&diag, 0)->msg, "column 6 is 'x', expected a number");
	diag_free(&diag);
}
