#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The supported kernel range of mpt3sas-chainpool, as DKMS sees it.
#
#   kernel-range.sh regex MIN [MAX]        a BUILD_EXCLUSIVE_KERNEL regex
#   kernel-range.sh check KVER MIN [MAX]   exit 0 if KVER is in the range
#   kernel-range.sh require KVER MIN [MAX] the same; else say so on stderr
#                                          (dkms.mk's range-check)
#   kernel-range.sh text MIN [MAX]         "4.15 and newer", "6.2 to 6.11"
#   kernel-range.sh min | max              the range the packages declare:
#                                          DKMS_KERNEL_MIN (else the series in
#                                          packaging/kernel-min), DKMS_KERNEL_MAX
#
# MIN and MAX are kernel series (major.minor); MAX is inclusive: MAX=6.11
# takes every 6.11.y.  dkms >= 3.0.11 honours BUILD_EXCLUSIVE_KERNEL_MIN and
# _MAX itself; older ones (Debian 12 has 3.0.10, Ubuntu 22.04 2.8.7) only
# know BUILD_EXCLUSIVE_KERNEL, a bash regex matched against the release,
# so the same range is also spelt as one (series listed explicitly: no
# arithmetic in a regex).
#
# The one implementation of the range: make dist (packaging/dist.sh) writes
# the series and the regex into dkms.conf from here, and ships this file
# beside dkms.mk, whose range-check runs "require" (a dkms that knows no
# BUILD_EXCLUSIVE directive).  "min" needs packaging/kernel-min, which
# the tarball does not hold: there the range comes from dkms.conf.

set -eu

die() {
	echo "kernel-range: $*" >&2
	exit 2
}

series() {
	[[ $1 =~ ^([0-9]+)\.([0-9]+)$ ]] || die "'$1' is not a kernel series (major.minor)"
	echo "$((10#${BASH_REMATCH[1]})) $((10#${BASH_REMATCH[2]}))"
}

# Alternation of the numbers from $1 to $2; $2 = inf adds every 3+ digit one.
nums() {
	local from=$1 to=$2 out="" i last=$2
	[ "$to" = inf ] && last=99
	for ((i = from; i <= last; i++)); do
		out+="${out:+|}$i"
	done
	[ "$to" = inf ] && out+="${out:+|}[1-9][0-9][0-9]+"
	echo "$out"
}

regex() {
	local amaj amin zmaj zmin alts
	read -r amaj amin <<<"$(series "$1")"
	if [ -z "${2:-}" ]; then
		alts="$amaj\\.($(nums "$amin" inf))|($(nums $((amaj + 1)) inf))\\.[0-9]+"
	else
		read -r zmaj zmin <<<"$(series "$2")"
		if ((zmaj < amaj || (zmaj == amaj && zmin < amin))); then
			die "empty range $1 to $2"
		elif ((zmaj == amaj)); then
			alts="$amaj\\.($(nums "$amin" "$zmin"))"
		else
			alts="$amaj\\.($(nums "$amin" inf))"
			((zmaj - amaj > 1)) && alts+="|($(nums $((amaj + 1)) $((zmaj - 1))))\\.[0-9]+"
			alts+="|$zmaj\\.($(nums 0 "$zmin"))"
		fi
	fi
	# The series must end there: 4.1 is not 4.15.
	echo "^($alts)([^0-9]|\$)"
}

check() {
	local kver=$1 kmaj kmin amaj amin zmaj zmin
	[[ $kver =~ ^([0-9]+)\.([0-9]+) ]] || return 1
	kmaj=$((10#${BASH_REMATCH[1]}))
	kmin=$((10#${BASH_REMATCH[2]}))
	read -r amaj amin <<<"$(series "$2")"
	((kmaj > amaj || (kmaj == amaj && kmin >= amin))) || return 1
	[ -n "${3:-}" ] || return 0
	read -r zmaj zmin <<<"$(series "$3")"
	((kmaj < zmaj || (kmaj == zmaj && kmin <= zmin)))
}

require() {
	check "$@" && return 0
	echo "mpt3sas-chainpool supports kernels $(text "$2" ${3:+"$3"}); $1 is not supported" >&2
	return 1
}

text() {
	if [ -n "${2:-}" ]; then echo "$1 to $2"; else echo "$1 and newer"; fi
}

[ $# -ge 1 ] || die "usage: kernel-range.sh regex|check|require|text|min|max ..."
cmd=$1
shift
case $cmd in
min) echo "${DKMS_KERNEL_MIN:-$(grep -v '^#' "$(dirname "$0")/kernel-min")}" ;;
max) echo "${DKMS_KERNEL_MAX:-}" ;;
regex | text)
	if [ $# -lt 1 ] || [ $# -gt 2 ]; then die "usage: $cmd MIN [MAX]"; fi
	"$cmd" "$@"
	;;
check | require)
	if [ $# -lt 2 ] || [ $# -gt 3 ]; then die "usage: $cmd KVER MIN [MAX]"; fi
	"$cmd" "$@"
	;;
*) die "unknown command $cmd" ;;
esac
