#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# root.sh [--rpm] [--name NAME] SCRIPT [ARGS...]: a packaging test in a
# throwaway Debian 12 root (--rpm: the RPM root), never on this machine.
# NAME names the run (default: the script's, and EL's).  The root, made once
# by mmdebstrap (build/pkgroot*/image-<hash>/), gets a fresh overlay a run
# (run/NAME/, kept if it fails) in private mount and PID namespaces: even
# on SIGKILL the kernel kills all of it (dpkg's maintainer scripts run in
# sessions of their own) and drops its mounts.

set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
LOG_TAG=pkgroot
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"

flavour=deb name=
while :; do
	case ${1:-} in
	--rpm) flavour=rpm ;;
	--name) name=$2; shift ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 1 ] || die "usage: $0 [--rpm] [--name NAME] SCRIPT [ARGS...]"
script=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
case $script in
"$top"/*) ;;
*) die "$script is not inside $top" ;;
esac
[ "$(id -u)" = 0 ] || die "run as root: chroot and mounts need it"
need_cmds mmdebstrap unshare chroot mount

# busybox as on a default install (initramfs-tools recommends it): the
# boot test's shell tools.  openssl and dctrl-tools: dkms-autopkgtest would
# fetch them.  gnupg and apt-utils: make repo.
suite=bookworm
packages=(dkms dh-dkms debhelper dpkg-dev build-essential initramfs-tools kmod
	zstd xz-utils cpio busybox linux-image-amd64 linux-headers-amd64
	ca-certificates openssl dctrl-tools gnupg apt-utils)
pkgroot=$BUILD_ROOT/pkgroot
# The RPM root: no Debian kernel, no dkms (rpm-fixtures.sh makes its RPM),
# dpkg-dev to unpack dkms's Debian source.
if [ "$flavour" = rpm ]; then
	packages=(rpm dnf createrepo-c dracut dracut-core systemd kmod gcc make
		libelf-dev busybox xz-utils zstd cpio openssl mokutil dpkg-dev
		ca-certificates diffutils patch bc gawk gnupg)
	pkgroot=$BUILD_ROOT/pkgroot-rpm
	[ -f "$KERNEL_BUNDLES/MANIFEST" ] ||
		die "no kernel bundles in $KERNEL_BUNDLES (shared/kernels/MANIFEST beside the checkout); set KERNEL_BUNDLES"
fi
# Not unpacked: translations, and the kernel modules a SAS initramfs does
# without, a quarter of the deb root.  Files only: dpkg makes their folders.
excludes=('/usr/share/locale/*.mo')
for d in sound net drivers/net drivers/gpu drivers/media drivers/infiniband \
	drivers/iio drivers/staging; do
	excludes+=("/lib/modules/*/kernel/$d/*.ko*")
done
# Read-only inside: the kernel bundles at /kbundles, RHEL's tools at /rhel.
[ ! -f "$KERNEL_BUNDLES/MANIFEST" ] || bundles=$(cd "$KERNEL_BUNDLES" && pwd)
[ ! -d "$RHEL_FIXTURES/kabi" ] || rhel=$(cd "$RHEL_FIXTURES" && pwd)
key=$(printf '%s\n' "$suite" "${packages[@]}" "${excludes[@]}" "$(mmdebstrap --version)" |
	sha256sum | cut -c1-16)
image=$pkgroot/image-$key

mkdir -p "$pkgroot"
# Exclusive to make the image, shared while a run has it mounted.
exec 8>"$pkgroot/.lock-image"
flock 8
if [ ! -f "$image/.complete" ]; then
	host_mirrors
	rm -rf --one-file-system "$pkgroot"/image-* "$image.new"
	log "making the $flavour root (once per package list): ${packages[*]}"
	# No recommends, as CI.  A mount namespace of its own: what mmdebstrap
	# mounts in the root goes with it, even if it is killed.
	unshare --mount --propagation private -- \
		mmdebstrap --mode=root --variant=apt --format=directory \
		--include="$(IFS=,; echo "${packages[*]}")" \
		"${excludes[@]/#/--dpkgopt=path-exclude=}" \
		--aptopt='Acquire::Languages "none"' \
		--aptopt='APT::Install-Recommends "false"' \
		--skip=cleanup/apt/lists \
		"$suite" "$image.new" \
		"deb $DEBIAN_MIRROR $suite main" \
		"deb $DEBIAN_MIRROR $suite-updates main" \
		"deb $DEBIAN_SECURITY_MIRROR $suite-security main" >&2 ||
		die "mmdebstrap failed"
	touch "$image.new/.complete"
	mv "$image.new" "$image"
fi
flock -s 8

[ -n "$name" ] || name=$(basename "$script" .sh)${EL:+-$EL}
run=$pkgroot/run/$name
# One run of a script at a time; a killed one left only files behind.
exec 9>"$pkgroot/.lock-$name"
flock 9
rm -rf --one-file-system "$run"
mkdir -p "$run/upper" "$run/work" "$run/merged"

log "running $(basename "$script") in a throwaway root ($run)"
rc=0
# shellcheck disable=SC2016 # expanded by the inner shell
unshare --mount --propagation private --pid --fork --kill-child -- \
	env IMAGE="$image" RUN="$run" TOP="$top" BUNDLES="${bundles:-}" RHEL="${rhel:-}" bash -euc '
	m=$RUN/merged
	mount -t overlay overlay \
		-o "lowerdir=$IMAGE,upperdir=$RUN/upper,workdir=$RUN/work" "$m"
	mount -t proc proc "$m/proc"
	mount -t sysfs sysfs "$m/sys"
	mount --rbind /dev "$m/dev"
	for d in tmp run; do mount -t tmpfs tmpfs "$m/$d"; done
	mkdir -p "$m$TOP"
	mount --bind "$TOP" "$m$TOP"
	for b in "$BUNDLES:/kbundles" "$RHEL:/rhel"; do
		[ "${b%:*}" ] || continue
		mkdir -p "$m${b##*:}"
		mount --bind -o ro "${b%:*}" "$m${b##*:}"
	done
	cp /etc/resolv.conf "$m/etc/resolv.conf" 2>/dev/null || :
	exec chroot "$m" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 PKGROOT=1 ${BUNDLES:+KERNEL_BUNDLES=/kbundles} ${RHEL:+RHEL_FIXTURES=/rhel} ${KVER:+KVER=$KVER} \
		${DKMS_SUITE:+DKMS_SUITE=$DKMS_SUITE} ${KVER2:+KVER2=$KVER2} ${EL:+EL=$EL} "$@"
' pkgroot "$script" "$@" || rc=$?
[ "$rc" != 0 ] || rm -rf --one-file-system "$run"
exit "$rc"
