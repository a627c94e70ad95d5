#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Put mpt3sas-chainpool into a kernel, or say plainly why not: the one
# per-kernel rule of the Debian postinst, the RPM scriptlets and the
# packages' kernel hooks, shipped as
# /usr/src/mpt3sas-chainpool-<version>/kernel-setup.sh.
#
#   kernel-setup.sh all            every kernel that lacks ours: set up
#                                  if it has headers, else one line
#                                  (the packages run this)
#   kernel-setup.sh install KVER   that kernel (also the command to finish
#                                  after enrolling the DKMS key)
#   kernel-setup.sh hook KVER      a kernel just installed, after dkms's
#                                  own hook (the packages' kernel hooks):
#                                  the same rules where dkms did not
#                                  install ours
#   kernel-setup.sh decide KVER    print the decision only: builtin,
#                                  install, install-over-newer,
#                                  install-for-hba, keep-newer, sb-enroll
#   kernel-setup.sh missing KVER   print the HBAs present that the
#                                  kernel's own mpt3sas lacks, one
#                                  "ADDRESS VENDOR:DEVICE FAMILY" a line
#                                  (ADDRESS "-": no HBA is present, and
#                                  these are the IDs ours claims)
#
# No HBA left without a driver: hba-rules.sh, beside this file.
#
# For each kernel, in this order:
# 0. Its mpt3sas is built in (modules.builtin): no module can replace it,
#    so nothing is installed there and one line says so.
# 1. Its own (in-tree) mpt3sas is newer than our base (a later kernel's
#    than our 54.100.00.00): keep it, one line says so.  chainpool matters
#    on kernels whose dma_pool predates 6.4, and those carry an older
#    driver.  The file /etc/mpt3sas-chainpool/replace-newer (any content)
#    asks for ours anyway, and so does an HBA that driver lacks: dkms
#    installs ours past its own "not newer" check.
# 2. Secure Boot is on (mokutil --sb-state) and the DKMS signing
#    certificate is not enrolled (mokutil --test-key): dkms builds and
#    signs ours (making the key on first use) but does not install it, the
#    initramfs is left alone, and the enrolment steps are printed.  An
#    initramfs with a module the firmware's keys reject does not boot a
#    machine whose root is on the HBA.
# 3. Otherwise dkms installs it (a kernel outside the supported range is
#    skipped by dkms, exit 77) and that kernel's initramfs is rebuilt.
# Where ours ends up not installed (built in, a failed build, a kernel out
# of range or without headers, a key not enrolled) and the kernel's own
# driver lacks a present HBA, one loud warning names the HBA, the kernel
# that would boot with no driver for it, whether the root file system is
# behind it (findmnt /, then sysfs from its block device up to the PCI
# device), and what to do before rebooting.
#
# Environment: MPT3SAS_CP_SYSFS (hba-rules.sh).
#
# Never fails the package: every problem is a line on stdout or stderr.

set -u

dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NAME=mpt3sas-chainpool
VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$dir/dkms.conf")
# 54.100.00.00.cp1 -> 54.100.00.00, the upstream driver we carry
BASE=${VERSION%.*}
kmin=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL_MIN="\(.*\)"$/\1/p' "$dir/dkms.conf")
# BUILD_EXCLUSIVE_KERNEL_MAX="6.11.999" -> 6.11
kmax=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL_MAX="\([0-9]*\.[0-9]*\).*"$/\1/p' "$dir/dkms.conf")
RANGE=$(bash "$dir/kernel-range.sh" text "$kmin" ${kmax:+"$kmax"})
SELF="bash $dir/kernel-setup.sh"
OPT_IN=/etc/$NAME/replace-newer
# shellcheck source=packaging/hba-rules.sh
. "$dir/hba-rules.sh"

# The in-tree mpt3sas version of kernel $1, empty if it has none.
intree_version() {
	local f
	for f in "/lib/modules/$1/kernel/drivers/scsi/mpt3sas/mpt3sas.ko"*; do
		[ -e "$f" ] && modinfo -F version "$f" 2>/dev/null && return 0
	done
	return 0
}

# newer A B: version A sorts after version B.
newer() {
	[ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" = "$1" ]
}

# The certificate dkms signs with: framework.conf's mok_certificate, else
# dkms's default (Ubuntu: update-secureboot-policy's).
mok_cert() {
	local cert="" f v
	for f in /etc/dkms/framework.conf /etc/dkms/framework.conf.d/*.conf; do
		[ -r "$f" ] || continue
		v=$(sed -n 's/^[[:space:]]*mok_certificate=["'\'']\{0,1\}\([^"'\'']*\).*/\1/p' "$f" | tail -n 1)
		[ -z "$v" ] || cert=$v
	done
	if [ -z "$cert" ]; then
		if grep -qs '^ID=ubuntu' /etc/os-release; then
			cert=/var/lib/shim-signed/mok/MOK.der
		else
			cert=/var/lib/dkms/mok.pub
		fi
	fi
	echo "$cert"
}

sb_enabled() {
	command -v mokutil >/dev/null || return 1
	mokutil --sb-state 2>/dev/null | grep -q 'SecureBoot enabled'
}

# The firmware's MOK list holds certificate $1.
enrolled() {
	[ -f "$1" ] && mokutil --test-key "$1" 2>/dev/null | grep -q 'is already enrolled'
}

decide() {
	local k=$1 it over=""
	mpt3sas_built_in "$k" && { echo builtin; return; }
	it=$(intree_version "$k")
	if [ -n "$it" ] && newer "$it" "$BASE"; then
		if [ -e "$OPT_IN" ]; then
			over=-over-newer
		elif [ -n "$(missing "$k")" ]; then
			over=-for-hba
		else
			echo keep-newer
			return
		fi
	fi
	if sb_enabled && ! enrolled "$(mok_cert)"; then
		echo sb-enroll
	else
		echo "install$over"
	fi
}

has_headers() {
	[ -e "/lib/modules/$1/build/include" ] || [ -e "/lib/modules/$1/build/Makefile" ]
}

# Kernel $1 has no headers: one line, and the warning where it matters.
no_headers() {
	local k=$1
	if mpt3sas_built_in "$k"; then
		setup "$k"
		return
	fi
	echo "$NAME: kernel $k has no headers (/lib/modules/$k/build): ours not built for $k (install kernel-devel-$k or linux-headers-$k, then: $SELF install $k)."
	case $(decide "$k") in
	keep-newer) ;;
	*) no_driver "$k" "it has no headers to build ours against" \
		"install the headers of $k (kernel-devel-$k or linux-headers-$k), then run $SELF install $k; until then, do not boot $k" ;;
	esac
}

installed() {
	dkms status -m "$NAME" -v "$VERSION" -k "$1" 2>/dev/null | grep -q ': installed'
}

rebuild_initramfs() {
	if [ -e "/boot/initrd.img-$1" ] && command -v update-initramfs >/dev/null; then
		update-initramfs -u -k "$1"
	elif [ -e "/boot/initramfs-$1.img" ] && command -v dracut >/dev/null; then
		dracut -f --kver "$1"
	fi || echo "$NAME: warning: rebuilding the initramfs of $1 failed" >&2
}

# dkms_step ACTION KVER [ARGS...]: dkms build or install, its failure told.
dkms_step() {
	local rc=0 k=$2 act=$1
	shift 2
	dkms "$act" -m "$NAME" -v "$VERSION" -k "$k" "$@" || rc=$?
	case $rc in
	0) ;;
	77)
		echo "$NAME supports kernels $RANGE; $k is not supported: skipped."
		no_driver "$k" "$NAME supports kernels $RANGE only" \
			"do not boot $k: keep the running kernel as the default boot entry, or boot a kernel that drives it"
		;;
	*)
		echo "$NAME: warning: the build for kernel $k failed (exit $rc);" \
			"see /var/lib/dkms/$NAME/$VERSION/build/make.log" >&2
		no_driver "$k" "its build failed (/var/lib/dkms/$NAME/$VERSION/build/make.log)" \
			"install the headers of $k (kernel-devel-$k or linux-headers-$k) and what make.log asks for, then run $SELF install $k; until it succeeds, do not boot $k"
		;;
	esac
	return $rc
}

setup() {
	local k=$1 cert
	case $(decide "$k") in
	builtin)
		echo "$NAME: kernel $k has mpt3sas built in, and a module cannot replace a built-in driver: ours not installed for $k."
		no_driver "$k" "its mpt3sas is built in, which no module can replace" \
			"do not boot $k: keep the running kernel as the default boot entry"
		;;
	keep-newer)
		echo "$NAME: kernel $k has its own mpt3sas $(intree_version "$k"), newer than ours ($BASE): kept it, ours not installed (to install ours anyway: touch $OPT_IN; $SELF install $k)."
		;;
	install-for-hba)
		echo "$NAME: kernel $k has its own mpt3sas $(intree_version "$k"), newer than ours ($BASE), but it lacks $(describe "$(missing "$k")"): installing ours."
		dkms_step install "$k" --force-version-override && rebuild_initramfs "$k"
		;;
	install-over-newer)
		echo "$NAME: kernel $k has its own mpt3sas $(intree_version "$k"), newer than ours ($BASE): installing ours, as $OPT_IN asks."
		dkms_step install "$k" --force-version-override && rebuild_initramfs "$k"
		;;
	sb-enroll)
		dkms_step build "$k" || return 0
		cert=$(mok_cert)
		cat <<EOT
$NAME: Secure Boot is on and the DKMS signing key ($cert) is not enrolled: built and signed for kernel $k, but NOT installed; its modules and initramfs are unchanged.
  To finish, as root:
  1. mokutil --import $cert    (choose a one-time password)
  2. reboot; in MokManager (blue screen before the boot loader) choose "Enroll MOK", Continue, Yes, type the password, reboot
  3. $SELF install $k
     (or: dkms install -m $NAME -v $VERSION -k $k && update-initramfs -u -k $k, or dracut -f --kver $k)
EOT
		no_driver "$k" "Secure Boot is on and the DKMS key ($cert) is not enrolled" \
			"enrol the key and run $SELF install $k (the steps above), or do not boot $k"
		;;
	install)
		dkms_step install "$k" && rebuild_initramfs "$k"
		;;
	esac
	return 0
}

case ${1:-} in
all)
	for d in /lib/modules/*; do
		k=${d##*/}
		# A kernel, not what a removed one left behind.
		has_headers "$k" || [ -e "$d/modules.dep" ] || [ -d "$d/kernel" ] || continue
		installed "$k" && continue
		if has_headers "$k"; then
			setup "$k"
		else
			no_headers "$k"
		fi
	done
	;;
hook)
	[ $# = 2 ] || { echo "usage: $0 hook KVER" >&2; exit 2; }
	if installed "$2"; then
		# dkms's own hook installed ours: signed with a key the
		# firmware may not know yet.
		if [ "$(decide "$2")" = sb-enroll ]; then
			no_driver "$2" "Secure Boot is on and the DKMS key ($(mok_cert)) is not enrolled: ours will not load" \
				"enrol the key: mokutil --import $(mok_cert), reboot into MokManager and choose Enroll MOK; or do not boot $2"
		fi
	elif has_headers "$2"; then
		setup "$2"
	else
		no_headers "$2"
	fi
	;;
missing)
	[ $# = 2 ] || { echo "usage: $0 missing KVER" >&2; exit 2; }
	missing "$2"
	;;
install)
	[ $# = 2 ] || { echo "usage: $0 install KVER" >&2; exit 2; }
	if installed "$2"; then
		echo "$NAME $VERSION is already installed for $2."
	elif has_headers "$2"; then
		setup "$2"
	else
		no_headers "$2"
	fi
	;;
decide)
	[ $# = 2 ] || { echo "usage: $0 decide KVER" >&2; exit 2; }
	decide "$2"
	;;
*)
	echo "usage: $0 all | install KVER | hook KVER | decide KVER | missing KVER" >&2
	exit 2
	;;
esac
exit 0
