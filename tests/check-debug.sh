#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make check-debug`: build the debug kernel (tests/kernels/debug-kernel.sh:
# linux-source-6.1 with KASAN, kmemleak, DMA_API_DEBUG, lockdep and fault
# injection), then run chainpool's in-kernel tests and the driver steps
# (tests/vm/project.steps) and the reliability suites in it, plainly and
# with an emulated IOMMU.  Any KASAN, kmemleak, DMA-API or lockdep report is
# a splat and fails the run.  Prints how long each part took.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES

t0=$SECONDS
tests/kernels/fetch.sh debug
build_s=$((SECONDS - t0))
echo "check-debug: debug kernel ready in ${build_s}s (build alone: $(cat build/kernels/debug/build-seconds)s)"

t1=$SECONDS
rc=0
KERNELS=debug VMTEST_TIMEOUT=${VMTEST_TIMEOUT:-900} \
	BUILD_MODULES_CMD="$top/scripts/build-test-modules.sh" tests/vm/run.sh || rc=1
echo "check-debug: in-kernel tests in $((SECONDS - t1))s"
exit $rc
