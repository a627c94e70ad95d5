// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: scsi_execute_cmd()
 *
 * HAVE_SCSI_EXECUTE_CMD: passthrough commands take a struct scsi_exec_args.
 * Added in v6.3 by Mike Christie's series "scsi: Add struct for args to
 * execution functions"; scsi_execute()/scsi_execute_req() were removed in
 * v6.3.  A 6.1.y backport was reverted in 6.1.86, so Debian 6.1 lacks it.
 * The 6.12 driver does not call scsi_execute_cmd() (nor scsi_execute()),
 * so there is no shim; recorded so that a future driver update can test it.
 *
 * Since: v6.3
 */
#include <scsi/scsi_device.h>

static int __maybe_unused probe(struct scsi_device *sdev, const u8 *cdb)
{
	const struct scsi_exec_args args = { .sshdr = NULL };

	return scsi_execute_cmd(sdev, cdb, REQ_OP_DRV_IN, NULL, 0, HZ, 1, &args);
}
