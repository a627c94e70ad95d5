// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: PCI_IRQ_INTX
 *
 * HAVE_PCI_IRQ_INTX: pci_alloc_irq_vectors() flag for legacy INTx
 * interrupts.  Introduced in v6.8 as the new name of PCI_IRQ_LEGACY by
 * "PCI: Rename PCI_IRQ_LEGACY to PCI_IRQ_INTX" (Bjorn Helgaas, Damien Le
 * Moal), which kept the old name as a deprecated alias; Damien Le Moal's
 * "Remove PCI_IRQ_LEGACY" series dropped the alias later (v6.10/v6.11).
 * Debian 6.1 only has PCI_IRQ_LEGACY.  Fallback: PCI_IRQ_LEGACY (v4.10).
 *
 * Since: v6.8
 */
#include <linux/pci.h>

static int __maybe_unused probe(struct pci_dev *pdev)
{
	return pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_INTX);
}
