#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the RPM root as RHEL $EL: README's dnf install of the RPM, then dnf
# remove; keeps vmlinuz and initramfs for initrd-boot.sh --rpm.
# --kernel-after: between the two, the other bundle's kernel through dnf.

set -eu
# shellcheck source=tests/packaging/rpm-lib.sh
. "$(dirname "$0")/rpm-lib.sh"

case ${1:-} in
--kernel-after | '') after=${1:-} ;;
*) ktap_exit_fail_msg "usage: rpm-install.sh [--kernel-after]" ;;
esac

rpm_root_setup
ktap_test_result "rpm -V kernel-core is clean before" core_clean "$kver"
intree_path=$(resolved_path "$kver")
intree_version=$(resolved_version "$kver")
echo "in-tree: $intree_path $intree_version"
ktap_test_result "before: mpt3sas resolves to the in-tree mpt3sas.ko.xz" \
	[ "$intree_path" = "/lib/modules/$kver/kernel/drivers/scsi/mpt3sas/mpt3sas.ko.xz" ]

step "building the package"
rpmf=$(build_pkg "$work/pkg")

step "dnf install kernel-devel-$kver ./${rpmf##*/}"
(cd "${rpmf%/*}" && "${DNF[@]}" install "kernel-devel-$kver" "./${rpmf##*/}") 2>&1 |
	tee "$work/install.log"
ktap_test_result "$pkg is installed" rpm -q "$pkg"
ktap_test_result "dkms came from the repository" rpm -q dkms
dkms status
ktap_test_result "dkms status: installed for $kver" dkms_installed "$kver"
ours_resolved "$kver" extra
# dkms 3.1.8+ leaves an in-tree module in place when it is not in
# DEST_MODULE_LOCATION (ours is updates/, the in-tree one kernel/...).
ktap_test_result "rpm -V kernel-core is clean: dkms moved no in-tree file" core_clean "$kver"
# hostonly="no" takes all of drivers/scsi, the in-tree copy too
ktap_test_result "initramfs holds our mpt3sas ($ourver) under extra/" initrd_has "$kver" extra
ktap_test_result "initramfs's modules.dep resolves mpt3sas to extra/ only" dep_is "$kver" extra

save_boot "$top/build/pkg/rpm-vm/$el" "$kver" "$(initramfs "$kver")"

if [ -n "$after" ]; then
	step "a kernel afterwards: dnf install kernel-core-$kver2 kernel-devel-$kver2"
	"${DNF[@]}" install "kernel-core-$kver2" "kernel-devel-$kver2" 2>&1 | tee "$work/kernel2.log"
	dkms status
	ktap_test_result "dkms status: installed for $kver2 (dkms's kernel-install plugin)" dkms_installed "$kver2"
	order=$(find /usr/lib/kernel/install.d /etc/kernel/install.d -name '*.install' -printf '%f\n' 2>/dev/null |
		sort | grep -E 'dkms|dracut|mpt3sas-chainpool' | paste -sd' ')
	ktap_test_result "the package's kernel hook runs after dkms's, before dracut's ($order)" \
		glob "$order" "*dkms.install 45-mpt3sas-chainpool.install *dracut.install"
	ktap_test_result "its kernel hook: no warning for $kver2" not grep -q "$name: WARNING" "$work/kernel2.log"
	ktap_test_result "rpm -V kernel-core-$kver2 is clean" core_clean "$kver2"
	ktap_test_result "modinfo -k $kver2: ours under extra/" glob "$(resolved_path "$kver2")" "/lib/modules/$kver2/extra/*"
	ktap_test_result "the initramfs of $kver2 holds ours ($ourver)" initrd_has "$kver2" extra
fi

step "dnf remove $pkg"
"${DNF[@]}" remove "$pkg" 2>&1 | tee "$work/remove.log"
ktap_test_result "$pkg is gone" not rpm -q "$pkg"
ktap_test_result "rpm -V kernel-core is clean: the in-tree mpt3sas.ko.xz at its own path" core_clean "$kver"
intree_back "$kver" "$intree_path $intree_version"
im=$(initrd_mpt3sas "$kver")
echo "initramfs: $im"
ktap_test_result "initramfs holds the in-tree mpt3sas only" \
	[ "$(sed 's|^usr/|/|; s|^\([^/]\)|/\1|' <<<"$im")" = "$intree_path $intree_version" ]
ktap_test_result "initramfs's modules.dep resolves mpt3sas to the in-tree driver" \
	dep_is "$kver" kernel/drivers/scsi/mpt3sas
nothing_left "dnf remove"
finish
