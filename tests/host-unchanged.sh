#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/host-unchanged.sh save FILE | compare FILE: what make check must
# leave as it found it; compare exits 1 on a difference.

set -eu

state() {
	local d dirs=()

	dpkg-query -W -f='pkg ${Package}:${Architecture} ${Version} ${Status}\n' | sort
	for d in /boot /lib/modules /usr/src /var/lib/dkms /etc/modprobe.d /etc/depmod.d; do
		[ -e "$d" ] && dirs+=("$d")
	done
	awk '{ print "mount", $5 }' /proc/self/mountinfo | sort
	[ ${#dirs[@]} -gt 0 ] || return 0
	find "${dirs[@]}" -xdev -type l -printf 'link %p -> %l\n' | sort
	find "${dirs[@]}" -xdev -type f -print0 | sort -z | xargs -0r sha256sum | sed 's/^/file /'
}

[ $# = 2 ] || set -- usage
case $1 in
save)
	state >"$2.new"
	mv "$2.new" "$2"
	echo "# host state: $(grep -c '^pkg ' "$2") packages, $(grep -c '^file ' "$2") files, $(grep -c '^link ' "$2") links saved in $2"
	;;
compare)
	[ -s "$2" ] || { echo "# no saved host state in $2" >&2; exit 2; }
	if diff -u "$2" <(state) >"$2.diff"; then
		echo "# host unchanged since $2 was saved: $(grep -c '^pkg ' "$2") packages, $(grep -c '^mount ' "$2") mounts, $(grep -c '^file ' "$2") files in /boot, /lib/modules, /usr/src, /var/lib/dkms, /etc/{modprobe,depmod}.d"
	else
		echo "# the host changed since $2 was saved:"
		grep "^[-+][a-z]" "$2.diff" | head -n 40 | sed "s/^/# /"
		exit 1
	fi
	;;
*)
	echo "usage: $0 save FILE | compare FILE" >&2
	exit 2
	;;
esac
