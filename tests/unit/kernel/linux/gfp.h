/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The allocation flags chainpool's glue tests, with the kernel's meaning:
 * GFP_KERNEL may sleep and enter I/O and the filesystems, GFP_ATOMIC may
 * not sleep.  The values are the shim's own.
 */
#ifndef KSHIM_LINUX_GFP_H
#define KSHIM_LINUX_GFP_H

#include <linux/kernel.h>

#define __GFP_HIGH		0x01U
#define __GFP_IO		0x02U
#define __GFP_FS		0x04U
#define __GFP_DIRECT_RECLAIM	0x08U
#define __GFP_KSWAPD_RECLAIM	0x10U
#define __GFP_NOWARN		0x20U
#define __GFP_ZERO		0x40U

#define __GFP_RECLAIM	(__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL	(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_NOIO	__GFP_RECLAIM
#define GFP_ATOMIC	(__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_NOWAIT	__GFP_KSWAPD_RECLAIM

static inline bool gfpflags_allow_blocking(gfp_t gfp)
{
	return gfp & __GFP_DIRECT_RECLAIM;
}

#endif
