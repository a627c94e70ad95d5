# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Planted faults for the suites on the emulated SAS3008, sourced by their
# detects-faults.sh (after tests/kernels/lib.sh and tests/lib/ktap.sh):
#
#   . tests/hba/plant.sh [--reduced]
#   hba_plant NAME CAUSE SED-SCRIPT [ROUND [RUN]]
#
# --reduced (make check): the script's first plant only; make hbatest runs
# them all.
# copies build/tree, applies SED-SCRIPT to mpt3sas/mpt3sas_base.c and
# mpt3sas_scsih.c (each changed line must carry a PLANTED comment), builds mpt3sas.ko from it for
# the first series tagged faults (tests/kernels/series) as DKMS does, runs
# ROUND (default main) of RUN --reduced (default tests/hba/run.sh) on that
# series with it (and with the test builds of tests/hba-alloc/run.sh made
# from the planted tree), and reports one KTAP result: the run must fail with a
# line matching CAUSE (an ERE, after the "# SERIES plain ROUND: " of the
# summary), and only after a good insmod, so that a plant that breaks the
# attach proves nothing.  Work and logs: BUILD_ROOT/hbatest-plant/NAME/.

# the kernel the plants are built and run against
: "${top:?the top of the checkout}"
case ${1:-} in
--reduced) plant_limit=1 ;;
'') plant_limit=0 ;;
*) echo "usage: $0 [--reduced]" >&2; exit 2 ;;
esac
plants_run=0
plant_kernel=$(kernel_one faults)
plant_re=${plant_kernel//./\\.}
"$top/tests/kernels/fetch.sh" "$plant_kernel" >/dev/null
# shellcheck disable=SC1090 # written by fetch.sh
. "$(series_env "$plant_kernel")"

hba_plant() {
	local name=$1 cause=$2 script=$3 round=${4:-main}
	local run=${5:-$top/tests/hba/run.sh} work=$BUILD_ROOT/hbatest-plant/$1 f ko rc
	[ "$plant_limit" = 0 ] || [ "$plants_run" -lt "$plant_limit" ] || return 0
	plants_run=$((plants_run + 1))
	rm -rf "$work"
	mkdir -p "$work/modules/$plant_kernel"
	cp -r "$BUILD_ROOT/tree" "$work/tree"
	f=$work/tree/mpt3sas/mpt3sas
	sed -i "$script" "${f}_base.c" "${f}_scsih.c"
	grep -q PLANTED "${f}_base.c" "${f}_scsih.c" || ktap_exit_fail_msg "$name: the plant does not apply to $f*.c"
	ko=$(KDIR=$KDIR KVER='' KMAKEFLAGS=${KMAKEFLAGS:-} "$top/scripts/build-module.sh" \
		"$work/tree" "$work/obj" 2>"$work/build.log" | tail -n 1)
	[ -f "$ko" ] || ktap_exit_fail_msg "$name: building the planted module failed ($work/build.log)"
	cp "$ko" "$work/modules/$plant_kernel/"
	rc=0
	KERNELS=$plant_kernel HBA_ROUNDS=$round HBA_DIR=$work/run HBA_MODULES_DIR=$work/modules HBA_TIMEOUT=300 \
		HBA_ALLOC_TREE=$work/tree "$run" --reduced > "$work/run.log" 2>&1 || rc=$?
	grep -E "^# $plant_re plain $round: .*(FAIL|ok 1 )" "$work/run.log" || true
	ktap_test_result "$name planted: the suite goes red with '$cause' (rc $rc, $work/run.log)" \
		hba_went_red "$work/run.log" "$cause" "$rc" "$round"
	# the logs stay
	rm -rf "$work/tree" "$work/obj" "$work/modules"
}

# hba_went_red LOG CAUSE RC ROUND: the run failed, after a good insmod, with CAUSE
hba_went_red() {
	[ "$3" != 0 ] && grep -qE "^# $plant_re plain $4: hba[a-z0-9-]*: ok 1 insmod" "$1" &&
		grep -qE "^# $plant_re plain $4: $2" "$1"
}
