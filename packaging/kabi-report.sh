#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kabi-report.sh MODULE [STABLELIST]: the kernel symbols MODULE imports
# that the RHEL kABI stablelist does not guarantee (the "greylist"), one
# per line after a header.  A kernel update may change any of them, and
# weak-modules then no longer links the kmod into the new kernel: the
# kernel keeps its own mpt3sas until a kmod built for it is installed.
#
# STABLELIST: RHEL's kernel-abi-stablelists file, default
# /lib/modules/kabi-current/kabi_stablelist_<arch> (before RHEL 8.4,
# kernel-abi-whitelists' kabi_whitelist_<arch>): a section line, then a
# tab and a symbol per line.  Without it, says so and lists nothing.
#
# The kmod package's build prints this and ships it as kabi-report.txt.

set -eu
module=${1:?usage: kabi-report.sh MODULE [STABLELIST]}
list=${2:-}
if [ -z "$list" ]; then
	list=/lib/modules/kabi-current/kabi_stablelist_$(uname -m)
	[ -f "$list" ] || [ ! -f "${list/stablelist/whitelist}" ] || list=${list/stablelist/whitelist}
fi
export LC_ALL=C

imports=$(/sbin/modprobe --dump-modversions "$module" | awk '{ print $2 }' | sort -u)
[ -n "$imports" ] || { echo "kabi-report.sh: $module has no symbol versions (CONFIG_MODVERSIONS)" >&2; exit 1; }
n=$(wc -l <<<"$imports")
echo "# $(/sbin/modinfo -F name "$module") $(/sbin/modinfo -F version "$module")," \
	"built for $(/sbin/modinfo -F vermagic "$module" | cut -d' ' -f1): $n symbols imported"
if [ ! -f "$list" ]; then
	echo "# no kABI stablelist at $list (package kernel-abi-stablelists): not checked"
	exit 0
fi
grey=$(comm -23 <(echo "$imports") <(awk -F'\t' 'NF == 2 && $1 == "" { print $2 }' "$list" | sort -u))
echo "# not in $(head -n 1 "$list" | tr -d '[]') ($list):" \
	"$(grep -c . <<<"$grey" || :) of $n, which a kernel update may change"
[ -z "$grey" ] || echo "$grey"
