/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chainpool's own parts, shared by its kernel files: chainpool.c (the
 * pool's calls), chainpool_grow.c (slabs and tables), chainpool_module.c
 * (module parameters and debugfs); and by the unit tests, which build the
 * first two in user space (tests/unit/kernel/).
 */
#ifndef CHAINPOOL_POOL_H
#define CHAINPOOL_POOL_H

#include <linux/ktime.h>
#include <linux/spinlock.h>

#include "chainpool.h"

#define CHAINPOOL_NAME_LEN		32

/*
 * Slab tables a growth replaced are freed after an RCU grace period once
 * they hold more than both of these (CHAINPOOL_RETIRE_RATIO times the
 * current table), or at the end of a fill.
 */
#define CHAINPOOL_RETIRE_BYTES		(64U << 10)
#define CHAINPOOL_RETIRE_RATIO		4U

/**
 * struct chainpool_params - per-pool settings chainpool_create() takes
 *	from the module parameters
 * @slab_bytes: largest slab in bytes; 0 for the default
 * @debug: poison freed blocks, check frees and allocations
 * @fail_slab: fail the Nth slab allocation of the pool; 0 never
 * @fail_max_order: fail every slab allocation at the pool's largest order,
 *	so the pool is built from smaller slabs; ignored by a pool whose
 *	smallest order is its largest
 */
struct chainpool_params {
	u64 slab_bytes;
	bool debug;
	u32 fail_slab;
	bool fail_max_order;
};

/**
 * struct chainpool - a pool of coherent DMA blocks
 * @lock: serialises @core, @fault and the counters below
 * @core: slabs and blocks; core.table lives in a struct chainpool_table_mem
 * @fault: fault injection: its knobs and the one count of failed slabs
 * @parked: slabs given back in atomic context, freed once sleeping is allowed
 * @retired: slab tables replaced by newer ones, freed by chainpool_reap()
 * @retired_bytes: bytes of the tables on @retired
 * @nr_parked: slabs ever parked
 * @acquire: slab acquisition counters
 * @dev: device the memory is for
 * @create_ns: time chainpool_create_params() took
 * @fill_ns: time spent in chainpool_fill()
 * @debugfs: the pool's debugfs file
 * @name: pool name
 * @test: lock holds and grace periods, counted in test builds only
 */
struct chainpool {
	spinlock_t lock;	/* may be taken in atomic context */
	struct chainpool_core core;
	struct chainpool_fault fault;
	struct chainpool_parked *parked;
	struct chainpool_table_mem *retired;
	u64 retired_bytes;
	u32 nr_parked;
	struct chainpool_acquire_stats acquire;
	struct device *dev;
	u64 create_ns;
	u64 fill_ns;
	struct dentry *debugfs;
	char name[CHAINPOOL_NAME_LEN];
#ifdef CHAINPOOL_TESTING
	struct chainpool_test_stats test;
#endif
};

/*
 * Test builds (CHAINPOOL_TESTING, chainpool_test.ko) time each hold of the
 * pool lock that hands out or releases blocks, i.e. each window with
 * interrupts off, and count grace periods; other builds compile nothing.
 */
#ifdef CHAINPOOL_TESTING
static inline u64 chainpool_hold_start(void)
{
	return ktime_get_ns();
}

/* With the lock held, just before it is dropped. */
static inline void chainpool_hold_end(struct chainpool *pool, bool release,
				      u64 start, u32 blocks)
{
	struct chainpool_test_hold *h = release ? &pool->test.release :
						  &pool->test.bulk;
	u64 ns = ktime_get_ns() - start;

	h->holds++;
	h->max_blocks = max(h->max_blocks, blocks);
	h->max_ns = max(h->max_ns, ns);
	h->sum_ns += ns;
}

static inline void chainpool_test_grace_period(struct chainpool *pool)
{
	unsigned long flags;

	spin_lock_irqsave(&pool->lock, flags);
	pool->test.grace_periods++;
	spin_unlock_irqrestore(&pool->lock, flags);
}
#else
static inline u64 chainpool_hold_start(void)
{
	return 0;
}

static inline void chainpool_hold_end(struct chainpool *pool, bool release,
				      u64 start, u32 blocks)
{
}

static inline void chainpool_test_grace_period(struct chainpool *pool)
{
}
#endif

/*
 * Storage of one slab table.  Growing publishes a new table with
 * rcu_assign_pointer() (chainpool_commit(), through
 * chainpool_core_grow()), so chainpool_dma_to_virt() reads the old or
 * the new one under rcu_read_lock(), as lib/genalloc.c reads its chunks.
 * The old one is retired on @next and freed after a grace period by
 * chainpool_reap(): at the end of a fill, and in a growth on alloc only
 * once the retired tables pass a bound, so a pool growing one slab at a
 * time waits for one grace period per many growths, not one each.  Not
 * kfree_rcu(): on 5.9 to 5.13 its
 * bulk free of a kmalloc() above 8 KiB leaves the memory counted as slab
 * (fixed in 5.14 by "slub: fix unreclaimable slab stat for bulk free"),
 * and Debian's 5.10 showed /proc/meminfo's Slab growing by 1.2 MiB with
 * each fill of the anchor pool, whose last tables are ~10 KiB.
 */
struct chainpool_table_mem {
	struct chainpool_table_mem *next;
	u64 storage[];	/* the struct chainpool_table and its arrays */
};

static inline struct chainpool_table_mem *chainpool_table_mem(void *table)
{
	return table ? container_of(table, struct chainpool_table_mem,
				    storage) : NULL;
}

struct chainpool *chainpool_create_params(const char *name,
					  struct device *dev, size_t size,
					  size_t align, size_t boundary,
					  const struct chainpool_params *params);
int chainpool_grow(struct chainpool *pool, u64 nr_blocks, bool fit,
		   gfp_t gfp);
void chainpool_free_memory(struct chainpool *pool);
void chainpool_debugfs_add(struct chainpool *pool);
void chainpool_debugfs_del(struct chainpool *pool);

#endif /* CHAINPOOL_POOL_H */
