#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the benchmark module, cp_bench.ko, for one kernel: bench/kernel/
# with its own copy of src/chainpool/*.[ch].
#
#   build-bench-module.sh SERIES KVER KDIR OUTDIR
#
# The VM harness calls it as BUILD_MODULES_CMD (with KMAKEFLAGS exported);
# on a machine of your own:
#
#   scripts/build-bench-module.sh local "$(uname -r)" /lib/modules/$(uname -r)/build build/bench/local

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
series=$1
kdir=$3
out=$4
bdir=$top/build/bench/obj/$series

rm -rf "$bdir"
mkdir -p "$bdir" "$out"
cp "$top"/bench/kernel/Kbuild "$top"/bench/kernel/*.c "$top"/src/chainpool/*.[ch] "$bdir/"
# shellcheck disable=SC2086 # KMAKEFLAGS is a word list
make -C "$kdir" M="$bdir" ${KMAKEFLAGS:-} KCFLAGS=-Werror modules >&2
cp "$bdir/cp_bench.ko" "$out/"
echo "built for $series: cp_bench.ko"
