/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test builds only (CP_FAULT=1): every dma_alloc_coherent() of the driver
 * becomes a fault point named by its caller (cp_fault.c).
 */
#ifndef CP_FAULT_H
#define CP_FAULT_H

#include <linux/dma-mapping.h>

void *cp_dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma,
			    gfp_t gfp, const char *caller);
#define dma_alloc_coherent(dev, size, dma, gfp) \
	cp_dma_alloc_coherent(dev, size, dma, gfp, __func__)

#endif /* CP_FAULT_H */
