#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install the .deb, reinstall it, then upgrade to a higher release (built
# here with CP_RELEASE=cp9): after each step exactly one version of ours is
# known to dkms, sits in /usr/src and is installed for the kernel, and
# depmod and the initramfs resolve mpt3sas to that version.  Purges at the
# end.
#
#   tests/packaging/deb-upgrade.sh       (KVER=<release> to pick the kernel)

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

suite="deb-upgrade"
work=$top/build/pkg/test/$suite
release=$(cat "$top/src/VERSION")
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
	dkms status -m "$name"
	ktap_test_result "dkms knows only $base.$r" [ "$(dkms_versions)" = "$base.$r" ]
	ktap_test_result "dkms status: installed for $kver" dkms_installed "$kver"
	ktap_test_result "/usr/src holds only $name-$base.$r" \
		[ "$(ls -d /usr/src/"$name"-* 2>/dev/null)" = "/usr/src/$name-$base.$r" ]
	ktap_test_result "/var/lib/dkms/$name holds only $base.$r" \
		[ "$(find "/var/lib/dkms/$name" -mindepth 1 -maxdepth 1 -type d -printf '%f\n')" = "$base.$r" ]
	ktap_test_result "modinfo -k $kver: $base-$r" [ "$(resolved_version "$kver")" = "$base-$r" ]
	ktap_test_result "one mpt3sas under updates/ for $kver" \
		[ "$(find "/lib/modules/$kver/updates" -name 'mpt3sas.ko*' | wc -l)" = 1 ]
	im=$(initrd_module "$kver" "$work/initrd")
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
nothing_left
rm -rf "$work/initrd"

finish "$suite"
