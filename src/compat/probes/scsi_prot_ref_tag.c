// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: scsi_prot_ref_tag()
 *
 * HAVE_SCSI_PROT_REF_TAG: T10 PI reference tag (low 32 bits of the LBA in
 * logical blocks) of a command.  Added by 7ba46799d346 ("scsi: core: Add
 * scsi_prot_ref_tag() helper", Martin K. Petersen) with "scsi: core:
 * Introduce scsi_get_sector()", v5.15 (SCST's backport.h); a 5.10.y
 * backport was reverted, so Debian 5.10 lacks it.  Fallback: the same
 * computation on blk_rq_pos().
 *
 * Since: v5.15 (7ba46799d346)
 */
#include <scsi/scsi_cmnd.h>

static u32 __maybe_unused probe(struct scsi_cmnd *cmd)
{
	return scsi_prot_ref_tag(cmd);
}
