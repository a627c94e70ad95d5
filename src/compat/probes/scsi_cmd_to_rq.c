// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: scsi_cmd_to_rq()
 *
 * HAVE_SCSI_CMD_TO_RQ: scsi_cmd_to_rq() maps a SCSI command to its block
 * layer request.  Added in v5.15 by 51f3a4788928 ("scsi: core: Introduce
 * the scsi_cmd_to_rq() function", Bart Van Assche), which started the
 * removal of struct scsi_cmnd.request (gone in v5.16).  Backported to
 * Debian 5.10.  Fallback: cmd->request (present from 4.15 on).
 *
 * Since: v5.15 (51f3a4788928)
 */
#include <scsi/scsi_cmnd.h>

static __maybe_unused struct request *probe(struct scsi_cmnd *cmd)
{
	return scsi_cmd_to_rq(cmd);
}
