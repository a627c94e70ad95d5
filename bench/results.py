#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Collect cp_bench records from kernel logs: JSON, ratio table, plot.

  results.py collect [-o results.json] LOG...
      Guest serial logs of the VM harness, named <series>-<setup>.log
      (setup plain or iommu), or any kernel log (dmesg; - for stdin)
      with --series NAME [--iommu].  Logs of several boots give one
      record per (kernel, setup, allocator, N), each time the median.
      The records of cp_bench_base.ko (make bench BENCH_BASE=) are
      chainpool_bulk@base.
  results.py table [--n N] [--markdown] results.json
      Times per phase against chainpool's, for one N (default 373959, or
      the largest measured), then total time against N.
  results.py plot [--out scaling.png] results.json
      Log-log create and destroy time against N, plain and with an IOMMU,
      one line per allocator and kernel (gnuplot, png terminal).
  results.py check --n "N ..." [--allocators A,B,...] results.json
      Every (kernel, setup, allocator, n) has a record with positive numbers
      and coherent allocations that fit the geometry.  Asserts no times.

Python 3 standard library only.
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

ALLOCATORS = ["dma_pool", "page_carve", "chainpool", "chainpool_1page",
              "chainpool_bulk", "memset_floor"]
HEADLINE_N = 373959
PAGE_SIZE = 4096

RECORD_RE = re.compile(r"cp_bench: record (.*)$")
KERNEL_RE = re.compile(r"cp_bench: kernel (\S+),")
BEGIN_RE = re.compile(r"VMTEST: BEGIN kernel=(\S+) setup=(\S+)")
STEP_RE = re.compile(r"VMTEST: step \d+: insmod (\S+)")
INT_FIELDS = ("n", "size", "align", "create_ns", "destroy_ns",
              "coherent_allocs", "metadata_bytes", "fill_ns")


def parse_log(path, series=None, iommu=None):
    """Records of one kernel log, in the order they appear."""
    base = os.path.basename(path)
    if series is None:
        m = re.match(r"(.+)-(plain|iommu)\.log$", base)
        if not m:
            sys.exit(f"{path}: name is not <series>-<setup>.log; "
                     "give --series")
        series, iommu = m.group(1), m.group(2) == "iommu"
    kernel = None
    suffix = ""
    records = []
    f = sys.stdin if path == "-" else open(path, errors="replace")
    with f:
        for line in f:
            line = line.replace("\r", "").rstrip("\n")
            m = BEGIN_RE.search(line)
            if m:
                kernel = m.group(1)
                continue
            m = KERNEL_RE.search(line)
            if m:
                kernel = m.group(1)
                continue
            m = STEP_RE.search(line)
            if m:
                # make bench BENCH_BASE=: the base revision's module
                suffix = "@base" if m.group(1) == "cp_bench_base" else ""
                continue
            m = RECORD_RE.search(line)
            if not m:
                continue
            fields = dict(kv.split("=", 1) for kv in m.group(1).split()
                          if "=" in kv)
            rec = {"series": series, "kernel": kernel, "iommu": bool(iommu),
                   "allocator": fields.pop("allocator") + suffix}
            for k in INT_FIELDS:
                if k in fields:
                    rec[k] = int(fields[k])
            if rec["allocator"] == "memset_floor":
                for k in ("destroy_ns", "coherent_allocs", "metadata_bytes",
                          "fill_ns"):
                    rec.pop(k, None)
            elif not rec["allocator"].startswith("chainpool"):
                rec.pop("fill_ns", None)
            records.append(rec)
    return records


def key(r):
    return (r["series"], r["iommu"], r["allocator"], r["n"])


def merge_boots(records):
    """One record per key, each time the median (low) over the boots."""
    by = {}
    for r in records:
        by.setdefault(key(r), []).append(r)
    out = []
    for rs in by.values():
        r = dict(rs[0])
        for f in ("create_ns", "destroy_ns", "fill_ns"):
            if f in r:
                r[f] = statistics.median_low(x[f] for x in rs)
        out.append(r)
    return out


def load(path):
    with open(path) as f:
        return json.load(f)["records"]


def series_order(s):
    """6.1 < 6.12 < sid < anything else."""
    try:
        return (0, [int(x) for x in s.split(".")], s)
    except ValueError:
        return (1 if s == "sid" else 2, [], s)


def groups(records):
    """(series, kernel, iommu) in a stable order."""
    seen = {(r["series"], r["kernel"], r["iommu"]) for r in records}
    return sorted(seen, key=lambda g: (series_order(g[0]), g[2]))


def fmt_ms(ns):
    if ns is None:
        return "-"
    ms = ns / 1e6
    if ms >= 100:
        return f"{ms:.0f}"
    if ms >= 10:
        return f"{ms:.1f}"
    return f"{ms:.2f}"


def fmt_x(num, den):
    if num is None or not den:
        return "-"
    x = num / den
    if x >= 100:
        return f"{x:.0f}x"
    if x >= 10:
        return f"{x:.1f}x"
    return f"{x:.2f}x"


def goals(out, by, n, emit):
    """chainpool_bulk against the others, and what its create is made of.

    Ratios: other allocator's time / chainpool_bulk's, except the floor
    columns (chainpool_bulk's create, and the part of it spent getting
    the slabs, / memset_floor's create).  "slabs" is chainpool's fill_ns:
    the dma_alloc_coherent() calls, which zero the memory they return;
    "carve" is the rest of the create: handing the blocks out.
    """
    rows = []
    for series, kernel, iommu in groups(list(by.values())):
        get = lambda a: by.get((series, iommu, a, n))
        bulk = get("chainpool_bulk")
        if not bulk or bulk["kernel"] != kernel:
            continue
        pc, dp, fl = get("page_carve"), get("dma_pool"), get("memset_floor")
        c, d = bulk["create_ns"], bulk.get("destroy_ns")
        slabs = bulk.get("fill_ns")
        carve = None if slabs is None else c - slabs
        floor = fl and fl["create_ns"]
        rows.append([series, "yes" if iommu else "no",
                     fmt_x(pc and pc["create_ns"], c),
                     fmt_x(pc and pc.get("destroy_ns"), d),
                     fmt_x(dp and dp["create_ns"], c),
                     fmt_x(dp and dp.get("destroy_ns"), d),
                     fmt_x(c, floor), fmt_ms(slabs), fmt_ms(carve),
                     fmt_x(slabs, floor),
                     str(bulk.get("coherent_allocs", "-"))])
    if not rows:
        return
    out.append("")
    out.append("chainpool_bulk: other / bulk for page_carve and dma_pool; "
               "bulk's create, and its slabs part, / memset_floor; "
               "create = slabs + carve, in ms")
    out.append("")
    head = ["kernel", "iommu", "page_carve create", "destroy",
            "dma_pool create", "destroy", "create / floor", "slabs",
            "carve", "slabs / floor", "coherent allocs"]
    widths = [6, 5, 17, 8, 15, 8, 14, 8, 8, 13, 15]
    emit(head, widths, header=True)
    for row in rows:
        emit(row, widths)


def table(records, n=None, markdown=False):
    """The ratio table for one N, then total time against N."""
    ns = sorted({r["n"] for r in records})
    if not ns:
        return "no records\n"
    if n is None:
        n = HEADLINE_N if HEADLINE_N in ns else ns[-1]
    by = {key(r): r for r in records}
    out = []

    def emit(cells, widths, header=False):
        if markdown:
            out.append("| " + " | ".join(cells) + " |")
            if header:
                out.append("|" + "|".join(
                    " --- " if i < 3 else " ---: " for i in
                    range(len(cells))) + "|")
        else:
            out.append("  ".join(c.ljust(w) if i < 3 else c.rjust(w)
                                 for i, (c, w) in
                                 enumerate(zip(cells, widths))))

    size = next((r["size"] for r in records if r["n"] == n), "?")
    out.append(f"{n} blocks of {size} B; times in ms, x = time / chainpool's "
               "time in the same guest")
    out.append("")
    head = ["kernel", "iommu", "allocator", "create", "x", "destroy", "x",
            "coherent allocs", "metadata KiB"]
    widths = [30, 5, 15, 9, 7, 9, 7, 15, 12]
    emit(head, widths, header=True)
    for series, kernel, iommu in groups(records):
        base = by.get((series, iommu, "chainpool", n))
        for a in ALLOCATORS:
            r = by.get((series, iommu, a, n))
            if not r or r["kernel"] != kernel:
                continue
            c, d = r.get("create_ns"), r.get("destroy_ns")
            meta = r.get("metadata_bytes")
            emit([f"{series} ({kernel})", "yes" if iommu else "no", a,
                  fmt_ms(c), fmt_x(c, base and base["create_ns"]),
                  fmt_ms(d), fmt_x(d, base and base.get("destroy_ns")),
                  str(r.get("coherent_allocs", "-")),
                  "-" if meta is None else f"{meta / 1024:.1f}"], widths)
    goals(out, by, n, emit)
    if len(ns) > 1:
        out.append("")
        out.append("Create + destroy (ms) against N; the floor: create only")
        out.append("")
        head = ["kernel", "iommu", "allocator"] + [str(x) for x in ns]
        widths = [6, 5, 15] + [10] * len(ns)
        emit(head, widths, header=True)
        for series, kernel, iommu in groups(records):
            for a in ALLOCATORS:
                cells = []
                for x in ns:
                    r = by.get((series, iommu, a, x))
                    cells.append("-" if not r else
                                 fmt_ms(r["create_ns"] +
                                        r.get("destroy_ns", 0)))
                if all(c == "-" for c in cells):
                    continue
                emit([series, "yes" if iommu else "no", a] + cells, widths)
    return "\n".join(out) + "\n"


COLORS = {"dma_pool": "#d62728", "page_carve": "#1f77b4",
          "chainpool": "#2ca02c", "chainpool_1page": "#9467bd",
          "chainpool_bulk": "#ff7f0e",
          "memset_floor": "#7f7f7f"}


def plot(records, out):
    """Draw the 2x2 log-log plot with gnuplot; returns its exit status."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        sys.exit("gnuplot missing (Debian package gnuplot-nox)")
    ddir = os.path.join(os.path.dirname(os.path.abspath(out)), "plot-data")
    os.makedirs(ddir, exist_ok=True)
    serieses = sorted({r["series"] for r in records}, key=series_order)
    kernels = {s: next(r["kernel"] for r in records if r["series"] == s)
               for s in serieses}
    dash = {s: i + 1 for i, s in enumerate(serieses)}
    files = {}
    for series in serieses:
        for iommu in (False, True):
            for a in ALLOCATORS:
                rs = sorted((r for r in records if r["series"] == series and
                             r["iommu"] == iommu and r["allocator"] == a),
                            key=lambda r: r["n"])
                if not rs:
                    continue
                p = os.path.join(ddir, f"{series}-"
                                 f"{'iommu' if iommu else 'plain'}-{a}.dat")
                with open(p, "w") as f:
                    for r in rs:
                        d = r.get("destroy_ns")
                        f.write(f"{r['n']} {r['create_ns'] / 1e6:.6g} "
                                f"{'NaN' if d is None else f'{d / 1e6:.6g}'}\n")
                files[(series, iommu, a)] = p
    ns = sorted({r["n"] for r in records})
    setups = sorted({r["iommu"] for r in records})
    script = [
        f"set terminal pngcairo size 1400,{100 + 475 * len(setups)} "
        "font 'sans,10'",
        f"set output '{out}'",
        "set logscale xy",
        "set grid xtics ytics mxtics mytics lc rgb '#dddddd'",
        "set format x '10^{%L}'",
        "set format y '10^{%L}'",
        "set xlabel 'N (blocks)'",
        "set ylabel 'time (ms)'",
        f"set xrange [{ns[0] / 1.5}:{ns[-1] * 1.5}]",
        "set key top left font ',9' spacing 0.9",
        f"set multiplot layout {len(setups)},2 title 'cp\\_bench in QEMU "
        "TCG guests: "
        f"N blocks of {'/'.join(str(x) for x in sorted({r['size'] for r in records}))} B "
        "(ratios matter, not absolute times)'",
    ]
    for iommu in setups:
        for col, (label, using) in enumerate(
                (("create + N allocs", "1:2"),
                 ("N frees + destroy", "1:3"))):
            title = f"{label}, {'emulated IOMMU' if iommu else 'no IOMMU'}"
            script.append(f"set title '{title}'")
            parts = []
            for a in ALLOCATORS:
                for series in serieses:
                    p = files.get((series, iommu, a))
                    if not p or (col == 1 and a == "memset_floor"):
                        continue
                    parts.append(f"'{p}' using {using} with linespoints "
                                 f"lc rgb '{COLORS[a]}' dt {dash[series]} "
                                 "lw 1.5 pt 7 ps 0.5 notitle")
            # legend: colours for allocators, dash types for kernels
            if iommu == setups[0] and col == 0:
                for a in ALLOCATORS:
                    parts.append(f"NaN lc rgb '{COLORS[a]}' lw 2 "
                                 f"title '{a.replace('_', chr(92) + '_')}'")
                for s in serieses:
                    t = f"{s} ({kernels[s]})".replace("_", chr(92) + "_")
                    parts.append(f"NaN lc rgb 'black' dt {dash[s]} lw 1.5 "
                                 f"title '{t}'")
            script.append("plot " + ", \\\n     ".join(parts))
    script.append("unset multiplot")
    sp = os.path.join(ddir, "scaling.gp")
    with open(sp, "w") as f:
        f.write("\n".join(script) + "\n")
    return subprocess.call([gnuplot, sp])


def check(records, want_n, allocators):
    """Problems with the records; an empty list when all is well."""
    problems = []
    by = {key(r): r for r in records}
    setups = sorted({(r["series"], r["iommu"]) for r in records})
    if not setups:
        return ["no records at all"]
    for series, iommu in setups:
        for a in allocators:
            for n in want_n:
                r = by.get((series, iommu, a, n))
                where = f"{series}/{'iommu' if iommu else 'plain'} {a} n={n}"
                if not r:
                    problems.append(f"{where}: no record")
                    continue
                need = ["create_ns"] if a == "memset_floor" else [
                    "create_ns", "destroy_ns", "coherent_allocs",
                    "metadata_bytes"]
                for k in need:
                    if not isinstance(r.get(k), int) or r[k] <= 0:
                        problems.append(f"{where}: {k} is {r.get(k)!r}")
                if not r.get("kernel"):
                    problems.append(f"{where}: no kernel release")
                if a == "memset_floor" or "coherent_allocs" not in r:
                    continue
                ca, size = r["coherent_allocs"], r["size"]
                stride = -(-size // r["align"]) * r["align"]
                per_page = PAGE_SIZE // stride
                pages = -(-n // per_page)
                if a == "page_carve":
                    # one page each, every page full but the last
                    ok = ca == pages
                    want = f"= ceil({n} / {per_page}) = {pages}"
                elif a == "chainpool_1page":
                    # one page each; the last growth takes up to 128 KiB
                    ok = pages <= ca < pages + 32
                    want = f"in [{pages}, {pages + 31}]"
                elif a == "dma_pool":
                    # whole pages, at least as many as perfect packing and
                    # at most one page per block
                    ok = pages <= ca <= n
                    want = f"in [{pages}, {n}]"
                else:
                    # slabs of up to 128 KiB: no more than pages, at least
                    # the 128 KiB slabs the blocks need
                    slab = 128 << 10
                    least = -(-n // (slab // stride))
                    ok = least <= ca <= pages
                    want = f"in [{least}, {pages}]"
                if not ok:
                    problems.append(f"{where}: coherent_allocs {ca}, "
                                    f"want {want}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("-o", "--out", default="-")
    c.add_argument("--series")
    c.add_argument("--iommu", action="store_true")
    c.add_argument("logs", nargs="+")
    t = sub.add_parser("table")
    t.add_argument("--n", type=int)
    t.add_argument("--markdown", action="store_true")
    t.add_argument("json")
    p = sub.add_parser("plot")
    p.add_argument("--out", default="scaling.png")
    p.add_argument("json")
    k = sub.add_parser("check")
    k.add_argument("--n", required=True,
                   help="block counts, separated by spaces or commas")
    k.add_argument("--allocators", default=",".join(ALLOCATORS))
    k.add_argument("json")
    args = ap.parse_args()

    if args.cmd == "collect":
        records = []
        for log in args.logs:
            records += parse_log(log, args.series,
                                 args.iommu if args.series else None)
        records = merge_boots(records)
        text = json.dumps({"records": records}, indent=1) + "\n"
        if args.out == "-":
            sys.stdout.write(text)
        else:
            with open(args.out, "w") as f:
                f.write(text)
        print(f"{len(records)} records", file=sys.stderr)
        return 0 if records else 1
    records = load(args.json)
    if args.cmd == "table":
        sys.stdout.write(table(records, args.n, args.markdown))
        return 0
    if args.cmd == "plot":
        return plot(records, args.out)
    want_n = [int(x) for x in args.n.replace(",", " ").split()]
    problems = check(records, want_n, args.allocators.split(","))
    for prob in problems:
        print(f"check: {prob}", file=sys.stderr)
    print(f"check: {len(records)} records, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
