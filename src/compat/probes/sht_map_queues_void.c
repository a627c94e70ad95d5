// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: void (*scsi_host_template.map_queues)(struct Scsi_Host *)
 *
 * HAVE_SHT_MAP_QUEUES_VOID: the map_queues callback returns void.  It
 * returned int until v6.1, a4e1d0b76e7b ("block: Change the return type
 * of blk_mq_map_queues() into void", Bart Van Assche), which changed the
 * SCSI callback too.  Debian 5.10: int, 6.1: void.  Before v5.0 the
 * callback also has no struct blk_mq_queue_map to fill (see
 * blk_mq_queue_map.c).
 *
 * Since: v6.1 (a4e1d0b76e7b)
 */
#include <scsi/scsi_host.h>

static void probe_map(struct Scsi_Host *shost)
{
}

static struct scsi_host_template probe_sht __maybe_unused = {
	.map_queues = probe_map,
};
