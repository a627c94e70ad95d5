// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: pci_disable_link_state() and PCIE_LINK_STATE_* in <linux/pci.h>
 *
 * HAVE_PCI_DISABLE_LINK_STATE: the ASPM control declarations are part of
 * <linux/pci.h>.  Moved there from <linux/pci-aspm.h> in v5.4 (Krzysztof
 * Wilczynski's ASPM header cleanup, which removed the old header); v4.15
 * to v5.3 declare them only in <linux/pci-aspm.h>.  The pinned driver
 * includes just <linux/pci.h>.  Fallback: include <linux/pci-aspm.h>.
 *
 * Since: v5.4
 */
#include <linux/pci.h>

static void __maybe_unused probe(struct pci_dev *pdev)
{
	/* its return type changed over the years: the result is not used */
	pci_disable_link_state(pdev, PCIE_LINK_STATE_L0S | PCIE_LINK_STATE_L1 |
			       PCIE_LINK_STATE_CLKPM);
}
