#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the modules the VM harness loads for one kernel: mpt3sas.ko from the
# assembled tree and the in-kernel chainpool test module, chainpool_test.ko,
# which links its own copy of the allocator.
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

tdir=$objroot/chainpool_test
rm -rf "$tdir"
mkdir -p "$tdir"
cp "$top"/tests/kmod/Kbuild "$top"/tests/kmod/*.c "$top"/src/chainpool/*.[ch] \
	"$top"/src/mpt3sas/cp_dmapool.[ch] "$tdir/"
# shellcheck disable=SC2086 # KMAKEFLAGS is a word list
make -C "$kdir" M="$tdir" ${KMAKEFLAGS:-} KCFLAGS=-Werror modules >&2
cp "$tdir/chainpool_test.ko" "$out/"
echo "built for $series: $(cd "$out" && echo ./*.ko)"
