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

/*
 * Add @slab as the kernel glue does: the core builds the new table in
 * fresh storage, and the old one is freed (in the kernel, after an RCU
 * grace period).  Each table's storage is counted so tests can check that
 * none leaks.
 */
static int upool_add_slab(struct upool *pool,
			  const struct chainpool_slab *slab,
			  unsigned long *map)
{
	struct chainpool_new_slab add = { .slab = *slab, .map = map };
	const struct chainpool_table *t = chainpool_core_table(&pool->core);
	u32 max = (t ? t->nr_slabs : 0) + 1;
	void *storage = malloc(chainpool_core_table_bytes(max,
							  pool->core.debug));
	struct chainpool_table *old;
	int ret;

	if (!storage)
		return -ENOMEM;
	pool->table_allocs++;
	ret = chainpool_core_grow(&pool->core, storage, max, &add, &old);
	if (ret) {
		free(storage);
		pool->table_frees++;
		return ret;
	}
	if (old)
		pool->table_frees++;
	free(old);
	return 0;
}

int upool_grow(struct upool *pool, unsigned int order)
{
	struct chainpool_slab slab;
	unsigned long *map = NULL;
	int ret;

	ret = chainpool_slab_acquire(&pool->core.plan, order, &fake_dma_ops,
				     pool->fd, &pool->fault, &pool->acquire,
				     &slab);
	if (ret)
		return ret;
	if (pool->core.debug) {
		map = calloc(1, chainpool_core_map_bytes(&pool->core.plan,
							 slab.order));
		if (!map) {
			ret = -ENOMEM;
			goto free_slab;
		}
	}
	ret = upool_add_slab(pool, &slab, map);
	if (!ret)
		return 0;
free_slab:
	free(map);
	fake_dma_ops.free(pool->fd,
			  chainpool_plan_slab_bytes(&pool->core.plan, slab.order),
			  slab.cpu, slab.dma);
	return ret;
}

int upool_fill(struct upool *pool, u64 nr_blocks)
{
	/* Counted once, then slab by slab, as the kernel glue does. */
	u64 have = core_stats(&pool->core).blocks_total;

	while (have < nr_blocks) {
		const struct chainpool_table *t;
		int ret;

		ret = upool_grow(pool, chainpool_plan_order_for(&pool->core.plan,
								nr_blocks - have));
		if (ret)
			return ret;
		t = chainpool_core_table(&pool->core);
		have += t->slabs[t->nr_slabs - 1].nr_blocks;
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
	const struct chainpool_table *t = chainpool_core_table(&pool->core);
	u32 in_use = pool->core.nr_in_use;
	u32 i;

	for (i = 0; t && i < t->nr_slabs; i++) {
		const struct chainpool_slab *slab = &t->slabs[i];

		if (t->maps)
			free(t->maps[i]);
		if (!in_use)
			fake_dma_ops.free(pool->fd,
					  chainpool_plan_slab_bytes(&pool->core.plan,
								    slab->order),
					  slab->cpu, slab->dma);
	}
	if (t)
		pool->table_frees++;
	free((void *)t);
	pool->core.table = NULL;
	return in_use;
}
