#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba/qemu.sh (`make qemu`): Debian 12's QEMU, the installed
# version, with our HBA (tests/hba/README.md), in
# build/qemu/<version>-<hash of our files>/; prints the binary's path, for a
# caller that must not race another worktree's build for build/qemu/current.

set -eu
LOG_TAG=qemu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/kernels/lib.sh
. "$here/../kernels/lib.sh"

QDIR=$BUILD_ROOT/qemu
# the source of the installed QEMU, whose firmware the guests boot with
version=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null) ||
	die "qemu-system-x86 is not installed (make deps-check)"
upver=${version#*:}
upver=${upver%-*}

# Our inputs: the device sources, the wiring patch and this script.
hash=$(cd "$here" && cat qemu.sh qemu-wiring.patch qemu-devices.mak qemu-configure ./*.[ch] |
	sha256sum | cut -c1-12)
out=$QDIR/$upver-${version##*-}-$hash
if [ -x "$out/qemu-system-x86_64" ]; then
	ln -sfn "$(basename "$out")" "$QDIR/current"
	log "up to date: ${out#"$REPO_ROOT"/}/qemu-system-x86_64"
	echo "$out/qemu-system-x86_64"
	exit 0
fi

need_cmds dpkg-source patch ninja pkg-config python3 cc

# fetch: the source package of $version, once
srcdir=$QDIR/src
dsc=$srcdir/qemu_${version#*:}.dsc
if [ ! -f "$dsc" ]; then
	mkdir -p "$srcdir"
	kapt_init "$QDIR/apt" bookworm bookworm-security bookworm-updates
	# the same suites' sources, in the private state only
	deb_src=$(sed 's/^deb /deb-src /' "$KAPT_DIR/sources.list")
	printf '%s\n' "$deb_src" >> "$KAPT_DIR/sources.list"
	kapt apt-get update -qq >&2 || die "apt-get update (private state) failed"
	(cd "$srcdir" && kapt apt-get source --download-only "qemu=$version") >&2 ||
		die "cannot download the source of qemu $version from Debian's archive"
fi
[ -f "$dsc" ] || die "$dsc missing after download"

# Unpack with Debian's patches and our wiring, configure: once per source
# version, wiring and configuration.  Our device's sources and headers are
# copied in for each build, so that an edit only recompiles them.
t0=$SECONDS
tree=$QDIR/tree
treekey=$(printf '%s\n' "$version" | cat - "$here/qemu-wiring.patch" "$here/qemu-devices.mak" \
	"$here/qemu-configure" | sha256sum | cut -c1-16)
if [ "$(cat "$tree/.vmtest-key" 2>/dev/null)" != "$treekey" ]; then
	rm -rf "$tree"
	dpkg-source --no-check -x "$dsc" "$tree" >/dev/null ||
		die "dpkg-source -x failed"
	patch -d "$tree" -p1 --no-backup-if-mismatch -s < "$here/qemu-wiring.patch" ||
		die "qemu-wiring.patch does not apply"
	cp "$here/qemu-devices.mak" "$tree/configs/devices/x86_64-softmmu/default.mak"
	cp "$here"/*.[ch] "$tree/hw/scsi/"
	mkdir -p "$tree/build"
	# shellcheck disable=SC2046 # one option per line
	(cd "$tree/build" && ../configure $(grep -v '^#' "$here/qemu-configure")) \
		>"$QDIR/configure.log" 2>&1 ||
		{ tail -n 30 "$QDIR/configure.log" >&2; die "configure failed (build/qemu/configure.log)"; }
	echo "$treekey" > "$tree/.vmtest-key"
fi
for f in "$here"/*.[ch]; do
	cmp -s "$f" "$tree/hw/scsi/${f##*/}" || cp "$f" "$tree/hw/scsi/"
done
ninja -C "$tree/build" -j"$(nproc)" qemu-system-x86_64 >"$QDIR/ninja.log" 2>&1 ||
	{ grep -A12 -m3 'error' "$QDIR/ninja.log" >&2 || tail -n 30 "$QDIR/ninja.log" >&2
	  die "build failed (build/qemu/ninja.log)"; }
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp "$tree/build/qemu-system-x86_64" "$out.tmp/"
mv "$out.tmp" "$out"
# older builds go
ln -sfn "$(basename "$out")" "$QDIR/current"
log "built ${out#"$REPO_ROOT"/}/qemu-system-x86_64 in $((SECONDS - t0))s"
echo "$out/qemu-system-x86_64"
