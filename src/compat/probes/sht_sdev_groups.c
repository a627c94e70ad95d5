// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct scsi_host_template.sdev_groups
 *
 * HAVE_SHT_SDEV_GROUPS: SCSI device sysfs attributes as attribute groups.
 * Present long before v4.15 (used next to .sdev_attrs until v5.16 made it
 * the only way, "scsi: core: Register sysfs attributes earlier").
 */
#include <scsi/scsi_host.h>

static const struct attribute_group *probe_groups[] = { NULL };

static struct scsi_host_template probe_sht __maybe_unused = {
	.sdev_groups = probe_groups,
};
