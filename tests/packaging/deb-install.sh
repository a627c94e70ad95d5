#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The .deb from make repo's signed apt repository, on Debian 12's 6.1 (KVER)
# and the series tagged deb (Ubuntu's kernels), then purged.  Keeps the
# initramfs images with ours for initrd-boot.sh.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

start_install_test

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

declare -A kernel intree
kernel[debian]=$kver
series="debian $(kernel_series deb)"
[ "$series" != "debian " ] || ktap_print_msg "no series tagged deb: Debian's 6.1 only (bundles: $(bundles_note))"
for s in $series; do
	if [ "$s" != debian ]; then
		step "installing $s as Ubuntu's linux-image and linux-headers"
		kernel[$s]=$(install_bundle "$s")
	fi
	k=${kernel[$s]}
	intree[$s]="$(resolved_path "$k") $(resolved_version "$k")"
	echo "$s: $k, in-tree ${intree[$s]}"
	ktap_test_result "$s ($k): mpt3sas resolves to the in-tree driver before" \
		glob "${intree[$s]}" "/lib/modules/$k/kernel/drivers/scsi/mpt3sas/mpt3sas.ko* *"
done

step "building the package"
deb=$(build_pkg "$work")

step "make repo: the package in a signed apt repository (a throwaway key)"
test_repos "${deb%/*}" "$work"
install -m 0644 "$work/repo/$name.gpg" /usr/share/keyrings/
# apt_update DIR: our sources stanza, its packages those of DIR, and
# apt-get update of it alone (Debian's lists stay)
apt_update() {
	sed "s|^URIs: .*|URIs: file://$1/deb/|" "$work/repo/$name.sources" >"/etc/apt/sources.list.d/$name.sources"
	apt-get -q -o Dir::Etc::SourceList=/dev/null -o APT::Get::List-Cleanup=false update
}
ktap_test_red "apt-get update refuses the repository signed by another key" NO_PUBKEY \
	apt_update "$work/repo-other"
apt_update "$work/repo-tampered" >&2 || ktap_exit_fail_msg "apt-get update of the tampered repository failed"
ktap_test_red "apt-get refuses the package with one byte changed" "Hash Sum mismatch" \
	apt-get -q install -y "$pkg"
ktap_test_result "and installs nothing" [ "$(pkg_state)" != "install ok installed" ]
apt_update "$work/repo" >&2 || ktap_exit_fail_msg "apt-get update of the repository failed"

step "apt-get install $pkg from it (signed-by)"
apt-get -q install -y "$pkg" 2>&1 | tee "$work/install.log" | grep -v '^readelf: Warning'
ktap_test_result "package is installed" deb_installed
ktap_test_result "/etc/modprobe.d/$name.conf is shipped, all comments" \
	not grep -qv -e '^#' -e '^$' "/etc/modprobe.d/$name.conf"
dkms status -m "$name"
for s in $series; do
	k=${kernel[$s]}
	ktap_test_result "$s: the range rule did not skip $k" not grep -q "$k is not supported" "$work/install.log"
	ktap_test_result "$s: dkms status: installed for $k" dkms_installed "$k"
	ours_resolved "$k" updates "$s"
	im=$(initrd_mpt3sas "$k")
	echo "initramfs: $im"
	ktap_test_result "$s: the initramfs holds our mpt3sas ($ourver) under updates/dkms" \
		grep -qE "/lib/modules/$k/updates/dkms/mpt3sas\.ko(\.[a-z]+)? $ourver\$" <<<"$im"
	ktap_test_result "$s: the initramfs holds one mpt3sas" [ "$(grep -c . <<<"$im")" = 1 ]
done

save_boot "$top/build/pkg/vm" "$kver" "/boot/initrd.img-$kver"
for s in $(kernel_series deb-boot); do
	save_boot "$top/build/pkg/vm-$s" "${kernel[$s]}" "/boot/initrd.img-${kernel[$s]}"
done

purge_step
ktap_test_result "package is gone" [ -z "$(pkg_state | grep -v not-installed)" ]
for s in $series; do
	k=${kernel[$s]}
	intree_back "$k" "${intree[$s]}" "$s"
	im=$(initrd_mpt3sas "$k")
	echo "initramfs: $im"
	ktap_test_result "$s: the initramfs holds the in-tree mpt3sas again" \
		grep -qE "/lib/modules/$k/kernel/drivers/scsi/mpt3sas/mpt3sas\.ko(\.[a-z]+)? ${intree[$s]#* }\$" <<<"$im"
	ktap_test_result "$s: the initramfs holds no updates/ mpt3sas" not grep -q /updates/ <<<"$im"
	ktap_test_result "$s: the initramfs holds no $name modprobe.d file" \
		not grep -q "modprobe.d/$name" <<<"$(lsinitramfs "/boot/initrd.img-$k")"
done
finish
