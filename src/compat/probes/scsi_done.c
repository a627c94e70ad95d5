// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: scsi_done()
 *
 * HAVE_SCSI_DONE: LLDs complete commands with the exported scsi_done()
 * instead of the cmd->scsi_done callback.  v5.16, Bart Van Assche's
 * series: "scsi: core: Rename scsi_mq_done() into scsi_done() and export
 * it", then 11b68e36b167 ("scsi: core: Call scsi_done directly"), after
 * which struct scsi_cmnd.scsi_done was removed.  Fallback:
 * cmd->scsi_done(cmd), which every kernel from 4.15 to 5.15 sets.
 *
 * Since: v5.16 (11b68e36b167)
 */
#include <scsi/scsi_cmnd.h>

static void __maybe_unused probe(struct scsi_cmnd *cmd)
{
	scsi_done(cmd);
}
