// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: want_init_on_alloc() and want_init_on_free()
 *
 * HAVE_WANT_INIT_ON_FREE: whether memory is to be zeroed when allocated
 * (init_on_alloc=1, or __GFP_ZERO) and when freed (init_on_free=1), as
 * allocators honour them.  Added in v5.3 by Alexander Potapenko's "mm:
 * security: introduce init_on_alloc=1 and init_on_free=1 boot options".
 * Fallback: __GFP_ZERO alone, and never on free: such kernels have no
 * such option.
 *
 * Since: v5.3
 */
#include <linux/mm.h>

static bool __maybe_unused probe(gfp_t gfp)
{
	return want_init_on_alloc(gfp) || want_init_on_free();
}
