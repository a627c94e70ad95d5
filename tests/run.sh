#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make check`: run every test suite, each logged to build/check/<name>.log,
# print one line per suite and end with "N passed, N failed".
#
# CHECKS="name ..." runs a subset; the default is every suite below.

set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
logdir=build/check
mkdir -p "$logdir"

all_checks="no-upstream-tracked upstream-lock build-6.1 unit"
checks=${CHECKS:-$all_checks}
passed=0
failed=0
failed_names=

run() {
	local name=$1 start rc
	shift

	start=$(date +%s)
	"$@" >"$logdir/$name.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
		printf 'PASS  %-24s %4ss\n' "$name" $(($(date +%s) - start))
	else
		failed=$((failed + 1))
		failed_names="$failed_names $name"
		printf 'FAIL  %-24s %4ss  (exit %s, log: %s)\n' "$name" \
			$(($(date +%s) - start)) $rc "$logdir/$name.log"
		tail -n 25 "$logdir/$name.log" | sed 's/^/      | /'
	fi
}

for c in $checks; do
	case $c in
	no-upstream-tracked) run "$c" tests/check-no-upstream.sh ;;
	upstream-lock) run "$c" tests/upstream-lock.sh ;;
	build-6.1) run "$c" tests/build-6.1.sh ;;
	unit) run "$c" make -C tests/unit check ;;
	*) echo "unknown check: $c" >&2; failed=$((failed + 1)) ;;
	esac
done

[ -z "$failed_names" ] || echo "failed:$failed_names"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
