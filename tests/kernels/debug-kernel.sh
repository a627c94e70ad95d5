#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The "debug" series (fetch.sh debug runs this): Debian's linux-source-6.1,
# tinyconfig and debug.config, with fetch.sh's env file; built again only
# when debug.config or this script changes.

set -eu
LOG_TAG=debug-kernel
# shellcheck source=tests/kernels/lib.sh
. "$(dirname "$0")/lib.sh"

SDIR=$KERNELS_DIR/debug
FRAGMENT=$KLIB_DIR/debug.config
SRC_PKG=linux-source-6.1
JOBS=$(nproc)
series_lock "$SDIR"

stamp=$(cat "$FRAGMENT" "$0" | sha256sum | cut -c1-16)
if [ -s "$SDIR/env" ] && [ "$(cat "$SDIR/stamp" 2>/dev/null)" = "$stamp" ]; then
	cat "$SDIR/env"
	exit 0
fi

need_cmds apt-get dpkg-deb make gcc flex bison bc perl tar xz depmod flock
for h in libelf.h openssl/opensslv.h; do
	[ -e "/usr/include/$h" ] || die "/usr/include/$h missing (install libelf-dev libssl-dev)"
done

kapt_init "$SDIR/apt" bookworm bookworm-security
log "reading package lists of Debian bookworm"
kapt apt-get update -qq >&2 || die "apt-get update failed"
SRC_VER=$(kapt_version "$SRC_PKG")
[ -n "$SRC_VER" ] || die "$SRC_PKG not found in Debian bookworm"
deb=$(deb_fetch "$SDIR/debs" "$SRC_PKG" "$SRC_VER")

SRC=$SDIR/src
OBJ=$SDIR/obj
if [ "$(cat "$SRC/.cp-version" 2>/dev/null)" != "$SRC_VER" ]; then
	log "unpacking $SRC_PKG $SRC_VER"
	rm -rf "$SRC" "$OBJ"
	unpack_source "$deb" "$SRC"
	echo "$SRC_VER" > "$SRC/.cp-version"
fi

KMK() { make -s -C "$SRC" O="$OBJ" ARCH=x86_64 "$@"; }
mkdir -p "$OBJ"
KMK tinyconfig >&2
"$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "$FRAGMENT" >/dev/null
KMK olddefconfig >&2
missing=$(config_missing "$FRAGMENT" "$OBJ/.config" | tr '\n' ' ')
[ -z "$missing" ] || die "the debug config lost: $missing(dependencies of tests/kernels/debug.config)"

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

log "ready: $KVER"
write_env "$SDIR" "$KVER" "$OBJ" '' "$ROOT/boot/vmlinuz-$KVER" "$ROOT" debug \
	"$SRC_PKG=$SRC_VER"
echo "$stamp" > "$SDIR/stamp"
