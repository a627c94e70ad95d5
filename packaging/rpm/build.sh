#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the RHEL family's packages from the `make dist` tarball and the
# spec it carries (packaging/rpm/mpt3sas-chainpool.spec), with rpmbuild (on
# Debian: apt-get install rpm):
#
#   build.sh PKG_DIR              mpt3sas-chainpool-dkms-<version>-1.noarch.rpm
#   build.sh --kmod KVER PKG_DIR  kmod-mpt3sas-chainpool for kernel KVER
#                                 (make kmod), against KDIR (default
#                                 /usr/src/kernels/KVER, its kernel-devel);
#                                 SIGN_KEY and SIGN_CERT sign the module
#   build.sh --srpm PKG_DIR       mpt3sas-chainpool-<version>-1.src.rpm
#                                 (make srpm)
#
# CP_RELEASE, DKMS_KERNEL_MIN/MAX as for dist.sh.

set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
LOG_TAG=rpm
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"
kver=''
srpm=''
case ${1:-} in
--kmod)
	kver=${2:?usage: build.sh --kmod KVER PKG_DIR}
	shift 2 ;;
--srpm)
	srpm=1
	shift ;;
esac
pkg_dist_facts "${1:?usage: build.sh [--kmod KVER | --srpm] PKG_DIR}"

command -v rpmbuild >/dev/null || die "rpmbuild is missing: apt-get install rpm"

topdir=$out/rpmbuild${kver:+-kmod}
rm -rf "$topdir"
mkdir -p "$topdir/SOURCES" "$topdir/SPECS"
cp "$tarball" "$topdir/SOURCES/"
spec=$topdir/SPECS/$name.spec
fill_fields "$top/packaging/rpm/$name.spec" >"$spec"

# A gzip payload: every rpm of the RHEL 8 to 10 family reads it, whatever
# Debian's rpm defaults to.
args=(--define "_topdir $topdir" --define "_binary_payload w9.gzdio")
if [ -n "$srpm" ]; then
	args+=(-bs --define "_source_payload w9.gzdio")
elif [ -n "$kver" ]; then
	args+=(-bb --define "kver $kver")
	if [ -n "${KDIR:-}" ]; then
		[ -f "$KDIR/Module.symvers" ] || die "KDIR=$KDIR: no Module.symvers: not a kernel build tree"
		# A build tree from no package: rpm cannot check BuildRequires.
		args+=(--nodeps --define "kdir $(cd "$KDIR" && pwd)")
	else
		[ -f "/usr/src/kernels/$kver/Module.symvers" ] ||
			die "no /usr/src/kernels/$kver: dnf install kernel-devel-$kver, or give KDIR=<build tree>"
	fi
	if [ -n "${SIGN_KEY:-}" ]; then
		{ [ -f "$SIGN_KEY" ] && [ -f "${SIGN_CERT:-}" ]; } || die "SIGN_KEY needs SIGN_CERT, and both must exist"
		kd=${KDIR:-/usr/src/kernels/$kver}
		[ -x "$kd/scripts/sign-file" ] || die "$kd has no scripts/sign-file to sign the module with"
		args+=(--define "sign_key $(realpath "$SIGN_KEY")" --define "sign_cert $(realpath "$SIGN_CERT")")
	fi
else
	# --nodeps: the noarch build needs nothing, but Debian's rpm database
	# knows no package at all.
	args+=(-bb --nodeps)
fi

rpmbuild "${args[@]}" "$spec" >"$topdir/build.log" 2>&1 || {
	tail -n 30 "$topdir/build.log" >&2
	die "rpmbuild failed (log: $topdir/build.log)"
}
# The kABI report, as the build printed it
[ -z "$kver" ] || sed -n '/^# mpt3sas .*symbols imported$/,/^[+]/p' "$topdir/build.log" | grep -v '^[+]' >&2
if [ -n "$srpm" ]; then
	rpm=$(find "$topdir/SRPMS" -name '*.src.rpm' | head -n 1)
elif [ -n "$kver" ]; then
	rpm=$(find "$topdir/RPMS" -name "kmod-$name-*.rpm" | head -n 1)
else
	rpm=$(find "$topdir/RPMS" -name "$name-dkms-*.noarch.rpm" | head -n 1)
fi
[ -n "$rpm" ] || die "rpmbuild made no package"
mv "$rpm" "$out/"
echo "rpm: $out/${rpm##*/}"
