#!/bin/sh
# The real binary in a real terminal (tmux, detached, fixed size). Polls the screen for
# the expected text instead of sleeping a fixed time. Closes with "N passed, N failed".
BIN=${NCF_BIN:-build/ncfabric}
pass=0
fail=0
if ! command -v tmux >/dev/null 2>&1; then
	echo "tmux is not installed (make deps installs it)"
	echo "0 passed, 1 failed"
	exit 1
fi
SOCK="ncf-test-$$"
TMP=$(mktemp -d)
T() { tmux -L "$SOCK" "$@"; }
cleanup() { T kill-server 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

# wait_for TEXT [SECONDS]: poll the pane until it shows TEXT
wait_for() {
	i=0
	limit=$(( ${2:-5} * 20 ))
	while [ $i -lt $limit ]; do
		if T capture-pane -p -t ncf 2>/dev/null | grep -qF -- "$1"; then return 0; fi
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}
check() {
	if wait_for "$2" "${3:-5}"; then pass=$((pass + 1)); echo "[PASS] $1"
	else fail=$((fail + 1)); echo "[FAIL] $1: no '$2' on screen"; T capture-pane -p -t ncf 2>/dev/null | sed 's/^/       /'; fi
}
gone() {
	i=0
	while [ $i -lt 100 ]; do
		T has-session -t ncf 2>/dev/null || { pass=$((pass + 1)); echo "[PASS] $1"; return; }
		sleep 0.05
		i=$((i + 1))
	done
	fail=$((fail + 1))
	echo "[FAIL] $1: still running"
}

cp share/examples/dgx-h100-1su.yaml "$TMP/d.yaml"
T new-session -d -s ncf -x 80 -y 24 "TERM=xterm-256color $BIN $TMP/d.yaml; sleep 5"
check "opens the design" "dgx-h100-1su"
check "shows the GPUs" "GPUs            256"
T send-keys -t ncf "-"
check "an edit changes the numbers" "GPUs            248"
check "the title says modified" "[modified]"
T send-keys -t ncf "u"
check "undo restores" "GPUs            256"
T send-keys -t ncf "-" "w"
check "w saves" "saved $TMP/d.yaml"
if grep -q "count: 31" "$TMP/d.yaml"; then pass=$((pass + 1)); echo "[PASS] the file holds the edit"
else fail=$((fail + 1)); echo "[FAIL] the file holds the edit"; fi
T send-keys -t ncf "q"
gone "q quits a saved design"

# SIGHUP (the SSH connection drops) with unsaved work leaves a recovery file.
T new-session -d -s ncf -x 100 -y 30 "TERM=xterm-256color $BIN $TMP/d.yaml"
check "opens again" "GPUs            248"
T send-keys -t ncf "+"
check "unsaved edit" "[modified]"
T kill-session -t ncf
i=0
while [ $i -lt 100 ] && [ ! -f "$TMP/d.yaml.recover" ]; do sleep 0.05; i=$((i + 1)); done
if grep -q "count: 32" "$TMP/d.yaml.recover" 2>/dev/null; then pass=$((pass + 1)); echo "[PASS] SIGHUP writes the recovery file"
else fail=$((fail + 1)); echo "[FAIL] SIGHUP writes the recovery file"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
