#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel hook of mpt3sas-chainpool, run after dkms's own when a kernel
# (or its headers) is installed:
#
#   Debian: /etc/kernel/postinst.d/dkms-mpt3sas-chainpool KVER [IMAGE]
#           /etc/kernel/header_postinst.d/dkms-mpt3sas-chainpool KVER
#           (run-parts: after dkms, before initramfs-tools)
#   RHEL:   /usr/lib/kernel/install.d/45-mpt3sas-chainpool.install
#           add KVER ENTRY_DIR IMAGE (after 40-dkms, before 50-dracut)
#
# dkms's hook builds and installs ours by dkms's own rules: it keeps a
# newer in-tree driver, and a failed build, a kernel out of range or a key
# the firmware does not know leave the kernel as it is, without a word
# about the HBA.  This hook applies the package's rules to that kernel
# (kernel-setup.sh hook): ours over a newer in-tree driver that lacks a
# present HBA, and one loud warning where a present HBA would boot with
# no driver.  A no-op once the package is removed (its /usr/src tree gone).

case ${1:-} in
add) kver=${2:-} ;;
remove) exit 0 ;;
*) kver=${1:-} ;;
esac
[ -n "$kver" ] || exit 0
setup=
for f in /usr/src/mpt3sas-chainpool-*/kernel-setup.sh; do
	[ -f "$f" ] && setup=$f
done
[ -n "$setup" ] || exit 0
bash "$setup" hook "$kver"
exit 0
