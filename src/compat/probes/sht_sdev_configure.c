// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct scsi_host_template.sdev_configure
 *
 * HAVE_SHT_SDEV_CONFIGURE: v6.14 renamed .device_configure to
 * .sdev_configure (same arguments: the device and its queue_limits) in
 * 47c2e30afcec ("scsi: Rename .device_configure() into
 * .sdev_configure()", Bart Van Assche); .slave_configure went in the same
 * series.
 *
 * Since: v6.14 (47c2e30afcec)
 */
#include <linux/blkdev.h>
#include <scsi/scsi_host.h>

static int probe_configure(struct scsi_device *sdev, struct queue_limits *lim)
{
	return 0;
}

static struct scsi_host_template probe_sht __maybe_unused = {
	.sdev_configure = probe_configure,
};
