#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The reliability suites must go red when a fault is planted: for each
# plant (tests/reliability/plants/NAME.patch, applied to a private copy of
# the sources by build-modules.sh, never to the shipped tree), build the
# modules with it, run the suites it concerns on one kernel (plain setup,
# unless told otherwise) and expect that suite to FAIL with the named cause
# in every guest.  First, the guest's memory check on made-up readings
# (mem-check.sh).
#
# --reduced (make check): one plant for each suite, the PLANTS below.
# Environment: KERNELS (default: the first series tagged faults in
# tests/kernels/series), REL_SETUPS (default plain; "plain iommu" for
# both), REL_MPT3SAS_DIR (modules built without a plant, default
# build/modules, from make matrix), PLANTS (a subset of the names below).

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
kernels=${KERNELS:-$(kernel_one faults)}
setups=${REL_SETUPS:-plain}
mpt3sas_dir=${REL_MPT3SAS_DIR:-$top/build/modules}
tried=0
case ${1:-} in
--reduced) PLANTS=${PLANTS:-oops-param leak-slab inuse-freed security} ;;
'') ;;
*) die "usage: tests/reliability/detects-faults.sh [--reduced]" ;;
esac
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header

# NAME|mpt3sas?|STEPS|SUITE|cause (ERE on the suite's failure lines), from
# each suite's "# suite-plant: NAME REBUILD_MPT3SAS ARGS | CAUSE" lines
# (run.sh): the suite runs alone with ARGS
plants=$(for f in "$here"/guest/*; do
	sed -n 's/^# suite-plant: *//p' "$f" | while read -r plant mpt rest; do
		args=${rest%%|*}
		args=${args% }
		echo "$plant|$mpt|@${f##*/}${args:+ $args}|${f##*/}|${rest#*| }"
	done
done)
[ -n "$plants" ] || ktap_exit_fail_msg "no '# suite-plant:' line in $here/guest/*"

# the memory check itself, on made-up readings: a transient settles, a leak
# stays red (mem-check.sh, no guest)
# (its KTAP nested as a subtest)
mkdir -p "$top/build"
"$here/mem-check.sh" > "$top/build/reliability-mem-check.log" 2>&1
rc=$?
sed 's/^/    /' "$top/build/reliability-mem-check.log"
ktap_test_result "the memory check settles a transient and fails on a leak" [ "$rc" = 0 ]

for series in $kernels; do
	[ -f "$mpt3sas_dir/$series/mpt3sas.ko" ] ||
		ktap_exit_fail_msg "no $mpt3sas_dir/$series/mpt3sas.ko: run make matrix first"
done
while IFS='|' read -r plant mpt steps suite cause; do
	case " ${PLANTS:-$plant} " in *" $plant "*) ;; *) continue ;; esac
	tried=$((tried + 1))
	stepsf=$top/build/reliability/plant/$plant-$tried.steps
	mkdir -p "$(dirname "$stepsf")"
	echo "$steps" | tr ';' '\n' > "$stepsf"
	# the plants in mpt3sas need it rebuilt; the others take the given one
	if [ "$mpt" = 1 ]; then from=; else from=$mpt3sas_dir; fi
	out=$(KERNELS=$kernels REL_SETUPS=$setups REL_STEPS=$stepsf REL_TIMEOUT=900 \
		VMTEST_PREFETCH=0 REL_PLANT=$plant REL_MPT3SAS_DIR=$from \
		BUILD_MODULES_CMD=$here/build-modules.sh \
		VM_DIR=$top/build/reliability/plant/$plant-$tried \
		"$here/run.sh" --reduced 2>&1)
	rc=$?
	# in every guest; the cause must be in the failure, not in the figures
	missed=
	for series in $kernels; do
		for setup in $setups; do
			line=$(echo "$out" | grep -E "^# FAIL +$series +$setup +$suite " | head -n 1 |
				sed -nE 's/.*(first failure: |did not run or did not finish)/\1/p')
			if [ -n "$line" ] && echo "$line" | grep -qE "$cause"; then
				ktap_print_msg "'$plant' planted: $suite goes red on $series $setup ($(echo "$line" | grep -oE "$cause" | head -n 1))"
			else
				missed="$missed $series/$setup"
			fi
		done
	done
	if [ $rc -eq 0 ] || [ -n "$missed" ]; then
		echo "$out" | tail -n 15 | sed 's/^/# | /'
		ktap_test_fail "'$plant' planted: $suite did not go red with '$cause' on$missed (exit $rc)"
	else
		ktap_test_pass "'$plant' planted: $suite goes red with '$cause'"
	fi
done <<<"$plants"
[ "$tried" -gt 0 ] || ktap_test_fail "no plant selected"
ktap_finished
