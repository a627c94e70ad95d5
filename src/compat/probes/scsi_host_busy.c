// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: scsi_host_busy()
 *
 * HAVE_SCSI_HOST_BUSY: number of commands outstanding on a host.  Added in
 * v4.19 by "scsi: core: introduce scsi_host_busy()" (Ming Lei), before
 * host_busy stopped being a counter (v5.0).  Fallback:
 * atomic_read(&shost->host_busy), an atomic_t in 4.15 to 4.18.
 *
 * Since: v4.19
 */
#include <scsi/scsi_host.h>

static int __maybe_unused probe(struct Scsi_Host *shost)
{
	return scsi_host_busy(shost);
}
