// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: PCI_IRQ_INTX
 *
 * HAVE_PCI_IRQ_INTX: pci_alloc_irq_vectors() flag for legacy INTx
 * interrupts.  Introduced as the new name of PCI_IRQ_LEGACY in v6.8; the
 * old name was removed in v6.11 (Damien Le Moal's "Remove PCI_IRQ_LEGACY"
 * series).  Debian 6.1 only has PCI_IRQ_LEGACY.
 * Fallback: PCI_IRQ_LEGACY.
 */
#include <linux/pci.h>

static int __maybe_unused probe(struct pci_dev *pdev)
{
	return pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_INTX);
}
