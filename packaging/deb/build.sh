#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build mpt3sas-chainpool-dkms_<version>_all.deb from the `make dist`
# tarball (debhelper compat 13, dh-dkms).
#
#   build.sh PKG_DIR      (CP_RELEASE, DKMS_KERNEL_MIN/MAX as for dist.sh)
#
# Needs debhelper and dh-dkms (Debian 12: apt-get install debhelper dh-dkms).

set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
LOG_TAG=deb
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"
pkg_dist_facts "$1"

for tool in dpkg-buildpackage dh dh_dkms; do
	command -v "$tool" >/dev/null ||
		die "$tool is missing: apt-get install dpkg-dev debhelper dh-dkms"
done

maint=${DEB_MAINTAINER:-}
if [ -z "$maint" ]; then
	n=$(git -C "$top" config user.name 2>/dev/null || true)
	e=$(git -C "$top" config user.email 2>/dev/null || true)
	maint="${n:-mpt3sas-chainpool maintainers} <${e:-root@localhost}>"
fi
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH=$epoch

work=$out/deb-build
src=$work/$name-$version
rm -rf "$work"
mkdir -p "$src/module" "$src/conf/modprobe.d" "$src/conf/depmod.d"
tar -C "$src/module" --strip-components=1 -xzf "$tarball"
cp -r "$top/packaging/deb/debian" "$src/"
cp "$top/packaging/modprobe.d/mpt3sas-chainpool.conf" "$src/conf/modprobe.d/"
cp "$top/packaging/depmod.d/mpt3sas-chainpool.deb.conf" \
	"$src/conf/depmod.d/mpt3sas-chainpool.conf"

subst() {
	sed -e "s|@VERSION@|$version|g" -e "s|@KERNEL_RANGE@|$range|g" \
		-e "s|@MAINTAINER@|$maint|g" "$1" >"${1%.in}"
	rm "$1"
}
for f in "$src"/debian/*.in; do
	subst "$f"
done
chmod +x "$src/debian/rules"

cat >"$src/debian/changelog" <<EOT
$name ($version) unstable; urgency=medium

  * mpt3sas-chainpool $("$top/packaging/version.sh" release) on the mpt3sas
    driver $("$top/packaging/version.sh" module | sed 's/-.*//')
    (upstream's, as Debian's linux-source carries it).

 -- $maint  $(date -R -u -d "@$epoch")
EOT

(cd "$src" && dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1 || {
	tail -n 30 "$work/build.log" >&2
	die "dpkg-buildpackage failed (log: $work/build.log)"
}
deb=${name}-dkms_${version}_all.deb
mv "$work/$deb" "$out/$deb"
rm -rf "$work"
echo "deb: $out/$deb"
