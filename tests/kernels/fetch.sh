#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/kernels/fetch.sh [--refresh] SERIES: a series of tests/kernels/series
# into build/kernels/SERIES/, its env written and printed (docs/testing.md);
# a second run prints it again, --refresh looks for Debian's newest again.

set -eu
LOG_TAG=fetch
# shellcheck source=tests/kernels/lib.sh
. "$(dirname "$0")/lib.sh"

usage() { echo "usage: $0 [--refresh] SERIES (one of: $(kernel_series) debug)" >&2; exit 2; }
refresh=0
[ "${1:-}" != --refresh ] || { refresh=1; shift; }
[ $# -eq 1 ] || usage
SERIES=$1
[ "$SERIES" != debug ] || exec "$KLIB_DIR/debug-kernel.sh"
SOURCE=$(series_source "$SERIES")
HOST_CC=gcc-12	# the host's (Debian 12)
SDIR=$KERNELS_DIR/$SERIES

series_lock "$SDIR"

# unbundle: a bundle's tree is used as it is, unpacked once per tarball.
unbundle() {
	local tarball=$KERNEL_BUNDLES/$SERIES.tar.xz sum root=$SDIR/root kver kdir

	sum=$(sha256sum "$tarball" | cut -d' ' -f1)
	if [ -s "$SDIR/env" ] && grep -qF "$sum" "$SDIR/env"; then
		cat "$SDIR/env"
		exit 0
	fi
	need_cmds tar xz
	log "$SERIES: unpacking $tarball"
	rm -rf "$root" "$root.new" "$SDIR/env"
	mkdir -p "$root.new"
	tar -xJf "$tarball" -C "$root.new" || die "$SERIES: cannot unpack $tarball"
	mv "$root.new" "$root"
	kver=$(ls "$root/lib/modules")
	[ "$(echo "$kver" | wc -w)" = 1 ] ||
		die "$SERIES: $tarball holds not one lib/modules/<release> but: $kver"
	kdir=$(readlink -f "$root/lib/modules/$kver/build")
	case $kdir in
	"$(readlink -f "$root")"/*) ;;
	*) die "$SERIES: lib/modules/$kver/build does not point into the bundle" ;;
	esac
	[ -f "$kdir/Module.symvers" ] ||
		die "$SERIES: no Module.symvers in the bundle's build tree $kdir"
	[ -f "$root/boot/vmlinuz-$kver" ] || die "$SERIES: no boot/vmlinuz-$kver in $tarball"
	log "$SERIES: ready (bundle, $kver)"
	write_env "$SDIR" "$kver" "$kdir" "CC=$HOST_CC" "$root/boot/vmlinuz-$kver" \
		"$root" bundle "$SERIES.tar.xz sha256:$sum"
	exit 0
}

case $SOURCE in
bundle) unbundle ;;
debian) ;;
*) die "$SERIES: a $SOURCE series is not fetched" ;;
esac
# SUITES:ABI_RE, the Debian suites and the ERE of linux-headers-<ABI>-amd64
ORIGIN=$(series_field "$SERIES" 3)
SUITES=$(echo "${ORIGIN%%:*}" | tr , ' ')
ABI_RE=${ORIGIN#*:}

if [ $refresh = 0 ] && [ -s "$SDIR/env" ]; then
	cat "$SDIR/env"
	exit 0
fi

need_cmds apt-get apt-cache dpkg-deb depmod modprobe flock make tar xz "$HOST_CC"
[ "$(dpkg --print-architecture)" = amd64 ] || die "only amd64 hosts are supported"

# shellcheck disable=SC2086 # SUITES is a word list
kapt_init "$SDIR/apt" $SUITES
log "$SERIES: reading package lists of Debian $SUITES"
kapt apt-get update -qq >&2 || die "apt-get update failed for Debian suites: $SUITES"

ABI=$(kapt apt-cache pkgnames linux-headers- |
	sed -En "s/^linux-headers-($ABI_RE)-amd64\$/\\1/p" | sort -V | tail -n1)
[ -n "$ABI" ] || die "$SERIES: no linux-headers-<abi>-amd64 matching /$ABI_RE/ in Debian $SUITES"
KVER=$ABI-amd64
log "$SERIES: newest kernel is $KVER"

if kapt_has "linux-image-$KVER-unsigned"; then
	IMAGE_PKGS="linux-image-$KVER-unsigned"
elif kapt_has "linux-binary-unsigned-$KVER"; then
	# split layout (sid 7.x): base (config, System.map), binary, modules
	IMAGE_PKGS="linux-base-$KVER linux-binary-unsigned-$KVER linux-modules-$KVER"
elif kapt_has "linux-image-$KVER"; then
	IMAGE_PKGS="linux-image-$KVER"
else
	die "$SERIES: no image package for $KVER"
fi

# headers + what they depend on (-common, linux-kbuild-*)
HEADER_PKGS="linux-headers-$KVER $(kapt apt-cache depends "linux-headers-$KVER" |
	sed -En 's/^ +Depends: (linux-(headers|kbuild)-[^ <>]+)$/\1/p' | sort -u | tr '\n' ' ')"

IMG_VER=$(kapt_version "$(echo "$IMAGE_PKGS" | awk '{print $NF}')")
HDR_VER=$(kapt_version "linux-headers-$KVER")
[ "$IMG_VER" = "$HDR_VER" ] || die "$SERIES: image ($IMG_VER) and headers ($HDR_VER) versions differ"

download() {
	local pkg ver
	for pkg in "$@"; do
		ver=$(kapt_version "$pkg")
		[ -n "$ver" ] || die "$SERIES: package $pkg not found in Debian $SUITES"
		versions="$versions $pkg=$ver"
		deb_fetch "$SDIR/debs" "$pkg" "$ver" >/dev/null
	done
}
deb_of() { deb_fetch "$SDIR/debs" "$1" "$(kapt_version "$1")"; }

versions=
# shellcheck disable=SC2086 # word lists
download $IMAGE_PKGS $HEADER_PKGS

ROOT=$SDIR/root
rm -rf "$ROOT.new"
mkdir -p "$ROOT.new"
for pkg in $IMAGE_PKGS $HEADER_PKGS; do
	dpkg-deb -x "$(deb_of "$pkg")" "$ROOT.new"
done
# usr-merged layout: make lib/modules/$KVER exist for depmod -b / modprobe -d
if [ ! -e "$ROOT.new/lib/modules" ] && [ -d "$ROOT.new/usr/lib/modules" ]; then
	if [ -e "$ROOT.new/lib" ]; then
		ln -s ../usr/lib/modules "$ROOT.new/lib/modules"
	else
		ln -s usr/lib "$ROOT.new/lib"
	fi
fi
[ -d "$ROOT.new/lib/modules/$KVER/kernel" ] || die "$SERIES: no modules for $KVER in $IMAGE_PKGS"
# The headers' Makefile refers to itself and to the -common tree by absolute
# /usr/src paths.
for mk in "$ROOT.new"/usr/src/linux-headers-*/Makefile; do
	sed -i "s#/usr/src/#$ROOT/usr/src/#g" "$mk"
done
rm -rf "$ROOT"
mv "$ROOT.new" "$ROOT"
depmod -b "$ROOT" "$KVER" || die "$SERIES: depmod failed"
# The guests load no module of the kernel's but mpt3sas, sd_mod and loop,
# and what they need (tests/vm/lib.sh, tests/hba/run.sh): the rest, most
# of the unpacked size, goes.
modprobe -d "$ROOT" -S "$KVER" --show-depends -a mpt3sas sd_mod loop 2>/dev/null |
	awk '/^insmod/ {print $2}' | LC_ALL=C sort -u > "$SDIR/keep"
find "$ROOT/lib/modules/$KVER/kernel" -name '*.ko*' | LC_ALL=C sort |
	comm -23 - "$SDIR/keep" | xargs -r rm -f
rm -f "$SDIR/keep"
depmod -b "$ROOT" "$KVER" || die "$SERIES: depmod failed"

VMLINUZ=""
for f in "$ROOT/boot/vmlinuz-$KVER" "$ROOT/lib/modules/$KVER/vmlinuz.unsigned" \
	 "$ROOT/lib/modules/$KVER/vmlinuz"; do
	[ -f "$f" ] && { VMLINUZ=$f; break; }
done
[ -n "$VMLINUZ" ] || die "$SERIES: kernel image not found in $IMAGE_PKGS"

HDIR=$ROOT/usr/src/linux-headers-$KVER
[ -f "$HDIR/Module.symvers" ] || die "$SERIES: $HDIR/Module.symvers missing"

# Can the headers package be used as is?  Debian's prebuilt kbuild helpers
# must run with the host's glibc, and the kernel must not have been configured
# for a newer gcc than the host's (its config enables flags older gcc lacks).
kbuild_usable() {
	local f out kgcc hgcc
	while IFS= read -r -d '' f; do
		[ "$(head -c4 "$f")" = "$(printf '\177ELF')" ] || continue
		out=$("$f" 2>&1 </dev/null) || true
		case $out in *GLIBC_*)
			log "$SERIES: ${f##*/} needs a newer glibc"; return 1 ;;
		esac
	done < <(find -L "$1/scripts" "$1/tools" -type f -perm -u+x -print0 2>/dev/null)
	kgcc=$(sed -n 's/^CONFIG_GCC_VERSION=//p' "$1/.config")
	hgcc=$("$HOST_CC" -dumpfullversion | awk -F. '{printf "%d%02d%02d", $1, $2, $3}')
	if [ "${kgcc:-0}" -gt "$hgcc" ]; then
		log "$SERIES: kernel was configured for gcc $kgcc, host $HOST_CC is $hgcc"
		return 1
	fi
}

KMAKEFLAGS=""
if kbuild_usable "$HDIR"; then
	ROUTE=headers
	KDIR=$HDIR
	want_cc=$(sed -En 's/^CC = .*(gcc-[0-9]+).*/\1/p' "$HDIR/.kernelvariables" 2>/dev/null || true)
	if [ -z "$want_cc" ] || ! command -v "$want_cc" >/dev/null 2>&1; then
		KMAKEFLAGS="CC=$HOST_CC"
	fi
else
	# Prebuilt helpers need a newer glibc: prepare the matching Debian
	# source with the host compiler instead.
	ROUTE=source
	log "$SERIES: preparing linux-source with $HOST_CC instead of the headers package"
	need_cmds flex bison bc perl
	for h in libelf.h gelf.h openssl/opensslv.h; do
		[ -e "/usr/include/$h" ] || die "/usr/include/$h missing (install libelf-dev libssl-dev)"
	done
	KV_MM=$(echo "$KVER" | sed -En 's/^([0-9]+\.[0-9]+)\..*/\1/p')
	SRC_PKG=linux-source-$KV_MM
	SRC_VER=$(kapt_version "$SRC_PKG")
	[ "$SRC_VER" = "$IMG_VER" ] ||
		die "$SERIES: $SRC_PKG is '$SRC_VER' but the image is $IMG_VER"
	download "$SRC_PKG"
	SRC=$SDIR/src
	rm -rf "$SRC"
	# only what Kconfig and modules_prepare need (Kconfig files stay)
	log "$SERIES: unpacking $SRC_PKG"
	unpack_source "$(deb_of "$SRC_PKG")" "$SRC" \
		--exclude='*/Documentation/*.rst' --exclude='*/Documentation/devicetree/*' \
		--exclude='*/drivers/*.c' --exclude='*/sound/*.c' --exclude='*/fs/*.c' \
		--exclude='*/net/*.c' --exclude='*/drivers/gpu/drm/amd/include/asic_reg/*' \
		--exclude='*/tools/testing/*' --exclude='*/LICENSES/*'
	cp "$ROOT/lib/modules/$KVER/config" "$SRC/.config"
	KMK() { make -s -C "$SRC" CC="$HOST_CC" "$@"; }
	KMK olddefconfig >&2
	KV=$(KMK kernelversion)
	LOCALVER=${KVER#"$KV"}
	[ "$KV$LOCALVER" = "$KVER" ] || die "$SERIES: source version $KV does not prefix $KVER"
	rel=$(KMK LOCALVERSION="$LOCALVER" kernelrelease)
	[ "$rel" = "$KVER" ] || die "$SERIES: prepared kernelrelease '$rel' != '$KVER'"
	diff <(grep '^CONFIG' "$ROOT/lib/modules/$KVER/config" | sort) \
	     <(grep '^CONFIG' "$SRC/.config" | sort) > "$SDIR/config.diff" || true
	log "$SERIES: make modules_prepare (config changes vs. the image: $SDIR/config.diff)"
	KMK LOCALVERSION="$LOCALVER" -j"$(nproc)" modules_prepare >&2
	cp "$HDIR/Module.symvers" "$SRC/Module.symvers"
	prune_source "$SRC"
	KDIR=$SRC
	KMAKEFLAGS="CC=$HOST_CC"
fi

rm -rf "$SDIR/debs"
log "$SERIES: ready ($ROUTE route)"
write_env "$SDIR" "$KVER" "$KDIR" "$KMAKEFLAGS" "$VMLINUZ" "$ROOT" "$ROUTE" \
	"${versions# }"
