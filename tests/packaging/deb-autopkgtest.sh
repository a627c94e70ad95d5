#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# debian/tests/control's Test-Command (dkms-autopkgtest) in the throwaway
# root, our .deb served from a local apt repository.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

start_install_test

step "building the package and a local repository of it"
deb=$(build_pkg "$work/repo")
(cd "$work/repo" && dpkg-scanpackages -m . >Packages) 2>/dev/null
echo "deb [trusted=yes] file:$work/repo ./" >/etc/apt/sources.list.d/$name-test.list
apt-get -q update -o Dir::Etc::SourceList=/dev/null \
	-o Dir::Etc::SourceParts=/etc/apt/sources.list.d >/dev/null ||
	ktap_exit_fail_msg "cannot read the local repository"
ktap_test_result "apt sees $(basename "$deb")" apt-cache show "$pkg"

# The source tree the test runs from: debian/ as shipped.
mkdir -p "$work/src"
cp -r "$top/packaging/deb/debian" "$work/src/"
mv "$work/src/debian/control.in" "$work/src/debian/control"

cmds=$(sed -n 's/^Test-Command: //p' "$top/packaging/deb/debian/tests/control")
ktap_test_result "debian/tests/control declares a Test-Command" [ -n "$cmds" ]
while read -r cmd; do
	[ -n "$cmd" ] || continue
	step "$cmd"
	rc=0
	(cd "$work/src" && $cmd) >"$work/test.log" 2>&1 </dev/null || rc=$?
	grep -E '^(I|E): ' "$work/test.log" | grep -v -e '^I:   ' | tail -n 12
	ktap_test_result "$cmd exits 0" [ "$rc" = 0 ]
	ktap_test_result "it tested $pkg" grep -q "^I: Testing binary package $pkg" "$work/test.log"
	ktap_test_result "it reports PASS for $kver" grep -qx "I: PASS $kver" "$work/test.log"
	ktap_test_result "it reports no FAIL" not grep -q '^I: FAIL' "$work/test.log"
done <<<"$cmds"

purge_step
finish
