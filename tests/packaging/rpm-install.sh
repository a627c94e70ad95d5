#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the RPM root (root.sh --rpm) as RHEL $EL (el8.10, el9.4), with that
# bundle's kernel-core installed through dnf: README's command,
#   dnf install kernel-devel-<release> ./mpt3sas-chainpool-dkms-<v>-1.noarch.rpm
# against the local repository (dkms comes from it).  Checks dkms status,
# modinfo -k and modprobe --show-depends resolve ours, rpm -V kernel-core,
# and that the initramfs holds ours; keeps vmlinuz and initramfs for the
# boot test (build/pkg/rpm-vm/$EL/); then dnf remove: the in-tree
# mpt3sas.ko.xz is back, rpm -V kernel-core is clean, nothing of ours is
# left.
#
#   rpm-install.sh            install, then remove
#   rpm-install.sh --kernel-after
#                             between the two, the other bundle's kernel-core
#                             and kernel-devel through dnf: dkms's
#                             kernel-install plugin builds ours for it, its
#                             initramfs has it
#
# Its planted faults are in tests/plants/list.

set -eu
# shellcheck source=tests/packaging/rpm-lib.sh
. "$(dirname "$0")/rpm-lib.sh"

after=
case ${1:-} in
--kernel-after) after=1 ;;
'') ;;
*) ktap_exit_fail_msg "usage: rpm-install.sh [--kernel-after]" ;;
esac
suite=rpm-install-$el
work=$top/build/pkg/test/$suite
want=$base-$(cat "$top/src/VERSION")

rpm_root_setup
ktap_test_result "rpm -V kernel-core is clean before" rpm -V "kernel-core-$kver"
intree_path=$(resolved_path "$kver")
intree_version=$(resolved_version "$kver")
echo "in-tree: $intree_path $intree_version"
ktap_test_result "before: mpt3sas resolves to the in-tree mpt3sas.ko.xz" \
	[ "$intree_path" = "/lib/modules/$kver/kernel/drivers/scsi/mpt3sas/mpt3sas.ko.xz" ]

step "building the package"
rpmf=$(build_rpm "$work/pkg")

step "dnf install kernel-devel-$kver ./${rpmf##*/}"
(cd "${rpmf%/*}" && "${DNF[@]}" install "kernel-devel-$kver" "./${rpmf##*/}") 2>&1 |
	tee "$work/install.log"
ktap_test_result "$pkg is installed" rpm_installed
ktap_test_result "dkms came from the repository" rpm -q dkms
dkms status
ktap_test_result "dkms status: installed for $kver" dkms_installed "$kver"
p=$(resolved_path "$kver")
v=$(resolved_version "$kver")
echo "modinfo -k $kver mpt3sas: $p $v"
ktap_test_result "modinfo version is $want" [ "$v" = "$want" ]
ktap_test_result "modinfo path is under extra/" glob "$p" "/lib/modules/$kver/extra/*"
d=$(show_depends_last "$kver")
echo "modprobe --show-depends: $d"
ktap_test_result "modprobe --show-depends loads extra/ mpt3sas" glob "$d" "insmod /lib/modules/$kver/extra/*mpt3sas.ko*"
# dkms 3.1.8+ leaves an in-tree module in place when it is not in
# DEST_MODULE_LOCATION (ours is updates/, the in-tree one kernel/...).
verify=$(rpm -V "kernel-core-$kver" 2>&1) || :
[ -z "$verify" ] || echo "rpm -V kernel-core-$kver: $verify"
ktap_test_result "rpm -V kernel-core is clean: dkms moved no in-tree file" [ -z "$verify" ]
ktap_test_result "the in-tree mpt3sas.ko.xz is still at its own path" [ -f "$intree_path" ]
im=$(initrd_mpt3sas "$kver")
echo "initramfs: $im"
# hostonly="no" takes all of drivers/scsi, the in-tree copy too
ktap_test_result "initramfs holds our mpt3sas ($want) under extra/" \
	grep -qE "/lib/modules/$kver/extra/mpt3sas\.ko(\.[a-z]+)? $want\$" <<<"$im"
d=$(initrd_dep "$kver")
echo "initramfs modules.dep: $d"
ktap_test_result "initramfs's modules.dep resolves mpt3sas to extra/ only" dep_is "$kver" extra "$d"

save_boot "$top/build/pkg/rpm-vm/$el"
echo "boot test hook: $top/build/pkg/rpm-vm/$el"

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
	verify=$(rpm -V "kernel-core-$kver2" 2>&1) || :
	ktap_test_result "rpm -V kernel-core-$kver2 is clean${verify:+: $verify}" [ -z "$verify" ]
	p=$(resolved_path "$kver2")
	ktap_test_result "modinfo -k $kver2: ours under extra/" glob "$p" "/lib/modules/$kver2/extra/*"
	im=$(initrd_mpt3sas "$kver2")
	echo "initramfs of $kver2: $im"
	ktap_test_result "the initramfs of $kver2 holds ours ($want)" \
		grep -qE "/lib/modules/$kver2/extra/mpt3sas\.ko(\.[a-z]+)? $want\$" <<<"$im"
fi

step "dnf remove $pkg"
"${DNF[@]}" remove "$pkg" 2>&1 | tee "$work/remove.log"
ktap_test_result "$pkg is gone" not rpm -q "$pkg"
ktap_test_result "the in-tree mpt3sas.ko.xz is at its own path" [ -f "$intree_path" ]
verify=$(rpm -V "kernel-core-$kver" 2>&1) || :
[ -z "$verify" ] || echo "rpm -V kernel-core-$kver: $verify"
ktap_test_result "rpm -V kernel-core is clean" [ -z "$verify" ]
intree_back "$kver" "$intree_path $intree_version"
im=$(initrd_mpt3sas "$kver")
echo "initramfs: $im"
ktap_test_result "initramfs holds the in-tree mpt3sas only" \
	[ "$(sed 's|^usr/|/|; s|^\([^/]\)|/\1|' <<<"$im")" = "$intree_path $intree_version" ]
ktap_test_result "initramfs's modules.dep resolves mpt3sas to the in-tree driver" \
	dep_is "$kver" kernel/drivers/scsi/mpt3sas "$(initrd_dep "$kver")"
left=$(rpm_leftovers)
[ -z "$left" ] || echo "left: $left"
ktap_test_result "nothing left in /usr/src, /var/lib/dkms, /lib/modules/*/extra|updates|weak-updates, /etc" [ -z "$left" ]
finish "$suite"
