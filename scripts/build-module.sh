#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build mpt3sas.ko from the assembled tree for one kernel, the same way DKMS
# does: in a copy of the tree, through the tree's own Makefile, so the
# compat probes run against that kernel.
#
#   build-module.sh TREE_DIR OBJ_ROOT
#
# Environment: KVER or KDIR (see kernel.sh), CC, CP_WERROR, and KMAKEFLAGS
# for further make arguments a kernel needs (e.g. "CC=gcc-12").
#
# Prints the path of the built module on the last line.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$1
objroot=$2

read -r kver kdir <<<"$("$top/scripts/kernel.sh")"
obj=$objroot/$kver
rm -rf "$obj"
mkdir -p "$objroot"
cp -r "$tree" "$obj"
echo "build: mpt3sas for $kver ($kdir) in $obj"
# shellcheck disable=SC2086 # KMAKEFLAGS is a word list
make -j"$(nproc)" -C "$obj" KVER="$kver" KDIR="$kdir" ${CC:+CC="$CC"} \
	${CP_WERROR:+CP_WERROR="$CP_WERROR"} ${KMAKEFLAGS:-} >&2
echo "$obj/mpt3sas.ko"
