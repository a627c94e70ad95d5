#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Secure Boot, with a stand-in mokutil: the DKMS key enrolled, not enrolled,
# and Secure Boot off.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

stub=/usr/bin/mokutil
state=/var/lib/mokutil-stand-in
cert=/var/lib/dkms/mok.pub

start_install_test
[ ! -e "$stub" ] || ktap_exit_fail_msg "$stub exists: this root has a real mokutil"

# The stand-in answers as mokutil does (kernel-setup.sh reads its text):
# --sb-state from $state/sb, --test-key from the sha256 list $state/enrolled.
mkdir -p "$state"
cat >"$stub" <<EOT
#!/bin/sh
# stand-in mokutil of tests/packaging/deb-secureboot.sh
echo "mokutil \$*" >>$state/calls
case \$1 in
--sb-state)
	if [ "\$(cat $state/sb)" = on ]; then echo "SecureBoot enabled"; else echo "SecureBoot disabled"; fi ;;
--test-key)
	[ -r "\$2" ] || { echo "Failed to read \$2" >&2; exit 255; }
	if grep -qxF "\$(sha256sum <"\$2" | cut -d' ' -f1)" $state/enrolled 2>/dev/null; then
		echo "\$2 is already enrolled"; exit 0
	fi
	echo "\$2 is not enrolled"; exit 1 ;;
*) echo "stand-in mokutil: \$1 not supported" >&2; exit 2 ;;
esac
EOT
chmod +x "$stub"

# Every file of the kernel's module directory (not its build links), hashed.
moddir_sum() {
	find "/lib/modules/$kver" \( -name build -o -name source \) -prune -o -type f -print0 |
		sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1
}
initrd_sum() { sha256sum <"/boot/initrd.img-$kver" | cut -d' ' -f1; }

step "a SAS2008 at 0000:05:00.0 behind /, and $kver's own mpt3sas without its ID"
# Beside $work, which build_pkg makes anew.
export MPT3SAS_CP_SYSFS=$work-sys
standin_sysfs "$MPT3SAS_CP_SYSFS" 0000:05:00.0 1000:0072
own=$(find "/lib/modules/$kver/kernel/drivers/scsi/mpt3sas" -name 'mpt3sas.ko*' | head -n 1)
ko_cat "$own" | no_sas2008 >"$work-own.ko"
rm -f "$own"
mv "$work-own.ko" "/lib/modules/$kver/kernel/drivers/scsi/mpt3sas/mpt3sas.ko"
depmod "$kver"
ktap_test_result "$kver's own mpt3sas lacks SAS2008 (1000:0072)" not has_sas2008 -k "$kver" mpt3sas

step "building the package"
deb=$(build_pkg "$work")
mods0=$(moddir_sum)
initrd0=$(initrd_sum)

step "1. Secure Boot on, key not enrolled: installing"
echo on >"$state/sb"
: >"$state/enrolled"
log=$work/install-sb.log
apt-get -q install -y "$deb" 2>&1 | tee "$log" | grep -v '^readelf: Warning'
ktap_test_result "package is installed" deb_installed
dkms status -m "$name"
ktap_test_result "mokutil was asked" grep -q -- '--sb-state' "$state/calls"
ktap_test_result "dkms: built for $kver" grep -q ': built' <<<"$(dkms status -m "$name" -k "$kver")"
ktap_test_result "dkms: not installed for $kver" not dkms_installed "$kver"
ktap_test_result "/lib/modules/$kver unchanged (every file's sha256)" [ "$(moddir_sum)" = "$mods0" ]
ktap_test_result "initramfs unchanged (sha256)" [ "$(initrd_sum)" = "$initrd0" ]
ktap_test_result "modinfo -k $kver still resolves to the in-tree driver" \
	glob "$(resolved_path "$kver")" "/lib/modules/$kver/kernel/drivers/scsi/mpt3sas/*"
built=$(find "/var/lib/dkms/$name" -path "*/$kver/*" -name 'mpt3sas.ko*' | head -n 1)
ktap_test_result "the built module is signed with the DKMS key" \
	[ "$(modinfo -F signer "$built" 2>/dev/null)" = "DKMS module signing key" ]
ktap_test_result "the key's certificate $cert exists to enroll" [ -s "$cert" ]
ktap_test_result "says: Secure Boot on, $cert not enrolled, not installed" \
	grep -qF "$name: Secure Boot is on and the DKMS signing key ($cert) is not enrolled: built and signed for kernel $kver, but NOT installed" "$log"
ktap_test_result "names: mokutil --import $cert" grep -qF "mokutil --import $cert" "$log"
ktap_test_result "names: MokManager, Enroll MOK, reboot" grep -qE 'reboot.*MokManager.*Enroll MOK' "$log"
# apt runs dpkg on a pty: the log's lines end in \r\n.
finish_cmd=$(tr -d '\r' <"$log" | sed -n "s|^  3\\. \\(bash /usr/src/$name-.*/kernel-setup\\.sh install $kver\\)\$|\\1|p")
ktap_test_result "names the command that finishes: bash /usr/src/$name-*/kernel-setup.sh install $kver" \
	[ -n "$finish_cmd" ]
ktap_test_result "one warning: $kver will boot with no driver for the SAS2008" \
	[ "$(no_driver_warning "$log" "$kver")" = 1 ]
ktap_test_result "it names the HBA and the root file system behind it" \
	grep -qF "$name: WARNING:   0000:05:00.0 [1000:0072] SAS2008: the ROOT FILE SYSTEM is behind it: $kver will NOT BOOT" "$log"
ktap_test_result "what to do before rebooting: enrol the key" \
	grep -qF "$name: WARNING: before rebooting: enrol the key and run" "$log"

step "2. key enrolled: the command that finishes"
sha256sum <"$cert" | cut -d' ' -f1 >"$state/enrolled"
# shellcheck disable=SC2086 # a command line
$finish_cmd 2>&1 | tee "$work/finish.log" | grep -v '^readelf: Warning'
ktap_test_result "installed for $kver" dkms_installed "$kver"
ktap_test_result "modinfo -k $kver resolves to ours under updates/" \
	glob "$(resolved_path "$kver") $(resolved_version "$kver")" "/lib/modules/$kver/updates/* $ourver"
ktap_test_result "initramfs rebuilt with ours" initrd_has "$kver" updates/dkms
ktap_test_result "no Secure Boot message this time" not grep -q 'Secure Boot' "$work/finish.log"
ktap_test_result "no warning this time" [ "$(no_driver_warning "$work/finish.log" "$kver")" = 0 ]

step "3. Secure Boot on, key enrolled: reinstalling"
l=$work/reinstall.log
apt-get -q install -y --reinstall "$deb" 2>&1 | tee "$l" | grep -v '^readelf: Warning'
ktap_test_result "installed for $kver" dkms_installed "$kver"
ktap_test_result "initramfs rebuilt" grep -qF "update-initramfs: Generating /boot/initrd.img-$kver" "$l"
ktap_test_result "initramfs holds ours" initrd_has "$kver" updates/dkms
ktap_test_result "no Secure Boot message" not grep -q 'Secure Boot' "$l"
ktap_test_result "no warning" [ "$(no_driver_warning "$l" "$kver")" = 0 ]

step "3b. the key not enrolled after all: the package's kernel hook, after dkms's installed ours"
: >"$state/enrolled"
"/etc/kernel/postinst.d/dkms-$name" "$kver" "/boot/vmlinuz-$kver" >"$work/hook.log" 2>&1
cat "$work/hook.log"
ktap_test_result "hook: one warning, $kver will boot with no driver for the SAS2008" \
	[ "$(no_driver_warning "$work/hook.log" "$kver")" = 1 ]
step "4. Secure Boot off, key not enrolled: the decision"
echo off >"$state/sb"
d=$(decide "$kver")
ktap_test_result "kernel-setup.sh decide $kver: install (got: $d)" [ "$d" = install ]

purge_step
finish
