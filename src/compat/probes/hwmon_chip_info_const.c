// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct hwmon_chip_info's info is a pointer to const pointers
 *
 * HAVE_HWMON_CHIP_INFO_CONST: the channel table may be const itself.
 * Changed in v6.5 ("hwmon: constify pointers to hwmon_channel_info"); the
 * 54.100 driver's table is.  Fallback: a table of plain pointers
 * (MPT3SAS_HWMON_INFO_CONST, compat patch 0108).
 *
 * Since: v6.5
 */
#include <linux/hwmon.h>

static const struct hwmon_chip_info __maybe_unused probe_chip;

static int __maybe_unused
probe[__builtin_types_compatible_p(typeof(probe_chip.info),
				   const struct hwmon_channel_info * const *) ? 1 : -1];
