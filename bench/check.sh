#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/check.sh: the benchmark works end to end, fast.  Runs
# bench/run.sh (`make bench`) on one kernel (the first tagged bench in
# tests/kernels/series, no IOMMU) with small N,
# then checks that results.json has a record for every allocator and N with
# positive numbers and coherent allocations that fit the geometry, and that
# the table and the plot were produced.  It asserts nothing about times.
# Then it feeds the checker doctored results, which it must reject,
# collects its log as three boots' (the median of each time) and as a
# BENCH_BASE run's, and renders the tables of docs/benchmarks.md from its
# own (stamped) results.
#
#   BENCH_CHECK_KERNEL, BENCH_CHECK_N (default "1000 10000")

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=$top/build/check/bench
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
kernel=${BENCH_CHECK_KERNEL:-$(kernel_series bench | cut -d' ' -f1)}
ns=${BENCH_CHECK_N:-1000 10000}
allocators=dma_pool,page_carve,chainpool,chainpool_1page,chainpool_bulk,memset_floor
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header

rm -rf "$out"
BENCH_OUT=$out BENCH_KERNELS=$kernel BENCH_SETUPS=plain BENCH_N=$ns \
	BENCH_REPEAT=1 BENCH_WARM_MB=0 BENCH_TIMEOUT=600 BENCH_ALLOCATORS=$allocators \
	bench/run.sh > "$out.log" 2>&1 || { tail -n 40 "$out.log" | sed 's/^/# | /'; ktap_test_fail "bench/run.sh failed (log: $out.log)"; }

json=$out/results.json
if [ -s "$json" ]; then
	if python3 bench/results.py check --n "$ns" --allocators "$allocators" "$json"; then
		ktap_test_pass "every allocator and N has a plausible record"
	else
		ktap_test_fail "results.json does not hold what it should"
	fi
	# the JSON the issue asks for, field by field
	if python3 - "$json" "$kernel" <<'PY'
import json, sys
recs = json.load(open(sys.argv[1]))["records"]
want = {"series", "kernel", "iommu", "allocator", "n", "size", "create_ns"}
full = want | {"destroy_ns", "coherent_allocs", "metadata_bytes"}
bad = [r for r in recs if not (want if r["allocator"] == "memset_floor" else full) <= set(r)]
bad += [r for r in recs if r["series"] != sys.argv[2] or r["iommu"] is not False or r["size"] != 128]
for r in bad:
    print("bad record:", r)
sys.exit(1 if bad or not recs else 0)
PY
	then
		ktap_test_pass "records carry the documented fields"
	else
		ktap_test_fail "records lack fields or carry the wrong series, setup or size"
	fi
else
	ktap_test_fail "no $json"
fi

table=$out/table.txt
if [ -s "$table" ]; then
	missing=""
	for a in ${allocators//,/ }; do
		grep -q " $a " "$table" || missing="$missing $a"
	done
	if [ -z "$missing" ] && grep -q 'x = time / chainpool' "$table"; then
		ktap_test_pass "the table names every allocator and its ratio to chainpool"
	else
		ktap_test_fail "table lacks:${missing:- the ratio header}"
	fi
else
	ktap_test_fail "no table $table"
fi

png=$out/scaling.png
if [ -s "$png" ] && [ "$(od -An -tx1 -N8 "$png" | tr -d ' ')" = 89504e470d0a1a0a ] &&
   [ "$(stat -c %s "$png")" -gt 10000 ]; then
	ktap_test_pass "the plot is a PNG ($(stat -c %s "$png") bytes)"
else
	ktap_test_fail "no plot, or not a PNG: $png"
fi

# The checker must go red: a record missing, and a page_carve count off.
if [ -s "$json" ]; then
	python3 - "$json" "$out/bad1.json" "$out/bad2.json" <<'PY'
import json, sys
recs = json.load(open(sys.argv[1]))["records"]
json.dump({"records": [r for r in recs if r["allocator"] != "chainpool"]},
          open(sys.argv[2], "w"))
for r in recs:
    if r["allocator"] == "page_carve":
        r["coherent_allocs"] += 1
json.dump({"records": recs}, open(sys.argv[3], "w"))
PY
	for bad in bad1 bad2; do
		if python3 bench/results.py check --n "$ns" --allocators "$allocators" \
			"$out/$bad.json" >/dev/null 2>&1; then
			ktap_test_fail "the checker accepted doctored results ($bad)"
		else
			ktap_test_pass "the checker rejects doctored results ($bad)"
		fi
	done
fi

# Logs of several boots (make bench BENCH_BOOTS=): each time the median.
log=$out/vm/$kernel-plain.log
if [ -s "$log" ]; then
	if python3 - "$log" "$out/boots" <<'PY'
import json, os, re, subprocess, sys
log, d = sys.argv[1], sys.argv[2]
text = open(log, errors="replace").read()
paths = []
for k in (5, 1, 2):
    os.makedirs(f"{d}/{k}", exist_ok=True)
    paths.append(f"{d}/{k}/{os.path.basename(log)}")
    with open(paths[-1], "w") as f:
        f.write(re.sub(r"\b(create_ns|destroy_ns|fill_ns)=(\d+)",
                       lambda m: f"{m[1]}={int(m[2]) * k}", text))
def collect(logs):
    return json.loads(subprocess.run(
        [sys.executable, "bench/results.py", "collect", *logs],
        capture_output=True, text=True, check=True).stdout)["records"]
sys.exit(0 if collect(paths) == collect(paths[2:]) else 1)
PY
	then
		ktap_test_pass "three boots' logs (times x5, x1, x2) collect to the x2 boot's records"
	else
		ktap_test_fail "three boots' logs do not collect to each time's median"
	fi
fi

# make bench BENCH_BASE=: the records of a cp_bench_base step are the
# base's, and the chainpool_bulk table puts its row beside this tree's.
if [ -s "$log" ] && [ -s "$json" ]; then
	if python3 - "$log" "$json" "$out/base" <<'PY'
import json, os, re, subprocess, sys
log, stamped, d = sys.argv[1:]
text = open(log, errors="replace").read()
base = re.sub(r"(VMTEST: step \d+: insmod) cp_bench ", r"\1 cp_bench_base ",
              re.sub(r"\b(create_ns|destroy_ns|fill_ns)=(\d+)",
                     lambda m: f"{m[1]}={int(m[2]) * 2}", text))
os.makedirs(d, exist_ok=True)
both = os.path.join(d, os.path.basename(log))
with open(both, "w") as f:
    f.write(text + base)
def collect(path):
    return json.loads(subprocess.run(
        [sys.executable, "bench/results.py", "collect", path],
        capture_output=True, text=True, check=True).stdout)["records"]
this, got = collect(log), collect(both)
want = this + [dict(r, allocator=r["allocator"] + "@base",
                    **{k: r[k] * 2 for k in ("create_ns", "destroy_ns", "fill_ns") if k in r})
               for r in this]
key = lambda r: (r["allocator"], r["n"])
# The bench-bulk table of these records, under the check run's stamp
with open(both + ".json", "w") as f:
    json.dump(dict(json.load(open(stamped)), records=got), f)
table = subprocess.run([sys.executable, "scripts/docs.py", "show", "bench-bulk",
                        both + ".json"], capture_output=True, text=True).stdout
rows = re.findall(r"^\| \S+ \| plain \| (base|this) \|", table, re.M)
sys.exit(0 if this and sorted(got, key=key) == sorted(want, key=key)
         and rows == ["base", "this"] else 1)
PY
	then
		ktap_test_pass "a cp_bench_base step's records are chainpool_bulk@base's, rendered beside this tree's"
	else
		ktap_test_fail "BENCH_BASE's records are not told apart, or not rendered beside this tree's"
	fi
fi

# The docs' tables (scripts/docs.py, make docs) from these results: the
# stamp first, ratios before times.
if [ -s "$json" ]; then
	for block in bench bench-bulk; do
		if python3 scripts/docs.py show "$block" "$json" > "$out/docs-$block.md" 2>&1 &&
			grep -q '^\*Results [^:]*: mpt3sas-chainpool .*; kernels .*; host .*\.\*$' "$out/docs-$block.md" &&
			grep -qE '^\| [^|]+ \| (plain|IOMMU) \| [^|]+ \| [0-9.,]+x \|' "$out/docs-$block.md"; then
			ktap_test_pass "docs: the $block table renders, stamped, ratios first"
		else
			sed 's/^/# | /' "$out/docs-$block.md"
			ktap_test_fail "docs: the $block table does not render from $json"
		fi
	done
fi

ktap_finished
