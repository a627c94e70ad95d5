# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Shared helpers for tests/kernels/ and tests/vm/ (sourced, not executed).
#
# Everything this project downloads lives under $BUILD_ROOT (default:
# <repo>/build).  Nothing is installed into the host's /boot or /lib/modules
# and the host's apt configuration is never modified: Debian suites other than
# the host's own are read through a private apt state directory per series.

KLIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=${REPO_ROOT:-$(cd "$KLIB_DIR/../.." && pwd)}
BUILD_ROOT=${BUILD_ROOT:-$REPO_ROOT/build}
KERNELS_DIR=${KERNELS_DIR:-$BUILD_ROOT/kernels}
ALL_SERIES="5.10 6.1 6.12 sid"
# built here, not fetched: tests/kernels/debug-kernel.sh
KNOWN_SERIES="$ALL_SERIES debug"

log()  { printf '%s: %s\n' "${LOG_TAG:-tests}" "$*" >&2; }
# die, tagged with LOG_TAG
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

need_cmds() {
	local c missing=""
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
	done
	[ -z "$missing" ] || die "missing host commands:$missing (see tests/kernels/README.md for the Debian packages to install)"
}

# Debian suites to read for a series.
series_suites() {
	case $1 in
	5.10) echo "bullseye bullseye-security" ;;
	6.1)  echo "bookworm bookworm-security" ;;
	6.12) echo "bookworm bookworm-security" ;;
	sid)  echo "sid" ;;
	debug) echo "bookworm bookworm-security" ;;
	*) die "unknown kernel series '$1' (known: $KNOWN_SERIES)" ;;
	esac
}

# Extended regex for the kernel ABI name of a series, as it appears in
# linux-headers-<ABI>-amd64.
series_abi_regex() {
	case $1 in
	5.10) echo '5\.10\.0-[0-9]+' ;;
	6.1)  echo '6\.1\.0-[0-9]+' ;;
	6.12) echo '6\.12\.[0-9]+\+deb12' ;;
	sid)  echo '[0-9]+\.[0-9]+(\.[0-9]+\+deb[0-9]+|\.0-[0-9]+)' ;;
	*) die "unknown kernel series '$1' (known: $ALL_SERIES)" ;;
	esac
}

# The host's Debian archive URIs, taken from its own apt configuration so that
# no mirror is hard-coded here.  Override with DEBIAN_MIRROR and
# DEBIAN_SECURITY_MIRROR.
host_mirrors() {
	local targets
	[ -n "${DEBIAN_MIRROR:-}" ] && [ -n "${DEBIAN_SECURITY_MIRROR:-}" ] && return 0
	targets=$(apt-get indextargets --format "\$(RELEASE) \$(REPO_URI)" 2>/dev/null | sort -u)
	if [ -z "$targets" ]; then
		log "host apt lists are empty; running apt-get update"
		apt-get update -qq >&2 || die "apt-get update failed"
		targets=$(apt-get indextargets --format "\$(RELEASE) \$(REPO_URI)" 2>/dev/null | sort -u)
	fi
	: "${DEBIAN_SECURITY_MIRROR:=$(echo "$targets" | awk '$1 ~ /^[a-z]+-security$/ {print $2; exit}')}"
	: "${DEBIAN_MIRROR:=$(echo "$targets" | awk '$1 ~ /^[a-z]+$/ {print $2; exit}')}"
	[ -n "$DEBIAN_MIRROR" ] || die "cannot find the Debian archive in the host's apt sources; set DEBIAN_MIRROR"
	[ -n "$DEBIAN_SECURITY_MIRROR" ] || die "cannot find the Debian security archive in the host's apt sources; set DEBIAN_SECURITY_MIRROR"
	DEBIAN_MIRROR=${DEBIAN_MIRROR%/}
	DEBIAN_SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR%/}
}

# kapt_init DIR SUITES...: private apt state in DIR reading only SUITES.
kapt_init() {
	local dir=$1 suite uri keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	shift
	[ -r "$keyring" ] || die "$keyring missing (install debian-archive-keyring)"
	host_mirrors
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/empty"
	: > "$dir/status"
	: > "$dir/sources.list.new"
	for suite in "$@"; do
		case $suite in
		*-security) uri=$DEBIAN_SECURITY_MIRROR ;;
		*) uri=$DEBIAN_MIRROR ;;
		esac
		echo "deb [arch=amd64 signed-by=$keyring] $uri $suite main" >> "$dir/sources.list.new"
	done
	mv "$dir/sources.list.new" "$dir/sources.list"
	KAPT_DIR=$dir
}

# kapt apt-get|apt-cache ARGS...: run an apt tool on the private state.
kapt() {
	local tool=$1 d=$KAPT_DIR
	shift
	"$tool" -q \
		-o Dir::Etc::SourceList="$d/sources.list" \
		-o Dir::Etc::SourceParts="$d/empty" \
		-o Dir::Etc::Preferences="$d/empty/none" \
		-o Dir::Etc::PreferencesParts="$d/empty" \
		-o Dir::State::Lists="$d/lists" \
		-o Dir::State::status="$d/status" \
		-o Dir::Cache="$d/cache" \
		-o APT::Architectures::=amd64 \
		-o APT::Sandbox::User=root \
		-o Acquire::Languages=none \
		-o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false \
		-o Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled=false \
		-o Acquire::IndexTargets::deb::DEP-11-icons-small::DefaultEnabled=false \
		-o Acquire::IndexTargets::deb::DEP-11-icons-hidpi::DefaultEnabled=false \
		"$@"
}

# kapt_version PKG: newest version of PKG in the private state (empty if none).
kapt_version() {
	kapt apt-cache show --no-all-versions "$1" 2>/dev/null | sed -n 's/^Version: //p' | head -n1
}

kapt_has() { [ -n "$(kapt_version "$1")" ]; }

# series_env SERIES: path of the env file written by fetch.sh.
series_env() { echo "$KERNELS_DIR/$1/env"; }
