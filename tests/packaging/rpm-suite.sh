#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/packaging/rpm-suite.sh install|upgrade|kmod [--reduced|EL...]:
# one of the RPM suites on each RHEL kernel bundle (default: the series
# tagged rpm in tests/kernels/series; --reduced: the first tagged
# rpm-reduced), each in its own RPM root (root.sh --rpm).  install
# installs and removes the package (rpm-install.sh), boots the initramfs
# it had made under QEMU (initrd-boot.sh --rpm EL), and installs the other
# bundle's kernel in between in the first EL's root.  kmod builds and
# installs the kmod package (rpm-kmod.sh) on each series tagged kmod.
#
# tests/packaging/rpm-suite.sh detects-faults [--reduced|EL]: the planted
# faults, on EL (default: the first series tagged rpm-reduced),
# (PLANT, see rpm-install.sh) must turn each suite red: install with a
# %posttrans that skips dracut and with a %preun that forgets dkms remove
# (its remove step), upgrade with the %posttrans one (the reinstall is
# rebuilt by nothing else), kmod (rpm-kmod.sh, its own suite) with the
# kmod spec's depmod.d line for weak-updates/ dropped, repo (rpm-kmod.sh
# too) with make repo's .repo file checking no repository signature;
# RPM_PLANTS picks among them (install, remove, upgrade, kmod, repo;
# default all five; --reduced, make check's: remove).
# Prints KTAP: ok when the planted run failed.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
what=${1:?usage: rpm-suite.sh install|upgrade|kmod|detects-faults [--reduced|EL...]}
shift
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
plants="install remove upgrade kmod repo"
if [ "${1:-}" = --reduced ] || { [ $# = 0 ] && [ "$what" = detects-faults ]; }; then
	[ "${1:-}" != --reduced ] || plants=remove
	set -- "$(kernel_one rpm-reduced)"
elif [ $# = 0 ]; then
	tag=rpm
	[ "$what" != kmod ] || tag=kmod
	# shellcheck disable=SC2046 # one word a series
	set -- $(kernel_series "$tag")
	[ $# -gt 0 ] || die "no kernel series tagged $tag (bundles: $(bundles_note))"
fi
pk=$top/tests/packaging
rc=0

# run EL SCRIPT ARGS...: SCRIPT in a fresh RPM root as EL
run() {
	local el=$1
	shift
	EL=$el "$pk/root.sh" --rpm "$@"
}

case $what in
install)
	# the first EL also gets the other bundle's kernel afterwards
	after=--kernel-after
	for el in "$@"; do
		run "$el" "$pk/rpm-install.sh" $after || rc=1
		after=
		"$pk/initrd-boot.sh" --rpm "$el" || rc=1
	done ;;
upgrade)
	for el in "$@"; do run "$el" "$pk/rpm-upgrade.sh" || rc=1; done ;;
kmod)
	for el in "$@"; do run "$el" "$pk/rpm-kmod.sh" || rc=1; done ;;
detects-faults)
	el=$1
	log=$top/build/pkg/test/rpm-detects-faults
	mkdir -p "$log"
	echo "KTAP version 1"
	n=0
	# step, plant, the check that must fail, script and argument
	while IFS='|' read -r suite plant check script args; do
		case " ${RPM_PLANTS:-$plants} " in *" $suite "*) ;; *) continue ;; esac
		n=$((n + 1))
		# shellcheck disable=SC2086 # args: none or one word
		PLANT=$plant PKGROOT_RUN=rpm-plant-$suite-$el run "$el" "$pk/$script" $args \
			>"$log/$suite.log" 2>&1
		grep -E '^not ok' "$log/$suite.log" | sed 's/^/# /'
		if grep -qE "^not ok [0-9]+ $check" "$log/$suite.log"; then
			echo "ok $n ${script%.sh} ($suite) on $el goes red with PLANT=$plant"
		else
			echo "not ok $n ${script%.sh} ($suite) on $el: no failed '$check' with PLANT=$plant (log: $log/$suite.log)"
			rc=1
		fi
		# a run that fails keeps its root (root.sh): this one fails by design
		rm -rf --one-file-system "$top/build/pkgroot-rpm/run/rpm-plant-$suite-$el"
	done <<'EOT'
install|posttrans-no-dracut|initramfs holds our mpt3sas|rpm-install.sh|
remove|preun-no-remove|nothing left|rpm-install.sh|
upgrade|posttrans-no-dracut|the initramfs was rebuilt|rpm-upgrade.sh|
kmod|kmod-no-override|modinfo -k [^ ]+: ours, through weak-updates/|rpm-kmod.sh|
repo|repo-no-repo-gpgcheck|dnf refuses the kmod from the repository signed by another key|rpm-kmod.sh|
EOT
	echo "1..$n" ;;
*) echo "rpm-suite.sh: $what: install, upgrade, kmod or detects-faults" >&2; exit 2 ;;
esac
exit $rc
