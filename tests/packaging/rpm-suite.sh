#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/packaging/rpm-suite.sh install|upgrade|kmod [--reduced|EL...]:
# one of the RPM suites on each RHEL kernel bundle (default: the series
# tagged rpm in tests/kernels/series; --reduced: the first tagged
# rpm-reduced), each in its own RPM root (root.sh --rpm).  install
# installs and removes the package (rpm-install.sh), boots the initramfs
# it had made under QEMU (initrd-boot.sh --rpm EL), and installs the other
# bundle's kernel in between in the first EL's root.  kmod builds and
# installs the kmod package (rpm-kmod.sh) on each series tagged kmod.
# Prints KTAP.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
what=${1:?usage: rpm-suite.sh install|upgrade|kmod [--reduced|EL...]}
shift
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
if [ "${1:-}" = --reduced ]; then
	set -- "$(kernel_one rpm-reduced)"
elif [ $# = 0 ]; then
	tag=rpm
	[ "$what" != kmod ] || tag=kmod
	# shellcheck disable=SC2046 # one word a series
	set -- $(kernel_series "$tag")
	[ $# -gt 0 ] || die "no kernel series tagged $tag (bundles: $(bundles_note))"
fi
pk=$top/tests/packaging
rc=0

# run EL SCRIPT ARGS...: SCRIPT in a fresh RPM root as EL
run() {
	local el=$1
	shift
	EL=$el "$pk/root.sh" --rpm "$@"
}

case $what in
install)
	# the first EL also gets the other bundle's kernel afterwards
	after=--kernel-after
	for el in "$@"; do
		run "$el" "$pk/rpm-install.sh" $after || rc=1
		after=
		"$pk/initrd-boot.sh" --rpm "$el" || rc=1
	done ;;
upgrade)
	for el in "$@"; do run "$el" "$pk/rpm-upgrade.sh" || rc=1; done ;;
kmod)
	for el in "$@"; do run "$el" "$pk/rpm-kmod.sh" || rc=1; done ;;
*) echo "rpm-suite.sh: $what: install, upgrade or kmod" >&2; exit 2 ;;
esac
exit $rc
