// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cp_dmapool: the dma_pool calls of the mpt3sas driver, routed to chainpool
 * or to the kernel's dma_pool.
 *
 * The pool_allocator module parameter picks the allocator at load time,
 * chainpool by default, so that users can compare both on their own
 * hardware.  Each pool remembers which one it was created with.
 */

#include <linux/device.h>
#include <linux/dmapool.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "chainpool.h"
#include "cp_dmapool.h"

/* This file implements the renamed calls; it must see the real ones. */
#undef dma_pool
#undef dma_pool_create
#undef dma_pool_destroy
#undef dma_pool_alloc
#undef dma_pool_zalloc
#undef dma_pool_free

enum cp_allocator {
	CP_ALLOC_CHAINPOOL,
	CP_ALLOC_DMA_POOL,
};

static const char * const cp_allocator_names[] = {
	[CP_ALLOC_CHAINPOOL] = "chainpool",
	[CP_ALLOC_DMA_POOL] = "dma_pool",
};

static enum cp_allocator pool_allocator = CP_ALLOC_CHAINPOOL;

static int pool_allocator_set(const char *val, const struct kernel_param *kp)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(cp_allocator_names); i++) {
		if (sysfs_streq(val, cp_allocator_names[i])) {
			pool_allocator = i;
			return 0;
		}
	}
	pr_err("mpt3sas: pool_allocator=%s is not one of: chainpool, dma_pool\n",
	       val);
	return -EINVAL;
}

static int pool_allocator_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n",
			 cp_allocator_names[pool_allocator]);
}

static const struct kernel_param_ops pool_allocator_ops = {
	.set = pool_allocator_set,
	.get = pool_allocator_get,
};

/* Read-only once loaded: a pool must be freed by the allocator it came from. */
module_param_cb(pool_allocator, &pool_allocator_ops, NULL, 0444);
MODULE_PARM_DESC(pool_allocator,
		 "allocator behind the driver's DMA pools: chainpool (default) or dma_pool");

/**
 * struct cp_dmapool - one driver pool and the allocator behind it
 * @cpool: the chainpool, or NULL
 * @kpool: the kernel's dma_pool, or NULL
 * @dev: the device, for log lines
 * @size: block size, for log lines
 * @bulk: blocks were taken with cp_dmapool_alloc_bulk()
 * @released: every block was given back by cp_dmapool_release_all()
 * @name: the driver's name of the pool
 */
struct cp_dmapool {
	struct chainpool *cpool;
	struct dma_pool *kpool;
	struct device *dev;
	size_t size;
	bool bulk;
	bool released;
	char name[32];
};

/**
 * cp_dmapool_create - dma_pool_create() for the driver
 * @name: name of the pool, for logs and debugfs
 * @dev: device that will do DMA to the pool's blocks
 * @size: size of each block
 * @align: alignment of each block (power of two)
 * @boundary: blocks do not cross this power of two; 0 for none
 *
 * Return: the pool, or NULL when memory or the arguments fail.
 */
struct cp_dmapool *cp_dmapool_create(const char *name, struct device *dev,
				     size_t size, size_t align,
				     size_t boundary)
{
	struct cp_dmapool *pool;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	pool->dev = dev;
	pool->size = size;
	strscpy(pool->name, name, sizeof(pool->name));
	if (pool_allocator == CP_ALLOC_DMA_POOL)
		pool->kpool = dma_pool_create(name, dev, size, align, boundary);
	else
		pool->cpool = chainpool_create(name, dev, size, align, boundary);
	if (!pool->kpool && !pool->cpool) {
		kfree(pool);
		return NULL;
	}
	return pool;
}

/**
 * cp_dmapool_destroy - dma_pool_destroy() for the driver
 * @pool: the pool, or NULL
 *
 * Blocks still in use are reported by the allocator behind the pool.
 */
void cp_dmapool_destroy(struct cp_dmapool *pool)
{
	if (!pool)
		return;
	/* Only one is set; both calls accept NULL. */
	dma_pool_destroy(pool->kpool);
	chainpool_destroy(pool->cpool);
	kfree(pool);
}

/**
 * cp_dmapool_alloc - dma_pool_alloc() for the driver
 * @pool: the pool
 * @gfp: allocation flags
 * @dma: where to store the block's DMA address
 *
 * Return: the block's CPU address, or NULL.
 */
void *cp_dmapool_alloc(struct cp_dmapool *pool, gfp_t gfp, dma_addr_t *dma)
{
	if (pool->kpool)
		return dma_pool_alloc(pool->kpool, gfp, dma);
	return chainpool_alloc(pool->cpool, gfp, dma);
}

/**
 * cp_dmapool_zalloc - dma_pool_zalloc() for the driver
 * @pool: the pool
 * @gfp: allocation flags
 * @dma: where to store the block's DMA address
 *
 * Return: the zeroed block's CPU address, or NULL.
 */
void *cp_dmapool_zalloc(struct cp_dmapool *pool, gfp_t gfp, dma_addr_t *dma)
{
	if (pool->kpool)
		return dma_pool_zalloc(pool->kpool, gfp, dma);
	return chainpool_zalloc(pool->cpool, gfp, dma);
}

/**
 * cp_dmapool_free - dma_pool_free() for the driver
 * @pool: the pool the block came from
 * @vaddr: the block's CPU address
 * @dma: the block's DMA address
 */
void cp_dmapool_free(struct cp_dmapool *pool, void *vaddr, dma_addr_t dma)
{
	if (pool->kpool)
		dma_pool_free(pool->kpool, vaddr, dma);
	else
		chainpool_free(pool->cpool, vaddr, dma);
}

/**
 * cp_dmapool_fill - make room for a known number of blocks up front
 * @pool: the pool
 * @nr_blocks: blocks the driver is about to allocate
 * @gfp: allocation flags
 *
 * chainpool then takes a few large slabs at once instead of growing one
 * slab at a time; the kernel's dma_pool has no such call and grows as the
 * driver allocates.
 *
 * Return: 0, or -ENOMEM when the slabs cannot be had.
 */
int cp_dmapool_fill(struct cp_dmapool *pool, unsigned int nr_blocks,
		    gfp_t gfp)
{
	if (pool->kpool)
		return 0;
	return chainpool_fill(pool->cpool, nr_blocks, gfp);
}

/**
 * cp_dmapool_alloc_bulk - take many blocks in one pass, if the pool can
 * @pool: the pool
 * @count: blocks wanted
 * @gfp: allocation flags
 * @fn: called once per block with its index (0 to @count - 1), CPU and
 *	DMA address, under chainpool's spinlock: it must only store them
 * @ctx: passed to @fn
 *
 * chainpool hands all @count blocks out under one lock hold (see
 * chainpool_alloc_bulk()); the kernel's dma_pool has no such call, and
 * the caller then allocates block by block as upstream does.
 *
 * Return: 0; -EOPNOTSUPP for a dma_pool; -ENOMEM when the blocks cannot
 * be had, in which case none was handed out.
 */
int cp_dmapool_alloc_bulk(struct cp_dmapool *pool, unsigned int count,
			  gfp_t gfp,
			  void (*fn)(void *ctx, u32 index, void *vaddr,
				     dma_addr_t dma),
			  void *ctx)
{
	if (pool->kpool)
		return -EOPNOTSUPP;
	pool->bulk = true;
	return chainpool_alloc_bulk(pool->cpool, count, gfp, fn, ctx);
}

/**
 * cp_dmapool_release_all - give every block back at once, if the pool can
 * @pool: the pool
 *
 * For a caller that holds every block it took from @pool and whose device
 * no longer uses any; cp_dmapool_destroy() then costs O(slabs).
 *
 * Return: true when chainpool released the blocks; false for a dma_pool,
 * whose blocks the caller must free one by one as upstream does.
 */
bool cp_dmapool_release_all(struct cp_dmapool *pool)
{
	if (!pool || pool->kpool)
		return false;
	chainpool_release_all(pool->cpool);
	pool->released = true;
	return true;
}

/**
 * cp_dmapool_dma_to_virt - CPU address of the block at a DMA address
 * @pool: the pool
 * @dma: DMA address of the start of a block
 *
 * Return: the CPU address, or NULL when @dma is not a block the
 * chainpool has handed out (the kernel's dma_pool cannot answer this: the
 * caller then searches its own records).
 */
void *cp_dmapool_dma_to_virt(struct cp_dmapool *pool, dma_addr_t dma)
{
	if (!pool || !pool->cpool)
		return NULL;
	return chainpool_dma_to_virt(pool->cpool, dma);
}

/**
 * cp_dmapool_allocator - name of the allocator behind a pool
 * @pool: the pool
 *
 * Return: "chainpool" or "dma_pool", as pool_allocator spells them.
 */
const char *cp_dmapool_allocator(const struct cp_dmapool *pool)
{
	return cp_allocator_names[pool->kpool ? CP_ALLOC_DMA_POOL :
						CP_ALLOC_CHAINPOOL];
}

/* "<allocator>, N blocks of S B[, K slabs (order o x n, ...), M KiB]" */
static void cp_dmapool_describe(struct cp_dmapool *pool,
				unsigned int nr_blocks, char *buf, size_t len)
{
	struct chainpool_stats st;
	size_t n;
	int o;
	bool first = true;

	n = scnprintf(buf, len, "%s, %u blocks of %zu B",
		      cp_dmapool_allocator(pool), nr_blocks, pool->size);
	if (pool->kpool)
		return;
	chainpool_get_stats(pool->cpool, &st);
	n += scnprintf(buf + n, len - n, ", %u slabs (", st.nr_slabs);
	for (o = ARRAY_SIZE(st.slabs_by_order) - 1; o >= 0; o--) {
		if (!st.slabs_by_order[o])
			continue;
		n += scnprintf(buf + n, len - n, "%sorder %d x %u",
			       first ? "" : ", ", o, st.slabs_by_order[o]);
		first = false;
	}
	scnprintf(buf + n, len - n, "), %llu KiB",
		  (unsigned long long)(st.dma_bytes >> 10));
}

/**
 * cp_dmapool_log_created - log a filled pool's geometry and creation time
 * @pool: the pool
 * @nr_blocks: blocks the driver allocated from it
 * @start_ns: ktime_get_ns() before the pool was created
 */
void cp_dmapool_log_created(struct cp_dmapool *pool, unsigned int nr_blocks,
			    u64 start_ns)
{
	u64 us = div_u64(ktime_get_ns() - start_ns, NSEC_PER_USEC);
	char desc[160];

	cp_dmapool_describe(pool, nr_blocks, desc, sizeof(desc));
	dev_info(pool->dev, "%s: %s: created in %llu us%s\n", pool->name, desc,
		 (unsigned long long)us,
		 pool->bulk ? " (bulk allocation)" : "");
}

/**
 * cp_dmapool_destroy_logged - destroy a pool and log how long it took
 * @pool: the pool, or NULL
 * @start_ns: ktime_get_ns() before the driver began freeing its blocks
 */
void cp_dmapool_destroy_logged(struct cp_dmapool *pool, u64 start_ns)
{
	struct device *dev;
	char name[sizeof(pool->name)];
	const char *allocator;
	bool released;
	u64 us;

	if (!pool)
		return;
	dev = pool->dev;
	strscpy(name, pool->name, sizeof(name));
	/* static strings: still valid once the pool is gone */
	allocator = cp_dmapool_allocator(pool);
	released = pool->released;
	cp_dmapool_destroy(pool);
	us = div_u64(ktime_get_ns() - start_ns, NSEC_PER_USEC);
	dev_info(dev, "%s: %s: freed and destroyed in %llu us%s\n", name,
		 allocator, (unsigned long long)us,
		 released ? " (whole-pool release)" : "");
}
