// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: sysfs_emit()
 *
 * HAVE_SYSFS_EMIT: PAGE_SIZE-aware formatting for sysfs show() methods.
 * Added in v5.10 by "sysfs: Add sysfs_emit and sysfs_emit_at to format
 * sysfs output" (Joe Perches).  Fallback: scnprintf(buf, PAGE_SIZE, ...).
 */
#include <linux/sysfs.h>

static int __maybe_unused probe(char *buf)
{
	return sysfs_emit(buf, "%d\n", 1);
}
