#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Print the package version: <upstream driver_version>.<release>, e.g.
# 54.100.00.00.cp1, from src/mpt3sas/upstream.lock and src/VERSION (or
# CP_RELEASE, to build a test package with another release).
#
#   version.sh            package version   (54.100.00.00.cp1)
#   version.sh release    release           (cp1)
#   version.sh module     module version    (54.100.00.00-cp1, modinfo's)
#
# Why a dot and not a tilde: in both dpkg and rpm "~" sorts *before*
# nothing, so 54.100.00.00~cp1 would be older than a plain 54.100.00.00,
# while cp1 is our release on top of that base.  With a dot both tools
# compare 54.100.00.00.cp1 part by part: the upstream base first, then
# "cp" equal, then the release number numerically (cp2 > cp1, cp10 > cp9),
# and the longer version is newer than a bare 54.100.00.00.  "-" is not
# allowed in an rpm Version and would be a revision in dpkg.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
base=$(sed -n 's/^driver_version=//p' "$top/src/mpt3sas/upstream.lock")
release=${CP_RELEASE:-$(cat "$top/src/VERSION")}

[[ $base =~ ^[0-9]+(\.[0-9]+)*$ ]] || {
	echo "version: bad driver_version '$base' in src/mpt3sas/upstream.lock" >&2
	exit 1
}
[[ $release =~ ^[a-z]+[0-9]+$ ]] || {
	echo "version: release '$release' must be letters then digits (cp1, cp2, ...)" >&2
	exit 1
}

case ${1:-package} in
package) echo "$base.$release" ;;
release) echo "$release" ;;
module) echo "$base-$release" ;;
*) echo "version: unknown field $1" >&2; exit 1 ;;
esac
