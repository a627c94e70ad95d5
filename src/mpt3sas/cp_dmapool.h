/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The driver's dma_pool calls, renamed onto cp_dmapool (force-included). */
#ifndef CP_DMAPOOL_H
#define CP_DMAPOOL_H

/* The real declarations first, so the renames below do not touch them. */
#include <linux/dmapool.h>
#include "chainpool.h"

struct cp_dmapool *cp_dmapool_create(const char *name, struct device *dev,
				     size_t size, size_t align, size_t boundary);
void *cp_dmapool_alloc(struct cp_dmapool *pool, gfp_t gfp, dma_addr_t *dma);
void cp_dmapool_free(struct cp_dmapool *pool, void *vaddr, dma_addr_t dma);
int cp_dmapool_alloc_bulk(struct cp_dmapool *pool, unsigned int count,
			  gfp_t gfp, chainpool_bulk_fn fn, void *ctx);
bool cp_dmapool_release_all(struct cp_dmapool *pool);
void cp_dmapool_log_created(struct cp_dmapool *pool, unsigned int nr_blocks,
			    u64 start_ns);
void cp_dmapool_destroy_logged(struct cp_dmapool *pool, u64 start_ns);

/* Renames, not wrappers: the driver's types and calls stay as upstream. */
#ifndef CP_DMAPOOL_IMPL
#define dma_pool		cp_dmapool
#define dma_pool_create		cp_dmapool_create
#define dma_pool_destroy(pool)	cp_dmapool_destroy_logged(pool, 0)
#define dma_pool_alloc		cp_dmapool_alloc
#define dma_pool_zalloc(pool, gfp, dma) \
	cp_dmapool_alloc(pool, (gfp) | __GFP_ZERO, dma)
#define dma_pool_free		cp_dmapool_free
#endif

#endif /* CP_DMAPOOL_H */
