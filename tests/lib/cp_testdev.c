// SPDX-License-Identifier: GPL-2.0-or-later
/* Linked into each test and bench module: pci_id= and dma_bits= are here. */
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/stringify.h>
#include "cp_testdev.h"

/* A module's Kbuild may set the default of dma_bits= (cp_bench: 64). */
#ifndef CP_TESTDEV_DMA_BITS
#define CP_TESTDEV_DMA_BITS	0
#endif

static char *pci_id = "1234:11e8";
module_param(pci_id, charp, 0444);
MODULE_PARM_DESC(pci_id, "vendor:device of the PCI device to allocate for (default 1234:11e8, QEMU edu)");

static unsigned int dma_bits = CP_TESTDEV_DMA_BITS;
module_param(dma_bits, uint, 0444);
MODULE_PARM_DESC(dma_bits, "DMA mask to give the device (default "
		 __stringify(CP_TESTDEV_DMA_BITS) "; 0 leaves it)");

/*
 * The first PCI device matching pci_id=, held; else a platform device
 * @name, registered, with a 32-bit DMA mask; then dma_bits='s mask.
 * @prefix starts each message ("# " for KTAP).  0, or the error of
 * registering the platform device.
 */
int cp_testdev_get(struct cp_testdev *td, const char *name, const char *prefix)
{
	struct platform_device *pdev;
	unsigned int vendor, device;

	memset(td, 0, sizeof(*td));
	if (sscanf(pci_id, "%x:%x", &vendor, &device) == 2)
		td->pci = pci_get_device(vendor, device, NULL);
	if (td->pci) {
		td->dev = &td->pci->dev;
		pr_info("%sdevice: PCI %s (%s)\n", prefix, pci_name(td->pci),
			pci_id);
	} else {
		pdev = platform_device_register_simple(name, -1, NULL, 0);
		if (IS_ERR(pdev))
			return PTR_ERR(pdev);
		td->pdev = pdev;
		td->dev = &pdev->dev;
		if (dma_coerce_mask_and_coherent(td->dev, DMA_BIT_MASK(32)))
			pr_info("%scould not set a 32-bit DMA mask\n", prefix);
		pr_info("%sdevice: no PCI device %s found, using platform device %s\n",
			prefix, pci_id, dev_name(td->dev));
	}
	if (dma_bits && dma_set_mask_and_coherent(td->dev, DMA_BIT_MASK(dma_bits)))
		pr_info("%scould not set a %u-bit DMA mask\n", prefix, dma_bits);
	return 0;
}

/* Give back what cp_testdev_get() took; a second call does nothing. */
void cp_testdev_put(struct cp_testdev *td)
{
	if (td->pci)
		pci_dev_put(td->pci);
	if (td->pdev)
		platform_device_unregister(td->pdev);
	memset(td, 0, sizeof(*td));
}
