#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the modules one kernel's guests load: the VM harness's
# BUILD_MODULES_CMD (tests/vm/run.sh exports KMAKEFLAGS for it), for
# make matrix, vmtest, check-debug, bench and the reliability suites.
#
#   [BUILD_MODULES="..."] build-modules.sh SERIES KVER KDIR OUTDIR
#
# BUILD_MODULES names them (default "mpt3sas chainpool_test"):
#   mpt3sas         from BUILD_SRC/build/tree, as DKMS does (build-module.sh)
#   chainpool_test  tests/kmod/, the in-kernel tests    } with the allocator of
#   cp_bench        bench/kernel/, the benchmark        } BUILD_SRC (build-extmod.sh)
# BUILD_SRC is the source root (default: this checkout; the reliability
# plants give a patched copy), BUILD_OBJ where the objects go (default
# build/modules-obj/SERIES); BUILD_WERROR= (empty) drops -Werror on our files.
# The .ko files land in OUTDIR.  On a machine of your own:
#
#   BUILD_MODULES=cp_bench scripts/build-modules.sh local "$(uname -r)" \
#       /lib/modules/"$(uname -r)"/build build/bench/local

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 4 ] || { echo "usage: build-modules.sh SERIES KVER KDIR OUTDIR" >&2; exit 2; }
series=$1
kdir=$3
out=$4
src=${BUILD_SRC:-$top}
obj=${BUILD_OBJ:-$top/build/modules-obj/$series}
export KDIR=$kdir KVER='' CP_WERROR=${BUILD_WERROR-1}

mkdir -p "$out"
for m in ${BUILD_MODULES:-mpt3sas chainpool_test}; do
	case $m in
	mpt3sas)
		ko=$("$top/scripts/build-module.sh" "$src/build/tree" "$obj" | tail -n 1)
		cp "$ko" "$out/" ;;
	chainpool_test) "$top/scripts/build-extmod.sh" "$src/tests/kmod" "$src" "$obj/$m" "$out" >&2 ;;
	cp_bench) "$top/scripts/build-extmod.sh" "$src/bench/kernel" "$src" "$obj/$m" "$out" >&2 ;;
	*) echo "build-modules.sh: no module $m" >&2; exit 2 ;;
	esac
done
echo "built for $series: $(cd "$out" && echo ./*.ko)"
