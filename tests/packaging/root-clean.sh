#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Inside a throwaway root (tests/packaging/root.sh): the root is as made,
# with nothing of an earlier, killed run in it: dpkg has nothing half
# done, our package and its DKMS and module files are absent.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

in_pkgroot
audit=$(dpkg --audit 2>&1)
ktap_test_result "dpkg --audit reports nothing${audit:+: $audit}" [ -z "$audit" ]
ktap_test_result "$pkg is not installed" [ -z "$(pkg_state | grep -v not-installed)" ]
left=$(leftovers)
ktap_test_result "no file of ours in /usr/src, /var/lib/dkms, /lib/modules/*/updates, /etc${left:+: $left}" [ -z "$left" ]
finish root-clean
