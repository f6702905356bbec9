#!/bin/sh
# Run the Criterion suites and the real binary under valgrind memcheck.
# Fails if any process reports an error or loses memory (definitely or
# indirectly). Criterion runs each test in a child process, so children are
# traced and every process writes its own log under $OUT; programs the tests
# start (sh, dot, sort, ...) are not ours and are skipped. With --quiet a log
# is empty unless valgrind found something, so any non-empty log fails.
# usage: tools/valgrind.sh BUILD_DIR
set -u
BUILD=${1:-build}
BIN=$BUILD/ncfabric
OUT=$BUILD/valgrind
rm -rf "$OUT"; mkdir -p "$OUT/tmp"
VG="valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
  --errors-for-leak-kinds=definite,indirect --track-origins=yes --trace-children=yes \
  --trace-children-skip=*/sh,*/dash,*/bash,*/dot,*/sort,*/diff,*/tmux --log-file=$OUT/%p.log"
fail=0
run() {  # run NAME WANT CMD...: the command under valgrind, which must exit with WANT
	name=$1; want=$2; shift 2
	start=$(date +%s)
	# shellcheck disable=SC2086
	$VG "$@" >"$OUT/tmp/$name.out" 2>&1
	rc=$?
	echo "  $name: exit $rc, $(( $(date +%s) - start )) s"
	if [ "$rc" != "$want" ]; then
		echo "valgrind: $name exited $rc, not $want (output in $OUT/tmp/$name.out):"
		grep -E '^\[FAIL\]|Assertion|ncfabric:' "$OUT/tmp/$name.out" | head -20
		fail=1
	fi
}
for t in model_tests layouts_tests io_tests ui_tests; do
	run "$t" 0 "$BUILD/tests/$t" --jobs 1
done
T=$OUT/tmp
printf 'i\n+\n<Esc>\nE\n<Esc>\n:w %s/s.yaml\n:pin\n+\nC\n:compare share/examples/gb200-nvl72.yaml\n:unpin\n' "$T" >"$T/s.script"
run report 0 "$BIN" report share/examples/reference-case.yaml
run report-json 0 "$BIN" report share/examples/dgx-h100-1su.yaml --json --sweep
run export-yaml 0 "$BIN" export share/examples/gb200-nvl72.yaml --format yaml -o "$T/e.yaml"
run export-bom 0 "$BIN" export share/examples/dgx-h100-1su.yaml --format bom-csv -o "$T/e.csv"
run export-dot 0 "$BIN" export share/examples/dgx-h100-1su.yaml --format dot -o "$T/e.dot"
run new 0 "$BIN" new --template superpod --set units=4 -o "$T/n.yaml"
run compare 0 "$BIN" compare share/examples/reference-case.yaml tests/data/nccl/reference-allreduce.log -c allreduce
run compare-np16 0 "$BIN" compare share/examples/dgx-h100-1su.yaml tests/data/nccl/nt-all_reduce-np16.log
run expect-o 0 "$BIN" expect share/examples/reference-case.yaml -c allgather -o "$T/x.txt"
printf '<Tab>\njjjjjjjjjjjjjj\n<Enter>\nu\nz\nG\n<Esc>\nAA\n:set params_b 70\n:nccl auto\n?\nG\n<Esc>\nJ\n<Up>\n<Esc>\nI\nnn\nt\nc\n<Esc>\n<Esc>\n:messages\n<Esc>\np\ny\n<Esc>\nx\n' >"$T/k.script"
run script-keys 0 "$BIN" --script "$T/k.script" --dump-screen "$T/k.txt"
run error-list 0 "$BIN" --script "$T/k.script" --dump-screen "$T/b.txt" tests/data/many-errors.yaml
run diff 1 "$BIN" diff share/examples/reference-case.yaml share/examples/dgx-h100-1su.yaml --json
run bad-file 2 "$BIN" report tests/data/bad/wrong-type.yaml
run script 0 "$BIN" --script "$T/s.script" --dump-screen "$T/screen.txt"

errs=$(find "$OUT" -maxdepth 1 -name '*.log' -size +0)
n=$(ls "$OUT"/*.log | wc -l)
if [ -n "$errs" ]; then
	echo "valgrind: errors in:"; for f in $errs; do echo "  $f"; head -40 "$f"; done
	fail=1
else
	echo "valgrind: $n processes, no errors, no leaks"
fi
if [ $fail = 0 ]; then
	echo "valgrind: passed"
fi
exit $fail
