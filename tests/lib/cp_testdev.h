/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device the in-kernel tests (tests/kmod/) and the benchmark
 * (bench/kernel/) allocate DMA memory for, linked into each module by
 * scripts/build-modules.sh; cp_testdev.c declares the module parameters
 * pci_id= and dma_bits= that choose it.
 */
#ifndef CP_TESTDEV_H
#define CP_TESTDEV_H

struct device;
struct pci_dev;
struct platform_device;

struct cp_testdev {
	struct device *dev;		/* what to allocate for */
	struct pci_dev *pci;		/* held, when a PCI device matched */
	struct platform_device *pdev;	/* registered, when none did */
};

int cp_testdev_get(struct cp_testdev *td, const char *name, const char *prefix);
void cp_testdev_put(struct cp_testdev *td);

#endif
