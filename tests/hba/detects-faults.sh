#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba/detects-faults.sh: make hbatest-reduced must go red on a
# driver with a planted fault.  For each plant, a copy of build/tree gets
# the fault, mpt3sas.ko is built from it for the first series tagged
# faults and run.sh --reduced runs with it there (the round the plant
# concerns); it must fail, in the check the plant concerns, after a good
# attach:
#
#   chain-elem   _base_build_sg_scmd_ieee() points each chain element one
#                element past its chain buffer: the I/O checks fail
#   chain-leak   detach frees the chain buffers one by one and skips the
#                first, as a driver that lost one would: the pool keeps its
#                slabs, and the attach/detach cycle finds the pages missing
#   chain-lookup _base_get_chain_buffer_dma_to_chain_buffer() finds no
#                chain: on the HBA in mcpu mode
#                the chains stay in host memory, which works, but the HBA's
#                count of chains in its BAR falls short (the mcpu round)
#   sas2-chain-offset
#                _base_build_sg_scmd() writes each MPI 2.0 chain element's
#                NextChainOffset one dword too far: the HBA as a SAS2008
#                finds no chain element there and fails the request with
#                INVALID_SGL (the sas2008 round)
#   ua-requeue   _scsih_test_unit_ready() takes a unit attention for a busy
#                disk again (0311 undone): the first load requeues the
#                disks' topology event, and detects each disk twice
#
# --reduced (make check): chain-elem only; make hbatest runs all five.
# Prints KTAP; logs in build/hbatest-plant/NAME/ (plant.sh).

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
LOG_TAG=hba-plant
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"

# shellcheck source=tests/hba/plant.sh
. "$here/plant.sh" "$@"
ktap_print_header

hba_plant chain-elem 'hba: FAIL: (direct I/O|the I/O|task abort)' \
	's/chain_offset, chain_length, chain_dma);/chain_offset, chain_length, chain_dma + 16); \/* PLANTED *\//'
hba_plant chain-leak 'hba-cycles: FAIL: .*free pages missing' '
	s/bool released = cp_dmapool_release_all(ioc->chain_dma_pool);/bool released = false; \/* PLANTED *\//
	s/if (ct \&\& ct->chain_buffer)$/if (ct \&\& ct->chain_buffer \&\& (i || j != ioc->chains_per_prp_buffer)) \/* PLANTED *\//'
hba_plant chain-lookup 'hba-mcpu: FAIL: chain lookup' '
	s/^\tfor (j = 0; smid \&\& smid <= ioc->scsiio_depth \&\&$/\treturn NULL; \/* PLANTED *\/\n\0/' mcpu
hba_plant sas2-chain-offset 'hba-sas2: FAIL: (direct I/O|MPI 2.0 SGLs)' \
	's/ioc->base_add_sg_single(sg_local, chain_flags | chain_offset |$/ioc->base_add_sg_single(sg_local, chain_flags | (chain_offset ? chain_offset + (1 << MPI2_SGE_CHAIN_OFFSET_SHIFT) : 0) | \/* PLANTED *\//' sas2008
hba_plant ua-requeue 'hba: FAIL: each disk detected once' \
	's/if (rc == DEVICE_RETRY_UA \&\& ua_retries++ < 3)$/if (rc == DEVICE_RETRY_UA \&\& ua_retries++ < 0) \/* PLANTED *\//'
ktap_finished
