#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/deps.sh LIST...: make sure the packages of scripts/deps/LIST are
# installed (modules, packages, check).
#
# Nothing missing: silent.  Missing, as root on Debian or Ubuntu: installed
# from the distribution's archive.  Missing otherwise (not root, or a dnf
# or zypper system): prints the exact install command and stops, before
# anything else is done.  NO_DEPS=1 skips the whole check (packages
# managed by other means).

set -eu

here=$(cd "$(dirname "$0")" && pwd)
lists=$here/deps

LOG_TAG=deps
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"

[ $# -gt 0 ] || die "usage: $0 {modules|packages|check}..."
[ "${NO_DEPS:-0}" != 1 ] && [ "${NO_DEPS:-}" != y ] || exit 0

os_id=
os_like=
os_name="this system"
if [ -r /etc/os-release ]; then
	os_id=$(. /etc/os-release && echo "${ID:-}")
	os_like=$(. /etc/os-release && echo "${ID_LIKE:-}")
	os_name=$(. /etc/os-release && echo "${PRETTY_NAME:-$ID}")
fi

# The package manager, and the column of the lists that names its packages.
if command -v dpkg-query >/dev/null && command -v apt-get >/dev/null; then
	pm=apt col=1
elif command -v dnf >/dev/null || command -v yum >/dev/null; then
	pm=dnf col=2
elif command -v zypper >/dev/null; then
	pm=zypper col=3
else
	die "no apt, dnf or zypper here: install by hand what scripts/deps/{$(echo "$@" | tr ' ' ,)} lists"
fi

installed() {
	case $pm in
	apt) dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q ' installed$' ;;
	*) rpm -q --whatprovides "$1" >/dev/null 2>&1 ;;
	esac
}

want=()
for list in "$@"; do
	[ -f "$lists/$list" ] || die "no such list: scripts/deps/$list"
	while read -r pkg; do
		[ "$pkg" = - ] || want+=("$pkg")
	done < <(awk -v c="$col" '!/^#/ && NF >= 3 { print $c }' "$lists/$list")
done

missing=()
for pkg in "${want[@]}"; do
	case " ${missing[*]} " in *" $pkg "*) continue ;; esac
	installed "$pkg" || missing+=("$pkg")
done
[ ${#missing[@]} -gt 0 ] || exit 0

case $pm in
apt) cmd="apt-get install --no-install-recommends ${missing[*]}" ;;
dnf) cmd="dnf install ${missing[*]}" ;;
zypper) cmd="zypper install ${missing[*]}" ;;
esac

# make check builds against and boots Debian's kernels: say so elsewhere.
case " $* " in
*" check "*)
	if [ "$os_id" != debian ]; then
		echo "deps: make check runs on Debian 12 (it builds against Debian 12's 6.1 headers and boots Debian's kernels); $os_name would need:" >&2
		echo "  $cmd" >&2
		exit 1
	fi
	;;
esac

case " $os_id $os_like " in
*" debian "* | *" ubuntu "*) apt_family=1 ;;
*) apt_family=0 ;;
esac
if [ "$pm" != apt ] || [ $apt_family = 0 ] || [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages for $(echo "$@" | tr ' ' ,): install them with" >&2
	if [ "$(id -u)" = 0 ]; then
		echo "  $cmd" >&2
	else
		echo "  sudo $cmd" >&2
	fi
	echo "(or NO_DEPS=1 to go on without)" >&2
	exit 1
fi

echo "deps: installing from $os_name's archive: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get -q update >&2 || die "apt-get update failed"
apt-get -q -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}" >&2 ||
	die "apt-get install failed: $cmd"
