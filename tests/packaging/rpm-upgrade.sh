#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the RPM root as RHEL $EL: the RPM installed, reinstalled and upgraded
# to release cp9: one version of ours after each step, the initramfs rebuilt.

set -eu
# shellcheck source=tests/packaging/rpm-lib.sh
. "$(dirname "$0")/rpm-lib.sh"

[ "$release" != cp9 ] || ktap_exit_fail_msg "src/VERSION is already cp9: nothing to upgrade to"

rpm_root_setup
intree=/lib/modules/$kver/kernel/drivers/scsi/mpt3sas/mpt3sas.ko.xz

step "building $release and cp9"
old=$(build_pkg "$work/$release")
new=$(CP_RELEASE=cp9 build_pkg "$work/cp9")

# dnf_step RELEASE ARGS...: dnf ARGS (its output in $work/ARG1.log), after
# which exactly RELEASE's version is everywhere, the initramfs rebuilt
dnf_step() {
	local r=$1 stamp im
	shift
	stamp=$(sha256sum <"$(initramfs "$kver")")
	step "dnf ${*##*/}"
	"${DNF[@]}" "$@" 2>&1 | tee "$work/$1.log"
	only_version "$r" extra
	ktap_test_result "rpm -V kernel-core clean, $intree in place" core_clean "$kver"
	ktap_test_result "the initramfs was rebuilt" [ "$(sha256sum <"$(initramfs "$kver")")" != "$stamp" ]
	im=$(initrd_mpt3sas "$kver")
	echo "initramfs: $im"
	# hostonly="no": the in-tree copy is in the image too, never resolved
	ktap_test_result "initramfs: our mpt3sas is $base-$r, no other of ours" \
		[ "$(grep -vE "/kernel/drivers/scsi/mpt3sas/" <<<"$im" | sed 's/^.* //')" = "$base-$r" ]
	ktap_test_result "initramfs's modules.dep resolves mpt3sas to extra/" dep_is "$kver" extra
}
dnf_step "$release" install "kernel-devel-$kver" "$old"
dnf_step "$release" reinstall "$old"
dnf_step cp9 upgrade "$new"
ktap_test_result "rpm has $base.cp9" [ "$(rpm -q --qf '%{VERSION}' "$pkg")" = "$base.cp9" ]
# dnf prints rpm's steps in the order they run: the new package in
# (%post) before the old one's cleanup (%preun).
up=$(grep -n "Upgrading *: $pkg-$base.cp9" "$work/upgrade.log" | cut -d: -f1 | head -n 1)
clean=$(grep -n "Cleanup *: $pkg-$base.$release" "$work/upgrade.log" | cut -d: -f1 | head -n 1)
before() { [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt "${1:-0}" ]; }
ktap_test_result "the new %post ran before the old %preun" before "$up" "$clean"

step "dnf remove $pkg"
"${DNF[@]}" remove "$pkg" 2>&1 | tee "$work/remove.log"
nothing_left "dnf remove"
ktap_test_result "the in-tree $intree is back" [ "$(resolved_path "$kver")" = "$intree" ]
finish
