#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mpt3sas.ko as it ships, built against Debian 12's 6.1 headers.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
ktap_print_header
kdir=$(host_kdir) ||
	ktap_exit_fail_msg "Debian 12's 6.1 headers are missing: apt-get install linux-headers-amd64"

base=$(sed -n 's/^driver_version=//p' "$top/src/mpt3sas/upstream.lock")
want="$base-$(cat "$top/src/VERSION")"
ko=$(KDIR=$kdir KVER='' CP_WERROR=1 "$top/scripts/build-module.sh" "$top/build/tree" "$top/build/check/obj" | tail -n 1)
ktap_test_result "built with -Werror: $ko" [ -f "$ko" ]

version=$(modinfo -F version "$ko")
vermagic=$(modinfo -F vermagic "$ko")
ktap_test_result "version is '$version', want '$want'" [ "$version" = "$want" ]
ktap_test_result "vermagic '$vermagic' is Debian 12's 6.1" grep -q '^6\.1\.0-.*-amd64 ' <<<"$vermagic"
for p in pool_allocator chainpool_slab_kb; do
	ktap_test_result "parameter $p: chainpool is linked in" \
		grep -q "^$p:" <<<"$(modinfo -F parm "$ko")"
done

# No fault injection in what ships: no parameter of it, and none of the
# symbols the test builds' hook brings (tests/lib/cp_fault.c).
knobs=$(modinfo -F parm "$ko" | grep -oE '^(pool_fail|chainpool_fail[a-z_]*)' || true)
ktap_test_result "no fault injection parameter (modinfo -p)${knobs:+: ${knobs//$'\n'/ }}" \
	[ -z "$knobs" ]
hooks=$(sed -n 's/^\(bool \|void \*\)\([a-z_]*\)(.*/\2/p' "$top/tests/lib/cp_fault.c")
ktap_test_result "test hooks of tests/lib/cp_fault.c: ${hooks//$'\n'/ }" [ -n "$hooks" ]
leaked=$(nm "$ko" | awk '{ print $NF }' | grep -xF -e "$hooks" -e __param_pool_fail || true)
ktap_test_result "no test hook in mpt3sas.ko (nm)${leaked:+: ${leaked//$'\n'/ }}" \
	[ -z "$leaked" ]
ktap_finished
