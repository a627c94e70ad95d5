// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct scsi_host_template.sdev_destroy
 *
 * HAVE_SHT_SDEV_DESTROY: v6.14 renamed .slave_destroy to .sdev_destroy,
 * ed638918f4df ("scsi: Rename .slave_alloc() and .slave_destroy()", Bart
 * Van Assche).
 *
 * Since: v6.14 (ed638918f4df)
 */
#include <scsi/scsi_host.h>

static void probe_destroy(struct scsi_device *sdev)
{
}

static struct scsi_host_template probe_sht __maybe_unused = {
	.sdev_destroy = probe_destroy,
};
