// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: scsi_build_sense()
 *
 * HAVE_SCSI_BUILD_SENSE: scsi_build_sense() fills the sense buffer and sets
 * the CHECK CONDITION result in one call.  Added in v5.14-rc1 by
 * f2b1e9c6f867 ("scsi: core: Introduce scsi_build_sense()", Hannes
 * Reinecke); DRIVER_SENSE was retired in the same release.  Fallback:
 * scsi_build_sense_buffer() plus DRIVER_SENSE << 24 |
 * SAM_STAT_CHECK_CONDITION.
 *
 * Since: v5.14 (f2b1e9c6f867)
 */
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_common.h>

static void __maybe_unused probe(struct scsi_cmnd *cmd)
{
	scsi_build_sense(cmd, 0, 0x05, 0x10, 0x01);
}
