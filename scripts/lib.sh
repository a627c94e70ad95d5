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
