#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba/run.sh [--reduced] [OPTION VALUE]... [ROUND...] (`make hbatest`):
# the project's mpt3sas.ko on the emulated SAS3008 (tests/hba/README.md) in
# the VM harness, in rounds (tests/hba/rounds), one boot per kernel, setup
# and round.  --reduced (make check): the series tagged hbatest, plain,
# max_sgl_entries=256 with chainpool, every round but lying (hba-lying's);
# configure says what each run's plans hold.  Timings (never asserted) land
# in DIR/results.json and DIR/table.md (scripts/docs.py show hbatest).
#
# KERNELS: the series.  Options:
#   --name NAME        the suite's name in the summary (default hbatest)
#   --dir DIR          the output (default build/NAME)
#   --setups LIST      plain (reduced), plain iommu (full)
#   --plan PLAN=STEPS  replaces a plan of configure, one "@script args" a line
#   --scripts DIR      guest scripts searched before tests/hba/guest/
#                      (another suite's); the main round then has 1 disk
#   --modules DIR      DIR/<series>/mpt3sas.ko (default build/modules, built
#                      if missing), and any mpt3sas_test_*.ko beside it
#   --append CMDLINE   more kernel command line
#   --timeout S        seconds per guest (600; full run 3600)
#   --started EPOCH    when make hbatest's fault walk began, for the stamp
# Logs: DIR/<round>/<series>-<setup>.log.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
LOG_TAG=hbatest
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
# shellcheck source=tests/vm/lib.sh
. "$top/tests/vm/lib.sh"	# decompress_ko

# docs_table RESULTS OUT: docs/benchmarks.md's table of RESULTS, stamped
# shellcheck disable=SC2317 # called through ktap_test_result
docs_table() {
	python3 "$top/scripts/docs.py" show hbatest "$1" > "$2" &&
		grep -q '^\*Results [^:]*: mpt3sas-chainpool ' "$2"
}

declare -A plans

# configure VARIANT: the kernels, setups, plans (tests/hba/rounds' plan
# column), timeout and rounds of a reduced or full run, unless options set them
configure() {
	local p t
	variant=$1
	main_disks=8
	[ "$variant" = full ] || main_disks=4
	[ -z "$guest_dir" ] || main_disks=1
	plans[timing]="@hba 256 A 4 1
@hba 256 A 4 1 keep"
	plans[mcpu]="@hba 256 chainpool 4"
	plans[disks]="@hba 256 chainpool 8 4"
	plans[lying]="@hba-lying 16 $(lying_cases "$variant")"
	if [ "$variant" = reduced ]; then
		kernels=${KERNELS:-$(kernel_series hbatest)}
		setups=${setups:-plain}
		timeout=${timeout:-600}
		rounds=${rounds:-main unplug mcpu sas2008 malformed}
		plans[main]="@hba 256 chainpool 8 1
@hba-cycles 1 256 chainpool
@hba-pool-timing 64 1
@hba 256 chainpool 8 1 keep"
		plans[sas2]="@hba 256 chainpool 4"
		plans[unplug]="@hba-unplug 256 chainpool 2"
	else
		kernels=${KERNELS:-$(kernel_series)}
		setups=${setups:-plain iommu}
		# 6.1's O(n^2) dma_pool frees 1,293,696 chains for minutes under TCG
		timeout=${timeout:-3600}
		t=$(echo {,sas2308-}timing-{chainpool,dma_pool,in_tree}-{1,2})
		rounds=${rounds:-main $t disks32 unplug mcpu sas2008 sas2308 lying malformed}
		plans[main]="@hba 16 chainpool 8 4
@hba 128 chainpool 8 4
@hba 256 chainpool 16 4
@hba 2048 chainpool 8 4
@hba 16 dma_pool 8 4
@hba 128 dma_pool 8 4
@hba 16 in_tree 8 4
@hba 128 in_tree 8 4
@hba 2048 dma_pool 8 4
@hba 2048 in_tree 8 4
@hba-cycles 50 256 chainpool
@hba-pool-timing 256 2
@hba 256 chainpool 8 1 keep"
		plans[mcpu]+="
@hba 256 dma_pool 4"
		plans[sas2]="@hba 16 chainpool 4
@hba 128 chainpool 4
@hba 256 chainpool 8
@hba-pool-timing 256 1
@hba-sas2-intree"
		plans[unplug]="@hba-unplug 256 chainpool 4"
	fi
	for p in "${!plan_opts[@]}"; do
		[ -n "${plans[$p]+set}" ] || die "--plan $p: no such plan (${!plans[*]})"
		plans[$p]=${plan_opts[$p]}
	done
}

# lying_cases reduced|full: the lying round's cases, NAME:PROPS:EXPECT
# (guest/hba-lying), on one line.  Reduced: one of each kind; the full run
# adds the edges of IOC Facts, on both SAS2 chips too.  doorbell-pop,
# chain-seg-1, post-depth-16 and config-* guard patches 0304 to 0307.
lying_cases() {
	local c="credit-1:request_credit=1:fail
msix-1:msix_vectors=1:attach
fault-at-init:lie=ioc_fault:reset+no-timeout
smid-past-credit:lie=smid,lie_after=20:attach
reset-in-io:lie=io_fault,lie_after=60:reset
fault-always:lie=ioc_fault,lie_count=0:fail+no-timeout
doorbell-mute:lie=doorbell_mute,lie_count=0:fail
doorbell-pop:lie=doorbell_pop,lie_count=0:attach
chain-seg-1:max_chain_segment_size=1:attach
post-depth-16:max_reply_post_depth=16:fail
config-short-always:lie=config_short,lie_count=0:fail
config-vary:lie=config_vary,lie_count=0:attach
sas2008-credit-1:driver=sas2008,request_credit=1:fail
sas2308-chain-depth-0:driver=sas2308,max_chain_depth=0:attach"
	[ "$1" = reduced ] || c="$c
credit-max:request_credit=65535:attach
hp-credit-0:hi_priority_credit=0:attach
hp-credit-max:hi_priority_credit=65535:attach
reply-frame-64:reply_frame_size=0x10:attach
chain-depth-0:max_chain_depth=0:attach
chain-depth-1:max_chain_depth=1:attach
chain-depth-255:max_chain_depth=255:attach
chain-seg-32:max_chain_segment_size=32:attach
post-depth-32:max_reply_post_depth=32:fail
post-depth-592:max_reply_post_depth=592:fail
post-depth-608:max_reply_post_depth=608:attach
msix-96:msix_vectors=96:attach
msix-off:msix=off:attach
reply-outside-pool:lie=reply_addr,lie_after=5:attach
config-short-once:lie=config_short:attach
doorbell-mute-once:lie=doorbell_mute:fail"
	# the edges of IOC Facts again on the SAS2 chips (MPI 2.0: no chain
	# segment size); the SAS2008's 60 high priority credits move the
	# shortest reply post queue that attaches down to 336
	[ "$1" = reduced ] || c="$c
$(echo "$c" | grep -E '^(credit-max|(hp-credit|reply-frame|chain-depth|post-depth|msix)-[a-z0-9]+):' |
		grep -vE '^post-depth-(592|608):' | sed 's/^[^:]*:/sas2008-&driver=sas2008,/')
sas2008-post-depth-320:driver=sas2008,max_reply_post_depth=320:fail
sas2008-post-depth-336:driver=sas2008,max_reply_post_depth=336:attach
$(echo "$c" | grep -E '^(credit-max|chain-depth-1|post-depth-(16|608)|msix-1):' |
		sed 's/^[^:]*:/sas2308-&driver=sas2308,/')"
	echo "$c" | tr '\n' ' '
}

# prepare_modules: in $mods/<series>/, the project's mpt3sas.ko (from
# --modules: tests/plants/run.sh gives its own) and the kernel's modules
prepare_modules() {
	local moddir=${modules_dir:-$BUILD_ROOT/modules} series ko

	# shellcheck disable=SC2086 # a list of series
	need_modules "$moddir" "$out/matrix.log" $kernels
	mods=$out/modules
	rm -rf "$mods"
	for series in $kernels; do
		"$top/tests/kernels/fetch.sh" "$series" >/dev/null
		# shellcheck disable=SC1090 # written by fetch.sh
		. "$(series_env "$series")"
		: "${KVER:?}" "${MODDIR:?}"	# from the env file
		mkdir -p "$mods/$series"
		# without its debug information, as DKMS and the kernels install
		strip --strip-debug -o "$mods/$series/mpt3sas.ko" "$moddir/$series/mpt3sas.ko"
		# test builds another suite puts beside it (hba-alloc's)
		for ko in "$moddir/$series"/mpt3sas_test_*.ko; do
			[ ! -f "$ko" ] || cp "$ko" "$mods/$series/"
		done
		# sd_mod for the disk; loop, where the kernel has it as a
		# module, for hba-pool-timing's loop device on it; the kernel's
		# own mpt3sas, as mpt3sas_intree
		for m in sd_mod loop mpt3sas; do
			ko=$(modprobe -d "$MODDIR" -S "$KVER" --show-depends $m 2>/dev/null |
				awk '/^insmod/ {p=$2} END {print p}')
			if [ -n "$ko" ]; then
				decompress_ko "$ko" "$mods/$series/${m/#mpt3sas/mpt3sas_intree}.ko"
			elif [ $m != loop ]; then
				die "$series: the kernel has no $m module"
			fi
		done
		echo "$KVER" > "$mods/$series/kver"
	done
}

# disk_args N: N disks on the HBA's phys, each a snapshot of the one image
disk_args() {
	local i

	for i in $(seq 0 $(($1 - 1))); do
		printf -- ' -drive if=none,id=d%s,file=%s,format=raw,snapshot=on,cache=writeback' "$i" "$disk"
		printf -- ' -device scsi-hd,drive=d%s,bus=hba.0,scsi-id=%s' "$i" "$i"
	done
}

# round_row ROUND: its line of tests/hba/rounds into r_* (the setups and
# series: those of this run it boots; the plan: its steps)
round_row() {
	local a='' row f k

	case $1 in
	timing-* | sas2308-timing-*)
		a=${1#*timing-}
		a=${a%-*}
		row=${1%%timing-*}timing-A
		;;
	*) row=$1 ;;
	esac
	f=$(sed -n "s/ *| */|/g; s/ *\$//; /^$row|/p" "$here/rounds")
	[ -n "$f" ] || die "unknown round $1 (tests/hba/rounds; malformed)"
	IFS='|' read -r _ r_disks r_setups r_kernels r_hba r_qemu r_cmdline r_plan <<<"$f"
	[ "$r_disks" != main ] || r_disks=$main_disks
	case $r_setups in
	run) r_setups=$setups ;;
	*) [[ " $setups " == *" $r_setups "* ]] || r_setups='' ;;
	esac
	if [ "$r_kernels" = run ] || [ "$variant" != reduced ]; then
		r_kernels=$kernels
	else
		r_kernels=$(for k in $kernels; do
			! series_has "$k" "$r_kernels" || echo "$k"
		done | paste -sd' ')
	fi
	r_plan=${plans[$r_plan]:?"tests/hba/rounds: $1: no plan $r_plan"}
	[ -z "$a" ] || r_plan=${r_plan// A / $a }
}

# run_round ROUND: boot its guests (or run malformed.sh) into $out/ROUND/,
# their summary in harness.out
run_round() {
	local round=$1 dir=$out/$1 watchers="" series setup w

	rm -rf "$dir"
	mkdir -p "$dir"
	if [ "$round" = malformed ]; then
		"$here/malformed.sh" "$qemu" > "$dir/harness.out" 2>&1 || true
		log "round $round: $(tail -n 1 "$dir/harness.out")"
		return
	fi
	round_row "$round"
	if [ -z "$r_setups" ] || [ -z "$r_kernels" ]; then
		log "round $round: none of its setups in '$setups' or series in '$kernels', skipped"
		return
	fi
	log "round $round: $(tr '\n' ';' <<<"$r_plan")"
	if [ "$round" = unplug ] || [ "$round" = lying ]; then
		for series in $kernels; do
			for setup in $setups; do
				# the hot-plugged controllers' disk: the guest's own copy
				cp "$disk" "$dir/$series-$setup.img"
				"$here/hotplug.py" "$dir/$series-$setup.log" "$qmpdir/$series-$setup.qmp" \
					"$dir/$series-$setup.img" $((timeout * $(wc -w <<<"$kernels") + 600)) \
					> "$dir/$series-$setup.hotplug" 2>&1 &
				watchers="$watchers $!"
			done
		done
	fi
	set +e
	KERNELS=$r_kernels "$top/tests/vm/run.sh" --no-prefetch --dir "$dir" --modules "$mods" \
		--setups "$r_setups" --timeout "$timeout" --steps "$r_plan" \
		--scripts "${guest_dir:+$guest_dir:}$here/guest" --qemu "$qemu" \
		--qemu-args "${args/@HBA@/${r_hba:-sas3008}}$(disk_args "$r_disks")${r_qemu:+ $r_qemu}" \
		--qmp "$qmpdir" \
		--append "hbatest.token=$token hbatest.stall_lba=$stall hbatest.disks=$r_disks${r_cmdline:+ $r_cmdline}${append_more:+ $append_more}" \
		2>&1 | tee "$dir/harness.out" | sed "s/^/    $round: /" >&2
	set -e
	# a watcher whose guest never asked is still waiting
	for w in $watchers; do
		kill "$w" 2>/dev/null || true
		wait "$w" 2>/dev/null || true
	done
}

# report_round ROUND: its KTAP results, with the guest scripts' own lines
report_round() {
	local round=$1 dir=$out/$1 series setup log f

	if [ ! -f "$dir/harness.out" ]; then
		ktap_test_skip "$round: none of its setups or series in this run"
		return
	fi
	# the guest scripts' own lines, and the hot-plugs, per guest
	for series in $kernels; do
		for setup in $setups; do
			log=$dir/$series-$setup.log f=$dir/$series-$setup.hotplug
			[ -f "$log" ] || continue
			tr -d '\r' < "$log" |
				sed -n 's/^\(hba[a-z0-9-]*\): \(\(not \)\?ok [0-9]* .*\|FIGURES .*\)/\1: \2/p' |
				sed "s/^/# $series $setup $round: /"
			[ "$round" = unplug ] || [ "$round" = lying ] || continue
			ktap_test_result "$round: $series $setup: QEMU: $(tail -n 1 "$f" 2>/dev/null)" \
				grep -q 'the guest is done' "$f"
			rm -f "$dir/$series-$setup.img"
		done
	done
	ktap_test_result "$round: $(tail -n 1 "$dir/harness.out")" \
		grep -qE '^[0-9]+ passed, 0 failed$' "$dir/harness.out"
}

# ns VALUE FACTOR: VALUE * FACTOR, or null for none
ns() { case $1 in -|'') echo null ;; *) echo $(($1 * $2)) ;; esac; }

# records: one JSON record per attach of the plan, from the guests' logs;
# only the timing rounds' where the run has them, as the other rounds
# attach to other disks in memory not preallocated
records() {
	local round series setup log kver iommu shutdown_us fig timed

	timed=$(tr ' ' '\n' <<<"$rounds" | grep timing- || echo "$rounds")
	for round in $timed; do
	for series in $kernels; do
		for setup in $setups; do
			log=$out/$round/$series-$setup.log
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
				# hba= load= disks= and the attach's phases (guest/hba)
				f_keep='' f_hba=sas3008 f_load='' f_disks=1
				f_load_ms=- f_pools_ms=- f_init_ms=- f_discovery_ms=- f_scan_ms=-
				eval "$(echo "$fig" | tr ' ' '\n' | grep -E '^[a-z_]+=[-0-9a-z_]+$' | sed 's/^/f_/')"
				driver=ours chains=$f_chains shut=-
				[ "$f_allocator" = in_tree ] && driver=in_tree chains=null
				[ "$f_keep" = 1 ] && shut=${shutdown_us:--}
				printf '{"series":"%s","kernel":"%s","iommu":%s,"hba":"%s","disks":%s,"driver":"%s","allocator":"%s","max_sgl_entries":%s,"nr_chains":%s,"load":"%s","attach_ns":%s,"rmmod_ns":%s,"shutdown_ns":%s,"chain_alloc_ns":%s,"chain_free_ns":%s,"phases_ns":{"load":%s,"pools":%s,"init":%s,"discovery":%s,"scan":%s}}\n' \
					"$series" "$kver" "$iommu" "$f_hba" "$f_disks" "$driver" "$f_allocator" "$f_n" "$chains" "$f_load" \
					"$(ns "$f_attach_ms" 1000000)" "$(ns "$f_rmmod_ms" 1000000)" "$(ns "$shut" 1000)" \
					"$(ns "$f_chain_alloc_us" 1000)" "$(ns "$f_chain_free_us" 1000)" \
					"$(ns "$f_load_ms" 1000000)" "$(ns "$f_pools_ms" 1000000)" "$(ns "$f_init_ms" 1000000)" \
					"$(ns "$f_discovery_ms" 1000000)" "$(ns "$f_scan_ms" 1000000)"
			done
		done
	done
	done
}

# results: build/hbatest/results.json, and its table of docs/benchmarks.md
results() {
	local how reduced secs
	records > "$out/records"
	printf '{"records":[\n%s\n]}\n' "$(paste -sd, "$out/records")" > "$out/results.json"
	how=tests/hba/run.sh reduced='' secs=$SECONDS
	[ "$variant" = reduced ] && how="$how --reduced" reduced=--reduced
	# make hbatest: the fault walk ran first, from --started (epoch s)
	if [ -n "$started" ]; then
		how="make hbatest (tests/hba-alloc/run.sh, then tests/hba/run.sh)"
		secs=$(($(date +%s) - started))
	fi
	ktap_test_result "records: ${out#"$top"/}/results.json, stamped" \
		python3 "$top/scripts/docs.py" stamp --kind hbatest \
		--guests "QEMU TCG guests with the emulated SAS3008 (a SAS2 chip in the sas2 rounds), q35, 1 vCPU, 1G of RAM (preallocated in the timing rounds)" \
		--run "$how, rounds: $rounds" $reduced --seconds "$secs" \
		"$out/results.json"
	if grep -q '"max_sgl_entries":256,' "$out/records"; then
		ktap_test_result "timings: ${out#"$top"/}/table.md, as scripts/docs.py renders them, stamped" \
			docs_table "$out/results.json" "$out/table.md"
		sed 's/^/# /' "$out/table.md"
	else
		ktap_test_skip "timings: no attach at max_sgl_entries=256 in these rounds"
	fi
}

main() {
	local round start variant=full

	out='' rounds='' setups='' timeout='' append_more=''
	guest_dir='' modules_dir='' started=''
	declare -gA plan_opts=()
	while [ $# -gt 0 ]; do
		case $1 in
		--reduced) variant=reduced; shift; continue ;;
		-*) [ $# -ge 2 ] || die "usage: $0 [--reduced] [OPTION VALUE]... [ROUND...]" ;;&
		--name) LOG_TAG=$2 ;;
		--dir) out=$2 ;;
		--setups) setups=$2 ;;
		--plan) plan_opts[${2%%=*}]=${2#*=} ;;
		--timeout) timeout=$2 ;;
		--append) append_more=$2 ;;
		--scripts) guest_dir=$2 ;;
		--modules) modules_dir=$2 ;;
		--started) started=$2 ;;
		-*) die "usage: $0 [--reduced] [OPTION VALUE]... [ROUND...]" ;;
		*) rounds+=" $1"; shift; continue ;;
		esac
		shift 2
	done
	out=${out:-$BUILD_ROOT/$LOG_TAG} rounds=${rounds# }
	configure "$variant"
	mkdir -p "$out"
	# the binary of our sources, not build/qemu/current: another
	# worktree's build may move that during the run
	qemu=$("$here/qemu.sh" | tail -n 1)
	[ -x "$qemu" ] || die "$qemu missing after tests/hba/qemu.sh"
	prepare_modules
	# one 64 MiB disk, each guest writing to its own snapshot of it: the
	# guest must read the token in sector 0 through the HBA, and in sector
	# $stall, which the HBA holds once per attach for the task abort check
	token=$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
	disk=$out/disk0.img stall=120000
	rm -f "$disk"
	truncate -s 64M "$disk"
	printf 'hbatest %s\n' "$token" | dd of="$disk" conv=notrunc status=none
	printf 'hbatest-stall %s\n' "$token" |
		dd of="$disk" bs=512 seek=$stall conv=notrunc status=none
	# the HBA behind a PCIe root port, as in a server: hot-pluggable; the
	# round's HBA type (its line's HBA field, default sas3008) replaces @HBA@
	args="-L /usr/share/qemu -L /usr/share/seabios -cpu max
-device pcie-root-port,id=rp0,chassis=1,slot=1
-device @HBA@,id=hba,bus=rp0,stall_lba=$stall"
	# QMP sockets for hotplug.py, in a short path of their own
	qmpdir=$(mktemp -d /tmp/hbatest-qmp.XXXXXX)
	trap 'rm -rf "$qmpdir"' EXIT

	start=$SECONDS
	for round in $rounds; do
		run_round "$round"
	done
	echo
	ktap_print_header
	ktap_print_msg "$LOG_TAG ($variant), $(wc -w <<<"$rounds") rounds, $((SECONDS - start)) s:"
	for round in $rounds; do
		report_round "$round"
	done
	results
	ktap_print_plan
	ktap_print_totals
	echo "$KTAP_CNT_PASS passed, $KTAP_CNT_FAIL failed"
	[ "$KTAP_CNT_FAIL" = 0 ]
}

# The functions first: bash reads the whole script before main runs, so an
# edit of it during a run does not change the run.
main "$@"; exit $?
