# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced first by the suites on the upstream kernel that make upstream
# extracts: sets top, upstream and scratch (removed on exit), starts KTAP.
# shellcheck disable=SC2034 # the variables are the suites'

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
upstream=$top/build/upstream
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
ktap_print_header
{ [ -f "$upstream/scripts/checkpatch.pl" ] && [ -d "$upstream/drivers/scsi/mpt3sas" ]; } ||
	ktap_exit_fail_msg "no extracted upstream in $upstream: run make upstream"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
