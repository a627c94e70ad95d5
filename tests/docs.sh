#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The documentation: generated tables, README.md's shape, what it names.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header

if out=$(python3 scripts/docs.py render --check 2>&1); then
	ktap_test_pass "the tables in README.md and docs/ are what make docs writes from docs/results/"
else
	while IFS= read -r l; do ktap_print_msg "| $l"; done <<<"$out"
	ktap_test_fail "make docs would change the documentation"
fi

lines=$(wc -l < README.md)
ktap_test_result "README.md is $lines lines, at most 250" [ "$lines" -le 250 ]
for cmd in 'dnf install kmod-mpt3sas-chainpool' 'apt-get install mpt3sas-chainpool-dkms' 'dkms add -m'; do
	n=$(grep -nF -- "$cmd" README.md | head -n 1 | cut -d: -f1)
	ktap_test_result "README.md: '$cmd' at line ${n:-none}, within the first 100" \
		[ "${n:-999}" -le 100 ]
done

mapfile -t docs < <(echo README.md; echo CHANGELOG.md; find docs -name '*.md' | sort)
found=$(grep -nwiE 'sessions?' "${docs[@]}" || true)
ktap_test_result "no working session named${found:+: $found}" [ -z "$found" ]
found=$(grep -niE 'issue #?[0-9]+' "${docs[@]}" || true)
ktap_test_result "no issue of the tracker named${found:+: $found}" [ -z "$found" ]
# a hash: a word of 7 to 12 hex digits with a letter and a digit in it
found=$(grep -noiwE '[0-9a-f]{7,12}' "${docs[@]}" | grep -iE ':[0-9]*[a-f][0-9a-f]*$' |
	grep -E ':[a-f]*[0-9][0-9a-f]*$' || true)
ktap_test_result "no commit named by hash${found:+: $found}" [ -z "$found" ]

ktap_finished
