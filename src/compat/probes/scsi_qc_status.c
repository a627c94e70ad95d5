// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: enum scsi_qc_status (*scsi_host_template.queuecommand)()
 *
 * HAVE_SCSI_QC_STATUS: .queuecommand returns enum scsi_qc_status (0 or one
 * of the SCSI_MLQUEUE_* values, now enumerators) instead of int.  Changed
 * in v6.19/v7.0 by Bart Van Assche's "scsi: core: Introduce enum
 * scsi_qc_status" series (not found in the stored sources; Debian sid's
 * 7.2 has it, which this probe verifies).  From 4.15 to 6.18 queuecommand
 * returns int.
 *
 * Since: v6.19
 */
#include <scsi/scsi.h>
#include <scsi/scsi_host.h>

static enum scsi_qc_status probe_qcmd(struct Scsi_Host *shost,
				      struct scsi_cmnd *cmd)
{
	return SCSI_MLQUEUE_HOST_BUSY;
}

static struct scsi_host_template probe_sht __maybe_unused = {
	.queuecommand = probe_qcmd,
};
