// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: pci_enable_pcie_error_reporting()
 *
 * HAVE_PCI_ENABLE_PCIE_ERROR_REPORTING: drivers used to enable AER
 * reporting themselves.  The PCI core does it since v6.0 ("PCI/AER: Enable
 * error reporting when AER is native"); the helpers were removed in v6.6,
 * "PCI/AER: Drop unused pci_{enable,disable}_pcie_error_reporting()"
 * (Bjorn Helgaas).  The pinned driver calls neither them nor
 * pci_aer_clear_nonfatal_status() (v5.7's new name of
 * pci_cleanup_aer_uncorrect_error_status()); with this probe false the
 * compat header provides no-op stubs for older code.
 *
 * Since: v2.6.19
 */
#include <linux/pci.h>
#include <linux/aer.h>

static int __maybe_unused probe(struct pci_dev *pdev)
{
	return pci_enable_pcie_error_reporting(pdev);
}
