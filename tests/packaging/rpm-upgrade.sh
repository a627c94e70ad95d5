#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the RPM root as RHEL $EL: install the RPM (README's dnf command),
# `dnf reinstall` it, then `dnf upgrade` to a higher release (built here
# with CP_RELEASE=cp9).  After each step exactly one version of ours is
# known to dkms, sits in /usr/src and is installed for the kernel, depmod
# resolves to it, the kernel's own mpt3sas.ko.xz is in place (rpm -V
# kernel-core clean), and the initramfs was rebuilt and holds that version.
# On the upgrade, rpm runs the new package's %post before the old one's
# %preun.  Its planted faults are in tests/plants/list.

set -eu
# shellcheck source=tests/packaging/rpm-lib.sh
. "$(dirname "$0")/rpm-lib.sh"

suite=rpm-upgrade-$el
work=$top/build/pkg/test/$suite
release=$(cat "$top/src/VERSION")
[ "$release" != cp9 ] || ktap_exit_fail_msg "src/VERSION is already cp9: nothing to upgrade to"

rpm_root_setup
intree=/lib/modules/$kver/kernel/drivers/scsi/mpt3sas/mpt3sas.ko.xz

step "building $release and cp9"
old=$(build_rpm "$work/$release")
new=$(CP_RELEASE=cp9 build_rpm "$work/cp9")
ktap_test_result "rpm orders cp9 after $release" \
	[ "$(rpm --eval "%{lua: print(rpm.vercmp('$base.cp9', '$base.$release'))}")" = 1 ]

# one_version RELEASE STAMP: exactly that version is everywhere, and the
# initramfs differs from STAMP (its checksum before the step).
one_version() {
	local r=$1 stamp=$2 im verify
	dkms status -m "$name"
	ktap_test_result "dkms knows only $base.$r" [ "$(dkms_versions)" = "$base.$r" ]
	ktap_test_result "dkms status: installed for $kver" dkms_installed "$kver"
	ktap_test_result "/usr/src holds only $name-$base.$r" \
		[ "$(ls -d /usr/src/"$name"-* 2>/dev/null)" = "/usr/src/$name-$base.$r" ]
	ktap_test_result "modinfo -k $kver: $base-$r" [ "$(resolved_version "$kver")" = "$base-$r" ]
	ktap_test_result "one mpt3sas under extra/ for $kver" \
		[ "$(find "/lib/modules/$kver/extra" -name 'mpt3sas.ko*' | wc -l)" = 1 ]
	verify=$(rpm -V "kernel-core-$kver" 2>&1) || :
	ktap_test_result "rpm -V kernel-core clean, $intree in place${verify:+: $verify}" [ -z "$verify" ]
	ktap_test_result "the initramfs was rebuilt" [ "$(sha256sum <"$(initramfs "$kver")")" != "$stamp" ]
	im=$(initrd_mpt3sas "$kver")
	echo "initramfs: $im"
	# hostonly="no": the in-tree copy is in the image too, never resolved
	ktap_test_result "initramfs: our mpt3sas is $base-$r, no other of ours" \
		[ "$(grep -vE "/kernel/drivers/scsi/mpt3sas/" <<<"$im" | sed 's/^.* //')" = "$base-$r" ]
	ktap_test_result "initramfs's modules.dep resolves mpt3sas to extra/" \
		dep_is "$kver" extra "$(initrd_dep "$kver")"
}
stamp() { sha256sum <"$(initramfs "$kver")"; }

s=$(stamp)
step "dnf install kernel-devel-$kver ./${old##*/}"
(cd "${old%/*}" && "${DNF[@]}" install "kernel-devel-$kver" "./${old##*/}") 2>&1 | tee "$work/install.log"
one_version "$release" "$s"

s=$(stamp)
step "dnf reinstall ./${old##*/}"
(cd "${old%/*}" && "${DNF[@]}" reinstall "./${old##*/}") 2>&1 | tee "$work/reinstall.log"
one_version "$release" "$s"

s=$(stamp)
step "dnf upgrade ./${new##*/}"
(cd "${new%/*}" && "${DNF[@]}" upgrade "./${new##*/}") 2>&1 | tee "$work/upgrade.log"
ktap_test_result "rpm has $base.cp9" [ "$(rpm -q --qf '%{VERSION}' "$pkg")" = "$base.cp9" ]
# dnf prints rpm's steps in the order they run: the new package in
# (%post) before the old one's cleanup (%preun).
up=$(grep -n "Upgrading *: $pkg-$base.cp9" "$work/upgrade.log" | cut -d: -f1 | head -n 1)
clean=$(grep -n "Cleanup *: $pkg-$base.$release" "$work/upgrade.log" | cut -d: -f1 | head -n 1)
before() { [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt "${1:-0}" ]; }
ktap_test_result "the new %post ran before the old %preun" before "$up" "$clean"
one_version cp9 "$s"

s=$(stamp)
step "dnf remove $pkg"
"${DNF[@]}" remove "$pkg" 2>&1 | tee "$work/remove.log"
left=$(rpm_leftovers)
[ -z "$left" ] || echo "left: $left"
ktap_test_result "nothing left after dnf remove" [ -z "$left" ]
ktap_test_result "the in-tree $intree is back" [ "$(resolved_path "$kver")" = "$intree" ]
finish "$suite"
