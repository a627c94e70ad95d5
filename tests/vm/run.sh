#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/vm/run.sh [--reduced] [OPTION VALUE]...: boot each kernel series
# (KERNELS, default all) in QEMU once per setup, run the guest steps and
# fail on KTAP "not ok", splats, a missing verdict or a timeout.  --reduced:
# only "plain", but for the series tagged vmtest-all.  Options:
#   --setups LIST      default "plain iommu smp2 mem5g", bundles "plain iommu"
#   --build CMD        modules from CMD SERIES KVER KDIR OUTDIR (KMAKEFLAGS,
#                      MODDIR exported), or --modules DIR from DIR/SERIES/:
#                      one of the two is required
#   --steps STEPS      the guest steps (init's header; default project.steps)
#   --scripts DIRS     where the "@name" steps' scripts are (vm_script)
#   --timeout S        seconds per guest (default 240)
#   --mem SIZE         RAM, where the setup sets none (default 1G)
#   --append CMDLINE, --qemu BIN, --qemu-args WORDS: for the guest
#   --qmp DIR          a QMP socket per guest, DIR/SERIES-SETUP.qmp
#   --dir DIR          logs and initramfs (default build/vm)
#   --no-prefetch      fetch each kernel in its turn, not all at first
# Logs: DIR/SERIES-SETUP.log.  Prints one KTAP result per guest.

set -eu
LOG_TAG=vmtest
# shellcheck source=tests/kernels/lib.sh
. "$(dirname "$0")/../kernels/lib.sh"
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/lib/ktap.sh
. "$(dirname "$0")/../lib/ktap.sh"

row() {	# series setup ok notok skip secs verdict reason
	ROWS="$ROWS$(printf '%s|%-6s %-6s %5s %6s %5s %5ss  %-4s %s' "$7" "$@")"$'\n'
}
fail_series() {	# series reason
	local setup
	for setup in $(series_setups "$1"); do row "$1" "$setup" - - - - FAIL "$2"; done
}

# series_setups SERIES: the setups it boots in
series_setups() {
	if [ -n "$setups" ]; then
		echo "$setups"
	elif [ -n "$reduced" ] && ! series_has "$1" vmtest-all; then
		echo plain
	elif [ "$(series_source "$1")" = bundle ]; then
		echo plain iommu
	else
		echo plain iommu smp2 mem5g
	fi
}

# prepare_series SERIES: fetch, get modules, build the initramfs (in a
# subshell: a die() fails this series only)
prepare_series() {
	local series=$1 mods=$vm_dir/$1/modules
	"$KLIB_DIR/fetch.sh" "$series" >/dev/null
	# shellcheck disable=SC1090 # written by fetch.sh
	. "$(series_env "$series")"
	rm -rf "$mods"
	mkdir -p "$mods"
	if [ -n "$build_cmd" ]; then
		log "$series: $build_cmd $series $KVER $KDIR $mods"
		export KMAKEFLAGS MODDIR KVER KDIR
		# unquoted: the command may carry arguments
		$build_cmd "$series" "$KVER" "$KDIR" "$mods" >&2 ||
			die "$series: $build_cmd failed"
	else
		cp "$modules_dir/$series"/*.ko "$mods/" || die "$series: no modules in $modules_dir/$series"
	fi
	for ko in "$mods"/*.ko; do
		[ "$(modinfo -F vermagic "$ko" | awk '{print $1}')" = "$KVER" ] ||
			die "$series: $(basename "$ko") was not built for $KVER"
	done
	vm_initramfs "$series" "$mods" "$steps" "$vm_dir/$series/initrd.cpio"
}

main() {
	KERNELS=${KERNELS:-$(kernel_series)}
	reduced='' setups='' build_cmd='' modules_dir='' steps='' prefetch=1
	vm_scripts=$VM_SRC/../reliability/guest vm_timeout=240 vm_mem=1G vm_append=''
	vm_qemu=qemu-system-x86_64 vm_qemu_args='' vm_qmp='' vm_dir=$BUILD_ROOT/vm
	while [ $# -gt 0 ]; do
		case $1 in
		--reduced) reduced=1; shift; continue ;;
		--no-prefetch) prefetch=0; shift; continue ;;
		esac
		[ $# -ge 2 ] || die "usage: tests/vm/run.sh [--reduced] [OPTION VALUE]... (see its header)"
		case $1 in
		--setups) setups=$2 ;;
		--build) build_cmd=$2 ;;
		--modules) modules_dir=$2 ;;
		--steps) steps=$2 ;;
		--scripts) vm_scripts=$2 ;;
		--timeout) vm_timeout=$2 ;;
		--mem) vm_mem=$2 ;;
		--append) vm_append=$2 ;;
		--qemu) vm_qemu=$2 ;;
		--qemu-args) vm_qemu_args=$2 ;;
		--qmp) vm_qmp=$2 ;;
		--dir) vm_dir=$2 ;;
		*) die "usage: tests/vm/run.sh [--reduced] [OPTION VALUE]... (see its header)" ;;
		esac
		shift 2
	done

	[ -n "$build_cmd$modules_dir" ] || die "no modules to test: give --build CMD or --modules DIR"
	steps=${steps:-$(grep -v '^#' "$VM_SRC/project.steps")}

	need_cmds "$vm_qemu" timeout cpio xz zstd od modinfo modprobe busybox make ldd

	mkdir -p "$vm_dir"
	vm_dir=$(cd "$vm_dir" && pwd)	# make M= needs it absolute
	ROWS=""
	for series in $KERNELS; do
		series_source "$series" >/dev/null
	done

	# fetch all kernels in the background; each preparation waits for its own
	if [ "$prefetch" = 1 ]; then
		for series in $KERNELS; do
			mkdir -p "$vm_dir/$series"
			"$KLIB_DIR/fetch.sh" "$series" >/dev/null 2>"$vm_dir/$series/fetch.log" &
		done
	fi

	for series in $KERNELS; do
		mkdir -p "$vm_dir/$series"
		t0=$SECONDS
		set +e
		(set -e; prepare_series "$series") 2> >(tee "$vm_dir/$series/prepare.log" >&2)
		rc=$?
		set -e
		if [ "$rc" != 0 ]; then
			fail_series "$series" "preparation failed (see ${vm_dir#"$REPO_ROOT"/}/$series/prepare.log)"
			continue
		fi
		log "$series: prepared in $((SECONDS - t0))s"
		# shellcheck disable=SC1090 # written by fetch.sh
		. "$(series_env "$series")"
		VM_KERNEL=$VMLINUZ
		if grep -qx 'CONFIG_PVH=y' "$MODDIR/lib/modules/$KVER/config" "$MODDIR/boot/config-$KVER" 2>/dev/null &&
		   vm_vmlinux "$VMLINUZ" "$VMLINUZ.elf"; then
			VM_KERNEL=$VMLINUZ.elf
		else
			log "$series: booting the bzImage (no PVH vmlinux)"
		fi
		# the setups of a kernel boot side by side (TCG uses one host core each)
		pids=()
		for setup in $(series_setups "$series"); do
			logf=$vm_dir/$series-$setup.log
			rm -f "$logf" "$logf.rc" "$logf.first-boot"
			(
				t0=$SECONDS rc=0
				vm_boot "$series" "$setup" "$vm_dir/$series/initrd.cpio" "$logf" || rc=$?
				# A guest kernel that hangs before /init (seen with 2
				# TCG CPUs on a loaded host) ran no test: boot it once
				# more, and keep the first log beside the second.
				if ! grep -q 'VMTEST: BEGIN' "$logf"; then
					mv "$logf" "$logf.first-boot"
					log "$series/$setup: never reached /init, booting again (first log: $logf.first-boot)"
					rc=0
					vm_boot "$series" "$setup" "$vm_dir/$series/initrd.cpio" "$logf" || rc=$?
				fi
				echo "$rc $((SECONDS - t0))" > "$logf.rc"
			) &
			pids+=("$!")
		done
		wait "${pids[@]}" || true
		for setup in $(series_setups "$series"); do
			logf=$vm_dir/$series-$setup.log
			read -r rc secs < "$logf.rc"
			vm_parse "$logf"
			case $rc in
			0) ;;
			124|137) VERDICT=FAIL REASON="timeout after ${vm_timeout}s${REASON:+; $REASON}" ;;
			*) VERDICT=FAIL REASON="qemu exited with $rc ($(head -c 200 "$logf.qemu" | tr '\n' ' '))${REASON:+; $REASON}" ;;
			esac
			log "$series/$setup: $VERDICT in ${secs}s${REASON:+: $REASON} (log: $logf)"
			if [ "$VERDICT" != PASS ]; then
				tr -d '\r' < "$logf" | tail -n 25 | sed "s/^/  $series-$setup| /" >&2
			fi
			row "$series" "$setup" "$KTAP_OK" "$KTAP_NOTOK" "$KTAP_SKIP" "$secs" "$VERDICT" "$REASON"
		done
		# the logs stay; every run makes the initramfs anew
		rm -rf "$vm_dir/$series/initrd.cpio" "$vm_dir/$series/modules"
	done

	wait	# background fetches of series that failed early
	echo
	ktap_print_header
	ktap_set_plan "$(printf '%s' "$ROWS" | grep -c .)"
	ktap_print_msg "$(printf '%-6s %-6s %5s %6s %5s %6s  %-4s %s' kernel setup ok notok skip time result reason)"
	while IFS='|' read -r verdict line; do
		ktap_print_msg "$line"
		read -r series setup _ <<<"$line"
		ktap_test_result "$series/$setup" [ "$verdict" = PASS ]
	done <<<"${ROWS%$'\n'}"
	ktap_print_totals
	echo "$KTAP_CNT_PASS passed, $KTAP_CNT_FAIL failed"
	[ "$KTAP_CNT_FAIL" = 0 ]
}

# The functions first: bash reads the whole script before main runs, so an
# edit of it during a run does not change the run.
main "$@"; exit $?
