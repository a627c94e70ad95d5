# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# No HBA left without a driver: the rules the packages share (sourced by
# kernel-setup.sh, and by the kmod package's kernel hook), with pci-ids
# beside this file.  The caller sets NAME, the prefix of its messages.
#
# The HBAs present are the PCI devices
# (SYSFS/bus/pci/devices/*/vendor,device) whose ID ours claims (the file
# pci-ids beside this one, which make dist reads from the driver's own
# table); with none present, every ID ours claims stands in for them.
# The kernel's own mpt3sas claims the IDs of its module's aliases (what
# its modules.alias lists until ours is installed there, read from the
# module file since modules.alias then lists ours), or of its built-in
# driver (modules.builtin.modinfo).  An HBA whose ID it lacks has no
# driver under that kernel unless ours is installed.
#
# Environment: MPT3SAS_CP_SYSFS, the sysfs root to read (default /sys; the
# package tests point it at a stand-in tree).

SYSFS=${MPT3SAS_CP_SYSFS:-/sys}
IDS=$(dirname "${BASH_SOURCE[0]}")/pci-ids

# Kernel $1 has mpt3sas built in (CONFIG_SCSI_MPT3SAS=y).
mpt3sas_built_in() {
	grep -qs '/mpt3sas\.ko$' "/lib/modules/$1/modules.builtin"
}

# The PCI IDs (vvvv:dddd) kernel $1's own mpt3sas claims: its built-in
# driver's, else its in-tree module's; none without either.  A built-in
# driver of a kernel older than 5.2 (no modules.builtin.modinfo) claims
# every ID of ours, as far as anyone here can tell.
own_ids() {
	local f m=/lib/modules/$1/modules.builtin.modinfo
	if mpt3sas_built_in "$1"; then
		if [ -e "$m" ]; then
			tr '\0' '\n' <"$m" | sed -n 's/^mpt3sas\.alias=//p'
		else
			cut -d' ' -f1 "$IDS" | sed 's/^\(....\):\(....\)$/pci:v0000\1d0000\2sv/'
		fi
	else
		for f in "/lib/modules/$1/kernel/drivers/scsi/mpt3sas/mpt3sas.ko"*; do
			[ -e "$f" ] && modinfo -F alias "$f" 2>/dev/null
		done
	fi | sed -n 's/^pci:v0000\([0-9A-Fa-f]\{4\}\)d0000\([0-9A-Fa-f]\{4\}\)sv.*/\1:\2/p' | tr 'A-F' 'a-f'
}

# The HBAs present: "ADDRESS vvvv:dddd FAMILY" for each PCI device whose ID
# ours claims.
present_hbas() {
	local d id fam
	for d in "$SYSFS"/bus/pci/devices/*; do
		{ [ -r "$d/vendor" ] && [ -r "$d/device" ]; } || continue
		id=$(sed 's/^0x//' "$d/vendor"):$(sed 's/^0x//' "$d/device")
		id=$(tr 'A-F' 'a-f' <<<"$id")
		fam=$(awk -v id="$id" '$1 == id { print $2; exit }' "$IDS" 2>/dev/null)
		[ -z "$fam" ] || echo "${d##*/} $id $fam"
	done
}

# missing KVER: the HBAs present whose ID kernel KVER's own mpt3sas lacks;
# with no HBA present, the IDs ours claims that it lacks ("-" as address).
missing() {
	local own hbas addr id fam
	[ -r "$IDS" ] || return 0
	own=$(own_ids "$1")
	hbas=$(present_hbas)
	[ -n "$hbas" ] || hbas=$(sed 's/^/- /' "$IDS")
	while read -r addr id fam; do
		[ -n "$id" ] || continue
		grep -qxF "$id" <<<"$own" || echo "$addr $id $fam"
	done <<<"$hbas"
}

# describe MISSING: what missing's lines name, in words.
describe() {
	if [ "${1%% *}" = - ]; then
		echo "the IDs of $(cut -d' ' -f3 <<<"$1" | sort -u | paste -sd' ' | sed 's/ /, /g') (no such HBA is present here)"
	else
		echo "the HBA $(awk '{ printf "%s%s [%s] %s", n++ ? ", " : "", $1, $2, $3 }' <<<"$1")"
	fi
}

# The PCI devices (addresses) block device $1 (major:minor) sits behind,
# through the devices a dm or md device is made of.
block_pci() {
	local p s
	p=$(readlink -f "$SYSFS/dev/block/$1" 2>/dev/null) && [ -d "$p" ] || return 0
	for s in "$p"/slaves/*; do
		[ -r "$s/dev" ] && block_pci "$(cat "$s/dev")"
	done
	tr '/' '\n' <<<"$p" | grep -E '^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$' | tail -n 1
}

# The PCI devices the root file system is behind.
root_pci() {
	local mm
	mm=$(findmnt -n -o MAJ:MIN / 2>/dev/null | head -n 1 | tr -d ' ')
	[ -z "$mm" ] || block_pci "$mm"
}

# no_driver KVER WHY WHAT: ours is not installed for KVER (WHY); where its
# own driver lacks a present HBA, one loud warning says what to do (WHAT)
# before rebooting.  With no HBA present, one line names the families.
no_driver() {
	local k=$1 why=$2 what=$3 miss roots addr id fam
	miss=$(missing "$k")
	[ -n "$miss" ] || return 0
	if [ "${miss%% *}" = - ]; then
		echo "$NAME: note: kernel $k's own mpt3sas lacks $(describe "$miss"): one added later would have no driver under $k."
		return 0
	fi
	roots=$(root_pci)
	{
		echo "$NAME: WARNING: ================================================================"
		echo "$NAME: WARNING: kernel $k will boot with NO DRIVER for this HBA:"
		while read -r addr id fam; do
			if grep -qxF "$addr" <<<"$roots"; then
				echo "$NAME: WARNING:   $addr [$id] $fam: the ROOT FILE SYSTEM is behind it: $k will NOT BOOT"
			else
				echo "$NAME: WARNING:   $addr [$id] $fam: its disks will be missing under $k"
			fi
		done <<<"$miss"
		echo "$NAME: WARNING: $k's own mpt3sas lacks its ID, and ours is not installed there: $why."
		echo "$NAME: WARNING: before rebooting: $what"
		echo "$NAME: WARNING: ================================================================"
	} >&2
}
