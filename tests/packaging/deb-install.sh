#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install the .deb in the throwaway root (Debian 12, a 6.1 kernel image and
# its headers) and on Ubuntu's kernels there: the kernel bundles of the
# series tagged deb (tests/kernels/series: Ubuntu 18.04, 20.04 and
# 22.04) installed as Ubuntu's linux-image and linux-headers lay them out
# (/boot, /lib/modules/<release>, the headers in
# /usr/src/linux-headers-<release> with the build link), each with its
# initramfs made as the image's kernel hook makes it.  The package comes
# from make repo's apt repository, signed by a key made for the run and
# named by Signed-By; apt must refuse the same repository signed by
# another key, and the package with one byte changed.  For every kernel,
# dkms must have installed ours (the range rule skipping none), and
# depmod, modprobe and the initramfs must resolve to it; then purge it and
# check that each kernel's in-tree driver is back everywhere and nothing
# of ours is left.
#
#   tests/packaging/deb-install.sh       (KVER=<release> to pick the kernel)
#
# Leaves the initramfs images with our module for the boot test
# (initrd-boot.sh): 6.1's in build/pkg/vm/, that of the series tagged
# deb-boot in build/pkg/vm-<series>/ (initrd.img-<kver>,
# vmlinuz-<kver> and kver).  Without kernel bundles (KERNEL_BUNDLES) only
# 6.1 is tested, and the test says so.
#
# Its planted faults are in tests/plants/list.
#
# A Debian 12 userland (dpkg, dkms 3.0.10, initramfs-tools 0.142) stands in
# for Ubuntu's; the Ubuntu kernels are built from Ubuntu's source with a
# minimal configuration (shared/kernels/MANIFEST).

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"
# kernel_series, bundles_note
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"

suite="deb-install"
work=$top/build/pkg/test/$suite
want=$base-$(cat "$top/src/VERSION")

start_install_test
purge_pkg

# install_bundle SERIES: the bundle's kernel as linux-image and
# linux-headers put it, its initramfs made; prints its release.
install_bundle() {
	local x=$work.bundle k
	rm -rf "$x"
	mkdir -p "$x"
	tar -C "$x" -xJf "$KERNEL_BUNDLES/$1.tar.xz"
	k=$(bundle_release "$1")
	cp -a "$x/boot/." /boot/
	rm -f "$x/lib/modules/$k/build"
	cp -a "$x/lib/modules/$k" /lib/modules/
	cp -a "$x/usr/src/linux-headers-$k" /usr/src/
	ln -s "/usr/src/linux-headers-$k" "/lib/modules/$k/build"
	rm -rf "$x"
	depmod "$k"
	update-initramfs -c -k "$k" >&2
	echo "$k"
}

# The kernels: Debian's 6.1, then Ubuntu's, by series name.
declare -A kernel intree
kernel[debian]=$kver
series=debian
ubuntu=$(kernel_series deb)
[ -n "$ubuntu" ] || ktap_print_msg "no series tagged deb: Debian's 6.1 only (bundles: $(bundles_note))"
for s in $ubuntu; do
	step "installing $s as Ubuntu's linux-image and linux-headers"
	kernel[$s]=$(install_bundle "$s")
	series="$series $s"
done
for s in $series; do
	k=${kernel[$s]}
	intree[$s]="$(resolved_path "$k") $(resolved_version "$k")"
	echo "$s: $k, in-tree ${intree[$s]}"
	ktap_test_result "$s ($k): mpt3sas resolves to the in-tree driver before" \
		glob "${intree[$s]}" "/lib/modules/$k/kernel/drivers/scsi/mpt3sas/mpt3sas.ko* *"
done

step "building the package"
deb=$(build_debs "$work")

step "make repo: the package in a signed apt repository (a throwaway key)"
repo_keys
test_repos "${deb%/*}" "$work"
install -m 0644 "$work/repo/$name.gpg" /usr/share/keyrings/
# apt_update DIR: our sources stanza, its packages those of DIR, and
# apt-get update of it alone (Debian's lists stay)
apt_update() {
	sed "s|^URIs: .*|URIs: file://$1/deb/|" "$work/repo/$name.sources" >"/etc/apt/sources.list.d/$name.sources"
	apt-get -q -o Dir::Etc::SourceList=/dev/null -o APT::Get::List-Cleanup=false update
}
rc=0
apt_update "$work/repo-other" >"$work/other.log" 2>&1 || rc=$?
grep -E '^(E|W):' "$work/other.log" || :
ktap_test_result "apt-get update refuses the repository signed by another key" \
	refused "$rc" NO_PUBKEY "$work/other.log"
apt_update "$work/repo-tampered" >&2 || ktap_exit_fail_msg "apt-get update of the tampered repository failed"
rc=0
apt-get -q install -y "$pkg" >"$work/tampered.log" 2>&1 || rc=$?
grep -E '^(E|W):' "$work/tampered.log" || :
ktap_test_result "apt-get refuses the package with one byte changed" \
	refused "$rc" "hash sum mismatch" "$work/tampered.log"
ktap_test_result "and installs nothing" [ "$(pkg_state)" != "install ok installed" ]
apt_update "$work/repo" >&2 || ktap_exit_fail_msg "apt-get update of the repository failed"

step "apt-get install $pkg from it (signed-by)"
apt-get -q install -y "$pkg" 2>&1 | tee "$work/install.log" | grep -v '^readelf: Warning'
ktap_test_result "package is installed" [ "$(pkg_state)" = "install ok installed" ]
ktap_test_result "/etc/modprobe.d/$name.conf is shipped, all comments" \
	not grep -qv -e '^#' -e '^$' "/etc/modprobe.d/$name.conf"
dkms status -m "$name"
for s in $series; do
	k=${kernel[$s]}
	ktap_test_result "$s: the range rule did not skip $k" not grep -q "$k is not supported" "$work/install.log"
	ktap_test_result "$s: dkms status: installed for $k" dkms_installed "$k"
	p=$(resolved_path "$k")
	v=$(resolved_version "$k")
	echo "modinfo -k $k mpt3sas: $p $v"
	ktap_test_result "$s: modinfo -k resolves ours ($want) under updates/" \
		glob "$p $v" "/lib/modules/$k/updates/* $want"
	d=$(show_depends_last "$k")
	echo "modprobe --show-depends: $d"
	ktap_test_result "$s: modprobe --show-depends loads updates/ mpt3sas" \
		glob "$d" "insmod /lib/modules/$k/updates/*mpt3sas.ko*"
	im=$(initrd_module "$k" "$work/initrd")
	echo "initramfs: $im"
	ktap_test_result "$s: the initramfs holds our mpt3sas ($want) under updates/dkms" \
		grep -qE "/lib/modules/$k/updates/dkms/mpt3sas\.ko(\.[a-z]+)? $want\$" <<<"$im"
	ktap_test_result "$s: the initramfs holds one mpt3sas" [ "$(grep -c . <<<"$im")" = 1 ]
done

# Hooks for the boot test: the images with our module, and their kernels.
# shellcheck disable=SC2046 # one word a series
for s in debian $(kernel_series deb-boot); do
	vm=$top/build/pkg/vm
	[ "$s" = debian ] || vm=$vm-$s
	rm -rf "$vm"
	mkdir -p "$vm"
	cp "/boot/initrd.img-${kernel[$s]}" "/boot/vmlinuz-${kernel[$s]}" "$vm/"
	echo "${kernel[$s]}" >"$vm/kver"
	echo "boot test hook: $vm/initrd.img-${kernel[$s]}"
done

step "purging"
apt-get -q purge -y "$pkg" 2>&1 | tee "$work/purge.log" | grep -v '^readelf: Warning'
ktap_test_result "package is gone" [ -z "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -v not-installed)" ]
for s in $series; do
	k=${kernel[$s]}
	intree_back "$k" "${intree[$s]}" "$s"
	im=$(initrd_module "$k" "$work/initrd")
	echo "initramfs: $im"
	ktap_test_result "$s: the initramfs holds the in-tree mpt3sas again" \
		grep -qE "/lib/modules/$k/kernel/drivers/scsi/mpt3sas/mpt3sas\.ko(\.[a-z]+)? ${intree[$s]#* }\$" <<<"$im"
	ktap_test_result "$s: the initramfs holds no updates/ mpt3sas" not grep -q /updates/ <<<"$im"
	ktap_test_result "$s: the initramfs holds no $name modprobe.d file" \
		not grep -q "modprobe.d/$name" <<<"$(lsinitramfs "/boot/initrd.img-$k")"
done
left=$(leftovers)
[ -z "$left" ] || echo "left: $left"
ktap_test_result "nothing left in /usr/src, /var/lib/dkms, /lib/modules/*/updates, /etc" [ -z "$left" ]
rm -rf "$work/initrd"

finish "$suite"
