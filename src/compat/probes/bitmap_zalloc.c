// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: bitmap_zalloc() and bitmap_free()
 *
 * HAVE_BITMAP_ZALLOC: allocate a zeroed bitmap of n bits, and free it.
 * Added in v4.19 by Andy Shevchenko's "bitmap: Add bitmap_alloc(),
 * bitmap_zalloc() and bitmap_free()".  Fallback: kcalloc() of
 * BITS_TO_LONGS(n) longs, and kfree().
 *
 * Since: v4.19
 */
#include <linux/bitmap.h>
#include <linux/slab.h>

static void __maybe_unused probe(unsigned int nbits)
{
	bitmap_free(bitmap_zalloc(nbits, GFP_KERNEL));
}
