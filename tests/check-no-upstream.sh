#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# No upstream kernel file may be tracked by git: the repository holds the
# pin, the checksums and our patches, never the driver or kernel scripts.
#
#   check-no-upstream.sh [REPO]   check REPO (default: this checkout)
#
# A tracked file fails the check when its content equals any file the
# build extracted from upstream (driver and checker scripts), when it
# carries upstream's copyright banner, or when it is named like a driver
# file outside the patch series.  Without arguments the check first proves
# on a scratch clone that it catches a planted upstream file.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
upstream=$top/build/upstream
repo=${1:-$top}
banner='LSI Corporation'

[ -d "$upstream/drivers/scsi/mpt3sas" ] ||
	{ echo "no extracted upstream in $upstream: run make upstream" >&2; exit 1; }

scan() {
	local dir=$1 bad=0 hashes f

	hashes=$(cd "$upstream" && find . -type f -exec sha256sum {} + | cut -d' ' -f1 | sort -u)
	while IFS= read -r f; do
		[ -f "$dir/$f" ] || continue
		if grep -qxF "$(sha256sum <"$dir/$f" | cut -d' ' -f1)" <<<"$hashes"; then
			echo "tracked upstream file (identical content): $f"
			bad=1
		fi
		case $f in
		src/mpt3sas/patches/*) continue ;;
		esac
		if grep -qF "$banner" "$dir/$f"; then
			echo "tracked file carries upstream's copyright banner: $f"
			bad=1
		fi
		case $(basename "$f") in
		mpt3sas_*.[ch] | mpi2*.h)
			echo "tracked file named like an upstream driver file: $f"
			bad=1
			;;
		esac
	done < <(git -C "$dir" ls-files)
	return $bad
}

if [ $# -eq 0 ]; then
	# Self-test: the check must catch a planted driver file.
	scratch=$(mktemp -d)
	trap 'rm -rf "$scratch"' EXIT
	git clone -q "$top" "$scratch/repo"
	cp "$upstream/drivers/scsi/mpt3sas/mpt3sas_ctl.h" "$scratch/repo/src/planted.h"
	git -C "$scratch/repo" add src/planted.h
	if scan "$scratch/repo" >/dev/null; then
		echo "self-test failed: a planted upstream file was not detected" >&2
		exit 1
	fi
	echo "self-test: a planted upstream file is detected"
fi

if scan "$repo"; then
	echo "no upstream file is tracked ($(git -C "$repo" ls-files | wc -l) tracked files checked)"
else
	exit 1
fi
