#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba-alloc/detects-faults.sh: hba-alloc must go red on a driver that
# leaks what a failed fill leaves behind (tests/hba/plant.sh):
#
#   fill-leak  _base_allocate_chain_dma_pool() forgets the chain pool when
#              its fill fails, instead of leaving it to
#              _base_release_memory_pools(): the pool is never destroyed,
#              and its debugfs file stays after rmmod.  No attach of hbatest fails
#              a fill, so only this suite sees it.  (guest/hba-alloc only)
#   sense-pool-leak
#              _base_release_memory_pools() destroys the sense pool only
#              with its block, as before patch 0302: the fault walk's
#              alloc:sense_pool:1 (its one block fails, the driver
#              retries and attaches) leaves the first pool behind, and
#              its debugfs file after rmmod.  (guest/hba-faultwalk,
#              that point only, chainpool)
#
# --reduced (make check): fill-leak only; make hbatest runs both.
# Prints KTAP; logs in build/hbatest-plant/NAME/.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
# shellcheck source=tests/hba/plant.sh
. "$top/tests/hba/plant.sh" "$@"

ktap_print_header
export HBA_PLAN='@hba-alloc 256 reduced'
hba_plant fill-leak 'hba-alloc: FAIL: fail_slab=[0-9]+: every pool destroyed: chainpool files left: [^ ]*chain_pool' '
	/^\tif (rc \&\& rc != -EOPNOTSUPP)$/{
		n
		s/^\t\treturn -EAGAIN;$/\t\t{ ioc->chain_dma_pool = NULL; return -EAGAIN; } \/* PLANTED *\//
	}' main "$here/run.sh"
export HBA_PLAN='@hba-faultwalk mpt3sas_test_fault chainpool reduced alloc:sense_pool:1'
hba_plant sense-pool-leak 'hba-faultwalk: FAIL: alloc:sense_pool:1: nothing left after rmmod: debugfs [^ ]*: [^ ]*sense_pool' '
	s/^\t\tioc->sense = NULL;$/\t\tdma_pool_destroy(ioc->sense_dma_pool); ioc->sense = NULL; \/* PLANTED *\//
	s/^\tdma_pool_destroy(ioc->sense_dma_pool);$/\t\/* PLANTED: the sense pool goes only with its block *\//' main "$here/run.sh"
ktap_finished
