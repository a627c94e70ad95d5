#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build an external module that links its own objects of the allocator
# (the in-kernel tests, tests/kmod/; the benchmark, bench/kernel/) for one
# kernel: MODDIR's Kbuild and sources, SRCROOT/src/chainpool/*.[ch], the
# test helpers of SRCROOT/tests/lib/*.[ch] and, if the Kbuild links
# cp_dmapool.o, SRCROOT/src/mpt3sas/cp_dmapool.[ch], linked (not copied)
# into OBJDIR (emptied first) and built there with the
# kernel's Kbuild; the .ko files are copied to OUTDIR.  mpt3sas.ko itself
# is built by build-module.sh, from the assembled tree.
#
#   build-extmod.sh MODDIR SRCROOT OBJDIR OUTDIR
#
# Environment: KVER or KDIR (see kernel.sh), CP_WERROR (non-empty: build
# with -Werror), and KMAKEFLAGS for further make arguments a kernel needs
# (e.g. "CC=gcc-12").
#
# Prints the paths of the modules in OUTDIR on the last line.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 4 ] || { echo "usage: build-extmod.sh MODDIR SRCROOT OBJDIR OUTDIR" >&2; exit 2; }
moddir=$1
srcroot=$2
obj=$3
out=$4

read -r kver kdir <<<"$("$top/scripts/kernel.sh")"
rm -rf "$obj"
mkdir -p "$obj" "$out"
moddir=$(cd "$moddir" && pwd)
srcroot=$(cd "$srcroot" && pwd)
ln -s "$moddir/Kbuild" "$moddir"/*.[ch] "$srcroot"/src/chainpool/*.[ch] \
	"$srcroot"/tests/lib/*.[ch] "$obj/"
if grep -q '\<cp_dmapool\.o\>' "$moddir/Kbuild"; then
	ln -s "$srcroot"/src/mpt3sas/cp_dmapool.[ch] "$obj/"
fi
echo "build: $(basename "$moddir") for $kver ($kdir) in $obj"
# shellcheck disable=SC2086 # KMAKEFLAGS is a word list
make -C "$kdir" M="$obj" ${KMAKEFLAGS:-} ${CP_WERROR:+KCFLAGS=-Werror} modules >&2
kos=
for ko in "$obj"/*.ko; do
	[ -f "$ko" ] || { echo "build-extmod: no module built in $obj" >&2; exit 1; }
	cp "$ko" "$out/"
	kos="$kos $out/$(basename "$ko")"
done
echo "${kos# }"
