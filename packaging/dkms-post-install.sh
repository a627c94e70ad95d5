#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dkms POST_INSTALL of mpt3sas-chainpool:  dkms-post-install.sh KVER DKMS_TREE
#
# When a kernel has exactly one mpt3sas.ko, dkms moves it out of the way
# into DKMS_TREE/mpt3sas-chainpool/original_module/ and puts it back on
# removal.  That one is the kernel's own, a file of its package (RHEL's
# kernel-core, Debian's linux-image): moved, `rpm -V kernel-core` reports
# it missing for as long as we are installed, and the in-tree driver is
# gone if dkms is removed before us.  Put a copy back where it came from
# (dkms >= 3.1.8 records that in a .origin file): depmod still picks ours
# (/etc/depmod.d/mpt3sas-chainpool.conf overrides mpt3sas to our
# directory), and dkms's own restore on removal then writes the same file
# over it.  Only files under the kernel's own kernel/ tree are put back.

kver=$1
tree=${2:-/var/lib/dkms}
for origin in "$tree"/mpt3sas-chainpool/original_module/"$kver"/*/mpt3sas.ko*.origin; do
	[ -f "$origin" ] || continue
	archived=${origin%.origin}
	dest=$(head -n 1 "$origin")
	case $dest in
	/lib/modules/"$kver"/kernel/* | /usr/lib/modules/"$kver"/kernel/*) ;;
	*) continue ;;
	esac
	if [ -f "$archived" ] && [ ! -e "$dest" ]; then
		cp -p "$archived" "$dest" && echo "mpt3sas-chainpool: kept the kernel's own $dest in place"
	fi
done
exit 0
