// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: kzalloc_obj(), kzalloc_objs()
 *
 * HAVE_KZALLOC_OBJ: type-aware zeroing allocators that take a variable or
 * a type and default to GFP_KERNEL.  Added in v7.0 ("slab: Introduce
 * kmalloc_obj() and family"); the 54.100 driver allocates with them.
 * Fallback: kzalloc() and kcalloc() of sizeof() the argument.
 *
 * Since: v7.0
 */
#include <linux/slab.h>

static int __maybe_unused *probe(void)
{
	int *a = kzalloc_obj(*a);
	int *b = kzalloc_objs(int, 2, GFP_ATOMIC);

	kfree(b);
	return a;
}
