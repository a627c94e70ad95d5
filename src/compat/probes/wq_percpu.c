// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: WQ_PERCPU
 *
 * HAVE_WQ_PERCPU: explicit per-CPU workqueue flag, added in v6.17 by
 * 930c2ea566af ("workqueue: Add new WQ_PERCPU flag", Marco Crivellari)
 * ahead of making unbound the default for alloc_workqueue().  It is an
 * enum constant, so #ifdef cannot see it.  Fallback: WQ_PERCPU = 0
 * (per-CPU is the default there).
 *
 * Since: v6.17 (930c2ea566af)
 */
#include <linux/workqueue.h>

static unsigned int __maybe_unused probe(void)
{
	return WQ_PERCPU;
}
