// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct scsi_host_template.sdev_groups
 *
 * HAVE_SHT_SDEV_GROUPS: SCSI device sysfs attributes as attribute groups.
 * Added in v4.17 by 86b87cde0b55 ("scsi: core: host template attribute
 * groups"), next to .sdev_attrs; the only way since v5.16.
 * Not in v4.15/v4.16 (Ubuntu 18.04).  Fallback: .sdev_attrs, filled from
 * the same groups by the compat header's scsi_add_host() wrapper.
 *
 * Since: v4.17 (86b87cde0b55)
 */
#include <scsi/scsi_host.h>

static const struct attribute_group *probe_groups[] = { NULL };

static struct scsi_host_template probe_sht __maybe_unused = {
	.sdev_groups = probe_groups,
};
