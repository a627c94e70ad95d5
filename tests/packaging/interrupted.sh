#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# interrupted.sh [--rpm [EL]]: deb-install.sh SIGKILLed while dkms builds
# (where dpkg was once left "interrupted"), or rpm-install.sh as EL (default:
# the first tagged rpm-reduced) in our %posttrans while dracut runs, leaves
# no process, no mount and an unchanged host; the next run starts clean.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
work=$top/build/pkg/test/interrupted
run=$BUILD_ROOT/pkgroot/run/deb-install
root=()
victim="deb-install"
# at_point: the moment to kill, reached
at_point() { [ -d "$run/upper/var/lib/dkms/mpt3sas-chainpool" ]; }
if [ "${1:-}" = --rpm ]; then
	EL=${2:-$(kernel_one rpm-reduced)}
	export EL
	work=$top/build/pkg/test/interrupted-$EL
	run=$BUILD_ROOT/pkgroot-rpm/run/rpm-install-$EL
	root=(--rpm)
	victim=rpm-install
	# ours installed for a kernel (%post is done), dracut at work
	at_point() {
		compgen -G "$run/upper/var/lib/dkms/mpt3sas-chainpool/kernel-*" >/dev/null &&
			compgen -G "$run/upper/var/tmp/dracut.*" >/dev/null
	}
fi
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header

rm -rf "$work"
mkdir -p "$work"
"$top/tests/host-unchanged.sh" save "$work/host-before" || exit 2

# Its own session, so that one kill reaches every process of it.
setsid "$top/tests/packaging/root.sh" "${root[@]}" "$top/tests/packaging/$victim.sh" \
	>"$work/killed-run.log" 2>&1 </dev/null &
sid=$!
ktap_print_msg "$victim started in a throwaway root (session $sid)"
# The root may have to be made first: allow for that.
waited=0
while [ $waited -lt 1200 ] && ! at_point && kill -0 "$sid" 2>/dev/null; do
	sleep 1
	waited=$((waited + 1))
done
if at_point && kill -0 "$sid" 2>/dev/null; then
	[ "$victim" != deb-install ] || sleep 2 # into the dkms build
	ktap_print_msg "killing $victim after ${waited}s"
	kill -KILL -- -"$sid"
	wait "$sid" 2>/dev/null
	ktap_test_pass "$victim killed (SIGKILL to its session) in the middle"
else
	ktap_test_fail "$victim never got there (or ended first): $(tail -n 5 "$work/killed-run.log" | tr '\n' ' ')"
fi

# Processes of the run: in its session, or chrooted into its root (dpkg's
# maintainer scripts run in sessions of their own).  The kernel kills the
# rest of the PID namespace as its init dies: give that a moment.
run_procs() {
	local p r
	pgrep -s "$sid"
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		case $r in "$BUILD_ROOT"/pkgroot/* | "$BUILD_ROOT"/pkgroot-rpm/*) echo "${p#/proc/}" ;; esac
	done
}
for _ in $(seq 20); do
	left=$(run_procs | sort -un | tr '\n' ' ')
	[ -n "$left" ] || break
	sleep 0.5
done
ktap_test_result "no process of the killed run is left${left:+: $left}" [ -z "$left" ]
mnt=$(grep -F "$BUILD_ROOT/pkgroot" /proc/self/mountinfo || true)
ktap_test_result "no mount of the killed run is left${mnt:+: $mnt}" [ -z "$mnt" ]
ktap_test_result "the host is as it was" \
	"$top/tests/host-unchanged.sh" compare "$work/host-before"

# root-clean.sh's own results, as a KTAP subtest
"$top/tests/packaging/root.sh" "${root[@]}" --name "$victim${EL:+-$EL}" \
	"$top/tests/packaging/root-clean.sh" "${root[@]}" >"$work/root-clean.log" 2>&1
rc=$?
sed 's/^/    /' "$work/root-clean.log"
ktap_test_result "the next run starts clean" [ "$rc" = 0 ]
ktap_finished
