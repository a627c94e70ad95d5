/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PAGE_SIZE, kvmalloc() and kvfree(): see kshim.c. */
#ifndef KSHIM_LINUX_MM_H
#define KSHIM_LINUX_MM_H

#include <linux/gfp.h>

#define PAGE_SIZE	4096UL

void *kvmalloc(size_t size, gfp_t gfp);
void kvfree(const void *p);

#endif
