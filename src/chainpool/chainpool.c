// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chainpool: a pool's calls, as dma_pool's.  A spinlock per pool
 * serialises the core (chainpool_core.c); the pool grows in
 * chainpool_grow.c, and its DMA addresses are looked up lock-free under
 * RCU.  Builds in the kernel and, with tests/unit/kernel/, in user space.
 */
#include <linux/device.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "chainpool_pool.h"

/**
 * chainpool_create_params() - create a pool with explicit settings
 * @name: pool name, for messages and debugfs
 * @dev: device the blocks are for
 * @size: block size
 * @align: block alignment, 0 or a power of two
 * @boundary: 0, or a power of two not below @size that blocks must not cross
 * @params: slab cap, debug and fault injection settings
 *
 * Like dma_pool_create(), no memory is allocated for blocks yet; see
 * chainpool_fill().  chainpool_create() calls it with the module
 * parameters; tests call it with their own settings.
 *
 * Context: may sleep.
 * Return: the pool, or NULL.
 */
struct chainpool *chainpool_create_params(const char *name,
					  struct device *dev, size_t size,
					  size_t align, size_t boundary,
					  const struct chainpool_params *params)
{
	u64 start = ktime_get_ns();
	struct chainpool_plan plan;
	struct chainpool *pool;

	if (!name || !dev)
		return NULL;
	if (chainpool_plan_init(&plan, size, align, boundary, PAGE_SIZE,
				params->slab_bytes))
		return NULL;
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	spin_lock_init(&pool->lock);
	chainpool_core_init(&pool->core, &plan, params->debug);
	pool->fault.fail_at = params->fail_slab;
	pool->fault.fail_max_order = params->fail_max_order;
	pool->dev = dev;
	strscpy(pool->name, name, sizeof(pool->name));
	chainpool_debugfs_add(pool);
	pool->create_ns = ktime_get_ns() - start;
	return pool;
}

/**
 * chainpool_fill() - allocate slabs until the pool holds some blocks
 * @pool: the pool
 * @nr_blocks: blocks the pool must hold in total
 * @gfp: allocation flags
 *
 * Uses slabs of the largest order and sizes the last one to what is
 * missing, so a pool filled with what the driver needs does not grow on
 * alloc.  Costs O(slabs), independent of @nr_blocks.
 *
 * Return: 0, or -ENOMEM; slabs added before a failure stay in the pool.
 */
int chainpool_fill(struct chainpool *pool, unsigned int nr_blocks, gfp_t gfp)
{
	u64 start = ktime_get_ns();
	unsigned long flags;
	int ret;

	ret = chainpool_grow(pool, nr_blocks, true, gfp);
	spin_lock_irqsave(&pool->lock, flags);
	pool->fill_ns += ktime_get_ns() - start;
	spin_unlock_irqrestore(&pool->lock, flags);
	return ret;
}

static void chainpool_report_corruption(struct chainpool *pool, void *vaddr,
					dma_addr_t dma)
{
	dev_err(pool->dev, "chainpool %s: block %p (dma %pad) written after free; bad links are not followed\n",
		pool->name, vaddr, &dma);
	print_hex_dump(KERN_ERR, "", DUMP_PREFIX_OFFSET, 16, 1, vaddr,
		       min_t(u32, pool->core.plan.size, 256), true);
}

/**
 * chainpool_alloc() - allocate a block, as dma_pool_alloc()
 * @pool: the pool
 * @gfp: allocation flags, used when the pool must grow; __GFP_ZERO zeroes
 * @dma: set to the block's DMA address
 *
 * O(1) unless the pool is empty and grows by one slab.  When @gfp does
 * not allow sleeping, a slab the growth has to give back (one that breaks
 * the layout, or that cannot be added) is parked instead of freed, since
 * dma_free_coherent() must not run with interrupts off; parked slabs are
 * freed by the next growth that may sleep, or by chainpool_destroy().
 *
 * Context: any, if @gfp does not allow sleeping.
 * Return: the block's CPU address, or NULL.
 */
void *chainpool_alloc(struct chainpool *pool, gfp_t gfp, dma_addr_t *dma)
{
	unsigned int flags = gfp & __GFP_ZERO ? CHAINPOOL_ALLOC_ZERO : 0;
	unsigned long irqflags;
	u64 nr_blocks = 0;
	void *vaddr;
	int ret;

	for (;;) {
		spin_lock_irqsave(&pool->lock, irqflags);
		ret = chainpool_core_alloc(&pool->core, flags, &vaddr, dma);
		if (ret == -ENOMEM)
			nr_blocks = chainpool_core_nr_blocks(&pool->core);
		spin_unlock_irqrestore(&pool->lock, irqflags);
		if (ret == -EFAULT) {
			/* debug only: the list was dropped, carve instead */
			dev_err(pool->dev, "chainpool %s: free list head corrupted, list dropped\n",
				pool->name);
			continue;
		}
		if (ret != -ENOMEM)
			break;
		/* Grow by one slab of the largest order. */
		if (chainpool_grow(pool, nr_blocks + 1, false, gfp))
			return NULL;
	}
	if (ret == -EIO)
		chainpool_report_corruption(pool, vaddr, *dma);
	return vaddr;
}

/**
 * chainpool_alloc_bulk() - allocate many blocks in one pass
 * @pool: the pool
 * @count: blocks wanted
 * @gfp: allocation flags for the slabs the pool may need first;
 *	__GFP_ZERO zeroes the blocks
 * @fn: called once per block with its CPU and DMA address, in order
 *	(index 0 to @count - 1), under the pool's spinlock with interrupts
 *	off: it must only store them
 * @ctx: passed to @fn
 *
 * Grows the pool as chainpool_fill() does until @count more blocks are
 * free and reserves them, then hands them out in batches of
 * chainpool_core_batch() blocks (512 of 128 bytes), one hold of the lock
 * each, so that interrupts are never off for more than a batch: blocks
 * never used are carved with a running offset, without a call per block.
 * Single allocations and frees may run between the batches; they leave
 * the reserved blocks alone.  All or nothing: on failure @fn was not
 * called and no block is in use; slabs the growth added stay in the pool
 * until it is released or destroyed.  Pairs with chainpool_release_all()
 * for callers that fill a pool once and give everything back at once,
 * such as the driver's chain pool.
 *
 * Context: may sleep if @gfp allows (then between batches too); see
 * chainpool_alloc().
 * Return: 0, or -ENOMEM.
 */
int chainpool_alloc_bulk(struct chainpool *pool, unsigned int count,
			 gfp_t gfp, chainpool_bulk_fn fn, void *ctx)
{
	unsigned int flags = gfp & __GFP_ZERO ? CHAINPOOL_ALLOC_ZERO : 0;
	u32 batch = chainpool_core_batch(&pool->core), index = 0, from;
	unsigned long irqflags;
	bool eio = false;
	u64 want, start;
	int ret;

	for (;;) {
		/* Again each time: others may have taken blocks meanwhile. */
		spin_lock_irqsave(&pool->lock, irqflags);
		want = (u64)pool->core.nr_in_use + pool->core.nr_reserved +
		       count;
		spin_unlock_irqrestore(&pool->lock, irqflags);
		if (want > U32_MAX)
			return -ENOMEM;
		ret = chainpool_fill(pool, want, gfp);
		if (ret)
			return ret;
		spin_lock_irqsave(&pool->lock, irqflags);
		ret = chainpool_core_reserve(&pool->core, count);
		spin_unlock_irqrestore(&pool->lock, irqflags);
		/* -ENOMEM: another caller took blocks after the fill. */
		if (ret != -ENOMEM)
			break;
	}
	while (!ret && index < count) {
		spin_lock_irqsave(&pool->lock, irqflags);
		start = chainpool_hold_start();
		from = index;
		ret = chainpool_core_alloc_reserved(&pool->core, &index,
						    min(batch, count - index),
						    flags, fn, ctx);
		if (ret == -ENOMEM)
			chainpool_core_unreserve(&pool->core, count - index);
		chainpool_hold_end(pool, false, start, index - from);
		spin_unlock_irqrestore(&pool->lock, irqflags);
		if (ret == -EIO) {
			eio = true;
			ret = 0;
		}
		if (gfpflags_allow_blocking(gfp))
			cond_resched();
	}
	if (eio)
		dev_err(pool->dev, "chainpool %s: bulk allocation found freed blocks written after free\n",
			pool->name);
	return ret;
}

/**
 * chainpool_release_all() - give every block of a pool back at once
 * @pool: the pool
 *
 * For a caller that holds every block it took (and whose device no longer
 * uses any): no per-block chainpool_free(), O(1);
 * chainpool_destroy() then frees the slabs without complaint.  With
 * chainpool_debug the pool also checks its in-use maps against its count,
 * clears them and poisons the released blocks as freed, in batches of
 * chainpool_core_batch() blocks, one hold of the lock each.
 *
 * Context: any; O(blocks) with chainpool_debug.
 * Return: 0; -EIO (debug only, reported) when the maps disagreed.
 */
int chainpool_release_all(struct chainpool *pool)
{
	struct chainpool_release rel;
	unsigned long flags;
	bool more = true;
	u64 start;
	u32 in_use;
	int ret;

	chainpool_core_release_begin(&rel);
	while (more) {
		spin_lock_irqsave(&pool->lock, flags);
		start = chainpool_hold_start();
		more = chainpool_core_release_step(&pool->core, &rel);
		chainpool_hold_end(pool, true, start, rel.stepped);
		spin_unlock_irqrestore(&pool->lock, flags);
	}
	spin_lock_irqsave(&pool->lock, flags);
	start = chainpool_hold_start();
	in_use = pool->core.nr_in_use;
	ret = chainpool_core_release_end(&pool->core, &rel);
	chainpool_hold_end(pool, true, start, 0);
	spin_unlock_irqrestore(&pool->lock, flags);
	if (ret)
		dev_err(pool->dev, "chainpool %s: release of %u blocks: in-use maps disagree with the count\n",
			pool->name, in_use);
	return ret;
}

/**
 * chainpool_zalloc() - allocate a zeroed block, as dma_pool_zalloc()
 * @pool: the pool
 * @gfp: allocation flags
 * @dma: set to the block's DMA address
 *
 * Return: the block's CPU address, or NULL.
 */
void *chainpool_zalloc(struct chainpool *pool, gfp_t gfp, dma_addr_t *dma)
{
	return chainpool_alloc(pool, gfp | __GFP_ZERO, dma);
}

/**
 * chainpool_free() - give a block back, as dma_pool_free()
 * @pool: the pool
 * @vaddr: CPU address from chainpool_alloc()
 * @dma: DMA address from chainpool_alloc()
 *
 * O(1); with chainpool_debug, bad frees are reported and ignored.
 */
void chainpool_free(struct chainpool *pool, void *vaddr, dma_addr_t dma)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&pool->lock, flags);
	ret = chainpool_core_free(&pool->core, vaddr, dma);
	spin_unlock_irqrestore(&pool->lock, flags);
	if (ret)
		dev_err(pool->dev, "chainpool %s: bad free of %p (dma %pad): %s\n",
			pool->name, vaddr, &dma,
			ret == -EALREADY ? "not in use" :
			ret == -EINVAL ? "address mismatch" : "not in pool");
}

/**
 * chainpool_dma_to_virt() - CPU address of a handed-out block
 * @pool: the pool
 * @dma: DMA address of the start of a block
 *
 * O(log slabs) and lock-free: the slab table is read under
 * rcu_read_lock(), so this is safe on an I/O path, concurrently with
 * alloc, free and growth, but not with chainpool_destroy().  Finds only
 * blocks the pool has handed out (see chainpool_core_lookup()): never one
 * a fill made but nobody took, nor, after chainpool_release_all(), any
 * block.
 *
 * Return: the CPU address, or NULL when @dma does not start such a block
 * of @pool.
 */
void *chainpool_dma_to_virt(struct chainpool *pool, dma_addr_t dma)
{
	void *vaddr;

	rcu_read_lock();
	vaddr = chainpool_core_lookup(&pool->core,
				      rcu_dereference(pool->core.table), dma);
	rcu_read_unlock();
	return vaddr;
}

/**
 * chainpool_get_stats() - snapshot of a pool's geometry and counters
 * @pool: the pool
 * @st: filled in
 */
void chainpool_get_stats(struct chainpool *pool, struct chainpool_stats *st)
{
	const struct chainpool_plan *plan = &pool->core.plan;
	struct chainpool_core_stats cs;
	unsigned long flags;

	memset(st, 0, sizeof(*st));
	spin_lock_irqsave(&pool->lock, flags);
	chainpool_core_get_stats(&pool->core, &cs);
	st->create_ns = pool->create_ns;
	st->fill_ns = pool->fill_ns;
	st->fallbacks = pool->acquire.fallbacks;
	st->rejected = pool->acquire.rejected;
	st->injected = pool->fault.injected;
	st->parked = pool->nr_parked;
	spin_unlock_irqrestore(&pool->lock, flags);

	st->size = plan->size;
	st->stride = plan->stride;
	st->align = plan->align;
	st->boundary = plan->boundary;
	st->blocks_total = cs.blocks_total;
	st->blocks_in_use = cs.blocks_in_use;
	st->nr_slabs = cs.nr_slabs;
	memcpy(st->slabs_by_order, cs.slabs_by_order,
	       sizeof(st->slabs_by_order));
	st->dma_bytes = cs.dma_bytes;
	st->debug = pool->core.debug;
	st->meta_bytes = cs.meta_bytes + sizeof(*pool);
	if (cs.nr_slabs)
		st->meta_bytes += sizeof(struct chainpool_table_mem);
}

#ifdef CHAINPOOL_TESTING
/**
 * chainpool_get_test_stats() - what a test build counts of a pool
 * @pool: the pool
 * @ts: filled in
 */
void chainpool_get_test_stats(struct chainpool *pool,
			      struct chainpool_test_stats *ts)
{
	unsigned long flags;

	spin_lock_irqsave(&pool->lock, flags);
	*ts = pool->test;
	ts->retired_bytes = pool->retired_bytes;
	spin_unlock_irqrestore(&pool->lock, flags);
}
#endif

/**
 * chainpool_destroy() - destroy a pool, as dma_pool_destroy()
 * @pool: the pool, or NULL
 *
 * Frees every slab in O(slabs).  If blocks are still in use the device may
 * still access them, so, like dma_pool_destroy(), the pool complains; and
 * unlike it, the slabs' coherent memory is deliberately leaked rather than
 * freed under the device.  Metadata is always freed.
 *
 * Context: may sleep; no other call on @pool may run or follow.
 */
void chainpool_destroy(struct chainpool *pool)
{
	if (!pool)
		return;
	chainpool_debugfs_del(pool);
	if (pool->core.nr_in_use)
		dev_err(pool->dev, "chainpool %s: destroy with %u blocks still in use\n",
			pool->name, pool->core.nr_in_use);
	chainpool_free_memory(pool);
	kfree(pool);
}
