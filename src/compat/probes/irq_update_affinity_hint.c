// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: irq_update_affinity_hint()
 *
 * HAVE_IRQ_UPDATE_AFFINITY_HINT: set or clear an IRQ's affinity hint
 * without changing its affinity.  Added in v5.17 by 65c7cdedeb30
 * ("genirq: Provide new interfaces for affinity hints", Thomas Gleixner),
 * which deprecated irq_set_affinity_hint(); backported to several stable
 * trees (Debian 5.10 has it).  Fallback: irq_set_affinity_hint().
 *
 * Since: v5.17 (65c7cdedeb30)
 */
#include <linux/interrupt.h>

static int __maybe_unused probe(unsigned int irq)
{
	return irq_update_affinity_hint(irq, NULL);
}
