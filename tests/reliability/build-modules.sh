#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# BUILD_MODULES_CMD of tests/reliability/run.sh: mpt3sas.ko and
# chainpool_test.ko built by scripts/build-modules.sh from a private copy
# of the sources (under build/reliability/build/), optionally with one
# fault planted for detects-faults.sh; never from or into the shipped tree.
#
#   [REL_PLANT=NAME] build-modules.sh SERIES KVER KDIR OUTDIR
#
# NAME is tests/reliability/plants/NAME.patch (paths as in the repository).
# mpt3sas.ko is built from a copy of build/tree with our files replaced by
# the copy's, unless REL_MPT3SAS_DIR is set: then it is copied from
# REL_MPT3SAS_DIR/SERIES/.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
series=$1
out=$4
plant=${REL_PLANT:-}
# -Werror on our files, as the shipped build, except with a plant in them
werror=1
[ -z "$plant" ] || werror=

work=$top/build/reliability/build/${plant:-none}/$series
rm -rf "$work"
mkdir -p "$work/src/mpt3sas" "$work/tests" "$work/build" "$out"
cp -r "$top/src/chainpool" "$top/src/compat" "$work/src/"
cp "$top"/src/mpt3sas/cp_dmapool.[ch] "$work/src/mpt3sas/"
cp -r "$top/tests/kmod" "$top/tests/lib" "$work/tests/"
if [ -n "$plant" ]; then
	patch -d "$work" -p1 --fuzz=0 --no-backup-if-mismatch < "$here/plants/$plant.patch" >&2
	grep -rq PLANTED "$work/src" "$work/tests" || { echo "$plant: nothing planted" >&2; exit 1; }
fi

modules=chainpool_test
if [ -z "${REL_MPT3SAS_DIR:-}" ]; then
	# the assembled tree with the patched copies of our files in it
	modules="mpt3sas $modules"
	cp -r "$top/build/tree" "$work/build/tree"
	cp "$work"/src/chainpool/*.[ch] "$work/build/tree/chainpool/"
	cp "$work"/src/mpt3sas/cp_dmapool.[ch] "$work/build/tree/mpt3sas/"
else
	cp "$REL_MPT3SAS_DIR/$series/mpt3sas.ko" "$out/"
fi
BUILD_MODULES=$modules BUILD_SRC=$work BUILD_OBJ=$work/obj BUILD_WERROR=$werror \
	"$top/scripts/build-modules.sh" "$@" >&2
echo "built for $series${plant:+ with \"$plant\" planted}: $(cd "$out" && echo ./*.ko)"
