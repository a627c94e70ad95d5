#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make check`: run every test suite, each logged to build/check/<name>.log,
# and print KTAP: one result per suite, after a line counting the suite's
# own KTAP results (tests/lib/ktap.sh, or a kernel module's); a failed
# suite shows its "not ok" lines and the end of its log.  A suite fails if
# it exits non-zero or reports a "not ok".  The last line reads
# "N passed, N failed".
#
# CHECKS="name ..." runs a subset; the default is every suite below.

set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
# Run each suite as an administrator would, not as a sub-make: dkms 3.0.10
# reads the kernel's CC with a nested `make -f -`, which under an inherited
# MAKELEVEL prints "Entering directory '...'" into CC and breaks the build.
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES
logdir=build/check
mkdir -p "$logdir"

# Cheap and basic first.  The package tests install into throwaway roots
# (tests/packaging/root.sh), never on this machine: host-unchanged, last,
# proves it against the state saved before the first suite.
all_checks="no-upstream-tracked upstream-lock build-6.1 unit bench-core
	compat-probes compat-fallbacks static matrix vmtest vmtest-detects-faults
	reliability reliability-detects-faults hbatest hbatest-detects-faults
	debug-kernel bench bench-tool
	pkg-dist pkg-rpm pkg-interrupted pkg-deb-install pkg-initrd-boot
	pkg-deb-upgrade pkg-deb-autopkgtest pkg-deb-range host-unchanged"
checks=${CHECKS:-$all_checks}
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"

kdir_6_1() {
	find /lib/modules -mindepth 2 -maxdepth 2 -path '/lib/modules/6.1.0-*-amd64/build' 2>/dev/null | sort -V | tail -n 1
}
failed_names=

# run NAME COMMAND...: one suite, one KTAP result
run() {
	local name=$1 log=$logdir/$1.log start rc secs oks notoks
	shift

	start=$(date +%s)
	"$@" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	# the suite's own results: top-level KTAP lines, not nested ones
	oks=$(grep -cE '^ok [0-9]+' "$log")
	notoks=$(grep -cE '^not ok [0-9]+' "$log")
	ktap_print_msg "$name: $oks ok, $notoks not ok, exit $rc, ${secs}s"
	if [ $rc -eq 0 ] && [ "$notoks" -eq 0 ]; then
		ktap_test_pass "$name"
	else
		failed_names="$failed_names $name"
		grep -E '^not ok [0-9]+' "$log" | head -n 20 | sed 's/^/# /'
		tail -n 25 "$log" | sed 's/^/# | /'
		ktap_test_fail "$name (log: $log)"
	fi
}

# What no suite may change: the dpkg database, /boot, /lib/modules, DKMS.
tests/host-state.sh save "$logdir/host-state" >/dev/null ||
	{ echo "cannot save the host's state" >&2; exit 2; }

ktap_print_header
ktap_set_plan "$(wc -w <<<"$checks")"
for c in $checks; do
	case $c in
	no-upstream-tracked) run "$c" tests/check-no-upstream.sh ;;
	upstream-lock) run "$c" tests/upstream-lock.sh ;;
	build-6.1) run "$c" tests/build-6.1.sh ;;
	unit) run "$c" make -C tests/unit check ;;
	# bench_core's own checks (counts, every lookup) with small N; no time judged
	bench-core) run "$c" make -C bench/core check ;;
	compat-probes) run "$c" make -C tests/compat check KDIR="$(kdir_6_1)" ;;
	# the 4.15 fallbacks: 5.10 and 6.1 built with every post-4.15 probe forced false
	compat-fallbacks) run "$c" tests/compat/old-kernel-fallbacks.sh ;;
	static) run "$c" tests/static.sh ;;
	matrix) run "$c" tests/matrix.sh ;;
	# the modules matrix built, for every series: plain, with an IOMMU, 2 CPUs, 5 GiB
	vmtest) run "$c" env MODULES_DIR="$top/build/modules" tests/vm/run.sh ;;
	# the harness goes red on a KTAP "not ok" and on a kernel warning
	vmtest-detects-faults) run "$c" tests/vm/detects-faults.sh ;;
	# the reliability suites, a reduced sample (the full run: make reliability)
	reliability) run "$c" env MODULES_DIR="$top/build/modules" tests/reliability/run.sh --reduced ;;
	# each reliability suite goes red on a planted leak, warning, oops or wrong error code
	reliability-detects-faults) run "$c" env REL_MPT3SAS_DIR="$top/build/modules" tests/reliability/detects-faults.sh ;;
	# the driver attached to our emulated SAS3008 (make qemu first): 6.1 and
	# 6.12, one of each check (the full run: make hbatest)
	hbatest) run "$c" tests/hba/run.sh --reduced ;;
	# hbatest goes red on a corrupted chain element and a leaked chain buffer
	hbatest-detects-faults) run "$c" tests/hba/detects-faults.sh ;;
	# the debug kernel (KASAN, kmemleak, DMA_API_DEBUG, lockdep): built, then
	# the in-kernel tests and the reliability sample in it
	debug-kernel) run "$c" tests/check-debug.sh ;;
	# cp_bench end to end on 6.1 with small N; asserts no times
	bench) run "$c" bench/check.sh ;;
	# mpt3sas-pool-timing: log parsing, safety checks, a run on stand-ins
	bench-tool) run "$c" tests/tools/pool-timing.sh ;;
	pkg-dist) run "$c" tests/packaging/dist.sh ;;
	pkg-rpm) run "$c" tests/packaging/rpm.sh ;;
	# a package test killed while dkms builds leaves nothing behind
	pkg-interrupted) run "$c" tests/packaging/interrupted.sh ;;
	pkg-deb-install) run "$c" tests/packaging/root.sh tests/packaging/deb-install.sh ;;
	# the initramfs pkg-deb-install had built boots in QEMU with our module
	pkg-initrd-boot) run "$c" tests/packaging/initrd-boot.sh ;;
	pkg-deb-upgrade) run "$c" tests/packaging/root.sh tests/packaging/deb-upgrade.sh ;;
	# Debian's autopkgtest of a DKMS package, as debian/tests/control says
	pkg-deb-autopkgtest) run "$c" tests/packaging/root.sh tests/packaging/deb-autopkgtest.sh ;;
	pkg-deb-range) run "$c" tests/packaging/root.sh tests/packaging/deb-range.sh ;;
	# nothing above changed the machine's packages, modules, /boot or DKMS
	host-unchanged) run "$c" tests/host-state.sh compare "$logdir/host-state" ;;
	*) ktap_test_fail "$c (no such check)" ;;
	esac
done

ktap_print_totals
[ -z "$failed_names" ] || echo "failed:$failed_names"
echo "$KTAP_CNT_PASS passed, $KTAP_CNT_FAIL failed"
[ "$KTAP_CNT_FAIL" -eq 0 ]
