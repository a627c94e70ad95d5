#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# rpm-suite.sh install|upgrade|kmod [--reduced|EL...]: rpm-SUITE.sh on each
# series tagged rpm (kmod: kmod; --reduced: the first tagged rpm-reduced),
# each in its own RPM root; install also boots its initramfs.

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
run() { EL=$1 "$pk/root.sh" --rpm "${@:2}"; }

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
