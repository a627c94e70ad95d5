// SPDX-License-Identifier: GPL-2.0-or-later
/* The driver's DMA pools: chainpool, or the kernel's dma_pool to compare. */
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>

#define CP_DMAPOOL_IMPL		/* the renamed calls are defined here */
#include "cp_dmapool.h"

static const char * const cp_allocators[] = { "chainpool", "dma_pool" };
static int pool_allocator;

/* Set at load only (0444), so no trailing newline to allow for. */
static int pool_allocator_set(const char *val, const struct kernel_param *kp)
{
	int i;

	/* strcmp(), not sysfs_match_string(): that is no part of RHEL 8's and 9's kABI */
	for (i = 0; i < ARRAY_SIZE(cp_allocators); i++) {
		if (!strcmp(val, cp_allocators[i])) {
			pool_allocator = i;
			return 0;
		}
	}
	pr_err("mpt3sas: pool_allocator=%s is not one of: chainpool, dma_pool\n", val);
	return -EINVAL;
}

static int pool_allocator_get(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%s\n", cp_allocators[pool_allocator]);
}

static const struct kernel_param_ops pool_allocator_ops = {
	.set = pool_allocator_set,
	.get = pool_allocator_get,
};

/* Read-only once loaded: a pool must be freed by the allocator it came from. */
module_param_cb(pool_allocator, &pool_allocator_ops, NULL, 0444);
MODULE_PARM_DESC(pool_allocator,
		 "allocator behind the driver's DMA pools: chainpool (default) or dma_pool");

struct cp_dmapool {
	struct chainpool *cpool;
	struct dma_pool *kpool;
	struct device *dev;
	size_t size;
	char name[32];
};

/**
 * cp_dmapool_create - dma_pool_create(), with the same arguments
 */
struct cp_dmapool *cp_dmapool_create(const char *name, struct device *dev,
				     size_t size, size_t align, size_t boundary)
{
	struct cp_dmapool *pool;

	if (chainpool_fault(CHAINPOOL_FAULT_CREATE, name, dev))
		return NULL;
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	pool->dev = dev;
	pool->size = size;
	strscpy(pool->name, name, sizeof(pool->name));
	if (pool_allocator)
		pool->kpool = dma_pool_create(name, dev, size, align, boundary);
	else
		pool->cpool = chainpool_create(name, dev, size, align, boundary);
	if (pool->kpool || pool->cpool)
		return pool;
	kfree(pool);
	return NULL;
}

/**
 * cp_dmapool_destroy_logged - destroy a pool and log how long it took
 * @pool: the pool, or NULL
 * @start_ns: ktime_get_ns() before the driver began freeing its blocks,
 *	or 0 for no log line (dma_pool_destroy())
 */
void cp_dmapool_destroy_logged(struct cp_dmapool *pool, u64 start_ns)
{
	if (!pool)
		return;
	dma_pool_destroy(pool->kpool);	/* both take NULL */
	chainpool_destroy(pool->cpool);
	if (start_ns)
		dev_info(pool->dev, "%s: %s: freed and destroyed in %llu us%s\n",
			 pool->name, cp_allocators[!pool->cpool],
			 div_u64(ktime_get_ns() - start_ns, NSEC_PER_USEC),
			 pool->cpool ? " (whole-pool release)" : "");
	kfree(pool);
}

/**
 * cp_dmapool_alloc - dma_pool_alloc(); dma_pool_zalloc() with __GFP_ZERO
 */
void *cp_dmapool_alloc(struct cp_dmapool *pool, gfp_t gfp, dma_addr_t *dma)
{
	if (chainpool_fault(CHAINPOOL_FAULT_ALLOC, pool->name, pool->dev))
		return NULL;
	if (pool->kpool)
		return dma_pool_alloc(pool->kpool, gfp, dma);
	return chainpool_alloc(pool->cpool, gfp, dma);
}

/**
 * cp_dmapool_free - dma_pool_free(), with the same arguments
 */
void cp_dmapool_free(struct cp_dmapool *pool, void *vaddr, dma_addr_t dma)
{
	if (pool->kpool)
		dma_pool_free(pool->kpool, vaddr, dma);
	else
		chainpool_free(pool->cpool, vaddr, dma);
}

/**
 * cp_dmapool_alloc_bulk - chainpool_alloc_bulk(); -EOPNOTSUPP on a dma_pool
 */
int cp_dmapool_alloc_bulk(struct cp_dmapool *pool, unsigned int count,
			  gfp_t gfp, chainpool_bulk_fn fn, void *ctx)
{
	if (pool->kpool)
		return -EOPNOTSUPP;
	if (chainpool_fault(CHAINPOOL_FAULT_ALLOC, pool->name, pool->dev))
		return -ENOMEM;
	return chainpool_alloc_bulk(pool->cpool, count, gfp, fn, ctx);
}

/**
 * cp_dmapool_release_all - chainpool_release_all(); false: free each block
 */
bool cp_dmapool_release_all(struct cp_dmapool *pool)
{
	if (!pool || pool->kpool)
		return false;
	chainpool_release_all(pool->cpool);
	return true;
}

/**
 * cp_dmapool_log_created - log a filled pool's geometry and creation time
 * @pool: the pool
 * @nr_blocks: blocks the driver took
 * @start_ns: ktime_get_ns() before the pool was created
 */
void cp_dmapool_log_created(struct cp_dmapool *pool, unsigned int nr_blocks,
			    u64 start_ns)
{
	struct chainpool_stats st;
	char buf[160] = "";
	int o, n;

	if (pool->cpool) {
		chainpool_get_stats(pool->cpool, &st);
		n = scnprintf(buf, sizeof(buf), ", %u slabs (", st.nr_slabs);
		for (o = CHAINPOOL_NR_ORDERS - 1; o >= 0; o--)
			if (st.slabs_by_order[o])
				n += scnprintf(buf + n, sizeof(buf) - n, "order %d x %u, ",
					       o, st.slabs_by_order[o]);
		scnprintf(buf + n - 2, sizeof(buf) - n + 2, "), %llu KiB",
			  st.dma_bytes >> 10);
	}
	dev_info(pool->dev, "%s: %s, %u blocks of %zu B%s: created in %llu us%s\n",
		 pool->name, cp_allocators[!pool->cpool], nr_blocks, pool->size,
		 buf, div_u64(ktime_get_ns() - start_ns, NSEC_PER_USEC),
		 pool->cpool ? " (bulk allocation)" : "");
}
