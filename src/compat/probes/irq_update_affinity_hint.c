// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: irq_update_affinity_hint()
 *
 * HAVE_IRQ_UPDATE_AFFINITY_HINT: set or clear an IRQ's affinity hint
 * without changing its affinity, and irq_set_affinity_and_hint(), which
 * sets both.  Added together in v5.17 by 65c7cdedeb30 ("genirq: Provide
 * new interfaces for affinity hints", Thomas Gleixner), which deprecated
 * irq_set_affinity_hint(); backported to several stable trees (Debian
 * 5.10 and RHEL 8.10 have them; Ubuntu 20.04's 5.4 has not).  Fallback
 * for both: irq_set_affinity_hint(), which until then set the hint and
 * the affinity.
 *
 * Since: v5.17 (65c7cdedeb30)
 */
#include <linux/interrupt.h>

static int __maybe_unused probe(unsigned int irq)
{
	return irq_update_affinity_hint(irq, NULL) +
	       irq_set_affinity_and_hint(irq, NULL);
}
