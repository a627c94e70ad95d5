#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Assemble the module source tree: our Kbuild files, allocator and shims
# from src/, plus the verified upstream driver with our patch series on
# top.  The result is what `make modules` builds and what DKMS installs.
#
#   assemble.sh UPSTREAM_DIR TREE_DIR

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
upstream=$(cd "$1" && pwd)
mkdir -p "$(dirname "$2")"
tree=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
patches=$top/src/mpt3sas/patches

LOG_TAG=assemble
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

[ -d "$upstream/drivers/scsi/mpt3sas" ] || die "no verified upstream driver in $upstream"

rm -rf "$tree.tmp"
mkdir -p "$tree.tmp/mpt3sas"
cp "$top/src/Kbuild" "$top/src/Makefile" "$top/src/VERSION" "$tree.tmp/"
for d in chainpool compat; do
	[ -d "$top/src/$d" ] && cp -r "$top/src/$d" "$tree.tmp/"
done
rm -rf "$tree.tmp/compat/generated"
# Sources only: upstream's Kconfig and Makefile have no use out of tree.
(cd "$upstream/drivers/scsi/mpt3sas" && cp -r mpi ./*.c ./*.h "$tree.tmp/mpt3sas/")
# Our driver-side glue joins the driver it serves.
cp "$top"/src/mpt3sas/*.c "$top"/src/mpt3sas/*.h "$tree.tmp/mpt3sas/"

# Strict: no fuzz, no reversed or already-applied hunks.
grep -v -e '^#' -e '^[[:space:]]*$' "$patches/series" | while read -r p; do
	[ -f "$patches/$p" ] || die "series names $p, which is missing"
	if ! out=$(patch -d "$tree.tmp" -p1 --fuzz=0 --forward --batch \
			--no-backup-if-mismatch -r - <"$patches/$p" 2>&1); then
		echo "$out" >&2
		die "patch $p does not apply to the pinned upstream"
	fi
done || exit 1

rm -rf "$tree"
mv "$tree.tmp" "$tree"
echo "assemble: $tree ready ($(grep -cv -e '^#' -e '^[[:space:]]*$' "$patches/series") patches applied)"
