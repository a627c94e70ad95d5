#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Choose the kernel to build for and print "KVER KDIR".
#
#   KDIR=<build dir>  that tree; its release is read from it
#   KVER=<release>    /lib/modules/<release>/build
#   neither           the running kernel if its headers are installed, else
#                     the newest kernel whose headers are installed, else (as
#                     root on Debian 12) Debian 12's linux-headers-amd64
#
# Without usable headers it says which package to install.

set -eu

LOG_TAG=kernel
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

release_of() {
	local kdir=$1 r=

	# The release the kernel reports (uname -r); Debian's headers carry
	# another string in include/config/kernel.release.
	if [ -f "$kdir/include/generated/utsrelease.h" ]; then
		r=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$kdir/include/generated/utsrelease.h")
	elif [ -f "$kdir/include/config/kernel.release" ]; then
		r=$(cat "$kdir/include/config/kernel.release")
	fi
	[ -n "$r" ] || die "$kdir is not a configured kernel build tree (no include/generated/utsrelease.h)"
	echo "$r"
}

headers_hint() {
	local kver=$1 id=

	[ -r /etc/os-release ] && id=$(. /etc/os-release && echo "${ID:-} ${ID_LIKE:-}")
	case " $id " in
	*" debian "* | *" ubuntu "*)
		echo "install the headers: apt-get install linux-headers-$kver" ;;
	*" rhel "* | *" fedora "* | *" centos "*)
		echo "install the headers: dnf install kernel-devel-$kver" ;;
	*)
		echo "install the headers of $kver (Debian/Ubuntu: linux-headers-$kver; RHEL family: kernel-devel-$kver), or pass KDIR=<kernel build dir>" ;;
	esac
}

newest_installed() {
	local d

	for d in /lib/modules/*/build; do
		[ -f "$d/Makefile" ] && basename "$(dirname "$d")"
	done | sort -V | tail -n 1
}

is_debian12() {
	[ -r /etc/os-release ] && (. /etc/os-release && [ "${ID:-}" = debian ] && [ "${VERSION_ID:-}" = 12 ])
}

if [ -n "${KDIR:-}" ]; then
	[ -f "$KDIR/Makefile" ] || die "KDIR=$KDIR is not a kernel build tree"
	echo "$(release_of "$KDIR") $KDIR"
	exit 0
fi

if [ -n "${KVER:-}" ]; then
	[ -f "/lib/modules/$KVER/build/Makefile" ] ||
		die "no headers for kernel $KVER; $(headers_hint "$KVER")"
	echo "$KVER /lib/modules/$KVER/build"
	exit 0
fi

kver=$(uname -r)
if [ ! -f "/lib/modules/$kver/build/Makefile" ]; then
	kver=$(newest_installed)
	if [ -z "$kver" ]; then
		if [ "$(id -u)" = 0 ] && is_debian12; then
			echo "kernel: no kernel headers installed; installing Debian 12's linux-headers-amd64" >&2
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends linux-headers-amd64 >&2 ||
				die "apt-get install linux-headers-amd64 failed"
			kver=$(newest_installed)
		fi
		[ -n "$kver" ] || die "no kernel headers installed; $(headers_hint "$(uname -r)")"
	fi
	echo "kernel: running kernel $(uname -r) has no headers; building for $kver" >&2
fi
echo "$kver /lib/modules/$kver/build"
