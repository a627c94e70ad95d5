#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The unit suite must go red on a broken allocator: build the unit tests
# from a copy of the sources with each plant of tests/unit/plants/ applied
# (its first line says what it breaks) and expect make check to fail with
# a test named "not ok", not with a build error.  The copy lives in a
# temporary directory; the checkout is not touched.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for plant in "$top"/tests/unit/plants/*.patch; do
	name=$(basename "$plant" .patch)
	copy=$work/$name
	mkdir -p "$copy/src" "$copy/tests"
	cp -r "$top/src/chainpool" "$copy/src/"
	cp -r "$top/tests/unit" "$top/tests/lib" "$copy/tests/"
	make -s -C "$copy/tests/unit" clean >/dev/null
	if ! patch -s -d "$copy" -p1 --fuzz=0 <"$plant"; then
		ktap_test_fail "plant $name does not apply"
		continue
	fi
	out=$(make -C "$copy/tests/unit" all 2>&1) ||
		{ tail -n 5 <<<"$out" | sed 's/^/# | /'; ktap_test_fail "plant $name: build failed"; continue; }
	out=$(make -C "$copy/tests/unit" check 2>&1)
	rc=$?
	failed=$(grep '^not ok' <<<"$out" | head -n 3 | sed 's/^not ok [0-9]* - //' | paste -sd, -)
	if [ $rc -ne 0 ] && [ -n "$failed" ]; then
		ktap_test_pass "plant $name fails the unit tests ($failed)"
	else
		tail -n 10 <<<"$out" | sed 's/^/# | /'
		ktap_test_fail "plant $name: unit tests passed (exit $rc)"
	fi
done
ktap_finished
