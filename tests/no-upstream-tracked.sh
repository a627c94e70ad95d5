#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# no-upstream-tracked.sh [REPO]: no upstream code tracked in REPO (default:
# this checkout, after a self-test on a scratch clone).

set -eu

# shellcheck source=tests/lib/upstream.sh
. "$(dirname "$0")/lib/upstream.sh"
repo=${1:-$top}
# Longest run of upstream lines a non-patch file may share: enough for a
# quoted prototype or comment, far too few for a copied function.
max_run=12

scan() {
	python3 - "$1" "$upstream" "$max_run" <<'PY'
import hashlib, os, subprocess, sys

repo, upstream, max_run = sys.argv[1], sys.argv[2], int(sys.argv[3])
drv = os.path.join(upstream, "drivers/scsi/mpt3sas")

def files(root):
    for d, _, names in os.walk(root):
        for n in names:
            yield os.path.join(d, n)

def digest(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()

def windows(path):
    lines = [l.strip() for l in open(path, errors="replace")]
    lines = [l for l in lines if len(l) > 3]   # skip blank and brace lines
    for i in range(len(lines) - max_run):
        yield i, "\n".join(lines[i:i + max_run + 1])

upstream_hashes = {digest(p) for p in files(upstream) if os.path.getsize(p)}
upstream_names = {os.path.basename(p) for p in files(drv)} - {"Makefile", "Kconfig"}
upstream_runs = {w for p in files(drv) for _, w in windows(p)}

bad = 0
tracked = subprocess.run(["git", "-C", repo, "ls-files", "-z"], check=True,
                         capture_output=True).stdout.decode().split("\0")
for f in filter(None, tracked):
    path = os.path.join(repo, f)
    if not os.path.isfile(path) or not os.path.getsize(path):
        continue
    if digest(path) in upstream_hashes:
        print(f"tracked upstream file (identical content): {f}")
        bad = 1
    if os.path.basename(f) in upstream_names:
        print(f"tracked file named like an upstream driver file: {f}")
        bad = 1
    if f.startswith("src/mpt3sas/patches/"):
        continue
    for i, w in windows(path):
        if w in upstream_runs:
            print(f"tracked file repeats more than {max_run} upstream lines: {f}")
            bad = 1
            break
print(f"{len(tracked) - 1} tracked files checked")
sys.exit(bad)
PY
}

if [ $# -eq 0 ]; then
	git clone -q "$top" "$scratch/repo"
	cp "$upstream/drivers/scsi/mpt3sas/mpt3sas_ctl.h" "$scratch/repo/src/planted.h"
	git -C "$scratch/repo" add src/planted.h
	ktap_test_red "self-test: a planted upstream file is detected" \
		'tracked upstream file (identical content): src/planted.h' scan "$scratch/repo"
	git -C "$scratch/repo" rm -q --cached src/planted.h
	sed -n '/^_base_allocate_chain_dma_pool(struct/,/^}/p' \
		"$upstream/drivers/scsi/mpt3sas/mpt3sas_base.c" >"$scratch/repo/src/pasted.c"
	git -C "$scratch/repo" add src/pasted.c
	ktap_test_red "self-test: a pasted upstream function is detected" \
		'repeats more than [0-9]* upstream lines: src/pasted.c' scan "$scratch/repo"
fi

rc=0
out=$(scan "$repo" 2>&1) || rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
ktap_test_result "no tracked file is or repeats upstream code" [ "$rc" = 0 ]
ktap_finished
