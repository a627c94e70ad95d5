#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# rpm-fixtures.sh OUTDIR: inside the RPM root, a dnf repository of stand-ins
# for RHEL's, EPEL's and ELRepo's RPMs (docs/testing.md): their names,
# versions and file layout, Debian-built binaries.

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
LOG_TAG=rpm-fixtures
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"

out=$1
[ "${PKGROOT:-}" = 1 ] || die "run inside the RPM root: tests/packaging/root.sh --rpm"
# dkms: the newest in Debian 13's source (3.2: EPEL 8 and 9 follow
# upstream's 3.x releases); DKMS_SUITE names another suite (bookworm's
# 3.0.10 fails: the archive here no longer serves its orig tarball).
dkms_suite=${DKMS_SUITE:-trixie}
work=$out.work
rm -rf "$work" "$out"
mkdir -p "$work" "$out"

# mkrpm NAME VERSION RELEASE ARCH STAGE FILES [PREAMBLE [SCRIPTLETS]]: an
# RPM of the files under STAGE (made if missing) that FILES (%files lines) names.
mkrpm() {
	local name=$1 ver=$2 rel=$3 arch=$4 stage=$5 files=$6 pre=${7:-} scripts=${8:-}
	local td=$work/rpmbuild-$name-$ver spec
	rm -rf "$td"
	mkdir -p "$td/SPECS" "$stage"
	spec=$td/SPECS/$name.spec
	cat >"$spec" <<EOF
Name: $name
Version: $ver
Release: $rel
Summary: test fixture standing in for the RHEL package $name
License: GPL-2.0-only
AutoReqProv: no
$pre
%description
A test fixture of mpt3sas-chainpool's RPM tests: $name as RHEL lays it out.
%install
mkdir -p %{buildroot}
cp -a $stage/. %{buildroot}/
%files
$files
$scripts
EOF
	local target=()
	[ "$arch" = noarch ] || target=(--target "$arch")
	rpmbuild -bb --nodeps "${target[@]}" --define "_topdir $td" \
		--define "__spec_install_post %{nil}" --define "debug_package %{nil}" \
		--define "_build_id_links none" --define "_binary_payload w1.gzdio" \
		"$spec" >"$td/build.log" 2>&1 || {
		tail -n 20 "$td/build.log" >&2
		die "rpmbuild $name failed"
	}
	find "$td/RPMS" -name '*.rpm' -exec mv {} "$out/" \;
}

# --- dkms from Debian's source, install-redhat
log "dkms: Debian's source from $dkms_suite"
kapt_init "$work/apt" "$dkms_suite"
sed -i 's/^deb /deb-src /' "$work/apt/sources.list"
kapt apt-get update >&2 || die "apt-get update ($dkms_suite sources) failed"
# The upstream tarball is what counts (install-redhat is upstream's); the
# archive may not serve the .dsc, so the orig tarball is unpacked by hand.
(cd "$work" && kapt apt-get source --download-only dkms >&2) || :
orig=$(find "$work" -maxdepth 1 -name 'dkms_*.orig.tar.*' | head -n 1)
[ -n "$orig" ] || die "apt-get source dkms fetched no upstream tarball"
dver=${orig##*/dkms_}
dver=${dver%.orig.tar.*}
mkdir -p "$work/dkms-src" "$work/stage-dkms"
tar -xf "$orig" -C "$work/dkms-src" --strip-components=1
make -C "$work/dkms-src" install-redhat DESTDIR="$work/stage-dkms" >&2 ||
	die "make install-redhat failed"
files=$(cd "$work/stage-dkms" && find . ! -type d | sed 's|^\.||' | sort)
log "dkms $dver: $(wc -l <<<"$files") files"
mkrpm dkms "$dver" 1.fixture noarch "$work/stage-dkms" "$files
$(printf '%%dir %s\n' /var/lib/dkms /etc/dkms/framework.conf.d /usr/lib/dkms)" \
	"BuildArch: noarch
Requires: gcc make kmod elfutils-libelf-devel
Recommends: kernel-devel"

# --- kernels
# vr KVER: its version in $v, its release in $r
vr() {
	v=${1%%-*} r=${1#*-}
	r=${r%.x86_64}
}
# core_rpm STAGE KVER [CRC_OF]: kernel-core of the tree at STAGE (its
# lib/modules/KVER); CRC_OF=SYMBOL gives that symbol another CRC.
core_rpm() {
	local st=$1 kver=$2 crc_of=${3:-} v r m=/lib/modules/$2 files
	vr "$kver"
	awk -v s="$crc_of" 'BEGIN { FS = OFS = "\t" }
		$2 == s { $1 = sprintf("0x%08x", xor(strtonum($1), 1)) } { print }' \
		"$work/symvers-$kver" | gzip -9n >"$st$m/symvers.gz"
	files=$(
		printf '%s\n' "%dir $m" "%dir $m/weak-updates" "$m/kernel" "$m/build" \
			"$m/vmlinuz" "$m/System.map" "$m/config" "$m/symvers.gz"
		# depmod's inputs are files of the package, its outputs %ghost
		for f in modules.order modules.builtin modules.builtin.modinfo; do
			[ ! -f "$st$m/$f" ] || echo "$m/$f"
		done
		(cd "$st$m" && find . -maxdepth 1 -name 'modules.*' ! -name modules.order \
			! -name modules.builtin ! -name modules.builtin.modinfo -printf "%%ghost $m/%f\n")
		printf "%%ghost /boot/%s-$kver\n" vmlinuz System.map config
		echo "%ghost %attr(0600, root, root) /boot/initramfs-$kver.img"
	)
	mkdir -p "$st/boot" "$st$m/weak-updates"
	for f in vmlinuz System.map config; do : >"$st/boot/$f-$kver"; done
	: >"$st/boot/initramfs-$kver.img"
	# As RHEL's kernel-core: depmod in %post, weak-modules and
	# kernel-install (its plugins: dkms's, then dracut's) in %posttrans and
	# %preun; kernel(<symbol>) = <CRC> as RHEL's kabi.sh and
	# find-provides.ksyms provide them.
	mkrpm kernel-core "$v" "$r" x86_64 "$st" "$files" \
		"Provides: kernel = $v-$r, kernel-modules = $v-$r, kernel-uname-r = $kver
Provides: installonlypkg(kernel)
Requires: el-base
$(zcat "$st$m/symvers.gz" | awk -F'\t' '{ print "Provides: kernel(" $2 ") = " $1 }')" "%post
depmod -a $kver
%posttrans
if [ -x /usr/sbin/weak-modules ]; then /usr/sbin/weak-modules --add-kernel $kver || exit \$?; fi
kernel-install add $kver $m/vmlinuz || exit \$?
%preun
if [ -x /usr/sbin/weak-modules ]; then /usr/sbin/weak-modules --remove-kernel $kver || :; fi
kernel-install remove $kver || :"
}

# elrepo_rpm KVER MODULE: ELRepo's kmod-mpt3sas for KVER, with MODULE
# (.ko.xz) in it.
elrepo_rpm() {
	local st=$work/stage-elrepo d=/lib/modules/$1/extra/mpt3sas ver dist
	rm -rf "$st"
	mkdir -p "$st$d" "$st/etc/depmod.d"
	xz -dc "$2" >"$st$d/mpt3sas.ko"
	ver=$(modinfo -F version "$st$d/mpt3sas.ko" | tr -- - .)
	echo "override mpt3sas * weak-updates/mpt3sas" >"$st/etc/depmod.d/kmod-mpt3sas.conf"
	dist=${1%.x86_64}
	dist=${dist##*.}
	mkrpm kmod-mpt3sas "$ver" "1.$dist.elrepo" x86_64 "$st" \
		"$(printf '%s\n' "%dir $d" "$d/mpt3sas.ko" "%config /etc/depmod.d/kmod-mpt3sas.conf")" \
		"Provides: mpt3sas-kmod = $ver
Requires: kmod" "%post
echo $d/mpt3sas.ko | /usr/sbin/weak-modules --add-modules
%preun
[ \$1 -ne 0 ] || echo $d/mpt3sas.ko >/var/run/rpm-kmod-mpt3sas-modules
%postun
if [ \$1 -eq 0 ] && [ -f /var/run/rpm-kmod-mpt3sas-modules ]; then
	/usr/sbin/weak-modules --remove-modules </var/run/rpm-kmod-mpt3sas-modules
	rm -f /var/run/rpm-kmod-mpt3sas-modules
fi"
	rm -rf "$st"
}

for el in $(kernel_series rpm); do
	b=$KERNEL_BUNDLES/$el.tar.xz
	st=$work/stage-$el
	mkdir -p "$st"
	tar -xJf "$b" -C "$st"
	kver=$(bundle_release "$el")
	log "$el: $kver"
	vr "$kver"
	m=/lib/modules/$kver
	# RHEL keeps the image under /lib/modules; kernel-install puts it in /boot
	for f in vmlinuz System.map config; do cp "$st/boot/$f-$kver" "$st$m/$f"; done
	# RHEL's link is absolute: /lib is /usr/lib, ../../../ would miss
	ln -sfn "/usr/src/kernels/$kver" "$st$m/build"
	rm -rf "${st:?}/boot"
	cp "$st/usr/src/kernels/$kver/Module.symvers" "$work/symvers-$kver"
	mkdir -p "$work/stage-devel-$el/usr/src/kernels"
	mv "$st/usr/src/kernels/$kver" "$work/stage-devel-$el/usr/src/kernels/"
	rm -rf "${st:?}/usr"
	# The kmod test's updates: the same modules under another release
	if series_has "$el" kmod; then
		for z in 90 91; do
			k2=$v-${r%%.el*}.$z.el${r#*.el}.x86_64
			mkdir -p "$work/stage-$z/lib/modules"
			cp -a "$st$m" "$work/stage-$z/lib/modules/$k2"
			ln -sfn "/usr/src/kernels/$k2" "$work/stage-$z/lib/modules/$k2/build"
			cp "$work/symvers-$kver" "$work/symvers-$k2"
			core_rpm "$work/stage-$z" "$k2" "$([ $z = 90 ] || echo scsi_add_host_with_dma)"
			rm -rf "$work/stage-$z"
		done
		elrepo_rpm "$kver" "$st$m/kernel/drivers/scsi/mpt3sas/mpt3sas.ko.xz"
	fi
	core_rpm "$st" "$kver"
	mkrpm kernel-devel "$v" "$r" x86_64 "$work/stage-devel-$el" "/usr/src/kernels/$kver" \
		"Provides: kernel-devel-uname-r = $kver
Provides: installonlypkg(kernel-module)
Requires: el-base"
	rm -rf "$st" "$work/stage-devel-$el"
done

# --- weak-modules, as RHEL's kmod package ships it (RHEL 10: RHEL 9's)
for k in 8:25 9:28; do
	mkdir -p "$work/stage-kmod${k%:*}/usr/sbin"
	cp "$RHEL_FIXTURES/kmod-el${k%:*}/weak-modules" "$work/stage-kmod${k%:*}/usr/sbin/"
	mkrpm kmod "${k#*:}" "1.fixture.el${k%:*}" x86_64 "$work/stage-kmod${k%:*}" /usr/sbin/weak-modules \
		"Requires: el-base"
done

# --- what the Debian userland provides
mkrpm el-base 1 1.fixture noarch "$work/stage-base" "" \
	"BuildArch: noarch
Provides: gcc make kmod elfutils-libelf-devel dracut systemd-udev
Provides: coreutils cpio diffutils file findutils gawk grep gzip patch sed tar which xz openssl mokutil
Provides: /bin/sh /usr/bin/sh /bin/bash"

createrepo_c "$out" >&2 || die "createrepo_c failed"
rm -rf "$work"
log "repository: $(find "$out" -name '*.rpm' -printf '%f ')"
