#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Inside a throwaway root (tests/packaging/root.sh): the root is as made,
# with nothing of an earlier, killed run in it: dpkg has nothing half
# done, our package and its DKMS and module files are absent.
#
#   root-clean.sh          the Debian root
#   root-clean.sh --rpm    the RPM root

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

in_pkgroot
if [ "${1:-}" = --rpm ]; then
	# the RPM root (root.sh --rpm), before rpm-lib.sh makes it RHEL
	ktap_test_result "rpm's database opens, $pkg is not in it" not rpm -q "$pkg"
	left=$(leftovers; find /lib/modules/*/extra /lib/modules/*/weak-updates -name 'mpt3sas.ko*' 2>/dev/null || :)
	ktap_test_result "no file of ours in /usr/src, /var/lib/dkms, /lib/modules/*/updates|extra|weak-updates, /etc${left:+: $left}" [ -z "$left" ]
	ktap_test_result "no kernel of an earlier run in /boot or /lib/modules" \
		[ -z "$(find /boot /lib/modules -mindepth 1 2>/dev/null)" ]
	finish root-clean
	exit 0
fi
audit=$(dpkg --audit 2>&1)
ktap_test_result "dpkg --audit reports nothing${audit:+: $audit}" [ -z "$audit" ]
ktap_test_result "$pkg is not installed" [ -z "$(pkg_state | grep -v not-installed)" ]
left=$(leftovers)
ktap_test_result "no file of ours in /usr/src, /var/lib/dkms, /lib/modules/*/updates, /etc${left:+: $left}" [ -z "$left" ]
finish root-clean
