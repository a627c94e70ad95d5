// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chainpool: how a pool grows and gives its memory back.  Slabs come from
 * dma_alloc_coherent() without the pool lock; they join the pool in one
 * new slab table per growth (chainpool_core_grow() under the lock), and
 * the tables they replace are freed after an RCU grace period.
 */
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "chainpool_pool.h"

/*
 * A slab that could not be freed where it was given back: the caller may
 * not sleep, and dma_free_coherent() must not run with interrupts off.
 * The record lives in the slab's own first bytes until chainpool_unpark().
 */
struct chainpool_parked {
	struct chainpool_parked *next;
	dma_addr_t dma;
	u32 bytes;
};

/*
 * What the slab allocator callbacks need to reach dma_alloc_coherent().
 * @may_free: the caller may sleep, so a slab given back is freed at once;
 * else it is parked on @pool.
 */
struct chainpool_dma_ctx {
	struct chainpool *pool;
	struct device *dev;
	gfp_t gfp;
	bool may_free;
};

static void *chainpool_dma_alloc(void *ctx, u32 bytes, bool nowarn,
				 dma_addr_t *dma)
{
	struct chainpool_dma_ctx *dc = ctx;

	return dma_alloc_coherent(dc->dev, bytes, dma,
				  nowarn ? dc->gfp | __GFP_NOWARN : dc->gfp);
}

static void chainpool_dma_free(void *ctx, u32 bytes, void *cpu,
			       dma_addr_t dma)
{
	struct chainpool_dma_ctx *dc = ctx;
	struct chainpool_parked *p = cpu;
	unsigned long flags;

	if (dc->may_free) {
		dma_free_coherent(dc->dev, bytes, cpu, dma);
		return;
	}
	p->dma = dma;
	p->bytes = bytes;
	spin_lock_irqsave(&dc->pool->lock, flags);
	p->next = dc->pool->parked;
	dc->pool->parked = p;
	dc->pool->nr_parked++;
	spin_unlock_irqrestore(&dc->pool->lock, flags);
}

/* Free the slabs parked in atomic context; the caller may sleep. */
static void chainpool_unpark(struct chainpool *pool)
{
	struct chainpool_parked *p, *next;
	unsigned long flags;

	spin_lock_irqsave(&pool->lock, flags);
	p = pool->parked;
	pool->parked = NULL;
	spin_unlock_irqrestore(&pool->lock, flags);
	for (; p; p = next) {
		next = p->next;
		dma_free_coherent(pool->dev, p->bytes, p, p->dma);
	}
}

static const struct chainpool_slab_ops chainpool_dma_ops = {
	.alloc = chainpool_dma_alloc,
	.free = chainpool_dma_free,
};

/* Give back slabs that never reached the pool; see chainpool_dma_free(). */
static void chainpool_drop_pending(struct chainpool *pool,
				   struct chainpool_dma_ctx *dc,
				   struct chainpool_new_slab *p)
{
	struct chainpool_new_slab *next;

	for (; p; p = next) {
		struct chainpool_slab slab = p->slab;

		next = p->next;
		kfree(p->map);
		chainpool_dma_free(dc, chainpool_plan_slab_bytes(&pool->core.plan,
								 slab.order),
				   slab.cpu, slab.dma);
	}
}

/*
 * Storage for a slab table of @max_slabs.  Where the flags include
 * GFP_KERNEL (the caller may sleep, do I/O and enter the filesystems),
 * kvmalloc(): with one-page slabs (chainpool_slab_kb=4, the way out of
 * fragmented memory) the anchor pool's table is 320 KiB, an order-7
 * kmalloc() that fragmented memory is unlikely to have.  Else kmalloc():
 * before 4.18 (commit ce91f6ee5b3b), kvmalloc() warns on flags that do
 * not include GFP_KERNEL, as atomic and NOIO ones do not.
 * kvfree() frees either; a vmalloc()ed table is freed only where the
 * caller may sleep (chainpool_reap(), chainpool_destroy(), or the fill
 * that took it).
 */
static struct chainpool_table_mem *
chainpool_table_alloc(const struct chainpool *pool, u32 max_slabs, gfp_t gfp)
{
	size_t bytes = sizeof(struct chainpool_table_mem) +
		       chainpool_core_table_bytes(max_slabs, pool->core.debug);

	if ((gfp & GFP_KERNEL) == GFP_KERNEL)
		return kvmalloc(bytes, gfp);
	return kmalloc(bytes, gfp);
}

static void chainpool_free_tables(struct chainpool_table_mem *mem)
{
	struct chainpool_table_mem *next;

	for (; mem; mem = next) {
		next = mem->next;
		kvfree(mem);
	}
}

/*
 * Add the slabs on @pending to the pool in one new table, in one call of
 * chainpool_core_grow() under the lock; the table's storage is allocated
 * without it, and again if the pool grew meanwhile.  A growth collects
 * its slabs first (the records live in their first bytes), so a fill of
 * S slabs copies the table once, not S times.  On success the pool owns
 * the slabs and their maps; on failure they are given back.  The pool
 * lock must not be held.
 */
static int chainpool_commit(struct chainpool *pool,
			    struct chainpool_dma_ctx *dc,
			    struct chainpool_new_slab *pending)
{
	struct chainpool_core *core = &pool->core;
	struct chainpool_table_mem *mem, *old_mem;
	const struct chainpool_table *t;
	struct chainpool_table *old;
	struct chainpool_new_slab *p;
	unsigned long flags;
	u32 max, n, count = 0;
	int ret;

	for (p = pending; p; p = p->next)
		count++;
	spin_lock_irqsave(&pool->lock, flags);
	t = chainpool_core_table(core);
	n = t ? t->nr_slabs : 0;
	spin_unlock_irqrestore(&pool->lock, flags);
	do {
		max = n + count;
		mem = chainpool_table_alloc(pool, max, dc->gfp);
		if (!mem) {
			ret = -ENOMEM;
			break;
		}
		spin_lock_irqsave(&pool->lock, flags);
		ret = chainpool_core_grow(core, mem->storage, max, pending,
					  &old);
		/* Lock-free readers may still be in the old table. */
		if (!ret && old) {
			old_mem = chainpool_table_mem(old);
			old_mem->next = pool->retired;
			pool->retired = old_mem;
			pool->retired_bytes += sizeof(*old_mem) +
				chainpool_core_table_bytes(old->max_slabs,
							   core->debug);
		}
		t = chainpool_core_table(core);
		n = t ? t->nr_slabs : 0;
		spin_unlock_irqrestore(&pool->lock, flags);
		if (ret)
			kvfree(mem);
	} while (ret == -ENOSPC);	/* the pool grew meanwhile */
	if (ret)
		chainpool_drop_pending(pool, dc, pending);
	return ret;
}

/*
 * Free the retired slab tables once no lock-free reader can be in them:
 * all of them (@all: the end of a fill), or else only when they hold more
 * than CHAINPOOL_RETIRE_BYTES and CHAINPOOL_RETIRE_RATIO times the
 * current table, so that growth on alloc, one slab and one new table at a
 * time, waits for a grace period once per many growths (dozens while the
 * table is small, every few once it is large), and the tables kept back
 * stay within that bound.  Only where the caller may sleep; else they wait
 * for the next fill or growth that may, or for chainpool_destroy().
 * Expedited: a fill waits for one grace period, not the ~10 ms of a
 * normal one.
 */
static void chainpool_reap(struct chainpool *pool, gfp_t gfp, bool all)
{
	struct chainpool_table_mem *mem = NULL;
	const struct chainpool_table *t;
	unsigned long flags;
	u64 bound;

	if (!gfpflags_allow_blocking(gfp) || !READ_ONCE(pool->retired))
		return;
	spin_lock_irqsave(&pool->lock, flags);
	t = chainpool_core_table(&pool->core);
	bound = CHAINPOOL_RETIRE_RATIO *
		chainpool_core_table_bytes(t->max_slabs, pool->core.debug);
	if (all || pool->retired_bytes >
		   max_t(u64, CHAINPOOL_RETIRE_BYTES, bound)) {
		mem = pool->retired;
		pool->retired = NULL;
		pool->retired_bytes = 0;
	}
	spin_unlock_irqrestore(&pool->lock, flags);
	if (!mem)
		return;
	synchronize_rcu_expedited();
	chainpool_test_grace_period(pool);
	chainpool_free_tables(mem);
}

/*
 * Acquire one slab of at most @order, with its debug map, into the empty
 * end of a pending list, *@tail; the pool lock must not be held.
 */
static int chainpool_acquire(struct chainpool *pool, unsigned int order,
			     struct chainpool_dma_ctx *dc,
			     struct chainpool_new_slab **tail)
{
	const struct chainpool_plan *plan = &pool->core.plan;
	struct chainpool_acquire_stats acquire = { 0 };
	struct chainpool_fault fault;
	struct chainpool_new_slab *p;
	struct chainpool_slab slab;
	unsigned long *map = NULL;
	unsigned long flags;
	u32 count, injected;
	int ret;

	spin_lock_irqsave(&pool->lock, flags);
	fault = pool->fault;
	spin_unlock_irqrestore(&pool->lock, flags);
	count = fault.count;
	injected = fault.injected;
	/* dma_alloc_coherent() may sleep if gfp allows: no lock held. */
	ret = chainpool_slab_acquire(plan, order, &chainpool_dma_ops, dc,
				     &fault, &acquire, &slab);
	if (!ret && pool->core.debug) {
		map = kzalloc(chainpool_core_map_bytes(plan, slab.order),
			      dc->gfp);
		if (!map) {
			u32 bytes = chainpool_plan_slab_bytes(plan, slab.order);

			chainpool_dma_free(dc, bytes, slab.cpu, slab.dma);
			ret = -ENOMEM;
		}
	}

	spin_lock_irqsave(&pool->lock, flags);
	pool->acquire.fallbacks += acquire.fallbacks;
	pool->acquire.rejected += acquire.rejected;
	/* Growths may run side by side: add what this one counted. */
	pool->fault.count += fault.count - count;
	pool->fault.injected += fault.injected - injected;
	spin_unlock_irqrestore(&pool->lock, flags);

	if (ret)
		return ret;
	p = slab.cpu;
	p->slab = slab;
	p->map = map;
	p->next = NULL;
	*tail = p;
	return 0;
}

/**
 * chainpool_grow() - add slabs until a pool holds some blocks
 * @pool: the pool; its lock must not be held
 * @nr_blocks: blocks the pool must hold in total
 * @fit: a fill: size the last slab to what is missing, and free every
 *	table the pool replaced; else (growth on alloc) every slab is of the
 *	largest order, and replaced tables wait for a bound
 * @gfp: allocation flags
 *
 * Acquires the slabs, then adds them in one table.  Slabs acquired before
 * a failure are still added.
 *
 * Return: 0, or -ENOMEM.
 */
int chainpool_grow(struct chainpool *pool, u64 nr_blocks, bool fit,
		   gfp_t gfp)
{
	const struct chainpool_plan *plan = &pool->core.plan;
	struct chainpool_dma_ctx dc = { .pool = pool, .dev = pool->dev };
	struct chainpool_new_slab *pending = NULL, **tail = &pending;
	unsigned long flags;
	unsigned int order;
	int ret = 0, err;
	u64 have;

	/* Zeroing is done per block; slabs need none. */
	dc.gfp = gfp & ~__GFP_ZERO;
	/* Atomic callers park what they give back: see chainpool_alloc(). */
	dc.may_free = gfpflags_allow_blocking(gfp);
	if (dc.may_free && READ_ONCE(pool->parked))
		chainpool_unpark(pool);

	spin_lock_irqsave(&pool->lock, flags);
	have = chainpool_core_nr_blocks(&pool->core);
	spin_unlock_irqrestore(&pool->lock, flags);
	while (have < nr_blocks) {
		order = fit ? chainpool_plan_order_for(plan, nr_blocks - have) :
			      plan->max_order;
		/* In order: the table keeps the slabs as they came. */
		ret = chainpool_acquire(pool, order, &dc, tail);
		if (ret)
			break;
		have += (*tail)->slab.nr_blocks;
		tail = &(*tail)->next;
	}
	if (pending) {
		err = chainpool_commit(pool, &dc, pending);
		if (!ret)
			ret = err;
	}
	/* A fill frees every replaced table; growth on alloc, past a bound. */
	chainpool_reap(pool, gfp, fit);
	return ret;
}

/**
 * chainpool_free_memory() - free a pool's slabs, maps and tables
 * @pool: the pool, being destroyed: no other call on it may run or follow
 *
 * Blocks still in use may still be used by the device, so then the slabs'
 * coherent memory is deliberately leaked (see chainpool_destroy()); the
 * metadata is always freed.
 */
void chainpool_free_memory(struct chainpool *pool)
{
	struct chainpool_dma_ctx dc = { .dev = pool->dev, .may_free = true };
	const struct chainpool_table *t = chainpool_core_table(&pool->core);
	u32 i;

	chainpool_unpark(pool);
	for (i = 0; t && i < t->nr_slabs; i++) {
		const struct chainpool_slab *slab = &t->slabs[i];

		if (t->maps)
			kfree(t->maps[i]);
		if (!pool->core.nr_in_use)
			chainpool_dma_free(&dc,
					   chainpool_plan_slab_bytes(&pool->core.plan,
								     slab->order),
					   slab->cpu, slab->dma);
	}
	/* No reader may run any more: the tables go at once. */
	chainpool_free_tables(pool->retired);
	kvfree(chainpool_table_mem((void *)t));
}
