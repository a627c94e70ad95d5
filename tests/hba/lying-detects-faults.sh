#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba/lying-detects-faults.sh: the lying controllers' suite
# (tests/hba/lying.sh) must go red on a driver with a planted fault
# (tests/hba/plant.sh: built from a copy of build/tree for the first
# series tagged faults, run there, red only after a good insmod):
#
#   fail-leak  mpt3sas_base_attach()'s failure path skips
#              _base_release_memory_pools(), as a probe that gives up
#              without unwinding would: the controller that faults at
#              every IOC Init (lie=ioc_fault,lie_count=0) fails the probe
#              after its pools are built, and the case's leak check finds
#              the pages missing
#   fault-unseen  _base_handshake_req_reply_wait() takes the doorbell
#              interrupt of a fault for a reply word, as before patch
#              0304: the same controller's case (fail+no-timeout) finds
#              a doorbell wait that ran out
#   doorbell-read  _base_wait_for_doorbell_int() reads the Doorbell for
#              the IOC state whenever the interrupt is set, besides the
#              read that takes a reply word: the controller whose every
#              Doorbell read takes a word (lie=doorbell_pop,lie_count=0)
#              loses half of each reply, and the probe fails where it
#              must attach
#
# One case each (about 1 minute).  --reduced (make check): fail-leak only;
# make hbatest runs all three.  Prints KTAP; logs in
# build/hbatest-plant/NAME/.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
LOG_TAG=hba-lying-plant
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
# shellcheck source=tests/lib/ktap.sh
. "$top/tests/lib/ktap.sh"
# shellcheck source=tests/hba/plant.sh
. "$here/plant.sh" "$@"

ktap_print_header
export HBA_LYING_PLAN='@hba-lying 16 fault-always:lie=ioc_fault,lie_count=0:fail+no-timeout'
hba_plant lying-fail-leak 'hba-lying: FAIL: case 1 fault-always after the unplug: [0-9]+ free pages missing' '
	/^ out_free_resources:$/,/^\tpci_set_drvdata(ioc->pdev, NULL);$/ s/^\t_base_release_memory_pools(ioc);$/\t\/* PLANTED: the pools stay *\//' \
	lying "$here/lying.sh"
hba_plant lying-fault-unseen 'hba-lying: FAIL: case 1 fault-always .*a doorbell wait timed out' '
	/^_base_handshake_reply_faulted(/,/^}/ s/^\tswitch (doorbell & MPI2_IOC_STATE_MASK) {$/\tdoorbell = MPI2_IOC_STATE_OPERATIONAL;\t\/* PLANTED: the fault goes unseen *\/\n&/' \
	lying "$here/lying.sh"
export HBA_LYING_PLAN='@hba-lying 16 doorbell-pop:lie=doorbell_pop,lie_count=0:attach'
hba_plant lying-doorbell-read 'hba-lying: FAIL: case 1 doorbell-pop .*probe failed' '
	/^_base_wait_for_doorbell_int(/,/^}/ s/^\(\t*\)if (int_status & MPI2_HIS_IOC2SYS_DB_STATUS) {$/&\n\1\tif ((ioc->base_readl_ext_retry(\&ioc->chip->Doorbell) \& MPI2_IOC_STATE_MASK) == MPI2_IOC_STATE_FAULT)\t\/* PLANTED: a read for the state *\/\n\1\t\treturn -EFAULT;\t\/* PLANTED *\//' \
	lying "$here/lying.sh"
ktap_finished
