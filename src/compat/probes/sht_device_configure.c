// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct scsi_host_template.device_configure
 *
 * HAVE_SHT_DEVICE_CONFIGURE: the LLD configures a new SCSI device by editing
 * the queue_limits handed to it, instead of calling blk_queue_*() from
 * .slave_configure.  Added in v6.10 by b7eefcf11f3f ("scsi: core: Add a
 * device_configure method to the host template", Christoph Hellwig);
 * renamed to .sdev_configure in v6.14 (see sht_sdev_configure.c).
 *
 * Since: v6.10 (b7eefcf11f3f)
 */
#include <linux/blkdev.h>
#include <scsi/scsi_host.h>

static int probe_configure(struct scsi_device *sdev, struct queue_limits *lim)
{
	return 0;
}

static struct scsi_host_template probe_sht __maybe_unused = {
	.device_configure = probe_configure,
};
