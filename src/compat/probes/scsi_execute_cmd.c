// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: scsi_execute_cmd()
 *
 * HAVE_SCSI_EXECUTE_CMD: passthrough commands take a struct scsi_exec_args.
 * Added in v6.3 by "scsi: core: Add struct for args to execution functions"
 * (Mike Christie); scsi_execute()/scsi_execute_req() were removed in v6.3.
 * The 6.12 driver does not issue passthrough commands; recorded so that a
 * future driver update can test it.
 */
#include <scsi/scsi_device.h>

static int __maybe_unused probe(struct scsi_device *sdev, const u8 *cdb)
{
	const struct scsi_exec_args args = { .sshdr = NULL };

	return scsi_execute_cmd(sdev, cdb, REQ_OP_DRV_IN, NULL, 0, HZ, 1, &args);
}
