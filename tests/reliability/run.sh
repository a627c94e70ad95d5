#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/reliability/run.sh [--reduced] [OPTION VALUE]...: the suites of
# guest/ in one boot per kernel series and setup (tests/vm/run.sh).
# --reduced: the series tagged reliability, plain, the suites' reduced
# arguments; else KERNELS (default all), plain and iommu.  Options: --setups
# LIST, --timeout S, --modules DIR or --build CMD (default:
# build-modules.sh), --steps FILE (instead of the suites'), --dir DIR
# (default build/reliability), --no-prefetch.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
variant=full setups='' timeout='' steps_file='' vm_dir=$top/build/reliability
vm_opts=() build=(--build "$here/build-modules.sh")
while [ $# -gt 0 ]; do
	case $1 in
	--reduced) variant=reduced ;;
	--no-prefetch) vm_opts+=("$1") ;;
	--setups) setups=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--steps) steps_file=$2; shift ;;
	--modules | --build) build=("$1" "$2"); shift ;;
	--dir) vm_dir=$2; shift ;;
	*) die "usage: $0 [--reduced] [OPTION VALUE]... (see its header)" ;;
	esac
	shift
done
if [ $variant = reduced ]; then
	kernels=${KERNELS:-$(kernel_series reliability)}
	setups=${setups:-plain}
	timeout=${timeout:-900}
else
	kernels=${KERNELS:-$(kernel_series)}
	setups=${setups:-plain iommu}
	timeout=${timeout:-7200}
fi
# suite_steps full|reduced: one "@suite ARGS" step a suite, in suite-order
suite_steps() {
	local f order
	for f in "$here"/guest/*; do
		order=$(sed -n 's/^# suite-order: *//p' "$f")
		[ -n "$order" ] || { echo "$f: no '# suite-order:' line" >&2; return 1; }
		echo "$order @${f##*/} $(sed -n "s/^# suite-$1: *//p" "$f")"
	done | sort -n | cut -d' ' -f2- | sed 's/ *$//'
}

if [ -n "$steps_file" ]; then
	steps=$(grep -v '^#' "$steps_file")
else
	steps=$(set -o pipefail; suite_steps $variant) || exit 2
fi

# shellcheck source=tests/vm/lib.sh
. "$top/tests/vm/lib.sh"
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
# the suites the steps run: their lines are tagged with their names
tags=$(vm_step_scripts "$steps")

start=$SECONDS
for series in $kernels; do
	for setup in $setups; do
		rm -f "$vm_dir/$series-$setup.log"
	done
done
# Shown as it runs through our own stderr, indented as a KTAP subtest:
# `tee /dev/stderr` would reopen (and truncate) a caller's log file.
mkdir -p "$vm_dir"
KERNELS=$kernels "$top/tests/vm/run.sh" --dir "$vm_dir" --setups "$setups" \
	--timeout "$timeout" --steps "$steps" "${vm_opts[@]}" "${build[@]}" 2>&1 | tee "$vm_dir/harness.out" |
	sed 's/^/    /' >&2
out=$(cat "$vm_dir/harness.out")

echo
ktap_print_header
ktap_print_msg "reliability ($variant), $((SECONDS - start)) s:"
# the harness ends with its own verdict
ktap_test_result "the harness: $(echo "$out" | tail -n 1)" \
	grep -qE '^[0-9]+ passed, 0 failed$' <<<"$out"
for series in $kernels; do
	for setup in $setups; do
		log=$vm_dir/$series-$setup.log
		[ -f "$log" ] || continue
		for tag in $tags; do
			# the suite's KTAP: its results, then its plan once it finished
			lines=$(tr -d '\r' < "$log" | grep -E "^$tag: ((not )?ok [0-9]+ |1\.\.[0-9]+$|FIGURES )")
			figures=$(sed -n "s/^$tag: FIGURES //p" <<<"$lines" | tail -n 1)
			first=$(sed -n "s/^$tag: not ok [0-9]* //p" <<<"$lines" | head -n 1)
			verdict=FAIL
			if ! grep -qE "^$tag: 1\.\.[0-9]+$" <<<"$lines"; then
				splat=$(tr -d '\r' < "$log" | sed -n '/VMTEST: BEGIN/,$p' | grep -E "$SPLAT_RE" |
					grep -vE '(^|: |\] *)(not )?ok [0-9]+ ' | head -n 1 | cut -c1-100)
				figures="did not run or did not finish${splat:+; first splat: $splat}"
			elif [ -z "$first" ]; then
				verdict=PASS
			fi
			[ -z "$first" ] || figures="${figures}; first failure: $first"
			ktap_print_msg "$(printf '%-5s %-6s %-6s %-16s %s' "$verdict" "$series" "$setup" "$tag" "$figures")"
			if [ "$verdict" = PASS ]; then
				ktap_test_pass "$tag ($series $setup)"
			else
				ktap_test_fail "$tag ($series $setup) # $figures"
			fi
		done
	done
done
ktap_print_plan
ktap_print_totals
echo "$KTAP_CNT_PASS passed, $KTAP_CNT_FAIL failed"
# the full run's series, failures and wall seconds, stamped for make
# docs-results (docs/testing.md)
if [ $variant = full ]; then
	series=$(for k in $kernels; do printf '"%s",' "$k"; done)
	printf '{"series":[%s],"failed":%d}\n' "${series%,}" "$KTAP_CNT_FAIL" > "$vm_dir/results.json"
	python3 "$top/scripts/docs.py" stamp --kind reliability --seconds "$SECONDS" \
		--guests "QEMU TCG guests, q35, setups $setups" \
		--run "tests/reliability/run.sh" "$vm_dir/results.json"
fi
[ "$KTAP_CNT_FAIL" = 0 ]
