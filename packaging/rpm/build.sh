#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the RHEL family's packages from the `make dist` tarball, with
# rpmbuild (on Debian: apt-get install rpm):
#
#   build.sh PKG_DIR              mpt3sas-chainpool-dkms-<version>-1.noarch.rpm
#   build.sh --kmod KVER PKG_DIR  kmod-mpt3sas-chainpool for kernel KVER
#                                 (make kmod), against KDIR (default
#                                 /usr/src/kernels/KVER, its kernel-devel);
#                                 SIGN_KEY and SIGN_CERT sign the module
#
# CP_RELEASE, DKMS_KERNEL_MIN/MAX as for dist.sh.  RPM_SPEC=FILE builds
# from another spec (the tests' planted faults).

set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
LOG_TAG=rpm
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"
kver=
if [ "${1:-}" = --kmod ]; then
	kver=${2:?usage: build.sh --kmod KVER PKG_DIR}
	shift 2
fi
pkg_dist_facts "${1:?usage: build.sh [--kmod KVER] PKG_DIR}"

command -v rpmbuild >/dev/null || die "rpmbuild is missing: apt-get install rpm"

spec=$name-dkms
args=(--define "kernel_range $range")
if [ -n "$kver" ]; then
	spec=$name-kmod
	args=(--define "kver $kver" --define "kernel_min $kmin" ${kmax:+--define "kernel_max $kmax"})
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
	# --nodeps: the build needs nothing, but Debian's rpm database knows
	# no package at all.
	args+=(--nodeps)
fi

topdir=$out/rpmbuild-$spec
rm -rf "$topdir"
mkdir -p "$topdir/SOURCES" "$topdir/SPECS"
cp "$tarball" "$topdir/SOURCES/"
cp "$top/packaging/modprobe.d/mpt3sas-chainpool.conf" "$topdir/SOURCES/mpt3sas-chainpool.modprobe.conf"
cp "$top/packaging/depmod.d/mpt3sas-chainpool.rpm.conf" "$topdir/SOURCES/mpt3sas-chainpool.depmod.conf"
cp "${RPM_SPEC:-$top/packaging/rpm/$spec.spec}" "$topdir/SPECS/$spec.spec"

# A gzip payload: every rpm of the RHEL 8 to 10 family reads it, whatever
# Debian's rpm defaults to.
rpmbuild -bb --define "_topdir $topdir" --define "pkgver $version" \
	--define "_binary_payload w9.gzdio" "${args[@]}" \
	"$topdir/SPECS/$spec.spec" >"$topdir/build.log" 2>&1 || {
	tail -n 30 "$topdir/build.log" >&2
	die "rpmbuild failed (log: $topdir/build.log)"
}
# The kABI report, as the build printed it
[ -z "$kver" ] || sed -n '/^# mpt3sas .*symbols imported$/,/^[+]/p' "$topdir/build.log" | grep -v '^[+]' >&2
rpm=$(find "$topdir/RPMS" -name '*.rpm' | head -n 1)
[ -n "$rpm" ] || die "rpmbuild made no package"
mv "$rpm" "$out/"
echo "rpm: $out/${rpm##*/}"
