// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: HWMON_CHANNEL_INFO()
 *
 * HAVE_HWMON_CHANNEL_INFO: the macro that builds a channel table of
 * struct hwmon_chip_info.  Added in v5.2 ("hwmon: Introduce
 * HWMON_CHANNEL_INFO macro"); the driver's temperature sensors (54.100,
 * mpt3sas_hwmon.c) are described with it.  Fallback: the same macro.
 *
 * Since: v5.2
 */
#include <linux/hwmon.h>

static const struct hwmon_channel_info __maybe_unused *probe =
	HWMON_CHANNEL_INFO(temp, HWMON_T_INPUT);
