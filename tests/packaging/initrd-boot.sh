#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Boot check: the initramfs that the installed .deb had rebuilt for Debian
# 12's 6.1 kernel (kept by deb-install.sh in build/pkg/vm/) boots under
# QEMU, and the mpt3sas it holds is ours and loads there, with its
# dependencies from the same initramfs.
#
# A small /vmtest-init, appended as a second cpio archive and started with
# rdinit=, stands in for initramfs-tools' /init, which would wait for a root
# disk QEMU does not have; everything else is the package's initramfs as
# the machine would boot it.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"
# SPLAT_RE: the kernel log lines that fail a VM run
# shellcheck source=tests/vm/lib.sh
. "$top/tests/vm/lib.sh"

vm=$top/build/pkg/vm
[ -f "$vm/kver" ] || ktap_exit_fail_msg "no $vm/kver: run tests/packaging/deb-install.sh first"
kver=$(cat "$vm/kver")
work=$top/build/pkg/test/initrd-boot
rm -rf "$work"
mkdir -p "$work/overlay"
want="$base-$(cat "$top/src/VERSION")"

cat >"$work/overlay/vmtest-init" <<'EOF'
#!/bin/sh
PATH=/sbin:/usr/sbin:/bin:/usr/bin
export PATH
mkdir -p /proc /sys /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "INITRD: BEGIN"
echo "INITRD: resolves: $(modprobe --show-depends mpt3sas | tail -n 1)"
if modprobe mpt3sas max_sgl_entries=256; then
	echo "INITRD: loaded version $(cat /sys/module/mpt3sas/version)"
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
cat "$vm/initrd.img-$kver" "$work/overlay.cpio.gz" >"$work/initrd"

log=$work/serial.log
timeout --kill-after=10 240 qemu-system-x86_64 -accel tcg -machine q35 -m 1G -smp 1 \
	-nodefaults -no-user-config -display none -no-reboot -serial "file:$log" \
	-monitor none -kernel "$vm/vmlinuz-$kver" -initrd "$work/initrd" \
	-append "console=ttyS0 panic=-1 no_timer_check rdinit=/vmtest-init" \
	</dev/null >"$work/qemu.out" 2>&1 || true
tr -d '\r' <"$log" | grep -E '^INITRD:|mpt3sas' || true

ktap_test_result "the guest ran the package's initramfs to the end" grep -q '^INITRD: END' "$log"
ktap_test_result "mpt3sas resolves to the DKMS build under updates/dkms/" \
	grep -qE '^INITRD: resolves: insmod /lib/modules/[^ ]*/updates/dkms/mpt3sas\.ko' "$log"
ktap_test_result "the mpt3sas that loads is ours ($want)" grep -q "^INITRD: loaded version $want" "$log"
ktap_test_result "no splat in the kernel log" not grep -qE "$SPLAT_RE" "$log"

finish initrd-boot
