#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make matrix: mpt3sas.ko and chainpool_test.ko, -Werror on our files,
# for each series of KERNELS (default: all) in build/modules/SERIES/.

set -u

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
kernels=${KERNELS:-$(kernel_series)}
logdir=$top/build/matrix
mkdir -p "$logdir"
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header
ktap_print_msg "kernel bundles: $(bundles_note)"
summaries=
columns=

for series in $kernels; do
	log=$logdir/$series.log
	kver='?'
	probes=-
	ok=false
	if "$top/tests/kernels/fetch.sh" "$series" >"$log" 2>&1; then
		# shellcheck disable=SC1090 # written by fetch.sh
		. "$(series_env "$series")"
		kver=${KVER:?}
		out=$top/build/modules/$series
		rm -rf "$out"
		KMAKEFLAGS=$KMAKEFLAGS "$top/scripts/build-modules.sh" \
			"$series" "$KVER" "$KDIR" "$out" >>"$log" 2>&1 && ok=true
		summary=$top/build/modules-obj/$series/$KVER/compat/generated/compat_summary.txt
		if [ -f "$summary" ]; then
			probes=$(tail -n 1 "$summary" | sed -n 's/.*: \([0-9]*\) probes, \([0-9]*\) yes, \([0-9]*\) no$/\2 yes, \3 no/p')
			summaries="$summaries $summary"
			columns="$columns $KVER"
		fi
	fi
	if $ok; then
		ktap_test_pass "$series ($kver): built, probes $probes"
	else
		tail -n 15 "$log" | sed "s/^/# $series | /"
		ktap_test_fail "$series ($kver): build failed (log: $log)"
	fi
done

if [ -n "$summaries" ]; then
	# shellcheck disable=SC2086 # list of files
	awk '/^  HAVE_/ { v[$1] = v[$1] sprintf(" %-5s", $2); n[$1] = 1 }
	     END { for (k in n) printf "  %-40s%s\n", k, v[k] }' $summaries | sort
	echo "  (columns:$columns)"
fi | sed 's/^/# /'
ktap_print_plan
ktap_print_totals
echo "$KTAP_CNT_PASS passed, $KTAP_CNT_FAIL failed"
[ "$KTAP_CNT_FAIL" -eq 0 ]
