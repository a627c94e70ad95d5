// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The first PCI device matching @pci_id ("vendor:device", e.g. QEMU's edu
 * device), held; else a platform device @name, registered, with a 32-bit
 * DMA mask.  A non-zero @dma_bits then sets that DMA mask.  Messages start
 * with @prefix ("# " for KTAP diagnostics).
 */
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include "cp_testdev.h"

int cp_testdev_get(struct cp_testdev *td, const char *name,
		   const char *pci_id, unsigned int dma_bits,
		   const char *prefix)
{
	unsigned int vendor, device;

	memset(td, 0, sizeof(*td));
	if (sscanf(pci_id, "%x:%x", &vendor, &device) == 2)
		td->pci = pci_get_device(vendor, device, NULL);
	if (td->pci) {
		td->dev = &td->pci->dev;
		pr_info("%sdevice: PCI %s (%s)\n", prefix, pci_name(td->pci),
			pci_id);
	} else {
		td->pdev = platform_device_register_simple(name, -1, NULL, 0);
		if (IS_ERR(td->pdev)) {
			int ret = PTR_ERR(td->pdev);

			td->pdev = NULL;
			return ret;
		}
		td->dev = &td->pdev->dev;
		if (dma_coerce_mask_and_coherent(td->dev, DMA_BIT_MASK(32)))
			pr_info("%scould not set a 32-bit DMA mask\n", prefix);
		pr_info("%sdevice: no PCI device %s found, using platform device %s\n",
			prefix, pci_id, dev_name(td->dev));
	}
	if (dma_bits && dma_set_mask_and_coherent(td->dev, DMA_BIT_MASK(dma_bits)))
		pr_info("%scould not set a %u-bit DMA mask\n", prefix, dma_bits);
	return 0;
}

void cp_testdev_put(struct cp_testdev *td)
{
	if (td->pci)
		pci_dev_put(td->pci);
	if (td->pdev)
		platform_device_unregister(td->pdev);
	memset(td, 0, sizeof(*td));
}
