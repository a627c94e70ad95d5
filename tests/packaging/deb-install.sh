#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install the .deb on this machine (Debian 12, a 6.1 kernel image and its
# headers), check that dkms installed our mpt3sas for that kernel, that
# depmod, modprobe and the initramfs resolve to it, then purge it and check
# that the in-tree driver is back everywhere and nothing of ours is left.
#
#   tests/packaging/deb-install.sh       (KVER=<release> to pick the kernel)
#
# Leaves the initramfs image with our module in build/pkg/vm/ for the boot
# test (tests/vm/): initrd.img-<kver>, with vmlinuz-<kver> and kver.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

suite="deb-install"
work=$top/build/pkg/test/$suite
vm=$top/build/pkg/vm
want=$base-$(cat "$top/src/VERSION")

start_install_test
purge_pkg

intree_path=$(resolved_path "$kver")
intree_version=$(resolved_version "$kver")
case $intree_path in
*/kernel/drivers/scsi/mpt3sas/*) ;;
*) ktap_exit_fail_msg "before install, mpt3sas of $kver resolves to $intree_path, not the in-tree driver" ;;
esac
echo "in-tree: $intree_path $intree_version"

step "building the package"
deb=$(build_debs "$work")

step "installing $(basename "$deb")"
apt-get -q install -y "$deb" 2>&1 | tee "$work/install.log" | grep -v '^readelf: Warning'
ktap_test_result "package is installed" [ "$(pkg_state)" = "install ok installed" ]
dkms status -m "$name"
ktap_test_result "dkms status: installed for $kver" dkms_installed "$kver"
p=$(resolved_path "$kver")
v=$(resolved_version "$kver")
echo "modinfo -k $kver mpt3sas: $p $v"
ktap_test_result "modinfo version is $want" [ "$v" = "$want" ]
ktap_test_result "modinfo path is under updates/" glob "$p" "/lib/modules/$kver/updates/*"
d=$(show_depends_last "$kver")
echo "modprobe --show-depends: $d"
ktap_test_result "modprobe --show-depends loads updates/ mpt3sas" glob "$d" "insmod /lib/modules/$kver/updates/*mpt3sas.ko*"
ktap_test_result "/etc/modprobe.d/$name.conf is shipped, all comments" \
	not grep -qv -e '^#' -e '^$' "/etc/modprobe.d/$name.conf"
im=$(initrd_module "$kver" "$work/initrd")
echo "initramfs: $im"
ktap_test_result "initramfs holds our mpt3sas ($want) under updates/dkms" \
	grep -qE "/lib/modules/$kver/updates/dkms/mpt3sas\.ko(\.[a-z]+)? $want\$" <<<"$im"
ktap_test_result "initramfs holds one mpt3sas" [ "$(grep -c . <<<"$im")" = 1 ]

# Hook for the boot test: the image with our module, and its kernel.
mkdir -p "$vm"
cp "/boot/initrd.img-$kver" "$vm/initrd.img-$kver"
cp "/boot/vmlinuz-$kver" "$vm/vmlinuz-$kver"
echo "$kver" >"$vm/kver"
echo "boot test hook: $vm/initrd.img-$kver"

step "purging"
apt-get -q purge -y "$pkg" 2>&1 | tee "$work/purge.log" | grep -v '^readelf: Warning'
ktap_test_result "package is gone" [ -z "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -v not-installed)" ]
p=$(resolved_path "$kver")
v=$(resolved_version "$kver")
echo "modinfo -k $kver mpt3sas: $p $v"
ktap_test_result "resolution is back to the in-tree driver" [ "$p $v" = "$intree_path $intree_version" ]
d=$(show_depends_last "$kver")
ktap_test_result "modprobe --show-depends loads the in-tree driver" glob "$d" "insmod $intree_path*"
im=$(initrd_module "$kver" "$work/initrd")
echo "initramfs: $im"
ktap_test_result "initramfs holds the in-tree mpt3sas again" \
	grep -qE "/lib/modules/$kver/kernel/drivers/scsi/mpt3sas/mpt3sas\.ko(\.[a-z]+)? $intree_version\$" <<<"$im"
ktap_test_result "initramfs holds no updates/ mpt3sas" not grep -q /updates/ <<<"$im"
ktap_test_result "initramfs holds no $name modprobe.d file" \
	not grep -q "modprobe.d/$name" <<<"$(lsinitramfs "/boot/initrd.img-$kver")"
left=$(leftovers)
[ -z "$left" ] || echo "left: $left"
ktap_test_result "nothing left in /usr/src, /var/lib/dkms, /lib/modules/*/updates, /etc" [ -z "$left" ]
rm -rf "$work/initrd"

finish "$suite"
