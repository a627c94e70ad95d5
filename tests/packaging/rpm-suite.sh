#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# rpm-suite.sh install|upgrade|kmod [--reduced|EL...]: rpm-SUITE.sh on each
# series tagged rpm (kmod: kmod; --reduced: the first tagged rpm-reduced),
# each in its own RPM root; install also boots its initramfs.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
what=${1:-}
case $what in
install | upgrade | kmod) shift ;;
*) echo "usage: rpm-suite.sh install|upgrade|kmod [--reduced|EL...]" >&2; exit 2 ;;
esac
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
# install: the first EL also gets the other bundle's kernel afterwards
after=
[ "$what" != install ] || after=--kernel-after
for el in "$@"; do
	EL=$el "$pk/root.sh" --rpm "$pk/rpm-$what.sh" $after || rc=1
	after=
	[ "$what" != install ] || "$pk/initrd-boot.sh" --rpm "$el" || rc=1
done
exit $rc
