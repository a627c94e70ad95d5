/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kmalloc(), kzalloc() and kfree(), counted: see kshim.c. */
#ifndef KSHIM_LINUX_SLAB_H
#define KSHIM_LINUX_SLAB_H

#include <linux/mm.h>

void *kmalloc(size_t size, gfp_t gfp);
void kfree(const void *p);

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

#endif
