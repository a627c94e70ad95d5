#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The pin of the upstream driver, src/mpt3sas/upstream.lock, holds.

set -eu

# shellcheck source=tests/lib/upstream.sh
. "$(dirname "$0")/lib/upstream.sh"

cp -r "$upstream" "$scratch/good"
UPSTREAM=$scratch/good "$top/scripts/upstream.sh" fetch "$scratch/out-good"
ktap_test_result "a tree matching the lock is accepted" \
	cmp "$upstream/drivers/scsi/mpt3sas/mpt3sas_base.c" \
	"$scratch/out-good/drivers/scsi/mpt3sas/mpt3sas_base.c"

cp -r "$upstream" "$scratch/bad"
echo "/* changed */" >>"$scratch/bad/drivers/scsi/mpt3sas/mpt3sas_config.c"
touch "$scratch/bad/drivers/scsi/mpt3sas/extra.c"
ktap_test_red "a tree with a changed file is refused, naming it" \
	'differs: drivers/scsi/mpt3sas/mpt3sas_config.c' \
	env UPSTREAM="$scratch/bad" "$top/scripts/upstream.sh" fetch "$scratch/out-bad"
ktap_test_result "the refusal names the file not in the lock" \
	grep -q 'not in lock: drivers/scsi/mpt3sas/extra.c' <<<"$ktap_out"
ktap_test_result "the refusal names the re-pin command" grep -q 'make repin' <<<"$ktap_out"
ktap_test_result "a refused tree is not extracted" [ ! -e "$scratch/out-bad" ]

# The lock's own package at a version the archive never had.
lock=$top/src/mpt3sas/upstream.lock
pkg=$(sed -n 's/^package=//p' "$lock")
sed 's/^version=.*/version=0.0-gone/' "$lock" >"$scratch/gone.lock"
UPSTREAM_LOCK=$scratch/gone.lock DL_DIR=$top/build/dl \
	"$top/scripts/upstream.sh" fetch "$scratch/out-gone" >"$scratch/gone" 2>&1 || :
sed 's/^/# | /' "$scratch/gone"
ktap_test_result "a pinned version gone from the archive gives way to another with the same driver" \
	grep -q "^upstream: using $pkg .*: its driver is the pinned one" "$scratch/gone"
ktap_test_result "and that driver is extracted" \
	cmp "$upstream/drivers/scsi/mpt3sas/mpt3sas_base.c" \
	"$scratch/out-gone/drivers/scsi/mpt3sas/mpt3sas_base.c"
ktap_finished
