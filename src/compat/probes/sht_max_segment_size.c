// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct scsi_host_template.max_segment_size
 *
 * HAVE_SHT_MAX_SEGMENT_SIZE: the host template can raise the largest DMA
 * segment the midlayer builds.  Added in v5.0 by Christoph Hellwig's
 * "scsi: core: add a max_segment_size field to the host template" series,
 * which also removed .use_clustering (see sht_use_clustering.c).  Before,
 * the block layer's 64 KiB default applies.
 *
 * Since: v5.0
 */
#include <scsi/scsi_host.h>

static struct scsi_host_template probe_sht __maybe_unused = {
	.max_segment_size = 0xffffffff,
};
