#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The VM harness must go red when a test module reports KTAP "not ok", when
# the kernel log shows a warning, and when a module fails to load: boot the
# first series tagged faults (tests/kernels/series) with the harness's
# self-test module broken each way, and with our mpt3sas (from make
# matrix, in build/modules/) given a bad pool_allocator, and expect a
# failure naming the cause.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
kernel=$(kernel_one faults)
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header

for fault in notok warn; do
	out=$(KERNELS=$kernel VMTEST_SETUPS=plain VMTEST_SELFTEST_FAULT=$fault \
		"$top/tests/vm/run.sh" 2>&1)
	rc=$?
	case $fault in
	notok) want="KTAP 'not ok'" ;;
	warn) want="splat" ;;
	esac
	if [ $rc -ne 0 ] && grep -q "$want" <<<"$out" && grep -q '^0 passed, 1 failed$' <<<"$out"; then
		ktap_test_pass "fault '$fault' fails the run ($want)"
	else
		tail -n 20 <<<"$out" | sed 's/^/# | /'
		ktap_test_fail "fault '$fault' did not fail the run as expected (exit $rc)"
	fi
done
mods=$top/build/modules
if [ -f "$mods/$kernel/mpt3sas.ko" ]; then
	out=$(KERNELS=$kernel VMTEST_SETUPS=plain MODULES_DIR=$mods \
		VMTEST_STEPS="mpt3sas pool_allocator=bogus" "$top/tests/vm/run.sh" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && grep -q 'insmod mpt3sas pool_allocator=bogus failed' <<<"$out" &&
		grep -q "pool_allocator=bogus is not one of: chainpool, dma_pool" "$top/build/vm/$kernel-plain.log"; then
		ktap_test_pass "a module that fails to load fails the run (pool_allocator=bogus, refused with one log line)"
	else
		tail -n 20 <<<"$out" | sed 's/^/# | /'
		ktap_test_fail "a module that failed to load did not fail the run (exit $rc)"
	fi
else
	ktap_test_fail "no $mods/$kernel/mpt3sas.ko: run make matrix first"
fi
ktap_finished
