#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The package's per-kernel rules (packaging/kernel-setup.sh) in one install
# of the .deb, on Debian 12's 6.1 (KVER) and 6.12 (KVER2; installed here if
# missing) and stand-in kernels.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

start_install_test
kver2=${KVER2:-}
if [ -z "$kver2" ]; then
	hdr=$(apt-cache search --names-only '^linux-headers-6\.12\.[0-9]+\+deb12-amd64$' |
		awk '{ print $1 }' | sort -V | tail -n 1)
	[ -n "$hdr" ] || ktap_exit_fail_msg "Debian's archive offers no linux-headers-6.12.*+deb12-amd64 (bookworm-security)"
	step "installing $hdr"
	apt-get -q install -y --no-install-recommends "$hdr" >/dev/null || ktap_exit_fail_msg "cannot install $hdr"
	kver2=${hdr#linux-headers-}
fi
[ -e "/lib/modules/$kver2/build/include" ] || ktap_exit_fail_msg "no headers for $kver2"

# standin RELEASE [BUILD [BUILTIN...]]: a kernel of that release with
# BUILD (default: 6.1's headers; none: no headers) and those modules built in
standin() {
	mkdir -p "/lib/modules/$1"
	case ${2-} in
	none) ;;
	'') ln -sfn "$(readlink -f "/lib/modules/$kver/build")" "/lib/modules/$1/build" ;;
	*) ln -sfn "$2" "/lib/modules/$1/build" ;;
	esac
	printf '%s\n' kernel/drivers/scsi/scsi_mod.ko "${@:3}" >"/lib/modules/$1/modules.builtin"
	depmod "$1"
}
old_k=4.14.0-1-amd64
step "a stand-in kernel $old_k, older than $kmin"
standin "$old_k"
range_line="$name supports kernels $kmin and newer; $old_k is not supported: skipped."

# The machine has a SAS2008, and / is on its disk: a stand-in sysfs.
export MPT3SAS_CP_SYSFS=$work/sys
hba="0000:05:00.0 [1000:0072] SAS2008"
standin_sysfs "$MPT3SAS_CP_SYSFS" 0000:05:00.0 1000:0072

# A kernel whose own mpt3sas is newer than our base keeps it unless $optin
# asks, or it lacks a present HBA.  No kernel has one yet: 6.12's in-tree
# module (or 6.1's) becomes one, its version rewritten to $newer (the same
# length): for $newk as it is, for $kver2 without SAS2008's ID.
newer=55.100.00.00
optin=/etc/$name/replace-newer
mdir=/lib/modules/$kver2/kernel/drivers/scsi/mpt3sas
newk=${kver%-amd64}-newer
ndir=/lib/modules/$newk/kernel/drivers/scsi/mpt3sas
src_ko=$(find "$mdir" "/lib/modules/$kver/kernel/drivers/scsi/mpt3sas" -name 'mpt3sas.ko*' 2>/dev/null | head -n 1)
step "stand-in in-tree mpt3sas $newer for $newk, and without SAS2008 for $kver2 (from $src_ko)"
mkdir -p "$work" "$mdir" "$ndir"
ko_cat "$src_ko" >"$work/intree.ko"
rm -f "$mdir"/mpt3sas.ko*
# with_version V: the module (stdin) with its version string rewritten to V
with_version() { perl -0777 -pe 's/\bversion=[0-9.]{12}\0/version='"$1"'\0/'; }
with_version "$newer" <"$work/intree.ko" >"$ndir/mpt3sas.ko"
no_sas2008 <"$ndir/mpt3sas.ko" >"$mdir/mpt3sas.ko"
depmod "$kver2"
standin "$newk"
ktap_test_result "$kver2's in-tree mpt3sas is $newer" [ "$(resolved_version "$kver2")" = "$newer" ]
ktap_test_result "$kver2's in-tree mpt3sas lacks SAS2008 (1000:0072)" not has_sas2008 -k "$kver2" mpt3sas
ktap_test_result "$newk's in-tree mpt3sas is $newer, with SAS2008" has_sas2008 -k "$newk" mpt3sas
keep="$name: kernel $newk has its own mpt3sas $newer, newer than ours ($base): kept it, ours not installed"
forhba="$name: kernel $kver2 has its own mpt3sas $newer, newer than ours ($base), but it lacks the HBA $hba: installing ours."

# mpt3sas built in (CONFIG_SCSI_MPT3SAS=y): no module can replace it
builtin_k=${kver%-amd64}-builtin
bdir=/lib/modules/$builtin_k
step "a stand-in kernel $builtin_k with mpt3sas built in"
standin "$builtin_k" '' kernel/drivers/scsi/mpt3sas/mpt3sas.ko
builtin_line="$name: kernel $builtin_k has mpt3sas built in, and a module cannot replace a built-in driver: ours not installed for $builtin_k."
# Its built-in driver claims SAS3008 only.
printf 'mpt3sas.alias=pci:v00001000d00000097sv*sd*bc*sc*i*\0' >"$bdir/modules.builtin.modinfo"

fail_k=${kver%-amd64}-badheaders
step "a stand-in kernel $fail_k whose build fails, and ${kver%-amd64}-noheaders"
mkdir -p "$work/$fail_k-build/include"
printf 'all %%:\n\t@echo stand-in headers that build nothing; false\n' >"$work/$fail_k-build/Makefile"
standin "$fail_k" "$work/$fail_k-build"
nohdr_k=${kver%-amd64}-noheaders
standin "$nohdr_k" none
nohdr_line="$name: kernel $nohdr_k has no headers (/lib/modules/$nohdr_k/build): ours not built for $nohdr_k"

step "installing the package"
deb=$(build_pkg "$work/full")
log=$work/install.log
apt-get -q install -y "$deb" 2>&1 | tee "$log" | grep -v '^readelf: Warning'
ktap_test_result "package is installed" deb_installed
ktap_test_result "decide: builtin for $builtin_k" [ "$(decide "$builtin_k")" = builtin ]
ktap_test_result "not installed for $builtin_k (mpt3sas built in)" not dkms_installed "$builtin_k"
ktap_test_result "nothing of ours in $builtin_k's modules" [ -z "$(find "$bdir" -name 'mpt3sas.ko*')" ]
ktap_test_result "the install says so in one line: '$builtin_line'" [ "$(lines "$log" "$builtin_line")" = 1 ]
ktap_test_result "installed for $kver (in-tree 43.100.00.00)" dkms_installed "$kver"
ktap_test_result "modinfo -k $kver resolves to ours" glob "$(resolved_path "$kver")" "/lib/modules/$kver/updates/*"
ktap_test_result "not installed for $newk (in-tree $newer)" not dkms_installed "$newk"
ktap_test_result "$newk still resolves to its in-tree $newer" \
	[ "$(resolved_path "$newk") $(resolved_version "$newk")" = "$ndir/mpt3sas.ko $newer" ]
ktap_test_result "the install says so in one line: '$keep'" grep -qF "$keep" "$log"
ktap_test_result "installed for $kver2 (in-tree $newer without SAS2008, a SAS2008 present)" dkms_installed "$kver2"
ktap_test_result "modinfo -k $kver2 resolves to ours under updates/" \
	glob "$(resolved_path "$kver2") $(resolved_version "$kver2")" "/lib/modules/$kver2/updates/* $base-*"
ktap_test_result "the install says why in one line: '$forhba'" [ "$(lines "$log" "$forhba")" = 1 ]
for k in "$old_k" "$builtin_k" "$fail_k" "$nohdr_k"; do
	ktap_test_result "one warning: $k will boot with no driver for the SAS2008" \
		[ "$(no_driver_warning "$log" "$k")" = 1 ]
done
for k in "$kver" "$kver2" "$newk"; do
	ktap_test_result "no warning for $k" [ "$(no_driver_warning "$log" "$k")" = 0 ]
done
ktap_test_result "the warning names the HBA and the root file system behind it" \
	[ "$(lines "$log" "$name: WARNING:   $hba: the ROOT FILE SYSTEM is behind it: $fail_k will NOT BOOT")" = 1 ]
ktap_test_result "what to do before rebooting: for a failed build, the headers" \
	grep -qF "$name: WARNING: before rebooting: install the headers of $fail_k" "$log"
ktap_test_result "what to do before rebooting: out of range, built in: do not boot it" \
	[ "$(grep -cE "$name: WARNING: before rebooting: do not boot ($old_k|$builtin_k):" "$log")" = 2 ]
ktap_test_result "kernel-setup.sh all: one line for $nohdr_k (no headers)" [ "$(grep -cF "$nohdr_line" "$log")" = 1 ]
ktap_test_result "not installed for $fail_k (its build failed)" not dkms_installed "$fail_k"
# dkms's own "Error!" for the kernels out of range and without working
# headers is expected: no other.
complaints=$(grep -E 'not newer|warning: the build|Error!' "$log" |
	grep -vF -e "/$old_k/" -e "$fail_k" || true)
ktap_test_result "no other dkms error or warning${complaints:+: $complaints}" [ -z "$complaints" ]
ktap_test_result "not installed for $old_k (older than $kmin)" not dkms_installed "$old_k"
ktap_test_result "nothing of ours in $old_k's modules" [ -z "$(find "/lib/modules/$old_k" -name 'mpt3sas.ko*')" ]
ktap_test_result "the install names the range: '$range_line'" grep -qF "$range_line" "$log"

# Every in-tree driver up to our base gets ours: 48.100 (6.12) to 54.100
# (7.2, 7.3), stand-ins made after the install: the decision only.
for v in 48.100.00.00 54.100.00.00; do
	k=${kver%-amd64}-intree-$v
	mkdir -p "/lib/modules/$k/kernel/drivers/scsi/mpt3sas"
	with_version "$v" <"$mdir/mpt3sas.ko" >"/lib/modules/$k/kernel/drivers/scsi/mpt3sas/mpt3sas.ko"
	standin "$k" none
	ktap_test_result "decide: install over an in-tree $v" [ "$(decide "$k")" = install ]
done

step "the kernel hook for $nohdr_k, as run-parts runs it after dkms's"
ktap_test_result "the kernel hook comes after dkms's in /etc/kernel/postinst.d" \
	[ "$(run-parts --test /etc/kernel/postinst.d | grep -n -e '/dkms$' -e "/dkms-$name\$" | cut -d: -f2 | paste -sd' ')" = \
	  "/etc/kernel/postinst.d/dkms /etc/kernel/postinst.d/dkms-$name" ]
# dkms's and ours only: not initramfs-tools' or the boot loader's.
for f in $(run-parts --test /etc/kernel/postinst.d); do
	case ${f##*/} in
	dkms | "dkms-$name") "$f" "$nohdr_k" "/boot/vmlinuz-$nohdr_k" || true ;;
	esac
done >"$work/hook.log" 2>&1
cat "$work/hook.log"
ktap_test_result "hook: one line for $nohdr_k (no headers)" [ "$(grep -cF "$nohdr_line" "$work/hook.log")" = 1 ]
ktap_test_result "hook: one warning, $nohdr_k will boot with no driver for the SAS2008" \
	[ "$(no_driver_warning "$work/hook.log" "$nohdr_k")" = 1 ]

step "opting in: $optin, then the command the line names"
mkdir -p "/etc/$name"
touch "$optin"
cmd=$(tr -d '\r' <"$log" |
	sed -n "s|^$name: kernel $newk .*to install ours anyway: touch $optin; \(.*\))\.\$|\1|p")
echo "command: $cmd"
ktap_test_result "the line names the command: bash /usr/src/$name-*/kernel-setup.sh install $newk" \
	glob "$cmd" "bash /usr/src/$name-*/kernel-setup.sh install $newk"
# The decision only: its install is the one $kver2 got above (dkms
# install --force-version-override); a third build would cost a minute.
d=$(decide "$newk")
ktap_test_result "opt-in: kernel-setup.sh decide $newk: install-over-newer (got: $d)" [ "$d" = install-over-newer ]
rm -f "$optin"

purge_step
ktap_test_result "$kver2 resolves to its in-tree $newer again" [ "$(resolved_version "$kver2")" = "$newer" ]
finish
