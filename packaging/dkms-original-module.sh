#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dkms's POST_INSTALL and POST_REMOVE of mpt3sas-chainpool:
#
#   dkms-original-module.sh installed KVER DKMS_TREE
#   dkms-original-module.sh removed KVER
#
# When a kernel has exactly one mpt3sas.ko, dkms (except on Debian and
# Ubuntu) moves it into DKMS_TREE/mpt3sas-chainpool/original_module/ while
# ours is installed, and puts it back on removal.  That one is the
# kernel's own, a file of its package (RHEL's kernel-core): moved, `rpm -V
# kernel-core` reports it missing for as long as we are installed, and the
# in-tree driver is gone if dkms is removed before us.
#
# installed: put a copy back where it came from: the path dkms 3.1.8 and
# newer record in a .origin file, else (an older dkms) the kernel's own
# place for it, when the file is missing from there.  depmod still picks
# ours (/etc/depmod.d/mpt3sas-chainpool.conf overrides mpt3sas to our
# directory), and dkms's own restore on removal writes the same file over
# it.  Only files under the kernel's own kernel/ tree are put back.
#
# removed: dkms before 3.1.8 moves the archived module to
# DEST_MODULE_LOCATION (/updates), not where it came from: a second copy
# of the in-tree driver, which depmod would take first and no package
# owns.  It goes when the kernel's own place holds the same file, and
# moves there when that place has none.

# Where every kernel since 4.4 has its own mpt3sas.
own_dir=kernel/drivers/scsi/mpt3sas

# has_module DIR: DIR holds an mpt3sas.ko, compressed or not.
has_module() {
	for f in "$1"/mpt3sas.ko*; do
		[ -f "$f" ] && return 0
	done
	return 1
}

installed() {
	kver=$1
	for archived in "${2:-/var/lib/dkms}"/mpt3sas-chainpool/original_module/"$kver"/*/mpt3sas.ko*; do
		case $archived in *.origin) continue ;; esac
		[ -f "$archived" ] || continue
		if [ -f "$archived.origin" ]; then
			dest=$(head -n 1 "$archived.origin")
		else
			dest=/lib/modules/$kver/$own_dir/${archived##*/}
			{ [ -d "${dest%/*}" ] && ! has_module "${dest%/*}"; } || continue
		fi
		case $dest in
		/lib/modules/"$kver"/kernel/* | /usr/lib/modules/"$kver"/kernel/*) ;;
		*) continue ;;
		esac
		if [ ! -e "$dest" ]; then
			cp -p "$archived" "$dest" && echo "mpt3sas-chainpool: kept the kernel's own $dest in place"
		fi
	done
}

removed() {
	kver=$1
	for restored in /lib/modules/"$kver"/updates/mpt3sas.ko*; do
		[ -f "$restored" ] || continue
		own=/lib/modules/$kver/$own_dir/${restored##*/}
		if [ -f "$own" ] && cmp -s "$restored" "$own"; then
			rm -f "$restored" && echo "mpt3sas-chainpool: removed $restored, dkms's second copy of $own"
		elif [ -d "${own%/*}" ] && ! has_module "${own%/*}"; then
			mv "$restored" "$own" && echo "mpt3sas-chainpool: put the kernel's own mpt3sas back at $own"
		fi
	done
}

case ${1:-} in
installed) installed "$2" "${3:-}" ;;
removed) removed "$2" ;;
*) echo "usage: $0 installed KVER DKMS_TREE | removed KVER" >&2 ;;
esac
exit 0
