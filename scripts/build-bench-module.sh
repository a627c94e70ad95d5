#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the benchmark module, cp_bench.ko, for one kernel: bench/kernel/
# with its own copy of src/chainpool/*.[ch] (by build-extmod.sh).
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

KDIR=$kdir KVER='' CP_WERROR=1 "$top/scripts/build-extmod.sh" "$top/bench/kernel" "$top" \
	"$top/build/bench/obj/$series" "$out" >&2
echo "built for $series: cp_bench.ko"
