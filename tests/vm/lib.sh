# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2034,SC2154 # variables are set for the caller, vm_* by run.sh's options
# Functions of tests/vm/run.sh (sourced after tests/kernels/lib.sh); vm_dir,
# vm_scripts and the other vm_* settings are its options.

VM_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Kernel log lines that fail a run (ERE; used by the guest and the host).
SPLAT_RE='BUG:|BUG at|WARNING:|Oops|Unknown symbol|disagrees about version|KASAN|kmemleak|[Mm]emory leak|Call Trace|general protection fault|Kernel panic|UBSAN:|dma_pool_destroy.*busy|soft lockup|blocked for more than|rcu_.*stall'
# In the guests also: our modules know every parameter of the steps.
VMTEST_GUEST_SPLAT_RE="$SPLAT_RE|unknown parameter"

# decompress_ko SRC DST
decompress_ko() {
	case $1 in
	*.ko.xz)  xz -dc "$1" > "$2" ;;
	*.ko.zst) zstd -qdc "$1" > "$2" ;;
	*.ko.gz)  gzip -dc "$1" > "$2" ;;
	*.ko)     cp "$1" "$2" ;;
	*) die "unknown module file type: $1" ;;
	esac
}

# vm_vmlinux BZIMAGE OUT: unpack the ELF vmlinux from a bzImage (boot
# protocol payload_offset/payload_length), or fail.  Booted through its PVH
# entry it starts about twice as fast under TCG as decompressing itself.
# Suites running at once share OUT: each writes a temporary file of its own.
vm_vmlinux() {
	local bz=$1 out=$2 tmp=$2.tmp.$BASHPID sects start off len magic
	[ "$out" -nt "$bz" ] && return 0
	u() { od -An -t"u$2" -j "$1" -N "$2" "$bz" | tr -d ' '; }
	sects=$(u $((0x1f1)) 1)
	[ "$sects" != 0 ] || sects=4
	start=$(((sects + 1) * 512))
	off=$(u $((0x248)) 4)
	len=$(u $((0x24c)) 4)
	magic=$(od -An -tx1 -j $((start + off)) -N 4 "$bz" | tr -d ' ')
	# the payload ends with its uncompressed size (4 bytes)
	payload() { tail -c +$((start + off + 1)) "$bz" | head -c $((len - 4)); }
	case $magic in
	fd377a58) payload | xz -dc > "$tmp" ;;
	28b52ffd) payload | zstd -qdc > "$tmp" ;;
	1f8b*)    payload | gzip -dc > "$tmp" ;;
	*) return 1 ;;
	esac || { rm -f "$tmp"; return 1; }
	[ "$(od -An -c -j 1 -N 3 "$tmp" | tr -d ' ')" = ELF ] || { rm -f "$tmp"; return 1; }
	mv "$tmp" "$out"
}

# vm_deps KO: the files to insmod before KO, in order: out-of-tree modules
# from its own dir, the rest from the fetched kernel
vm_deps() {
	local ko=$1 dir d dep
	dir=$(dirname "$ko")
	for d in $(modinfo -F depends "$ko" | tr ',' ' '); do
		dep=""
		for f in "$dir/$d.ko" "$dir/$(echo "$d" | tr _ -).ko"; do
			[ -f "$f" ] && dep=$f
		done
		if [ -n "$dep" ]; then
			vm_deps "$dep"
			echo "$dep"
		else
			modprobe -d "$MODDIR" -S "$KVER" --show-depends "$d" |
				awk '/^insmod/ {print $2}' ||
				die "cannot resolve dependency $d of $ko for $KVER"
		fi
	done
}

# vm_script NAME: the guest script of a step "@NAME", the first of
# $vm_scripts (folders separated by ":") that has it
vm_script() {
	local dir
	local -a dirs
	IFS=: read -ra dirs <<<"$vm_scripts"
	for dir in "${dirs[@]}"; do
		[ -f "$dir/$1" ] && { echo "$dir/$1"; return; }
	done
	die "no guest script $1 in $vm_scripts"
}

# vm_step_scripts STEPS: the names of the steps' scripts
vm_step_scripts() {
	echo "$1" | awk '$1 ~ /^@/ {print substr($1, 2)}' | sort -u
}

# vm_step_header STEPS KEY: the words of the scripts' header lines "# KEY:",
# one a line: vmtest-modules (the modules a script loads),
# vmtest-modules-optional (those it loads where the kernel has them) and
# vmtest-programs (host programs: a name in PATH or tools/... of the project)
vm_step_header() {
	local script
	for script in $(vm_step_scripts "$1"); do
		sed -n "s/^# $2://p" "$(vm_script "$script")" | tr ' ' '\n' | grep -v '^$'
	done
}

# vm_install_program NAME STAGE: NAME (vmtest-programs) into
# STAGE/usr/local/bin, with the shared libraries it links at their own paths
vm_install_program() {
	local name=$1 st=$2 path lib
	case $name in
	*/*) path=$VM_SRC/../../$name ;;
	*) path=$(command -v "$name") || die "no program $name on this machine" ;;
	esac
	[ -f "$path" ] || die "no program $path"
	install -D -m 0755 "$(readlink -f "$path")" "$st/usr/local/bin/${name##*/}"
	# "libx.so => /lib/.../libx.so (0x...)" and "/lib64/ld-linux-x86-64.so.2 (0x...)"
	for lib in $(ldd "$path" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'); do
		[ -f "$st$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$st$lib"
	done
}

# vm_initramfs SERIES MODULES_DIR STEPS INITRD
vm_initramfs() {
	local series=$1 mods=$2 steps=$3 initrd=$4 st=$vm_dir/$1/initramfs
	local bb mod name f script
	bb=$(command -v busybox) || die "busybox missing (Debian package busybox-static)"
	! ldd "$bb" >/dev/null 2>&1 || die "$bb is not static (install Debian's busybox-static)"
	rm -rf "$st"
	mkdir -p "$st/bin" "$st/etc/vmtest" "$st/lib/vmtest/scripts" "$st/proc" "$st/sys" "$st/dev" "$st/tmp"
	cp "$bb" "$st/bin/busybox"
	for f in sh mount insmod rmmod lsmod dmesg grep cat echo sleep poweroff \
		 readlink basename tr wc head uname ls stat awk sed find sort cut \
		 tail seq su sync expr; do
		ln -s busybox "$st/bin/$f"
	done
	install -m 0755 "$VM_SRC/init" "$st/init"
	# an unprivileged user for permission checks (su nobody)
	printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$st/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' > "$st/etc/group"
	install -m 0644 "$VM_SRC/guestlib.sh" "$st/lib/vmtest/guestlib.sh"
	printf "VMTEST_SPLAT_RE='%s'\n" "$VMTEST_GUEST_SPLAT_RE" > "$st/etc/vmtest/conf"
	echo "$steps" > "$st/etc/vmtest/steps"
	for script in $(vm_step_scripts "$steps"); do
		install -m 0755 "$(vm_script "$script")" "$st/lib/vmtest/scripts/$script"
	done
	for f in $(vm_step_header "$steps" vmtest-programs | sort -u); do
		vm_install_program "$f" "$st"
	done
	# the steps' modules, and their scripts' where the kernel has them
	for mod in $( (echo "$steps" | awk '$1 !~ /^(#|\+|@|$)/ {sub(/^!/, "", $1); print $1}'
		vm_step_header "$steps" vmtest-modules
		for m in $(vm_step_header "$steps" vmtest-modules-optional); do
			[ ! -f "$mods/$m.ko" ] || echo "$m"
		done) | sort -u); do
		[ -f "$mods/$mod.ko" ] || die "$series: $mods/$mod.ko missing"
		: > "$st/etc/vmtest/$mod.deps"
		for f in $(vm_deps "$mods/$mod.ko" | awk '!seen[$0]++'); do
			name=$(basename "$f" | sed -E 's/\.ko(\.(xz|zst|gz))?$//')
			[ -f "$st/lib/vmtest/$name.ko" ] || decompress_ko "$f" "$st/lib/vmtest/$name.ko"
			echo "$name.ko" >> "$st/etc/vmtest/$mod.deps"
		done
		cp "$mods/$mod.ko" "$st/lib/vmtest/$mod.ko"
	done
	(cd "$st" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$initrd"
	rm -rf "$st"
}

# vm_boot SERIES SETUP INITRD LOG: run the guest (setups: docs/testing.md)
# with run.sh's vm_* settings; returns qemu's/timeout's rc
vm_boot() {
	local series=$1 setup=$2 initrd=$3 log=$4 append machine
	local cpus=1 mem=$vm_mem
	local -a iommu=() qmp=()
	# no_timer_check: the IO-APIC timer probe can miss under TCG on a busy host
	# and then panics ("timer doesn't work through Interrupt-remapped IO-APIC")
	append="console=ttyS0 panic=-1 oops=panic no_timer_check rdinit=/init vmtest.setup=$setup"
	case $setup in
	plain) machine=q35 ;;
	iommu)
		machine=q35,kernel-irqchip=split
		# shellcheck disable=SC2054 # commas are part of the option
		iommu=(-device intel-iommu,intremap=on)
		append="$append intel_iommu=on iommu.passthrough=0"
		;;
	smp2) machine=q35 cpus=2 ;;
	# the guest touches little of it; q35 maps 2 GiB below 4 GiB, 3 above
	mem5g) machine=q35 mem=5G ;;
	*) die "unknown setup '$setup' (plain, iommu, smp2, mem5g)" ;;
	esac
	# a short DIR: a socket path has at most 107 bytes
	[ -z "$vm_qmp" ] || qmp=(-qmp "unix:$vm_qmp/$series-$setup.qmp,server=on,wait=off")
	# shellcheck disable=SC2086 # vm_qemu_args is a word list
	timeout --kill-after=10 "$vm_timeout" \
		"$vm_qemu" $vm_qemu_args -accel tcg -machine "$machine" -m "$mem" -smp "$cpus" \
		-nodefaults -no-user-config -display none -no-reboot \
		-serial "file:$log" -monitor none \
		"${iommu[@]}" "${qmp[@]}" -device edu \
		-kernel "$VM_KERNEL" -initrd "$initrd" -append "$append $vm_append" \
		</dev/null >"$log.qemu" 2>&1
}

# vm_parse LOG: sets KTAP_OK KTAP_NOTOK KTAP_SKIP VERDICT REASON
vm_parse() {
	local log=$1 klog marker splats plan top
	# kernel lines of the test phase, without \r and the timestamp
	klog=$(tr -d '\r' < "$log" | sed -n '/VMTEST: BEGIN/,$p' |
		sed -nE 's/^\[ *[0-9]+\.[0-9]+\] ?//p')
	KTAP_OK=$(echo "$klog" | grep -cE '^ *ok [0-9]+' || true)
	KTAP_NOTOK=$(echo "$klog" | grep -cE '^ *not ok [0-9]+' || true)
	KTAP_SKIP=$(echo "$klog" | grep -cE '^ *ok [0-9]+.*# *SKIP' || true)
	# a KTAP result's line is no splat, whatever its name says
	splats=$(echo "$klog" | grep -E "$VMTEST_GUEST_SPLAT_RE" | grep -vE '^ *(not )?ok [0-9]+ ' || true)
	# top-level KTAP plans ("1..N") against top-level results
	plan=$(echo "$klog" | sed -nE 's/^1\.\.([0-9]+)( .*)?$/\1/p' | awk '{n += $1} END {print n + 0}')
	top=$(echo "$klog" | grep -cE '^(not )?ok [0-9]+' || true)
	# the guest's own KTAP verdict (init's finish), not in the kernel log
	marker=$(tr -d '\r' < "$log" | grep -E '^(not )?ok 1 vmtest-guest' | tail -n1)
	REASON=""
	add() { REASON="$REASON${REASON:+; }$*"; }
	grep -q 'VMTEST: BEGIN' "$log" || add "guest never reached /init"
	[ "$KTAP_NOTOK" = 0 ] || add "$KTAP_NOTOK KTAP not ok"
	[ "$KTAP_OK" -gt 0 ] || [ "$KTAP_NOTOK" -gt 0 ] || add "no KTAP results"
	[ "$plan" = 0 ] || [ "$plan" = "$top" ] || add "KTAP plan of $plan tests but $top results"
	! echo "$klog" | grep -qE '^ *Bail out!' || add "KTAP Bail out!"
	[ -z "$splats" ] || add "$(echo "$splats" | wc -l) splat line(s) in kernel log, first: $(echo "$splats" |
		head -n 1 | cut -c1-100)"
	# With 2 CPUs the kernel's console output can land right after the
	# verdict, before its newline: "ok 1 vmtest-guest[   57.5] ..."
	case $marker in
	'ok 1 vmtest-guest' | 'ok 1 vmtest-guest['*) ;;
	'not ok 1 vmtest-guest: '*) add "guest: ${marker#not ok 1 vmtest-guest: }" ;;
	*) add "no guest verdict (ok 1 vmtest-guest)" ;;
	esac
	if [ -z "$REASON" ]; then VERDICT=PASS; else VERDICT=FAIL; fi
}
