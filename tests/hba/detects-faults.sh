#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba/detects-faults.sh: make hbatest-reduced must go red on a
# driver with a planted fault.  For each plant, a copy of build/tree gets
# the fault, mpt3sas.ko is built from it for 6.1 and run.sh --reduced runs
# with it on 6.1 (the round the plant concerns); it must fail, in the check
# the plant concerns, after a good attach:
#
#   chain-elem   _base_build_sg_scmd_ieee() points each chain element one
#                element past its chain buffer: the I/O checks fail
#   chain-leak   detach frees the chain buffers one by one and skips the
#                first, as a driver that lost one would: the pool keeps its
#                slabs, and the attach/detach cycle finds the pages missing
#   chain-lookup _base_get_chain_buffer_dma_to_chain_buffer() finds no chain
#                (neither chainpool nor the scan): on the HBA in mcpu mode
#                the chains stay in host memory, which works, but the HBA's
#                count of chains in its BAR falls short (the mcpu round)
#
# Prints KTAP; logs in build/hbatest-plant/NAME/.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
LOG_TAG=hba-plant
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"

"$top/tests/kernels/fetch.sh" 6.1 >/dev/null
# shellcheck disable=SC1090 # written by fetch.sh
. "$(series_env 6.1)"
ktap_print_header

# plant NAME CAUSE SED-SCRIPT [ROUND]: build the planted driver, run the
# reduced hbatest's ROUND (default main) with it, and expect a failure line
# matching CAUSE (an ERE)
plant() {
	local name=$1 cause=$2 script=$3 round=${4:-main} work=$BUILD_ROOT/hbatest-plant/$1 f ko rc
	rm -rf "$work"
	mkdir -p "$work/modules/6.1"
	cp -r "$BUILD_ROOT/tree" "$work/tree"
	f=$work/tree/mpt3sas/mpt3sas_base.c
	sed -i "$script" "$f"
	[ "$(grep -c PLANTED "$f")" -ge 1 ] || ktap_exit_fail_msg "$name: the plant does not apply to $f"
	ko=$(KDIR=$KDIR KVER='' KMAKEFLAGS=${KMAKEFLAGS:-} "$top/scripts/build-module.sh" \
		"$work/tree" "$work/obj" 2>"$work/build.log" | tail -n 1)
	[ -f "$ko" ] || ktap_exit_fail_msg "$name: building the planted module failed ($work/build.log)"
	cp "$ko" "$work/modules/6.1/"
	rc=0
	KERNELS=6.1 HBA_ROUNDS=$round HBA_DIR=$work/run HBA_MODULES_DIR=$work/modules HBA_TIMEOUT=300 \
		"$here/run.sh" --reduced > "$work/run.log" 2>&1 || rc=$?
	grep -E "^# 6\.1 plain $round: .*(FAIL|ok 1 insmod)" "$work/run.log" || true
	ktap_test_result "$name planted: hbatest goes red with '$cause' (rc $rc, $work/run.log)" \
		went_red "$work/run.log" "$cause" "$rc" "$round"
}

# went_red LOG CAUSE RC ROUND: the run failed, after a good insmod, with CAUSE
went_red() {
	[ "$3" != 0 ] && grep -qE "^# 6\.1 plain $4: hba[a-z-]*: ok 1 insmod" "$1" &&
		grep -qE "^# 6\.1 plain $4: $2" "$1"
}

plant chain-elem 'hba: FAIL: (direct I/O|the I/O|task abort)' \
	's/chain_offset, chain_length, chain_dma);/chain_offset, chain_length, chain_dma + 16); \/* PLANTED *\//'
plant chain-leak 'hba-cycles: FAIL: .*free pages missing' '
	s/bool released = cp_dmapool_release_all(ioc->chain_dma_pool);/bool released = false; \/* PLANTED *\//
	s/if (ct \&\& ct->chain_buffer)$/if (ct \&\& ct->chain_buffer \&\& (i || j != ioc->chains_per_prp_buffer)) \/* PLANTED *\//'
plant chain-lookup 'hba-mcpu: FAIL: chain lookup' '
	s/chain_buffer = cp_dmapool_dma_to_virt(/chain_buffer = NULL; \/* PLANTED *\/ (void)cp_dmapool_dma_to_virt(/
	s/^\tfor (index = 0; index < ioc->scsiio_depth; index++) {$/\treturn NULL; \/* PLANTED *\/\n\0/' mcpu
ktap_finished
