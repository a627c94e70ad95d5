# shellcheck shell=bash disable=SC2034 # variables for the tests
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Shared by the packaging tests (sourced).  Those that install, upgrade and
# purge the package run inside a throwaway Debian 12 root made by
# tests/packaging/root.sh, never on the machine that runs make check; they
# still purge what they installed, from an EXIT trap, as a test of purge.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
name=mpt3sas-chainpool
# the oldest supported kernel series, as the packages declare it
kmin=$(DKMS_KERNEL_MIN='' "$top/packaging/kernel-range.sh" min)
pkg=mpt3sas-chainpool-dkms
base=$(sed -n 's/^driver_version=//p' "$top/src/mpt3sas/upstream.lock")
export DEBIAN_FRONTEND=noninteractive
t0=$(date +%s)
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
# finish SUITE: the plan, the totals and the exit status
finish() {
	ktap_print_msg "$1: $(($(date +%s) - t0))s"
	ktap_finished
}

[ "$(id -u)" = 0 ] || ktap_exit_fail_msg "run as root: these tests install and purge packages"
# in_pkgroot: refuse to install anything outside the throwaway root
in_pkgroot() {
	[ "${PKGROOT:-}" = 1 ] ||
		ktap_exit_fail_msg "this test installs packages: run it as tests/packaging/root.sh $0"
}

# Install what is missing from Debian's archive; print what was installed.
ensure_packages() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "installing from Debian's archive: ${missing[*]}" >&2
	apt-get -q install -y --no-install-recommends "${missing[@]}" >&2 ||
		ktap_exit_fail_msg "cannot install ${missing[*]}"
	echo "${missing[*]}"
}

# The Debian 12 6.1 kernel to test with: KVER, else the newest one whose
# headers are installed.  Its image and initramfs-tools come in if missing.
pick_kernel() {
	local k=${KVER:-$(host_kver)}

	[ -n "$k" ] || ktap_exit_fail_msg "no Debian 12 6.1 kernel headers: apt-get install linux-headers-amd64"
	ensure_packages initramfs-tools "linux-image-$k" >/dev/null
	[ -e "/boot/initrd.img-$k" ] || update-initramfs -c -k "$k" >&2
	echo "$k"
}

# Tools the packaging tests need (CI lists them too).
ensure_tools() {
	ensure_packages dkms dh-dkms debhelper dpkg-dev initramfs-tools kmod >/dev/null
}

# pkg_dist DIR: DIR anew, with the tarball of the current tree and what
# the package builds take (packaging/dist.sh: CP_RELEASE, DKMS_KERNEL_MIN
# and DKMS_KERNEL_MAX from the environment).
pkg_dist() {
	[ -f "$top/build/tree/Kbuild" ] || make -C "$top" tree >&2
	rm -rf "$1"
	mkdir -p "$1"
	"$top/packaging/dist.sh" "$top/build/tree" "$1" >&2
}

# build_debs DIR: pkg_dist DIR and the .deb, whose path it prints.
build_debs() {
	pkg_dist "$1"
	"$top/packaging/deb/build.sh" "$1" >&2
	ls "$1"/"$pkg"_*_all.deb
}

pkg_state() { dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true; }

purge_pkg() {
	if [ -n "$(pkg_state)" ] && [ "$(pkg_state)" != "unknown ok not-installed" ]; then
		step "purging $pkg"
		apt-get -q purge -y "$pkg" || dpkg --purge --force-all "$pkg" || true
	fi
}

# purge_step: the package purged, as a user does it.
purge_step() {
	step "purging"
	apt-get -q purge -y "$pkg" 2>&1 | grep -v '^readelf: Warning'
}

# nothing_left: the test that no file of ours is left anywhere (leftovers).
nothing_left() {
	local left
	left=$(leftovers)
	[ -z "$left" ] || echo "left: $left"
	ktap_test_result "nothing left after purge" [ -z "$left" ]
}

# Versions of ours dkms knows, one a line ("48.100.00.00.cp1").
dkms_versions() { dkms status -m "$name" 2>/dev/null | sed -n "s|^$name/\([^,]*\),.*|\1|p" | sort -u; }
dkms_installed() { dkms status -m "$name" -k "$1" 2>/dev/null | grep -q ': installed'; }

# What depmod resolves mpt3sas to for kernel $1.
resolved_path() { modinfo -k "$1" -n mpt3sas; }
resolved_version() { modinfo -k "$1" -F version mpt3sas; }
show_depends_last() { modprobe -S "$1" --show-depends mpt3sas | tail -n 1; }

# intree_back KVER "PATH VERSION" [LABEL]: after removal, modinfo -k and
# modprobe --show-depends resolve KVER's mpt3sas to the in-tree driver
# at PATH of VERSION again; two results, LABEL before their names
intree_back() {
	local p v
	p=$(resolved_path "$1")
	v=$(resolved_version "$1")
	echo "modinfo -k $1 mpt3sas: $p $v"
	ktap_test_result "${3:+$3: }modinfo -k resolves the in-tree driver again" [ "$p $v" = "$2" ]
	ktap_test_result "${3:+$3: }modprobe --show-depends loads the in-tree driver" \
		glob "$(show_depends_last "$1")" "insmod ${2%% *}*"
}

# initrd_module KVER OUTDIR: unpack KVER's initramfs into OUTDIR and print
# "<path in image> <version>" of each mpt3sas.ko in it.
initrd_module() {
	local k=$1 d=$2 f
	rm -rf "$d"
	mkdir -p "$d"
	unmkinitramfs "/boot/initrd.img-$k" "$d" >/dev/null 2>&1 || return 1
	find "$d" -name 'mpt3sas.ko*' | sort | while read -r f; do
		echo "${f#"$d"/} $(modinfo -F version "$f")"
	done
}

# The module files of ours left anywhere.
leftovers() {
	ls -d /usr/src/"$name"-* /var/lib/dkms/"$name" /etc/modprobe.d/"$name".conf \
		/etc/depmod.d/"$name".conf 2>/dev/null || true
	find /lib/modules/*/updates -name 'mpt3sas.ko*' 2>/dev/null || true
}

# start_install_test: the start of a test that installs the package: in the
# throwaway root, with its tools, the 6.1 kernel in $kver, nothing of ours
# installed yet, and a purge however the test ends.
start_install_test() {
	in_pkgroot
	ensure_tools
	kver=$(pick_kernel)
	step "kernel $kver"
	[ -z "$(leftovers)" ] || ktap_exit_fail_msg "files of $name are already installed: $(leftovers | tr '\n' ' ')"
	trap purge_pkg EXIT
}

# standin_sysfs DIR ADDRESS ID: a stand-in sysfs at DIR (kernel-setup.sh
# reads it as MPT3SAS_CP_SYSFS) with one PCI device, ADDRESS, of ID
# (vvvv:dddd), and the disk sda behind it, whose sda2 holds the root file
# system: sysfs's dev/block entry for findmnt /'s device number leads there.
standin_sysfs() {
	local s=$1 a=$2 id=$3 d mm part
	d=$s/devices/pci0000:00/$a
	part=host0/target0:0:0/0:0:0:0/block/sda/sda2
	mkdir -p "$d/$part" "$s/bus/pci/devices" "$s/dev/block"
	echo "0x${id%:*}" >"$d/vendor"
	echo "0x${id#*:}" >"$d/device"
	ln -sfn "../../../devices/pci0000:00/$a" "$s/bus/pci/devices/$a"
	mm=$(findmnt -n -o MAJ:MIN / | head -n 1 | tr -d ' ')
	[ -n "$mm" ] || ktap_exit_fail_msg "findmnt finds no device number for /"
	echo "$mm" >"$d/$part/dev"
	ln -sfn "../../devices/pci0000:00/$a/$part" "$s/dev/block/$mm"
}

# repo_keys: two throwaway signing keys in a GNUPGHOME of the root's own
# /tmp: "$name test key", which signs the repository, and "another key".
repo_keys() {
	GNUPGHOME=$(mktemp -d)
	export GNUPGHOME
	local k
	for k in "$name test key" "another key"; do
		gpg --batch --passphrase '' --quick-gen-key "$k" rsa3072 sign 1d 2>/dev/null ||
			ktap_exit_fail_msg "gpg could not make the key $k"
	done
}

# test_repos PKG_DIR DIR: make repo's recipe (packaging/repo.sh) on the
# packages of PKG_DIR three times: DIR/repo, signed by "$name test key";
# DIR/repo-other, signed by "another key"; DIR/repo-tampered, DIR/repo
# with one byte of each package changed.
test_repos() {
	local f k off b
	for k in repo:"$name test key" repo-other:"another key"; do
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

# refused RC MESSAGE LOG: a command's exit status RC is not 0, and its LOG
# says why (MESSAGE, a case-blind extended regular expression).
refused() { [ "$1" != 0 ] && grep -qiE "$2" "$3"; }

# no_driver_warning LOG KVER: how many times LOG warns that KVER boots with
# no driver for a present HBA.
no_driver_warning() {
	tr -d '\r' <"$1" | grep -cxF "$name: WARNING: kernel $2 will boot with NO DRIVER for this HBA:" || true
}
