#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/kernels/bundle.sh [--out DIR] [--fragment FILE] NAME SRC RELEASE
#                          [CONFIG] [-- MAKE_ARGS...]
# A kernel bundle (docs/testing.md), DIR/NAME.tar.xz (default build/bundles),
# from a distribution's kernel source SRC.  RELEASE (uname -r) picks the
# layout: RHEL's kernel-devel and .ko.xz for *.el[0-9]*, else linux-headers.
# CONFIG cut down by localmodconfig to the modules the tests load, or
# tinyconfig; then bundle.config, which must hold, and FILE merged over it.
# MAKE_ARGS go to every make; with SKIP_STACK_VALIDATION=1 (4.18's objtool,
# built by a new gcc, crashes) the shipped configuration has no
# CONFIG_STACK_VALIDATION, so that external modules skip objtool too.

set -eu
LOG_TAG=bundle
# shellcheck source=tests/kernels/lib.sh
. "$(dirname "$0")/lib.sh"

usage() { echo "usage: $0 [--out DIR] [--fragment FILE] NAME SRC RELEASE [CONFIG] [-- MAKE_ARGS...]" >&2; exit 2; }
out=$BUILD_ROOT/bundles fragment=
while [ $# -gt 1 ]; do
	case $1 in
	--out) out=$2 ;;
	--fragment) fragment=$(readlink -f "$2") ;;
	*) break ;;
	esac
	shift 2
done
[ $# -ge 3 ] || usage
name=$1 src=$(cd "$2" && pwd) rel=$3
shift 3
config=
if [ $# -gt 0 ] && [ "$1" != -- ]; then
	config=$(readlink -f "$1")
	shift
fi
[ $# -eq 0 ] || { [ "$1" = -- ] && shift; } || usage
need_cmds make xz tar depmod

{ [ -f "$src/Makefile" ] && [ -d "$src/scripts/kconfig" ]; } || die "$src is not a kernel source tree"
[ -z "$config" ] || [ -f "$config" ] || die "no configuration $config"
out=$(mkdir -p "$out" && cd "$out" && pwd)
work=$out/$name
obj=$work/obj
stage=$work/stage
frag=$KLIB_DIR/bundle.config
case $rel in
*.el[0-9]*) hdir=usr/src/kernels/$rel compress=xz ;;
*) hdir=usr/src/linux-headers-$rel compress= ;;
esac
# the release is the source's version and the rest as LOCALVERSION
kmake() { make -s -C "$src" O="$obj" "$@"; }

rm -rf "$work"
mkdir -p "$obj" "$stage"
# O= builds need a clean source tree: refuse rather than clean someone's
[ ! -f "$src/.config" ] || die "$src has a .config: O= builds need a clean tree (make mrproper)"
if [ -n "$config" ]; then
	cp "$config" "$obj/.config"
	kmake "$@" olddefconfig >/dev/null
	# localmodconfig keeps what these loaded modules need
	printf '%s 16384 0 - Live 0x0\n' mpt3sas scsi_transport_sas raid_class sd_mod > "$work/lsmod"
	kmake "$@" LSMOD="$work/lsmod" localmodconfig </dev/null >/dev/null 2>&1 ||
		die "localmodconfig failed"
else
	kmake "$@" tinyconfig >/dev/null
fi
# shellcheck disable=SC2086 # an optional second fragment
(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "$frag" $fragment) >/dev/null
kmake "$@" olddefconfig >/dev/null
missing=$(config_missing "$frag" "$obj/.config")
[ -z "$missing" ] || die "$name: the configuration does not hold:$(echo "$missing" | sed 's/^/ /' | tr '\n' ';')"

version=$(kmake "$@" kernelversion)
case $rel in "$version"*) ;; *) die "$name: release $rel does not start with the source's version $version" ;; esac
localver=${rel#"$version"}
log "$name: building $rel (make bzImage modules, log: $work/build.log)"
t0=$SECONDS
make -C "$src" O="$obj" LOCALVERSION="$localver" "$@" -j"$(nproc)" bzImage modules \
	> "$work/build.log" 2>&1 || { tail -n 20 "$work/build.log" >&2; die "$name: build failed"; }
got=$(kmake LOCALVERSION="$localver" "$@" kernelrelease)
[ "$got" = "$rel" ] || die "$name: the kernel says its release is $got, not $rel"
make -C "$src" O="$obj" LOCALVERSION="$localver" "$@" INSTALL_MOD_PATH="$stage" \
	modules_install >> "$work/build.log" 2>&1 || die "$name: modules_install failed"
mods=$stage/lib/modules/$rel
[ -n "$(find "$mods" -name 'mpt3sas.ko*')" ] || die "$name: the kernel's own mpt3sas was not built"
mkdir -p "$stage/boot"
cp "$obj/arch/x86/boot/bzImage" "$stage/boot/vmlinuz-$rel"
cp "$obj/.config" "$stage/boot/config-$rel"
cp "$obj/System.map" "$stage/boot/System.map-$rel"
rm -f "$mods/build" "$mods/source"
[ -z "$compress" ] || find "$mods/kernel" -name '*.ko' -exec xz --check=crc32 {} +

# The build tree: what the kernel's own scripts/package/builddeb puts in a
# headers package, the sources' part and the built part.
dest=$stage/$hdir
mkdir -p "$dest"
(
	cd "$src"
	find . arch/x86 -maxdepth 1 -name 'Makefile*'
	find . -name 'Kconfig*' -not -path './Documentation/*'
	find include scripts arch/x86/include arch/x86/scripts -type f -o -type l 2>/dev/null
	find arch/x86 -name 'Kbuild.platforms' -o -name Platform
	[ ! -f Makefile.rhelver ] || echo Makefile.rhelver
) | tar -C "$src" -cf - -T - | tar -C "$dest" -xf -
(
	cd "$obj"
	find arch/x86/include include scripts -type f
	echo Module.symvers
	echo .config
	[ ! -x tools/objtool/objtool ] || echo tools/objtool/objtool
) | tar -C "$obj" -cf - -T - | tar -C "$dest" -xf -
case " $* " in
*" SKIP_STACK_VALIDATION=1 "*)
	sed -i 's/^CONFIG_STACK_VALIDATION=y$/# CONFIG_STACK_VALIDATION is not set/' \
		"$dest/.config" "$stage/boot/config-$rel"
	sed -i '/^CONFIG_STACK_VALIDATION=y$/d' "$dest/include/config/auto.conf"
	sed -i '/^#define CONFIG_STACK_VALIDATION 1$/d' "$dest/include/generated/autoconf.h" ;;
esac
ln -s "../../../$hdir" "$mods/build"
depmod -b "$stage" "$rel"

tar -C "$stage" -cf - . | xz -T"$(nproc)" -6 > "$out/$name.tar.xz.new"
mv "$out/$name.tar.xz.new" "$out/$name.tar.xz"
log "$name: $out/$name.tar.xz ($rel, built in $((SECONDS - t0)) s, $(du -h "$out/$name.tar.xz" | cut -f1))"
