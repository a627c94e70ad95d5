#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fetch, verify and re-pin the upstream mpt3sas driver.
#
# The repository never holds upstream code: src/mpt3sas/upstream.lock names
# the Debian linux-source package the driver comes from and the sha256 of
# every file of drivers/scsi/mpt3sas/.  This script downloads that package
# (or reads UPSTREAM=<tarball, .deb or tree>), extracts the driver and the
# kernel's checker scripts, and refuses anything that does not match the
# lock.
#
#   upstream.sh fetch  OUTDIR          verified pristine driver in OUTDIR
#   upstream.sh repin  [VERSION]       rewrite the lock from Debian's archive
#
# Environment: UPSTREAM (optional source), DL_DIR (download cache).

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
lock=$top/src/mpt3sas/upstream.lock
drvdir=drivers/scsi/mpt3sas
dl_dir=${DL_DIR:-$top/build/dl}
# Tools only, never verified against the lock nor shipped: checkpatch,
# coccinelle and their data files, used by `make check` on our own code.
tool_paths="scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch scripts/coccicheck scripts/coccinelle"

LOG_TAG=upstream
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

say() {
	echo "upstream: $*"
}

lock_get() {
	sed -n "s/^$1=//p" "$lock"
}

# apt-get download into the cache; the version may be empty for "newest".
apt_download() {
	local pkg=$1 ver=$2 spec=$1

	[ -n "$ver" ] && spec="$pkg=$ver"
	command -v apt-get >/dev/null ||
		die "apt-get not found: set UPSTREAM=<Linux source tarball or tree> (see docs/packaging.md)"
	mkdir -p "$dl_dir"
	if ! (cd "$dl_dir" && apt-get -q -o APT::Sandbox::User=root download "$spec") >&2; then
		[ "$(id -u)" = 0 ] || return 1
		say "refreshing the package lists and retrying $spec"
		apt-get -q update >&2 || return 1
		(cd "$dl_dir" && apt-get -q -o APT::Sandbox::User=root download "$spec") >&2
	fi
}

# Print the cached .deb for a package version (newest cached if no version).
cached_deb() {
	local pkg=$1 ver=$2 f

	if [ -n "$ver" ]; then
		# apt-get download escapes ':' in epochs as %3a
		f="$dl_dir/${pkg}_${ver/:/%3a}_all.deb"
		[ -f "$f" ] && echo "$f"
		return 0
	fi
	find "$dl_dir" -maxdepth 1 -name "${pkg}_*_all.deb" 2>/dev/null | sort -V | tail -n 1
}

# Extract the driver and the checker scripts from a source into $1.
extract() {
	local out=$1 src=$2 tmp
	local -a members

	rm -rf "$out"
	mkdir -p "$out"
	if [ -d "$src" ]; then
		[ -d "$src/$drvdir" ] || die "$src has no $drvdir"
		for p in $drvdir $tool_paths; do
			[ -e "$src/$p" ] || continue
			mkdir -p "$out/$(dirname "$p")"
			cp -a "$src/$p" "$out/$(dirname "$p")/"
		done
		return 0
	fi
	[ -f "$src" ] || die "no such file or directory: $src"
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064 # expand now: tmp is local
	trap "rm -rf '$tmp'" RETURN
	case "$src" in
	*.deb)
		dpkg-deb --fsys-tarfile "$src" |
			tar -x -C "$tmp" --wildcards './usr/src/linux-source-*.tar.*'
		src=$(ls "$tmp"/usr/src/linux-source-*.tar.*)
		;;
	esac
	# Tarballs hold one top directory (linux-6.12.117/, linux-source-6.12/).
	members=("*/$drvdir")
	for p in $tool_paths; do
		members+=("*/$p")
	done
	tar -x -f "$src" -C "$tmp" --strip-components=1 --wildcards \
		--no-wildcards-match-slash "${members[@]}" 2>/dev/null ||
		[ -d "$tmp/$drvdir" ] || die "$src holds no $drvdir"
	for p in $drvdir $tool_paths; do
		[ -e "$tmp/$p" ] || continue
		mkdir -p "$out/$(dirname "$p")"
		mv "$tmp/$p" "$out/$(dirname "$p")/"
	done
}

# List differences between an extracted driver and the lock; empty if none.
verify() {
	local dir=$1

	(cd "$dir" && grep -E '^[0-9a-f]{64}  ' "$lock" | sha256sum -c --quiet 2>/dev/null) |
		sed -n 's/: FAILED.*$//p' | sed 's/^/  differs: /'
	(cd "$dir" && find $drvdir -type f | sort) >"$dir/.files"
	grep -E '^[0-9a-f]{64}  ' "$lock" | sed 's/^[0-9a-f]*  //' | sort >"$dir/.locked"
	comm -23 "$dir/.files" "$dir/.locked" | sed 's/^/  not in lock: /'
	rm -f "$dir/.files" "$dir/.locked"
}

cmd_fetch() {
	local out=$1 pkg ver deb src diff

	[ -f "$lock" ] || die "missing $lock"
	pkg=$(lock_get package)
	ver=$(lock_get version)
	if [ -n "${UPSTREAM:-}" ]; then
		src=$UPSTREAM
		say "using UPSTREAM=$src"
	else
		deb=$(cached_deb "$pkg" "$ver")
		if [ -z "$deb" ] && ! apt_download "$pkg" "$ver"; then
			say "$pkg $ver is not in Debian's archive here; trying the newest $pkg"
			apt_download "$pkg" "" ||
				die "cannot download $pkg from Debian's archive; set UPSTREAM=<path to a Linux 6.12 source tarball or tree>"
		fi
		deb=$(cached_deb "$pkg" "$ver")
		[ -n "$deb" ] || deb=$(cached_deb "$pkg" "")
		src=$deb
		say "using $(basename "$deb")"
	fi
	extract "$out.tmp" "$src"
	diff=$(verify "$out.tmp")
	if [ -n "$diff" ]; then
		rm -rf "$out.tmp"
		echo "upstream: error: the mpt3sas sources in $src do not match $lock:" >&2
		echo "$diff" >&2
		echo "upstream: to move the pin to another linux-source-6.12, run: make repin [PIN_VERSION=<Debian version>]" >&2
		echo "upstream: then refresh the patches in src/mpt3sas/patches/ if they no longer apply" >&2
		exit 1
	fi
	rm -rf "$out"
	mv "$out.tmp" "$out"
	say "$drvdir verified against the lock ($(grep -cE '^[0-9a-f]{64}  ' "$lock") files)"
}

cmd_repin() {
	local ver=${1:-} pkg tmp deb

	pkg=$(lock_get package 2>/dev/null || true)
	pkg=${pkg:-linux-source-6.12}
	apt_download "$pkg" "$ver" || die "cannot download $pkg${ver:+ $ver}"
	deb=$(cached_deb "$pkg" "$ver")
	[ -n "$deb" ] || die "download of $pkg${ver:+ $ver} left no .deb in $dl_dir"
	ver=$(dpkg-deb -f "$deb" Version)
	tmp=$(mktemp -d)
	extract "$tmp/src" "$deb"
	{
		echo "# Pinned upstream of the mpt3sas driver: written by 'make repin'."
		echo "# The build downloads this Debian package, extracts $drvdir"
		echo "# and refuses any file whose sha256 differs from the list below."
		echo "package=$pkg"
		echo "version=$ver"
		echo "driver_version=$(sed -n 's/^#define MPT3SAS_DRIVER_VERSION[[:space:]]*"\(.*\)"/\1/p' "$tmp/src/$drvdir/mpt3sas_base.h")"
		(cd "$tmp/src" && find $drvdir -type f | sort | xargs sha256sum)
	} >"$lock.new"
	rm -rf "$tmp"
	mv "$lock.new" "$lock"
	say "pinned $pkg $ver in $lock"
}

case "${1:-}" in
fetch)
	[ $# -eq 2 ] || die "usage: $0 fetch OUTDIR"
	cmd_fetch "$2"
	;;
repin)
	cmd_repin "${2:-}"
	;;
*)
	echo "usage: $0 fetch OUTDIR | repin [VERSION]" >&2
	exit 2
	;;
esac
