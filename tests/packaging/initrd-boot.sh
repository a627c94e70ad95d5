#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# initrd-boot.sh [--deb SERIES | --rpm EL]: the initramfs deb-install.sh
# (on 6.1, or SERIES's kernel) or rpm-install.sh (EL) kept boots under QEMU
# and loads our mpt3sas.  /vmtest-init (rdinit=) stands in for its /init,
# which waits for a root disk, with builtins, mount, modprobe and sleep
# only: dracut's initramfs has no busybox.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"
# SPLAT_RE: the kernel log lines that fail a VM run
# shellcheck source=tests/vm/lib.sh
. "$top/tests/vm/lib.sh"

vm=$top/build/pkg/vm dest=updates/dkms
case ${1:-} in
--rpm) vm=$top/build/pkg/rpm-vm/${2:?initrd-boot.sh --rpm EL} dest=extra suite=initrd-boot-$2 ;;
--deb) vm=$top/build/pkg/vm-${2:?initrd-boot.sh --deb SERIES} suite=initrd-boot-$2 ;;
esac
[ -f "$vm/kver" ] || ktap_exit_fail_msg "no $vm/kver: run tests/packaging/deb-install.sh (rpm-install.sh) first"
work=$top/build/pkg/test/$suite
rm -rf "$work"
mkdir -p "$work/overlay"

cat >"$work/overlay/vmtest-init" <<'EOF'
#!/bin/sh
PATH=/sbin:/usr/sbin:/bin:/usr/bin
export PATH
mkdir -p /proc /sys /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /tmp
echo "INITRD: BEGIN"
modprobe --show-depends mpt3sas >/tmp/deps
last=
while read -r line; do last=$line; done </tmp/deps
echo "INITRD: resolves: $last"
if modprobe mpt3sas max_sgl_entries=256; then
	read -r v </sys/module/mpt3sas/version
	echo "INITRD: loaded version $v"
else
	echo "INITRD: modprobe mpt3sas failed"
fi
echo "INITRD: END"
echo 1 > /proc/sys/kernel/sysrq
echo o > /proc/sysrq-trigger
# init must not exit while the power-off is on its way
sleep 30
EOF
chmod +x "$work/overlay/vmtest-init"
(cd "$work/overlay" && echo vmtest-init | cpio -o -H newc --quiet | gzip -9) >"$work/overlay.cpio.gz"
# The kernel unpacks concatenated archives in order.
cat "$vm/initrd" "$work/overlay.cpio.gz" >"$work/initrd"

log=$work/serial.log
timeout --kill-after=10 240 qemu-system-x86_64 -accel tcg -machine q35 -m 1G -smp 1 \
	-nodefaults -no-user-config -display none -no-reboot -serial "file:$log" \
	-monitor none -kernel "$vm/vmlinuz" -initrd "$work/initrd" \
	-append "console=ttyS0 panic=-1 no_timer_check rdinit=/vmtest-init" \
	</dev/null >"$work/qemu.out" 2>&1 || true
tr -d '\r' <"$log" | grep -E '^INITRD:|mpt3sas' || true

ktap_test_result "the guest ran the package's initramfs to the end" grep -q '^INITRD: END' "$log"
ktap_test_result "mpt3sas resolves to the DKMS build under $dest/" \
	grep -qE "^INITRD: resolves: insmod /lib/modules/[^ ]*/$dest/mpt3sas\.ko" "$log"
ktap_test_result "the mpt3sas that loads is ours ($ourver)" grep -q "^INITRD: loaded version $ourver" "$log"
ktap_test_result "no splat in the kernel log" not grep -qE "$SPLAT_RE" "$log"

finish
