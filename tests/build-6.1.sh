#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build mpt3sas.ko against Debian 12's 6.1 headers with -Werror on our own
# files, then check what modinfo reports: our version string, the 6.1
# vermagic, and the allocator's parameters (chainpool is linked in); and
# that none of chainpool's test hooks (CHAINPOOL_TESTING) is in it.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header
kdir=$(find /lib/modules -mindepth 2 -maxdepth 2 -path '/lib/modules/6.1.0-*-amd64/build' 2>/dev/null | sort -V | tail -n 1)
[ -n "$kdir" ] || ktap_exit_fail_msg "Debian 12's 6.1 headers are missing: apt-get install linux-headers-amd64"

base=$(sed -n 's/^driver_version=//p' "$top/src/mpt3sas/upstream.lock")
want="$base-$(cat "$top/src/VERSION")"
ko=$(KDIR=$kdir KVER='' CP_WERROR=1 "$top/scripts/build-module.sh" "$top/build/tree" "$top/build/check/obj" | tail -n 1)
ktap_test_result "built with -Werror: $ko" [ -f "$ko" ]

version=$(modinfo -F version "$ko")
vermagic=$(modinfo -F vermagic "$ko")
ktap_test_result "version is '$version', want '$want'" [ "$version" = "$want" ]
case $vermagic in
6.1.0-*-amd64\ *) ktap_test_pass "vermagic '$vermagic' is Debian 12's 6.1" ;;
*) ktap_test_fail "vermagic '$vermagic' is not Debian 12's 6.1" ;;
esac
for p in pool_allocator chainpool_slab_kb; do
	ktap_test_result "parameter $p: chainpool is linked in" \
		grep -q "^$p:" <<<"$(modinfo -F parm "$ko")"
done

# The hooks are the functions src/chainpool/*.h declares under
# CHAINPOOL_TESTING (comments left out); a build that defined it would
# export them from the driver.
hooks=$(sed -n '/^#ifdef CHAINPOOL_TESTING/,/^#\(else\|endif\)/p' "$top"/src/chainpool/*.h |
	grep -v '^[[:space:]]*[/*]' | grep -o '\<chainpool_[a-z_]*(' | tr -d '(' | sort -u)
ktap_test_result "test hooks declared under CHAINPOOL_TESTING: $(wc -w <<<"$hooks")" \
	[ -n "$hooks" ]
leaked=$(nm --defined-only -g "$ko" | awk '{ print $3 }' | grep -xF "$hooks" || true)
ktap_test_result "no test hook in mpt3sas.ko (nm)${leaked:+: ${leaked//$'\n'/ }}" \
	[ -z "$leaked" ]
ktap_finished
