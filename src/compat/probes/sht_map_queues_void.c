// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: void (*scsi_host_template.map_queues)(struct Scsi_Host *)
 *
 * HAVE_SHT_MAP_QUEUES_VOID: the map_queues callback returns void.  It
 * returned int until v6.1, "scsi: core: Make the map_queues callback
 * return void" in Bart Van Assche's "block: Change the return type of
 * blk_mq_map_queues() into void" series.  Debian 5.10: int, 6.1: void.
 */
#include <scsi/scsi_host.h>

static void probe_map(struct Scsi_Host *shost)
{
}

static struct scsi_host_template probe_sht __maybe_unused = {
	.map_queues = probe_map,
};
