#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# root-clean.sh [--rpm]: inside a throwaway root (root.sh), nothing of an
# earlier, killed run is in it.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

in_pkgroot
if [ "${1:-}" = --rpm ]; then
	# before rpm-lib.sh makes it RHEL
	ktap_test_result "rpm's database opens, $pkg is not in it" not rpm -q "$pkg"
	ktap_test_result "no kernel of an earlier run in /boot or /lib/modules" \
		[ -z "$(find /boot /lib/modules -mindepth 1 2>/dev/null)" ]
else
	audit=$(dpkg --audit 2>&1)
	ktap_test_result "dpkg --audit reports nothing${audit:+: $audit}" [ -z "$audit" ]
	ktap_test_result "$pkg is not installed" [ -z "$(pkg_state | grep -v not-installed)" ]
fi
left=$(leftovers)
ktap_test_result "no file of ours in /usr/src, /var/lib/dkms, /lib/modules, /etc${left:+: $left}" [ -z "$left" ]
finish
