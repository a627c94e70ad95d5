#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# build-modules.sh [--mpt3sas DIR] SERIES KVER KDIR OUTDIR: the modules of
# the suites in QEMU by scripts/build-modules.sh from a private copy of the
# checkout: chainpool_test.ko, and mpt3sas.ko from build/tree with the
# checkout's files of ours, or DIR/SERIES/'s.

set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
mpt3sas_dir=''
if [ "$1" = --mpt3sas ]; then
	mpt3sas_dir=$2
	shift 2
fi
series=$1
out=$4

work=$top/build/reliability/build/$series
rm -rf "$work"
mkdir -p "$work/src/mpt3sas" "$work/tests" "$work/build" "$out"
cp -r "$top/src/chainpool" "$top/src/compat" "$work/src/"
cp "$top"/src/mpt3sas/cp_dmapool.[ch] "$work/src/mpt3sas/"
cp -r "$top/tests/kmod" "$top/tests/lib" "$work/tests/"

modules=chainpool_test
if [ -z "$mpt3sas_dir" ]; then
	# the assembled tree with the checkout's copies of our files in it
	modules="mpt3sas $modules"
	cp -r "$top/build/tree" "$work/build/tree"
	cp "$work"/src/chainpool/*.[ch] "$work/build/tree/chainpool/"
	cp "$work"/src/mpt3sas/cp_dmapool.[ch] "$work/build/tree/mpt3sas/"
else
	cp "$mpt3sas_dir/$series/mpt3sas.ko" "$out/"
fi
BUILD_MODULES=$modules BUILD_SRC=$work BUILD_OBJ=$work/obj BUILD_WERROR=1 \
	"$top/scripts/build-modules.sh" "$@" >&2
echo "built for $series: $(cd "$out" && echo ./*.ko)"
