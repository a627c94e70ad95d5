/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Force-included in test builds (CP_FAULT=1): in the driver's files each
 * dma_alloc_coherent() is a fault point of cp_fault.c named by its caller,
 * each kmalloc(), kzalloc(), kcalloc() and krealloc() one named by caller
 * and line (kzalloc_obj() too); in chainpool's (CP_FAULT_SLABS) a slab may
 * come back across 4 GiB.
 */
#ifndef CP_FAULT_H
#define CP_FAULT_H

#include <linux/dma-mapping.h>
#include <linux/slab.h>

void *cp_dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma,
			    gfp_t gfp, const char *caller);
void *cp_dma_alloc_slab(struct device *dev, size_t size, dma_addr_t *dma,
			gfp_t gfp);
void cp_dma_free_coherent(struct device *dev, size_t size, void *cpu,
			  dma_addr_t dma);
bool cp_fault_kmalloc(const char *caller, unsigned int line);

#undef dma_free_coherent
#define dma_free_coherent(dev, size, cpu, dma) \
	cp_dma_free_coherent(dev, size, cpu, dma)

#ifdef CP_FAULT_SLABS
#define dma_alloc_coherent(dev, size, dma, gfp) \
	cp_dma_alloc_slab(dev, size, dma, gfp)
#else
#define dma_alloc_coherent(dev, size, dma, gfp) \
	cp_dma_alloc_coherent(dev, size, dma, gfp, __func__)

/* The real calls, taken before the names are renamed */
static inline void *cp_real_kmalloc(size_t n, gfp_t gfp)
{
	return kmalloc(n, gfp);
}

static inline void *cp_real_kzalloc(size_t n, gfp_t gfp)
{
	return kzalloc(n, gfp);
}

static inline void *cp_real_kcalloc(size_t n, size_t size, gfp_t gfp)
{
	return kcalloc(n, size, gfp);
}

static inline void *cp_real_krealloc(const void *p, size_t n, gfp_t gfp)
{
	return krealloc(p, n, gfp);
}

#define CP_FAULT_KMALLOC(call) \
	(cp_fault_kmalloc(__func__, __LINE__) ? NULL : (call))

#undef kmalloc
#undef kzalloc
#undef kcalloc
#undef krealloc
#define kmalloc(n, gfp)	CP_FAULT_KMALLOC(cp_real_kmalloc(n, gfp))
#define kzalloc(n, gfp)	CP_FAULT_KMALLOC(cp_real_kzalloc(n, gfp))
#define kcalloc(n, size, gfp)	CP_FAULT_KMALLOC(cp_real_kcalloc(n, size, gfp))
#define krealloc(p, n, gfp)	CP_FAULT_KMALLOC(cp_real_krealloc(p, n, gfp))
#endif /* CP_FAULT_SLABS */

#endif /* CP_FAULT_H */
