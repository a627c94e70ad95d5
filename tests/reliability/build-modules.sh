#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# BUILD_MODULES_CMD of tests/reliability/run.sh: mpt3sas.ko and
# chainpool_test.ko built from a private copy of the sources (under
# build/reliability/build/), optionally with one fault planted for
# detects-faults.sh; never from or into the shipped tree.
#
#   [REL_PLANT=NAME] build-modules.sh SERIES KVER KDIR OUTDIR
#
# NAME is tests/reliability/plants/NAME.patch (paths as in the repository).
# chainpool_test.ko is always built from the copy (by
# scripts/build-extmod.sh); mpt3sas.ko too (by scripts/build-module.sh, from a
# copy of build/tree with our files replaced by the copy's) unless
# REL_MPT3SAS_DIR is set: then it is copied from REL_MPT3SAS_DIR/SERIES/.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
series=$1
kdir=$3
out=$4
plant=${REL_PLANT:-}
# -Werror on our files, as the shipped build, except with a plant in them
werror=1
[ -z "$plant" ] || werror=

work=$top/build/reliability/build/${plant:-none}/$series
rm -rf "$work"
mkdir -p "$work/src/mpt3sas" "$work/tests" "$work/build" "$out"
cp -r "$top/src/chainpool" "$work/src/"
cp "$top"/src/mpt3sas/cp_dmapool.[ch] "$work/src/mpt3sas/"
cp -r "$top/tests/kmod" "$work/tests/"
if [ -n "$plant" ]; then
	patch -d "$work" -p1 --fuzz=0 --no-backup-if-mismatch < "$here/plants/$plant.patch" >&2
	grep -rq PLANTED "$work/src" "$work/tests" || { echo "$plant: nothing planted" >&2; exit 1; }
fi

KDIR=$kdir KVER='' CP_WERROR=$werror "$top/scripts/build-extmod.sh" "$work/tests/kmod" "$work" \
	"$work/chainpool_test" "$out" >&2

if [ -z "${REL_MPT3SAS_DIR:-}" ]; then
	# the assembled tree with the patched copies of our files in it
	cp -r "$top/build/tree" "$work/build/tree"
	cp "$work"/src/chainpool/*.[ch] "$work/build/tree/chainpool/"
	cp "$work"/src/mpt3sas/cp_dmapool.[ch] "$work/build/tree/mpt3sas/"
	ko=$(KDIR=$kdir KVER='' CP_WERROR=$werror "$top/scripts/build-module.sh" "$work/build/tree" \
		"$work/obj" | tail -n 1)
	cp "$ko" "$out/"
else
	cp "$REL_MPT3SAS_DIR/$series/mpt3sas.ko" "$out/"
fi
echo "built for $series${plant:+ with \"$plant\" planted}: $(cd "$out" && echo ./*.ko)"
