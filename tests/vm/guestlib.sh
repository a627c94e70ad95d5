# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Helpers of tests/vm/init and of the scripts of its "@name" steps, which
# source it as /lib/vmtest/guestlib.sh.

PATH=/bin
export PATH
# shellcheck disable=SC1091 # written by vm_initramfs (tests/vm/lib.sh)
. /etc/vmtest/conf	# VMTEST_SPLAT_RE
# the tag of every line: the script's name (init sets its own)
GL_TAG=${0##*/}
# the script's results, one a line as on the console: a file, as results
# also come from subshells (gl_klog's under $(...)); init empties it
GL_RESULTS=/tmp/vmtest.step-results
GL_KEPT=/tmp/vmtest.klog-kept

# To stderr, the console: also from inside $(...), e.g. gl_klog's.
gl_say() { echo "$GL_TAG: $*" >&2; }

# gl_result NAME STATUS [DETAIL]: the next KTAP result, "ok" if STATUS is
# 0, on one line.  DETAIL goes to the console, and after "#" into the
# kernel log.
gl_result() {
	gl_line="ok $(($(grep -c . "$GL_RESULTS" 2>/dev/null) + 1)) $(printf '%s' "$1" | tr '\n' ' ')"
	[ "$2" = 0 ] || gl_line="not $gl_line"
	gl_det=$(printf '%s' "${3:-}" | tr '\n' ' ')
	echo "$GL_TAG: $gl_line${gl_det:+: $gl_det}" >> "$GL_RESULTS"
	gl_kmsg "$gl_line${gl_det:+ # $gl_det}"
	gl_say "$gl_line${gl_det:+: $gl_det}"
}

# gl_fail NAME: a check that is reported only when it fails
gl_fail() { gl_result "$1" 1; }

# gl_skip NAME WHY: the next KTAP result, skipped
gl_skip() { gl_result "$1 # SKIP $2" 0; }

# gl_end: the KTAP plan, after the results; exit non-zero if one was not
# ok, or if there was none
gl_end() {
	[ -s "$GL_RESULTS" ] || gl_fail "no result"
	gl_kmsg "1..$(grep -c . "$GL_RESULTS")"
	gl_say "1..$(grep -c . "$GL_RESULTS")"
	! grep -q "^$GL_TAG: not ok " "$GL_RESULTS"
	exit
}

gl_loaded() { [ -d "/sys/module/$(echo "$1" | tr - _)" ]; }

# gl_load MODULE [PARAMS...]: insmod what MODULE needs and is not loaded
# yet (/etc/vmtest/MODULE.deps, in order), then MODULE; insmod's status
gl_load() {
	gl_mod=$1
	shift
	while read -r ko; do
		[ -z "$ko" ] || gl_loaded "${ko%.ko}" || insmod "/lib/vmtest/$ko" ||
			gl_fail "insmod ${ko%.ko} (for $gl_mod) failed"
	done < "/etc/vmtest/$gl_mod.deps"
	insmod "/lib/vmtest/$gl_mod.ko" "$@"
}

gl_unload() {
	rmmod "$1" || { gl_fail "rmmod $1 failed"; return 1; }
}

# gl_splats: the splat lines of the kernel log on stdin; a KTAP result's
# line is none, whatever its name says ("kmemleak: ...", a splat quoted)
gl_splats() {
	grep -E "$VMTEST_SPLAT_RE" | grep -vE '^\[[ 0-9.]*\] *(not )?ok [0-9]+ '
}

# gl_klog: print the kernel log since the last call and clear it; keep
# splats and KTAP "not ok" lines for init, and fail on a splat.
gl_klog() {
	gl_chunk=$(dmesg -c)
	gl_bad=$(echo "$gl_chunk" | grep -E "$VMTEST_SPLAT_RE|^\[[ 0-9.]*\] *not ok [0-9]")
	if [ -n "$gl_bad" ]; then
		echo "$gl_bad" >> "$GL_KEPT"
		echo "$gl_bad" | head -n 5 | while read -r l; do gl_say "kernel: $l"; done
		gl_s=$(echo "$gl_bad" | gl_splats | head -n 1 | cut -c1-100)
		[ -z "$gl_s" ] || gl_fail "splat in the kernel log: $gl_s"
	fi
	echo "$gl_chunk"
}

# gl_settle: give back what the kernel keeps but can drop (page cache,
# slab caches) and fold the per-CPU counter deltas into /proc/vmstat, so a
# reading is exact rather than up to a threshold per CPU and zone off
gl_settle() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	for f in /sys/kernel/slab/*/shrink; do
		echo 1 > "$f"
	done 2>/dev/null
	# older kernels refuse the write (EINVAL) when a counter is negative
	echo 1 > /proc/sys/vm/stat_refresh 2>/dev/null
}

# gl_free_pages: free pages, buddy allocator plus per-CPU lists, settled
gl_free_pages() {
	gl_settle
	awk '$1 == "nr_free_pages" && FILENAME == "/proc/vmstat" { n += $2 }
	     $1 == "count:" && FILENAME == "/proc/zoneinfo" { n += $2 }
	     END { print n + 0 }' /proc/vmstat /proc/zoneinfo
}

# gl_slab_pages: unreclaimable slab pages (read after gl_free_pages)
gl_slab_pages() {
	awk '$1 == "nr_slab_unreclaimable" { print $2 }' /proc/vmstat
}

# Tolerances of gl_mem_check, in pages: TCG noise over the full suites
# was up to 41 free and 17 slab pages plain, 92 and 28 with the IOMMU
# (page tables, IOVA caches); vmtest.free_tol=N vmtest.slab_tol=N set
# others.  The waits (s) before each further look at a reading over
# tolerance: the kernel frees some memory late (RCU, the IOMMU's flush
# queue, workqueues), later still on a busy host.
GL_SETTLE_WAITS="0.2 0.5 1 2 3"
# shellcheck disable=SC2034 # the scripts'
VMTEST_SETUP=plain
GL_FREE_TOL=96
GL_SLAB_TOL=32
# hbatest.*= of tests/hba/run.sh: the host's token, the sector the HBA
# holds the first read of, the disks behind it
GL_TOKEN=
GL_STALL_LBA=
GL_DISKS=1
# shellcheck disable=SC2013,SC2034 # the command line's words; the scripts'
for w in $(cat /proc/cmdline); do
	case $w in
	vmtest.setup=iommu) VMTEST_SETUP=iommu GL_FREE_TOL=192 GL_SLAB_TOL=48 ;;
	vmtest.setup=*) VMTEST_SETUP=${w#*=} ;;
	vmtest.free_tol=*) GL_FREE_TOL=${w#*=} ;;
	vmtest.slab_tol=*) GL_SLAB_TOL=${w#*=} ;;
	hbatest.token=*) GL_TOKEN=${w#*=} ;;
	hbatest.stall_lba=*) GL_STALL_LBA=${w#*=} ;;
	hbatest.disks=*) GL_DISKS=${w#*=} ;;
	esac
done
# readings that needed a second look, over the whole suite: how many, the
# worst first drift and the worst it settled to (free, slab pages)
GL_RELOOKS=0 GL_RELOOK_DF=0 GL_RELOOK_DS=0 GL_SETTLED_DF=0 GL_SETTLED_DS=0
# gl_mem_end's reference: the suite's best reading (gl_mem_best)
GL_START_FREE=0 GL_START_SLAB=999999999

# gl_mem_base: the current readings as the starting point (settled twice:
# RCU frees what the first settling dropped)
gl_mem_base() {
	gl_settle
	sleep 1
	GL_FREE0=$(gl_free_pages)
	GL_SLAB0=$(gl_slab_pages)
	GL_FREE_DRIFT=0 GL_SLAB_DRIFT=0 GL_LEAKS=0
	gl_mem_best
	gl_say "memory: starting point $GL_FREE0 free pages, $GL_SLAB0 slab pages"
}

# gl_mem_best: gl_mem_end's reference follows the suite's best reading
gl_mem_best() {
	[ "$GL_FREE0" -le "$GL_START_FREE" ] || GL_START_FREE=$GL_FREE0
	[ "$GL_SLAB0" -ge "$GL_START_SLAB" ] || GL_START_SLAB=$GL_SLAB0
}

# gl_mem_look FREE0 SLAB0 [MAX_LOOKS]: read free and slab pages (gl_free,
# gl_slab) and their drift (gl_df free pages missing, gl_ds slab pages
# added; gl_df1/gl_ds1 at the first of gl_looks looks); while over
# tolerance, wait and look again: memory in flight comes back, a leak
# stays.  True if within.
gl_mem_look() {
	gl_looks=0
	for gl_wait in 0 $GL_SETTLE_WAITS; do
		[ "$gl_looks" -lt "${3:-99}" ] || break
		[ "$gl_wait" = 0 ] || sleep "$gl_wait"
		gl_free=$(gl_free_pages)
		gl_slab=$(gl_slab_pages)
		gl_df=$(($1 - gl_free))
		gl_ds=$((gl_slab - $2))
		gl_looks=$((gl_looks + 1))
		[ "$gl_looks" -gt 1 ] || { gl_df1=$gl_df; gl_ds1=$gl_ds; }
		[ "$gl_df" -gt "$GL_FREE_TOL" ] || [ "$gl_ds" -gt "$GL_SLAB_TOL" ] || return 0
	done
	return 1
}

# gl_mem_verdict WHAT WITHIN: the result of gl_mem_look (status WITHIN)
gl_mem_verdict() {
	if [ "$2" = 0 ]; then
		gl_result "$1: free and slab pages back" 0
		[ "$gl_looks" -gt 1 ] || return 0
		gl_say "memory: $1: $gl_df1 free pages missing, $gl_ds1 slab pages added; settled to $gl_df and $gl_ds after $gl_looks looks"
		GL_RELOOKS=$((GL_RELOOKS + 1))
		[ "$gl_df1" -le "$GL_RELOOK_DF" ] || GL_RELOOK_DF=$gl_df1
		[ "$gl_ds1" -le "$GL_RELOOK_DS" ] || GL_RELOOK_DS=$gl_ds1
		[ "$gl_df" -le "$GL_SETTLED_DF" ] || GL_SETTLED_DF=$gl_df
		[ "$gl_ds" -le "$GL_SETTLED_DS" ] || GL_SETTLED_DS=$gl_ds
		return 0
	fi
	GL_LEAKS=$((GL_LEAKS + 1))
	if [ "$gl_df" -gt "$GL_FREE_TOL" ]; then
		gl_w="$gl_df free pages missing" gl_t=$GL_FREE_TOL gl_1=$gl_df1
	else
		gl_w="$gl_ds slab pages added" gl_t=$GL_SLAB_TOL gl_1=$gl_ds1
	fi
	gl_result "$1: free and slab pages back" 1 "$gl_w since the start (tolerance $gl_t; $gl_1 at the first of $gl_looks looks)"
}

# gl_mem_check WHAT: free and slab pages back at the starting point, within
# GL_FREE_TOL and GL_SLAB_TOL (gl_mem_look).  The starting point follows
# the best reading so far (most free, least slab), so memory given back
# late cannot hide a later leak.  After a confirmed leak, one look each.
gl_mem_check() {
	gl_mem_look "$GL_FREE0" "$GL_SLAB0" $((GL_LEAKS ? 1 : 99))
	gl_mem_verdict "$1" $?
	[ "$gl_df" -le "$GL_FREE_DRIFT" ] || GL_FREE_DRIFT=$gl_df
	[ "$gl_ds" -le "$GL_SLAB_DRIFT" ] || GL_SLAB_DRIFT=$gl_ds
	[ "$gl_free" -le "$GL_FREE0" ] || GL_FREE0=$gl_free
	[ "$gl_slab" -ge "$GL_SLAB0" ] || GL_SLAB0=$gl_slab
	gl_mem_best
}

# gl_mem_end: the cumulative check against the suite's best reading: a
# leak only lowers the free count, so it shows in full (32 pages a point
# are 320 after 10 points), while noise cannot pile up: every check is
# within the same tolerance of the same reading.
gl_mem_end() {
	gl_settle
	sleep 1
	gl_mem_look "$GL_START_FREE" "$GL_START_SLAB"
	gl_mem_verdict "end of the suite (cumulative)" $?
	GL_END_DF=$gl_df
	GL_END_DS=$gl_ds
	gl_say "memory: end of the suite: $gl_df free pages missing, $gl_ds slab pages added since the best reading ($GL_START_FREE free, $GL_START_SLAB slab pages)"
}

# gl_mem_figures: for a suite's FIGURES line
gl_mem_figures() {
	echo "end drift $GL_END_DF free pages, $GL_END_DS slab pages; second looks=$GL_RELOOKS (worst $GL_RELOOK_DF free/$GL_RELOOK_DS slab pages, settled to at most $GL_SETTLED_DF/$GL_SETTLED_DS)"
}

# gl_kmemleak: scan twice (objects must be 5 s old); GL_KMEMLEAK the count
# of unreferenced objects, or "absent" without a usable kmemleak
gl_kmemleak() {
	gl_kml=/sys/kernel/debug/kmemleak
	if [ ! -e $gl_kml ] || ! echo scan > $gl_kml 2>/dev/null; then
		GL_KMEMLEAK=absent
		gl_skip "kmemleak: no unreferenced object" "not in this kernel"
		return 0
	fi
	sleep 6
	echo scan > $gl_kml
	GL_KMEMLEAK=$(grep -c '^unreferenced object' $gl_kml)
	[ "$GL_KMEMLEAK" = 0 ] || head -n 40 $gl_kml | while read -r l; do gl_say "kmemleak: $l"; done
	[ "$GL_KMEMLEAK" = 0 ]
	gl_result "kmemleak: no unreferenced object" $? "$GL_KMEMLEAK"
}

# gl_no_leak WHAT: gl_kmemleak, then the result "WHAT: ..." of both checks:
# no leak in any gl_mem_check and none kmemleak found (or no kmemleak)
gl_no_leak() {
	gl_kmemleak
	[ "$GL_LEAKS" = 0 ] && { [ "$GL_KMEMLEAK" = 0 ] || [ "$GL_KMEMLEAK" = absent ]; }
	gl_result "$1: free pages drift $GL_FREE_DRIFT, slab drift $GL_SLAB_DRIFT, leak scan $GL_KMEMLEAK" $?
}

# gl_long_kernel_loops on|off: silence the RCU stall warnings and the
# soft-lockup detector around work that holds the CPU longer than they
# allow under TCG (dma_pool before 6.4 frees in O(n^2): 9 s on hardware
# at 373,959 blocks, minutes emulated), and back; logged, and the guest's
# hard timeout still bounds it.
gl_long_kernel_loops() {
	gl_s=0
	[ "$1" = on ] && gl_s=1
	echo $gl_s > /sys/module/rcupdate/parameters/rcu_cpu_stall_suppress 2>/dev/null
	echo $((1 - gl_s)) > /proc/sys/kernel/soft_watchdog 2>/dev/null
	gl_say "long kernel loops $1: rcu_cpu_stall_suppress=$gl_s, soft_watchdog=$((1 - gl_s))"
}

# gl_rel TEST PARAMS...: chainpool_test rel=TEST loaded and unloaded, its
# kernel log in log; true if it has "ok 1 - TEST" and no "not ok N - " of
# a test module (the scripts' own results have no "-")
gl_rel() {
	gl_t=$1
	shift
	log=
	gl_load chainpool_test rel="$gl_t" "$@" ||
		{ gl_fail "insmod chainpool_test rel=$gl_t $* failed"; return 1; }
	log=$(gl_klog)
	gl_unload chainpool_test
	echo "$log" | grep -qE "^\[[ 0-9.]*\] ok 1 - $gl_t\$" &&
		! echo "$log" | grep -qE '^\[[ 0-9.]*\] *not ok [0-9]+ - '
}

# gl_kmsg LINE: LINE into the kernel log, cut to 900 bytes: /dev/kmsg
# refuses a longer record (EINVAL), which would lose the result
gl_kmsg() {
	printf '%.900s\n' "$1" > /dev/kmsg
}

# gl_hba_chip N: the emulated HBA (tests/hba/sas3008.c) as the driver
# sees it at max_sgl_entries=N: GL_CHIP its name in the driver's log,
# GL_HBA its QEMU type, GL_TMPL the host template, GL_CFG its PCI config
# space (the counters), and by _base_allocate_memory_pools() on its IOC
# Facts GL_SGE the elements per I/O, GL_PER_IO the chains per I/O and
# GL_CHAINS the chain buffers: a 128-byte frame holds 1 simple element
# and a chain (an MCPU endpoint's 3 32-bit ones), a chain segment 7 IEEE
# elements (9 MPI 2.0 ones, 15 on the MCPU endpoint) and a chain, up to
# 128 chains per I/O, for each SCSI IO SMID: RequestCredit -
# HighPriorityCredit - 5 (an MCPU endpoint's less 10 internal SMIDs).
# shellcheck disable=SC2034 # set for the guest scripts
gl_hba_chip() {
	GL_CHIP=LSISAS3008 GL_HBA=sas3008 GL_TMPL=mpt3sas GL_CFG=""
	gl_per_chain=7 gl_in_main=1 gl_depth=10107 GL_SGE=$1
	for gl_d in /sys/bus/pci/devices/*; do
		[ "$(cat "$gl_d/vendor")" = 0x1000 ] || continue
		case $(cat "$gl_d/device") in
		0x0097) GL_CFG=$gl_d/config ;;
		0x0072) GL_CHIP=LSISAS2008 GL_HBA=sas2008 GL_TMPL=mpt2sas
			gl_per_chain=9 gl_depth=3367 GL_CFG=$gl_d/config ;;
		0x0087) GL_CHIP=LSISAS2308 GL_HBA=sas2308 GL_TMPL=mpt2sas
			gl_per_chain=9 gl_depth=8059 GL_CFG=$gl_d/config ;;
		0x02b0) GL_CHIP=SWITCH_MPI_EP GL_HBA=mpi-switch-ep GL_TMPL=mpt2sas
			gl_per_chain=15 gl_in_main=3 gl_depth=22 GL_SGE=16
			GL_CFG=$gl_d/config ;;
		esac
	done
	[ "$GL_SGE" -lt 16 ] && GL_SGE=16
	[ "$GL_SGE" -gt 2048 ] && GL_SGE=2048
	GL_PER_IO=$(((GL_SGE - gl_in_main) / gl_per_chain + 1))
	if [ "$GL_PER_IO" -gt 128 ]; then
		GL_PER_IO=128
		GL_SGE=$((gl_in_main + gl_per_chain * 128))
	fi
	GL_CHAINS=$((GL_PER_IO * gl_depth))
}

# gl_hosts ERE: the SCSI hosts whose driver's name (proc_name) ERE matches
gl_hosts() {
	grep -lxE "$1" /sys/class/scsi_host/host*/proc_name 2>/dev/null | cut -d/ -f5
}

# gl_attach MODULE PARAM...: insmod MODULE (mpt3sas or a build of it) and,
# if the probe made an mpt3sas or mpt2sas SCSI host, wait for its disks
# (gl_wait_disk).  Sets rc (insmod's status, also returned), host and disk
# (or ""), depth (the queue depth the driver took) and log: the attach's
# kernel log without timestamps.
# shellcheck disable=SC2034 # the caller's
gl_attach() {
	gl_klog > /dev/null
	gl_load "$@"
	rc=$?
	host=$(gl_hosts 'mpt[23]sas' | tail -n 1)
	disk=""
	if [ -n "$host" ] && gl_wait_disk; then
		disk=$GL_DISK
	fi
	log=$(gl_klog | sed 's/^\[[ 0-9.]*\] //')
	depth=$(echo "$log" | sed -n 's/.*Current Controller Queue Depth(\([0-9]*\)).*/\1/p' | tail -n 1)
	return $rc
}

# gl_readback DISK MIB AT: MIB MiB of random data written to DISK with
# direct I/O in 1 MiB requests (chained SGLs) at AT MiB, read back the
# same way and compared; status 0 if equal
gl_readback() {
	[ -n "$1" ] || return 1
	/bin/busybox dd if=/dev/urandom of=/tmp/gl.pat bs=1M count="$2" 2>/dev/null
	/bin/busybox dd if=/tmp/gl.pat of="/dev/$1" bs=1M seek="$3" oflag=direct \
		conv=notrunc 2>/dev/null
	/bin/busybox dd if="/dev/$1" of=/tmp/gl.back bs=1M count="$2" skip="$3" \
		iflag=direct 2>/dev/null
	/bin/busybox cmp -s /tmp/gl.pat /tmp/gl.back
	gl_rc=$?
	rm -f /tmp/gl.pat /tmp/gl.back
	return $gl_rc
}

# gl_sector DISK [LBA]: the first 64 bytes of sector LBA (default 0) of
# DISK, read with direct I/O, without NULs
gl_sector() {
	/bin/busybox dd if="/dev/$1" bs=512 count=1 skip="${2:-0}" iflag=direct \
		2>/dev/null | head -c 64 | tr -d '\0'
}

# gl_poll TICKS CMD...: run CMD every 0.1 s until it succeeds, at most
# TICKS + 1 times; its last status, gl_ticks the waits it took
gl_poll() {
	gl_ticks=0
	gl_max=$1
	shift
	until "$@"; do
		[ "$gl_ticks" -lt "$gl_max" ] || return 1
		sleep 0.1
		gl_ticks=$((gl_ticks + 1))
	done
}

# gl_wait_disk: wait up to 60 s (a host scans asynchronously) for the
# hbatest.disks= SCSI disks; GL_DISK the last one's name
gl_wait_disk() { gl_poll 600 gl_disks; }

# shellcheck disable=SC2034 # the caller's
gl_disks() {
	GL_DISK=""
	gl_n=0
	for gl_d in /sys/class/scsi_disk/*/device/block/*; do
		[ -e "$gl_d" ] || continue
		GL_DISK=${gl_d##*/}
		gl_n=$((gl_n + 1))
	done
	[ "$gl_n" -ge "$GL_DISKS" ]
}
