#!/bin/sh
# same-reports.sh BIN DIR [MORE]: write what BIN reports (and exports: BOM, Graphviz,
# NetBox, ASTRA-sim) for every shipped example, every test design (tests/data: the
# equivalence designs, the bad files' errors, ...) and every template (at its defaults
# and at a few other sizes) into DIR, one file per case, and of every design in the directory MORE (the bench's:
# build/tools/bench --write MORE). Run it with the binary before and after a change that
# must not move a number, then `diff -r` the two directories: nothing may differ.
#   sh tools/same-reports.sh build/ncfabric /tmp/before   (on the old tree)
#   sh tools/same-reports.sh build/ncfabric /tmp/after    (on the new tree)
#   diff -r /tmp/before /tmp/after
# Run it from the source tree. Both runs read the same catalog file ($NCFABRIC_CATALOG is
# set to share/catalog.yaml), and template designs are named by the same relative path, so
# the only differences can be the numbers.
set -u
case $1 in /*) BIN=$1 ;; *) BIN=$PWD/$1 ;; esac
case $2 in /*) OUT=$2 ;; *) OUT=$PWD/$2 ;; esac
NCFABRIC_CATALOG=$PWD/share/catalog.yaml
export NCFABRIC_CATALOG
mkdir -p "$OUT" "$OUT/designs"
report() { # NAME FILE: the JSON report, the text report and the sweep
	"$BIN" report "$2" --json > "$OUT/$1.json" 2>&1; echo "rc=$?" >> "$OUT/$1.json"
	"$BIN" report "$2" > "$OUT/$1.txt" 2>&1; echo "rc=$?" >> "$OUT/$1.txt"
	"$BIN" report "$2" --json --sweep > "$OUT/$1.sweep.json" 2>&1; echo "rc=$?" >> "$OUT/$1.sweep.json"
}
exports() { # NAME FILE: the exports that walk the cable plan (BOM, Graphviz, NetBox, ASTRA-sim)
	case $2 in /*) in=$2 ;; *) in=$PWD/$2 ;; esac
	(
		cd "$OUT" || exit 1 # outputs named relative to DIR: the files name each other
		for fmt in bom-json dot; do
			"$BIN" export "$in" --format $fmt > "$1.$fmt" 2>&1; echo "rc=$?" >> "$1.$fmt"
		done
		mkdir -p "$1.netbox" "$1.astra"
		"$BIN" export "$in" --format netbox -o "$1.netbox" > "$1.netbox.log" 2>&1; echo "rc=$?" >> "$1.netbox.log"
		"$BIN" export "$in" --format astra-sim -o "$1.astra/a" > "$1.astra.log" 2>&1; echo "rc=$?" >> "$1.astra.log"
	)
}
"$BIN" report --json > "$OUT/default.json" 2>&1; echo "rc=$?" >> "$OUT/default.json"
for f in share/examples/*.yaml tests/data/*.yaml tests/data/equiv/*.yaml tests/data/bad/*.yaml; do
	report "$(echo "$f" | tr / _)" "$f"
	exports "$(echo "$f" | tr / _)" "$f"
done
if [ $# -ge 3 ]; then
	for f in "$3"/*.yaml; do
		mkdir -p "$OUT/more"
		cp "$f" "$OUT/more/"
		(cd "$OUT" && report "more_$(basename "$f")" "more/$(basename "$f")")
	done
fi
# Templates: every one at its defaults, then a few sizes each.
for t in $("$BIN" templates | grep -E '^[a-z]'); do
	"$BIN" new --template "$t" -o "$OUT/designs/$t.yaml" >/dev/null 2>&1 &&
		(cd "$OUT" && report "tpl-$t" "designs/$t.yaml" && exports "tpl-$t" "designs/$t.yaml")
done
while read -r t sets; do
	name="tpl-$t-$(echo "$sets" | tr ' =' '_-')"
	args=""
	for s in $sets; do args="$args --set $s"; done
	# shellcheck disable=SC2086
	"$BIN" new --template "$t" $args -o "$OUT/designs/$name.yaml" >/dev/null 2>&1 && (cd "$OUT" && report "$name" "designs/$name.yaml")
done <<'CASES'
leaf-spine servers=2
leaf-spine servers=512 oversubscription=2
leaf-spine servers=64 wiring=tor
fat-tree k=4
fat-tree k=16 pods=3
superpod units=4
superpod units=16 generation=xdr
nvl72 racks=8
rail-only
CASES
echo "same-reports: $(ls "$OUT"/*.json | grep -vc sweep) reports of each kind written to $OUT"
