#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/plants/run.sh SUITE [--reduced]: SUITE must go red on each of its
# planted faults (tests/plants/list; --reduced: those marked "check"): it
# runs on a copy of the checkout and build/tree with the plant's patch,
# built as SUITE needs, and the plant's test must report "not ok".  The
# suites in QEMU run on the first series tagged faults, the RPM suites on
# the first tagged rpm-reduced.  Prints KTAP; logs in build/plants/NAME/.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
LOG_TAG=plants
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"

suite=${1:-}
only=
case ${2:-} in
--reduced) only=check ;;
'') ;;
*) die "usage: $0 SUITE [--reduced]" ;;
esac
list=$(sed -e '/^#/d' -e 's/ *| */|/g' "$here/list")
bad=$(awk -F'|' 'NF != 5' <<<"$list")
[ -z "$bad" ] || die "$here/list: not five fields: $bad"
plants=$(awk -F'|' -v s="$suite" -v c="$only" '$2 == s && (c == "" || $3 == c)' <<<"$list")
[ -n "$plants" ] || die "no plant of suite '$suite' in $here/list"

# plant_copy NAME WORK: the checkout and build/tree copied to WORK with
# NAME.patch applied; fails unless it applies without fuzz and changes
# every file it names
plant_copy() {
	local f
	rm -rf --one-file-system "$2"
	mkdir -p "$2/build"
	tar -C "$top" --exclude=./build --exclude=./.git -cf - . | tar -C "$2" -xf - &&
		cp -r "$top/build/tree" "$2/build/" &&
		patch -s -d "$2" -p1 --fuzz=0 --no-backup-if-mismatch <"$here/$1.patch" || return 1
	while read -r f; do
		! cmp -s "$top/$f" "$2/$f" || { echo "$1.patch changes nothing in $f"; return 1; }
	done < <(sed -n 's|^+++ b/\([^\t]*\).*|\1|p' "$here/$1.patch")
}

# plant_failed TEST WORK: a KTAP line of the suite's output or logs says
# that TEST is "not ok"
plant_failed() {
	grep -ahsrE --include='*.log' "^(\[[ 0-9.]*\] )?not ok [0-9]+ (- )?($1)([^[:alnum:]_]|$)" \
		"$2/run.log" "$2/run" | head -n 3
}

# run_SUITE WORK RUN NAME TEST: the suite on WORK, its output to WORK/run.log
# and logs under WORK/run/; 125 if the copy does not build (WORK/build.log)
run_unit() {
	make -s -C "$1/tests/unit" clean >/dev/null &&
		make -C "$1/tests/unit" all >"$1/build.log" 2>&1 || return 125
	make -C "$1/tests/unit" check >"$1/run.log" 2>&1
}

run_hba() {
	local w=$1 run=$2 ko
	ko=$(KDIR=$KDIR KVER='' KMAKEFLAGS=${KMAKEFLAGS:-} "$top/scripts/build-module.sh" \
		"$w/build/tree" "$w/obj" 2>"$w/build.log" | tail -n 1)
	[ -f "$ko" ] || return 125
	mkdir -p "$w/modules/$kernel"
	cp "$ko" "$w/modules/$kernel/"
	set -- --reduced --dir "$w/run" --modules "$w/modules" --timeout 300
	case $suite in
	hbatest) "$top/tests/hba/run.sh" "$@" "$run" ;;
	hba-lying) "$top/tests/hba/run.sh" "$@" --name hba-lying \
		--plan "lying=$run" lying ;;
	hba-alloc) "$top/tests/hba-alloc/run.sh" "$@" --plan "$run" \
		--tree "$w/build/tree" ;;
	esac >"$w/run.log" 2>&1
}

# the copy's package suite in a throwaway root (root.sh, RUN its options
# and script), on the checkout's image and RPM fixture repository (hard
# links: the same key), killed with its session once TEST reported: what
# comes after has nothing to show
run_pkg() {
	local w=$1 f sid rc opts=${2% *} script=${2##* } root=$BUILD_ROOT/pkgroot
	[ "$opts" != "$2" ] || opts=
	if [ "$opts" = --rpm ]; then
		root+=-rpm
		mkdir -p "$w/build/pkgroot-rpm"
		for f in "$root"/repo-*/.complete; do
			[ ! -f "$f" ] || cp -al "${f%/.complete}" "$w/build/pkgroot-rpm/"
		done
	fi
	# shellcheck disable=SC2086 # opts: none or one word
	EL=$el setsid "$w/tests/packaging/root.sh" $opts --name "plant-$3" \
		"$w/tests/packaging/$script" >"$w/run.log" 2>&1 </dev/null &
	sid=$!
	while kill -0 "$sid" 2>/dev/null &&
		! grep -qE "^(not )?ok [0-9]+ (- )?($4)([^[:alnum:]_]|$)" "$w/run.log"; do
		sleep 1
	done
	kill -KILL -- -"$sid" 2>/dev/null
	wait "$sid" 2>/dev/null
	rc=$?
	# the kernel ends the run's PID namespace with it; then its files go
	for _ in $(seq 20); do
		[ -z "$(pgrep -s "$sid")" ] && break
		sleep 0.5
	done
	rm -rf --one-file-system "$root/run/plant-$3"
	return "$rc"
}

# the copy's harness on the copy's modules (mpt3sas rebuilt for a plant in
# it only): vmtest with the project's steps, reliability with the plant's
run_vm() {
	local w=$1 steps=$2 build=$1/tests/reliability/build-modules.sh
	if ! grep -qE '^\+\+\+ b/(src/mpt3sas|build/tree)/' "$here/$3.patch"; then
		need_modules "$BUILD_ROOT/modules" "$w/matrix.log" "$kernel"
		build="$build --mpt3sas $BUILD_ROOT/modules"
	fi
	set -- "$w/tests/vm/run.sh"
	if [ "$suite" = reliability ]; then
		echo "$steps" >"$w/steps"
		set -- "$w/tests/reliability/run.sh" --steps "$w/steps" --timeout 900
	fi
	"$@" --reduced --setups plain --no-prefetch --dir "$w/run" \
		--build "$build" >"$w/run.log" 2>&1
}

case $suite in
unit) runner=run_unit ;;
vmtest | reliability) runner=run_vm kernel=$(kernel_one faults) ;;
hbatest | hba-lying | hba-alloc)
	runner=run_hba
	kernel=$(kernel_one faults)
	"$top/tests/kernels/fetch.sh" "$kernel" >/dev/null || die "fetching $kernel failed"
	# shellcheck disable=SC1090 # written by fetch.sh
	. "$(series_env "$kernel")"
	;;
pkg-deb-install) runner=run_pkg el='' ;;
pkg-rpm-*) runner=run_pkg el=$(kernel_one rpm-reduced) ;;
*) die "no way to run suite '$suite' with a plant" ;;
esac
# the one series the suites in QEMU run on; the copies read the
# checkout's downloads and fixtures
export KERNELS=${kernel:-} BUILD_ROOT KERNEL_BUNDLES RHEL_FIXTURES

ktap_print_header
declare -A runs
while IFS='|' read -r name _ _ test run; do
	# a plant that two runs of the suite take: NAME, NAME-2
	runs[$name]=$((${runs[$name]:-0} + 1))
	work=$BUILD_ROOT/plants/$name
	[ "${runs[$name]}" = 1 ] || work+=-${runs[$name]}
	if ! why=$(plant_copy "$name" "$work" 2>&1); then
		ktap_test_fail "$name: the plant does not apply: $why"
		continue
	fi
	rc=0
	$runner "$work" "$run" "$name" "$test" || rc=$?
	if [ $rc = 125 ]; then
		tail -n 5 "$work/build.log" | sed 's/^/# | /'
		ktap_test_fail "$name: building the planted copy failed ($work/build.log)"
	elif seen=$(plant_failed "$test" "$work") && [ -n "$seen" ] && [ $rc != 0 ]; then
		seen=${seen%%$'\n'*}
		ktap_print_msg "seen: ${seen:0:200}"
		ktap_test_pass "$name planted: $suite reports '$test' not ok"
	else
		tail -n 10 "$work/run.log" | sed 's/^/# | /'
		ktap_test_fail "$name planted: $suite did not report '$test' not ok (exit $rc, $work/run.log)"
	fi
	# the logs stay
	find "$work" -mindepth 1 -maxdepth 1 ! -name run ! -name '*.log' \
		-exec rm -rf --one-file-system {} +
done <<<"$plants"
ktap_finished
