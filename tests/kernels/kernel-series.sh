#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The list of kernel series and fetch.sh's bundles, on made-up bundles.

# shellcheck disable=SC2016 # the bash -c checks expand their own arguments
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
ktap_print_header
ktap_set_plan 9

# make_bundle NAME RELEASE [LINK]: a bundle with Ubuntu's layout whose
# build link is LINK (default: its own headers tree)
make_bundle() {
	local d=$scratch/make/$1 rel=$2
	rm -rf "$d"
	mkdir -p "$d/boot" "$d/lib/modules/$rel" "$d/usr/src/linux-headers-$rel"
	echo kernel > "$d/boot/vmlinuz-$rel"
	: > "$d/usr/src/linux-headers-$rel/Module.symvers"
	ln -s "${3:-../../../usr/src/linux-headers-$rel}" "$d/lib/modules/$rel/build"
	tar -C "$d" -cJf "$scratch/bundles/$1.tar.xz" .
}

# in_lib CMD...: run CMD with tests/kernels/lib.sh sourced, on the scratch
# bundles and kernels folders
in_lib() {
	KERNEL_BUNDLES=$scratch/bundles KERNELS_DIR=$scratch/kernels \
		bash -c '. "$0"/tests/kernels/lib.sh; "$@"' "$top" "$@"
}

mkdir -p "$scratch/bundles"
# the lines of tests/kernels/series, comments left out
lines=$(grep -v '^#' "$top/tests/kernels/series")
tagged=$(awk '$2 == "bundle" { print $1; exit }' <<<"$lines")
tags=$(awk -v n="$tagged" '$1 == n { $1 = $2 = $3 = ""; print; exit }' <<<"$lines" | xargs)
make_bundle "$tagged" 4.15.18-1-generic
make_bundle dropped 5.4.1-2-generic

all=$(in_lib kernel_series)
ktap_test_result "a dropped bundle is a series: $all" \
	grep -qE "(^| )dropped( |$)" <<<"$all"
# tagged_ok: every tag of the tagged bundle selects it and not the dropped one
tagged_ok() {
	local t list
	[ -n "$tags" ] || return 1
	for t in $tags; do
		list=" $(in_lib kernel_series "$t") "
		[[ $list == *" $tagged "* ]] && [[ $list != *" dropped "* ]] || return 1
	done
}
ktap_test_result "a bundle with a line has its tags ($tagged: $tags), a dropped one none" tagged_ok
debian=$(awk '$2 == "debian" { printf "%s ", $1 }' <<<"$lines" | xargs)
ktap_test_result "every Debian series of the file is listed ($debian)" \
	bash -c 'for s in $1; do case " $2 " in *" $s "*) ;; *) exit 1 ;; esac; done' _ "$debian" "$all"

env1=$(in_lib "$top/tests/kernels/fetch.sh" dropped 2>/dev/null)
ktap_test_result "fetch.sh unpacks a bundle into the env the suites read" \
	bash -c 'eval "$1"; [ "$KVER" = 5.4.1-2-generic ] && [ "$KBUILD_ROUTE" = bundle ] &&
		[ -f "$KDIR/Module.symvers" ] && [ "$VMLINUZ" = "$MODDIR/boot/vmlinuz-$KVER" ] &&
		[ -f "$VMLINUZ" ]' _ "$env1"
touch "$scratch/kernels/dropped/root/marker"
in_lib "$top/tests/kernels/fetch.sh" dropped >/dev/null 2>&1
ktap_test_result "a second fetch.sh of the same bundle unpacks nothing" \
	test -f "$scratch/kernels/dropped/root/marker"

make_bundle leaks 5.4.1-3-generic /usr/src/linux-headers-5.4.1-3-generic
ktap_test_red "a bundle whose build link leaves it is refused" "does not point into the bundle" \
	in_lib "$top/tests/kernels/fetch.sh" leaks

make_bundle two 5.4.1-4-generic
mkdir -p "$scratch/make/two/lib/modules/5.4.1-5-generic"
tar -C "$scratch/make/two" -cJf "$scratch/bundles/two.tar.xz" .
ktap_test_red "a bundle with two releases is refused" "holds not one lib/modules/<release>" \
	in_lib "$top/tests/kernels/fetch.sh" two

rm -f "$scratch/bundles"/*.tar.xz
none=$(in_lib kernel_series)
note=$(in_lib bundles_note)
ktap_test_result "without bundles only Debian's series are left ($none), and the note says where bundles come from" \
	bash -c '[ "$1" = "$2" ] && [[ $3 == *"tests/kernels/bundle.sh"* ]]' _ "$none" "$debian" "$note"

ktap_test_red "an unknown series is refused by name" "unknown kernel series 'no-such-kernel'" \
	in_lib "$top/tests/kernels/fetch.sh" no-such-kernel

ktap_finished
