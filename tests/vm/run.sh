#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/vm/run.sh [--reduced]: boot each Debian kernel in QEMU (TCG) once
# per setup (plain, with an emulated IOMMU, ...), load the modules under
# test inside the guest and fail on KTAP "not ok", kernel splats, a missing
# verdict or a timeout.  --reduced (make check): "plain" only, but for the
# series tagged vmtest-all (VMTEST_SETUPS overrides it).
#
# Environment:
#   KERNELS            series to test (default: every series of
#                      tests/kernels/series)
#   VMTEST_SETUPS      default "plain iommu smp2 mem5g" (smp2: 2 CPUs, mem5g:
#                      5 GiB of RAM; see vm_boot in lib.sh) for Debian's
#                      kernels, "plain iommu" for bundles
#   BUILD_MODULES_CMD  command run as: CMD SERIES KVER KDIR OUTDIR; must put
#                      mpt3sas.ko and chainpool_test.ko into OUTDIR (KMAKEFLAGS
#                      and MODDIR are exported for it)
#   MODULES_DIR        alternative: prebuilt modules in MODULES_DIR/SERIES/
#                      Without either, a self-test stand-in is used
#                      (tests/vm/selftest, the kernel's own mpt3sas).
#   VMTEST_STEPS       override the guest steps (see below)
#   VMTEST_TIMEOUT     seconds per guest (default 240), VMTEST_MEM (default 1G)
#   VMTEST_APPEND      extra kernel command line
#   VMTEST_QEMU        QEMU binary (default: qemu-system-x86_64 from PATH)
#   VMTEST_QEMU_ARGS   extra QEMU options, a word list (tests/hba/run.sh)
#   VMTEST_QMP         a directory: each guest gets a QMP socket there,
#                      SERIES-SETUP.qmp (tests/hba/run.sh unplugs its HBA)
#   VMTEST_PARALLEL    1 (default): boot a kernel's setups side by side; 0: one by one
#   VMTEST_PREFETCH    1 (default): fetch all kernels in the background first
#   VM_DIR             where logs and initramfs go (default build/vm)
#
# Logs: build/vm/<series>-<setup>.log (serial console).  Ends with one KTAP
# result per guest (tests/lib/ktap.sh), the table of their counts as
# diagnostic lines before them, and the line "N passed, N failed"; exits
# non-zero if anything failed.

set -eu
LOG_TAG=vmtest
# shellcheck source=tests/kernels/lib.sh
. "$(dirname "$0")/../kernels/lib.sh"
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/lib/ktap.sh
. "$(dirname "$0")/../lib/ktap.sh"

KERNELS=${KERNELS:-$(kernel_series)}
case ${1:-} in
'' | --reduced) reduced=${1:-} ;;
*) die "usage: tests/vm/run.sh [--reduced]" ;;
esac
VMTEST_TIMEOUT=${VMTEST_TIMEOUT:-240}
VMTEST_MEM=${VMTEST_MEM:-1G}
VMTEST_APPEND=${VMTEST_APPEND:-}
VMTEST_PARALLEL=${VMTEST_PARALLEL:-1}
VMTEST_PREFETCH=${VMTEST_PREFETCH:-1}
VM_DIR=${VM_DIR:-$BUILD_ROOT/vm}

# The project's modules must know every parameter in the steps; the kernel's
# own mpt3sas (self-test mode) ignores chain_allocator with a warning.
VMTEST_GUEST_SPLAT_RE=$SPLAT_RE
if [ -n "${BUILD_MODULES_CMD:-}${MODULES_DIR:-}" ]; then
	VMTEST_GUEST_SPLAT_RE="$SPLAT_RE|unknown parameter"
	MODE=project
else
	MODE=selftest
fi

# Guest steps, one per line: "<module> [parameters]", each loaded (after its
# dependencies) and removed again, in order; "+loaded CMD" and "+unloaded
# CMD" lines under a step are checks (see init).  The project's plan is
# tests/vm/project.steps; the self-test stand-ins get a plain one.
if [ "$MODE" = project ]; then
	DEFAULT_STEPS=$(grep -v '^#' "$VM_SRC/project.steps")
else
	DEFAULT_STEPS="chainpool_test
mpt3sas max_sgl_entries=256"
fi
VMTEST_STEPS=${VMTEST_STEPS:-$DEFAULT_STEPS}

need_cmds "${VMTEST_QEMU:-qemu-system-x86_64}" timeout cpio xz zstd od modinfo modprobe busybox make ldd

mkdir -p "$VM_DIR"
ROWS=""
row() {	# series setup ok notok skip secs verdict reason
	ROWS="$ROWS$(printf '%s|%-6s %-6s %5s %6s %5s %5ss  %-4s %s' "$7" "$@")"$'\n'
}
fail_series() {	# series reason
	local setup
	for setup in $(series_setups "$1"); do row "$1" "$setup" - - - - FAIL "$2"; done
}

# series_setups SERIES: the setups it boots in
series_setups() {
	if [ -n "${VMTEST_SETUPS:-}" ]; then
		echo "$VMTEST_SETUPS"
	elif [ -n "$reduced" ] && ! series_has "$1" vmtest-all; then
		echo plain
	elif [ "$(series_source "$1")" = bundle ]; then
		echo plain iommu
	else
		echo plain iommu smp2 mem5g
	fi
}

# prepare_series SERIES: fetch, get modules, build the initramfs.  Runs in a
# subshell so that a die() only fails this series.
prepare_series() {
	local series=$1 mods=$VM_DIR/$1/modules
	"$KLIB_DIR/fetch.sh" "$series" >/dev/null
	# shellcheck disable=SC1090 # written by fetch.sh
	. "$(series_env "$series")"
	rm -rf "$mods"
	mkdir -p "$mods"
	if [ -n "${BUILD_MODULES_CMD:-}" ]; then
		log "$series: $BUILD_MODULES_CMD $series $KVER $KDIR $mods"
		export KMAKEFLAGS MODDIR KVER KDIR
		# unquoted: the command may carry arguments
		$BUILD_MODULES_CMD "$series" "$KVER" "$KDIR" "$mods" >&2 ||
			die "$series: BUILD_MODULES_CMD failed"
	elif [ -n "${MODULES_DIR:-}" ]; then
		cp "$MODULES_DIR/$series"/*.ko "$mods/" || die "$series: no modules in $MODULES_DIR/$series"
	else
		log "$series: building the self-test module"
		vm_build_selftest "$series" "$mods"
	fi
	for ko in "$mods"/*.ko; do
		[ "$(modinfo -F vermagic "$ko" | awk '{print $1}')" = "$KVER" ] ||
			die "$series: $(basename "$ko") was not built for $KVER"
	done
	vm_initramfs "$series" "$mods" "$VMTEST_STEPS" "$VM_DIR/$series/initrd.cpio"
}

for series in $KERNELS; do
	series_source "$series" >/dev/null
done

# Fetch all kernels in the background (mostly download and unpacking); each
# series' preparation below waits for its own fetch (fetch.sh locks).
if [ "$VMTEST_PREFETCH" = 1 ]; then
	for series in $KERNELS; do
		mkdir -p "$VM_DIR/$series"
		"$KLIB_DIR/fetch.sh" "$series" >/dev/null 2>"$VM_DIR/$series/fetch.log" &
	done
fi

for series in $KERNELS; do
	mkdir -p "$VM_DIR/$series"
	t0=$SECONDS
	set +e
	(set -e; prepare_series "$series") 2> >(tee "$VM_DIR/$series/prepare.log" >&2)
	rc=$?
	set -e
	if [ "$rc" != 0 ]; then
		fail_series "$series" "preparation failed (see ${VM_DIR#"$REPO_ROOT"/}/$series/prepare.log)"
		continue
	fi
	log "$series: prepared in $((SECONDS - t0))s ($MODE modules)"
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
		logf=$VM_DIR/$series-$setup.log
		rm -f "$logf" "$logf.rc" "$logf.first-boot"
		(
			t0=$SECONDS rc=0
			vm_boot "$series" "$setup" "$VM_DIR/$series/initrd.cpio" "$logf" || rc=$?
			# A guest kernel that hangs before /init (seen with 2
			# TCG CPUs on a loaded host) ran no test: boot it once
			# more, and keep the first log beside the second.
			if ! grep -q 'VMTEST: BEGIN' "$logf"; then
				mv "$logf" "$logf.first-boot"
				log "$series/$setup: never reached /init, booting again (first log: $logf.first-boot)"
				rc=0
				vm_boot "$series" "$setup" "$VM_DIR/$series/initrd.cpio" "$logf" || rc=$?
			fi
			echo "$rc $((SECONDS - t0))" > "$logf.rc"
		) &
		pids+=("$!")
		[ "$VMTEST_PARALLEL" = 1 ] || wait $!
	done
	wait "${pids[@]}" || true
	for setup in $(series_setups "$series"); do
		logf=$VM_DIR/$series-$setup.log
		read -r rc secs < "$logf.rc"
		vm_parse "$logf"
		case $rc in
		0) ;;
		124|137) VERDICT=FAIL REASON="timeout after ${VMTEST_TIMEOUT}s${REASON:+; $REASON}" ;;
		*) VERDICT=FAIL REASON="qemu exited with $rc ($(head -c 200 "$logf.qemu" | tr '\n' ' '))${REASON:+; $REASON}" ;;
		esac
		log "$series/$setup: $VERDICT in ${secs}s${REASON:+: $REASON} (log: $logf)"
		if [ "$VERDICT" != PASS ]; then
			tr -d '\r' < "$logf" | tail -n 25 | sed "s/^/  $series-$setup| /" >&2
		fi
		row "$series" "$setup" "$KTAP_OK" "$KTAP_NOTOK" "$KTAP_SKIP" "$secs" "$VERDICT" "$REASON"
	done
	# the logs stay; every run makes the initramfs anew
	rm -rf "$VM_DIR/$series/initrd.cpio" "$VM_DIR/$series/modules"
done

wait	# background fetches of series that failed early
echo
ktap_print_header
ktap_set_plan "$(printf '%s' "$ROWS" | grep -c .)"
ktap_print_msg "$(printf '%-6s %-6s %5s %6s %5s %6s  %-4s %s' kernel setup ok notok skip time result reason)"
while IFS='|' read -r verdict line; do
	ktap_print_msg "$line"
	read -r series setup _ <<<"$line"
	if [ "$verdict" = PASS ]; then
		ktap_test_pass "$series/$setup"
	else
		ktap_test_fail "$series/$setup"
	fi
done <<<"${ROWS%$'\n'}"
ktap_print_totals
echo "$KTAP_CNT_PASS passed, $KTAP_CNT_FAIL failed"
[ "$KTAP_CNT_FAIL" = 0 ]
