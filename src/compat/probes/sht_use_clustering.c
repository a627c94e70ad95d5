// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct scsi_host_template.use_clustering
 *
 * HAVE_SHT_USE_CLUSTERING: until v4.20 a host template had to ask for
 * merging of physically contiguous pages into one DMA segment
 * (.use_clustering = ENABLE_CLUSTERING, as the in-tree mpt3sas of those
 * kernels did); the default was DISABLE_CLUSTERING.  Removed in v5.0 by
 * Christoph Hellwig's "scsi: core: remove the use_clustering flag"
 * (clustering became the default).  The pinned driver has no such member.
 *
 * Since: v2.6.12 (and before: the first release in git)
 */
#include <scsi/scsi_host.h>

static struct scsi_host_template probe_sht __maybe_unused = {
	.use_clustering = ENABLE_CLUSTERING,
};
