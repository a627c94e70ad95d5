# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Shared by the build, packaging and test scripts (sourced).  A script sets
# LOG_TAG, its short name, to tag its messages (default: its file name).
# packaging/kernel-range.sh keeps its own: it ships alone in the tarball.

# die MESSAGE: "TAG: error: MESSAGE" on stderr, exit 1
die() {
	printf '%s: error: %s\n' "${LOG_TAG:-${0##*/}}" "$*" >&2
	exit 1
}
