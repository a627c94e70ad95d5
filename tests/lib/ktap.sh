# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# KTAP for the host-side test scripts, sourced: the helper names of the
# kernel's tools/testing/selftests/kselftest/ktap_helpers.sh.

KTAP_TESTNO=0
KTAP_CNT_PASS=0
KTAP_CNT_FAIL=0
KTAP_CNT_SKIP=0
KTAP_PLAN=

ktap_print_header() { echo "KTAP version 1"; }

ktap_set_plan() {
	KTAP_PLAN=$1
	echo "1..$1"
}

ktap_print_msg() { echo "# $*"; }

__ktap_test() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	echo "$1 $KTAP_TESTNO $2"
}

ktap_test_pass() {
	KTAP_CNT_PASS=$((KTAP_CNT_PASS + 1))
	__ktap_test ok "$*"
}

ktap_test_fail() {
	KTAP_CNT_FAIL=$((KTAP_CNT_FAIL + 1))
	__ktap_test "not ok" "$*"
}

ktap_test_skip() {
	KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1))
	__ktap_test ok "$* # SKIP"
}

ktap_test_result() {
	ktap_desc=$1
	shift
	if "$@"; then
		ktap_test_pass "$ktap_desc"
	else
		ktap_test_fail "$ktap_desc"
	fi
}

# ktap_test_red DESC BRE CMD...: CMD must fail, saying something BRE matches
# (its output left in ktap_out)
ktap_test_red() {
	ktap_desc=$1 ktap_re=$2
	shift 2
	if ktap_out=$("$@" 2>&1); then
		ktap_desc="$ktap_desc: it passed"
	elif printf '%s\n' "$ktap_out" | grep -q -- "$ktap_re"; then
		printf '%s\n' "$ktap_out" | tail -n 3 | sed 's/^/# | /'
		ktap_test_pass "$ktap_desc"
		return
	else
		ktap_desc="$ktap_desc: not for that reason"
	fi
	printf '%s\n' "$ktap_out" | sed 's/^/# | /'
	ktap_test_fail "$ktap_desc"
}

ktap_exit_fail_msg() {
	echo "Bail out! $*"
	exit 2
}

ktap_print_totals() {
	echo "# Totals: pass:$KTAP_CNT_PASS fail:$KTAP_CNT_FAIL xfail:0 xpass:0 skip:$KTAP_CNT_SKIP error:0"
}

ktap_print_plan() { [ -n "$KTAP_PLAN" ] || echo "1..$KTAP_TESTNO"; }

ktap_finished() {
	ktap_print_plan
	ktap_print_totals
	ktap_rc=0
	[ "$KTAP_CNT_FAIL" -eq 0 ] || ktap_rc=1
	if [ -n "$KTAP_PLAN" ] && [ "$KTAP_PLAN" != "$KTAP_TESTNO" ]; then
		echo "# planned $KTAP_PLAN tests, ran $KTAP_TESTNO"
		ktap_rc=1
	fi
	# Not an unconditional exit: shellcheck would then take every function
	# called only through ktap_test_result for unreachable (SC2317).
	[ "$ktap_rc" = 0 ] || exit "$ktap_rc"
}
