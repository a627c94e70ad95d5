// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct Scsi_Host.host_tagset
 *
 * HAVE_SHOST_HOST_TAGSET: hardware queues share one host-wide tag set.
 * Added in v5.10 by bdb01301f3ea ("scsi: Add host and host template flag
 * 'host_tagset'", Hannes Reinecke), merged through the block tree on top
 * of BLK_MQ_F_TAG_HCTX_SHARED.  Without it the driver must not expose more
 * than one hardware queue: mpt3sas_compat_host_tagset() then says no and
 * mpt3sas_compat_set_host_tagset() does nothing (patch 0105).
 *
 * Since: v5.10 (bdb01301f3ea)
 */
#include <scsi/scsi_host.h>

static void __maybe_unused probe(struct Scsi_Host *shost)
{
	shost->host_tagset = 1;
}
