#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba/run.sh [--reduced] (`make hbatest`): the project's mpt3sas.ko on
# the emulated SAS3008 (tests/hba/sas3008.c, built into Debian's QEMU by
# tests/hba/qemu.sh) in the VM harness (tests/vm/run.sh), with scsi-hd
# disks backed by a host file.  Each guest runs tests/hba/guest/hba once
# per line of the plan: attach with max_sgl_entries=N and an allocator,
# geometry and chain count, the disk in sysfs, a host-written token read
# through the HBA, direct I/O written and read back, rmmod; no splat.
#
# --reduced: 6.1 and 6.12, plain, max_sgl_entries=256 with chainpool: one
# attach with 8 MiB of I/O and rmmod, one attach/detach cycle, one attach
# left loaded for the shutdown.
# Full: the series of KERNELS (default 6.1), plain and iommu, N = 16, 128,
# 256 and 2048 (the controller maximum: 128 chains per I/O) with chainpool,
# 64 with dma_pool and with the kernel's own mpt3sas (at 256 their rmmod
# takes minutes under TCG and the kernel reports RCU stalls: HBA_PLAN runs
# that), 4 concurrent writers.
# Timings land in build/hbatest/results.json (informative, never asserted).
#
# Environment: KERNELS, HBA_SETUPS, HBA_PLAN (steps, one "@hba N ALLOC MIB
# JOBS" per line), HBA_TIMEOUT (seconds per guest), HBA_DIR (output, default
# build/hbatest), HBA_QEMU_ARGS (more QEMU options), VMTEST_* knobs.
# The modules come from build/modules/<series>/ (`make matrix`), built
# there first if missing.  Logs: build/hbatest/<series>-<setup>.log.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
LOG_TAG=hbatest
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"

# All in a function: bash reads it whole before running it.
main() {
variant=full
case ${1:-} in
--reduced) variant=reduced ;;
'') ;;
*) echo "usage: $0 [--reduced]" >&2; exit 2 ;;
esac

out=${HBA_DIR:-$BUILD_ROOT/hbatest}
if [ $variant = reduced ]; then
	# one of each check: attach and I/O with rmmod, a cycle, a shutdown
	kernels=${KERNELS:-6.1 6.12}
	setups=${HBA_SETUPS:-plain}
	plan=${HBA_PLAN:-"@hba 256 chainpool 8 1
@hba-cycles 1 256 chainpool
@hba 256 chainpool 8 1 keep"}
else
	kernels=${KERNELS:-6.1}
	setups=${HBA_SETUPS:-plain iommu}
	plan=${HBA_PLAN:-"@hba 16 chainpool 8 4
@hba 128 chainpool 8 4
@hba 256 chainpool 16 4
@hba 64 dma_pool 16 4
@hba 64 in_tree 16 4
@hba 2048 chainpool 8 4
@hba-cycles 50 256 chainpool
@hba 256 chainpool 8 1 keep"}
fi
mkdir -p "$out"

"$here/qemu.sh"
qemu=$BUILD_ROOT/qemu/current/qemu-system-x86_64
[ -x "$qemu" ] || die "$qemu missing after tests/hba/qemu.sh"

# the device alone against malformed requests (qtest, no guest)
malformed=PASS
"$here/malformed.sh" "$qemu" > "$out/malformed.log" 2>&1 || malformed=FAIL
log "malformed requests: $malformed ($(tail -n 1 "$out/malformed.log"))"

# the project's mpt3sas.ko per series (HBA_MODULES_DIR/<series>/ if set:
# detects-faults.sh), with the kernel's sd_mod for the disk
moddir=${HBA_MODULES_DIR:-$BUILD_ROOT/modules}
missing=""
for series in $kernels; do
	[ -f "$moddir/$series/mpt3sas.ko" ] || missing="$missing $series"
done
[ -z "$missing" ] || [ -z "${HBA_MODULES_DIR:-}" ] ||
	die "no mpt3sas.ko for$missing in $HBA_MODULES_DIR"
if [ -n "$missing" ]; then
	log "building the modules for$missing (tests/matrix.sh)"
	KERNELS=${missing# } "$top/tests/matrix.sh" >"$out/matrix.log" 2>&1 ||
		die "tests/matrix.sh failed (build/hbatest/matrix.log)"
fi
unpack() {
	case $1 in
	*.ko.xz) xz -dc "$1" > "$2" ;;
	*.ko.zst) zstd -qdc "$1" > "$2" ;;
	*) cp "$1" "$2" ;;
	esac
}
mods=$out/modules
rm -rf "$mods"
for series in $kernels; do
	"$top/tests/kernels/fetch.sh" "$series" >/dev/null
	# shellcheck disable=SC1090 # written by fetch.sh
	. "$(series_env "$series")"
	: "${KVER:?}" "${MODDIR:?}"	# from the env file
	mkdir -p "$mods/$series"
	cp "$moddir/$series/mpt3sas.ko" "$mods/$series/"
	ko=$(modprobe -d "$MODDIR" -S "$KVER" --show-depends sd_mod | awk '/^insmod/ {p=$2} END {print p}')
	[ -n "$ko" ] || die "$series: the kernel has no sd_mod module"
	unpack "$ko" "$mods/$series/sd_mod.ko"
	# the kernel's own mpt3sas, under another file name
	ko=$(modprobe -d "$MODDIR" -S "$KVER" --show-depends mpt3sas | awk '/^insmod/ {p=$2} END {print p}')
	[ -n "$ko" ] || die "$series: the kernel has no mpt3sas module"
	unpack "$ko" "$mods/$series/mpt3sas_intree.ko"
	echo "$KVER" > "$mods/$series/kver"
done

# one 64 MiB disk; its first sector carries a token the guest must read
# through the HBA.  Each guest writes to its own snapshot of it.
token=$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
disk=$out/disk0.img
rm -f "$disk"
truncate -s 64M "$disk"
printf 'hbatest %s\n' "$token" | dd of="$disk" conv=notrunc status=none
# the sector the HBA holds once per attach, for the task abort check
stall=120000
printf 'hbatest-stall %s\n' "$token" |
	dd of="$disk" bs=512 seek=$stall conv=notrunc status=none

args="-L /usr/share/qemu -L /usr/share/seabios ${HBA_QEMU_ARGS:-}
-cpu max
-device sas3008,id=hba,stall_lba=$stall
-drive if=none,id=d0,file=$disk,format=raw,snapshot=on,cache=writeback
-device scsi-hd,drive=d0,bus=hba.0,scsi-id=0"

start=$SECONDS
set +e
VM_DIR=$out MODULES_DIR=$mods KERNELS=$kernels VMTEST_SETUPS=$setups \
	VMTEST_TIMEOUT=${HBA_TIMEOUT:-600} VMTEST_STEPS=$plan \
	VMTEST_SCRIPT_DIR=$here/guest VMTEST_QEMU=$qemu VMTEST_QEMU_ARGS=$args \
	VMTEST_APPEND="hbatest.token=$token hbatest.stall_lba=$stall" VMTEST_PREFETCH=0 \
	"$top/tests/vm/run.sh" 2>&1 | tee "$out/harness.out" | sed 's/^/    /' >&2
set -e

echo
ktap_print_header
ktap_print_msg "hbatest ($variant), $((SECONDS - start)) s:"
# the guest scripts' own lines, per guest
for series in $kernels; do
	for setup in $setups; do
		log=$out/$series-$setup.log
		[ -f "$log" ] || continue
		tr -d '\r' < "$log" | sed -n 's/^\(hba\|hba-cycles\): \(ok [0-9]* .*\|FAIL: .*\|FIGURES .*\)/\1: \2/p' |
			sed "s/^/# $series $setup: /"
	done
done
ktap_test_result "the harness: $(tail -n 1 "$out/harness.out")" \
	grep -qE '^[0-9]+ passed, 0 failed$' "$out/harness.out"
ktap_test_result "malformed requests (tests/hba/malformed.sh): $(tail -n 1 "$out/malformed.log")" \
	[ "$malformed" = PASS ]

# build/hbatest/results.json: one record per attach of the plan
ns() { case $1 in -|'') echo null ;; *) echo $(($1 * $2)) ;; esac; }
for series in $kernels; do
	for setup in $setups; do
		log=$out/$series-$setup.log
		[ -f "$log" ] || continue
		kver=$(cat "$mods/$series/kver")
		iommu=false
		[ "$setup" = iommu ] && iommu=true
		# the .shutdown of a driver left loaded ("keep"): from init's
		# marker to the kernel's last line, in kernel time
		shutdown_us=$(tr -d '\r' < "$log" | awk '
			function t(l) { sub(/^\[ */, "", l); sub(/\].*/, "", l); return l }
			/VMTEST: poweroff/ { a = t($0) }
			/reboot: Power down/ { b = t($0) }
			END { if (a != "" && b != "") printf "%d", (b - a) * 1000000 }')
		# shellcheck disable=SC2154 # the f_* are set by the eval below
		tr -d '\r' < "$log" | sed -n 's/^hba: FIGURES //p' |
		while read -r fig; do
			# n= allocator= chains= attach_ms= rmmod_ms= chain_alloc_us= chain_free_us=
			f_keep=
			eval "$(echo "$fig" | tr ' ' '\n' | grep -E '^[a-z_]+=[-0-9a-z_]+$' | sed 's/^/f_/')"
			driver=ours chains=$f_chains shut=-
			[ "$f_allocator" = in_tree ] && driver=in_tree chains=null
			[ "$f_keep" = 1 ] && shut=${shutdown_us:--}
			printf '{"series":"%s","kernel":"%s","iommu":%s,"driver":"%s","allocator":"%s","max_sgl_entries":%s,"nr_chains":%s,"attach_ns":%s,"rmmod_ns":%s,"shutdown_ns":%s,"chain_alloc_ns":%s,"chain_free_ns":%s}\n' \
				"$series" "$kver" "$iommu" "$driver" "$f_allocator" "$f_n" "$chains" \
				"$(ns "$f_attach_ms" 1000000)" "$(ns "$f_rmmod_ms" 1000000)" "$(ns "$shut" 1000)" \
				"$(ns "$f_chain_alloc_us" 1000)" "$(ns "$f_chain_free_us" 1000)"
		done
	done
done > "$out/records"
{
	echo '{"records":['
	paste -sd, "$out/records"
	echo ']}'
} > "$out/results.json"
ktap_print_msg "records: ${out#"$top"/}/results.json"
ktap_print_plan
ktap_print_totals
echo "$KTAP_CNT_PASS passed, $KTAP_CNT_FAIL failed"
[ "$KTAP_CNT_FAIL" = 0 ]
}

main "$@"; exit $?
