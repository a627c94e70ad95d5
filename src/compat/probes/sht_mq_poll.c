// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct scsi_host_template.mq_poll
 *
 * HAVE_SHT_MQ_POLL: polled (HCTX_TYPE_POLL) I/O queues for SCSI hosts.
 * Added in v5.13 by af1830956dc3 ("scsi: core: Add mq_poll support to
 * SCSI layer", Kashyap Desai), with Scsi_Host.nr_maps.  Without it the
 * driver must not set up io_uring poll queues (poll_queues=0).
 *
 * Since: v5.13 (af1830956dc3)
 */
#include <scsi/scsi_host.h>

static int probe_poll(struct Scsi_Host *shost, unsigned int queue_num)
{
	return 0;
}

static struct scsi_host_template probe_sht __maybe_unused = {
	.mq_poll = probe_poll,
};
