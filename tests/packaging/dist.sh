#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make dist`'s tarball, the version and kernel-range rules, dkms.conf's
# hook script on made-up module trees, and the .deb's files and lintian,
# without installing anything.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"

not_run() { ! "$@" >/dev/null 2>&1; }
version=$base.$release
rm -rf "$work"
pkg_dist "$work/a"
tarball=$work/a/$name-$version.tar.gz
ktap_test_result "tarball $name-$version.tar.gz" [ -f "$tarball" ]
ktap_test_result "one top directory, $name-$version/" \
	[ "$(tar tzf "$tarball" | cut -d/ -f1 | sort -u)" = "$name-$version" ]
tar -C "$work" -xzf "$tarball"
t=$work/$name-$version
for f in Kbuild Makefile VERSION dkms.conf dkms.mk kernel-range.sh kernel-setup.sh hba-rules.sh kernel-hook.sh pci-ids COPYING mpt3sas/mpt3sas_base.c \
	mpt3sas/mpi/mpi2.h chainpool compat compat/probe.mk compat/probe.sh README.md tools/mpt3sas-pool-timing \
	tools/mpt3sas-pool-timing.8; do
	ktap_test_result "holds $f" [ -e "$t/$f" ]
done
ktap_test_result "VERSION is $release" [ "$(cat "$t/VERSION")" = "$release" ]
# pci-ids: every entry of the driver's PCI table, SAS2008 among them.
entries=$(sed -n '/mpt3sas_pci_table\[\] = {/,/^};/p' "$t/mpt3sas/mpt3sas_scsih.c" | grep -c '^[[:space:]]*{ *[A-Z]')
ktap_test_result "pci-ids: one line for each of the $entries entries of mpt3sas_pci_table" \
	[ "$(grep -cE '^[0-9a-f]{4}:[0-9a-f]{4} [A-Za-z0-9_]+$' "$t/pci-ids")" = "$entries" ]
ktap_test_result "pci-ids: 1000:0072 SAS2008, 1000:0097 SAS3008" \
	[ "$(grep -cxE '1000:0072 SAS2008|1000:0097 SAS3008' "$t/pci-ids")" = 2 ]
ktap_test_result "the tool is executable" [ -x "$t/tools/mpt3sas-pool-timing" ]
gen=$(cd "$t" && find . -mindepth 1 \( -name '*.o' -o -name '*.ko*' -o -name '.*' -o -name generated \
	-o -name '*.mod*' -o -name Module.symvers \) -print)
ktap_test_result "nothing generated or hidden${gen:+ (found: $gen)}" [ -z "$gen" ]
# Test builds (CP_FAULT=1) bring their own sources.
# shellcheck disable=SC2016 # Kbuild's own $(CP_FAULT), literally
objs=$(sed '/^ifeq ($(CP_FAULT),1)/,/^endif/d' "$t/Kbuild" |
	grep -oE '[a-z0-9_]+/[a-z0-9_/]+\.o' | sort -u)
nosrc=
for o in $objs; do
	[ -f "$t/${o%.o}.c" ] || nosrc+=" ${o%.o}.c"
done
ktap_test_result "every object in Kbuild has its source${nosrc:+ (missing:$nosrc)}" [ -z "$nosrc" ]

conf=$t/dkms.conf
# Read it the way dkms does: a bash file.
conf_val() { kernelver=K kernel_source_dir=D dkms_tree=T bash -c ". '$conf'; echo \"\${$1}\""; }
for v in PACKAGE_NAME="$name" PACKAGE_VERSION="$version" 'BUILT_MODULE_NAME[0]=mpt3sas' \
	'DEST_MODULE_LOCATION[0]=/updates' AUTOINSTALL=yes NO_WEAK_MODULES=yes \
	BUILD_EXCLUSIVE_KERNEL_MIN="$kmin" \
	"MAKE[0]=make -f dkms.mk KVER=K KDIR=D KERNEL_MIN=$kmin KERNEL_MAX=" \
	'POST_INSTALL=dkms-original-module.sh installed K T' 'POST_REMOVE=dkms-original-module.sh removed K'; do
	ktap_test_result "dkms.conf: $v" [ "$(conf_val "${v%%=*}")" = "${v#*=}" ]
done
ktap_test_result "dkms.conf: CLEAN set" [ -n "$(conf_val CLEAN)" ]
ktap_test_result "no REMAKE_INITRD, no signing override" not grep -qE '^(REMAKE_INITRD|SIGN_TOOL|SIGN_FILE|MOK_)' "$conf"

pkg_dist "$work/b" 2>/dev/null
ktap_test_result "reproducible: a second dist gives the same bytes" cmp -s "$tarball" "$work/b/$name-$version.tar.gz"

# Versions: a higher release (cp9, the upgrade tests'), and a later
# upstream base, upgrade.
for pair in "$base.cp9 $base.$release" "$base.cp2 $base.cp1" "$base.cp10 $base.cp9" "$base.cp1 $base" "$((${base%%.*} + 1)).0.00.00.cp1 $base.cp9"; do
	read -r hi lo <<<"$pair"
	ktap_test_result "dpkg: $hi > $lo" dpkg --compare-versions "$hi" gt "$lo"
	if command -v rpm >/dev/null; then
		ktap_test_result "rpm: $hi > $lo" [ "$(rpm --eval "%{lua: print(rpm.vercmp('$hi', '$lo'))}")" = 1 ]
	fi
done
ktap_test_result "version.sh refuses a release with '-'" not_run env CP_RELEASE=cp-1 "$top/packaging/version.sh"

# Range: the regex dkms 3.0.10 reads, dkms.mk and kernel-range.sh agree
# with a plain version comparison against packaging/kernel-min.
supported() {
	local s
	s=$(sed -E 's/^([0-9]+\.[0-9]+).*/\1/' <<<"$1")
	[ "$(printf '%s\n%s\n' "$kmin" "$s" | sort -V | head -n 1)" = "$kmin" ] && echo yes || echo no
}
regex=$(conf_val BUILD_EXCLUSIVE_KERNEL)
for k in 2.6.32-754.el6 3.10.0-1160.el7.x86_64 4.4.0-210-generic 4.14.336 4.15.0-213-generic \
	4.18.0-553.el8_10.x86_64 5.4.0-200-generic 5.10.0-35-amd64 5.14.0-503.el9.x86_64 \
	6.1.0-56-amd64 6.12.117+deb12-amd64 7.0.0 10.1.0 4.150.1; do
	want=$(supported "$k")
	[[ $k =~ $regex ]] && r=yes || r=no
	make -s -C "$t" -f dkms.mk range-check KVER="$k" KERNEL_MIN="$kmin" >/dev/null 2>&1 && m=yes || m=no
	ktap_test_result "kernel $k: supported=$want (regex $r, dkms.mk $m)" [ "$r$m" = "$want$want" ]
done
ktap_test_result "the tarball's kernel-range.sh is packaging's" cmp -s "$t/kernel-range.sh" "$top/packaging/kernel-range.sh"
ktap_test_result "the tarball's kernel-setup.sh is packaging's" cmp -s "$t/kernel-setup.sh" "$top/packaging/kernel-setup.sh"
ktap_test_result "dkms.mk's range-check runs kernel-range.sh" grep -q "^	@bash \$(KERNEL_RANGE) require " "$t/dkms.mk"
msg=$(make -s -C "$t" -f dkms.mk range-check KVER=4.14.336 KERNEL_MIN="$kmin" 2>&1 || true)
ktap_test_result "dkms.mk names the range: $msg" \
	grep -qF "$name supports kernels $kmin and newer; 4.14.336 is not supported" <<<"$msg"
r2=$("$top/packaging/kernel-range.sh" regex 5.4 6.1)
for k in 5.3.18 5.4.0-1 5.10.0-35-amd64 6.0.1 6.1.0-56-amd64 6.2.0 6.12.117+deb12-amd64; do
	case $k in 5.3.* | 6.2.* | 6.12.*) want=no ;; *) want=yes ;; esac
	[[ $k =~ $r2 ]] && r=yes || r=no
	ktap_test_result "range 5.4 to 6.1, kernel $k: $want" [ "$r" = "$want" ]
done

# The hook script, as dkms runs it (a chroot-free stand-in: it is given
# the paths; /lib/modules is faked by running it with a private root).
# shellcheck disable=SC2016 # the inner shell's own arguments
hook() { unshare --mount --propagation private -- bash -c 'mount --bind "$1" /lib/modules && shift && sh "$@"' hook "$fake/lib/modules" "$t/dkms-original-module.sh" "$@"; }
k=5.14.0-427.42.1.el9_4.x86_64
fake=$work/fake
own=$fake/lib/modules/$k/kernel/drivers/scsi/mpt3sas/mpt3sas.ko.xz
upd=$fake/lib/modules/$k/updates/mpt3sas.ko.xz
arch=$fake/dkms/$name/original_module/$k/x86_64/mpt3sas.ko.xz
# fake EVENT ARCHIVED OWN UPDATES [ORIGIN]: the hook on EVENT in a made-up
# tree: its module archived by dkms (from ORIGIN, as dkms 3.1.8+ notes), the
# kernel's own and the one in updates/ each "in-tree", "other" or - (none)
fake() {
	local f c e=$1
	rm -rf "$fake"
	mkdir -p "${own%/*}" "${arch%/*}" "${upd%/*}" "$fake/lib/modules/$k/extra"
	for f in arch own upd; do
		c=$2
		shift
		[ "$c" = - ] || echo "$c" >"${!f}"
	done
	[ -z "${2:-}" ] || echo "$2" >"$arch.origin"
	if [ "$e" = installed ]; then hook installed "$k" "$fake/dkms"; else hook removed "$k"; fi >/dev/null
}
is() { grep -qx "$2" "$1"; }
fake installed in-tree - - "/lib/modules/$k/kernel/drivers/scsi/mpt3sas/mpt3sas.ko.xz"
ktap_test_result "installed, .origin (dkms 3.1.8+): the kernel's own file is back" is "$own" in-tree
fake installed in-tree - -
ktap_test_result "installed, no .origin (dkms 3.0.10): the kernel's own file is back" is "$own" in-tree
fake installed other in-tree -
ktap_test_result "installed, the kernel's own file in place: left alone" is "$own" in-tree
# dkms 3.0.10's removal: the archive moved to /updates beside the copy
fake removed - in-tree in-tree
ktap_test_result "removed: an older dkms's second copy in /updates is gone" [ ! -e "$upd" ]
ktap_test_result "removed: the kernel's own file stays" is "$own" in-tree
fake removed - - in-tree
ktap_test_result "removed, the kernel's own place empty: gone from /updates" [ ! -e "$upd" ]
ktap_test_result "removed, the kernel's own place empty: moved home" is "$own" in-tree
fake removed - in-tree other
ktap_test_result "removed: a different mpt3sas in /updates is not ours to touch" is "$upd" other

# The .deb from that tarball
if "$top/packaging/deb/build.sh" "$work/a" >"$work/deb.log" 2>&1; then
	deb=$work/a/$pkg"_${version}_all.deb"
	ktap_test_result "built $(basename "$deb")" [ -f "$deb" ]
	debfiles=$(dpkg-deb -c "$deb" | awk '{print $1, $NF}' | sed 's| \./| /|')
	ktap_test_result "the .deb ships /usr/sbin/mpt3sas-pool-timing, executable" \
		grep -qE '^-rwxr-xr-x /usr/sbin/mpt3sas-pool-timing$' <<<"$debfiles"
	ktap_test_result "the .deb ships mpt3sas-pool-timing(8)" \
		grep -qE ' /usr/share/man/man8/mpt3sas-pool-timing\.8\.gz$' <<<"$debfiles"
	ktap_test_result "the .deb ships the README as /usr/share/doc/$pkg/README.md.gz" \
		grep -qE " /usr/share/doc/$pkg/README\.md\.gz\$" <<<"$debfiles"
	ktap_test_result "the man page names that path" \
		grep -qxF ".Pa /usr/share/doc/$pkg/README.md.gz" "$top/tools/mpt3sas-pool-timing.8"
	for h in postinst.d header_postinst.d; do
		ktap_test_result "the .deb ships the kernel hook /etc/kernel/$h/dkms-$name, executable" \
			grep -qE "^-rwxr-xr-x /etc/kernel/$h/dkms-$name\$" <<<"$debfiles"
	done
	ktap_test_result "the .deb keeps the README and tools/ out of /usr/src" \
		not grep -qE "^[^ ]+ /usr/src/$name-$version/(README|tools)" <<<"$debfiles"
	if command -v lintian >/dev/null; then
		lint=$(lintian --fail-on error,warning "$deb" 2>&1) && rc=0 || rc=$?
		lint=$(grep -v '^running with root privileges' <<<"$lint" || true)
		[ -z "$lint" ] || while IFS= read -r l; do ktap_print_msg "| $l"; done <<<"$lint"
		ktap_test_result "lintian: no error or warning" [ "$rc" = 0 ]
	else
		ktap_test_skip "lintian: not installed (Debian 12: apt-get install lintian)"
	fi
else
	tail -n 20 "$work/deb.log" | sed 's/^/# | /'
	ktap_test_fail "packaging/deb/build.sh failed (log: $work/deb.log)"
fi

rm -rf "$work"
finish
