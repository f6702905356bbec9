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
	cr_assert_eq(nt_coll_from_name("./build/all_reduce_perf"), COLL_ALLREDUCE);
	cr_assert_eq(nt_coll_from_name("reduce_perf"), COLL_REDUCE);
	cr_assert_eq(nt_coll_from_name("broadcast_perf_mpi"), COLL_BROADCAST);
}

Test(nccltests, classic_log_with_ranks_and_in_place)
{
	struct nt_log log;
	struct ncf_diag diag = { 0 };
	const struct nt_row *r;
	cr_assert(parse_file("tests/data/nccl/reference-allreduce.log", &log, &diag));
	cr_expect_eq(log.coll_header, -1, "older logs do not name the test");
	cr_expect_eq(log.coll, COLL_ALLREDUCE, "its columns do: sum, size = 4 x count, busbw = 2(n-1)/n algbw");
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
			 "expected a result line (size count type redop root time algbw busbw #wrong ...), got 'srun: error: node002: task 12: Killed'");
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
	cr_assert_str_eq(diag_get(&diag, 0)->msg, "nothing comparable: no result line parsed (not an nccl-tests log?)");
	diag_clear(&diag);
	cr_assert_not(nt_parse("8 2 float sum -1 x 0.00 0.00 0\n", 31, &log, &diag));
	cr_assert_str_eq(diag_get(&diag, 0)->msg, "column 6 is 'x', expected a number");
	diag_free(&diag);
}

/* nccl-tests 2.19's own output (tests/data/nccl/gen-logs.py writes it with the tests' printf
 * formats): every test, one process on 8 GPUs and 16 processes on two nodes. */
Test(nccltests, every_test_by_header_and_by_columns)
{
	static const struct {
		const char *file;
		int coll, columns, ranks, rows, nccl, warns;
		bool wrong;
	} cases[] = {
		{ "nt-all_reduce-g8.log", COLL_ALLREDUCE, COLL_ALLREDUCE, 8, 25, 8, 0, true },
		{ "nt-all_gather-g8.log", COLL_ALLGATHER, NT_AMBIGUOUS, 8, 25, 0, 0, false },
		{ "nt-reduce_scatter-g8.log", COLL_REDUCESCATTER, COLL_REDUCESCATTER, 8, 25, 1, 0, true },
		{ "nt-alltoall-g8.log", COLL_ALLTOALL, NT_AMBIGUOUS, 8, 25, 0, 0, false },
		{ "nt-sendrecv-g8.log", COLL_SENDRECV, COLL_SENDRECV, 8, 25, 1, 0, true },
		{ "nt-broadcast-g8.log", COLL_BROADCAST, COLL_BROADCAST, 8, 25, 0, 0, true },
		{ "nt-all_reduce-np16.log", COLL_ALLREDUCE, COLL_ALLREDUCE, 16, 21, 7, 1, true },
		{ "nt-all_gather-np16.log", COLL_ALLGATHER, NT_AMBIGUOUS, 16, 21, 1, 0, false },
		{ "nt-reduce_scatter-np16.log", COLL_REDUCESCATTER, COLL_REDUCESCATTER, 16, 21, 0, 0, true },
		{ "nt-alltoall-np16.log", COLL_ALLTOALL, NT_AMBIGUOUS, 16, 21, 0, 0, true },
		{ "nt-sendrecv-np16.log", COLL_SENDRECV, COLL_SENDRECV, 16, 21, 3, 0, false },
		{ "nt-broadcast-np16.log", COLL_BROADCAST, COLL_BROADCAST, 16, 21, 0, 0, true },
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct nt_log log;
		struct ncf_diag diag = { 0 };
		char path[200];
		snprintf(path, sizeof path, "tests/data/nccl/%s", cases[i].file);
		cr_assert(parse_file(path, &log, &diag), "%s: %s", path, diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
		cr_expect_eq(log.coll_header, cases[i].coll, "%s: header", cases[i].file);
		cr_expect_eq(log.coll, cases[i].coll, "%s", cases[i].file);
		cr_expect_eq(log.coll_columns, cases[i].columns, "%s: columns say %d", cases[i].file, log.coll_columns);
		cr_expect_eq(log.ranks, cases[i].ranks, "%s: Rank lines", cases[i].file);
		cr_expect_eq(log.rows.n, (size_t)cases[i].rows, "%s: rows", cases[i].file);
		cr_expect_eq(log.nccl_lines, cases[i].nccl, "%s: NCCL's lines %d", cases[i].file, log.nccl_lines);
		cr_expect_eq(log.warns, cases[i].warns, "%s: WARN", cases[i].file);
		cr_expect_not(log.truncated);
		cr_expect_eq(log.ngpus, cases[i].ranks == 8 ? 8 : 1, "%s: nGpus", cases[i].file);
		if (cases[i].columns == NT_AMBIGUOUS || cases[i].coll == COLL_REDUCESCATTER)
			cr_expect_eq(log.ranks_columns, cases[i].ranks, "%s: n from size = n x count x 4", cases[i].file);
		nt_log_free(&log);
		diag_free(&diag);
	}
}

/* The rows as printed: a split collective's 0-byte sizes, the in-place half, N/A. */
Test(nccltests, rows_as_nccl_tests_prints_them)
{
	struct nt_log log;
	struct ncf_diag diag = { 0 };
	const struct nt_row *r;
	cr_assert(parse_file("tests/data/nccl/nt-all_gather-g8.log", &log, &diag));
	r = &VEC_AT(log.rows, struct nt_row, 0);
	cr_expect_float_eq(r->size, 0, 0.5, "8 B over 8 ranks is 0 elements each (base & ~3)");
	r = &VEC_AT(log.rows, struct nt_row, 4);
	cr_expect_float_eq(r->size, 128, 0.5);
	cr_expect_eq(r->count, 4, "128 B = 8 ranks x 4 floats");
	cr_expect_eq(r->elem, 4);
	cr_expect_not(r->sum);
	cr_expect_eq(r->root, -1);
	r = &VEC_AT(log.rows, struct nt_row, 24);
	cr_expect_float_eq(r->size, 134217728, 0.5);
	cr_expect_float_eq(r->time_us, 350.01, 1e-9);
	cr_expect_float_eq(r->algbw, 383.47, 1e-9);
	cr_expect_float_eq(r->busbw, 335.53, 1e-9, "busbw = algbw x 7/8");
	cr_expect_float_eq(r->ip_time_us, 346.92, 1e-9, "in-place after #wrong N/A");
	nt_log_free(&log);
	cr_assert(parse_file("tests/data/nccl/nt-broadcast-g8.log", &log, &diag));
	cr_expect_eq(VEC_AT(log.rows, struct nt_row, 3).root, 0);
	nt_log_free(&log);
	cr_assert(parse_file("tests/data/nccl/nt-all_reduce-np16.log", &log, &diag));
	cr_expect_eq(log.warn_line, 42);
	cr_expect_str_eq(log.warn, "node02:2203:2219 [3] NCCL WARN NET/IB : Got async event : port error");
	nt_log_free(&log);
}
