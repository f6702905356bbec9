#!/usr/bin/env python3
"""Do two `ncfabric report --json` outputs give the same numbers?

Used by tests/cli.sh for designs that hold the same hardware written differently. Keys that
name the file or its groups (design, file, catalog, the inventory's per-bundle and
per-group lists, the problems' texts, the cost's per-line list and its counts of BOM lines,
which follow the groups) are left out; every other value must be equal, and
numbers equal to within 1e-9 relative. Prints each difference; exit 1 if there is one."""
import json
import sys

SKIP_TOP = {"design", "file", "catalog", "problems"}
SKIP_INVENTORY = {"bundles", "switch_groups"}
SKIP_COST = {"lines", "unknown_lines"}


def flat(o, path=""):
    if isinstance(o, dict):
        for k, v in o.items():
            if path == "" and k in SKIP_TOP:
                continue
            if path == "inventory." and k in SKIP_INVENTORY:
                continue
            if path.startswith("cost.") and k in SKIP_COST:
                continue
            yield from flat(v, path + k + ".")
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from flat(v, path + str(i) + ".")
    else:
        yield path.rstrip("."), o


def main():
    a = dict(flat(json.load(open(sys.argv[1]))))
    b = dict(flat(json.load(open(sys.argv[2]))))
    bad = 0
    for k in sorted(set(a) | set(b)):
        x, y = a.get(k), b.get(k)
        if isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool):
            if abs(x - y) > 1e-9 * max(1.0, abs(x), abs(y)):
                print("%s: %r vs %r" % (k, x, y))
                bad += 1
        elif x != y:
            print("%s: %r vs %r" % (k, x, y))
            bad += 1
    sys.exit(1 if bad else 0)


main()
