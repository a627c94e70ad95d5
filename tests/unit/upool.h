/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * User-space stand-in for the kernel glue: grows a chainpool_core with the
 * fake DMA allocator, the way chainpool.c does with dma_alloc_coherent().
 */
#ifndef UPOOL_H
#define UPOOL_H

#include "chainpool_core.h"
#include "fake_dma.h"

struct upool {
	struct chainpool_core core;
	struct fake_dma *fd;
	struct chainpool_fault fault;
	struct chainpool_acquire_stats acquire;
	u64 table_allocs;
	u64 table_frees;
};

int upool_init(struct upool *pool, struct fake_dma *fd, size_t size,
	       size_t align, size_t boundary, u64 slab_cap, bool debug);
int upool_grow(struct upool *pool, unsigned int order);
int upool_fill(struct upool *pool, u64 nr_blocks);
int upool_alloc(struct upool *pool, unsigned int flags, void **vaddr,
		dma_addr_t *dma);
/* Fills the pool as far as needed, then takes @count blocks in one pass. */
int upool_alloc_bulk(struct upool *pool, u32 count, unsigned int flags,
		     chainpool_bulk_fn fn, void *ctx);
/* The core's counts, counted from its table as the glue's stats are. */
static inline struct chainpool_core_stats
core_stats(const struct chainpool_core *core)
{
	struct chainpool_core_stats st;

	chainpool_core_get_stats(core, &st);
	return st;
}

/* Frees the slabs only when no block is in use; returns blocks in use. */
u32 upool_destroy(struct upool *pool);

#endif
