#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The .rpm, built with Debian's rpmbuild and checked without installing it;
# rpmbuild -ta from the tarball alone, and make srpm's source RPM.

set -eu
# shellcheck source=tests/packaging/lib.sh
. "$(dirname "$0")/lib.sh"
has() { grep -qE "$1" <<<"$2"; }
hasF() { grep -qF -- "$1" <<<"$2"; }
hasnt() { ! grep -qE "$1" <<<"$2"; }

command -v rpmbuild >/dev/null || { echo "rpmbuild is missing: apt-get install rpm" >&2; exit 2; }
version=$("$top/packaging/version.sh")
pkg_dist "$work"
"$top/packaging/rpm/build.sh" "$work"
rpm=$work/$name-dkms-$version-1.noarch.rpm
ktap_test_result "built $(basename "$rpm")" [ -f "$rpm" ]

q() { rpm -qp "$@" "$rpm" 2>/dev/null; }
ktap_test_result "name, version, arch" [ "$(q --qf '%{NAME} %{VERSION} %{ARCH}')" = "$name-dkms $version noarch" ]
ktap_test_result "license names GPL-2.0" has 'GPL-2.0' "$(q --qf '%{LICENSE}')"

files=$(q -l)
src=/usr/src/$name-$version
for f in dkms.conf dkms.mk kernel-range.sh kernel-setup.sh hba-rules.sh dkms-original-module.sh \
	kernel-hook.sh pci-ids Kbuild Makefile VERSION mpt3sas/mpt3sas_base.c mpt3sas/mpi/mpi2.h \
	mpt3sas/cp_dmapool.c chainpool/chainpool.c compat/mpt3sas_compat.h compat/probe.mk \
	/etc/modprobe.d/$name.conf /etc/depmod.d/$name.conf /usr/sbin/mpt3sas-pool-timing; do
	[ "${f#/}" != "$f" ] || f=$src/$f
	ktap_test_result "ships $f" grep -qxF -- "$f" <<<"$files"
done
ktap_test_result "ships mpt3sas-pool-timing(8)" has '^/usr/share/man/man8/mpt3sas-pool-timing\.8(\.gz)?$' "$files"
ktap_test_result "ships the README as /usr/share/doc/$name-dkms/README.md" has "^/usr/share/doc/$name-dkms/README\.md\$" "$files"
ktap_test_result "the man page names that path" grep -qxF ".Pa /usr/share/doc/$name-dkms/README.md" "$top/tools/mpt3sas-pool-timing.8"
ktap_test_result "ships the kernel hook after dkms's, before dracut's" \
	has '^/usr/lib/kernel/install.d/45-mpt3sas-chainpool\.install$' "$files"
ktap_test_result "conflicts with ELRepo's kmod-mpt3sas" has '^kmod-mpt3sas$' "$(q --conflicts)"
ktap_test_result "conflicts with our kmod-$name" has "^kmod-$name\$" "$(q --conflicts)"
ktap_test_result "no README, tools/, spec, conf/ or the kmod's files in $src" \
	hasnt "^$src/(README|tools|$name\.spec|conf|kmod-hook\.sh|kabi-report\.sh)" "$files"
ktap_test_result "no build products or generated probes" hasnt '\.(o|ko|mod|cmd)$|/generated' "$files"
outside=$(grep -vE '^/(usr/src|etc|usr/share/(doc|licenses|man/man8))(/|$)|^/usr/sbin/mpt3sas-pool-timing$|^/usr/lib/kernel/install\.d/45-mpt3sas-chainpool\.install$' <<<"$files" || true)
ktap_test_result "nothing outside /usr/src, /etc, /usr/share/{doc,licenses,man}, the tool and the hook${outside:+ (found: $outside)}" \
	[ -z "$outside" ]
conf=$(q -c)
ktap_test_result "both /etc files are %config" [ "$(grep -c '^/etc/' <<<"$conf")" = 2 ]

reqs=$(q --requires)
for r in 'dkms( >= 3.0)?' make gcc; do
	ktap_test_result "requires $r" has "^$r *\$" "$reqs"
done
ktap_test_result "recommends kernel-devel" has '^kernel-devel' "$(q --recommends)"

scripts=$(q --scripts)
post=$(q --qf '%{POSTIN}')
posttrans=$(q --qf '%{POSTTRANS}')
preun=$(q --qf '%{PREUN}')
ktap_test_result "%post: dkms add" has "dkms add -m $name -v $version" "$post"
ktap_test_result "%post: no build (it waits for the transaction's end)" hasnt 'kernel-setup|dkms install|dracut' "$post"
ktap_test_result "%posttrans: dkms add" has "dkms add -m $name -v $version" "$posttrans"
ktap_test_result "%posttrans: kernel-setup.sh all (install, initramfs)" hasF "bash $src/kernel-setup.sh all" "$posttrans"
ktap_test_result "%preun: dkms remove --all" has "dkms remove -m $name -v $version --all" "$preun"
# shellcheck disable=SC2016 # the scriptlet's text
ktap_test_result "%preun: dracut only on erase" has '"\$1" -eq 0' "$preun"
ktap_test_result "no REMAKE_INITRD, no weak-modules" hasnt 'REMAKE_INITRD|weak-modules' "$scripts"
for s in post posttrans preun; do
	ktap_test_result "%$s is valid sh" sh -n <<<"${!s}"
done

# %posttrans with the tarball's kernel-setup.sh, against stubs (nothing of
# this machine changes): dkms (exit 77, skipped, but for 6.1), the initramfs
# tools and mokutil.
stub=$work/stub
mkdir -p "$stub" "$work/x"
tar -C "$work/x" -xzf "$work/$name-$version.tar.gz"
for t in update-initramfs dracut; do
	# shellcheck disable=SC2016 # the stub's own $* and $STUB_LOG
	printf '#!/bin/sh\necho "%s $*" >>"$STUB_LOG"\n' "$t" >"$stub/$t"
done
printf '#!/bin/sh\necho "SecureBoot disabled"\n' >"$stub/mokutil"
cat >"$stub/dkms" <<'EOT'
#!/bin/sh
echo "dkms $*" >>"$STUB_LOG"
case $1 in
install) case $* in *" -k 6.1."*) exit 0 ;; *) exit 77 ;; esac ;;
esac
exit 0
EOT
chmod +x "$stub"/*
kernels=$(for d in /lib/modules/*; do [ -e "$d/build/Makefile" ] && echo "${d##*/}"; done)
out=$(STUB_LOG=$work/dkms.log PATH=$stub:$PATH sh -c "${posttrans//$src/$work/x/$name-$version}" 2>&1) && rc=0 || rc=$?
echo "$out"
ktap_test_result "%posttrans exits 0" [ "$rc" = 0 ]
for k in $kernels; do
	ktap_test_result "%posttrans: dkms install -k $k" grep -qF "dkms install -m $name -v $version -k $k" "$work/dkms.log"
	case $k in
	6.1.*) ;;
	*) ktap_test_result "%posttrans: names the range for skipped $k" hasF "$name supports kernels 4.15 and newer; $k is not supported: skipped" "$out" ;;
	esac
done

# As on an EL build host: the tarball alone, and its source RPM
ta=$work/ta
mkdir -p "$ta"
rpmbuild -ta --nodeps --define "_topdir $ta" "$work/$name-$version.tar.gz" >"$ta.log" 2>&1 || tail -n 20 "$ta.log"
ta_rpm=$(find "$ta/RPMS" -name "$name-dkms-$version-1.noarch.rpm" 2>/dev/null)
ktap_test_result "rpmbuild -ta $name-$version.tar.gz builds $name-dkms" [ -n "$ta_rpm" ]
ktap_test_result "with the same files" [ "$(rpm -qpl "$ta_rpm" 2>/dev/null)" = "$files" ]
"$top/packaging/rpm/build.sh" --srpm "$work"
srpm=$work/$name-$version-1.src.rpm
ktap_test_result "make srpm: $(basename "$srpm"), with the tarball" \
	grep -qxF "$name-$version.tar.gz" <<<"$(rpm -qpl "$srpm" 2>/dev/null)"
ktap_test_result "the package names it as its source RPM" [ "$(q --qf '%{SOURCERPM}')" = "${srpm##*/}" ]

if command -v rpmlint >/dev/null; then
	lint=$(rpmlint -r "$top/packaging/rpm/$name-dkms.rpmlintrc" "$rpm" 2>&1) || true
	echo "$lint" | tail -n 3
	ktap_test_result "rpmlint: 0 errors, 0 warnings" has ' 0 errors, 0 warnings' "$lint"
else
	ktap_test_skip "rpmlint: not installed (Debian 12: apt-get install rpmlint)"
fi

finish
