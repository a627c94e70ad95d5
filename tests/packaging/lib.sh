# shellcheck shell=bash disable=SC2034 # variables for the tests
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Shared by the packaging tests (sourced).  Those that install run inside a
# throwaway root (root.sh), and still purge from an EXIT trap.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
name=mpt3sas-chainpool
# the oldest supported kernel series, as the packages declare it
kmin=$(DKMS_KERNEL_MIN='' "$top/packaging/kernel-range.sh" min)
pkg=mpt3sas-chainpool-dkms
base=$(sed -n 's/^driver_version=//p' "$top/src/mpt3sas/upstream.lock")
release=$(cat "$top/src/VERSION")
# what modinfo says of ours
ourver=$base-$release
export DEBIAN_FRONTEND=noninteractive
t0=$(date +%s)
# the suite (rpm-lib.sh adds EL) and its work directory
suite=$(basename "$0" .sh)
work=$top/build/pkg/test/$suite
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
ktap_print_header

step() { ktap_print_msg "--- $* ($(($(date +%s) - t0))s)"; }
# glob STRING PATTERN: STRING matches the shell PATTERN.
# shellcheck disable=SC2053 # a pattern on purpose
glob() { [[ $1 == $2 ]]; }
# not COMMAND...: COMMAND fails (but ran: a missing file is no success).
not() {
	local rc=0
	"$@" || rc=$?
	[ "$rc" = 1 ]
}
# finish: the plan, the totals and the exit status
finish() {
	ktap_print_msg "$suite: $(($(date +%s) - t0))s"
	ktap_finished
}

[ "$(id -u)" = 0 ] || ktap_exit_fail_msg "run as root: these tests install and purge packages"
# in_pkgroot: refuse to install anything outside the throwaway root
in_pkgroot() {
	[ "${PKGROOT:-}" = 1 ] ||
		ktap_exit_fail_msg "this test installs packages: run it as tests/packaging/root.sh $0"
}

# pkg_dist DIR: DIR anew, with packaging/dist.sh's tarball of the tree
# (CP_RELEASE, DKMS_KERNEL_MIN and DKMS_KERNEL_MAX from the environment)
pkg_dist() {
	[ -f "$top/build/tree/Kbuild" ] || make -C "$top" tree >&2
	rm -rf "$1"
	mkdir -p "$1"
	"$top/packaging/dist.sh" "$top/build/tree" "$1" >&2
}

# build_pkg DIR: pkg_dist DIR and the package ($fmt: rpm-lib.sh sets rpm),
# whose path it prints.
fmt=deb
build_pkg() {
	pkg_dist "$1"
	"$top/packaging/$fmt/build.sh" "$1" >&2
	ls "$1/$pkg"[_-]*."$fmt"
}

pkg_state() { dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true; }
deb_installed() { [ "$(pkg_state)" = "install ok installed" ]; }

purge_pkg() {
	if [ -n "$(pkg_state)" ] && [ "$(pkg_state)" != "unknown ok not-installed" ]; then
		step "purging $pkg"
		apt-get -q purge -y "$pkg" || dpkg --purge --force-all "$pkg" || true
	fi
}

# purge_step: the package purged, as a user does it, and nothing of ours left
purge_step() {
	step "purging"
	apt-get -q purge -y "$pkg" 2>&1 | grep -v '^readelf: Warning'
	nothing_left purge
}

# nothing_left AFTER: the test that no file of ours is left (leftovers)
nothing_left() {
	local left
	left=$(leftovers)
	[ -z "$left" ] || echo "left: $left"
	ktap_test_result "nothing left after $1" [ -z "$left" ]
}

# decide KVER: what the installed package's kernel-setup.sh decides for KVER
decide() { bash /usr/src/"$name"-*/kernel-setup.sh decide "$1"; }
dkms_installed() { dkms status -m "$name" -k "$1" 2>/dev/null | grep -q ': installed'; }

# only_version RELEASE DIR: dkms, /usr/src and modinfo -k $kver know one
# version of ours, $base.RELEASE, installed under DIR/ (the upgrade tests)
only_version() {
	dkms status -m "$name"
	ktap_test_result "dkms knows only $base.$1" [ "$(dkms status -m "$name" 2>/dev/null |
		sed -n "s|^$name/\([^,]*\),.*|\1|p" | sort -u)" = "$base.$1" ]
	ktap_test_result "dkms status: installed for $kver" dkms_installed "$kver"
	ktap_test_result "/usr/src holds only $name-$base.$1" \
		[ "$(ls -d /usr/src/"$name"-* 2>/dev/null)" = "/usr/src/$name-$base.$1" ]
	ktap_test_result "modinfo -k $kver: $base-$1" [ "$(resolved_version "$kver")" = "$base-$1" ]
	ktap_test_result "one mpt3sas under $2/ for $kver" \
		[ "$(find "/lib/modules/$kver/$2" -name 'mpt3sas.ko*' | wc -l)" = 1 ]
}

# What depmod resolves mpt3sas to for kernel $1.
resolved_path() { modinfo -k "$1" -n mpt3sas; }
resolved_version() { modinfo -k "$1" -F version mpt3sas; }
show_depends_last() { modprobe -S "$1" --show-depends mpt3sas | tail -n 1; }

# ours_resolved KVER DIR [LABEL]: modinfo -k and modprobe --show-depends
# resolve KVER's mpt3sas to ours ($ourver) under DIR/; two results, LABEL
# before their names
ours_resolved() {
	local p v d
	p=$(resolved_path "$1")
	v=$(resolved_version "$1")
	d=$(show_depends_last "$1")
	echo "modinfo -k $1 mpt3sas: $p $v; modprobe --show-depends: $d"
	ktap_test_result "${3:+$3: }modinfo -k resolves ours ($ourver) under $2/" \
		glob "$p $v" "/lib/modules/$1/$2/* $ourver"
	ktap_test_result "${3:+$3: }modprobe --show-depends loads $2/ mpt3sas" \
		glob "$d" "insmod /lib/modules/$1/$2/*mpt3sas.ko*"
}

# intree_back KVER "PATH VERSION" [LABEL]: after removal, as ours_resolved,
# the in-tree driver at PATH of VERSION again
intree_back() {
	local p v
	p=$(resolved_path "$1")
	v=$(resolved_version "$1")
	echo "modinfo -k $1 mpt3sas: $p $v"
	ktap_test_result "${3:+$3: }modinfo -k resolves the in-tree driver again" [ "$p $v" = "$2" ]
	ktap_test_result "${3:+$3: }modprobe --show-depends loads the in-tree driver" \
		glob "$(show_depends_last "$1")" "insmod ${2%% *}*"
}

# initrd_mpt3sas KVER: "<path in image> <version>" of each mpt3sas.ko in
# KVER's initramfs (rpm-lib.sh: dracut's).
initrd_mpt3sas() {
	local d f
	d=$(mktemp -d)
	unmkinitramfs "/boot/initrd.img-$1" "$d" >/dev/null 2>&1 || { rm -rf "$d"; return 1; }
	find "$d" -name 'mpt3sas.ko*' | sort | while read -r f; do
		echo "${f#"$d"/} $(modinfo -F version "$f")"
	done
	rm -rf "$d"
}

# initrd_holds KVER ERE: a line of initrd_mpt3sas KVER matches ERE
initrd_holds() {
	local im
	im=$(initrd_mpt3sas "$1")
	echo "initramfs of $1: $im"
	grep -qE -- "$2" <<<"$im"
}
# initrd_has KVER DIR [VERSION]: KVER's initramfs holds DIR/mpt3sas.ko of
# VERSION (default: ours)
initrd_has() { initrd_holds "$1" "/lib/modules/$1/$2/mpt3sas\.ko(\.[a-z]+)? ${3:-$ourver}\$"; }

# The files of ours left anywhere.
leftovers() {
	ls -d /usr/src/"$name"-* /var/lib/dkms/"$name" /etc/modprobe.d/"$name".conf \
		/etc/depmod.d/"$name".conf /etc/depmod.d/kmod-"$name".conf \
		/var/run/rpm-kmod-"$name"* 2>/dev/null || true
	find /lib/modules/*/updates /lib/modules/*/extra /lib/modules/*/weak-updates \
		-name 'mpt3sas.ko*' 2>/dev/null || true
}

# save_boot DIR KVER INITRD: the kernel and INITRD for initrd-boot.sh
save_boot() {
	rm -rf "$1"
	mkdir -p "$1"
	cp "/boot/vmlinuz-$2" "$1/vmlinuz"
	cp "$3" "$1/initrd"
	echo "$2" >"$1/kver"
	echo "boot test hook: $1"
}

# ko_cat KO: the module, decompressed
ko_cat() { case $1 in *.xz) xz -dc "$1" ;; *.zst) zstd -qdc "$1" ;; *) cat "$1" ;; esac; }
# no_sas2008: the module (stdin) without SAS2008's ID (1000:0072), as RHEL 10's
no_sas2008() { perl -0777 -pe 's/alias=pci:v00001000d00000072sv/alias=pci:v00001000d0000FFFFsv/'; }
# has_sas2008 MODINFO_ARGS...: the module modinfo names claims SAS2008
has_sas2008() { grep -qi 'pci:v00001000d00000072sv' <<<"$(modinfo -F alias "$@")"; }

# start_install_test: in the throwaway root, Debian 12's 6.1 in $kver (KVER,
# else the newest with headers), nothing of ours yet, a purge at the end.
start_install_test() {
	in_pkgroot
	kver=${KVER:-$(host_kver)}
	[ -e "/boot/vmlinuz-$kver" ] || ktap_exit_fail_msg "no Debian 12 6.1 kernel image with headers${kver:+ ($kver)}"
	[ -e "/boot/initrd.img-$kver" ] || update-initramfs -c -k "$kver" >&2
	step "kernel $kver"
	[ -z "$(leftovers)" ] || ktap_exit_fail_msg "files of $name are already installed: $(leftovers | tr '\n' ' ')"
	trap purge_pkg EXIT
}

# standin_sysfs DIR ADDRESS ID: DIR anew, a stand-in sysfs (MPT3SAS_CP_SYSFS
# of kernel-setup.sh) with one PCI device, ADDRESS, of ID (vvvv:dddd), and
# behind it the disk whose sda2 findmnt / names (dev/block leads there).
standin_sysfs() {
	local s=$1 a=$2 id=$3 d mm part
	d=$s/devices/pci0000:00/$a
	part=host0/target0:0:0/0:0:0:0/block/sda/sda2
	rm -rf "$s"
	mkdir -p "$d/$part" "$s/bus/pci/devices" "$s/dev/block"
	echo "0x${id%:*}" >"$d/vendor"
	echo "0x${id#*:}" >"$d/device"
	ln -sfn "../../../devices/pci0000:00/$a" "$s/bus/pci/devices/$a"
	mm=$(findmnt -n -o MAJ:MIN / | head -n 1 | tr -d ' ')
	[ -n "$mm" ] || ktap_exit_fail_msg "findmnt finds no device number for /"
	echo "$mm" >"$d/$part/dev"
	ln -sfn "../../devices/pci0000:00/$a/$part" "$s/dev/block/$mm"
}

# test_repos PKG_DIR DIR: packaging/repo.sh on PKG_DIR with two throwaway
# keys (a GNUPGHOME in the root's /tmp): DIR/repo, signed by "$name test
# key"; DIR/repo-other, by "another key"; DIR/repo-tampered, DIR/repo with
# one byte of each package changed.
test_repos() {
	local f k off b
	GNUPGHOME=$(mktemp -d)
	export GNUPGHOME
	for k in repo:"$name test key" repo-other:"another key"; do
		gpg --batch --passphrase '' --quick-gen-key "${k#*:}" rsa3072 sign 1d 2>/dev/null ||
			ktap_exit_fail_msg "gpg could not make the key ${k#*:}"
		REPO_KEY=${k#*:} "$top/packaging/repo.sh" "$1" "$2/${k%%:*}" >&2 ||
			ktap_exit_fail_msg "packaging/repo.sh failed (${k#*:})"
	done
	rm -rf "$2/repo-tampered"
	cp -a "$2/repo" "$2/repo-tampered"
	find "$2/repo-tampered" -name '*.rpm' -o -name '*.deb' | while read -r f; do
		off=$(($(stat -c %s "$f") - 512))
		b=$(od -An -tu1 -j "$off" -N 1 "$f" | tr -d ' ')
		# shellcheck disable=SC2059 # the byte, as an octal escape
		printf "\\$(printf %03o $((b ^ 1)))" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
	done
}

# lines LOG LINE: how many lines of LOG are LINE (apt runs dpkg on a pty:
# its lines end in \r\n)
lines() { tr -d '\r' <"$1" | grep -cxF -- "$2" || true; }
# no_driver_warning LOG KVER: how many times LOG warns that KVER boots with
# no driver for a present HBA.
no_driver_warning() { lines "$1" "$name: WARNING: kernel $2 will boot with NO DRIVER for this HBA:"; }
