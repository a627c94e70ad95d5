#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba/lying.sh [--reduced]: a controller that lies, the
# lying round of tests/hba/run.sh alone: per case one emulated SAS3008
# hot-plugged with IOC Facts at their edges or a protocol break (its lie=
# property), which the driver must attach and do I/O through, or fail the
# probe with one line, leaking nothing (guest/hba-lying, lying.py).
# --reduced (make check): the series tagged hba-lying (Debian's 6.1),
# plain, the reduced cases of
# run.sh's lying_cases; full (make hbatest runs it too): every case on
# every series, plain and behind the IOMMU.  Output: build/hba-lying/.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export HBA_ROUNDS=lying HBA_NAME=hba-lying HBA_DIR=${HBA_DIR:-$top/build/hba-lying}
case ${1:-} in
--reduced)
	# kernel_one
	# shellcheck source=tests/kernels/lib.sh
	. "$top/tests/kernels/lib.sh"
	KERNELS=${KERNELS:-$(kernel_one hba-lying)} exec "$here/run.sh" --reduced
	;;
'') exec "$here/run.sh" ;;
*) echo "usage: $0 [--reduced]" >&2; exit 2 ;;
esac
