#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba-alloc/run.sh [--reduced]: mpt3sas.ko on the emulated SAS3008
# (tests/hba/run.sh's machinery) while chainpool's slab allocations fail:
# guest/hba-alloc.  --reduced (make check): the series tagged hba-alloc in
# tests/kernels/series, plain, N = 256.  Full: KERNELS (default: every
# series), plain, N = 256 and 2048, every
# failure point of guest/hba-alloc's full list.  HBA_SETUPS=iommu runs it
# behind the emulated IOMMU, where the free and slab page counts also
# hold the IOMMU's IOVA caches: at N = 2048 with one-page slabs (40,428
# mappings) they stay hundreds of pages off the starting point, past
# the leak tolerance, while the same cases pass without it.  Output:
# build/hba-alloc/ (HBA_DIR).

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
if [ "${1:-}" = --reduced ]; then
	KERNELS=${KERNELS:-$(kernel_series hba-alloc)}
	: "${HBA_PLAN:=@hba-alloc 256 reduced}"
else
	export HBA_SETUPS=${HBA_SETUPS:-plain}
	: "${HBA_PLAN:=@hba-alloc 256 full
@hba-alloc 2048 full}"
fi
KERNELS=${KERNELS:-$(kernel_series)} \
HBA_DIR=${HBA_DIR:-$top/build/hba-alloc} HBA_NAME=hba-alloc \
	HBA_GUEST_DIR=$here/guest HBA_ROUNDS=${HBA_ROUNDS:-main} HBA_PLAN=$HBA_PLAN \
	exec "$top/tests/hba/run.sh" "$@"
