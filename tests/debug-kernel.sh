#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make check-debug: the VM suites in the debug kernel (docs/testing.md).

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES

[ $# = 0 ] || { echo "usage: $0" >&2; exit 2; }

t0=$SECONDS
tests/kernels/fetch.sh debug >/dev/null
echo "# debug-kernel: debug kernel ready in $((SECONDS - t0))s (its last build took $(cat build/kernels/debug/build-seconds)s)"

rc=0
t1=$SECONDS
KERNELS=debug tests/vm/run.sh --timeout 900 --setups "plain iommu" \
	--build "$top/scripts/build-modules.sh" || rc=1
echo "# debug-kernel: in-kernel tests in $((SECONDS - t1))s"

t1=$SECONDS
KERNELS=debug tests/reliability/run.sh --reduced --setups "plain iommu" || rc=1
echo "# debug-kernel: reliability suites in $((SECONDS - t1))s"
# the full run's wall seconds, stamped for make docs-results
mkdir -p build/check-debug
printf '{"series":["debug"],"failed":%d}\n' $rc > build/check-debug/results.json
python3 scripts/docs.py stamp --kind check-debug --seconds "$SECONDS" \
	--guests "QEMU TCG guests, plain and IOMMU" --run "tests/debug-kernel.sh" \
	build/check-debug/results.json
exit $rc
