// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: int (*scsi_host_template.bios_param)(sdev, struct gendisk *, ...)
 *
 * HAVE_SHT_BIOS_PARAM_GENDISK: .bios_param gets the struct gendisk instead
 * of a struct block_device since v6.16 (Christoph Hellwig's "scsi: pass
 * a gendisk to ->bios_param" conversion); Debian sid's 7.2 has it.
 *
 * Since: v6.16
 */
#include <linux/blkdev.h>
#include <scsi/scsi_host.h>

static int probe_bios_param(struct scsi_device *sdev, struct gendisk *disk,
			    sector_t capacity, int params[])
{
	return 0;
}

static struct scsi_host_template probe_sht __maybe_unused = {
	.bios_param = probe_bios_param,
};
