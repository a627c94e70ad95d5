// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct scsi_host_template.sdev_init
 *
 * HAVE_SHT_SDEV_INIT: v6.14 renamed .slave_alloc to .sdev_init,
 * ed638918f4df ("scsi: Rename .slave_alloc() and .slave_destroy()", Bart
 * Van Assche); the old name is gone from then on.
 *
 * Since: v6.14 (ed638918f4df)
 */
#include <scsi/scsi_host.h>

static int probe_init(struct scsi_device *sdev)
{
	return 0;
}

static struct scsi_host_template probe_sht __maybe_unused = {
	.sdev_init = probe_init,
};
