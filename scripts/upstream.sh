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
#   upstream.sh repin  [PKG [VERSION]] rewrite the lock from Debian's archive
#
# Environment: UPSTREAM (optional source), DL_DIR (download cache),
# UPSTREAM_LOCK (another lock, for the tests).

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
lock=${UPSTREAM_LOCK:-$top/src/mpt3sas/upstream.lock}
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

# The Debian suites searched for linux-source packages, from the lock.
pin_suites() {
	local suites

	suites=$(lock_get suites 2>/dev/null || true)
	echo "${suites:-trixie-backports sid}"
}

# A private apt state over those suites: the host's own apt configuration
# (Debian 12 reads bookworm only) is neither read nor changed.
apt_state() {
	command -v apt-get >/dev/null ||
		die "apt-get not found: set UPSTREAM=<Linux source tarball or tree> (see docs/packaging.md)"
	# shellcheck disable=SC2046 # one word per suite
	kapt_init "$dl_dir/apt" $(pin_suites)
	kapt apt-get update -qq >&2 || die "apt-get update failed for Debian suites: $(pin_suites)"
}

# download PKG VERSION: the .deb into the cache (once); prints its path.
download() {
	local pkg=$1 ver=$2 f

	# apt-get download escapes ':' in epochs as %3a
	f="$dl_dir/${pkg}_${ver/:/%3a}_all.deb"
	if [ ! -f "$f" ]; then
		(cd "$dl_dir" && kapt apt-get download -qq "$pkg=$ver") >&2 || return 1
	fi
	echo "$f"
}

# Every linux-source-X.Y version the suites hold, newest first: "PKG VERSION".
source_candidates() {
	local pkg

	kapt apt-cache pkgnames linux-source- | grep -E '^linux-source-[0-9]+\.[0-9]+$' |
		while read -r pkg; do
			kapt apt-cache madison "$pkg" | awk -v p="$pkg" -F' *\\| *' '{print p, $2}'
		done | sort -r -V -k2
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
	# Tarballs hold one top directory (linux-7.3.4/, linux-source-7.3/).
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

# try_source OUT SRC: extract SRC into OUT and verify it; true if it matches.
try_source() {
	local out=$1 src=$2 diff

	extract "$out.tmp" "$src"
	diff=$(verify "$out.tmp")
	if [ -n "$diff" ]; then
		echo "$diff" >"$out.tmp.diff"
		return 1
	fi
	rm -rf "$out"
	mv "$out.tmp" "$out"
}

cmd_fetch() {
	local out=$1 pkg ver deb cand_pkg cand_ver

	[ -f "$lock" ] || die "missing $lock"
	pkg=$(lock_get package)
	ver=$(lock_get version)
	mkdir -p "$dl_dir"
	if [ -n "${UPSTREAM:-}" ]; then
		say "using UPSTREAM=$UPSTREAM"
		try_source "$out" "$UPSTREAM" || refuse "$UPSTREAM" "$out"
	else
		apt_state
		# The pinned package first; a versioned linux-source-X.Y leaves the
		# archive within months, so then the newest that holds the same files.
		if deb=$(download "$pkg" "$ver" 2>/dev/null) && try_source "$out" "$deb"; then
			say "using $pkg $ver"
		else
			say "$pkg $ver is not in Debian's archive here; looking for another linux-source with the same driver"
			deb=
			while read -r cand_pkg cand_ver; do
				[ "$cand_pkg $cand_ver" = "$pkg $ver" ] && continue
				deb=$(download "$cand_pkg" "$cand_ver") || continue
				if try_source "$out" "$deb"; then
					say "using $cand_pkg $cand_ver: its driver is the pinned one"
					break
				fi
				deb=
			done < <(source_candidates)
			[ -n "$deb" ] || refuse "every linux-source in $(pin_suites)" "$out"
		fi
	fi
	rm -f "$out.tmp.diff"
	say "$drvdir verified against the lock ($(grep -cE '^[0-9a-f]{64}  ' "$lock") files)"
}

# refuse SOURCE OUT: no source matched the lock.
refuse() {
	echo "upstream: error: the mpt3sas sources in $1 do not match $lock:" >&2
	[ -f "$2.tmp.diff" ] && cat "$2.tmp.diff" >&2
	rm -rf "$2.tmp" "$2.tmp.diff"
	echo "upstream: to move the pin, run: make repin [PIN_PACKAGE=linux-source-X.Y] [PIN_VERSION=<Debian version>]" >&2
	echo "upstream: then refresh the patches in src/mpt3sas/patches/ if they no longer apply" >&2
	exit 1
}

# cmd_repin [PKG [VERSION]]: pin a linux-source package, by default the
# newest linux-source-X.Y of the suites.
cmd_repin() {
	local pkg=${1:-} ver=${2:-} suites tmp deb

	suites=$(pin_suites)
	mkdir -p "$dl_dir"
	apt_state
	if [ -z "$pkg" ]; then
		[ -z "$ver" ] || die "a version needs its package: PIN_PACKAGE=linux-source-X.Y"
		read -r pkg ver < <(source_candidates) || die "no linux-source-X.Y in $suites"
	elif [ -z "$ver" ]; then
		ver=$(kapt_version "$pkg")
		[ -n "$ver" ] || die "$pkg is not in $suites"
	fi
	deb=$(download "$pkg" "$ver") || die "cannot download $pkg $ver"
	tmp=$(mktemp -d)
	extract "$tmp/src" "$deb"
	{
		echo "# Pinned upstream of the mpt3sas driver: written by 'make repin'."
		echo "# The build downloads this Debian package, or the newest linux-source"
		echo "# of the suites whose driver is the same, extracts $drvdir"
		echo "# and refuses any file whose sha256 differs from the list below."
		echo "package=$pkg"
		echo "version=$ver"
		echo "suites=$suites"
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
	cmd_repin "${2:-}" "${3:-}"
	;;
*)
	echo "usage: $0 fetch OUTDIR | repin [PKG [VERSION]]" >&2
	exit 2
	;;
esac
