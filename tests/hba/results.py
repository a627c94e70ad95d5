#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The table of `make hbatest`'s timings, from build/hbatest/results.json.

    tests/hba/results.py table RESULTS.JSON [MAX_SGL_ENTRIES]

One row per kernel, IOMMU setup, HBA (the SAS3008, or the SAS2 chip of
the sas2308-timing rounds), driver and allocator at MAX_SGL_ENTRIES
(default 256): the median of each time over the runs, in ms, and x, the
ratio to our driver with chainpool on the same kernel, setup and HBA.  Times
come from TCG guests: compare the ratios, not the absolute figures.  Exits
1 on a file that is not hbatest's records.
"""

import json
import statistics
import sys

FIELDS = ("series", "kernel", "iommu", "driver", "allocator",
          "max_sgl_entries", "nr_chains", "attach_ns", "rmmod_ns",
          "shutdown_ns", "chain_alloc_ns", "chain_free_ns")
TIMES = ("attach_ns", "rmmod_ns", "shutdown_ns", "chain_alloc_ns",
         "chain_free_ns")
ORDER = {("ours", "chainpool"): 0, ("ours", "dma_pool"): 1,
         ("in_tree", "in_tree"): 2}


def load(path):
    with open(path) as f:
        records = json.load(f)["records"]
    for r in records:
        missing = [k for k in FIELDS if k not in r]
        if missing:
            raise ValueError(f"record without {', '.join(missing)}: {r}")
    return records


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt_ms(ns):
    if ns is None:
        return "-"
    ms = ns / 1e6
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.1f}" if ms >= 1 else f"{ms:.2f}"


def fmt_x(ns, base):
    if ns is None or not base:
        return "-"
    return f"{ns / base:.2f}x"


def table(records, n):
    groups = {}
    for r in records:
        if r["max_sgl_entries"] != n:
            continue
        key = (r["series"], r["kernel"], r["iommu"], r.get("hba", "sas3008"),
               r["driver"], r["allocator"])
        groups.setdefault(key, []).append(r)
    med = {k: {t: median([r[t] for r in rs]) for t in TIMES}
           for k, rs in groups.items()}
    out = ["| kernel | iommu | hba | driver | allocator | chains | runs "
           "| attach ms | x | rmmod ms | x | shutdown ms | x "
           "| chain pool create ms | chain pool free ms |",
           "| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: "
           "| ---: | ---: | ---: | ---: | ---: |"]
    for key in sorted(groups, key=lambda k: (k[0], k[2], k[3] != "sas3008", k[3],
                                             ORDER.get(k[4:], 9))):
        series, kernel, iommu, hba, driver, alloc = key
        rs = groups[key]
        m = med[key]
        base = med.get((series, kernel, iommu, hba, "ours", "chainpool"), {})
        chains = rs[0]["nr_chains"]
        runs = "/".join(str(sum(r[t] is not None for r in rs))
                        for t in ("attach_ns", "rmmod_ns", "shutdown_ns"))
        out.append(f"| {series} ({kernel}) | {'yes' if iommu else 'no'} | {hba} | {driver} "
                   f"| {alloc if driver == 'ours' else '-'} "
                   f"| {chains if chains is not None else '-'} | {runs} "
                   f"| {fmt_ms(m['attach_ns'])} | {fmt_x(m['attach_ns'], base.get('attach_ns'))} "
                   f"| {fmt_ms(m['rmmod_ns'])} | {fmt_x(m['rmmod_ns'], base.get('rmmod_ns'))} "
                   f"| {fmt_ms(m['shutdown_ns'])} | {fmt_x(m['shutdown_ns'], base.get('shutdown_ns'))} "
                   f"| {fmt_ms(m['chain_alloc_ns'])} | {fmt_ms(m['chain_free_ns'])} |")
    return "\n".join(out)


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[1] != "table":
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        records = load(sys.argv[2])
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"results.py: {sys.argv[2]}: {e}", file=sys.stderr)
        return 1
    n = int(sys.argv[3]) if len(sys.argv) == 4 else 256
    if not any(r["max_sgl_entries"] == n for r in records):
        print(f"results.py: no record at max_sgl_entries={n}", file=sys.stderr)
        return 1
    print(table(records, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
