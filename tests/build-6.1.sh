#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build mpt3sas.ko against Debian 12's 6.1 headers with -Werror on our own
# files, then check what modinfo reports: our version string, the 6.1
# vermagic, and the allocator's parameters (chainpool is linked in).

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
kdir=$(find /lib/modules -mindepth 2 -maxdepth 2 -path '/lib/modules/6.1.0-*-amd64/build' 2>/dev/null | sort -V | tail -n 1)
[ -n "$kdir" ] || { echo "Debian 12's 6.1 headers are missing: apt-get install linux-headers-amd64" >&2; exit 1; }

base=$(sed -n 's/^driver_version=//p' "$top/src/mpt3sas/upstream.lock")
want="$base-$(cat "$top/src/VERSION")"
ko=$(KDIR=$kdir KVER='' CP_WERROR=1 "$top/scripts/build-module.sh" "$top/build/tree" "$top/build/check/obj" | tail -n 1)

version=$(modinfo -F version "$ko")
vermagic=$(modinfo -F vermagic "$ko")
echo "version:  $version"
echo "vermagic: $vermagic"
[ "$version" = "$want" ] || { echo "FAIL: version is '$version', want '$want'" >&2; exit 1; }
case $vermagic in
6.1.0-*-amd64\ *) ;;
*) echo "FAIL: vermagic '$vermagic' is not Debian 12's 6.1" >&2; exit 1 ;;
esac
for p in pool_allocator chainpool_slab_kb; do
	modinfo -F parm "$ko" | grep -q "^$p:" ||
		{ echo "FAIL: parameter $p missing: chainpool is not linked in" >&2; exit 1; }
done
echo "ok: $ko"
