/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ktime_get_ns(): CLOCK_MONOTONIC, as in the kernel. */
#ifndef KSHIM_LINUX_KTIME_H
#define KSHIM_LINUX_KTIME_H

#include <linux/types.h>

u64 ktime_get_ns(void);

#endif
