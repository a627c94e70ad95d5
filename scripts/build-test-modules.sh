#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the modules the VM harness loads for one kernel: mpt3sas.ko from the
# assembled tree (build-module.sh) and the in-kernel chainpool test module,
# chainpool_test.ko, which links its own copy of the allocator
# (build-extmod.sh).
#
#   build-test-modules.sh SERIES KVER KDIR OUTDIR
#
# The harness calls it as BUILD_MODULES_CMD, with KMAKEFLAGS exported.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
series=$1
kdir=$3
out=$4
objroot=$top/build/modules-obj/$series

mkdir -p "$out"
ko=$(KDIR=$kdir KVER='' CP_WERROR=1 "$top/scripts/build-module.sh" "$top/build/tree" "$objroot" | tail -n 1)
cp "$ko" "$out/"

KDIR=$kdir KVER='' CP_WERROR=1 "$top/scripts/build-extmod.sh" "$top/tests/kmod" "$top" \
	"$objroot/chainpool_test" "$out" >&2
echo "built for $series: $(cd "$out" && echo ./*.ko)"
