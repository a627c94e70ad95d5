#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The pin holds: a source matching the lock is accepted through UPSTREAM=,
# a source with one changed driver file is refused, and the refusal names
# the file and the re-pin command.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
upstream=$top/build/upstream
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

[ -d "$upstream/drivers/scsi/mpt3sas" ] ||
	{ echo "no extracted upstream in $upstream: run make upstream" >&2; exit 1; }

cp -r "$upstream" "$scratch/good"
UPSTREAM=$scratch/good "$top/scripts/upstream.sh" fetch "$scratch/out-good"
cmp "$upstream/drivers/scsi/mpt3sas/mpt3sas_base.c" \
	"$scratch/out-good/drivers/scsi/mpt3sas/mpt3sas_base.c"
echo "ok: a tree matching the lock is accepted"

cp -r "$upstream" "$scratch/bad"
echo "/* changed */" >>"$scratch/bad/drivers/scsi/mpt3sas/mpt3sas_config.c"
touch "$scratch/bad/drivers/scsi/mpt3sas/extra.c"
if UPSTREAM=$scratch/bad "$top/scripts/upstream.sh" fetch "$scratch/out-bad" 2>"$scratch/err"; then
	echo "FAIL: a tree with a changed file was accepted" >&2
	exit 1
fi
cat "$scratch/err"
grep -q 'differs: drivers/scsi/mpt3sas/mpt3sas_config.c' "$scratch/err"
grep -q 'not in lock: drivers/scsi/mpt3sas/extra.c' "$scratch/err"
grep -q 'make repin' "$scratch/err"
[ ! -e "$scratch/out-bad" ]
echo "ok: a changed tree is refused, naming the files and the re-pin command"
