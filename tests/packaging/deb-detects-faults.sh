#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/packaging/deb-detects-faults.sh [--reduced]: each planted fault
# (PLANT, see deb-install.sh) must turn deb-install.sh red at the check
# it names.  The run goes in a root of its own (root.sh) and is stopped,
# its whole session killed as interrupted.sh kills one, as soon as that
# check has reported: what comes after it has nothing to show.
#
#   repo-trusted  make repo's sources stanza trusts the repository
#                 instead of naming the key: apt-get update must still
#                 refuse it signed by another key
#   min-4.16      the package is built for kernels 4.16 and newer: the
#                 range rule must not skip Ubuntu 18.04's 4.15 (needs
#                 the u18.04 bundle; not in --reduced)
#
# Prints KTAP: ok when the planted run reported its check not ok.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
log=$top/build/pkg/test/deb-detects-faults
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header
mkdir -p "$log"

plants='repo-trusted|apt-get update refuses the repository signed by another key'
[ "${1:-}" = --reduced ] || plants+='
min-4.16|u18.04: the range rule did not skip'
while IFS='|' read -r plant check; do
	out=$log/$plant.log
	PLANT=$plant PKGROOT_RUN=deb-plant-$plant setsid "$top/tests/packaging/root.sh" \
		"$top/tests/packaging/deb-install.sh" >"$out" 2>&1 </dev/null &
	sid=$!
	while kill -0 "$sid" 2>/dev/null && ! grep -qE "^(not )?ok [0-9]+ $check" "$out"; do
		sleep 1
	done
	kill -KILL -- -"$sid" 2>/dev/null
	wait "$sid" 2>/dev/null
	grep -E '^not ok' "$out" | sed 's/^/# /'
	ktap_test_result "deb-install goes red with PLANT=$plant: '$check' not ok (log: $out)" \
		grep -qE "^not ok [0-9]+ $check" "$out"
	# the kernel ends the run's PID namespace with it; then its files go
	for _ in $(seq 20); do
		[ -z "$(pgrep -s "$sid")" ] && break
		sleep 0.5
	done
	rm -rf --one-file-system "$top/build/pkgroot/run/deb-plant-$plant"
done <<<"$plants"
ktap_finished
