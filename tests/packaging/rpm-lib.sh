# shellcheck shell=bash disable=SC2034 # variables for the tests
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Shared by the RPM tests (sourced), in the RPM root (root.sh --rpm) made
# to look like RHEL $EL (default: the first series tagged rpm), dnf
# installing from rpm-fixtures.sh's repository.

# shellcheck source=tests/packaging/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

el=${EL:-$(kernel_one rpm)}
suite+=-$el
work+=-$el
major=${el#el}
major=${major%%.*}
series_has "$el" rpm || ktap_exit_fail_msg "EL=$el: not one of the series tagged rpm: $(kernel_series rpm)"
# the other bundle: the kernel installed afterwards
el2=$(kernel_series rpm | tr ' ' '\n' | grep -vxF "$el" | head -n 1)
[ -n "$el2" ] || ktap_exit_fail_msg "EL=$el: no other series tagged rpm to install afterwards"
kver=$(bundle_release "$el")
kver2=$(bundle_release "$el2")
{ [ -n "$kver" ] && [ -n "$kver2" ]; } ||
	ktap_exit_fail_msg "no kernel in the bundle of $el or $el2 in $KERNEL_BUNDLES"
initramfs() { echo "/boot/initramfs-$1.img"; }
fmt=rpm
DNF=(dnf -y --disablerepo='*' --enablerepo=fixtures)

# fixture_repo: the cached repository, made once per fixture script, series
# list, bundles and DKMS_SUITE.
fixture_repo() {
	local key
	key=$({ cat "$top/tests/packaging/rpm-fixtures.sh" "$SERIES_FILE" "$KERNEL_BUNDLES/MANIFEST" \
		"$RHEL_FIXTURES"/kmod-el*/weak-modules
		echo "${DKMS_SUITE:-}"; } | sha256sum | cut -c1-16)
	repo=$top/build/pkgroot-rpm/repo-$key
	exec 7>"$top/build/pkgroot-rpm/.lock-repo"
	flock 7
	if [ ! -f "$repo/.complete" ]; then
		step "making the fixture repository (once)"
		rm -rf "$top"/build/pkgroot-rpm/repo-*
		"$top/tests/packaging/rpm-fixtures.sh" "$repo" ||
			ktap_exit_fail_msg "rpm-fixtures.sh failed"
		touch "$repo/.complete"
	fi
	flock -u 7
}

# rpm_root_setup: RHEL $el (its os-release, paths and kernel-install
# plugins) with its kernel-core installed through dnf (kernel-install:
# /boot and the initramfs), no kernel-devel, nothing of ours.
rpm_root_setup() {
	local v=${el#el}
	in_pkgroot
	fixture_repo
	rm -f /etc/os-release
	cat >/etc/os-release <<EOF
NAME="Red Hat Enterprise Linux"
VERSION="$v"
ID="rhel"
ID_LIKE="fedora"
VERSION_ID="$v"
PLATFORM_ID="platform:el$major"
PRETTY_NAME="Red Hat Enterprise Linux $v (test root: Debian 12 userland)"
EOF
	mkdir -p /etc/rpm /etc/dnf/vars /etc/yum.repos.d /etc/dracut.conf.d /etc/depmod.d
	# RHEL's kmod package: extra/ before the in-tree drivers
	echo 'search updates extra built-in weak-updates' >/etc/depmod.d/dist.conf
	echo '%_dbpath /var/lib/rpm' >/etc/rpm/macros.dbpath
	echo "$major" >/etc/dnf/vars/releasever
	# RHEL's dracut names the image initramfs-<release>.img, Debian's initrd.img-<release>
	# shellcheck disable=SC2016 # dracut's own variable
	sed -i 's|/boot/initrd\.img-\${kernel}|/boot/initramfs-${kernel}.img|' /usr/bin/dracut
	# a chroot has no boot disk of its own to be host-only about
	echo 'hostonly="no"' >/etc/dracut.conf.d/50-test-root.conf
	# grubby's 20-grub.install: the kernel into /boot
	cat >/usr/lib/kernel/install.d/20-grub.install <<'EOF'
#!/bin/sh
# test root: the /boot part of RHEL's 20-grub.install (grubby)
for f in vmlinuz System.map config; do
	case $1 in add) cp "/lib/modules/$2/$f" "/boot/$f-$2" ;; remove) rm -f "/boot/$f-$2" ;; esac
done
EOF
	# dracut's 50-dracut.install, as RHEL's dracut ships it (layout "other")
	cat >/usr/lib/kernel/install.d/50-dracut.install <<'EOF'
#!/bin/sh
# test root: RHEL's 50-dracut.install for a /boot without BLS entries
case $1 in
add) dracut -f "/boot/initramfs-$2.img" "$2" ;;
remove) rm -f "/boot/initramfs-$2.img" ;;
esac
EOF
	chmod +x /usr/lib/kernel/install.d/20-grub.install /usr/lib/kernel/install.d/50-dracut.install
	cat >/etc/yum.repos.d/fixtures.repo <<EOF
[fixtures]
name=test fixtures (rpm-fixtures.sh)
baseurl=file://$repo
gpgcheck=0
EOF
	step "$el: dnf install kernel-core-$kver"
	dnf_ok /tmp/kernel-core.log install el-base "kernel-core-$kver"
	[ -f "$(initramfs "$kver")" ] || ktap_exit_fail_msg "kernel-install made no $(initramfs "$kver")"
}

# dnf_ok LOG ARGS...: dnf ARGS, its output in LOG (shown if it fails)
dnf_ok() {
	"${DNF[@]}" "${@:2}" >"$1" 2>&1 || { cat "$1"; ktap_exit_fail_msg "dnf ${*:2} failed"; }
}

# core_clean KVER: rpm -V kernel-core-KVER finds nothing changed
core_clean() {
	local v
	v=$(rpm -V "kernel-core-$1" 2>&1) || :
	[ -z "$v" ] || echo "rpm -V kernel-core-$1: $v"
	[ -z "$v" ]
}

# initrd_mpt3sas KVER: "<path> <version>" of each mpt3sas.ko* in KVER's initramfs.
initrd_mpt3sas() {
	local img f tmp
	img=$(initramfs "$1")
	tmp=$(mktemp -d)
	lsinitrd "$img" 2>/dev/null | awk '{ print $NF }' | grep -E '/mpt3sas\.ko(\.[a-z]+)?$' | sort |
		while read -r f; do
			lsinitrd -f "$f" "$img" >"$tmp/mpt3sas.ko${f##*.ko}" 2>/dev/null
			echo "$f $(modinfo -F version "$tmp/mpt3sas.ko${f##*.ko}")"
		done
	rm -rf "$tmp"
}

# dep_is KVER DIR: the modules.dep in KVER's initramfs has one mpt3sas
# line (depmod lists only the copy it resolves to), for DIR/mpt3sas.ko*.
dep_is() {
	local img dep
	img=$(initramfs "$1")
	dep=$(lsinitrd "$img" 2>/dev/null | awk '{ print $NF }' | grep -E "lib/modules/$1/modules\.dep\$" | head -n 1)
	dep=$(lsinitrd -f "$dep" "$img" 2>/dev/null | grep -E '(^|/)mpt3sas\.ko[.a-z]*:')
	echo "initramfs modules.dep of $1: $dep"
	[ "$(grep -c . <<<"$dep")" = 1 ] &&
		grep -qE "^(/?(usr/)?lib/modules/$1/)?$2/mpt3sas\.ko(\.[a-z]+)?:" <<<"$dep"
}
