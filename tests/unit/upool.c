// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User-space stand-in for the kernel glue of chainpool.
 */
#include <stdlib.h>

#include "upool.h"

#define UPOOL_PAGE 4096U

int upool_init(struct upool *pool, struct fake_dma *fd, size_t size,
	       size_t align, size_t boundary, u64 slab_cap, bool debug)
{
	struct chainpool_plan plan;
	int ret;

	memset(pool, 0, sizeof(*pool));
	ret = chainpool_plan_init(&plan, size, align, boundary, UPOOL_PAGE,
				  slab_cap);
	if (ret)
		return ret;
	chainpool_core_init(&pool->core, &plan, debug);
	pool->fd = fd;
	return 0;
}

static int upool_grow_table(struct upool *pool)
{
	u32 max = pool->core.max_slabs ? pool->core.max_slabs * 2 : 4;
	void *storage = malloc(chainpool_core_table_bytes(max));
	void *old;

	if (!storage)
		return -ENOMEM;
	pool->table_allocs++;
	if (chainpool_core_replace_table(&pool->core, storage, max, &old)) {
		free(storage);
		pool->table_frees++;
		return -EINVAL;
	}
	if (old)
		pool->table_frees++;
	free(old);
	pool->table = storage;
	return 0;
}

int upool_grow(struct upool *pool, unsigned int order)
{
	struct chainpool_slab slab;
	int ret;

	ret = chainpool_slab_acquire(&pool->core.plan, order, &fake_dma_ops,
				     pool->fd, &pool->fault, &pool->acquire,
				     &slab);
	if (ret)
		return ret;
	if (pool->core.debug) {
		slab.inuse_map = calloc(1, chainpool_core_map_bytes(&pool->core.plan,
								    slab.order));
		if (!slab.inuse_map)
			goto free_slab;
	}
	ret = chainpool_core_add_slab(&pool->core, &slab);
	if (ret == -ENOSPC) {
		ret = upool_grow_table(pool);
		if (!ret)
			ret = chainpool_core_add_slab(&pool->core, &slab);
	}
	if (!ret)
		return 0;
free_slab:
	free(slab.inuse_map);
	fake_dma_ops.free(pool->fd,
			  chainpool_plan_slab_bytes(&pool->core.plan, slab.order),
			  slab.cpu, slab.dma);
	return ret ? ret : -ENOMEM;
}

int upool_fill(struct upool *pool, u64 nr_blocks)
{
	while (pool->core.nr_blocks < nr_blocks) {
		u64 missing = nr_blocks - pool->core.nr_blocks;
		int ret;

		ret = upool_grow(pool, chainpool_plan_order_for(&pool->core.plan,
								missing));
		if (ret)
			return ret;
	}
	return 0;
}

int upool_alloc(struct upool *pool, unsigned int flags, void **vaddr,
		dma_addr_t *dma)
{
	int ret = chainpool_core_alloc(&pool->core, flags, vaddr, dma);

	if (ret != -ENOMEM)
		return ret;
	ret = upool_grow(pool, pool->core.plan.max_order);
	if (ret)
		return ret;
	return chainpool_core_alloc(&pool->core, flags, vaddr, dma);
}

int upool_alloc_bulk(struct upool *pool, u32 count, unsigned int flags,
		     chainpool_bulk_fn fn, void *ctx)
{
	int ret = upool_fill(pool, (u64)pool->core.nr_in_use + count);

	if (ret)
		return ret;
	return chainpool_core_alloc_bulk(&pool->core, count, flags, fn, ctx);
}

u32 upool_destroy(struct upool *pool)
{
	u32 in_use = pool->core.nr_in_use;
	u32 i;

	for (i = 0; i < pool->core.nr_slabs; i++) {
		struct chainpool_slab *slab = &pool->core.slabs[i];

		free(slab->inuse_map);
		if (!in_use)
			fake_dma_ops.free(pool->fd,
					  chainpool_plan_slab_bytes(&pool->core.plan,
								    slab->order),
					  slab->cpu, slab->dma);
	}
	free(pool->table);
	if (pool->table)
		pool->table_frees++;
	pool->table = NULL;
	return in_use;
}
