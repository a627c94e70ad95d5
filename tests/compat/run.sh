#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh KDIR [CC]: src/compat/probe.mk and its probe.sh on one kernel.

set -u

kdir=${1:?usage: run.sh KDIR [CC]}
cc=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
probe_mk=$top/src/compat/probe.mk
work=$(mktemp -d -t compat-test.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header

probe() {
	make --no-print-directory -f "$probe_mk" KDIR="$kdir" ${cc:+"CC=$cc"} "$@"
}

[ -f "$kdir/Makefile" ] ||
	ktap_exit_fail_msg "compat: no kernel build directory at KDIR=$kdir"

# 1. known-true and known-false probes
out=$work/test
if probe PROBES="$here/probes" OUT="$out" > "$work/test.log" 2>&1; then
	h=$out/compat_config.h
	ktap_test_result "true probe reported present" grep -qx '#define HAVE_COMPAT_TEST_TRUE 1' "$h"
	ktap_test_result "false probe reported missing" grep -qx '/\* #undef HAVE_COMPAT_TEST_FALSE \*/' "$h"
	ktap_test_result "summary counts 2 probes, 1 yes, 1 no" grep -q 'compat: .*: 2 probes, 1 yes, 1 no' "$out/compat_summary.txt"
else
	ktap_test_fail "probe.mk failed on the test probes:"
	sed 's/^/# | /' "$work/test.log"
fi

# 2. the real probe set
out=$work/real
if probe OUT="$out" > "$work/real.log" 2>&1; then
	h=$out/compat_config.h
	ktap_test_result "HAVE_SYSFS_EMIT reported present" grep -qx '#define HAVE_SYSFS_EMIT 1' "$h"
	only_real() { ! grep -q COMPAT_TEST "$h"; }
	ktap_test_result "real probe set has only the driver's probes" only_real
	n_src=$(printf '%s\n' "$top"/src/compat/probes/*.c | wc -l)
	n_h=$(grep -c 'HAVE_' "$h")
	ktap_test_result "one result line per probe: $n_src probes, $n_h lines" [ "$n_src" -eq "$n_h" ]
	cat "$out/compat_summary.txt"

	# 3. cached
	cached() { probe OUT="$out" 2>&1 | grep -q 'is up to date'; }
	ktap_test_result "second run reuses the cached result" cached
else
	ktap_test_fail "probe.mk failed on the real probes:"
	sed 's/^/# | /' "$work/real.log"
fi

# 4. a broken kernel build directory must fail, not report "all missing"
mkdir -p "$work/badkdir"
printf 'modules:\n\t@false\n' > "$work/badkdir/Makefile"
ktap_test_red "broken KDIR fails the sanity probe" 'sanity probe did not build' \
	probe KDIR="$work/badkdir" OUT="$work/bad"

# 5. COMPAT_FORCE_FALSE, in the OUT of 1., whose cache must not answer
out=$work/test
h=$out/compat_config.h
forced_off() {
	probe PROBES="$here/probes" OUT="$out" COMPAT_FORCE_FALSE=HAVE_COMPAT_TEST_TRUE \
		> "$work/force.log" 2>&1 && ! grep -q 'is up to date' "$work/force.log" &&
	grep -qx '/\* HAVE_COMPAT_TEST_TRUE forced false by COMPAT_FORCE_FALSE \*/' "$h" &&
	! grep -q '#define HAVE_COMPAT_TEST_TRUE' "$h" &&
	grep -q 'HAVE_COMPAT_TEST_TRUE *no (forced)' "$out/compat_summary.txt" &&
	grep -q 'compat: .*: 2 probes, 0 yes, 2 no' "$out/compat_summary.txt" && return
	sed 's/^/# | /' "$work/force.log" "$h" "$out/compat_summary.txt"
	return 1
}
ktap_test_result "COMPAT_FORCE_FALSE turns a present API off and says so" forced_off
ktap_test_red "COMPAT_FORCE_FALSE rejects a name that is no probe" \
	'HAVE_COMPAT_TEST_TYPO, which is no probe' \
	probe PROBES="$here/probes" OUT="$work/typo" COMPAT_FORCE_FALSE=HAVE_COMPAT_TEST_TYPO

# 6. the version line of every probe
missing=
for f in "$top"/src/compat/probes/*.c; do
	[ "$(grep -c '^ \* Since: v[0-9][0-9.]*\( .*\)\{0,1\}$' "$f")" -eq 1 ] ||
		missing="$missing $(basename "$f")"
done
ktap_test_result "every probe has one ' * Since: vX.Y' line${missing:+; not:$missing}" [ -z "$missing" ]

# 7. values travel in the environment, never pasted into shell code
q='cc "quoted" and spaced'
probe -s OUT="$work/quote" CC="$q" stamp > "$work/stamp" 2>&1
grep '^cc=' "$work/stamp" | sed 's/^/# /'
ktap_test_result "a CC with quotes reaches the stamp as given" grep -qxF "cc=$q" "$work/stamp"

# 8. no probe whose result nothing reads
# unread DIR: " HAVE_X HAVE_Y" for DIR's probes that no conditional under
# src/ reads (patch lines too; the probes and generated/ left out)
unread() {
	for f in "$1"/*.c; do
		m=HAVE_$(basename "$f" .c | tr 'abcdefghijklmnopqrstuvwxyz' 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
		grep -rqE "^[+ ]?[[:space:]]*#[[:space:]]*(el)?if.*[^A-Za-z0-9_]$m([^A-Za-z0-9_]|\$)" \
			--exclude-dir=probes --exclude-dir=generated "$top/src" ||
			printf ' %s' "$m"
	done
}
missing=$(unread "$top/src/compat/probes")
ktap_test_result "every probe's HAVE_* is read by a conditional under src/${missing:+; not:$missing}" \
	[ -z "$missing" ]
missing=$(unread "$here/probes")
ktap_test_result "the check names the test probes' HAVE_*, which nothing reads:$missing" \
	[ "$missing" = " HAVE_COMPAT_TEST_FALSE HAVE_COMPAT_TEST_TRUE" ]

ktap_finished
