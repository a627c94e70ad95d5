#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make check-debug`: build the debug kernel (tests/kernels/debug-kernel.sh:
# linux-source-6.1 with KASAN, kmemleak, DMA_API_DEBUG, lockdep and fault
# injection), then run in it, plainly and with an emulated IOMMU,
# chainpool's in-kernel tests and the driver steps (tests/vm/project.steps)
# and the reliability suites (a reduced sample, REL_SETUPS=plain for the
# plain guest only; REL_FULL=1 for all of them).
# Any KASAN, kmemleak, DMA-API or lockdep report is a splat and fails the
# run.  Prints how long each part took.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES

t0=$SECONDS
tests/kernels/fetch.sh debug >/dev/null
echo "# debug-kernel: debug kernel ready in $((SECONDS - t0))s (its last build took $(cat build/kernels/debug/build-seconds)s)"

rc=0
t1=$SECONDS
# plain and iommu only, as before the harness' default grew smp2 and mem5g
KERNELS=debug VMTEST_TIMEOUT=${VMTEST_TIMEOUT:-900} \
	VMTEST_SETUPS=${VMTEST_SETUPS:-plain iommu} \
	BUILD_MODULES_CMD="$top/scripts/build-modules.sh" tests/vm/run.sh || rc=1
echo "# debug-kernel: in-kernel tests in $((SECONDS - t1))s"

t1=$SECONDS
if [ "${REL_FULL:-0}" = 1 ]; then
	KERNELS=debug tests/reliability/run.sh || rc=1
else
	KERNELS=debug REL_SETUPS=${REL_SETUPS:-plain iommu} tests/reliability/run.sh --reduced || rc=1
fi
echo "# debug-kernel: reliability suites in $((SECONDS - t1))s"
exit $rc
