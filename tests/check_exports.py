#!/usr/bin/env python3
"""Read ncfabric's exports back as their consumers would, and check them.

  check_exports.py netbox DIR REPORT.json   the NetBox folder: device and module types
                                            against the community library's JSON schemas
                                            (tests/data/netbox/schema) and naming rules;
                                            every cable on an interface that exists (the
                                            library's types from tests/data/netbox/library),
                                            no interface twice, devices in their racks,
                                            per-switch ports equal to the report's, one
                                            connected component; no stray files
  check_exports.py dot GRAPH.json DESIGN    `dot -Tjson` output: every bundle is an edge
                                            between its two groups
  check_exports.py astra PREFIX REPORT.json the keys and units ASTRA-sim's parsers read
  check_exports.py bom CSV YAML JSON        totals are sums of lines; YAML and JSON agree
Prints what is wrong and exits 1, or exits 0 silently."""
import csv
import json
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
problems = []


# NetBox's interface types that take no cable (dcim/constants.py VIRTUAL_IFACE_TYPES).
VIRTUAL_IFACES = ("virtual", "bridge", "lag")

def bad(msg):
    problems.append(msg)


# ---- NetBox -----------------------------------------------------------------------------

def validator(name):
    """A validator for the library's schema `name`, its $refs resolved from the files."""
    import jsonschema
    sdir = os.path.join(HERE, "data", "netbox", "schema")
    store = {}
    for f in os.listdir(sdir):
        if f.endswith(".json"):
            with open(os.path.join(sdir, f)) as fh:
                s = json.load(fh)
            store[s["$id"]] = s
    with open(os.path.join(sdir, name)) as fh:
        schema = json.load(fh)
    cls = jsonschema.Draft202012Validator
    try:
        from referencing import Registry, Resource
        reg = Registry().with_resources((k, Resource.from_contents(v)) for k, v in store.items())
        return cls(schema, registry=reg)
    except ImportError:
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        return cls(schema, resolver=resolver)


def lib_slug(s, part=False):
    """The library's slug rule (tests/device_types.py of netbox-community/devicetype-library)."""
    s = s.casefold().replace(" ", "-")
    if not part:
        s = s.replace("sfp+", "sfpp").replace("poe+", "poep")
    s = s.replace("-+", "-plus").replace("+", "-plus-").replace("_", "-").replace("&", "-and-")
    s = s.replace("!", "").replace("/", "-").replace(",", "").replace("'", "").replace("*", "-")
    return s[:-1] if s.endswith("-") else s


def check_type(path, data, device):
    rel = os.path.relpath(path)
    text = open(path).read()
    if not text.startswith("---\n"):
        bad(f"{rel}: does not start with a document start (---)")
    if not text.endswith("\n"):
        bad(f"{rel}: does not end with a new line")
    v = validator("devicetype.json" if device else "moduletype.json")
    for e in sorted(v.iter_errors(data), key=lambda e: list(e.path)):
        bad(f"{rel}: schema: {'/'.join(map(str, e.path))}: {e.message}")
    man, model, part = data.get("manufacturer", ""), data.get("model", ""), data.get("part_number", "")
    if os.path.basename(os.path.dirname(path)) != man:
        bad(f"{rel}: not in the folder of its manufacturer {man}")
    stem = os.path.basename(path).rsplit(".", 1)[0].casefold()
    if stem not in (lib_slug(model), lib_slug(part, True), part.casefold()):
        bad(f"{rel}: file name is neither the model {lib_slug(model)!r} nor the part number {part!r}")
    if device:
        slug = data.get("slug", "")
        if not slug.startswith(lib_slug(man, True)):
            bad(f"{rel}: slug {slug!r} does not start with the manufacturer {lib_slug(man, True)!r}")
        if not (slug.endswith(lib_slug(model)) or (part and slug.endswith(lib_slug(part, True)))):
            bad(f"{rel}: slug {slug!r} does not end with the model {lib_slug(model)!r}")
        if not (data.get("power-ports") or data.get("module-bays") or data.get("is_powered") is False):
            bad(f"{rel}: no power source (power-ports, module bays or is_powered: false)")
    for kind in ("console-ports", "power-ports", "interfaces", "module-bays", "front-ports", "rear-ports"):
        names = [c.get("name") for c in data.get(kind, [])]
        if len(names) != len(set(names)):
            bad(f"{rel}: duplicated names in {kind}")


def read_csv(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


TIERS = {"GPU Server": 0, "NVLink Switch": 0, "Leaf Switch": 1, "Spine Switch": 2, "Core Switch": 3}


def netbox(folder, report_path):
    report = json.load(open(report_path))
    lib = os.path.join(HERE, "data", "netbox", "library")
    manifest = os.path.join(folder, "ncfabric-export.txt")
    owned = [l.strip() for l in open(manifest) if l.strip() and not l.startswith("#")]
    for root, _, files in os.walk(folder):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), folder)
            if f.endswith("~") or ".tmp-" in f:
                bad(f"{rel}: a backup or temporary file in the import folder")
            elif rel != "ncfabric-export.txt" and rel not in owned:
                bad(f"{rel}: not in the export's manifest")
    types, modtypes = {}, {}
    for sub, store, device in (("device-types", types, True), ("module-types", modtypes, False)):
        for root, _, files in os.walk(os.path.join(folder, sub)):
            for f in files:
                p = os.path.join(root, f)
                data = yaml.safe_load(open(p))
                check_type(p, data, device)
                store[(data["manufacturer"], data["model"])] = data
    for line in open(os.path.join(folder, "library-types.txt")):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        p = os.path.join(lib, line)
        if not os.path.exists(p):
            bad(f"library-types.txt: {line} is not among the library files the tests carry")
            continue
        data = yaml.safe_load(open(p))
        (types if line.startswith("device-types/") else modtypes)[(data["manufacturer"], data["model"])] = data
    sites = {r["name"] for r in read_csv(os.path.join(folder, "sites.csv"))}
    roles = {r["name"] for r in read_csv(os.path.join(folder, "device-roles.csv"))}
    racks = {r["name"]: r for r in read_csv(os.path.join(folder, "racks.csv"))}
    devices = {r["name"]: r for r in read_csv(os.path.join(folder, "devices.csv"))}
    manufacturers = {r["name"] for r in read_csv(os.path.join(folder, "manufacturers.csv"))}
    manufacturers |= {k[0] for k in types} | {k[0] for k in modtypes}
    ifaces, occupied, itype = {}, {}, {}
    for name, r in devices.items():
        t = types.get((r["manufacturer"], r["device_type"]))
        if r["manufacturer"] not in manufacturers:
            bad(f"devices.csv: {name}: manufacturer {r['manufacturer']} is neither in manufacturers.csv nor in a type")
        if t is None:
            bad(f"devices.csv: {name}: no device type {r['manufacturer']} {r['device_type']}")
            continue
        if r["site"] not in sites or r["role"] not in roles:
            bad(f"devices.csv: {name}: site or role not defined")
        ifaces[name] = {i["name"] for i in t.get("interfaces", [])}
        for i in t.get("interfaces", []):
            itype[(name, i["name"])] = i.get("type", "")
        rack = racks.get(r["rack"])
        if rack is None:
            bad(f"devices.csv: {name}: rack {r['rack']!r} not in racks.csv")
            continue
        lo, hi = int(r["position"]), int(r["position"]) + int(t.get("u_height", 1)) - 1
        if lo < 1 or hi > int(rack["u_height"]):
            bad(f"devices.csv: {name}: U{lo}-{hi} outside rack {r['rack']} of {rack['u_height']}U")
        for u in range(lo, hi + 1):
            if (r["rack"], u) in occupied:
                bad(f"devices.csv: {name} and {occupied[(r['rack'], u)]} share U{u} of {r['rack']}")
            occupied[(r["rack"], u)] = name
        t["_bays"] = {b["name"]: b["position"] for b in t.get("module-bays", [])}
    for m in read_csv(os.path.join(folder, "modules.csv")):
        dev = devices.get(m["device"])
        mt = [v for k, v in modtypes.items() if k[1] == m["module_type"]]
        if dev is None or not mt:
            bad(f"modules.csv: {m['device']} {m['module_type']}: no such device or module type")
            continue
        t = types[(dev["manufacturer"], dev["device_type"])]
        pos = t["_bays"].get(m["module_bay"])
        if pos is None:
            bad(f"modules.csv: {m['device']} has no module bay {m['module_bay']!r}")
            continue
        for i in mt[0].get("interfaces", []):
            ifaces[m["device"]].add(i["name"].replace("{module}", pos))
            itype[(m["device"], i["name"].replace("{module}", pos))] = i.get("type", "")
    for i in read_csv(os.path.join(folder, "interfaces.csv")):
        if i["device"] not in ifaces:
            bad(f"interfaces.csv: no device {i['device']}")
            continue
        if i["name"] in ifaces[i["device"]]:
            bad(f"interfaces.csv: {i['device']} {i['name']} already exists")
        # NetBox's Interface.clean(): only virtual interfaces may have a parent, and the
        # parent must exist on the same device.
        if i.get("parent"):
            if i["type"] not in VIRTUAL_IFACES:
                bad(f"interfaces.csv: {i['device']} {i['name']}: a {i['type']} interface with parent {i['parent']} "
                    "(NetBox: only virtual interfaces may be assigned to a parent interface)")
            if i["parent"] not in ifaces[i["device"]]:
                bad(f"interfaces.csv: {i['device']} {i['name']}: no parent {i['parent']}")
        ifaces[i["device"]].add(i["name"])
        itype[(i["device"], i["name"])] = i["type"]
    cables = read_csv(os.path.join(folder, "cables.csv"))
    used, down, up, parent = set(), {}, {}, {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for c in cables:
        for side in ("a", "b"):
            dev, name = c[f"side_{side}_device"], c[f"side_{side}_name"]
            if dev not in ifaces or name not in ifaces[dev]:
                bad(f"cables.csv: {dev} {name}: no such interface")
            if (dev, name) in used:
                bad(f"cables.csv: {dev} {name} is used twice")
            if itype.get((dev, name), "") in VIRTUAL_IFACES or itype.get((dev, name), "").startswith("ieee802.11"):
                bad(f"cables.csv: {dev} {name} is a {itype[(dev, name)]} interface (NetBox: virtual and wireless "
                    "interfaces cannot be connected)")
            used.add((dev, name))
        if not (float(c["length"]) > 0 and c["length_unit"] == "m"):
            bad(f"cables.csv: {c['label']}: no length")
        if c["type"] not in ("dac-passive", "dac-active", "aoc", "mmf-om4", "smf-os2"):
            bad(f"cables.csv: {c['label']}: cable type {c['type']}")
        # A switch's port is down when the far end is below it (a server, a lower tier), up
        # when above it or of its own tier (peer links count with the uplinks).
        ta, tb = (TIERS.get(devices.get(c[f"side_{x}_device"], {}).get("role"), 0) for x in ("a", "b"))
        for dev, mine, far in ((c["side_a_device"], ta, tb), (c["side_b_device"], tb, ta)):
            if mine > 0:
                side = down if far < mine else up
                side[dev] = side.get(dev, 0) + 1
        parent[find(c["side_a_device"])] = find(c["side_b_device"])
    inv = report["inventory"]
    if len(cables) != inv["links"]:
        bad(f"cables.csv: {len(cables)} cables, the report has {inv['links']} links")
    for g in inv["switch_groups"]:
        members = [n for n in devices if re.fullmatch(re.escape(g["name"]) + r"-\d+", n)]
        if len(members) != g["count"]:
            bad(f"switch group {g['name']}: {len(members)} devices, {g['count']} in the report")
        if members and max(down.get(m, 0) for m in members) != g["ports_down"]:
            bad(f"switch group {g['name']}: at most {max(down.get(m, 0) for m in members)} down ports, the report says {g['ports_down']}")
        if members and max(up.get(m, 0) for m in members) != g["ports_up"]:
            bad(f"switch group {g['name']}: at most {max(up.get(m, 0) for m in members)} up ports, the report says {g['ports_up']}")
    components = {find(x) for x in list(parent)}
    if len(components) > 1:
        bad(f"cables.csv: the cabling falls into {len(components)} separate parts")


# ---- Graphviz ----------------------------------------------------------------------------

def dot(graph_json, design_path):
    g = json.load(open(graph_json))
    d = yaml.safe_load(open(design_path))
    names = {o["_gvid"]: o["name"] for o in g.get("objects", []) if "nodes" not in o}

    def group(node):
        if node.startswith("group:"):
            return node[6:]
        return re.sub(r"-\d+$", "", node)

    edges = {(group(names[e["tail"]]), group(names[e["head"]])) for e in g.get("edges", [])}
    for b in d.get("bundles", []):
        if (b["from"], b["to"]) not in edges and (b["to"], b["from"]) not in edges:
            bad(f"{graph_json}: no edge for the bundle {b['from']} -> {b['to']}")
    for s in d.get("switches", []) + d.get("servers", []):
        bundled = any(s["name"] in (b["from"], b["to"]) for b in d.get("bundles", []))
        if bundled and not any(s["name"] in e for e in edges):
            bad(f"{graph_json}: group {s['name']} has bundles but no edge")


# ---- ASTRA-sim ---------------------------------------------------------------------------

IMPLS = re.compile(r"^(ring|oneRing|doubleBinaryTree|halvingDoubling|oneHalvingDoubling|direct\d*|oneDirect\d*)$")


def astra(prefix, report_path):
    report = json.load(open(report_path))
    net = yaml.safe_load(open(prefix + ".network.yml"))
    sysj = json.load(open(prefix + ".system.json"))
    if set(net) != {"topology", "npus_count", "bandwidth", "latency"}:
        bad(f"network: keys {sorted(net)}")
    n = len(net.get("topology", []))
    for k in ("npus_count", "bandwidth", "latency"):
        if len(net.get(k, [])) != n:
            bad(f"network: {k} has {len(net.get(k, []))} entries for {n} dimensions")
    for i in range(n):
        if net["topology"][i] not in ("Ring", "FullyConnected", "Switch"):
            bad(f"network: topology {net['topology'][i]}")
        if not (isinstance(net["npus_count"][i], int) and net["npus_count"][i] > 1):
            bad(f"network: npus_count {net['npus_count'][i]!r} is not an integer above 1")
        if not net["bandwidth"][i] > 0 or net["latency"][i] < 0:
            bad(f"network: dimension {i}: bandwidth or latency out of range")
    node = report["node"]
    total = 1
    for x in net["npus_count"]:
        total *= x
    if total != node["gpus"] * node["nodes"]:
        bad(f"network: {total} NPUs, the report's job has {node['gpus'] * node['nodes']} GPUs")
    gib = 1e9 / 2 ** 30
    if node["gpus"] > 1 and node.get("nvlink_GBps"):
        if abs(net["bandwidth"][0] - node["nvlink_GBps"] * gib) > 1e-5:
            bad(f"network: dimension 0 is {net['bandwidth'][0]} GiB/s, the report's NVLink {node['nvlink_GBps']} GB/s is {node['nvlink_GBps'] * gib:.6f}")
        if net["topology"][0] == "Switch" and abs(net["latency"][0] - 1700) > 1e-9:
            bad(f"network: dimension 0 latency {net['latency'][0]} ns, want 3.4 us over 2 hops")
    if node["nodes"] > 1 and all((v or 0) <= 1 for k, v in report["oversubscription"].items() if k != "gpus_per_uplink"):
        want = node["ceiling_GBps"] / node["gpus"] * gib
        if abs(net["bandwidth"][-1] - want) > 1e-5:
            bad(f"network: the fabric dimension is {net['bandwidth'][-1]} GiB/s, want {want:.6f} ({node['ceiling_GBps']} GB/s over {node['gpus']} GPUs)")
        if abs(net["latency"][-1] - 7000) > 1e-9:
            bad(f"network: fabric latency {net['latency'][-1]} ns, want 14 us over 2 hops")
    for k in ("all-reduce-implementation", "all-gather-implementation", "reduce-scatter-implementation",
              "all-to-all-implementation"):
        v = sysj.get(k)
        if not isinstance(v, list) or len(v) != n or not all(isinstance(x, str) and IMPLS.match(x) for x in v):
            bad(f"system: {k} = {v!r}")
    if sysj.get("scheduling-policy") not in ("LIFO", "FIFO", "EXPLICIT"):
        bad("system: scheduling-policy")
    if sysj.get("collective-optimization") not in ("baseline", "localBWAware"):
        bad("system: collective-optimization")
    for k in ("endpoint-delay", "active-chunks-per-dimension", "preferred-dataset-splits", "local-mem-bw"):
        if not isinstance(sysj.get(k), (int, float)) or sysj[k] <= 0:
            bad(f"system: {k} = {sysj.get(k)!r}")


# ---- BOM ---------------------------------------------------------------------------------

def bom(csv_path, yaml_path, json_path):
    rows = read_csv(csv_path)
    lines = [r for r in rows if r["category"] not in ("total", "note")]
    total = [r for r in rows if r["category"] == "total"]
    if len(total) != 1 or not [r for r in rows if r["category"] == "note" and "leaves out" in r["notes"]]:
        bad(f"{csv_path}: no total line or no note of what it leaves out")
    else:
        for col in ("total_power_typ_W", "total_power_max_W"):
            s = sum(float(r[col] or 0) for r in lines if r["supply"] == "buy")
            if abs(s - float(total[0][col] or 0)) > 1e-6:
                bad(f"{csv_path}: {col}: the lines add up to {s}, the total says {total[0][col]}")
        for r in lines:
            for kind in ("typ", "max"):
                u, t = r[f"unit_power_{kind}_W"], r[f"total_power_{kind}_W"]
                if r["supply"] == "buy" and u and abs(float(u) * int(r["quantity"]) - float(t)) > 1e-6:
                    bad(f"{csv_path}: {r['model']}: {kind} total is not quantity x unit")
        for r in lines:
            want = "included" if r["supply"] == "included" else None
            if r["part_number_status"] not in ("stated", "family", "unknown", "included"):
                bad(f"{csv_path}: {r['model']}: part_number_status {r['part_number_status']!r}")
            elif want and r["part_number_status"] != want:
                bad(f"{csv_path}: {r['model']}: an included line with part_number_status {r['part_number_status']}")
            elif (r["part_number_status"] == "unknown") != (r["part_number"] == "" and r["supply"] == "buy"):
                bad(f"{csv_path}: {r['model']}: part number {r['part_number']!r} but status {r['part_number_status']}")
    y = yaml.safe_load(open(yaml_path))
    j = json.load(open(json_path))
    if y != j:
        bad("bom-yaml and bom-json differ")
    for p in j["parts"]:
        for k in ("unit_power_typ_W", "unit_power_max_W", "total_power_typ_W", "total_power_max_W"):
            if p[k] is not None and not p[k] > 0:
                bad(f"bom-json: {p['model']}: {k} = {p[k]!r} (unknown power is null, not 0)")
    for cat, key in (("server", "servers"), ("switch", "switches"), ("transceiver", "transceivers"),
                     ("cable", "cables"), ("fibre", "fibres"), ("nic", "nics")):
        s = sum(int(p["quantity"]) for p in j["parts"] if p["category"] == cat and p["supply"] == "buy")
        if s != j["summary"][key]:
            bad(f"bom-json: summary {key} {j['summary'][key]}, its lines add up to {s}")
    csv_q = sum(int(r["quantity"]) for r in lines)
    json_q = sum(int(p["quantity"]) for p in j["parts"])
    if csv_q != json_q:
        bad(f"bom-csv lists {csv_q} items, bom-json {json_q}")


if __name__ == "__main__":
    cmds = {"netbox": (netbox, 2), "dot": (dot, 2), "astra": (astra, 2), "bom": (bom, 3)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or len(sys.argv) != 2 + cmds[sys.argv[1]][1]:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    cmds[sys.argv[1]][0](*sys.argv[2:])
    for p in problems[:40]:
        print(p)
    if len(problems) > 40:
        print(f"... and {len(problems) - 40} more")
    sys.exit(1 if problems else 0)
