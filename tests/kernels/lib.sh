# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Shared helpers for tests/kernels/ and tests/vm/ (sourced, not executed).
# Downloads go under $BUILD_ROOT; the host's /boot, /lib/modules and apt
# configuration are never touched (kapt_init: a private apt state).

KLIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$KLIB_DIR/../.." && pwd)
BUILD_ROOT=${BUILD_ROOT:-$REPO_ROOT/build}
KERNELS_DIR=${KERNELS_DIR:-$BUILD_ROOT/kernels}
# the distributions' kernels (tests/kernels/bundle.sh), as laid out in
# the CI machine's shared folder beside the checkout
KERNEL_BUNDLES=${KERNEL_BUNDLES:-$REPO_ROOT/../shared/kernels}
SERIES_FILE=$KLIB_DIR/series
# RHEL's weak-modules, kernel-rpm-macros and kABI stablelists (its README.md)
RHEL_FIXTURES=${RHEL_FIXTURES:-$REPO_ROOT/../shared/rhel}

log()  { printf '%s: %s\n' "${LOG_TAG:-tests}" "$*" >&2; }
# die, tagged with LOG_TAG
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

need_cmds() {
	local c missing=""
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
	done
	[ -z "$missing" ] || die "missing host commands:$missing (make deps-check installs them)"
}

# series_table: "NAME SOURCE ORIGIN TAGS..." per series: SERIES_FILE's
# lines whose bundle is there, then bundles that file does not name.
series_table() {
	local name source rest b
	while read -r name source rest; do
		case $name in ''|'#'*) continue ;; esac
		[ "$source" != bundle ] || [ -f "$KERNEL_BUNDLES/$name.tar.xz" ] || continue
		echo "$name $source $rest"
	done < "$SERIES_FILE"
	for b in "$KERNEL_BUNDLES"/*.tar.xz; do
		[ -f "$b" ] || continue
		b=$(basename "$b" .tar.xz)
		awk -v n="$b" '$1 == n { f = 1 } END { exit f }' "$SERIES_FILE" &&
			echo "$b bundle -"
	done
}

# kernel_series [TAG]: the series a full run takes (debian and bundle), or
# those with TAG.
kernel_series() {
	series_table | awk -v t="${1:-}" '$2 != "built" {
		for (i = 4; i <= NF; i++) if ($i == t) f = 1
		if (t == "" || f) printf "%s%s", (n++ ? " " : ""), $1
		f = 0 } END { print "" }'
}

# kernel_one TAG: the first series with TAG, for a run on one kernel
kernel_one() {
	local s
	s=$(kernel_series "$1")
	[ -n "$s" ] || die "no kernel series tagged $1 in $SERIES_FILE (bundles: $(bundles_note))"
	echo "${s%% *}"
}

# bundle_release SERIES: the kernel release of a bundle series, the one
# lib/modules/ folder of its tarball.
bundle_release() {
	tar -tJf "$KERNEL_BUNDLES/$1.tar.xz" | sed -n 's|^\./lib/modules/\([^/]*\)/$|\1|p' | head -n 1
}

# series_field SERIES N: field N of the series' line (2 SOURCE, 3 ORIGIN)
series_field() {
	local f
	f=$(series_table | awk -v n="$1" -v i="$2" '$1 == n { print $i; exit }')
	[ -n "$f" ] || die "unknown kernel series '$1' (known: $(kernel_series) debug; bundles: $(bundles_note))"
	echo "$f"
}

series_source() { series_field "$1" 2; }

# series_has SERIES TAG
series_has() { case " $(kernel_series "$2") " in *" $1 "*) ;; *) return 1 ;; esac; }

# where bundles come from, for a message
bundles_note() {
	if compgen -G "$KERNEL_BUNDLES/*.tar.xz" >/dev/null; then
		echo "$KERNEL_BUNDLES"
	else
		echo "none in KERNEL_BUNDLES=$KERNEL_BUNDLES: those series are skipped (tests/kernels/bundle.sh makes one from a distribution's kernel source)"
	fi
}

# series_env SERIES: path of the env file written by fetch.sh.
series_env() { echo "$KERNELS_DIR/$1/env"; }

# series_lock SDIR: one fetch or build of a series at a time
series_lock() {
	mkdir -p "$1"
	exec 9>"$1/.lock"
	flock 9
}

# write_env SDIR KVER KDIR KMAKEFLAGS VMLINUZ MODDIR ROUTE PACKAGES: the
# env file of the series SDIR names, then print it
write_env() {
	printf "SERIES='%s'\nKVER='%s'\nKDIR='%s'\nKMAKEFLAGS='%s'\nVMLINUZ='%s'\nMODDIR='%s'\nKBUILD_ROUTE='%s'\nPACKAGES='%s'\n" \
		"${1##*/}" "${@:2}" > "$1/env.new"
	mv "$1/env.new" "$1/env"
	cat "$1/env"
}

# deb_fetch DIR PKG VER: the path of PKG=VER's .deb in DIR, downloaded
# (kapt) unless it is there
deb_fetch() {
	local deb
	deb=$(compgen -G "$1/${2}_${3}_*.deb" | head -n1)
	if [ -z "$deb" ]; then
		log "downloading $2 $3"
		mkdir -p "$1"
		(cd "$1" && kapt apt-get download -qq "$2=$3" >&2) || die "download of $2=$3 failed"
		deb=$(compgen -G "$1/${2}_${3}_*.deb" | head -n1)
	fi
	echo "$deb"
}

# unpack_source DEB DIR [TAR_ARGS...]: the kernel tree of a linux-source .deb
unpack_source() {
	local deb=$1 dir=$2
	shift 2
	mkdir -p "$dir"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards './usr/src/linux-source-*.tar.*' |
		tar -xJ -C "$dir" --strip-components=1 "$@"
}

# config_missing FRAGMENT CONFIG: each option of FRAGMENT that CONFIG does
# not hold ("CONFIG_X=v" as given, "# CONFIG_X is not set" unset)
config_missing() {
	local want
	sed -En 's/^(CONFIG_[A-Z0-9_]+=.*)$/\1/p; s/^# (CONFIG_[A-Z0-9_]+) is not set$/!\1/p' "$1" |
		while read -r want; do
			case $want in
			!*) ! grep -q "^${want#!}=" "$2" || echo "${want#!} set" ;;
			*) grep -qxF "$want" "$2" || echo "$want" ;;
			esac
		done
}

# need_modules DIR LOG SERIES...: each SERIES's mpt3sas.ko in DIR/SERIES/.
# In build/modules/, tests/matrix.sh builds those missing (its output in
# LOG); any other DIR (a suite's plants) must have them all.
need_modules() {
	local dir=$1 log=$2 missing='' s

	shift 2
	for s in "$@"; do
		[ -f "$dir/$s/mpt3sas.ko" ] || missing="$missing $s"
	done
	[ -n "$missing" ] || return 0
	[ "$dir" = "$BUILD_ROOT/modules" ] || die "no mpt3sas.ko for$missing in $dir"
	log "building the modules for$missing (tests/matrix.sh)"
	KERNELS=${missing# } "$REPO_ROOT/tests/matrix.sh" >"$log" 2>&1 ||
		die "tests/matrix.sh failed (${log#"$REPO_ROOT"/})"
}

# host_kver: the newest Debian 12 6.1 kernel whose headers this machine has
# (the host-side builds and checks), or nothing; host_kdir: its headers
host_kver() {
	local d
	find /lib/modules -mindepth 1 -maxdepth 1 -name '6.1.0-*-amd64' -printf '%f\n' |
		sort -V | while read -r d; do
			[ ! -e "/lib/modules/$d/build/include" ] || echo "$d"
		done | tail -n 1
}
host_kdir() {
	local k
	k=$(host_kver)
	[ -n "$k" ] && echo "/lib/modules/$k/build"
}

# prune_source DIR: keep of a built kernel's source or object tree what
# out-of-tree modules build against, its headers and scripts
prune_source() {
	rm -rf "$1/Documentation" "$1"/vmlinux* "$1"/.tmp_vmlinux*
	find "$1/arch" -mindepth 1 -maxdepth 1 ! -name x86 -exec rm -rf {} +
	find "$1" \( -path "$1/scripts" -o -path "$1/tools" \) -prune -o \
		\( -name '*.[cSoa]' -o -name '*.ko' -o -name '*.bin' -o -name '.*.cmd' \
		   -o -path "$1/drivers/*.h" -o -path "$1/fs/*.h" -o -path "$1/net/*.h" \
		   -o -path "$1/sound/*.h" \) -type f -print0 | xargs -0r rm -f
}
