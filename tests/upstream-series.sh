#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make upstream-series, and its check going red on each fault planted in a
# scratch copy of the series or of our patches.
# shellcheck disable=SC2016 # awk programs, not to be expanded

set -eu

# shellcheck source=tests/lib/upstream.sh
. "$(dirname "$0")/lib/upstream.sh"
out=$top/build/upstream-series
gen=$top/scripts/upstream-series.sh
ktap_set_plan 12

# plant AWK FILE: rewrite FILE with the awk program AWK
plant() {
	awk "$1" "$2" >"$2.new"
	! cmp -s "$2" "$2.new" || ktap_exit_fail_msg "nothing planted in $2"
	mv "$2.new" "$2"
}
# in_series NAME AWK: a copy NAME of the written series, AWK planted in its
# first patch
in_series() {
	cp -r "$out" "$scratch/$1"
	plant "$2" "$(find "$scratch/$1" -name '0001-*.patch')"
}
# in_patches AWK [PATCH]: a fresh copy of our patches, AWK planted in PATCH
# (default: the first fix)
in_patches() {
	rm -rf "$scratch/patches"
	cp -r "$patches" "$scratch/patches"
	plant "$1" "$scratch/patches/${2:-$(grep -m1 "$fix_re" "$patches/series")}"
}
# The first context line of the first hunk, changed
mangle_context='h && !done && /^ / { $0 = $0 " /* planted */"; done = 1 } /^@@/ { h = 1 } { print }'

made() { make -s -C "$top" upstream-series >"$scratch/make.out" 2>&1; }
ktap_test_result "make upstream-series writes the series; git am, checkpatch and the Fixes: tags pass" made
sed 's/^/# | /' "$scratch/make.out"

patches=$top/src/mpt3sas/patches
# an upstream fix's file name: 03, two digits, maybe a letter (0300a)
fix_re='^03[0-9][0-9][a-z]\{0,1\}-'
fixes=$(grep -c "$fix_re" "$patches/series")
held=$(grep -c "$fix_re" "$patches/upstream-held" || true)
written=$(find "$out" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-cover-letter.patch' | wc -l)
ktap_test_result "the series has the $fixes fixes but the $held held: $written patches" \
	[ "$written" = $((fixes - held)) ]
cover_names_held() {
	local p subject

	# the section is there if and only if a fix is held
	[ "$(grep -c 'Held out of this series' "$out/0000-cover-letter.patch")" = $((held > 0)) ] ||
		return 1
	while read -r p _; do
		subject=$(sed -n 's/^Subject: \[[^]]*\] //p' "$patches/$p")
		grep -qF "\"$subject\"" "$out/0000-cover-letter.patch" || return 1
	done < <(grep "$fix_re" "$patches/upstream-held")
}
ktap_test_result "the cover letter names each held fix" cover_names_held

# authors_kept PATCHES OUT: each fix of PATCHES whose header names its
# author ("From: Name <mail>") is in OUT with that in-body From: line; the
# series in OUT has the fixes not held, in order
authors_kept() {
	local p by i=0 n=0
	local -a files

	mapfile -t files < <(find "$2" -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-cover-letter.patch' | sort)
	while read -r p; do
		grep -q "^$p\([[:space:]]\|$\)" "$1/upstream-held" 2>/dev/null && continue
		i=$((i + 1))
		by=$(sed -n '1,/^$/s/^From: *\(.* <.*@.*>\)$/\1/p' "$1/$p")
		[ -n "$by" ] || continue
		if ! { [ -f "${files[i - 1]:-}" ] && grep -qxF "From: $by" "${files[i - 1]}"; }; then
			echo "# $p: not from $by in $2"
			return 1
		fi
		n=$((n + 1))
	done < <(grep "$fix_re" "$1/series")
	echo "# $n fixes of another author"
}
ktap_test_result "a fix posted by another author goes out under that author's name" \
	authors_kept "$patches" "$out"

# cover_says_found COVER N: COVER says how each of N patches' bugs was found
cover_says_found() {
	[ "$(grep -c '^    found: ' "$1")" = "$2" ]
}
ktap_test_result "the cover letter says how each of the $written patches' bugs was found" \
	cover_says_found "$out/0000-cover-letter.patch" "$written"

in_series hunk "$mangle_context"
ktap_test_red "a patch whose hunk no longer applies fails git am" "git am does not apply" \
	"$gen" check "$upstream" "$scratch/hunk"

# the first added line, with a trailing blank
in_series blank 'h && !done && /^\+/ { $0 = $0 " "; done = 1 } /^@@/ { h = 1 } { print }'
ktap_test_red "a trailing blank on an added line fails checkpatch" "TRAILING_WHITESPACE" \
	"$gen" check "$upstream" "$scratch/blank"

in_series fixes '/^Fixes: / && !done { sub(/"\)$/, " planted\")"); done = 1 } { print }'
ktap_test_red "a Fixes: title that upstream-commits does not hold fails" "Fixes: tags that upstream-commits" \
	"$gen" check "$upstream" "$scratch/fixes"

in_patches "$mangle_context"
ktap_test_red "a fix that misses the pristine driver is refused" "does not apply to the pristine driver" \
	env PATCHES="$scratch/patches" "$gen" write "$upstream" "$scratch/written"

in_patches '/^Found:/ && !body { next } /^$/ { body = 1 } /^Found / { sub(/^Found /, "Seen ") } { print }'
ktap_test_red "a fix that says not how its bug was found is refused" "says not how its bug was found" \
	env PATCHES="$scratch/patches" "$gen" write "$upstream" "$scratch/written"

# the first fix of another author, written as ours (without the author's
# sign-off too, which checkpatch would miss)
other=$(grep "$fix_re" "$patches/series" | while read -r p; do
	sed -n '1,/^$/p' "$patches/$p" | grep -q '^From: .* <.*@.*>$' && { echo "$p"; break; }
done)
if [ -z "$other" ]; then
	ktap_test_skip "no fix of another author to plant into"
else
	in_patches 'NR == 1 && /^From: / { $0 = "From: mpt3sas-chainpool maintainers" }
		/^Signed-off-by: / { next } { print }' "$other"
	as_ours() {
		env PATCHES="$scratch/patches" "$gen" write "$upstream" "$scratch/written" &&
			authors_kept "$patches" "$scratch/written"
	}
	ktap_test_red "a fix of another author written as ours fails the author check" \
		"not from" as_ours
fi

awk '/^    found: / && !done { done = 1; skip = 1; next }
	skip && /^      / { next } { skip = 0; print }' "$out/0000-cover-letter.patch" >"$scratch/cover"
cover_lacks_found() { ! cover_says_found "$scratch/cover" "$written"; }
ktap_test_result "a cover letter without one found: line fails its check" cover_lacks_found
ktap_finished
