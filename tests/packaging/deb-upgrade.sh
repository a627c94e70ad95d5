#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The .deb installed, reinstalled and upgraded to release cp9: one version
# of ours after each step.  KVER=<release> picks the kernel.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

[ "$release" != cp9 ] || ktap_exit_fail_msg "src/VERSION is already cp9: nothing to upgrade to"

start_install_test

step "building $release and cp9"
old=$(build_pkg "$work/$release")
new=$(CP_RELEASE=cp9 build_pkg "$work/cp9")

# apt_step RELEASE ARGS...: apt-get ARGS, after which exactly RELEASE's
# version is everywhere
apt_step() {
	local r=$1
	shift
	step "apt-get ${*##*/}"
	apt-get -q -y "$@" 2>&1 | grep -v '^readelf: Warning'
	only_version "$r" updates
	ktap_test_result "/var/lib/dkms/$name holds only $base.$r" \
		[ "$(find "/var/lib/dkms/$name" -mindepth 1 -maxdepth 1 -type d -printf '%f\n')" = "$base.$r" ]
	ktap_test_result "initramfs holds $base-$r only" \
		initrd_holds "$kver" "^[^ ]*/updates/dkms/mpt3sas\.ko(\.[a-z]+)? $base-$r\$"
}
apt_step "$release" install "$old"
apt_step "$release" install --reinstall "$old"
apt_step cp9 install "$new"
ktap_test_result "dpkg has $base.cp9" [ "$(dpkg-query -W -f='${Version}' "$pkg")" = "$base.cp9" ]

purge_step
finish
