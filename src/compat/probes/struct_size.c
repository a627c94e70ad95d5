// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct_size()
 *
 * HAVE_STRUCT_SIZE: size of a structure with a trailing array of n
 * elements, saturating at SIZE_MAX on overflow.  Added in v4.18 by
 * 610b15c50e86 ("overflow.h: Add allocation size calculation helpers",
 * Kees Cook); <linux/slab.h> pulls <linux/overflow.h> in since then.
 * Fallback: the same saturating computation in the compat header.
 *
 * Since: v4.18 (610b15c50e86)
 */
#include <linux/kernel.h>
#include <linux/slab.h>

struct probe_flex {
	u32 count;
	u32 data[];
};

static size_t __maybe_unused probe(struct probe_flex *p, size_t n)
{
	return struct_size(p, data, n);
}
