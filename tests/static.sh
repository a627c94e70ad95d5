#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The pinned kernel's checkers on our own C and patches, shellcheck on our
# shell; an exception needs its reason below.

set -eu

# shellcheck source=tests/lib/upstream.sh
. "$(dirname "$0")/lib/upstream.sh"
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
cd "$top"
scripts=build/upstream/scripts
ktap_set_plan 4

own_c=$(git ls-files 'src/chainpool/*.[ch]' 'src/mpt3sas/*.[ch]' \
	'src/compat/*.[ch]' 'tests/kmod/*.c' 'tests/lib/*.[ch]' \
	'bench/kernel/*.c' 'tests/unit/kernel/*.[ch]')

# file glob (or "patches") checkpatch-type: why
exceptions="
tests/unit/kernel/kshim.h NEW_TYPEDEFS: the user-space stand-ins define the kernel's own typedef names (gfp_t, spinlock_t)
tests/unit/kernel/kshim.h MACRO_ARG_REUSE: the stand-ins of min(), ALIGN() and others use their arguments twice, as the kernel's own do
tests/unit/kernel/kshim.h MACRO_ARG_UNUSED: the stand-ins of module_param() and friends drop what user space has no use for
tests/unit/kernel/kshim.h PREFER_DEFINED_ATTRIBUTE_MACRO: defines those very macros (__printf(), __noreturn) for user space
src/compat/*.h CAMELCASE: Scsi_Host is the kernel's own type name
src/compat/probes/*.c CAMELCASE: Scsi_Host is the kernel's own type name
src/compat/host_template.h MACRO_ARG_UNUSED: the macros drop a host template member on kernels that lack it
src/compat/renames.h MACRO_ARG_REUSE: the memtostr() and struct_size() fallbacks mirror the kernel's macros of the same names
src/chainpool/*.c ALLOC_WITH_SIZEOF: kzalloc_obj() is v7.0's, and chainpool.c is written for the kernels before it too
src/mpt3sas/cp_dmapool.c ALLOC_WITH_SIZEOF: kzalloc_obj() is v7.0's, and our own code builds on 4.15 without the compat layer
tests/kmod/*.c ALLOC_WITH_SIZEOF: kzalloc_obj() is v7.0's, and the test module builds on 4.15 without the compat layer
patches CAMELCASE: upstream identifiers (ChipName, Scsi_Host) on lines our patches touch
patches PARENTHESIS_ALIGNMENT: touched lines keep upstream's continuation style
patches UNKNOWN_COMMIT_ID: the Fixes: tags name Linux commits, which are not in this repository's history
"

allowed() {
	local where=$1 type=$2 glob t _

	while read -r glob t _; do
		# shellcheck disable=SC2053 # the glob is meant to match
		[[ -n "$glob" && $where == $glob && "$t" == "$type:" ]] && return 0
	done <<<"$exceptions"
	return 1
}

# checkpatch WHERE PREFIX ARGS...: count in found the findings that the
# exceptions for WHERE do not allow; --terse --show-types prints
# "FILE:LINE: LEVEL:TYPE: message"
checkpatch() {
	local where=$1 prefix=$2 line type
	shift 2
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		type=$(sed -n 's/^[^:]*:[0-9]*: [A-Z]*:\([A-Z_0-9]*\):.*/\1/p' <<<"$line")
		allowed "$where" "$type" && continue
		echo "# $prefix$line"
		found=$((found + 1))
	done < <(perl $scripts/checkpatch.pl --strict --no-tree --terse --show-types \
		--no-summary --no-signoff "$@" 2>&1 || true)
}

ktap_print_msg "checkpatch --strict: $(echo "$own_c" | wc -w) files"
found=0
for f in $own_c; do
	checkpatch "$f" "" -f "$f"
done
# stdin: checkpatch misreads patch files under a path named patches/
while read -r p; do
	checkpatch patches "$p: " - <"src/mpt3sas/patches/$p"
done < <(grep -v -e '^#' -e '^[[:space:]]*$' src/mpt3sas/patches/series)
ktap_test_result "checkpatch --strict: $found findings in our C and patches" [ "$found" = 0 ]

kdir=$(host_kdir) || ktap_exit_fail_msg "Debian 12's 6.1 headers are missing"
command -v sparse >/dev/null || ktap_exit_fail_msg "sparse is missing: apt-get install sparse"
obj=build/check/sparse
rm -rf $obj && mkdir -p build/check
cp -r build/tree $obj
make -s -C $obj KDIR="$kdir" probe >/dev/null
make -j"$(nproc)" -C "$kdir" M="$top/$obj" C=2 CHECK=sparse modules >build/check/sparse.out 2>&1 ||
	{ tail -n 20 build/check/sparse.out | sed 's/^/# /'; ktap_exit_fail_msg "the sparse build failed"; }
# Our files: the allocator, the compat headers and the driver-side glue.
ours=$(grep -E '^[^ ]*(/chainpool/|/compat/|/cp_dmapool\.)[^:]*:[0-9]+:[0-9]+: (warning|error)' \
	build/check/sparse.out || true)
[ -z "$ours" ] || printf '%s\n' "$ours" | sed 's/^/# /'
ktap_test_result "sparse (C=2) against Debian 12's 6.1: $(grep -cE ': (warning|error):' build/check/sparse.out || true) warnings in all, $(grep -c . <<<"$ours" || true) in our files" \
	[ -z "$ours" ]

command -v spatch >/dev/null || ktap_exit_fail_msg "coccinelle is missing: apt-get install coccinelle"
cdir=build/check/cocci
rm -rf $cdir
mkdir -p $cdir
# shellcheck disable=SC2086 # word list of files
cp --parents $own_c $cdir/
# A control that api/alloc/alloc_cast.cocci must report: without it, a
# coccicheck that ran no rule would pass.
printf '#include <linux/slab.h>\nint *control(void)\n{\n\treturn (int *)kmalloc(4, GFP_KERNEL);\n}\n' \
	>$cdir/control.c
srctree=$top/build/upstream srcroot=$top/$cdir KBUILD_EXTMOD=$top/$cdir \
	MODE=report V=0 bash $scripts/coccicheck >build/check/cocci.out 2>&1 || true
# Reports name a file and line; everything else is the script's chatter.
reports=$(grep -E "^$top/$cdir/[^:]+:[0-9]+:" build/check/cocci.out | grep -v "^$top/$cdir/control.c:" || true)
control=$(grep -c "^$top/$cdir/control.c:4:.*casting value returned by memory allocation" build/check/cocci.out || true)
[ -z "$reports" ] || printf '%s\n' "$reports" | sed "s|$top/$cdir/||; s/^/# /"
rules=$(find $scripts/coccinelle -name '*.cocci' | wc -l)
ok=false
[ -z "$reports" ] && [ "$control" = 1 ] && ok=true
ktap_test_result "coccinelle (scripts/coccinelle, report mode): $rules rules, $(grep -c . <<<"$reports" || true) reports in our files, the control's cast reported $control times" \
	$ok

# Every tracked *.sh and sh or bash script, whatever a ~/.shellcheckrc
# says, from the top (where "# shellcheck source=" paths start).  A
# disable directive without its reason on the same line is a finding.
command -v shellcheck >/dev/null || ktap_exit_fail_msg "shellcheck is missing: apt-get install shellcheck"
mapfile -t shell_files < <(git ls-files | while IFS= read -r f; do
	case $f in
	*.sh) echo "$f" ;;
	*) if [ -f "$f" ] && head -n 1 "$f" | grep -qE '^#! *(/usr)?/bin/(env +)?(ba)?sh([[:space:]]|$)'; then
		echo "$f"
	fi ;;
	esac
done)
# "FILE:LINE:COL: LEVEL: message [SCnnnn]"
findings=$(shellcheck --norc -x -f gcc "${shell_files[@]}" || true)
unexplained=$(grep -nE '#[[:space:]]*shellcheck[[:space:]].*disable=' "${shell_files[@]}" |
	grep -vE 'disable=[A-Z0-9,]+[[:space:]]+#[[:space:]]*[^[:space:]]' |
	sed 's/^\([^:]*:[0-9]*\):.*/\1:1: error: a disable without its reason on the same line/' || true)
findings=$(printf '%s\n' "$findings" "$unexplained" | grep . || true)
[ -z "$findings" ] || printf '%s\n' "$findings" | sed 's/^/# /'
ktap_test_result "shellcheck -x: ${#shell_files[@]} files, $(grep -c . <<<"$findings" || true) findings" \
	[ -z "$findings" ]
ktap_finished
