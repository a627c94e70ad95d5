#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compat-fallbacks.sh [SERIES...] (default: those tagged fallbacks)
#
# Debian has no headers older than 5.10, but packaging/kernel-min (4.15)
# lacks many probed APIs: so build/tree is built against newer series with
# every probe newer than kernel-min (its " * Since: vX.Y" line) forced
# false, taking the fallbacks it takes on 4.15.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$top/build/tree
out=$top/build/compat-fallbacks
jobs=2
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
series_list=${*:-$(kernel_series fallbacks)}

# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header

# Probes kept as the kernel reports them, as their fallback uses what that
# series no longer has: HAVE_NAME series...: reason
KEEP='
HAVE_PCI_DISABLE_LINK_STATE 5.10 6.1: <linux/pci-aspm.h> was removed in v5.4, when its declarations moved to <linux/pci.h>
HAVE_SCSI_HOST_BUSY 5.10 6.1: the atomic_t Scsi_Host.host_busy is gone, scsi_host_busy() counts busy tags
HAVE_SCSI_DEVICE_BUSY 6.1: scsi_device.device_busy (atomic_t until v5.12) became the budget_map sbitmap in v5.13
HAVE_SCSI_DONE 6.1: scsi_cmnd.scsi_done was removed in v5.16
HAVE_SCSI_CMD_TO_RQ 6.1: scsi_cmnd.request was removed in v5.16
HAVE_SCSI_BUILD_SENSE 6.1: DRIVER_SENSE was removed in v5.14
HAVE_SHT_SDEV_GROUPS 6.1: scsi_host_template.sdev_attrs was removed in v5.16
'

kept_in() { # HAVE_NAME SERIES: is the probe kept for that series?
	echo "$KEEP" | grep "^$1 " | cut -d: -f1 | grep -qwF -- "$2"
}

{ [ -f "$tree/Makefile" ] && [ -f "$tree/compat/probe.mk" ]; } ||
	ktap_exit_fail_msg "no assembled tree in $tree (run make tree)"

# The oldest supported series and the probes newer than it.
min=$(grep -v -e '^#' -e '^[[:space:]]*$' "$top/packaging/kernel-min" | head -n 1)
forced=
for f in "$tree"/compat/probes/*.c; do
	m=HAVE_$(basename "$f" .c | tr '[:lower:]' '[:upper:]')
	# compat-probes checks that each probe has one
	since=$(sed -n 's/^ \* Since: v\([0-9][0-9.]*\)\( .*\)\{0,1\}$/\1/p' "$f")
	# newer than kernel-min: sort -V puts it last and it differs
	if [ "$since" != "$min" ] &&
	   [ "$(printf '%s\n%s\n' "$min" "$since" | sort -V | tail -n 1)" = "$since" ]; then
		forced="$forced $m"
	fi
done
nforced=$(echo "$forced" | wc -w)
echo "compat-fallbacks: kernel-min $min, $nforced probes newer:$forced"
[ "$nforced" -gt 0 ] || ktap_test_fail "no probe is newer than $min"

# KEEP must name probes that are forced, so that it cannot go stale.
for m in $(echo "$KEEP" | awk 'NF { print $1 }'); do
	case " $forced " in
	*" $m "*) ;;
	*) ktap_test_fail "KEEP names $m, which is not forced false for $min" ;;
	esac
done

mkdir -p "$out"

first=
for series in $series_list; do
	log=$out/$series.log
	if ! "$top/tests/kernels/fetch.sh" "$series" > "$log" 2>&1; then
		ktap_test_fail "$series: no kernel (tests/kernels/fetch.sh $series, see $log)"
		continue
	fi
	# shellcheck disable=SC1090 # written by fetch.sh
	. "$(series_env "$series")"

	list=
	for m in $forced; do
		kept_in "$m" "$series" &&
			echo "KEEP  $series: $m as probed:$(echo "$KEEP" | grep "^$m " | cut -d: -f2-)" &&
			continue
		list="$list $m"
	done
	list=${list# }

	obj=$out/$series/tree
	rm -rf "${out:?}/$series"
	mkdir -p "$out/$series"
	cp -r "$tree" "$obj"
	start=$(date +%s)
	# shellcheck disable=SC2086 # KMAKEFLAGS is a word list
	if make -C "$obj" -j"$jobs" KVER="$KVER" KDIR="$KDIR" CP_WERROR=1 \
		COMPAT_FORCE_FALSE="$list" $KMAKEFLAGS >> "$log" 2>&1 &&
	   [ -f "$obj/mpt3sas.ko" ]; then
		ktap_test_pass "$series: mpt3sas.ko builds with $(echo $list | wc -w) probes forced false ($(($(date +%s) - start))s)"
	else
		ktap_test_fail "$series: build with probes forced false (log: $log)"
		grep -E 'error|warning|undefined' "$log" | head -n 20 | sed 's/^/# | /'
		continue
	fi
	[ -n "$first" ] || first=$series

	h=$obj/compat/generated/compat_config.h
	bad=
	for m in $list; do
		grep -qx "/\* $m forced false by COMPAT_FORCE_FALSE \*/" "$h" || bad="$bad $m"
	done
	ktap_test_result "$series: compat_config.h has every forced probe off${bad:+; not:$bad}" [ -z "$bad" ]

	undef=
	for s in $(nm -u "$obj/mpt3sas.ko" | awk '{ print $2 }'); do
		awk -v s="$s" '$2 == s { f = 1; exit } END { exit !f }' \
			"$KDIR/Module.symvers" || undef="$undef $s"
	done
	ktap_test_result "$series: every undefined symbol is exported by $KVER${undef:+; not:$undef}" \
		[ -z "$undef" ]

	vermagic=$(modinfo -F vermagic "$obj/mpt3sas.ko" 2>&1)
	ktap_test_result "$series: modinfo: version $(modinfo -F version "$obj/mpt3sas.ko" 2>&1), vermagic '$vermagic', want $KVER" \
		[ "${vermagic%% *}" = "$KVER" ]

	# shellcheck disable=SC2086 # KMAKEFLAGS is a word list
	make -C "$KDIR" M="$obj" $KMAKEFLAGS mpt3sas/mpt3sas_scsih.i >> "$log" 2>&1
	tpl=$(awk 'index($0, "mpt3sas_driver_template = {") { p = 1 } p { print }
		p && /^};/ { exit }' "$obj/mpt3sas/mpt3sas_scsih.i")
	bad=
	[ -n "$tpl" ] || bad=" nothing: no mpt3sas_driver_template in mpt3sas_scsih.i (log: $log)"
	echo "$tpl" | grep -q '\.sdev_attrs = mpt3sas_compat_sdev_attrs' ||
		kept_in HAVE_SHT_SDEV_GROUPS "$series" || bad="$bad no-.sdev_attrs"
	for member in map_queues mq_poll max_segment_size shost_groups sdev_groups; do
		[ "$member" = sdev_groups ] && kept_in HAVE_SHT_SDEV_GROUPS "$series" && continue
		echo "$tpl" | grep -q "\.$member = " && bad="$bad .$member"
	done
	ktap_test_result "$series: host template as on $min (no .map_queues, .mq_poll, .max_segment_size, groups)${bad:+; has:$bad}" \
		[ -z "$bad" ]
done

# Self-check: a syntax error in the sysfs_emit() fallback (before v5.10)
# of a copy of compat/renames.h fails the forced build of one object, and
# not a build with the kernel's own probe results.
if [ -n "$first" ]; then
	series=$first
	# shellcheck disable=SC1090 # written by fetch.sh
	. "$(series_env "$series")"
	log=$out/selfcheck.log
	planted=$out/selfcheck/tree
	rm -rf "$out/selfcheck"
	mkdir -p "$out/selfcheck"
	cp -r "$tree" "$planted"
	sed -i '/^#ifndef HAVE_SYSFS_EMIT$/a\
static int mpt3sas_compat_planted_error = ;' "$planted/compat/renames.h"
	cp -r "$out/$series/tree/compat/generated" "$planted/compat/"
	# shellcheck disable=SC2086 # KMAKEFLAGS is a word list
	ktap_test_red "self-check: a syntax error in a fallback breaks the forced build" \
		mpt3sas_compat_planted_error make -C "$KDIR" M="$planted" $KMAKEFLAGS \
		mpt3sas/mpt3sas_config.o
	rm -rf "$planted/compat/generated" "$planted/mpt3sas/mpt3sas_config.o"
	# shellcheck disable=SC2086 # KMAKEFLAGS is a word list
	unforced() {
		make -f "$planted/compat/probe.mk" KDIR="$KDIR" \
			OUT="$planted/compat/generated" $KMAKEFLAGS > "$log" 2>&1 &&
			make -C "$KDIR" M="$planted" $KMAKEFLAGS mpt3sas/mpt3sas_config.o >> "$log" 2>&1
	}
	ktap_test_result "self-check: without forcing, the planted error is not compiled (log: $log)" \
		unforced
fi

ktap_finished
