#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/tools/pool-timing.sh: tools/mpt3sas-pool-timing without an HBA.
#
#  - --parse reads the driver's log lines (the formats of
#    src/mpt3sas/cp_dmapool.c) from a saved kernel log and prints the
#    create and destroy times side by side, with the ratios to chainpool;
#  - it refuses to measure without root;
#  - its safety check refuses when a mounted filesystem sits behind an
#    mpt3sas HBA (a fake sysfs/procfs tree), directly, through a
#    partition, or through device-mapper, and lets --force through.

set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
tool=$top/tools/mpt3sas-pool-timing
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header

# --- the driver's lines, as cp_dmapool.c prints them (dmesg and journal) ---
cat > "$tmp/kern.log" <<'LOG'
[    5.100000] mpt3sas version 48.100.00.00-cp1 loaded
[    6.000001] mpt3sas 0000:03:00.0: chain pool: chainpool, 373959 blocks of 128 B, 366 slabs (order 5 x 365, order 3 x 1), 46752 KiB: created in 6000 us
[   20.000001] mpt3sas 0000:03:00.0: chain pool: chainpool: freed and destroyed in 2000 us
[   21.000001] mpt3sas 0000:03:00.0: chain pool: chainpool, 373959 blocks of 128 B, 366 slabs (order 5 x 365, order 3 x 1), 46752 KiB: created in 8000 us
[   22.000001] mpt3sas 0000:03:00.0: chain pool: chainpool: freed and destroyed in 3000 us
[   30.000001] mpt3sas 0000:03:00.0: chain pool: dma_pool, 373959 blocks of 128 B: created in 350000 us
Nov 21 04:00:00 host kernel: mpt3sas 0000:03:00.0: chain pool: dma_pool: freed and destroyed in 8901000 us
LOG
if "$tool" --parse "$tmp/kern.log" > "$tmp/out" 2>&1; then
	ktap_test_pass "--parse reads a kernel log"
else
	ktap_test_fail "--parse failed: $(cat "$tmp/out")"
fi
expect() {	# description, then an ERE the output must match
	if grep -Eq "$2" "$tmp/out"; then ktap_test_pass "$1"; else ktap_test_fail "$1: no /$2/ in:"; sed 's/^/# | /' "$tmp/out"; fi
}
expect "one row per chainpool load" '^0000:03:00\.0 +chain pool +chainpool +373959 x 128 +6\.0 +2\.0$'
expect "the second chainpool load" '^0000:03:00\.0 +chain pool +chainpool +373959 x 128 +8\.0 +3\.0$'
expect "the dma_pool load, journal line included" '^0000:03:00\.0 +chain pool +dma_pool +373959 x 128 +350\.0 +8901\.0$'
expect "chainpool's medians" '^0000:03:00\.0 +chain pool +chainpool +7\.0 +1\.0x +2\.5 +1\.0x$'
expect "dma_pool against chainpool" '^0000:03:00\.0 +chain pool +dma_pool +350\.0 +50\.0x +8901\.0 +3560\.4x$'

# the run's wall times go into their own table
{ echo "ROUND chainpool 1"; cat "$tmp/kern.log"; echo "WALL chainpool 1 900 300"
  echo "WALL dma_pool 1 1300 9500"; } > "$tmp/run.log"
"$tool" --parse - < "$tmp/run.log" > "$tmp/out" 2>&1 || ktap_test_fail "--parse - failed"
expect "modprobe and rmmod times" '^dma_pool +1300 +9500$'

printf '[ 1.0] some other line\n' > "$tmp/none.log"
if "$tool" --parse "$tmp/none.log" >/dev/null 2>&1; then
	ktap_test_fail "--parse accepted a log without the driver's lines"
else
	ktap_test_pass "--parse fails on a log without the driver's lines"
fi

# --- root only ---
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$tool" > "$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = 2 ] && grep -q 'must run as root' "$tmp/out"; then
		ktap_test_pass "refuses to run without root"
	else
		ktap_test_fail "without root: exit $rc, $(cat "$tmp/out")"
	fi
elif [ "$(id -u)" != 0 ]; then
	rc=0
	"$tool" > "$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = 2 ]; then ktap_test_pass "refuses to run without root"; else ktap_test_fail "without root: exit $rc"; fi
fi

# --- the safety check on a fake machine ---
# sys/devices/pci0000:00/0000:00:03.0 is an mpt3sas HBA with disk sda (sda1,
# sda2), 0000:00:05.0 an AHCI controller with sdb; dm-0 sits on sda2.
mkfake() {
	local r=$1 hba=sys/devices/pci0000:00/0000:00:03.0 ahci=sys/devices/pci0000:00/0000:00:05.0
	mkdir -p "$r/proc/self" "$r/sys/bus/pci/drivers/mpt3sas" "$r/sys/bus/pci/drivers/ahci" \
		"$r/sys/class/block" "$r/sys/dev/block" \
		"$r/$hba/host0/target0:0:0/0:0:0:0/block/sda/sda1" \
		"$r/$hba/host0/target0:0:0/0:0:0:0/block/sda/sda2" \
		"$r/$ahci/ata1/host1/target1:0:0/1:0:0:0/block/sdb/sdb1" \
		"$r/sys/devices/virtual/block/dm-0/slaves"
	ln -s ../../../bus/pci/drivers/mpt3sas "$r/$hba/driver"
	ln -s ../../../bus/pci/drivers/ahci "$r/$ahci/driver"
	touch "$r/$hba/host0/target0:0:0/0:0:0:0/block/sda/sda1/partition" \
	      "$r/$hba/host0/target0:0:0/0:0:0:0/block/sda/sda2/partition" \
	      "$r/$ahci/ata1/host1/target1:0:0/1:0:0:0/block/sdb/sdb1/partition"
	ln -s "../../../$hba/host0/target0:0:0/0:0:0:0/block/sda" "$r/sys/class/block/sda"
	ln -s "../../../$hba/host0/target0:0:0/0:0:0:0/block/sda/sda1" "$r/sys/class/block/sda1"
	ln -s "../../../$hba/host0/target0:0:0/0:0:0:0/block/sda/sda2" "$r/sys/class/block/sda2"
	ln -s "../../../$ahci/ata1/host1/target1:0:0/1:0:0:0/block/sdb" "$r/sys/class/block/sdb"
	ln -s "../../../$ahci/ata1/host1/target1:0:0/1:0:0:0/block/sdb/sdb1" "$r/sys/class/block/sdb1"
	ln -s ../../devices/virtual/block/dm-0 "$r/sys/class/block/dm-0"
	ln -s "../../../../../../$hba/host0/target0:0:0/0:0:0:0/block/sda/sda2" \
		"$r/sys/devices/virtual/block/dm-0/slaves/sda2"
	ln -s ../../class/block/sda1 "$r/sys/dev/block/8:1"
	ln -s ../../class/block/sdb1 "$r/sys/dev/block/8:17"
	ln -s ../../class/block/dm-0 "$r/sys/dev/block/254:0"
	echo 'Filename Type Size Used Priority' > "$r/proc/swaps"
}
mountinfo() {	# ROOT then "MAJ:MIN MOUNTPOINT SOURCE" lines
	local r=$1 id=20 m devno mnt src
	shift
	: > "$r/proc/self/mountinfo"
	for m in "$@"; do
		read -r devno mnt src <<<"$m"
		echo "$id 1 $devno / $mnt rw,relatime shared:1 - ext4 $src rw" >> "$r/proc/self/mountinfo"
		id=$((id + 1))
	done
}
safety() {	# description, expected exit, ROOT, extra args
	local what=$1 want=$2 r=$3 rc=0
	shift 3
	MPT3SAS_TIMING_SYSROOT=$r "$tool" --check "$@" > "$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = "$want" ]; then ktap_test_pass "$what"; else ktap_test_fail "$what: exit $rc, want $want: $(cat "$tmp/out")"; fi
}
if [ "$(id -u)" = 0 ]; then
	f=$tmp/fake
	mkfake "$f"
	mountinfo "$f" "8:17 / /dev/sdb1" "0:22 /proc proc"
	safety "lets a machine booted from another controller through" 0 "$f"
	mountinfo "$f" "8:1 / /dev/sda1" "8:17 /home /dev/sdb1"
	safety "refuses when / is on a partition behind mpt3sas" 3 "$f"
	if grep -q '/ is on sda1 (sda1 behind mpt3sas HBA 0000:00:03.0)' "$tmp/out"; then
		ktap_test_pass "names the mount and the HBA"
	else
		ktap_test_fail "message: $(cat "$tmp/out")"
	fi
	safety "--force lets it through" 0 "$f" --force
	mountinfo "$f" "8:17 / /dev/sdb1" "254:0 /srv /dev/mapper/vg-srv"
	safety "refuses when device-mapper sits on a disk behind mpt3sas" 3 "$f"
	mountinfo "$f" "8:17 / /dev/sdb1"
	printf 'Filename Type Size Used Priority\n/dev/sda2 partition 1048576 0 -2\n' > "$f/proc/swaps"
	safety "refuses when swap is behind mpt3sas" 3 "$f"
else
	echo "skip: the safety checks run as root only"
fi

# --- a whole run against stand-ins for modprobe, rmmod, dmesg and id ---
# The fake machine boots from the AHCI disk and has mpt3sas loaded; the
# stand-in modprobe and rmmod write the driver's lines to the fake
# dev/kmsg, which the stand-in dmesg prints.
f=$tmp/run
bin=$tmp/bin
mkdir -p "$bin" "$f/dev"
mkfake "$f"
mountinfo "$f" "8:17 / /dev/sdb1"
mkdir -p "$f/sys/module/mpt3sas"
echo chainpool > "$f/loaded"
: > "$f/dev/kmsg"
cat > "$bin/id" <<'SH'
#!/bin/sh
echo 0
SH
cat > "$bin/modinfo" <<'SH'
#!/bin/sh
echo "max_sgl_entries:max sg entries (int)"
echo "pool_allocator:allocator behind the driver's DMA pools: chainpool (default) or dma_pool"
SH
cat > "$bin/modprobe" <<'SH'
#!/bin/sh
r=$MPT3SAS_TIMING_SYSROOT
echo "modprobe $*" >> "$r/calls"
alloc=
for a in "$@"; do case $a in pool_allocator=*) alloc=${a#*=} ;; esac; done
[ "$alloc" != "${FAIL_ALLOC:-none}" ] || exit 1
mkdir -p "$r/sys/module/mpt3sas"
echo "${alloc:-chainpool}" > "$r/loaded"
case $alloc in
chainpool) echo "[ 1.0] mpt3sas 0000:00:03.0: chain pool: chainpool, 373959 blocks of 128 B, 366 slabs (order 5 x 365, order 3 x 1), 46752 KiB: created in 6000 us" ;;
dma_pool) echo "[ 1.0] mpt3sas 0000:00:03.0: chain pool: dma_pool, 373959 blocks of 128 B: created in 350000 us" ;;
esac >> "$r/dev/kmsg"
SH
cat > "$bin/rmmod" <<'SH'
#!/bin/sh
r=$MPT3SAS_TIMING_SYSROOT
echo "rmmod $*" >> "$r/calls"
rmdir "$r/sys/module/mpt3sas" || exit 1
us=2000
[ "$(cat "$r/loaded")" = chainpool ] || us=8901000
echo "[ 2.0] mpt3sas 0000:00:03.0: chain pool: $(cat "$r/loaded"): freed and destroyed in $us us" >> "$r/dev/kmsg"
SH
cat > "$bin/dmesg" <<'SH'
#!/bin/sh
cat "$MPT3SAS_TIMING_SYSROOT/dev/kmsg"
SH
printf '#!/bin/sh
exit 0
' > "$bin/udevadm"
chmod +x "$bin"/*
rc=0
PATH=$bin:$PATH MPT3SAS_TIMING_SYSROOT=$f "$tool" --rounds 2 > "$tmp/out" 2>&1 || rc=$?
if [ "$rc" = 0 ]; then ktap_test_pass "a whole run with stand-ins"; else ktap_test_fail "a whole run: exit $rc"; sed 's/^/# | /' "$tmp/out"; fi
expect "two rounds of chainpool" '^0000:00:03\.0 +chain pool +chainpool +373959 x 128 +6\.0 +2\.0$'
expect "dma_pool beside chainpool" '^0000:00:03\.0 +chain pool +dma_pool +350\.0 +58\.3x +8901\.0 +4450\.5x$'
expect "the wall times of both" '^dma_pool +[0-9]+ +[0-9]+$'
if [ "$(grep -c 'pool_allocator=chainpool' "$f/calls")" = 2 ] &&
   [ "$(grep -c 'pool_allocator=dma_pool' "$f/calls")" = 2 ] &&
   grep -q 'max_sgl_entries=256' "$f/calls" &&
   [ "$(tail -n 1 "$f/calls")" = "modprobe mpt3sas" ] && [ -d "$f/sys/module/mpt3sas" ]; then
	ktap_test_pass "loads each allocator twice and leaves mpt3sas loaded as it found it"
else
	ktap_test_fail "calls:"; sed 's/^/# | /' "$f/calls"
fi

# a failed load stops the run, and mpt3sas is loaded again all the same
rm -f "$f/calls"
rc=0
FAIL_ALLOC=dma_pool PATH=$bin:$PATH MPT3SAS_TIMING_SYSROOT=$f "$tool" --rounds 1 > "$tmp/out" 2>&1 || rc=$?
if [ "$rc" != 0 ] && grep -q 'pool_allocator=dma_pool failed' "$tmp/out" &&
   [ "$(tail -n 1 "$f/calls")" = "modprobe mpt3sas" ] && [ -d "$f/sys/module/mpt3sas" ]; then
	ktap_test_pass "a failed modprobe stops the run and mpt3sas is loaded again"
else
	ktap_test_fail "failed modprobe: exit $rc"; sed 's/^/# | /' "$tmp/out" "$f/calls"
fi

# the run refuses without root, before touching anything
rm -f "$f/calls"
printf '#!/bin/sh
echo 1000
' > "$bin/id"
rc=0
PATH=$bin:$PATH MPT3SAS_TIMING_SYSROOT=$f "$tool" > "$tmp/out" 2>&1 || rc=$?
if [ "$rc" = 2 ] && [ ! -e "$f/calls" ]; then
	ktap_test_pass "a non-root run stops before loading anything"
else
	ktap_test_fail "non-root run: exit $rc"
fi

ktap_finished
