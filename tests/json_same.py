#!/usr/bin/env python3
"""Do two `ncfabric report --json` outputs give the same numbers?

Used by tests/cli.sh for designs that hold the same hardware written differently. Keys that
name the file or its groups (design, file, catalog, the inventory's per-bundle and
per-group lists, the problems' texts, the cost's per-line list and its counts of BOM lines,
which follow the groups) are left out; every other value must be equal, and
numbers equal to within 1e-9 relative. The count of warnings leaves out the cable plan's
per-bundle warnings (a part the catalog lacks, a link beyond a part's reach), which come
one per bundle and so follow the groups too; their kinds must agree. Prints each
difference; exit 1 if there is one."""
import json
import sys

SKIP_TOP = {"design", "file", "catalog", "problems", "warnings"}
PER_BUNDLE = ("links use a part the catalog does not have", "links are longer than")


def warnings(r):
    """The warnings that do not follow the groups, and the kinds of those that do."""
    ws = [p for p in r.get("problems", []) if p.get("severity") == "warning"]
    bundle = [p for p in ws if p.get("where", "").startswith("bundles[") and any(k in p["message"] for k in PER_BUNDLE)]
    kinds = sorted({k for p in bundle for k in PER_BUNDLE if k in p["message"]})
    return len(ws) - len(bundle), kinds
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
    ra, rb = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
    a, b = dict(flat(ra)), dict(flat(rb))
    bad = 0
    if warnings(ra) != warnings(rb):
        print("warnings: %r vs %r" % (warnings(ra), warnings(rb)))
        bad += 1
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
