#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Our fixes of upstream bugs (the 03xx patches of src/mpt3sas/patches/) as
# a series to post upstream: git format-patch files against the pristine
# pinned driver, laid out as mainline's drivers/scsi/mpt3sas/, and a cover
# letter.  The series is then checked: git am applies it in order to a
# fresh pristine repository; checkpatch --strict (the pinned linux-source's)
# finds nothing but the missing Signed-off-by, which is the submitter's to
# add, and the kinds of allowed_findings below; every Fixes: tag names a
# commit of upstream-commits.  The patches that upstream-held names stay
# out of the series, and the cover letter says why.
#
# A patch file's header may name its author ("From: Name <mail>": a fix
# posted by someone else, which goes out under their name with an in-body
# From: line) and say how its bug was found ("Found: ..."); without that
# line the cover letter takes the message's paragraph that begins with
# "Found", up to its first colon.  A fix whose header and message say
# neither is refused.
#
#   upstream-series.sh write UPSTREAM_DIR OUTDIR   write the series, check it
#   upstream-series.sh check UPSTREAM_DIR OUTDIR   check a written series
#
# UPSTREAM_DIR is what `make upstream` extracts (build/upstream).
# Environment: PATCHES (default src/mpt3sas/patches), AUTHOR ("Name <mail>",
# default this checkout's git identity), LINUX_GIT_DIR (a clone of Linux:
# checkpatch then also looks the commit ids up in it).

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
patches=${PATCHES:-$top/src/mpt3sas/patches}
lock=$top/src/mpt3sas/upstream.lock
drvdir=drivers/scsi/mpt3sas

LOG_TAG='upstream-series'
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

# What checkpatch --strict may report on the series besides the missing
# sign-off, each with the reason; any other finding fails the check.  The
# fixes keep the driver's own names and style on the lines they touch.
allowed_findings="
CAMELCASE MPI names of upstream's headers (MaxReplyDescriptorPostQueueDepth)
"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

usage() {
	echo "usage: $0 write|check UPSTREAM_DIR OUTDIR" >&2
	exit 2
}

# Scratch repositories commit with fixed identities, whatever the git
# configuration of whoever runs this.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_COMMITTER_NAME='upstream-series' GIT_COMMITTER_EMAIL='upstream-series@localhost'

lock_get() {
	sed -n "s/^$1=//p" "$lock"
}

# pristine_repo UPSTREAM_DIR REPO: a git repository holding the pinned
# driver, untouched, at drivers/scsi/mpt3sas/, in one commit
pristine_repo() {
	local upstream=$1 repo=$2

	[ -d "$upstream/$drvdir" ] || die "no pristine driver in $upstream/$drvdir: run make upstream"
	git init -q "$repo"
	mkdir -p "$repo/${drvdir%/*}"
	cp -r "$upstream/$drvdir" "$repo/$drvdir"
	git -C "$repo" add -A
	GIT_AUTHOR_NAME='upstream-series' GIT_AUTHOR_EMAIL='upstream-series@localhost' \
		GIT_AUTHOR_DATE='@0 +0000' GIT_COMMITTER_DATE='@0 +0000' \
		git -C "$repo" commit -q -m "mpt3sas: the pinned driver, $(lock_get driver_version)"
}

# The 03xx patches of the series, in order; a letter after the number
# (0300a) puts a patch between two others
upstream_fixes() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$patches/series" | grep '^03[0-9][0-9][a-z]\{0,1\}-' || true
}

# held_reason PATCH: why upstream-held holds PATCH out; fails if it does not
held_reason() {
	[ -f "$patches/upstream-held" ] || return 1
	awk -v p="$1" '!/^#/ && $1 == p { print substr($0, length($1) + 2); found = 1 }
		END { exit !found }' "$patches/upstream-held"
}

# The 03xx patches that go upstream, in order
fixes() {
	local p

	upstream_fixes | while read -r p; do
		held_reason "$p" >/dev/null || echo "$p"
	done
}

# Parts of one of our patch files: the subject without its "[PATCH nnnn]",
# the message (from the paragraph after the Subject to the first "---"
# line) and the diff (after it)
subject_of() {
	sed -n '1,/^$/s/^Subject: *\(\[[^]]*\] *\)\{0,1\}//p' "$1" | head -n 1
}

message_of() {
	awk 'done { next } /^---$/ { done = 1; next } body { print; next }
		/^$/ { body = 1 }' "$1"
}

diff_of() {
	sed '1,/^---$/d' "$1"
}

# header_of PATCH FIELD: the value of FIELD in the patch file's header
header_of() {
	sed -n "1,/^\$/s/^$2: *//p" "$1" | head -n 1
}

# author_of PATCH: "Name <mail>" of the header's From:, if it has a mail
author_of() {
	header_of "$1" From | grep -E '^[^<>]+ <[^<>@ ]+@[^<>@ ]+>$' || true
}

# found_of PATCH: how the patch's bug was found, on one line: the header's
# Found:, else the message's paragraph that begins with "Found", up to its
# first colon; fails if neither says
found_of() {
	local found

	found=$(header_of "$1" Found)
	[ -n "$found" ] || found=$(message_of "$1" | awk '
		/^Found / && !p { p = 1 }
		p && /^$/ { exit }
		p { printf "%s%s", sep, $0; sep = " " }' | sed 's/^Found //; s/: .*//; s/[.:]$//')
	[ -n "$found" ] && echo "$found"
}

# author: "Name <mail>" of the patches
author() {
	local ident

	if [ -n "${AUTHOR:-}" ]; then
		echo "$AUTHOR"
		return
	fi
	ident=$(env -u GIT_CONFIG_GLOBAL -u GIT_CONFIG_NOSYSTEM git -C "$top" var GIT_AUTHOR_IDENT 2>/dev/null) ||
		die "no git identity to write the patches as: set AUTHOR='Name <mail>'"
	echo "${ident% * *}"
}

# date_of PATCH: when the patch file was last committed here, so that the
# series only changes with the patches; now if it never was
date_of() {
	local d

	d=$(git -C "$top" log -1 --format='%ad' --date=raw -- "$1" 2>/dev/null || true)
	echo "${d:-$(date +'%s %z')}"
}

# checkpatch UPSTREAM_DIR DIR PATCH: the pinned checkpatch's findings on
# PATCH, one a line ("FILE:LINE: LEVEL:TYPE: message"), run in DIR.
# checkpatch looks the commit ids a patch names up with git, in GIT_DIR:
# LINUX_GIT_DIR if given; else a repository with no history, to which
# every id is unknown, and upstream-commits is checked instead.
checkpatch() {
	local upstream=$1 dir=$2 p=$3
	local -a opts=(--strict --no-tree --terse --show-types --no-summary)

	cd "$dir" || return 1
	if [ -n "${LINUX_GIT_DIR:-}" ]; then
		export GIT_DIR=$LINUX_GIT_DIR
	else
		[ -d nohistory ] || { git init -q nohistory &&
			GIT_AUTHOR_NAME='upstream-series' GIT_AUTHOR_EMAIL='upstream-series@localhost' \
			git -C nohistory commit -q --allow-empty -m 'no history'; } >&2 || return 1
		export GIT_DIR=$dir/nohistory/.git
		opts+=(--ignore UNKNOWN_COMMIT_ID)
	fi
	perl "$upstream/scripts/checkpatch.pl" "${opts[@]}" "$p" 2>&1
	return 0
}

# findings UPSTREAM_DIR DIR PATCH...: checkpatch's findings on the patches,
# one a line, "TYPE PATCH: LINE: LEVEL:TYPE: message" ("?" for a line of
# checkpatch's that has no type); fails if checkpatch did not run: every
# patch without a sign-off must have that finding
findings() {
	local upstream=$1 dir=$2 p line type out
	shift 2

	for p in "$@"; do
		out=$(checkpatch "$upstream" "$dir" "$p")
		grep -q '^Signed-off-by:' "$p" || grep -q ':MISSING_SIGN_OFF:' <<<"$out" || {
			printf '%s\n' "$out" | sed 's/^/  /' >&2
			die "checkpatch did not check ${p##*/}"
		}
		while IFS= read -r line; do
			[ -n "$line" ] || continue
			type=$(sed -n 's/^[^:]*:[0-9]*: [A-Z]*:\([A-Z_0-9]*\):.*/\1/p' <<<"$line")
			echo "${type:-?} ${p##*/}: ${line#"$p":}"
		done <<<"$out"
	done
}

# allowed TYPE: whether the series may have findings of TYPE
allowed() {
	[ "$1" = MISSING_SIGN_OFF ] || grep -q "^$1 " <<<"$allowed_findings"
}

# cover_letter REPO N FILE FINDINGS: fill in git's cover letter FILE for
# the last N commits of REPO, FINDINGS being checkpatch's on the series
cover_letter() {
	local repo=$1 n=$2 file=$3 findings=$4 i=0 c p t held=0 kinds signed
	local -a names

	mapfile -t names < <(fixes)
	{
		cat <<EOF
These patches fix bugs of the mpt3sas driver.  Most were found by
running it against an emulated SAS3008 controller, a QEMU device model
written for testing and not real hardware, that can report unusual IOC
Facts, answer requests wrongly or fault, and with fault injection in
the driver's DMA allocations.  Below each patch, how its bug was found;
each patch says how it was reproduced on the emulated controller.

EOF
		for c in $(git -C "$repo" rev-list --reverse "HEAD~$n..HEAD"); do
			i=$((i + 1))
			printf '%d/%d %s\n' "$i" "$n" "$(git -C "$repo" log -1 --format=%s "$c")"
			# shellcheck disable=SC2154 # the caller sets it for this call
			[ "$(git -C "$repo" log -1 --format=%ae "$c")" = "$submitter" ] ||
				git -C "$repo" log -1 --format='    by %an <%ae>' "$c"
			found_of "$patches/${names[i - 1]}" | fold -s -w 64 |
				sed 's/ *$//; 1s/^/    found: /; 2,$s/^/      /'
			git -C "$repo" log -1 --format=%B "$c" |
				grep -E '^(Fixes|Link|Cc): ' | sed 's/^/    /' || true
		done
		signed=$(for c in $(git -C "$repo" rev-list --reverse "HEAD~$n..HEAD"); do
			git -C "$repo" log -1 --format=%B "$c" | grep -q '^Signed-off-by: ' &&
				git -C "$repo" log -1 --format=%an "$c"
		done | sort -u | paste -sd, - | sed 's/,/, /g')
		if [ -z "$signed" ]; then
			cat <<EOF

None of the patches carries a Signed-off-by: line: the sign-off is the
submitter's to add, certifying the Developer's Certificate of Origin.
EOF
		else
			cat <<EOF

None of the patches carries the submitter's Signed-off-by: line, which
is theirs to add, certifying the Developer's Certificate of Origin; a
patch posted before by another author keeps that author's ($signed).
EOF
		fi
		kinds=$(cut -d' ' -f1 "$findings" | grep -vx MISSING_SIGN_OFF | sort | uniq -c || true)
		if [ -z "$kinds" ]; then
			echo "checkpatch --strict reports nothing else."
		else
			echo "Besides, checkpatch --strict reports only these CHECKs:"
			while read -r c t; do
				printf '  %s (%d): %s\n' "$t" "$c" \
					"$(sed -n "s/^$t //p" <<<"$allowed_findings")"
			done <<<"$kinds"
		fi
		cat <<EOF

The patches are made against mpt3sas $(lock_get driver_version) as Debian's
$(lock_get package) $(lock_get version) ships it: rebase them onto the
SCSI tree before posting.
EOF
		while read -r p; do
			held_reason "$p" >/dev/null || continue
			[ $held = 1 ] || printf '\nHeld out of this series until decided:\n'
			held=1
			printf '\n- "%s":\n' "$(subject_of "$patches/$p")"
			held_reason "$p" | fold -s -w 70 | sed 's/ *$//; s/^/  /'
		done < <(upstream_fixes)
	} >"$file.blurb"
	awk -v blurb="$file.blurb" '
		/\*\*\* SUBJECT HERE \*\*\*/ {
			sub(/\*\*\* SUBJECT HERE \*\*\*/, "scsi: mpt3sas: Fixes found on an emulated SAS3008")
		}
		/^\*\*\* BLURB HERE \*\*\*$/ {
			while ((getline line < blurb) > 0)
				print line
			next
		}
		{ print }' "$file" >"$file.new"
	grep -q 'HERE \*\*\*' "$file.new" && die "git's cover letter was not filled in"
	mv "$file.new" "$file"
	rm -f "$file.blurb"
}

# patches_in DIR: the series' patches in DIR, cover letter apart, in order
patches_in() {
	find "$1" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-cover-letter.patch' | sort
}

cmd_write() {
	local upstream=$1 out=$2 tmp=$scratch/write repo p n=0 who name mail by
	local -a series

	mkdir -p "$tmp"
	repo=$tmp/linux
	pristine_repo "$upstream" "$repo"
	who=$(author)
	name=${who% <*}
	mail=${who##*<}
	mail=${mail%>*}
	while read -r p; do
		[ -f "$patches/$p" ] || die "series names $p, which is missing"
		found_of "$patches/$p" >/dev/null ||
			die "$p says not how its bug was found: no Found: in its header, no paragraph of its message that begins with \"Found\""
		diff_of "$patches/$p" >"$tmp/diff"
		if ! patch -d "$repo/${drvdir%/*}" -p1 --fuzz=0 --forward --batch \
				--no-backup-if-mismatch -r - <"$tmp/diff" >"$tmp/patch.out" 2>&1; then
			sed 's/^/  /' "$tmp/patch.out" >&2
			die "$p does not apply to the pristine driver"
		fi
		{ subject_of "$patches/$p"; echo; message_of "$patches/$p"; } >"$tmp/msg"
		git -C "$repo" add -A
		by=$(author_of "$patches/$p")
		by=${by:-$who}
		GIT_AUTHOR_NAME=${by% <*} GIT_AUTHOR_EMAIL=$(sed 's/.*<//; s/>.*//' <<<"$by") \
			GIT_AUTHOR_DATE=$(date_of "$patches/$p") GIT_COMMITTER_DATE=$(date_of "$patches/$p") \
			git -C "$repo" commit -q --cleanup=whitespace -F "$tmp/msg"
		n=$((n + 1))
	done < <(fixes)
	[ "$n" -gt 0 ] || die "no 03xx patch in $patches/series to write"

	rm -rf "$out"
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	# The cover letter is the submitter's too, who sends every patch: one
	# of another author's gets an in-body From: line.
	GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$mail \
		git -C "$repo" format-patch -q --cover-letter --no-signature \
		--from="$name <$mail>" -o "$out" "HEAD~$n"
	mapfile -t series < <(patches_in "$out")
	findings "$upstream" "$tmp" "${series[@]}" >"$tmp/findings"
	submitter=$mail cover_letter "$repo" "$n" "$out/0000-cover-letter.patch" "$tmp/findings"
	echo "upstream-series: $n patches and a cover letter in $out"
	cmd_check "$upstream" "$out"
}

cmd_check() {
	local upstream=$1 out tmp=$scratch/check repo type rest bad=0 fixes_bad
	local -a series

	out=$(cd "$2" && pwd) || die "no series in $2"
	[ -f "$upstream/scripts/checkpatch.pl" ] || die "no $upstream/scripts/checkpatch.pl: run make upstream"
	mapfile -t series < <(patches_in "$out")
	[ ${#series[@]} -gt 0 ] || die "no patches in $out"
	[ -f "$out/0000-cover-letter.patch" ] || die "no cover letter in $out"

	mkdir -p "$tmp"
	repo=$tmp/linux
	pristine_repo "$upstream" "$repo"
	if ! git -C "$repo" am -q "${series[@]}" >"$tmp/am.out" 2>&1; then
		sed 's/^/  /' "$tmp/am.out" >&2
		die "git am does not apply the series in $out to the pristine driver"
	fi
	[ "$(git -C "$repo" rev-list --count HEAD)" = $((${#series[@]} + 1)) ] ||
		die "git am did not commit every patch of $out"
	echo "upstream-series: git am applies the ${#series[@]} patches to the pristine driver"

	findings "$upstream" "$tmp" "${series[@]}" >"$tmp/findings"
	while read -r type rest; do
		allowed "$type" && continue
		echo "  $rest" >&2
		bad=$((bad + 1))
	done <"$tmp/findings"
	[ "$bad" = 0 ] || die "checkpatch --strict: $bad findings"
	echo "upstream-series: checkpatch --strict finds nothing but what is allowed:"
	cut -d' ' -f1 "$tmp/findings" | sort | uniq -c | sed 's/^ */  /'

	fixes_bad=$(awk '
		FNR == NR {
			if (!/^#/ && NF > 1)
				title[substr($1, 1, 12)] = substr($0, length($1) + 2)
			next
		}
		/^Fixes: / {
			t = $0
			sub(/^Fixes: [0-9a-f]+ \("/, "", t)
			sub(/"\)$/, "", t)
			if (length($2) != 12 || !($2 in title) || title[$2] != t)
				print FILENAME ": " $0
		}' "$patches/upstream-commits" "${series[@]}")
	[ -z "$fixes_bad" ] || {
		printf '%s\n' "$fixes_bad" | sed 's/^/  /' >&2
		die "Fixes: tags that upstream-commits does not hold"
	}
	grep -q '^Fixes: ' "${series[@]}" || die "no Fixes: tag in the series"
	echo "upstream-series: every Fixes: tag names a commit of upstream-commits"
}

[ $# -eq 3 ] || usage
upstream=$(cd "$2" && pwd) || die "no such directory: $2"
case $1 in
write) cmd_write "$upstream" "$3" ;;
check) cmd_check "$upstream" "$3" ;;
*) usage ;;
esac
