#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/kernels/debug-kernel.sh: build the "debug" kernel series, a small
# QEMU guest kernel from Debian's linux-source-6.1 with KASAN, kmemleak,
# DMA_API_DEBUG, lockdep and fault injection (tests/kernels/debug.config
# merged over tinyconfig), into build/kernels/debug/.  Writes the same env
# file as fetch.sh (fetch.sh debug calls this script), so the VM harness
# boots it like any other series:
#
#   KERNELS=debug tests/vm/run.sh
#
# A second run only prints the env, unless the config fragment or this
# script changed.  It builds with make -j$(nproc).

set -eu
LOG_TAG=debug-kernel
# shellcheck source=tests/kernels/lib.sh
. "$(dirname "$0")/lib.sh"

SERIES=debug
SDIR=$KERNELS_DIR/$SERIES
FRAGMENT=$KLIB_DIR/debug.config
SRC_PKG=linux-source-6.1
JOBS=$(nproc)

mkdir -p "$SDIR"
exec 9>"$SDIR/.lock"
flock 9

stamp=$(cat "$FRAGMENT" "$0" | sha256sum | cut -c1-16)
if [ -s "$SDIR/env" ] && [ "$(cat "$SDIR/stamp" 2>/dev/null)" = "$stamp" ]; then
	cat "$SDIR/env"
	exit 0
fi

need_cmds apt-get dpkg-deb make gcc flex bison bc perl tar xz depmod flock
for h in libelf.h openssl/opensslv.h; do
	[ -e "/usr/include/$h" ] || die "/usr/include/$h missing (install libelf-dev libssl-dev)"
done

# --- source -----------------------------------------------------------------
kapt_init "$SDIR/apt" bookworm bookworm-security
log "reading package lists of Debian bookworm"
kapt apt-get update -qq >&2 || die "apt-get update failed"
SRC_VER=$(kapt_version "$SRC_PKG")
[ -n "$SRC_VER" ] || die "$SRC_PKG not found in Debian bookworm"
deb=$(compgen -G "$SDIR/debs/${SRC_PKG}_${SRC_VER}_*.deb" | head -n1 || true)
if [ -z "$deb" ]; then
	log "downloading $SRC_PKG $SRC_VER"
	rm -rf "$SDIR/debs"
	mkdir -p "$SDIR/debs"
	(cd "$SDIR/debs" && kapt apt-get download -qq "$SRC_PKG=$SRC_VER" >&2) ||
		die "download of $SRC_PKG=$SRC_VER failed"
	deb=$(compgen -G "$SDIR/debs/${SRC_PKG}_${SRC_VER}_*.deb" | head -n1)
fi

SRC=$SDIR/src
OBJ=$SDIR/obj
if [ "$(cat "$SRC/.cp-version" 2>/dev/null)" != "$SRC_VER" ]; then
	log "unpacking $SRC_PKG $SRC_VER"
	rm -rf "$SRC" "$OBJ"
	mkdir -p "$SRC"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO --wildcards './usr/src/linux-source-*.tar.*' |
		tar -xJ -C "$SRC" --strip-components=1
	echo "$SRC_VER" > "$SRC/.cp-version"
fi

# --- config -----------------------------------------------------------------
KMK() { make -s -C "$SRC" O="$OBJ" ARCH=x86_64 "$@"; }
mkdir -p "$OBJ"
KMK tinyconfig >&2
"$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "$FRAGMENT" >/dev/null
KMK olddefconfig >&2
missing=""
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) grep -qxF "$line" "$OBJ/.config" || missing="$missing ${line%%=*}" ;;
	'# CONFIG_'*' is not set')
		opt=${line#'# '}; opt=${opt%% *}
		! grep -q "^$opt=" "$OBJ/.config" || missing="$missing $opt(unset)" ;;
	esac
done < "$FRAGMENT"
[ -z "$missing" ] || die "the debug config lost:$missing (dependencies of tests/kernels/debug.config)"

# --- build ------------------------------------------------------------------
log "building with -j$JOBS (KASAN, kmemleak, DMA_API_DEBUG, lockdep, fault injection)"
t0=$SECONDS
KMK -j"$JOBS" bzImage modules >&2
# only valid once the build has synced the config
KVER=$(KMK kernelrelease)
log "built $KVER in $((SECONDS - t0))s"

ROOT=$SDIR/root
rm -rf "$ROOT"
mkdir -p "$ROOT/boot"
KMK INSTALL_MOD_PATH="$ROOT" modules_install >&2
depmod -b "$ROOT" "$KVER"
cp "$OBJ/.config" "$ROOT/boot/config-$KVER"
cp "$OBJ/arch/x86/boot/bzImage" "$ROOT/boot/vmlinuz-$KVER"
echo "$((SECONDS - t0))" > "$SDIR/build-seconds"

# A rebuild unpacks the source again.
rm -rf "$SDIR/debs" "$SRC/.cp-version"
prune_source "$SRC"
prune_source "$OBJ"

echo "$SRC_PKG=$SRC_VER" > "$SDIR/versions"
cat > "$SDIR/env.new" <<ENV
SERIES='$SERIES'
KVER='$KVER'
KDIR='$OBJ'
KMAKEFLAGS=''
VMLINUZ='$ROOT/boot/vmlinuz-$KVER'
MODDIR='$ROOT'
KBUILD_ROUTE='debug'
PACKAGES='$SRC_PKG=$SRC_VER'
ENV
mv "$SDIR/env.new" "$SDIR/env"
echo "$stamp" > "$SDIR/stamp"
log "ready: $KVER"
cat "$SDIR/env"
