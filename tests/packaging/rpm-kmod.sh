#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the RPM root as RHEL $EL (a series tagged kmod): make kmod's package,
# built with RHEL's own generators and kABI stablelist (RHEL_FIXTURES),
# from make repo's repository, with RHEL's weak-modules.

set -eu
# shellcheck source=tests/packaging/rpm-lib.sh
. "$(dirname "$0")/rpm-lib.sh"

series_has "$el" kmod || ktap_exit_fail_msg "EL=$el: not one of the series tagged kmod: $(kernel_series kmod)"
kpkg=kmod-$name
r=${kver#*-}
r=${r%.x86_64}
same=${kver%%-*}-${r%%.el*}.90.el${r#*.el}.x86_64
broken=${kver%%-*}-${r%%.el*}.91.el${r#*.el}.x86_64
moddir=extra/$name

# same_list A B: A is not empty and equals B
same_list() { [ -n "$1" ] && [ "$1" = "$2" ]; }
# kmod_rpm DIR KVER: pkg_dist DIR and make kmod's RPM for KVER in it, whose
# path it prints
kmod_rpm() {
	pkg_dist "$1"
	"$top/packaging/rpm/build.sh" --kmod "$2" "$1" >&2
	ls "$1/$kpkg-"*.x86_64.rpm
}

rpm_root_setup
intree_path=$(resolved_path "$kver")
rm -rf "$work"
mkdir -p "$work"

step "an EL build host: RHEL's kernel-rpm-macros generators, kABI stablelist, kernel-devel"
mac=$RHEL_FIXTURES/kernel-srpm-macros
mkdir -p /usr/lib/rpm/redhat/find-provides.d /usr/lib/rpm/fileattrs "/lib/modules/kabi-$el"
install -m 0755 "$mac/find-requires.ksyms" "$mac/find-provides.ksyms" /usr/lib/rpm/redhat/
install -m 0755 "$mac/modalias.prov" /usr/lib/rpm/redhat/find-provides.d/
install -m 0644 "$mac/kmod.attr" "$mac/modalias.attr" "$mac/provided_ksyms.attr" \
	"$mac/required_ksyms.attr" /usr/lib/rpm/fileattrs/
# kernel-abi-stablelists' layout, from the list with RHEL's CRCs
{
	echo "[rhel${major}_x86_64_stablelist]"
	awk -F'\t' '{ print "\t" $2 }' "$RHEL_FIXTURES/kabi/Module.kabi_x86_64.$el"
} >"/lib/modules/kabi-$el/kabi_stablelist_x86_64"
ln -sfn "kabi-$el" /lib/modules/kabi-current
kmodver=28
[ "$major" != 8 ] || kmodver=25
dnf_ok "$work/devel.log" install "kernel-devel-$kver" "kmod-$kmodver"

step "make kmod KVER=$kver (packaging/dist.sh, packaging/rpm/build.sh --kmod)"
rpmf=$(kmod_rpm "$work/pkg" "$kver" 2>"$work/build.out") ||
	{ cat "$work/build.out"; ktap_exit_fail_msg "make kmod failed"; }
cat "$work/build.out"
mkdir -p "$work/x"
(cd "$work/x" && rpm2cpio "$rpmf" | cpio -idm --quiet)
report=$work/x/usr/share/doc/$kpkg/kabi-report.txt
ktap_test_result "the package ships the kABI report" [ -s "$report" ]
ktap_test_result "the build printed it" grep -qxF "$(head -n 1 "$report")" "$work/build.out"
# RHEL's find-requires.ksyms warns of the same symbols, its own way
blog=$work/pkg/rpmbuild-kmod/build.log
rhel_grey=$(sed -n '/^future kernel updates/,/^Red Hat recommends/p' "$blog" | awk -F'\t' 'NF == 2 { print $2 }' | sort)
ours_grey=$(grep -v '^#' "$report" | sort)
echo "outside the stablelist: $(wc -l <<<"$ours_grey") symbols, RHEL's generator: $(wc -l <<<"$rhel_grey")"
ktap_test_result "the kABI report names symbols, as RHEL's own check does" \
	same_list "$ours_grey" "$rhel_grey"
imports=$(modprobe --dump-modversions "$work/x/lib/modules/$kver/$moddir/mpt3sas.ko" |
	awk '{ print $2 }' | sort)
reqs=$(rpm -qp --requires "$rpmf" | sed -n 's/^kernel(\(.*\)) = \(0x[0-9a-f]*\)$/\1 \2/p' | sort)
expect=$(awk '{ print $2, $1 }' "/usr/src/kernels/$kver/Module.symvers" | sort | join - <(echo "$imports"))
ktap_test_result "Requires: kernel(<symbol>) = <CRC of kernel-devel's Module.symvers> for each of $(wc -l <<<"$imports") imports" \
	same_list "$reqs" "$expect"
ktap_test_result "it requires no compiler, kernel-devel or dkms" \
	not grep -qE '^(gcc|make|kernel-devel|dkms)' <<<"$(rpm -qp --requires "$rpmf")"
ktap_test_result "the module in $moddir/" glob "$(rpm -qpl "$rpmf")" "*/lib/modules/$kver/$moddir/mpt3sas.ko*"

step "make repo: the kmod and the dkms package, signed by a throwaway key"
"$top/packaging/rpm/build.sh" "$work/pkg" >&2 || ktap_exit_fail_msg "the dkms RPM did not build"
test_repos "$work/pkg" "$work"
mkdir -p "$work/rpmdb"
rpmkeys --dbpath "$work/rpmdb" --import "$work/repo/$name.asc"
ktap_test_result "each RPM in el/$major/ is signed by that key" \
	[ "$(rpmkeys --dbpath "$work/rpmdb" -K "$work/repo/el/$major/"*.rpm | grep -vc ': digests signatures OK$')" = 0 ]
for r in "other|signed by another key|Bad GPG signature" "tampered|with one byte changed|incorrect checksum"; do
	IFS='|' read -r id what why <<<"$r"
	# our .repo file, as $id, with the packages of repo-$id
	sed -e "s|^\[$name\]|[$id]|" -e "/^baseurl=/ s|$work/repo/|$work/repo-$id/|" "$work/repo/$name.repo" \
		>"/etc/yum.repos.d/$id.repo"
	ktap_test_red "dnf refuses the kmod from the repository $what" "$why" \
		"${DNF[@]}" --enablerepo="$id" install "$kpkg"
done
ktap_test_result "and installs nothing" not rpm -q "$kpkg"
cp "$work/repo/$name.repo" /etc/yum.repos.d/
DNF+=(--enablerepo="$name")

step "dnf install $kpkg, gpgcheck=1 and repo_gpgcheck=1"
dnf_ok "$work/install.log" install "$kpkg"
ktap_test_result "$kpkg is installed" rpm -q "$kpkg"
ktap_test_result "modinfo -k $kver: ours in $moddir/" [ "$(resolved_path "$kver")" = "/lib/modules/$kver/$moddir/mpt3sas.ko" ]
ktap_test_result "the initramfs of $kver holds ours ($ourver)" initrd_has "$kver" "$moddir"

step "one driver at a time: ELRepo's kmod-mpt3sas, our dkms package, our kmod again"
# one_driver KVER DIR VERSION: modinfo and the initramfs's modules.dep of
# KVER resolve mpt3sas to DIR/mpt3sas.ko of VERSION, and it is in there
one_driver() {
	glob "$(resolved_path "$1")" "/lib/modules/$1/$2/mpt3sas.ko*" &&
		[ "$(resolved_version "$1")" = "$3" ] && initrd_has "$1" "$2" "$3" && dep_is "$1" "$2"
}
# the fixture repository has ELRepo's kmod for each series: this one's
dist=${kver%.x86_64}
for to in kmod-mpt3sas "$name-dkms" "$kpkg"; do
	case $to in
	kmod-mpt3sas) spec="kmod-mpt3sas-*-1.${dist##*.}.elrepo" dir=extra/mpt3sas ;;
	"$name-dkms") spec=$to dir=extra ;;
	*) spec=$to dir=$moddir ;;
	esac
	dnf_ok "$work/switch-$to.log" install --allowerasing "$spec"
	v=$ourver
	[ "$to" != kmod-mpt3sas ] || v=$(modinfo -F version "/lib/modules/$kver/$dir/mpt3sas.ko" || :)
	echo "$to: $(resolved_path "$kver")"
	ktap_test_result "switched to $to: it alone is installed" \
		[ "$(rpm -qa kmod-mpt3sas "$kpkg" "$name-dkms" --qf '%{name}\n')" = "$to" ]
	ktap_test_result "switched to $to: modinfo and the initramfs of $kver resolve mpt3sas to its module" \
		one_driver "$kver" "$dir" "$v"
done
ktap_test_result "nothing left of ELRepo's package or our dkms package" \
	[ -z "$(ls /lib/modules/"$kver"/extra/mpt3sas /etc/depmod.d/kmod-mpt3sas.conf /var/lib/dkms/"$name" 2>/dev/null)" ]

step "a kernel update of the same kABI: $same"
dnf_ok "$work/same.log" install "kernel-core-$same"
link=/lib/modules/$same/weak-updates/$name/mpt3sas.ko
ktap_test_result "weak-modules linked ours into $same" \
	[ "$(readlink -f "$link")" = "$(readlink -f "/lib/modules/$kver/$moddir/mpt3sas.ko")" ]
ktap_test_result "modinfo -k $same: ours, through weak-updates/" [ "$(resolved_path "$same")" = "$link" ]
ktap_test_result "the initramfs of $same holds ours ($ourver)" initrd_holds "$same" " $ourver\$"
ktap_test_result "no word from the kernel hook" not grep -q "^$kpkg:" "$work/same.log"

step "a kernel update where one symbol has another CRC: $broken, a SAS2008 behind /"
# The kernel hook reads this stand-in sysfs: a SAS2008 the update's own
# driver may lack (RHEL 10's does), the root file system behind it.
standin_sysfs "$work/sysfs" 0000:01:00.0 1000:0072
warned=1
! has_sas2008 "$intree_path" || warned=0
MPT3SAS_CP_SYSFS=$work/sysfs dnf_ok "$work/broken.log" install "kernel-core-$broken"
grep -E "^($kpkg|$name):" "$work/broken.log" || :
ktap_test_result "not linked into $broken" [ ! -e "/lib/modules/$broken/weak-updates/$name/mpt3sas.ko" ]
ktap_test_result "modinfo -k $broken: its own driver" glob "$(resolved_path "$broken")" "/lib/modules/$broken/kernel/*"
ktap_test_result "the initramfs of $broken holds no mpt3sas of ours" not initrd_holds "$broken" '-cp[0-9]+$'
ktap_test_result "the kernel hook says so, in one line" [ "$(grep -c "^$kpkg: kernel $broken " "$work/broken.log")" = 1 ]
ktap_test_result "a warning for the SAS2008 $warned time(s): its own driver $([ $warned = 1 ] && echo lacks || echo has) the ID" \
	[ "$(no_driver_warning "$work/broken.log" "$broken")" = "$warned" ]

step "dnf upgrade to release cp9"
rpm9=$(CP_RELEASE=cp9 kmod_rpm "$work/pkg9" "$kver") || ktap_exit_fail_msg "make kmod of cp9 failed"
dnf_ok "$work/upgrade.log" upgrade "$rpm9"
ktap_test_result "one $kpkg installed, cp9's" [ "$(rpm -q "$kpkg").rpm" = "${rpm9##*/}" ]
for k in "$kver" "$same"; do
	ktap_test_result "modinfo -k $k: $base-cp9" [ "$(resolved_version "$k")" = "$base-cp9" ]
	ktap_test_result "the initramfs of $k holds $base-cp9" initrd_holds "$k" " $base-cp9\$"
done

step "dnf remove kernel-core-$same, then $kpkg"
dnf_ok "$work/remove-same.log" remove "kernel-core-$same"
ktap_test_result "nothing left of $same" [ ! -e "/lib/modules/$same" ]
dnf_ok "$work/remove.log" remove "$kpkg"
ktap_test_result "$kpkg is gone" not rpm -q "$kpkg"
ktap_test_result "modinfo -k $kver: the in-tree driver again" [ "$(resolved_path "$kver")" = "$intree_path" ]
ktap_test_result "the initramfs of $kver holds no mpt3sas of ours" not initrd_holds "$kver" '-cp[0-9]+$'
nothing_left "removal"

ks=$kver
if [ ! -x "/usr/src/kernels/$kver/scripts/sign-file" ]; then
	ks=$kver2
	dnf_ok "$work/devel2.log" install "kernel-devel-$ks"
fi
step "make kmod KVER=$ks SIGN_KEY=... SIGN_CERT=..."
openssl req -new -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=kmod test key $$" \
	-keyout "$work/key.pem" -outform DER -out "$work/cert.der" 2>/dev/null
rpms=$(SIGN_KEY=$work/key.pem SIGN_CERT=$work/cert.der kmod_rpm "$work/pkg-signed" "$ks") ||
	ktap_exit_fail_msg "make kmod with SIGN_KEY failed"
mkdir -p "$work/xs"
(cd "$work/xs" && rpm2cpio "$rpms" | cpio -idm --quiet)
signer=$(modinfo -F signer "$work/xs/lib/modules/$ks/$moddir/mpt3sas.ko")
echo "signer: $signer"
ktap_test_result "the module of $ks is signed by the key given" [ "$signer" = "kmod test key $$" ]
finish
