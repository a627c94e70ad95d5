// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Must be true on every kernel: kmalloc()/kfree() are as old as Linux.
 */
#include <linux/slab.h>

static void __maybe_unused probe(void)
{
	kfree(kmalloc(16, GFP_KERNEL));
}
