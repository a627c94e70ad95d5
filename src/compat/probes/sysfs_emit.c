// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: sysfs_emit()
 *
 * HAVE_SYSFS_EMIT: PAGE_SIZE-aware formatting for sysfs show() methods.
 * Added in v5.10 by 2efc459d06f1 ("sysfs: Add sysfs_emit and
 * sysfs_emit_at to format sysfs output", Joe Perches); backported to the
 * 4.4.y to 5.4.y stable trees in 2021 with the iSCSI sysfs fixes, so
 * distribution 4.x/5.4 kernels may have it.  Fallback: vscnprintf() into
 * PAGE_SIZE.
 *
 * Since: v5.10 (2efc459d06f1)
 */
#include <linux/sysfs.h>

static int __maybe_unused probe(char *buf)
{
	return sysfs_emit(buf, "%d\n", 1);
}
