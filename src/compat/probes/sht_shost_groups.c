// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct scsi_host_template.shost_groups
 *
 * HAVE_SHT_SHOST_GROUPS: host sysfs attributes are given as attribute
 * groups.  Added in v5.16 by 92c4b58b15c5 ("scsi: core: Register sysfs
 * attributes earlier", Bart Van Assche), which removed .shost_attrs and
 * .sdev_attrs (arrays of struct device_attribute *).  Fallback: the
 * scsi_add_host() wrapper of the compat header.
 *
 * Since: v5.16 (92c4b58b15c5)
 */
#include <scsi/scsi_host.h>

static const struct attribute_group *probe_groups[] = { NULL };

static struct scsi_host_template probe_sht __maybe_unused = {
	.shost_groups = probe_groups,
};
