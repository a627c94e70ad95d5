#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the modules one kernel's guests load: the VM harness's
# tests/vm/run.sh --build (which exports KMAKEFLAGS for it), for
# make matrix, vmtest, check-debug, bench and the reliability suites.
#
#   [BUILD_MODULES="..."] build-modules.sh SERIES KVER KDIR OUTDIR
#
# BUILD_MODULES names them (default "mpt3sas chainpool_test"):
#   mpt3sas         from BUILD_SRC/build/tree, as DKMS does (build-module.sh)
#   chainpool_test  tests/kmod/, the in-kernel tests
#   cp_bench        bench/kernel/, the benchmark
#   cp_bench_base   the same from BENCH_BASE_SRC (make bench BENCH_BASE=)
# The last two link their own objects of the allocator: their folder's
# Kbuild and sources, src/chainpool/*.[ch] and chainpool.mk,
# tests/lib/*.[ch] and, if the Kbuild links cp_dmapool.o,
# src/mpt3sas/cp_dmapool.[ch] of BUILD_SRC are
# linked (not copied) into an emptied build directory and built there
# with the kernel's Kbuild.
#
# BUILD_SRC is the source root (default: this checkout; the reliability
# plants give a patched copy), BUILD_OBJ where the objects go (default
# build/modules-obj/SERIES); BUILD_WERROR= (empty) drops -Werror on our
# files.  The .ko files land in OUTDIR.  On a machine of your own:
#
#   BUILD_MODULES=cp_bench scripts/build-modules.sh local "$(uname -r)" \
#       /lib/modules/"$(uname -r)"/build build/bench/local

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 4 ] || { echo "usage: build-modules.sh SERIES KVER KDIR OUTDIR" >&2; exit 2; }
series=$1
kdir=$3
out=$4
src=$(cd "${BUILD_SRC:-$top}" && pwd)
obj=${BUILD_OBJ:-$top/build/modules-obj/$series}
werror=${BUILD_WERROR-1}

# extmod MODDIR NAME [SRC]: one module with its own allocator objects,
# into OUTDIR
extmod() {
	local src=${3:-$src}
	local moddir=$src/$1 dir=$obj/$2

	rm -rf "$dir"
	mkdir -p "$dir"
	ln -s "$moddir/Kbuild" "$moddir"/*.[ch] "$src"/src/chainpool/*.[ch] \
		"$src"/src/chainpool/chainpool.mk \
		"$src"/tests/lib/*.[ch] "$dir/"
	if grep -q '\<cp_dmapool\.o\>' "$moddir/Kbuild"; then
		ln -s "$src"/src/mpt3sas/cp_dmapool.[ch] "$dir/"
	fi
	echo "build: $2 for $series ($kdir) in $dir" >&2
	# chainpool.c's compat shims, with this kernel's probe results (kept)
	# shellcheck disable=SC2086 # KMAKEFLAGS is a word list (CC= for old headers)
	make -s -f "$src/src/compat/probe.mk" KDIR="$kdir" OUT="$obj/compat-probed" ${KMAKEFLAGS:-} >&2
	# shellcheck disable=SC2086 # KMAKEFLAGS is a word list
	make -j"$(nproc)" -C "$kdir" M="$dir" CP_COMPAT="$src/src/compat" CP_COMPAT_OUT="$obj/compat-probed" \
		${KMAKEFLAGS:-} ${werror:+KCFLAGS=-Werror} modules >&2
	[ -f "$dir/$2.ko" ] || { echo "build-modules.sh: no $2.ko built in $dir" >&2; exit 1; }
	cp "$dir/$2.ko" "$out/"
}

mkdir -p "$out"
for m in ${BUILD_MODULES:-mpt3sas chainpool_test}; do
	case $m in
	mpt3sas)
		ko=$(KDIR=$kdir KVER='' CP_WERROR=$werror \
			"$top/scripts/build-module.sh" "$src/build/tree" "$obj" | tail -n 1)
		cp "$ko" "$out/" ;;
	chainpool_test) extmod tests/kmod "$m" ;;
	cp_bench) extmod bench/kernel "$m" ;;
	cp_bench_base) extmod bench/kernel "$m" "$BENCH_BASE_SRC" ;;
	*) echo "build-modules.sh: no module $m" >&2; exit 2 ;;
	esac
done
echo "built for $series: $(cd "$out" && echo ./*.ko)"
