# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Shared by the build, packaging and test scripts (sourced).  A script sets
# LOG_TAG, its short name, to tag its messages (default: its file name).
# packaging/kernel-range.sh keeps its own: it ships alone in the tarball.

# die MESSAGE: "TAG: error: MESSAGE" on stderr, exit 1
die() {
	printf '%s: error: %s\n' "${LOG_TAG:-${0##*/}}" "$*" >&2
	exit 1
}

# fill_fields FILE: FILE with the @...@ fields of make dist filled in, on
# stdout: the package version and the supported kernel series, as
# dkms.conf and the RPM spec name them.  With no newest series, the lines
# that would set it to nothing are left out.  An unknown field is an error.
fill_fields() {
	local pkg=${BASH_SOURCE[0]%/*}/../packaging kmin kmax regex out

	kmin=$("$pkg/kernel-range.sh" min)
	kmax=$("$pkg/kernel-range.sh" max)
	regex=$("$pkg/kernel-range.sh" regex "$kmin" ${kmax:+"$kmax"})
	# dkms compares whole releases: the last 6.11.y is below 6.11.999.
	out=$(sed -e "s/@PACKAGE_VERSION@/$("$pkg/version.sh")/g" \
		-e "s/@KERNEL_MIN@/$kmin/g" \
		-e "s/@KERNEL_MAX@/$kmax/g" \
		-e "s/@KERNEL_MAX_DKMS@/${kmax:+$kmax.999}/g" \
		-e "s/@KERNEL_RANGE@/$("$pkg/kernel-range.sh" text "$kmin" ${kmax:+"$kmax"})/g" \
		-e "s/@KERNEL_REGEX@/$(printf '%s' "$regex" | sed 's/[\\&/]/\\&/g')/g" \
		-e '/^BUILD_EXCLUSIVE_KERNEL_MAX=""$/d' -e '/^%global kernel_max *$/d' "$1") ||
		die "cannot read $1"
	! grep -n '@[A-Z_]*@' <<<"$out" >&2 || die "unfilled field in $1"
	printf '%s\n' "$out"
}

# pkg_dist_facts OUT_DIR: what the package builders take from `make dist`
# in OUT_DIR.  Sets out (OUT_DIR, absolute), name, version, range (the
# supported kernel series as text) and tarball, which must exist.
# shellcheck disable=SC2034 # set for the caller
pkg_dist_facts() {
	local pkg=${BASH_SOURCE[0]%/*}/../packaging kmin kmax

	out=$(cd "$1" && pwd)
	name=mpt3sas-chainpool
	version=$("$pkg/version.sh")
	tarball=$out/$name-$version.tar.gz
	kmin=$("$pkg/kernel-range.sh" min)
	kmax=$("$pkg/kernel-range.sh" max)
	range=$("$pkg/kernel-range.sh" text "$kmin" ${kmax:+"$kmax"})
	[ -f "$tarball" ] || die "no $tarball: run 'make dist' first"
}

# The host's Debian archive URIs, taken from its own apt configuration so that
# no mirror is hard-coded here.  Override with DEBIAN_MIRROR and
# DEBIAN_SECURITY_MIRROR.
host_mirrors() {
	local targets
	[ -n "${DEBIAN_MIRROR:-}" ] && [ -n "${DEBIAN_SECURITY_MIRROR:-}" ] && return 0
	targets=$(apt-get indextargets --format "\$(RELEASE) \$(REPO_URI)" 2>/dev/null | sort -u)
	if [ -z "$targets" ]; then
		echo "${LOG_TAG:-${0##*/}}: the host's apt lists are empty; running apt-get update" >&2
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
