#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tools/mpt3sas-pool-timing without an HBA: its log parser, its safety
# check on a fake sysfs/procfs tree, whole runs on stand-ins, its man page.

# shellcheck disable=SC2016 # the conditions of verdict are eval'ed there
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
# shown FILES...: the files as KTAP diagnostics
shown() { sed 's/^/# | /' "$@" 2>/dev/null || true; }
# verdict DESC CONDITION: the output (and a run's calls) shown if it fails
verdict() {
	if eval "$2"; then ktap_test_pass "$1"; else ktap_test_fail "$1: exit $rc"; shown "$tmp/out" "${f:-$tmp}/calls"; fi
}
rc=0
"$tool" --parse "$tmp/kern.log" > "$tmp/out" 2>&1 || rc=$?
verdict "--parse reads a kernel log" '[ "$rc" = 0 ]'
expect() {	# description, then an ERE the output must match
	if grep -Eq "$2" "$tmp/out"; then ktap_test_pass "$1"; else ktap_test_fail "$1: no /$2/ in:"; shown "$tmp/out"; fi
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
verdict "--parse fails on a log without the driver's lines" '! "$tool" --parse "$tmp/none.log" >/dev/null 2>&1'

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$tool" > "$tmp/out" 2>&1 || rc=$?
	verdict "refuses to run without root" '[ "$rc" = 2 ] && grep -q "must run as root" "$tmp/out"'
elif [ "$(id -u)" != 0 ]; then
	rc=0
	"$tool" > "$tmp/out" 2>&1 || rc=$?
	verdict "refuses to run without root" '[ "$rc" = 2 ]'
fi

# The fake machine: mpt3sas HBA 0000:00:03.0 with sda (sda1, sda2, sg0),
# AHCI 0000:00:05.0 with sdb (sdb1).  Real device nodes, so that the match
# by device number is a real machine's.  Process 100 holding sdb and a LIO
# fileio backstore concern not the HBA.
hba=sys/devices/pci0000:00/0000:00:03.0
hba_sdev=$hba/host0/target0:0:0/0:0:0:0
mkfake() {
	local r=$1 ahci=sys/devices/pci0000:00/0000:00:05.0 d n sdev
	local ahci_sdev=sys/devices/pci0000:00/0000:00:05.0/ata1/host1/target1:0:0/1:0:0:0
	mkdir -p "$r/proc/self" "$r/sys/bus/pci/drivers/mpt3sas" "$r/sys/bus/pci/drivers/ahci" \
		"$r/sys/class/block" "$r/sys/class/scsi_generic" "$r/sys/dev/block" \
		"$r/$hba_sdev/block/sda/sda1" "$r/$hba_sdev/block/sda/sda2" \
		"$r/$hba_sdev/scsi_generic/sg0" \
		"$r/$ahci_sdev/block/sdb/sdb1" "$r/dev/disk/by-id" \
		"$r/proc/100/fd" "$r/sys/kernel/config/target/core/fileio_0/lun0"
	ln -s ../../../bus/pci/drivers/mpt3sas "$r/$hba/driver"
	ln -s ../../../bus/pci/drivers/ahci "$r/$ahci/driver"
	touch "$r/$hba_sdev/block/sda/sda1/partition" "$r/$hba_sdev/block/sda/sda2/partition" \
	      "$r/$ahci_sdev/block/sdb/sdb1/partition"
	for d in "$hba_sdev sda 0" "$hba_sdev sda/sda1 1" "$hba_sdev sda/sda2 2" \
		 "$ahci_sdev sdb 16" "$ahci_sdev sdb/sdb1 17"; do
		read -r sdev d n <<<"$d"
		mkdir -p "$r/$sdev/block/$d/holders"
		echo "8:$n" > "$r/$sdev/block/$d/dev"
		ln -s "../../../$sdev/block/$d" "$r/sys/class/block/${d#*/}"
	done
	echo 21:0 > "$r/$hba_sdev/scsi_generic/sg0/dev"
	ln -s "../../../$hba_sdev/scsi_generic/sg0" "$r/sys/class/scsi_generic/sg0"
	ln -s ../../class/block/sda1 "$r/sys/dev/block/8:1"
	ln -s ../../class/block/sdb1 "$r/sys/dev/block/8:17"
	mknod "$r/dev/sda" b 8 0 && mknod "$r/dev/sda1" b 8 1 && mknod "$r/dev/sda2" b 8 2 &&
		mknod "$r/dev/sdb" b 8 16 && mknod "$r/dev/sdb1" b 8 17 &&
		mknod "$r/dev/sg0" c 21 0 && mknod "$r/dev/null" c 1 3 ||
		[ "$(id -u)" != 0 ] || ktap_exit_fail_msg "mknod failed: the fake machine needs device nodes"
	ln -s ../../sda1 "$r/dev/disk/by-id/wwn-0x5000c500a1b2c3d4-part1"
	echo sshd > "$r/proc/100/comm"
	ln -s "$r/dev/sdb" "$r/proc/100/fd/3"
	ln -s "$r/dev/null" "$r/proc/100/fd/0"
	echo /srv/lun0.img > "$r/sys/kernel/config/target/core/fileio_0/lun0/udev_path"
	echo 'Filename Type Size Used Priority' > "$r/proc/swaps"
}
# add_dm ROOT NAME: device-mapper volume dm-0 (NAME) on sda2; rm_dm undoes it
add_dm() {
	local r=$1
	mkdir -p "$r/sys/devices/virtual/block/dm-0/slaves" "$r/sys/devices/virtual/block/dm-0/dm"
	echo "$2" > "$r/sys/devices/virtual/block/dm-0/dm/name"
	ln -s ../../devices/virtual/block/dm-0 "$r/sys/class/block/dm-0"
	ln -s ../../class/block/dm-0 "$r/sys/dev/block/254:0"
	ln -s "../../../../../../$hba_sdev/block/sda/sda2" "$r/sys/devices/virtual/block/dm-0/slaves/sda2"
	ln -s ../../../../../../../../../virtual/block/dm-0 "$r/$hba_sdev/block/sda/sda2/holders/dm-0"
}
rm_dm() {
	rm -rf "$1/sys/devices/virtual/block/dm-0" "$1/sys/class/block/dm-0" "$1/sys/dev/block/254:0" \
		"$1/$hba_sdev/block/sda/sda2/holders/dm-0"
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
# a stand-in zpool: `zpool status -P` prints ROOT/zpool-status
zbin=$tmp/zbin
mkdir -p "$zbin"
cat > "$zbin/zpool" <<'SH'
#!/bin/sh
[ "$*" = "status -P" ] || exit 2
cat "$MPT3SAS_TIMING_SYSROOT/zpool-status" 2>/dev/null || echo "no pools available"
SH
chmod +x "$zbin/zpool"
zpool_status() {	# ROOT POOL DEVICE: one pool on one device
	cat > "$1/zpool-status" <<ZS
  pool: $2
 state: ONLINE
config:

	NAME        STATE     READ WRITE CKSUM
	$2          ONLINE       0     0     0
	  $3        ONLINE       0     0     0

errors: No known data errors
ZS
}
safety() {	# description, expected exit, ROOT, extra args
	local what=$1 want=$2 r=$3 rc=0
	shift 3
	PATH=$zbin:$PATH MPT3SAS_TIMING_SYSROOT=$r "$tool" --check "$@" > "$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = "$want" ]; then ktap_test_pass "$what"; else ktap_test_fail "$what: exit $rc, want $want:"; shown "$tmp/out"; fi
}
says() {	# description, then a string the output must hold
	if grep -qF -- "$2" "$tmp/out"; then ktap_test_pass "$1"; else ktap_test_fail "$1: no '$2' in:"; shown "$tmp/out"; fi
}
if [ "$(id -u)" = 0 ]; then
	f=$tmp/fake
	mkfake "$f"
	mountinfo "$f" "8:17 / /dev/sdb1" "0:22 /proc proc"
	zpool_status "$f" home /dev/disk/by-id/ata-disk2-part1
	ln -s ../../sdb1 "$f/dev/disk/by-id/ata-disk2-part1"
	safety "lets a machine booted from another controller through" 0 "$f"
	says "names the HBA it found free" 'nothing holds a device behind mpt3sas HBA 0000:00:03.0'
	# The same machine without its mpt3sas HBA: sda is on another driver.
	rm "$f/$hba/driver"
	safety "--check on a machine without an mpt3sas HBA" 0 "$f"
	says "says that there is no mpt3sas HBA" 'no mpt3sas HBA on this machine: no PCI device is bound to mpt3sas (mpt3sas is not loaded), and no disk is behind one'
	ln -s ../../../bus/pci/drivers/mpt3sas "$f/$hba/driver"
	mountinfo "$f" "8:1 / /dev/sda1" "8:17 /home /dev/sdb1"
	safety "refuses when / is on a partition behind mpt3sas" 3 "$f"
	says "names the disk, the HBA and the mount" 'sda1 (behind mpt3sas HBA 0000:00:03.0): mounted on /'
	safety "--force lets it through" 0 "$f" --force
	add_dm "$f" vg-srv
	mountinfo "$f" "8:17 / /dev/sdb1" "254:0 /srv /dev/mapper/vg-srv"
	safety "refuses when a mounted device-mapper volume sits on a disk behind mpt3sas" 3 "$f"
	says "names the partition and the mount above it" 'sda2 (behind mpt3sas HBA 0000:00:03.0): under dm-0, mounted on /srv'
	mountinfo "$f" "8:17 / /dev/sdb1"
	safety "refuses when an unmounted LVM volume sits on a partition behind mpt3sas" 3 "$f"
	says "names the partition and the volume" 'sda2 (behind mpt3sas HBA 0000:00:03.0): held by dm-0 (device-mapper vg-srv)'
	rm_dm "$f"
	mkdir -p "$f/sys/devices/virtual/block/md0/md"
	ln -s ../../devices/virtual/block/md0 "$f/sys/class/block/md0"
	ln -s ../../../../../../../../virtual/block/md0 "$f/$hba_sdev/block/sda/holders/md0"
	safety "refuses when an md array holds a disk behind mpt3sas" 3 "$f"
	says "names the disk and the array" 'sda (behind mpt3sas HBA 0000:00:03.0): held by md0 (md array)'
	rm -f "$f/$hba_sdev/block/sda/holders/md0"
	printf 'Filename Type Size Used Priority\n/dev/sda2 partition 1048576 0 -2\n' > "$f/proc/swaps"
	safety "refuses when swap is behind mpt3sas" 3 "$f"
	says "names the swap partition" 'sda2 (behind mpt3sas HBA 0000:00:03.0): in use as swap'
	echo 'Filename Type Size Used Priority' > "$f/proc/swaps"
	# a VM's raw disk, opened through a node of its own: the match is by
	# the device number
	mkdir -p "$f/proc/4242/fd" "$f/var/lib/vm"
	mknod "$f/var/lib/vm/disk0" b 8 0
	echo qemu-system-x86 > "$f/proc/4242/comm"
	ln -s "$f/var/lib/vm/disk0" "$f/proc/4242/fd/17"
	safety "refuses when a process holds a disk behind mpt3sas open" 3 "$f"
	says "names the disk, the process and its path" 'sda (behind mpt3sas HBA 0000:00:03.0): open by process 4242 (qemu-system-x86) as /var/lib/vm/disk0'
	rm -rf "$f/proc/4242"
	mkdir -p "$f/proc/4343/fd"
	echo smartctl > "$f/proc/4343/comm"
	ln -s "$f/dev/sg0" "$f/proc/4343/fd/3"
	safety "refuses when a process holds a SCSI generic node behind mpt3sas open" 3 "$f"
	says "names the node and the process" 'sg0 (behind mpt3sas HBA 0000:00:03.0): open by process 4343 (smartctl) as /dev/sg0'
	rm -rf "$f/proc/4343"
	zpool_status "$f" tank /dev/disk/by-id/wwn-0x5000c500a1b2c3d4-part1
	safety "refuses when a ZFS pool is on a disk behind mpt3sas" 3 "$f"
	says "names the partition and the pool" 'sda1 (behind mpt3sas HBA 0000:00:03.0): in ZFS pool tank as /dev/disk/by-id/wwn-0x5000c500a1b2c3d4-part1'
	rm -f "$f/zpool-status"
	mkdir -p "$f/sys/kernel/config/target/core/iblock_0/vmdisk"
	echo /dev/sda2 > "$f/sys/kernel/config/target/core/iblock_0/vmdisk/udev_path"
	safety "refuses when a LIO backstore is on a disk behind mpt3sas" 3 "$f"
	says "names the partition and the backstore" 'sda2 (behind mpt3sas HBA 0000:00:03.0): LIO backstore iblock_0/vmdisk on /dev/sda2'
	rm -rf "$f/sys/kernel/config/target/core/iblock_0"
	# nothing above names a user, but the kernel counts one
	mkdir -p "$f/sys/module/mpt3sas"
	echo 1 > "$f/sys/module/mpt3sas/refcnt"
	safety "refuses while the kernel counts a user of mpt3sas" 3 "$f"
	says "says what the count means" 'mpt3sas: the kernel counts 1 users of the module'
	echo 0 > "$f/sys/module/mpt3sas/refcnt"
	safety "lets it through once every user is gone" 0 "$f"
else
	echo "skip: the safety checks run as root only"
fi

# --- whole runs on stand-ins for modprobe, insmod, rmmod, modinfo, dmesg
# and id.  lib/modules holds two mpt3sas.ko as text files of modinfo's
# fields: the kernel's own and ours in updates/, the one modprobe finds.
# A load writes sys/module/mpt3sas/; modprobe and rmmod log the driver's
# lines to kmsg.log (dev/kmsg).  A file stub.* makes a stand-in go wrong
# for one run (fail-alloc, insmod-loads, lose-markers, md-on-load).
f=$tmp/run
bin=$tmp/bin
mkdir -p "$bin" "$f/dev"
mkfake "$f"
mountinfo "$f" "8:17 / /dev/sdb1"
kdir=$f/lib/modules/$(uname -r)
intree=$kdir/kernel/drivers/scsi/mpt3sas/mpt3sas.ko
ours=$kdir/updates/mpt3sas.ko
mkdir -p "${intree%/*}" "${ours%/*}"
printf 'version=43.100.00.00\nsrcversion=1NTREE0000000000000001\ndepends=scsi_transport_sas,raid_class\n' > "$intree"
printf 'version=48.100.00.00-cp1\nsrcversion=C4A1NP000000000000000C\ndepends=scsi_transport_sas,raid_class\n' > "$ours"
printf 'parm=max_sgl_entries:max sg entries (int)\nparm=pool_allocator:allocator behind the DMA pools (charp)\n' >> "$ours"
echo "$ours" > "$f/modprobe-finds"
cat > "$bin/load-module" <<'SH'
#!/bin/sh
# load-module FILE: what the kernel shows of a module loaded from FILE
r=$MPT3SAS_TIMING_SYSROOT m=$MPT3SAS_TIMING_SYSROOT/sys/module/mpt3sas
[ ! -d "$m" ] || exit 1
mkdir -p "$m"
echo live > "$m/initstate"
echo 0 > "$m/refcnt"
sed -n 's/^version=//p' "$1" > "$m/version"
sed -n 's/^srcversion=//p' "$1" > "$m/srcversion"
SH
echo chainpool > "$f/loaded"
: > "$f/kmsg.log"
ln -s ../kmsg.log "$f/dev/kmsg"
printf '#!/bin/sh\necho 0\n' > "$bin/id"
cat > "$bin/modinfo" <<'SH'
#!/bin/sh
# modinfo [-n] [-F FIELD] NAME|FILE
r=$MPT3SAS_TIMING_SYSROOT field=filename
while [ $# -gt 0 ]; do
	case $1 in -F) field=$2; shift ;; -n) field=filename ;; *) name=$1 ;; esac
	shift
done
case $name in /*) file=$name ;; *) file=$(cat "$r/modprobe-finds") ;; esac
[ -f "$file" ] || exit 1
if [ "$field" = filename ]; then echo "$file"; else sed -n "s/^$field=//p" "$file"; fi
SH
cat > "$bin/modprobe" <<'SH'
#!/bin/sh
r=$MPT3SAS_TIMING_SYSROOT
case $1 in
-c) echo "options mpt3sas max_queue_depth=64"; exit 0 ;;
-a) echo "modprobe $*" >> "$r/calls"; exit 0 ;;
esac
echo "modprobe $*" >> "$r/calls"
alloc=
for a in "$@"; do case $a in pool_allocator=*) alloc=${a#*=} ;; esac; done
[ "$alloc" != "$(cat "$r/stub.fail-alloc" 2>/dev/null || echo none)" ] || exit 1
"${0%/*}/load-module" "$(cat "$r/modprobe-finds")" || exit 1
echo "${alloc:-chainpool}" > "$r/loaded"
# udev assembles an md array on the disk that came back
if [ -f "$r/stub.md-on-load" ]; then
	mkdir -p "$r/sys/devices/virtual/block/md0/md"
	ln -sfn ../../devices/virtual/block/md0 "$r/sys/class/block/md0"
	ln -sfn ../../../../../../../../virtual/block/md0 "$r/$(cat "$r/stub.md-on-load")/holders/md0"
fi
case $alloc in
chainpool) echo "[ 1.0] mpt3sas 0000:00:03.0: chain pool: chainpool, 373959 blocks of 128 B, 366 slabs (order 5 x 365, order 3 x 1), 46752 KiB: created in 6000 us" ;;
dma_pool) echo "[ 1.0] mpt3sas 0000:00:03.0: chain pool: dma_pool, 373959 blocks of 128 B: created in 350000 us" ;;
esac >> "$r/kmsg.log"
SH
cat > "$bin/insmod" <<'SH'
#!/bin/sh
r=$MPT3SAS_TIMING_SYSROOT
echo "insmod $*" >> "$r/calls"
# a stand-in gone wrong: loads another file than it was given
[ ! -f "$r/stub.insmod-loads" ] || set -- "$(cat "$r/stub.insmod-loads")"
"${0%/*}/load-module" "$1"
SH
cat > "$bin/rmmod" <<'SH'
#!/bin/sh
r=$MPT3SAS_TIMING_SYSROOT
echo "rmmod $*" >> "$r/calls"
[ -d "$r/sys/module/mpt3sas" ] || exit 1
rm -r "$r/sys/module/mpt3sas"
us=2000
[ "$(cat "$r/loaded")" = chainpool ] || us=8901000
echo "[ 2.0] mpt3sas 0000:00:03.0: chain pool: $(cat "$r/loaded"): freed and destroyed in $us us" >> "$r/kmsg.log"
SH
cat > "$bin/dmesg" <<'SH'
#!/bin/sh
# stub.lose-markers: the ring buffer wrapped past the run's markers
if [ -f "$MPT3SAS_TIMING_SYSROOT/stub.lose-markers" ]; then
	grep -v 'mpt3sas-pool-timing: round' "$MPT3SAS_TIMING_SYSROOT/kmsg.log"
else
	cat "$MPT3SAS_TIMING_SYSROOT/kmsg.log"
fi
SH
printf '#!/bin/sh\nexit 0\n' > "$bin/udevadm"
chmod +x "$bin"/*

# start_with FILE: mpt3sas loaded from FILE, no calls yet
start_with() {
	rm -rf "$f/sys/module/mpt3sas" "$f/calls"
	MPT3SAS_TIMING_SYSROOT=$f "$bin/load-module" "$1"
}
# run [STUB [CONTENT]] -- ARGS...: the tool on the stand-ins with file
# stub.STUB there for this run only; its exit status in rc
run() {
	[ "$1" = -- ] || { echo "${2:-}" > "$f/stub.$1"; shift; }
	[ "$1" = -- ] || shift
	shift
	rc=0
	PATH=$bin:$PATH MPT3SAS_TIMING_SYSROOT=$f "$tool" "$@" > "$tmp/out" 2>&1 || rc=$?
	rm -f "$f"/stub.*
}

start_with "$ours"
run -- --rounds 2
verdict "a whole run with stand-ins" '[ "$rc" = 0 ]'
expect "two rounds of chainpool" '^0000:00:03\.0 +chain pool +chainpool +373959 x 128 +6\.0 +2\.0$'
expect "dma_pool beside chainpool" '^0000:00:03\.0 +chain pool +dma_pool +350\.0 +58\.3x +8901\.0 +4450\.5x$'
expect "the wall times of both" '^dma_pool +[0-9]+ +[0-9]+$'
verdict "loads each allocator twice and leaves mpt3sas loaded as it found it" \
	'[ "$(grep -c "pool_allocator=chainpool" "$f/calls")" = 2 ] &&
	 [ "$(grep -c "pool_allocator=dma_pool" "$f/calls")" = 2 ] &&
	 grep -q "max_sgl_entries=256" "$f/calls" &&
	 [ "$(tail -n 1 "$f/calls")" = "modprobe mpt3sas" ] &&
	 [ "$(cat "$f/sys/module/mpt3sas/srcversion")" = C4A1NP000000000000000C ]'

rm -f "$f/calls"
run fail-alloc dma_pool -- --rounds 1
verdict "a failed modprobe stops the run and mpt3sas is loaded again" \
	'[ "$rc" != 0 ] && grep -q "pool_allocator=dma_pool failed" "$tmp/out" &&
	 [ "$(tail -n 1 "$f/calls")" = "modprobe mpt3sas" ] && [ -d "$f/sys/module/mpt3sas" ]'

# the kernel's own mpt3sas was loaded: that very file comes back, though
# modprobe now finds ours
start_with "$intree"
run -- --rounds 1
verdict "loads back the file that was loaded, not what modprobe finds" \
	'[ "$rc" = 0 ] && [ "$(tail -n 1 "$f/calls")" = "insmod $intree max_queue_depth=64" ] &&
	 grep -qx "modprobe -a scsi_transport_sas raid_class" "$f/calls" &&
	 [ "$(cat "$f/sys/module/mpt3sas/srcversion")" = 1NTREE0000000000000001 ]'
says "and says so" "mpt3sas 43.100.00.00 is loaded again from $intree"

start_with "$intree"
run insmod-loads "$ours" -- --rounds 1
verdict "a load back of another module is an error" '[ "$rc" != 0 ]'
says "naming both" "mpt3sas is not loaded back as it was: srcversion C4A1NP000000000000000C, want 1NTREE0000000000000001 ($intree, version 43.100.00.00)"

# a loaded mpt3sas that is no file on disk could not come back
start_with "$ours"
echo 60NE0000000000000000000 > "$f/sys/module/mpt3sas/srcversion"
run -- --rounds 1
verdict "refuses to unload an mpt3sas it could not load back" \
	'[ "$rc" != 0 ] && [ ! -e "$f/calls" ] && [ -d "$f/sys/module/mpt3sas" ]'
says "and says why" "the loaded mpt3sas (version 48.100.00.00-cp1, srcversion 60NE0000000000000000000) is none of the mpt3sas.ko files under"

# a round whose marker is not in the log is an error, not an empty table
start_with "$ours"
run lose-markers -- --rounds 1
verdict "a lost kmsg marker stops the run, and mpt3sas is loaded again" \
	'[ "$rc" != 0 ] && ! grep -q "^Whole modprobe" "$tmp/out" &&
	 [ "$(cat "$f/sys/module/mpt3sas/srcversion")" = C4A1NP000000000000000C ]'
says "and says which round and why" 'chainpool round 1: the marker written to /dev/kmsg ("mpt3sas-pool-timing: round chainpool 1 '
says "that the round's times are lost" "is not in the kernel log (dmesg): the log buffer wrapped or dropped it, so the round's pool times are lost"
start_with "$ours"
rm "$f/dev/kmsg"
mkdir "$f/dev/kmsg"
run -- --rounds 1
rmdir "$f/dev/kmsg"
ln -s ../kmsg.log "$f/dev/kmsg"
verdict "an unwritable /dev/kmsg stops the run before a round" \
	'[ "$rc" != 0 ] && grep -q "cannot write to /dev/kmsg" "$tmp/out" &&
	 ! grep -q "^modprobe mpt3sas max_sgl" "$f/calls"'
start_with "$ours"

if [ "$(id -u)" = 0 ]; then
	rm -f "$f/calls"
	add_dm "$f" vg-data
	run -- --rounds 1
	verdict "a run on a busy HBA unloads nothing" \
		'[ "$rc" = 3 ] && [ ! -e "$f/calls" ] && [ -d "$f/sys/module/mpt3sas" ]'
	says "and names the disk and the holder" 'sda2 (behind mpt3sas HBA 0000:00:03.0): held by dm-0 (device-mapper vg-data)'
	rm_dm "$f"

	# udev assembles md on the disk once the round's load brings it
	# back: mpt3sas must stay loaded
	run md-on-load "$hba_sdev/block/sda" -- --rounds 1
	verdict "md assembled on a disk after a round's load: no rmmod" \
		'[ "$rc" = 3 ] && [ -d "$f/sys/module/mpt3sas" ] &&
		 [ "$(tail -n 1 "$f/calls")" = "modprobe mpt3sas max_sgl_entries=256 pool_allocator=chainpool" ]'
	says "and says it was the round's load" 'in use after loading it with pool_allocator=chainpool:'
	says "and names the disk and the array" 'sda (behind mpt3sas HBA 0000:00:03.0): held by md0 (md array)'
	rm -rf "$f/$hba_sdev/block/sda/holders/md0" "$f/sys/class/block/md0" "$f/sys/devices/virtual/block/md0"
fi

rm -f "$f/calls"
printf '#!/bin/sh\necho 1000\n' > "$bin/id"
run --
verdict "a non-root run stops before loading anything" '[ "$rc" = 2 ] && [ ! -e "$f/calls" ]'

# --help is for administrators: no source file or patch of ours in it.
src_refs=$("$tool" --help | grep -nE '[A-Za-z0-9_/]+\.[ch]\b|\bpatch [0-9]{4}\b|src/' || true)
ktap_test_result "--help cites no source file or patch${src_refs:+ (found: $src_refs)}" [ -z "$src_refs" ]

# --- the man page: the options the script parses, its --help and
# mpt3sas-pool-timing(8) name the same set, and groff renders it cleanly
man=$top/tools/mpt3sas-pool-timing.8
parsed=$(sed -n '/^while \[ \$# -gt 0 \]/,/^done/p' "$tool" |
	grep -oE '^[[:space:]]*-[-a-z|]+\)' | tr -d ' \t)' | tr '|' '\n' | sort -u | paste -sd' ')
# the option column of --help: an indented line that starts with an option
# (or the program's name and one), up to the first two spaces
helped=$("$tool" --help | sed -nE 's/^ +(mpt3sas-pool-timing +)?(-.*)$/\2/p' |
	sed -E 's/  .*//' | grep -oE '(^|[ ,])--?[a-z][-a-z]*' | tr -d ' ,' | sort -u | paste -sd' ')
# mdoc: ".It Fl -rounds Ar R", ".It Fl h , Fl -help"
manned=$(grep -E '^\.It Fl ' "$man" | grep -oE 'Fl [-a-z]+' | sed 's/^Fl /-/' | sort -u | paste -sd' ')
if [ -n "$parsed" ] && [ "$parsed" = "$helped" ] && [ "$parsed" = "$manned" ]; then
	ktap_test_pass "the parser, --help and the man page name the same options ($parsed)"
else
	ktap_test_fail "options differ: parsed [$parsed], --help [$helped], man page [$manned]"
fi
if command -v groff >/dev/null; then
	warn=$(groff -mandoc -Tutf8 -ww -z "$man" 2>&1)
	if [ -z "$warn" ] && grep -q '^\.Dt MPT3SAS-POOL-TIMING 8$' "$man"; then
		ktap_test_pass "the man page renders without a warning (groff -mandoc -ww)"
	else
		ktap_test_fail "the man page: ${warn:-no .Dt MPT3SAS-POOL-TIMING 8}"
	fi
else
	ktap_test_skip "groff missing: the man page is not rendered"
fi

ktap_finished
