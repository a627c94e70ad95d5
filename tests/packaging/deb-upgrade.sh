#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The .deb installed, reinstalled and upgraded to release cp9: one version
# of ours after each step.  KVER=<release> picks the kernel.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

suite="deb-upgrade"
work=$top/build/pkg/test/$suite
[ "$release" != cp9 ] || ktap_exit_fail_msg "src/VERSION is already cp9: nothing to upgrade to"

start_install_test

step "building $release and cp9"
old=$(build_debs "$work/$release")
new=$(CP_RELEASE=cp9 build_debs "$work/cp9")
ktap_test_result "dpkg orders $(basename "$new") after $(basename "$old")" \
	dpkg --compare-versions "$base.cp9" gt "$base.$release"

# one_version RELEASE: exactly that version is everywhere.
one_version() {
	local r=$1 im
	only_version "$r" updates
	ktap_test_result "/var/lib/dkms/$name holds only $base.$r" \
		[ "$(find "/var/lib/dkms/$name" -mindepth 1 -maxdepth 1 -type d -printf '%f\n')" = "$base.$r" ]
	im=$(initrd_mpt3sas "$kver")
	echo "initramfs: $im"
	ktap_test_result "initramfs holds $base-$r only" \
		grep -qxE "[^ ]*/updates/dkms/mpt3sas\.ko(\.[a-z]+)? $base-$r" <<<"$im"
}

step "installing $(basename "$old")"
apt-get -q install -y "$old" 2>&1 | grep -v '^readelf: Warning'
one_version "$release"

step "reinstalling $(basename "$old")"
apt-get -q install -y --reinstall "$old" 2>&1 | grep -v '^readelf: Warning'
one_version "$release"

step "upgrading to $(basename "$new")"
apt-get -q install -y "$new" 2>&1 | grep -v '^readelf: Warning'
ktap_test_result "dpkg has $base.cp9" [ "$(dpkg-query -W -f='${Version}' "$pkg")" = "$base.cp9" ]
one_version cp9

purge_step
nothing_left purge

finish "$suite"
