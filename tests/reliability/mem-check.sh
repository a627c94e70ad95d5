#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The guest's memory check (gl_mem_* of tests/vm/guestlib.sh) on made-up
# readings, as no guest shows a transient on demand.
# shellcheck disable=SC2016 # the $ of guestlib.sh and the cases, not ours

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header

# guestlib.sh with the guest's paths replaced
sed -e 's|^\. /etc/vmtest/conf.*|VMTEST_SPLAT_RE=x|' -e 's|^PATH=/bin$|:|' \
	-e 's|\$(cat /proc/cmdline)|$GL_TEST_CMDLINE|' -e "s|> /dev/kmsg|>> $work/kmsg|" \
	-e "s|^GL_RESULTS=.*|GL_RESULTS=$work/results|" -e "s|^GL_KEPT=.*|GL_KEPT=$work/kept|" \
	"$top/tests/vm/guestlib.sh" > "$work/guestlib.sh"
for s in VMTEST_SPLAT_RE=x GL_TEST_CMDLINE "GL_RESULTS=$work/results" ">> $work/kmsg"; do
	grep -qF "$s" "$work/guestlib.sh" || ktap_exit_fail_msg "guestlib.sh changed: cannot stub '$s'"
done

# run_case NAME SCRIPT READINGS: SCRIPT (sh, with guestlib.sh sourced) reads
# "free slab" pairs from READINGS, one per gl_free_pages; prints its log
run_case() {
	printf '%s\n' "$3" | tr ';' '\n' > "$work/q"
	: > "$work/results"
	cat > "$work/case.sh" <<EOF
GL_TEST_CMDLINE=
. $work/guestlib.sh
GL_TAG=guest
sleep() { echo "\$1" >> $work/slept; }
gl_settle() { :; }	# never drop the host's caches
gl_free_pages() {
	set -- \$(head -n 1 $work/q)
	[ -n "\${1:-}" ] || { gl_fail "readings exhausted"; echo 0; return; }
	sed -i 1d $work/q
	echo "\$2" > $work/slab
	echo "\$1"
}
gl_slab_pages() { cat $work/slab; }
$2
echo "RELOOKS=\$GL_RELOOKS LEAKS=\$GL_LEAKS"
EOF
	: > "$work/slept"
	sh "$work/case.sh" 2>&1
}

# expect NAME OUTPUT ERE [!]: OUTPUT must (or with !, must not) match ERE
expect() {
	if { [ "${4:-}" = '!' ] && ! echo "$2" | grep -qE "$3"; } ||
	   { [ "${4:-}" != '!' ] && echo "$2" | grep -qE "$3"; }; then
		ktap_test_pass "$1: ${4:+no }'$3'"
	else
		printf '%s\n' "$2" | sed 's/^/# | /'
		ktap_test_fail "$1: ${4:+unexpected }'$3'"
	fi
}

# a point holds 922 pages for a moment (as seen on sid behind the
# IOMMU), the next ones are back: one second look, green
out=$(run_case transient '
gl_mem_base
for p in 1 2 3; do gl_mem_check p$p; done
gl_mem_end
gl_say "FIGURES $(gl_mem_figures)"
gl_end' '10000 100;9950 100;9078 100;9941 101;9945 100;9950 100')
expect transient "$out" 'p2: 922 free pages missing, 0 slab pages added; settled to 59 and 1 after 2 looks'
expect transient "$out" 'second looks=1 \(worst 922 free/0 slab pages, settled to at most 59/1\)'
expect transient "$out" 'guest: 1\.\.4$'
expect transient "$out" 'not ok' !

# one point leaks 200 pages for good: red after every look, the later
# points one look each, and the end check red too
out=$(run_case leak '
gl_mem_base
for p in 1 2 3; do gl_mem_check p$p; done
gl_mem_end
gl_end' '10000 100;9990 100;9800 100;9800 100;9800 100;9800 100;9800 100;9800 100;9795 100;9800 100;9800 100;9800 100;9800 100;9800 100;9800 100')
expect leak "$out" 'not ok 2 p2: free and slab pages back: 200 free pages missing since the start \(tolerance 96; 200 at the first of 6 looks\)'
expect leak "$out" 'not ok 3 p3: free and slab pages back: 205 free pages missing since the start \(tolerance 96; 205 at the first of 1 looks\)'
expect leak "$out" 'not ok 4 end of the suite \(cumulative\): free and slab pages back: 200 free pages missing'
expect leak "$(grep -c 'not ok' "$work/results")" '^3$'
expect leak "$out" 'readings exhausted' !

# slab pages that stay
out=$(run_case slab '
gl_mem_base
gl_mem_check p1
gl_end' '10000 100;10000 140;10000 140;10000 140;10000 140;10000 140;10000 140')
expect slab "$out" 'not ok 1 p1: free and slab pages back: 40 slab pages added since the start \(tolerance 32; 40 at the first of 6 looks\)'

# a slow leak: 32 pages a point is red by the fourth point
out=$(run_case slow '
gl_mem_base
for p in 1 2 3 4; do gl_mem_check p$p; done
gl_end' '10000 100;9968 100;9936 100;9904 100;9872 100;9872 100;9872 100;9872 100;9872 100;9872 100')
expect slow "$out" 'not ok 4 p4: free and slab pages back: 128 free pages missing'
expect slow "$out" 'not ok [0-9]+ p[123]:' !

# 64 pages leaked in each of two phases (each under tolerance against its
# own starting point): only the end check, against the suite's best
# reading, sees the 128
out=$(run_case phases '
gl_mem_base
gl_mem_check p1
gl_mem_base
gl_mem_check q1
gl_mem_end
gl_end' '10000 100;9936 100;9936 100;9872 100;9872 100;9872 100;9872 100;9872 100;9872 100;9872 100')
expect phases "$out" 'not ok [0-9]+ (p|q)1:' !
expect phases "$out" 'not ok 3 end of the suite \(cumulative\): free and slab pages back: 128 free pages missing since the start'

# the waits are the bounded, growing ones
out=$(run_case waits '
gl_mem_base
gl_mem_check p1' '10000 100;9000 100;9000 100;9000 100;9000 100;9000 100;9000 100')
waits=$(tr '\n' ' ' < "$work/slept")
expect waits "$waits" '^1 0.2 0.5 1 2 3 $'

ktap_finished
