#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba-alloc/run.sh [--reduced] [OPTION VALUE]...: mpt3sas on the
# emulated SAS3008 (tests/hba/run.sh) while its DMA allocations fail, by
# pool_fail= of test builds with the fault hook (tests/lib/cp_fault.c).
# --reduced: the series tagged hba-alloc, sampled cases; else KERNELS
# (default all), every case, plain only: behind the IOMMU its IOVA caches
# keep hundreds of pages at N = 2048 with one-page slabs.  Options: --dir
# DIR, --tree DIR (the test builds' source), --modules DIR, --plan STEPS,
# and for tests/hba/run.sh --setups and --timeout.
#
# The test builds (cached by the tree's hash): mpt3sas_test_fault, and
# mpt3sas_test_rdpq in RDPQ array mode, which the emulated HBA does not
# model: it allocates in RDPQ's layout but hands the HBA the contiguous
# queues at IOC Init, the same memory while they fit in one RDPQ chunk.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
LOG_TAG=hba-alloc
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"

reduced='' out=$BUILD_ROOT/hba-alloc tree=$BUILD_ROOT/tree moddir=$BUILD_ROOT/modules
steps='' hba_opts=()
while [ $# -gt 0 ]; do
	[ "$1" = --reduced ] && { reduced=--reduced; shift; continue; }
	[ $# -ge 2 ] || die "usage: $0 [--reduced] [OPTION VALUE]... (see its header)"
	case $1 in
	--dir) out=$2 ;;
	--tree) tree=$2 ;;
	--modules) moddir=$2 ;;
	--plan) steps=$2 ;;
	--setups | --timeout) hba_opts+=("$1" "$2") ;;
	*) die "usage: $0 [--reduced] [OPTION VALUE]... (see its header)" ;;
	esac
	shift 2
done
if [ -n "$reduced" ]; then
	export KERNELS=${KERNELS:-$(kernel_series hba-alloc)}
	steps=${steps:-"@hba-alloc 256 reduced
@hba-faultwalk mpt3sas_test_fault chainpool reduced
@hba-faultwalk mpt3sas_test_fault dma_pool reduced
@hba-faultwalk mpt3sas_test_rdpq chainpool reduced"}
	hba_opts=(--timeout 900 "${hba_opts[@]}")
else
	export KERNELS=${KERNELS:-$(kernel_series)}
	hba_opts=(--setups plain "${hba_opts[@]}")
	steps=${steps:-"@hba-alloc 256 full
@hba-alloc 2048 full
@hba-faultwalk mpt3sas_test_fault chainpool full
@hba-faultwalk mpt3sas_test_fault dma_pool full
@hba-faultwalk mpt3sas_test_rdpq chainpool full
@hba-faultwalk mpt3sas_test_rdpq dma_pool full"}
fi
mkdir -p "$out"

# The test build's changes to mpt3sas_base.c, each line marked TEST BUILD.
rdpq_sed='
s/^\tfacts->IOCCapabilities = le32_to_cpu(mpi_reply.IOCCapabilities);$/&\n\tfacts->IOCCapabilities |= MPI2_IOCFACTS_CAPABILITY_RDPQ_ARRAY_CAPABLE; \/* TEST BUILD *\//
s/^\t\tmpi_request.MsgFlags = MPI2_IOCINIT_MSGFLAG_RDPQ_ARRAY_MODE;$/\t\t\/* TEST BUILD: the emulated HBA takes the queues contiguous *\//
s/^\t\t    cpu_to_le64((u64)ioc->reply_post_free_array_dma);$/\t\t    cpu_to_le64((u64)ioc->reply_post[0].reply_post_free_dma); \/* TEST BUILD *\//'

# build_test SERIES NAME [SED]: the test build NAME of $tree for SERIES,
# with the fault hook and SED's changes, into $mods/SERIES/NAME.ko
build_test() {
	local series=$1 name=$2 sed=${3:-} work=$BUILD_ROOT/hba-alloc-test-build/$1/$2 key ko
	"$top/tests/kernels/fetch.sh" "$series" >/dev/null
	# shellcheck disable=SC1090 # written by fetch.sh
	. "$(series_env "$series")"
	key=$( (cd "$tree" && find . -type f ! -path './compat/generated/*' | LC_ALL=C sort | xargs cat
		cat "$top/tests/lib/cp_fault".[ch]; echo "$sed $KVER") | sha256sum | cut -c1-16)
	if [ "$(cat "$work/key" 2>/dev/null)" != "$key" ] || [ ! -f "$work/mpt3sas.ko" ]; then
		log "$series: building the test build $name of ${tree#"$top"/}"
		rm -rf "$work"
		mkdir -p "$work"
		cp -r "$tree" "$work/tree"
		cp "$top/tests/lib/cp_fault".[ch] "$work/tree/mpt3sas/"
		if [ -n "$sed" ]; then
			sed -i "$sed" "$work/tree/mpt3sas/mpt3sas_base.c"
			[ "$(grep -c 'TEST BUILD' "$work/tree/mpt3sas/mpt3sas_base.c")" = 3 ] ||
				die "the test build's changes do not apply to $tree"
		fi
		ko=$(KDIR=$KDIR KVER='' KMAKEFLAGS="${KMAKEFLAGS:-} CP_FAULT=1" \
			"$top/scripts/build-module.sh" "$work/tree" "$work/obj" 2>"$work/build.log" | tail -n 1)
		[ -f "$ko" ] || die "$series: the test build $name failed ($work/build.log)"
		cp "$ko" "$work/mpt3sas.ko"
		echo "$key" > "$work/key"
	fi
	cp "$work/mpt3sas.ko" "$mods/$series/$name.ko"
}

# the modules: mpt3sas.ko and the test builds
mods=$out/test-modules
rm -rf "$mods"
# shellcheck disable=SC2086 # a list of series
need_modules "$moddir" "$out/matrix.log" $KERNELS
for series in $KERNELS; do
	mkdir -p "$mods/$series"
	cp "$moddir/$series/mpt3sas.ko" "$mods/$series/"
	build_test "$series" mpt3sas_test_fault
	! grep -q '^@hba-faultwalk ' <<<"$steps" || build_test "$series" mpt3sas_test_rdpq "$rdpq_sed"
done

# Two boots: guest/hba-alloc's plan lines plainly, then the walk's with
# slub_debug, so that a pool destroyed twice meets poisoned memory and
# oopses, or SLUB reports the double free: a splat either way.  (Its
# checks would slow hba-alloc's 373,959-chain attaches several times.)
rc=0
for part in alloc walk; do
	if [ $part = alloc ]; then
		plan=$(grep -v '^@hba-faultwalk ' <<<"$steps" || true) append=
	else
		plan=$(grep '^@hba-faultwalk ' <<<"$steps" || true) append=slub_debug=FZP
	fi
	[ -n "$plan" ] || continue
	"$top/tests/hba/run.sh" $reduced --name hba-alloc --dir "$out/$part" --modules "$mods" \
		--append "$append" --scripts "$here/guest" --plan "main=$plan" "${hba_opts[@]}" main || rc=1
done
exit $rc
