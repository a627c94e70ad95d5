#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba/detects-faults.sh: make hbatest-reduced must go red on a
# driver that builds corrupted chain elements.  A copy of build/tree gets
# one fault planted in _base_build_sg_scmd_ieee() (each chain element
# points one element past its chain buffer), mpt3sas.ko is built from it
# for 6.1 and run.sh --reduced runs with it; it must fail, and fail in the
# I/O checks (not in attach).  Prints PASS or FAIL; logs in
# build/hbatest-plant/.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
LOG_TAG=hba-plant
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"

work=$BUILD_ROOT/hbatest-plant
rm -rf "$work"
mkdir -p "$work/modules/6.1"
"$top/tests/kernels/fetch.sh" 6.1 >/dev/null
# shellcheck disable=SC1090 # written by fetch.sh
. "$(series_env 6.1)"
cp -r "$BUILD_ROOT/tree" "$work/tree"
f=$work/tree/mpt3sas/mpt3sas_base.c
sed -i 's/chain_offset, chain_length, chain_dma);/chain_offset, chain_length, chain_dma + 16); \/* PLANTED *\//' "$f"
[ "$(grep -c PLANTED "$f")" = 1 ] || die "the plant does not apply to $f"
ko=$(KDIR=$KDIR KVER='' KMAKEFLAGS=${KMAKEFLAGS:-} "$top/scripts/build-module.sh" \
	"$work/tree" "$work/obj" 2>"$work/build.log" | tail -n 1)
[ -f "$ko" ] || die "building the planted module failed ($work/build.log)"
cp "$ko" "$work/modules/6.1/"

set +e
KERNELS=6.1 HBA_DIR=$work/run HBA_MODULES_DIR=$work/modules HBA_TIMEOUT=300 \
	"$here/run.sh" --reduced > "$work/run.log" 2>&1
rc=$?
set -e
grep -E '^6\.1 plain: ' "$work/run.log" | sed 's/^/  /'
if [ "$rc" != 0 ] && grep -qE '^6\.1 plain: hba: FAIL: (direct I/O|the I/O|task abort)' "$work/run.log" &&
	grep -qE '^6\.1 plain: hba: ok 1 insmod' "$work/run.log"; then
	echo "PASS: corrupted chain elements turn hbatest red in its I/O checks"
else
	echo "FAIL: hbatest did not catch corrupted chain elements (rc $rc, $work/run.log)"
	exit 1
fi
