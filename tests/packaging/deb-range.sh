#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The package's per-kernel rules, in one install of the .deb on four
# kernels (packaging/kernel-setup.sh):
# - Debian 12's 6.1: ours is installed;
# - a kernel older than the supported range: skipped with the message.
#   Debian 12 has none: a stand-in release (4.14) with 6.1's headers,
#   which dkms 3.0.10 skips by the BUILD_EXCLUSIVE_KERNEL regex; dkms.mk,
#   the last line of defence for a dkms that knows no BUILD_EXCLUSIVE at
#   all, refuses it too;
# - a kernel with mpt3sas built in: a stand-in release with 6.1's headers
#   and a modules.builtin listing mpt3sas: one line, nothing installed;
# - a kernel whose in-tree mpt3sas is newer than ours: a 6.12 from
#   bookworm-security (installed here if missing, and removed again) with
#   its module's version rewritten: kept by default with one line; ours
#   only with /etc/mpt3sas-chainpool/replace-newer and the command the
#   line names.
#
#   tests/packaging/deb-range.sh       (KVER=<6.1 release>, KVER2=<6.12 release>)

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

suite="deb-range"
work=$top/build/pkg/test/$suite
added=

cleanup() {
	purge_pkg
	if [ -n "$added" ]; then
		step "removing the kernel this test installed: $added"
		# shellcheck disable=SC2086 # a list
		apt-get -q purge -y $added >/dev/null || echo "warning: could not purge $added" >&2
	fi
}
trap cleanup EXIT

in_pkgroot
ensure_tools
kver=$(pick_kernel)
kver2=${KVER2:-$(find /lib/modules -mindepth 1 -maxdepth 1 -name '6.12.*+deb12-amd64' -printf '%f\n' |
	sort -V | while read -r d; do [ -e "/lib/modules/$d/build/include" ] && echo "$d"; done | tail -n 1)}
if [ -z "$kver2" ]; then
	hdr=$(apt-cache search --names-only '^linux-headers-6\.12\.[0-9]+\+deb12-amd64$' |
		awk '{ print $1 }' | sort -V | tail -n 1)
	[ -n "$hdr" ] || ktap_exit_fail_msg "Debian's archive offers no linux-headers-6.12.*+deb12-amd64 (bookworm-security)"
	before=$(dpkg-query -W -f='${Package}\n' | sort)
	step "installing $hdr"
	apt-get -q install -y --no-install-recommends "$hdr" >/dev/null || ktap_exit_fail_msg "cannot install $hdr"
	added=$(comm -13 <(echo "$before") <(dpkg-query -W -f='${Package}\n' | sort) | tr '\n' ' ')
	kver2=${hdr#linux-headers-}
fi
[ -e "/lib/modules/$kver2/build/include" ] || ktap_exit_fail_msg "no headers for $kver2"
[ -z "$(leftovers)" ] || ktap_exit_fail_msg "files of $name are already installed: $(leftovers | tr '\n' ' ')"

# standin RELEASE [BUILTIN...]: a kernel of that release with 6.1's headers
# and those modules built in
standin() {
	mkdir -p "/lib/modules/$1"
	ln -sfn "$(readlink -f "/lib/modules/$kver/build")" "/lib/modules/$1/build"
	printf '%s\n' kernel/drivers/scsi/scsi_mod.ko "${@:2}" >"/lib/modules/$1/modules.builtin"
	depmod "$1"
	standins="$standins /lib/modules/$1"
}
standins=
old_k=4.14.0-1-amd64
step "a stand-in kernel $old_k, older than $kmin"
standin "$old_k"
range_line="$name supports kernels $kmin and newer; $old_k is not supported: skipped."

# A kernel whose own mpt3sas is newer than our base: the package keeps
# it, in one line, and installs ours only where $optin asks.  No kernel
# has such a driver yet: $kver2's in-tree module (or $kver's if it has
# none) becomes a stand-in, its version string rewritten to $newer (the
# same length).  This root is thrown away after the run.
newer=55.100.00.00
optin=/etc/$name/replace-newer
mdir=/lib/modules/$kver2/kernel/drivers/scsi/mpt3sas
src_ko=$(find "$mdir" "/lib/modules/$kver/kernel/drivers/scsi/mpt3sas" -name 'mpt3sas.ko*' 2>/dev/null | head -n 1)
step "a stand-in in-tree mpt3sas $newer for $kver2 (from $src_ko)"
mkdir -p "$work" "$mdir"
cp "$src_ko" "$work/intree.ko.${src_ko##*.}"
src_ko=$work/intree.ko.${src_ko##*.}
rm -f "$mdir"/mpt3sas.ko*
case $src_ko in
*.xz) xz -dc "$src_ko" ;;
*.zst) zstd -qdc "$src_ko" ;;
*) cat "$src_ko" ;;
esac | perl -0777 -pe 's/\bversion=[0-9.]{12}\0/version='"$newer"'\0/' >"$mdir/mpt3sas.ko"
depmod "$kver2"
ktap_test_result "$kver2's in-tree mpt3sas is $newer" [ "$(modinfo -k "$kver2" -F version mpt3sas)" = "$newer" ]
keep="$name: kernel $kver2 has its own mpt3sas $newer, newer than ours ($base): kept it, ours not installed"

# A kernel with mpt3sas built in (CONFIG_SCSI_MPT3SAS=y), which no module
# can replace: a stand-in release in range, with $kver's headers and a
# modules.builtin that lists mpt3sas.
builtin_k=${kver%-amd64}-builtin
bdir=/lib/modules/$builtin_k
step "a stand-in kernel $builtin_k with mpt3sas built in"
standin "$builtin_k" kernel/drivers/scsi/mpt3sas/mpt3sas.ko
builtin_line="$name: kernel $builtin_k has mpt3sas built in, and a module cannot replace a built-in driver: ours not installed for $builtin_k."

step "installing the package"
deb=$(build_debs "$work/full")
apt-get -q install -y "$deb" 2>&1 | tee "$work/install-newer.log" | grep -v '^readelf: Warning'
ktap_test_result "package is installed" [ "$(pkg_state)" = "install ok installed" ]
ktap_test_result "decide: builtin for $builtin_k" \
	[ "$(bash /usr/src/"$name"-*/kernel-setup.sh decide "$builtin_k")" = builtin ]
ktap_test_result "not installed for $builtin_k (mpt3sas built in)" not dkms_installed "$builtin_k"
ktap_test_result "nothing of ours in $builtin_k's modules" \
	[ -z "$(find "$bdir" -name 'mpt3sas.ko*')" ]
ktap_test_result "the install says so in one line: '$builtin_line'" \
	[ "$(tr -d '\r' <"$work/install-newer.log" | grep -cxF "$builtin_line")" = 1 ]
ktap_test_result "installed for $kver (in-tree 43.100.00.00)" dkms_installed "$kver"
ktap_test_result "modinfo -k $kver resolves to ours" glob "$(resolved_path "$kver")" "/lib/modules/$kver/updates/*"
ktap_test_result "not installed for $kver2 (in-tree $newer)" not dkms_installed "$kver2"
ktap_test_result "$kver2 still resolves to its in-tree $newer" \
	[ "$(resolved_path "$kver2") $(resolved_version "$kver2")" = "$mdir/mpt3sas.ko $newer" ]
ktap_test_result "the install says so in one line: '$keep'" grep -qF "$keep" "$work/install-newer.log"
# dkms's own "Error!" for the kernel out of range is expected: no other.
complaints=$(grep -E 'not newer|warning: the build|Error!' "$work/install-newer.log" |
	grep -vF "/$old_k/" || true)
ktap_test_result "no other dkms error or warning${complaints:+: $complaints}" [ -z "$complaints" ]
ktap_test_result "not installed for $old_k (older than $kmin)" not dkms_installed "$old_k"
ktap_test_result "nothing of ours in $old_k's modules" \
	[ -z "$(find "/lib/modules/$old_k" -name 'mpt3sas.ko*')" ]
ktap_test_result "the install names the range: '$range_line'" \
	grep -qF "$range_line" "$work/install-newer.log"

src=$(echo /usr/src/"$name"-*)

# Every in-tree driver up to our base gets ours: the kernels that carry
# 48.100 (6.12) to 54.100 (7.2, 7.3), as stand-ins made after the install
# (no dkms build for them), the decision only.
for v in 48.100.00.00 54.100.00.00; do
	k=${kver%-amd64}-intree-$v
	mkdir -p "/lib/modules/$k/kernel/drivers/scsi/mpt3sas"
	perl -0777 -pe 's/\bversion=[0-9.]{12}\0/version='"$v"'\0/' "$mdir/mpt3sas.ko" \
		>"/lib/modules/$k/kernel/drivers/scsi/mpt3sas/mpt3sas.ko"
	depmod "$k"
	standins="$standins /lib/modules/$k"
	ktap_test_result "decide: install over an in-tree $v" \
		[ "$(bash "$src"/kernel-setup.sh decide "$k")" = install ]
done

# A dkms without BUILD_EXCLUSIVE runs MAKE[0]: dkms.mk must refuse.
out=$(make -s -C "$src" -f dkms.mk range-check KVER="$old_k" KERNEL_MIN="$kmin" 2>&1) && rc=0 || rc=$?
echo "dkms.mk for $old_k: exit $rc: $out"
refused=no
if [ "$rc" != 0 ] && grep -qF "$name supports kernels $kmin and newer; $old_k is not supported" <<<"$out"; then refused=yes; fi
ktap_test_result "dkms.mk refuses $old_k with the message" [ "$refused" = yes ]
ktap_test_result "dkms.mk accepts $kver" make -s -C "$src" -f dkms.mk range-check KVER="$kver" KERNEL_MIN="$kmin"

step "opting in: $optin, then the command the line names"
mkdir -p "/etc/$name"
touch "$optin"
# apt runs dpkg on a pty: the log's lines end in \r\n.
cmd=$(tr -d '\r' <"$work/install-newer.log" |
	sed -n "s|^$name: kernel $kver2 .*to install ours anyway: touch $optin; \(.*\))\.\$|\1|p")
echo "command: $cmd"
ktap_test_result "the line names the command: bash /usr/src/$name-*/kernel-setup.sh install $kver2" \
	glob "$cmd" "bash /usr/src/$name-*/kernel-setup.sh install $kver2"
# shellcheck disable=SC2086 # a command line
$cmd 2>&1 | tee "$work/optin.log" | grep -v '^readelf: Warning'
ktap_test_result "opt-in: installed for $kver2" dkms_installed "$kver2"
ktap_test_result "opt-in: modinfo -k $kver2 resolves to ours under updates/" \
	glob "$(resolved_path "$kver2") $(resolved_version "$kver2")" "/lib/modules/$kver2/updates/* $base-*"
ktap_test_result "opt-in: one line says ours replaces $newer as asked" \
	grep -qF "$name: kernel $kver2 has its own mpt3sas $newer, newer than ours ($base): installing ours, as $optin asks." "$work/optin.log"

purge_step
# shellcheck disable=SC2086 # a list
rm -rf "/etc/${name:?}" $standins
ktap_test_result "$kver2 resolves to its in-tree $newer again" [ "$(resolved_version "$kver2")" = "$newer" ]
nothing_left

finish "$suite"
