#!/usr/bin/env python3
"""Writes the nccl-tests logs tests/data/nccl/nt-*.log, byte for byte as nccl-tests 2.19
prints them: the header of writeDeviceReport (version, "Collective test starting", the
nThread line, "Using devices" and one "#  Rank" line per rank), writeResultHeader's three
lines, one line per size with writeBenchmarkLinePreamble's "%12li  %12li  %8s  %6s  %6s" and
writeBenchmarkLineBody's "  %7s  %6s  %6s  %6g" (or "    N/A" without validation, -c 0),
numbers through getFloatStr, and writeResultFooter (src/util.cu of NVIDIA/nccl-tests).
Sizes, counts, redop and root follow each test's getCollByteCount and TimeTest; algbw and
busbw are computed as the tests do (baseBw and the bus factor) from a time that this script
models as latency + bytes / bandwidth, so the numbers are plausible, not measurements.
NCCL's own lines (NCCL_DEBUG=INFO, a WARN) are interleaved where NCCL prints them.

Run it from the repository: python3 tests/data/nccl/gen-logs.py"""

import os

HERE = os.path.dirname(os.path.abspath(__file__))


def float_str(v, width):
    for fmt in ("%*.2f", "%*.1f", "%*.0f"):
        s = fmt % (width, v)
        if len(s) <= width:
            return s
    return ("%*.1e" if width >= 7 else "%*.0e") % (width, v)


TESTS = {
    # name: (redop, root, count and printed size from the requested size, bus factor)
    "all_reduce": ("sum", -1, "whole", lambda n: 2.0 * (n - 1) / n),
    "all_gather": ("none", -1, "split", lambda n: (n - 1) / n),
    "reduce_scatter": ("sum", -1, "split", lambda n: (n - 1) / n),
    "alltoall": ("none", -1, "split", lambda n: (n - 1) / n),
    "sendrecv": ("sum", -1, "whole", lambda n: 1.0),
    "broadcast": ("none", 0, "whole", lambda n: 1.0),
}


def counts(kind, size, nranks):
    """(printed size, printed count) for float (4 bytes), as getCollByteCount does."""
    count = size // 4
    if kind == "whole":
        return count * 4, count
    base = (count // nranks) & ~(16 // 4 - 1)
    return base * nranks * 4, base


def rank_lines(hosts, per_host, pid0, gpu):
    lines, r = [], 0
    for h, host in enumerate(hosts):
        for d in range(per_host):
            pid = pid0 + (r if per_host == 1 or len(hosts) > 1 else 0)
            lines.append("#  Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s"
                         % (r, 0, pid, host, d, 0, 0x18 + 0x10 * d, 0, gpu))
            r += 1
    return lines


def info(host, pid, dev, text):
    return "%s:%d:%d [%d] NCCL INFO %s" % (host, pid, pid, dev, text)


def write(path, test, nthread, ngpus, hosts, per_host, minb, maxb, bw, lat, validate, noise, extra):
    redop, root, kind, factor = TESTS[test]
    n = len(hosts) * per_host
    prog = test + "_perf"
    out = []
    out.append("# nccl-tests version 2.19.6 nccl-headers=21903 nccl-library=21903")
    out.append("# Collective test starting: %s" % prog)
    out.append("# nThread %d nGpus %d minBytes %d maxBytes %d step: %d(%s) warmup iters: %d iters: %d agg iters: %d "
               "validation: %d graph: %d unalign: %d" % (nthread, ngpus, minb, maxb, 2, "factor", 5, 20, 1,
                                                         1 if validate else 0, 0, 0))
    out.append("#")
    out.extend(extra.get("before_devices", []))
    out.append("# Using devices")
    out.extend(rank_lines(hosts, per_host, 2187, "NVIDIA H100 80GB HBM3"))
    out.extend(extra.get("before_header", []))
    out.append("#")
    out.append("# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          "
               % ("", "", "", "", ""))
    out.append("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s"
               % ("size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw",
                  "busbw", "#wrong", 0, ""))
    out.append("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s"
               % ("(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)",
                  "", 0, ""))
    total, rows, k = 0.0, 0, 0
    size = minb
    while size <= maxb:
        psize, pcount = counts(kind, size, n)
        line = "%12d  %12d  %8s  %6s  %6s" % (psize, pcount, "float", redop, "%6i" % root)
        for inplace in (0, 1):
            # the time the tests measure: latency, then the wire at this bandwidth (GB/s)
            t = lat + psize / (bw * 1e3) * (1.0 + noise * ((k * 7 + inplace * 3) % 5) / 100.0)
            t *= 1.0 + 0.01 * inplace
            base = psize / 1.0e9 / (t * 1e-6)
            bus = base * factor(n)
            line += "  %7s  %6s  %6s" % (float_str(t, 7), float_str(base, 6), float_str(bus, 6))
            line += ("  %6g" % 0) if validate else "    N/A"
            if inplace == 0:
                total += bus
        out.append(line)
        rows += 1
        if k in extra.get("after_row", {}):
            out.extend(extra["after_row"][k])
        k += 1
        size *= 2
    out.append("# %-20s : %d %s" % ("Out of bounds values", 0, "OK"))
    out.append("# %-20s : %g %s" % ("Avg bus bandwidth", total / rows, ""))
    out.append("#")
    out.append("# Collective test concluded: %s" % prog)
    out.append("#")
    out.append("")
    with open(os.path.join(HERE, path), "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    one = ["node01"]
    two = ["node01", "node02"]
    init = [info("node01", 2187, 0, "Bootstrap : Using eth0:10.0.0.11<0>"),
            info("node01", 2187, 0, "cudaDriverVersion 12020"),
            "NCCL version 2.19.3+cuda12.2"]
    ring = [info("node01", 2187, d, "Channel 00/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read" % (d, d, (d + 1) % 8,
                                                                                          (d + 1) % 8))
            for d in range(4)]
    conn = [info("node01", 2187, 0, "Connected all rings"), info("node02", 2203, 3, "Connected all trees")]
    warn = ["node02:2203:2219 [3] NCCL WARN NET/IB : Got async event : port error"]
    # One process driving 8 GPUs (-g 8): all_reduce with NCCL_DEBUG=INFO interleaved.
    write("nt-all_reduce-g8.log", "all_reduce", 1, 8, one, 8, 8, 134217728, 480 / (2 * 7 / 8), 18.0, True, 1,
          {"before_devices": init[:2], "before_header": ring, "after_row": {0: ring[:1], 14: conn[:1]}})
    write("nt-all_gather-g8.log", "all_gather", 1, 8, one, 8, 8, 134217728, 360 / (7 / 8), 14.0, False, 1, {})
    write("nt-reduce_scatter-g8.log", "reduce_scatter", 1, 8, one, 8, 8, 134217728, 350 / (7 / 8), 15.0, True, 1,
          {"after_row": {3: [info("node01", 2187, 5, "Connected all rings")]}})
    write("nt-alltoall-g8.log", "alltoall", 1, 8, one, 8, 8, 134217728, 330 / (7 / 8), 22.0, False, 2, {})
    write("nt-sendrecv-g8.log", "sendrecv", 1, 8, one, 8, 8, 134217728, 370.0, 12.0, True, 1,
          {"before_devices": ["NCCL version 2.19.3+cuda12.2"]})
    write("nt-broadcast-g8.log", "broadcast", 1, 8, one, 8, 8, 134217728, 340.0, 16.0, True, 1, {})
    # mpirun -np 16, one GPU per process on two nodes: a Rank line per process, NCCL's
    # lines of several ranks between the results, and a WARN.
    write("nt-all_reduce-np16.log", "all_reduce", 1, 1, two, 8, 1024, 1073741824, 360 / (2 * 15 / 16), 40.0, True, 2,
          {"before_header": init + conn, "after_row": {2: conn[1:], 9: warn}})
    write("nt-all_gather-np16.log", "all_gather", 1, 1, two, 8, 1024, 1073741824, 380 / (15 / 16), 30.0, False, 1,
          {"after_row": {5: [info("node02", 2207, 7, "Connected all rings")]}})
    write("nt-reduce_scatter-np16.log", "reduce_scatter", 1, 1, two, 8, 1024, 1073741824, 370 / (15 / 16), 32.0,
          True, 1, {})
    write("nt-alltoall-np16.log", "alltoall", 1, 1, two, 8, 1024, 1073741824, 45 / (15 / 16), 60.0, True, 2, {})
    write("nt-sendrecv-np16.log", "sendrecv", 1, 1, two, 8, 1024, 1073741824, 48.0, 25.0, False, 1,
          {"before_header": init})
    write("nt-broadcast-np16.log", "broadcast", 1, 1, two, 8, 1024, 1073741824, 45.0, 30.0, True, 1, {})


if __name__ == "__main__":
    main()
