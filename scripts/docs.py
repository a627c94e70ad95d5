#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The figures of docs/: stamp the results files the runs write, and render
the tables from the committed ones.

  docs.py stamp --kind KIND [--guests TEXT] [--run TEXT] [--reduced]
                [--seconds S] RESULTS.json
      Add a "stamp" to a results file a run just wrote: the package
      version (packaging/version.sh), the kernels of its records, the date
      (UTC), the machine (CPU model, CPUs, memory), the guests, what was
      run and its wall seconds.  bench/run.sh (make bench),
      tests/hba/run.sh (make hbatest), bench/core (make bench-core),
      tests/reliability/run.sh (make reliability) and
      tests/debug-kernel.sh (make check-debug) call it.  KIND: bench,
      hbatest, bench-core, reliability, check-debug.  --reduced: make
      check's sample, not a measurement.
  docs.py import [NAME...]
      Copy build/KIND/results.json of each KIND (or those NAMEd), where a
      run left them, to docs/results/KIND.json, then render.  A reduced
      run is taken only when NAMEd.
  docs.py render [--check]
      Rewrite every block of README.md and docs/*.md that lies between
      "<!-- results:BLOCK -->" and "<!-- /results -->" from
      docs/results/.  --check writes nothing and exits 1 if a block is
      not what render would write.
  docs.py show BLOCK RESULTS.json
      Print one block rendered from RESULTS.json (the suites' check).

Every table opens with its stamp and gives the ratios before the times:
the runs are QEMU TCG guests on a shared machine, where ratios within one
guest mean something and absolute times little.  A block whose results
file is not committed says so.  Python 3 standard library only.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "bench"))
sys.dont_write_bytecode = True
import results as bench_results  # noqa: E402  (bench/results.py)
RESULTS_DIR = os.path.join(TOP, "docs", "results")
KINDS = ("bench", "hbatest", "bench-core", "check", "reliability",
         "check-debug", "kabi")
RUNS = {"bench": "make bench", "hbatest": "make hbatest",
        "bench-core": "make bench-core", "check": "make check",
        "reliability": "make reliability", "check-debug": "make check-debug",
        "kabi": "make kabi-report"}
# results files of a run's series and exit status only: {"series": [...]}
SERIES_KINDS = ("check", "reliability", "check-debug")
BLOCK_RE = re.compile(r"(<!-- results:([a-z0-9-]+) -->\n)(.*?)(<!-- /results -->)",
                      re.S)

# --- stamp -------------------------------------------------------------


def machine():
    """The host: CPU model, online CPUs, memory."""
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = f", {round(int(line.split()[1]) / 2**20)} GiB"
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} CPUs{mem}"


def package_version():
    out = subprocess.run([os.path.join(TOP, "packaging", "version.sh")],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def kernels_of(data, kind):
    """"series (release)" of each kernel the records ran on."""
    if kind in SERIES_KINDS:
        return data["series"]
    seen = {}
    for r in data.get("records", []):
        seen.setdefault(r["series"], r.get("kernel") or "?")
    return [f"{s} ({k})" for s, k in sorted(seen.items(),
                                             key=lambda i: series_key(i[0]))]


def check_results(times):
    """build/check/results.json from the times tests/run.sh writes: each
    suite's seconds and exit status, and the kernel series it had."""
    records = []
    with open(times) as f:
        for line in f:
            name, secs, rc = line.split()
            records.append({"suite": name, "seconds": int(secs),
                            "exit": int(rc)})
    series = subprocess.run(
        ["bash", "-c", ". tests/kernels/lib.sh && kernel_series"], cwd=TOP,
        capture_output=True, text=True, check=True).stdout.split()
    path = os.path.join(os.path.dirname(times), "results.json")
    with open(path, "w") as f:
        json.dump({"records": records, "series": series}, f, indent=1)
    return path


def stamp(path, kind, guests, run, reduced=False, seconds=None):
    if kind == "check":
        path = check_results(path)
        if os.environ.get("CHECKS"):
            run, reduced = f"CHECKS=\"{os.environ['CHECKS']}\" make check", True
        guests = guests or "QEMU TCG guests"
    with open(path) as f:
        data = json.load(f)
    setups = [] if kind in SERIES_KINDS + ("kabi",) else sorted(
        {"iommu" if r.get("iommu") else "plain"
         for r in data.get("records", [])})
    data["stamp"] = {
        "kind": kind,
        "package_version": package_version(),
        "kernels": kernels_of(data, kind),
        "setups": setups,
        "date": datetime.datetime.now(datetime.timezone.utc)
        .strftime("%Y-%m-%d"),
        "machine": machine(),
        "guests": guests or (f"native, user space (host kernel "
                             f"{os.uname().release})"
                             if kind == "bench-core" else ""),
        "run": run or RUNS[kind],
    }
    if reduced:
        data["stamp"]["reduced"] = True
    if seconds is not None:
        data["stamp"]["seconds"] = seconds
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


# --- formatting --------------------------------------------------------


# the number formats and kernel order of bench/results.py's own tables
series_key = bench_results.series_order
ms = bench_results.fmt_ms
ratio = bench_results.fmt_x


def table(head, rows, left=3):
    """A Markdown table; the first LEFT columns left-aligned."""
    out = ["| " + " | ".join(head) + " |",
           "| " + " | ".join("---" if i < left else "---:"
                             for i in range(len(head))) + " |"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out


def stamp_line(data, source, kind):
    s = data.get("stamp")
    if not s:
        raise ValueError(f"{source} has no stamp: rerun {RUNS[kind]} with "
                         "the current scripts")
    parts = [f"mpt3sas-chainpool {s['package_version']}, `{s['run']}`, "
             f"{s['date']}"]
    if s.get("kernels"):
        setups = " and ".join(setup_name(x == "iommu") for x in s["setups"])
        parts.append(f"kernels {', '.join(s['kernels'])}"
                     + (f", {setups}" if setups else ""))
    if s.get("guests"):
        parts.append(s["guests"])
    parts.append(f"host {s['machine']}")
    if s.get("reduced"):
        parts.append("only the suites named" if kind == "check"
                     else "a reduced run (make check's sample)")
    return f"*Results `{source}`: {'; '.join(parts)}.*"


def setup_name(iommu):
    return "IOMMU" if iommu else "plain"


# --- bench: cp_bench.ko in QEMU guests ----------------------------------

ALLOCATORS = ["dma_pool", "page_carve", "chainpool", "chainpool_1page",
              "chainpool_bulk", "memset_floor"]


def bench_index(data):
    recs = data["records"]
    by = {(r["series"], r["iommu"], r["allocator"], r["n"]): r for r in recs}
    groups = sorted({(r["series"], r["iommu"]) for r in recs},
                    key=lambda g: (series_key(g[0]), g[1]))
    ns = sorted({r["n"] for r in recs})
    return by, groups, ns


def headline_n(ns):
    return 373959 if 373959 in ns else ns[-1]


def render_bench(data):
    by, groups, ns = bench_index(data)
    n = headline_n(ns)
    size = next(r["size"] for r in data["records"] if r["n"] == n)
    rows = []
    for series, iommu in groups:
        base = by.get((series, iommu, "chainpool", n), {})
        for a in ALLOCATORS:
            r = by.get((series, iommu, a, n))
            if not r:
                continue
            meta = r.get("metadata_bytes")
            rows.append([series, setup_name(iommu), f"`{a}`",
                         ratio(r["create_ns"], base.get("create_ns")),
                         ratio(r.get("destroy_ns"), base.get("destroy_ns")),
                         ms(r["create_ns"]), ms(r.get("destroy_ns")),
                         r.get("coherent_allocs", "-"),
                         "-" if meta is None else f"{meta / 1024:.1f}"])
    out = [f"{n:,} blocks of {size} B.  x: the time over `chainpool`'s "
           "(per-block) in the same guest.", ""]
    return out + table(["kernel", "setup", "allocator", "create x",
                        "destroy x", "create ms", "destroy ms",
                        "coherent allocations", "metadata KiB"], rows)


def bulk_row(data, series, iommu, alloc, label):
    """ALLOC's ratios and times in one guest of DATA, or None."""
    by, _, ns = bench_index(data)
    get = lambda a: by.get((series, iommu, a, headline_n(ns)), {})
    bulk = get(alloc)
    if not bulk:
        return None
    pc, dp, fl = get("page_carve"), get("dma_pool"), get("memset_floor")
    c, d, slabs = bulk["create_ns"], bulk.get("destroy_ns"), bulk.get("fill_ns")
    return [series, setup_name(iommu)] + ([label] if label else []) + [
        ratio(pc.get("create_ns"), c), ratio(pc.get("destroy_ns"), d),
        ratio(dp.get("create_ns"), c), ratio(dp.get("destroy_ns"), d),
        ratio(c, fl.get("create_ns")), ratio(slabs, fl.get("create_ns")),
        ms(c), ms(slabs), ms(None if slabs is None else c - slabs), ms(d)]


def render_bench_bulk(data):
    """chainpool_bulk against the others; where the run timed a base
    revision's too (make bench BENCH_BASE=), its row above each kernel's."""
    _, groups, ns = bench_index(data)
    base = any(r["allocator"] == "chainpool_bulk@base"
               for r in data["records"])
    rows = []
    for series, iommu in groups:
        for alloc, label in ((("chainpool_bulk@base", "base"),
                              ("chainpool_bulk", "this")) if base else
                             (("chainpool_bulk", None),)):
            row = bulk_row(data, series, iommu, alloc, label)
            if row:
                rows.append(row)
    out = [f"`chainpool_bulk`, the driver's path, at {headline_n(ns):,} "
           "blocks: the other allocator's time over its own, then its "
           "create and its slabs (`dma_alloc_coherent()`) over "
           "`memset_floor`'s create; create is the slabs and the carve "
           "(handing the blocks out)."
           + ("  base: the base revision's, timed in the same guests "
              "against the same times of the others." if base else ""), ""]
    head = ["kernel", "setup"] + (["chainpool"] if base else []) + [
        "page_carve create / bulk", "page_carve destroy / bulk",
        "dma_pool create / bulk", "dma_pool destroy / bulk",
        "bulk create / floor", "slabs / floor", "create ms", "slabs ms",
        "carve ms", "destroy ms"]
    return out + table(head, rows, left=3 if base else 2)


# --- hbatest: the driver on the emulated SAS3008 (and SAS2308) -------------

HBA_ORDER = {("ours", "chainpool"): 0, ("ours", "dma_pool"): 1,
             ("in_tree", "in_tree"): 2}
# the times of a group: the attach by load (the boot's first, or a reload),
# then what every record has
HBA_TIMES = ("first_ns", "reload_ns", "rmmod_ns", "shutdown_ns",
             "chain_alloc_ns", "chain_free_ns")
HBA_PHASES = [("load", "insmod to the IOC mapped"),
              ("pools", "IOC ready and pools"), ("init", "IOC Init"),
              ("discovery", "port enable and discovery"),
              ("scan", "scan to the disks in sysfs")]


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def hba_of(r):
    """The HBA of a record: the SAS3008 unless it names a SAS2 chip."""
    return r.get("hba", "sas3008")


def hba_time(r, t):
    """Time T of record R: first_ns and reload_ns are its attach_ns where
    it was that load."""
    if t in ("first_ns", "reload_ns"):
        return r["attach_ns"] if r.get("load") == t[:-3] else None
    return r[t]


def hba_groups(recs, n):
    """The records at max_sgl_entries N by (series, iommu, hba, driver,
    allocator), and the medians of their times."""
    groups = {}
    for r in recs:
        if r["max_sgl_entries"] == n:
            groups.setdefault((r["series"], r["iommu"], hba_of(r),
                               r["driver"], r["allocator"]), []).append(r)
    med = {k: {t: median([hba_time(r, t) for r in rs]) for t in HBA_TIMES}
           for k, rs in groups.items()}
    order = sorted(groups, key=lambda k: (series_key(k[0]), k[1],
                                          k[2] != "sas3008", k[2],
                                          HBA_ORDER.get(k[3:], 9)))
    return groups, med, order


def render_hbatest(data):
    recs = data["records"]
    out = []
    for n in sorted({r["max_sgl_entries"] for r in recs}):
        groups, med, order = hba_groups(recs, n)
        if len({k[3:] for k in groups}) < 2:
            continue        # one driver only: nothing to compare
        rows = []
        for key in order:
            series, iommu, hba, driver, alloc = key
            m = med[key]
            base = med.get((series, iommu, hba, "ours", "chainpool"), {})
            runs = "/".join(str(sum(hba_time(r, t) is not None
                                    for r in groups[key]))
                            for t in HBA_TIMES[:4])
            name = f"ours, `{alloc}`" if driver == "ours" else "in-tree"
            rows.append([series, setup_name(iommu), hba.upper(), name]
                        + [ratio(m[t], base.get(t)) for t in HBA_TIMES[:4]]
                        + [ms(m[t]) for t in HBA_TIMES] + [runs])
        chains = {}
        for r in recs:
            if r["max_sgl_entries"] == n and r["nr_chains"]:
                chains.setdefault(hba_of(r).upper(), r["nr_chains"])
        disks = sorted({r.get("disks", 1) for r in recs
                        if r["max_sgl_entries"] == n})
        if out:
            out.append("")
        out.append(f"`max_sgl_entries={n}`"
                   + (" (" + ", ".join(f"{c:,} chain buffers on the {h}"
                                       for h, c in sorted(chains.items(),
                                                          reverse=True)) + ")"
                      if chains else "")
                   + f", {' or '.join(map(str, disks))} disks behind the HBA."
                   "  x: the median over ours with `chainpool`'s in the "
                   "same guest setup and HBA.")
        out.append("")
        out += table(["kernel", "setup", "HBA", "driver", "first load x",
                      "reload x", "rmmod x", "shutdown x", "first load ms",
                      "reload ms", "rmmod ms", "shutdown ms",
                      "chain pool create ms", "chain pool free ms",
                      "runs (first/reload/rmmod/shutdown)"], rows, left=4)
        out += hba_phases(recs, n, groups, order)
    return out or ["No two drivers at one `max_sgl_entries` in this results "
                   "file: nothing to compare."]


def hba_phases(recs, n, groups, order):
    """Where the attach goes on the SAS3008, by phase and load, medians in
    ms: ours with chainpool against the in-tree driver."""
    rows = []
    for key in order:
        if (key[2] != "sas3008"
                or key[3:] not in (("ours", "chainpool"), ("in_tree", "in_tree"))):
            continue
        for load in ("first", "reload"):
            rs = [r for r in groups[key]
                  if r.get("load") == load and r.get("phases_ns")]
            if not rs:
                continue
            rows.append([key[0], setup_name(key[1]), key[2].upper(),
                         "ours" if key[3] == "ours" else "in-tree", load]
                        + [ms(median([r["phases_ns"][p] for r in rs]))
                           for p, _ in HBA_PHASES]
                        + [ms(median([r["attach_ns"] for r in rs]))])
    if not rows:
        return []
    return (["", f"Where the attach goes on the SAS3008 at "
             f"`max_sgl_entries={n}`, ms (medians), from the kernel log's "
             "times of the lines every version of the driver prints:", ""]
            + table(["kernel", "setup", "HBA", "driver", "load"]
                    + [d for _, d in HBA_PHASES] + ["attach"], rows, left=5))


def render_hbatest_readme(data):
    """README's: the kernel's own driver's times over ours with chainpool,
    by kernel, the HBAs in each cell."""
    groups, med, order = hba_groups(data["records"], 256)
    cells, kvers, hbas, slower = {}, {}, [], []
    what = ("attach, first load", "attach, reload", "rmmod", "shutdown")
    for key in order:
        base = med.get(key[:3] + ("ours", "chainpool"))
        if key[3:] != ("in_tree", "in_tree") or not base:
            continue
        kvers[key[0]] = groups[key][0]["kernel"]
        hbas += [key[2]] if key[2] not in hbas else []
        cells.setdefault(key[0], {})[key[2]] = [
            ratio(med[key][t], base[t]) for t in HBA_TIMES[:4]]
        slower += [f"{key[0]} {key[2].upper()} {w}: ours {ms(base[t])} ms, "
                   f"in-tree {ms(med[key][t])}"
                   for t, w in zip(HBA_TIMES[:4], what)
                   if None not in (base[t], med[key][t])
                   and med[key][t] < base[t]]
    rows = [[f"{series} ({kvers[series]})"]
            + [" / ".join(cs.get(h, ["-"] * 4)[i] for h in hbas)
               for i in range(4)]
            for series, cs in cells.items()]
    hbas = [h.upper() for h in hbas]
    return (table([f"kernel ({' / '.join(hbas)})", *what], rows, left=1)
            + ["", "Below 1x, ours took longer: "
               + ("; ".join(slower) if slower else "nowhere") + "."])


# --- bench-core: the allocator core, native -----------------------------

CORE_OPS = [("create", "create (fill)"), ("bulk_carve", "bulk carve"),
            ("release_all", "whole-pool release"),
            ("alloc_carve", "alloc, bump cursor"), ("free", "free"),
            ("alloc_list", "alloc, free list"),
            ("alloc_carve_mutex", "alloc + mutex"),
            ("free_mutex", "free + mutex"),
            ("memset", "memset floor")]
CORE_RATIOS = [("bulk_over_memset", "bulk carve / memset"),
               ("alloc_carve_over_bulk", "bump-cursor alloc / bulk carve"),
               ("mutex_over_plain", "with a mutex / without")]


def render_bench_core(data):
    res = data["results"]
    head = ["per block"] + [f"N = {r['n']:,}" for r in res]
    rows = [[name] + [f"{r['ratios'][k]:.2f}x" for r in res]
            for k, name in CORE_RATIOS]
    rows += [[f"{name}, ns"] + [f"{r['ops'][k]['ns_per_block']:.2f}"
                                for r in res] for k, name in CORE_OPS]
    return ([f"Medians of {data['runs']} runs, blocks of "
             f"{data['block_size']} B; the ratios first, then ns per block.",
             ""] + table(head, rows, left=1))


# --- kabi: the symbols outside RHEL's kABI stablelists -------------------

# the objects of our own code, against upstream's driver files
OURS = ("chainpool/", "mpt3sas/cp_")


def render_kabi(data):
    recs = data["records"]
    rows = []
    for r in recs:
        ours = sorted(o["symbol"] for o in r["outside"] if o["objects"]
                      and all(x.startswith(OURS) for x in o["objects"]))
        rows.append([r["release"], r["kernel"], r["imports"],
                     len(r["outside"]),
                     ", ".join(f"`{x}`" for x in ours) or "none"])
    out = table(["RHEL", "module built for", "symbols imported",
                 "outside the stablelist", "of them imported only by our "
                 "own code (chainpool, cp_dmapool)"], rows, left=2)
    where = {}
    for r in recs:
        for o in r["outside"]:
            w = where.setdefault(o["symbol"], [set(), set()])
            w[0].add(r["release"])
            w[1].update(os.path.splitext(os.path.basename(x))[0]
                        for x in o["objects"])
    rels = [r["release"] for r in recs]
    syms = [[f"`{s}`"] + ["x" if rel in w[0] else "" for rel in rels]
            + [", ".join(sorted(w[1])) or "modpost (mpt3sas.mod)"]
            for s, w in sorted(where.items())]
    return out + ["", "Each symbol outside a release's stablelist (x), and "
                  "the objects of the module that import it:", ""] + table(
        ["symbol"] + rels + ["imported by"], syms, left=1)


# --- the suites of make check: their own descriptions ---------------------


def suites():
    """(name, desc, full) of every stanza of tests/suites, in its order."""
    with open(os.path.join(TOP, "tests", "suites")) as fh:
        stanzas = re.split(r"\n\n+", re.sub(r"(?m)^#.*\n", "", fh.read()))
    kvs = [dict(line.split(": ", 1) for line in s.strip().split("\n"))
           for s in stanzas if s.strip()]
    return [(kv["name"], kv["desc"], kv.get("full", "")) for kv in kvs]


def render_suites(data=None):
    """The suites, with their seconds in make check where DATA has them."""
    cell = lambda t: t.replace("|", "\\|")
    secs = {r["suite"]: f"{r['seconds']}" + (" (failed)" if r["exit"] else "")
            for r in (data or {}).get("records", [])}
    rows = [[f"`{name}`", cell(desc), f"`{full}`" if full else "",
             secs.get(name, "-")]
            for name, desc, full in suites()]
    out = table(["suite", "what it proves", "full run", "s in make check"],
                rows, left=3)
    if secs:
        total = data["stamp"]["seconds"]
        out += ["", f"`make check` ran its suites in {total} s "
                f"({round(total / 60)} minutes) of wall time, after `make`; "
                f"the package suites ran in a lane of their own."]
    return out


# --- the full targets: what they add, how long their last run took --------

TARGETS = [
    ("check", "every suite, most of them reduced (the table above)"),
    ("hbatest", "the full fault walk (tests/hba-alloc/run.sh), then "
     "every series, plain and behind the IOMMU, N = 16 to 2048 "
     "with each allocator, 50 cycles, the timing rounds on the SAS3008 and "
     "a SAS2308, 32 disks behind an expander, both SAS2 chips, every "
     "lying case"),
    ("reliability", "every reliability suite in full, on every series, "
     "plain and behind the IOMMU"),
    ("check-debug", "the debug kernel (KASAN, kmemleak, DMA_API_DEBUG, "
     "lockdep): the in-kernel tests and the driver steps, plain and behind "
     "the IOMMU, and the reliability sample in both setups"),
    ("bench", "cp_bench.ko at every N on each kernel: docs/benchmarks.md"),
    ("bench-core", "the allocator core at every N, natively"),
]


def duration(sec):
    return f"{sec} s ({sec / 60:.0f} min)" if sec >= 120 else f"{sec} s"


def render_targets(data=None):
    """Each target, what only it covers and its last run's wall time, from
    the committed results files; a run that did not time itself says so."""
    rows = []
    for kind, covers in TARGETS:
        path = results_path(kind)
        last, took = "no results file committed", "not measured"
        if os.path.exists(path):
            with open(path) as f:
                d = json.load(f)
            st = d.get("stamp", {})
            k = len(st.get("kernels", []))
            last = (f"`{st.get('run', '?')}`, " + (f"{k} kernel{'s' if k > 1 else ''}, " if k else "")
                    + st.get("date", "?"))
            if "seconds" in st:
                took = duration(st["seconds"])
            if d.get("failed"):
                took += f", {d['failed']} failed"
        rows.append([f"`{RUNS[kind]}`", covers, last, took])
    return table(["target", "covers", "its last run (docs/results/)",
                  "that run's wall time"], rows, left=3)


# --- blocks ----------------------------------------------------------------

BLOCKS = {
    "bench": ("bench", render_bench),
    "bench-bulk": ("bench", render_bench_bulk),
    "hbatest": ("hbatest", render_hbatest),
    "hbatest-readme": ("hbatest", render_hbatest_readme),
    "bench-core": ("bench-core", render_bench_core),
    "kabi": ("kabi", render_kabi),
    "suites": ("check", render_suites),
    "targets": ("check", render_targets),
}


def results_path(kind):
    return os.path.join(RESULTS_DIR, f"{kind}.json")


def rel(path):
    return os.path.relpath(path, TOP)


def render_block(name, path):
    """The lines of one block, from the results file at PATH."""
    if name not in BLOCKS:
        raise ValueError(f"unknown results block '{name}' "
                         f"(known: {', '.join(sorted(BLOCKS))})")
    kind, fn = BLOCKS[name]
    if name == "suites" and not os.path.exists(path):
        return render_suites()
    if name == "targets":
        return render_targets()
    if not os.path.exists(path):
        return [f"No results file is committed yet: `{rel(path)}` comes "
                f"from `{RUNS[kind]}` (then `make docs-results`)."]
    with open(path) as f:
        data = json.load(f)
    body = fn(data)
    return [stamp_line(data, rel(path), kind), ""] + body


def documents():
    docs = os.path.join(TOP, "docs")
    return [os.path.join(TOP, "README.md")] + sorted(
        os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))


def render(check):
    stale = []
    for doc in documents():
        with open(doc) as f:
            text = f.read()

        def fill(m):
            kind = BLOCKS.get(m.group(2), (m.group(2), None))[0]
            body = "\n".join(render_block(m.group(2),
                                           kind and results_path(kind)))
            return f"{m.group(1)}\n{body}\n\n{m.group(4)}"
        new = BLOCK_RE.sub(fill, text)
        if new == text:
            continue
        if check:
            stale.append(rel(doc))
        else:
            with open(doc, "w") as f:
                f.write(new)
            print(f"docs: rendered {rel(doc)}")
    for doc in stale:
        print(f"docs: {doc} is not what `make docs` writes from "
              f"{rel(RESULTS_DIR)}/: run make docs", file=sys.stderr)
    return 1 if stale else 0


def import_results(names):
    copied = 0
    for kind in names or KINDS:
        src = os.path.join(TOP, "build", kind, "results.json")
        if not os.path.exists(src):
            print(f"docs: no {rel(src)}: {RUNS[kind]} writes it")
            continue
        with open(src) as f:
            st = json.load(f).get("stamp")
        if not st:
            sys.exit(f"docs: {rel(src)} has no stamp: rerun {RUNS[kind]}")
        if st.get("reduced") and kind not in names:
            print(f"docs: {rel(src)} is make check's reduced run, not "
                  f"{RUNS[kind]}'s: left out (name it to take it anyway)")
            continue
        os.makedirs(RESULTS_DIR, exist_ok=True)
        shutil.copyfile(src, results_path(kind))
        print(f"docs: {rel(src)} -> {rel(results_path(kind))}")
        copied += 1
    return copied


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("stamp")
    s.add_argument("--kind", required=True, choices=KINDS)
    s.add_argument("--guests", default="")
    s.add_argument("--run", default="")
    s.add_argument("--reduced", action="store_true")
    s.add_argument("--seconds", type=int)
    s.add_argument("json")
    i = sub.add_parser("import")
    i.add_argument("names", nargs="*")
    r = sub.add_parser("render")
    r.add_argument("--check", action="store_true")
    w = sub.add_parser("show")
    w.add_argument("block")
    w.add_argument("json")
    args = ap.parse_args()

    try:
        if args.cmd == "stamp":
            stamp(args.json, args.kind, args.guests, args.run, args.reduced,
                  args.seconds)
            return 0
        if args.cmd == "show":
            print("\n".join(render_block(args.block, args.json)))
            return 0
        if args.cmd == "import":
            bad = [n for n in args.names if n not in KINDS]
            if bad:
                raise ValueError(f"no results named {', '.join(bad)} "
                                 f"({', '.join(KINDS)})")
            import_results(args.names)
        return render(args.cmd == "render" and args.check)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"docs: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
