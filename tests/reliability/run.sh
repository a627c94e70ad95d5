#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/reliability/run.sh [--reduced]: the reliability suites of chainpool
# and mpt3sas in the VM harness (tests/vm/run.sh), one guest boot per
# kernel series and setup running every suite:
#
#   security   debugfs root-only, fault knobs root-only and inert without
#              chainpool_debug, no new world-writable sysfs file
#   params     bad module parameters refused or clamped, one log line each
#   fault      every slab allocation of the anchor pool failed in turn,
#              the largest order failed, no leak (free pages, slab, kmemleak)
#   cycles     pool create/destroy and mpt3sas load/unload cycles, no drift
#   inuse      destroy with blocks in use reported, memory kept, no crash
#
# --reduced runs a sample of each (tests/reliability/steps.reduced) on the
# plain setup; the full run (steps.full) boots plain and iommu.
#
# Environment: KERNELS (default: 5.10 6.1 6.12 sid), REL_SETUPS, REL_TIMEOUT,
# MODULES_DIR or BUILD_MODULES_CMD as for tests/vm/run.sh (default: build
# the modules from build/tree with tests/reliability/build-modules.sh), REL_STEPS
# (a steps file instead of steps.full/steps.reduced), VMTEST_* knobs.
#
# Logs: build/reliability/<series>-<setup>.log.  Prints one line per suite
# and guest with its figures, then "N passed, N failed"; exits non-zero if
# anything failed.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

variant=full
case ${1:-} in
--reduced) variant=reduced ;;
'') ;;
*) echo "usage: $0 [--reduced]" >&2; exit 2 ;;
esac

if [ $variant = reduced ]; then
	setups=${REL_SETUPS:-plain}
	timeout=${REL_TIMEOUT:-900}
else
	setups=${REL_SETUPS:-plain iommu}
	timeout=${REL_TIMEOUT:-7200}
fi
steps=$(grep -v '^#' "${REL_STEPS:-$here/steps.$variant}")
if [ -z "${MODULES_DIR:-}${BUILD_MODULES_CMD:-}" ]; then
	BUILD_MODULES_CMD=$here/build-modules.sh
	export BUILD_MODULES_CMD
fi
vm_dir=${VM_DIR:-$top/build/reliability}

# the suites the steps run, by the tag their guest scripts print
tags=$(echo "$steps" | awk '$1 ~ /^@/ {print substr($1, 2)}' | sed '
	s/^params$/bad-params/; s/^fault$/fault-injection/; s/^inuse$/destroy-in-use/')
# SPLAT_RE
# shellcheck source=tests/vm/lib.sh
. "$top/tests/vm/lib.sh"
splat_re=$SPLAT_RE

start=$SECONDS
for series in ${KERNELS:-5.10 6.1 6.12 sid}; do
	for setup in $setups; do
		rm -f "$vm_dir/$series-$setup.log"
	done
done
# Shown as it runs through our own stderr: `tee /dev/stderr` would reopen
# (and truncate) a caller's log file.
mkdir -p "$vm_dir"
VM_DIR=$vm_dir VMTEST_SETUPS=$setups VMTEST_TIMEOUT=$timeout \
	VMTEST_STEPS=$steps "$top/tests/vm/run.sh" 2>&1 | tee "$vm_dir/harness.out" >&2
out=$(cat "$vm_dir/harness.out")
# the harness ends with its own verdict
rc=$(echo "$out" | grep -qE '^[0-9]+ passed, 0 failed$' && echo 0 || echo 1)

echo
echo "reliability ($variant), $((SECONDS - start)) s:"
passed=0
failed=0
for log in "$vm_dir"/*-*.log; do
	[ -f "$log" ] || continue
	case $log in *.qemu) continue ;; esac
	guest=$(basename "$log" .log)
	for setup in $setups; do
		case $guest in *-"$setup") ;; *) continue ;; esac
		series=${guest%-"$setup"}
		case " ${KERNELS:-5.10 6.1 6.12 sid} " in *" $series "*) ;; *) continue ;; esac
		for tag in $tags; do
			verdict=$(tr -d '\r' < "$log" | sed -n "s/^$tag: \(PASS\|FAIL\).*/\1/p" | tail -n 1)
			figures=$(tr -d '\r' < "$log" | sed -n "s/^$tag: FIGURES //p" | tail -n 1)
			if [ -z "$verdict" ]; then
				verdict=FAIL
				splat=$(tr -d '\r' < "$log" | sed -n '/VMTEST: BEGIN/,$p' |
					grep -m1 -E "$splat_re" | cut -c1-100)
				figures="did not run or did not finish${splat:+; first splat: $splat}"
			fi
			if [ "$verdict" = PASS ]; then
				passed=$((passed + 1))
			else
				failed=$((failed + 1))
				first=$(tr -d '\r' < "$log" | sed -n "s/^$tag: FAIL: //p" | head -n 1)
				figures="${figures}${first:+; first failure: $first}"
			fi
			printf '%-5s %-6s %-6s %-16s %s\n' "$verdict" "$series" "$setup" "$tag" "$figures"
		done
	done
done
[ "$failed" = 0 ] || rc=1
echo "harness: $(echo "$out" | tail -n 1)"
echo "$passed passed, $failed failed"
exit "$rc"
