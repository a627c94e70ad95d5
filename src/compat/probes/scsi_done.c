// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: scsi_done()
 *
 * HAVE_SCSI_DONE: LLDs complete commands with the exported scsi_done()
 * instead of the cmd->scsi_done callback.  Added in v5.16 by "scsi: core:
 * Rename scsi_mq_done() into scsi_done() and export it" (Bart Van Assche);
 * struct scsi_cmnd.scsi_done was removed in the same release.
 * Fallback: cmd->scsi_done(cmd).
 */
#include <scsi/scsi_cmnd.h>

static void __maybe_unused probe(struct scsi_cmnd *cmd)
{
	scsi_done(cmd);
}
