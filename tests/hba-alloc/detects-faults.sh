#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba-alloc/detects-faults.sh: hba-alloc must go red on a driver that
# leaks what a failed fill leaves behind (tests/hba/plant.sh):
#
#   fill-leak  _base_allocate_chain_dma_pool() forgets the chain pool when
#              its fill fails, instead of leaving it to
#              _base_release_memory_pools(): the slabs it holds stay
#              allocated.  No attach of hbatest fails a fill, so only this
#              suite sees it.
#
# Prints KTAP; logs in build/hbatest-plant/NAME/.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
# shellcheck source=tests/hba/plant.sh
. "$top/tests/hba/plant.sh"

ktap_print_header
hba_plant fill-leak 'hba-alloc: FAIL: fail_slab=[0-9]+: [0-9]+ free pages missing' '
	/^\tif (rc \&\& rc != -EOPNOTSUPP)$/{
		n
		s/^\t\treturn -EAGAIN;$/\t\t{ ioc->chain_dma_pool = NULL; return -EAGAIN; } \/* PLANTED *\//
	}' main "$here/run.sh"
ktap_finished
