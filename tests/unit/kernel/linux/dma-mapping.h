/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Coherent DMA memory from the fake DMA allocator of the device
 * (struct device's fake_dma): see kshim.c.
 */
#ifndef KSHIM_LINUX_DMA_MAPPING_H
#define KSHIM_LINUX_DMA_MAPPING_H

#include <linux/device.h>
#include <linux/gfp.h>

void *dma_alloc_coherent(struct device *dev, size_t size,
			 dma_addr_t *dma_handle, gfp_t gfp);
void dma_free_coherent(struct device *dev, size_t size, void *cpu_addr,
		       dma_addr_t dma_handle);

#endif
