#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build mpt3sas-chainpool-dkms-<version>-1.noarch.rpm from the `make dist`
# tarball, with rpmbuild (on Debian: apt-get install rpm).
#
#   build.sh PKG_DIR      (CP_RELEASE, DKMS_KERNEL_MIN/MAX as for dist.sh)
#
# RPM_SPEC=FILE builds from another spec (the tests' planted faults).

set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
LOG_TAG=rpm
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"
pkg_dist_facts "$1"

command -v rpmbuild >/dev/null || die "rpmbuild is missing: apt-get install rpm"

topdir=$out/rpmbuild
rm -rf "$topdir"
mkdir -p "$topdir/SOURCES" "$topdir/SPECS"
cp "$tarball" "$topdir/SOURCES/"
cp "$top/packaging/modprobe.d/mpt3sas-chainpool.conf" "$topdir/SOURCES/mpt3sas-chainpool.modprobe.conf"
cp "$top/packaging/depmod.d/mpt3sas-chainpool.rpm.conf" "$topdir/SOURCES/mpt3sas-chainpool.depmod.conf"
spec=$topdir/SPECS/$name-dkms.spec
cp "${RPM_SPEC:-$top/packaging/rpm/$name-dkms.spec}" "$spec"

# --nodeps: the build needs nothing, but Debian's rpm database knows no
# package at all.  A gzip payload: every rpm of the RHEL 8 to 10 family
# reads it, whatever Debian's rpm defaults to.
rpmbuild -bb --nodeps --define "_topdir $topdir" \
	--define "pkgver $version" --define "kernel_range $range" \
	--define "_binary_payload w9.gzdio" \
	"$spec" >"$topdir/build.log" 2>&1 || {
	tail -n 30 "$topdir/build.log" >&2
	die "rpmbuild failed (log: $topdir/build.log)"
}
rpm=$(find "$topdir/RPMS" -name "$name-dkms-$version-*.noarch.rpm" | head -n 1)
[ -n "$rpm" ] || die "rpmbuild made no package"
mv "$rpm" "$out/"
echo "rpm: $out/${rpm##*/}"
