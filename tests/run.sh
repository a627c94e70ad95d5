#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make check`: run the suites (the stanzas of tests/suites, in their
# order; the format is in docs/testing.md), each logged to
# build/check/NAME.log, and print one KTAP result per suite, then
# "N passed, N failed".  Times go to build/check/results.json.
#
#   tests/run.sh                     every suite, in the order of tests/suites
#   CHECKS="name ..." tests/run.sh   those suites, in that order
#   tests/run.sh --list              the suites, in order: name, command

set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
logdir=build/check

# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"

declare -A suite_line suite_cmd suite_faults suite_lane kv=()
all_checks=
start=

# bad WHERE MESSAGE: a malformed tests/suites stops everything
bad() {
	echo "tests/run.sh: $1: $2" >&2
	exit 2
}

# stanza: check the stanza read into kv (from line $start) and record it
stanza() {
	local at=tests/suites:$start name=${kv[name]:-}

	[ -n "$start" ] || return 0
	[ -n "$name" ] || bad "$at" "a stanza without name"
	[[ $name =~ ^[a-z0-9][a-z0-9.-]*$ ]] || bad "$at" "name '$name' is not lower-case letters, digits, '.' and '-'"
	[ -z "${suite_line[$name]:-}" ] || bad "$at" "suite $name is also at tests/suites:${suite_line[$name]}"
	[ -n "${kv[cmd]:-}" ] || bad "$at" "suite $name has no cmd"
	bash -n -c "${kv[cmd]}" 2>/dev/null || bad "$at" "cmd of $name is not a shell command: ${kv[cmd]}"
	[ -n "${kv[desc]:-}" ] || bad "$at" "suite $name has no desc"
	case ${kv[lane]:-} in '' | packages) ;; *) bad "$at" "lane of $name is ${kv[lane]}, not packages" ;; esac
	suite_line[$name]=$start
	suite_cmd[$name]=${kv[cmd]}
	suite_faults[$name]=${kv[faults]:-}
	suite_lane[$name]=${kv[lane]:-}
	all_checks="$all_checks $name"
	kv=()
	start=
}

n=0
while IFS= read -r line || [ -n "$line" ]; do
	n=$((n + 1))
	case $line in
	'#'*) continue ;;
	'') stanza; continue ;;
	esac
	[[ $line =~ ^([a-z]+):\ (.+)$ ]] || bad "tests/suites:$n" "not 'key: value': $line"
	key=${BASH_REMATCH[1]}
	case $key in
	name | cmd | desc | full | faults | lane) ;;
	*) bad "tests/suites:$n" "unknown key $key" ;;
	esac
	[ -z "${kv[$key]:-}" ] || bad "tests/suites:$n" "$key given twice in a stanza"
	kv[$key]=${BASH_REMATCH[2]}
	start=${start:-$n}
done <tests/suites
stanza
[ -n "$all_checks" ] || bad tests/suites "no suite"
for name in $all_checks; do
	f=${suite_faults[$name]}
	[ -z "$f" ] || [ -n "${suite_cmd[$f]:-}" ] ||
		bad "tests/suites:${suite_line[$name]}" "faults of $name: no suite $f"
done

if [ "${1:-}" = --list ]; then
	for name in $all_checks; do
		printf '%-28s %s\n' "$name" "${suite_cmd[$name]}"
	done
	exit 0
fi
[ $# -eq 0 ] || { echo "usage: [CHECKS=\"name ...\"] tests/run.sh [--list]" >&2; exit 2; }

# Run each suite as an administrator would, not as a sub-make: dkms 3.0.10
# reads the kernel's CC with a nested `make -f -`, which under an inherited
# MAKELEVEL prints "Entering directory '...'" into CC and breaks the build.
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES
mkdir -p "$logdir"
checks=${CHECKS:-$all_checks}
failed_names=

# free_disk: the space left where the suites write, as df gives it
free_disk() { df -h --output=avail "$logdir" | tail -n 1 | tr -d ' '; }

# execute NAME: one suite, into build/check/NAME.log; its seconds and exit
# status into NAME.done, last
execute() {
	local name=$1 start rc

	start=$(date +%s)
	(eval "${suite_cmd[$name]}") >"$logdir/$name.log" 2>&1
	rc=$?
	echo "$(($(date +%s) - start)) $rc" >"$logdir/$name.done"
}

# report NAME: one KTAP result, once the suite has run
report() {
	local name=$1 log=$logdir/$1.log rc secs oks notoks

	while [ ! -f "$logdir/$name.done" ] && kill -0 "$lane_pid" 2>/dev/null; do
		sleep 2
	done
	if [ ! -f "$logdir/$name.done" ]; then
		failed_names="$failed_names $name"
		ktap_test_fail "$name (the packages lane ended before it ran)"
		return
	fi
	read -r secs rc <"$logdir/$name.done"
	printf '%s %s %s\n' "$name" "$secs" "$rc" >>"$logdir/times"
	# the suite's own results: top-level KTAP lines, not nested ones
	oks=$(grep -cE '^ok [0-9]+' "$log")
	notoks=$(grep -cE '^not ok [0-9]+' "$log")
	ktap_print_msg "$name: $oks ok, $notoks not ok, exit $rc, ${secs}s, $(free_disk) free"
	if [ "$rc" -eq 0 ] && [ "$notoks" -eq 0 ]; then
		ktap_test_pass "$name"
	else
		failed_names="$failed_names $name"
		grep -E '^not ok [0-9]+' "$log" | head -n 20 | sed 's/^/# /'
		tail -n 25 "$log" | sed 's/^/# | /'
		ktap_test_fail "$name (log: $log)"
	fi
}

# What no suite may change: the dpkg database, /boot, /lib/modules, DKMS.
# The package tests install into throwaway roots (tests/packaging/root.sh),
# never on this machine: host-unchanged, last, compares with this.
tests/host-unchanged.sh save "$logdir/host-state" >/dev/null ||
	{ echo "cannot save the host's state" >&2; exit 2; }

: >"$logdir/times"
ktap_print_header
ktap_set_plan "$(wc -w <<<"$checks")"
ktap_print_msg "$(free_disk) free in $logdir"
lane=
for c in $checks; do
	rm -f "$logdir/$c.done"
	[ "${suite_lane[$c]:-}" != packages ] || lane="$lane $c"
done
lane_pid=
for c in $checks; do
	if [ -z "${suite_cmd[$c]:-}" ]; then
		ktap_test_fail "$c (no such check)"
		continue
	fi
	if [ -n "$lane" ] && [ -z "$lane_pid" ] && [ "${suite_line[$c]}" -ge "${suite_line[matrix]}" ]; then
		(for l in $lane; do execute "$l"; done) &
		lane_pid=$!
	fi
	if [ "${suite_lane[$c]}" != packages ] || [ -z "$lane_pid" ]; then
		execute "$c"
	fi
	report "$c"
done
wait

ktap_print_totals
# the suites' times, stamped, for docs/testing.md (make docs-results)
python3 scripts/docs.py stamp --kind check --seconds "$SECONDS" "$logdir/times" >/dev/null ||
	echo "tests/run.sh: cannot write $logdir/results.json" >&2
[ -z "$failed_names" ] || echo "failed:$failed_names"
echo "$KTAP_CNT_PASS passed, $KTAP_CNT_FAIL failed"
[ "$KTAP_CNT_FAIL" -eq 0 ]
