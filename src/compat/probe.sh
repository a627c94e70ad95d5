#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# compat/probe.sh: the work behind compat/probe.mk, whose header is the
# interface (the variables and targets) and says what the probes are.
#
#   probe.sh all | force | stamp | summary | clean
#
# The commands are probe.mk's targets, plus "stamp", which prints
# everything that decides the probe results (KDIR, the compiler, the
# forced list, utsrelease.h, the checksums of .config and autoconf.h, of
# this machinery and of the probes); "all" probes only when it differs
# from $OUT/.stamp or compat_config.h is missing.
#
# probe.mk resolves its variables (KDIR, OUT and PROBES absolute) and
# hands them over in the environment under the same names, with three
# of its own:
#
#   PROBE_CC        the compiler to pass to the kernel's make as CC=;
#                   unset or empty: the kernel's Makefile picks its own
#   PROBE_STAMP_CC  the compiler the stamp names (make's CC, whatever its
#                   origin); default PROBE_CC
#   PROBE_MAKE      the make to run the kernel's Makefile with (make)
#
# POSIX sh and coreutils only: this runs inside DKMS builds.

set -eu

compat_dir=$(cd "$(dirname "$0")" && pwd)

# Absolute, as probe.mk's $(abspath) makes them (this only prefixes $PWD).
abs() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$PWD/$1" ;;
	esac
}

KDIR=$(abs "${KDIR:-/lib/modules/$(uname -r)/build}")
OUT=$(abs "${OUT:-$compat_dir/generated}")
PROBES=$(abs "${PROBES:-$compat_dir/probes}")
PROBE_JOBS=${PROBE_JOBS:-$(nproc 2>/dev/null || echo 2)}
KEEP_PROBE_BUILD=${KEEP_PROBE_BUILD:-}
PROBE_CC=${PROBE_CC:-}
PROBE_STAMP_CC=${PROBE_STAMP_CC-$PROBE_CC}
PROBE_MAKE=${PROBE_MAKE:-make}
# One space between names, none around them.
force_false=
for name in ${COMPAT_FORCE_FALSE:-}; do
	force_false="${force_false:+$force_false }$name"
done

probe_build=$OUT/.probe-build
config_h=$OUT/compat_config.h
summary=$OUT/compat_summary.txt

# Warnings that mean "this API is not what the probe expects" become errors;
# anything else (a noisy header on a new gcc) must not turn a probe false.
probe_cflags='-Werror=implicit-function-declaration -Werror=implicit-int'
probe_cflags="$probe_cflags -Werror=incompatible-pointer-types -Werror=int-conversion"
probe_cflags="$probe_cflags -Werror=discarded-qualifiers -Werror=return-type"

upper() {
	echo "$1" | tr 'abcdefghijklmnopqrstuvwxyz' 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
}

lower() {
	echo "$1" | tr 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' 'abcdefghijklmnopqrstuvwxyz'
}

# Everything that decides the probe results; "all" compares it with .stamp.
stamp() {
	test -d "$KDIR" || {
		echo "compat: KDIR $KDIR not found" >&2
		exit 1
	}
	echo "kdir=$KDIR"
	echo "cc=$PROBE_STAMP_CC"
	# make's $(sort): byte order, duplicates dropped
	# shellcheck disable=SC2086 # one name per line
	echo "force_false=$(printf '%s\n' $force_false | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//')"
	cat "$KDIR/include/generated/utsrelease.h" 2>/dev/null || echo "no-utsrelease"
	for f in "$KDIR/.config" "$KDIR/include/generated/autoconf.h"; do
		if [ -f "$f" ]; then cksum <"$f"; else echo "no-$f"; fi
	done
	cat "$compat_dir/probe.mk" "$compat_dir/probe.sh" "$PROBES"/*.c | cksum
}

# The kernel's make on the probe module, with CC only when it was chosen.
# The caller's MAKEFLAGS (its -j, its jobserver, its variables) stay out:
# the pass runs its own -j.
kbuild() {
	if [ -n "$PROBE_CC" ]; then
		set -- CC="$PROBE_CC" "$@"
	fi
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		"$PROBE_MAKE" -C "$KDIR" M="$probe_build" "$@"
}

force() {
	test -f "$KDIR/Makefile" || {
		echo "compat: no kernel build directory at KDIR=$KDIR" >&2
		exit 1
	}
	new_stamp=$(stamp)
	mkdir -p "$OUT"
	rm -rf "$probe_build"
	mkdir -p "$probe_build"
	printf '%s\n' '#include <linux/module.h>' \
		'static int __maybe_unused compat_sanity(void)' \
		'{' '	return 0;' '}' >"$probe_build/compat_sanity.c"
	echo 'obj-m += compat_sanity.o' >"$probe_build/Kbuild"
	echo "ccflags-y += $probe_cflags" >>"$probe_build/Kbuild"
	names=
	for f in "$PROBES"/*.c; do
		n=$(basename "$f" .c)
		case $n in
		*[!a-z0-9_]* | compat_sanity)
			echo "compat: bad probe name $n" >&2
			exit 1
			;;
		esac
		cp "$f" "$probe_build/"
		echo "obj-m += $n.o" >>"$probe_build/Kbuild"
		names="$names $n"
	done
	for m in $force_false; do
		case $m in
		HAVE_*) n=$(lower "${m#HAVE_}") ;;
		*) n= ;;
		esac
		if [ -z "$n" ] || [ ! -f "$PROBES/$n.c" ]; then
			echo "compat: COMPAT_FORCE_FALSE names $m, which is no probe" >&2
			exit 1
		fi
	done
	# shellcheck disable=SC2086 # counts the words
	echo "  COMPAT  probing $(echo $names | wc -w) kernel APIs in $KDIR"
	kbuild KBUILD_MODPOST_WARN=1 -k -j"$PROBE_JOBS" modules \
		>"$OUT/probe.log" 2>&1 || true
	if [ ! -f "$probe_build/compat_sanity.o" ]; then
		echo "compat: the sanity probe did not build against $KDIR;" >&2
		echo "compat: compiler or kernel build directory is broken:" >&2
		tail -n 30 "$OUT/probe.log" >&2
		exit 1
	fi
	uts=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' \
		"$KDIR/include/generated/utsrelease.h" 2>/dev/null)
	tmp=$config_h.tmp
	stmp=$summary.tmp
	{
		echo '/* SPDX-License-Identifier: GPL-2.0-or-later */'
		echo '/*'
		echo ' * Generated by compat/probe.mk - do not edit.'
		echo " * Kernel: $uts"
		echo " * KDIR: $KDIR"
		if [ -n "$force_false" ]; then
			echo ' * Test build: COMPAT_FORCE_FALSE turned probes off.'
		fi
		echo ' */'
		echo '#ifndef MPT3SAS_COMPAT_CONFIG_H'
		echo '#define MPT3SAS_COMPAT_CONFIG_H'
		echo
	} >"$tmp"
	yes=0
	no=0
	echo "compat probes for $uts ($KDIR):" >"$stmp"
	for n in $names; do
		m=HAVE_$(upper "$n")
		case " $force_false " in
		*" $m "*)
			echo "/* $m forced false by COMPAT_FORCE_FALSE */" >>"$tmp"
			printf '  %-44s no (forced)\n' "$m" >>"$stmp"
			no=$((no + 1))
			;;
		*)
			if [ -f "$probe_build/$n.o" ]; then
				echo "#define $m 1" >>"$tmp"
				printf '  %-44s yes\n' "$m" >>"$stmp"
				yes=$((yes + 1))
			else
				echo "/* #undef $m */" >>"$tmp"
				printf '  %-44s no\n' "$m" >>"$stmp"
				no=$((no + 1))
			fi
			;;
		esac
	done
	{
		echo
		echo '#endif /* MPT3SAS_COMPAT_CONFIG_H */'
	} >>"$tmp"
	# shellcheck disable=SC2086 # counts the words, as given
	nforced=$(echo ${COMPAT_FORCE_FALSE:-} | wc -w)
	if [ "$nforced" -gt 0 ]; then
		echo "compat: $nforced forced false by COMPAT_FORCE_FALSE" >>"$stmp"
	fi
	echo "compat: $uts: $((yes + no)) probes, $yes yes, $no no" >>"$stmp"
	mv -f "$tmp" "$config_h"
	mv -f "$stmp" "$summary"
	echo "$new_stamp" >"$OUT/.stamp"
	if [ "$KEEP_PROBE_BUILD" != 1 ]; then rm -rf "$probe_build"; fi
	if [ "$nforced" -gt 0 ]; then forced=" ($nforced forced false)"; else forced=; fi
	echo "  COMPAT  $uts: $yes of $((yes + no)) APIs present$forced -> $config_h"
}

all() {
	new_stamp=$(stamp)
	if [ -f "$config_h" ] && [ -f "$OUT/.stamp" ] &&
		[ "$new_stamp" = "$(cat "$OUT/.stamp")" ]; then
		echo "  COMPAT  $config_h is up to date"
	else
		force
	fi
}

case ${1:-all} in
all) all ;;
force) force ;;
stamp) stamp ;;
summary) cat "$summary" ;;
clean)
	echo "rm -rf $probe_build $config_h $summary $OUT/probe.log $OUT/.stamp"
	rm -rf "$probe_build" "$config_h" "$summary" "$OUT/probe.log" "$OUT/.stamp"
	;;
*)
	echo "usage: probe.sh all|force|stamp|summary|clean" >&2
	exit 2
	;;
esac
