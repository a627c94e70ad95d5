/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device the in-kernel tests and the benchmark allocate for, chosen
 * by cp_testdev.c's module parameters pci_id= and dma_bits=.
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
