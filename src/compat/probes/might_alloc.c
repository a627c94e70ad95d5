// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: might_alloc()
 *
 * HAVE_MIGHT_ALLOC: the debug check an allocator makes on entry, that a
 * gfp which may block is used only where sleeping is allowed (and, with
 * lockdep, that reclaim may run there).  Added in v5.11 by Daniel
 * Vetter's "mm: Extract might_alloc() debug check".  Fallback:
 * might_sleep_if() on gfpflags_allow_blocking(), without the lockdep part.
 *
 * Since: v5.11
 */
#include <linux/gfp.h>
#include <linux/sched/mm.h>

static void __maybe_unused probe(gfp_t gfp)
{
	might_alloc(gfp);
}
