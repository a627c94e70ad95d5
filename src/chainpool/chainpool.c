// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chainpool: kernel glue around chainpool_core.c.  Slabs come from
 * dma_alloc_coherent(), metadata from kmalloc() (the slab table from
 * kvmalloc() where the caller may sleep), a spinlock per pool
 * serialises the core, and each pool shows its state in debugfs.
 *
 * Written against APIs stable from v4.15 on: plain dma_alloc_coherent(),
 * open-coded single_open() fops, debugfs return values only passed on.
 */
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "chainpool.h"

#define CHAINPOOL_SLAB_KB_MAX		4096U
#define CHAINPOOL_SLAB_KB_DEFAULT	(CHAINPOOL_DEFAULT_SLAB_CAP >> 10)
#define CHAINPOOL_NAME_LEN		32

static unsigned int chainpool_slab_kb = CHAINPOOL_SLAB_KB_DEFAULT;
static bool chainpool_debug;
static unsigned int chainpool_fail_slab;
static bool chainpool_fail_max_order;

static unsigned int chainpool_slab_kb_min(void)
{
	return PAGE_SIZE >= 1024 ? PAGE_SIZE / 1024 : 1;
}

/* Clamp to [one page, 4 MiB] and round down to a power of two, loudly. */
static int chainpool_slab_kb_set(const char *val,
				 const struct kernel_param *kp)
{
	unsigned int kb, use;
	int ret;

	ret = kstrtouint(val, 0, &kb);
	if (ret)
		return ret;
	use = clamp(kb, chainpool_slab_kb_min(), CHAINPOOL_SLAB_KB_MAX);
	use = rounddown_pow_of_two(use);
	if (use != kb)
		pr_warn("chainpool: chainpool_slab_kb=%u is not a power of two in [%u, %u], using %u\n",
			kb, chainpool_slab_kb_min(), CHAINPOOL_SLAB_KB_MAX, use);
	*(unsigned int *)kp->arg = use;
	return 0;
}

static const struct kernel_param_ops chainpool_slab_kb_ops = {
	.set = chainpool_slab_kb_set,
	.get = param_get_uint,
};

module_param_cb(chainpool_slab_kb, &chainpool_slab_kb_ops, &chainpool_slab_kb,
		0444);
MODULE_PARM_DESC(chainpool_slab_kb,
		 "largest chainpool slab in KiB, a power of two up to 4096 (default 128)");
module_param(chainpool_debug, bool, 0444);
MODULE_PARM_DESC(chainpool_debug,
		 "poison freed chainpool blocks and check frees (default off)");
/* Writable by root only, and ignored unless chainpool_debug is set. */
module_param(chainpool_fail_slab, uint, 0600);
MODULE_PARM_DESC(chainpool_fail_slab,
		 "with chainpool_debug: fail the Nth slab allocation of each new pool (0: off)");
/* Same rules: root only, and only with chainpool_debug. */
module_param(chainpool_fail_max_order, bool, 0600);
MODULE_PARM_DESC(chainpool_fail_max_order,
		 "with chainpool_debug: fail every slab allocation at the largest order of a pool that has smaller ones, to test the fallback (default off)");

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
static u64 chainpool_hold_start(void)
{
	return ktime_get_ns();
}

/* With the lock held, just before it is dropped. */
static void chainpool_hold_end(struct chainpool *pool, bool release,
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

static void chainpool_test_grace_period(struct chainpool *pool)
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

static struct chainpool_table_mem *chainpool_table_mem(void *table)
{
	return table ? container_of(table, struct chainpool_table_mem,
				    storage) : NULL;
}

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

static DEFINE_MUTEX(chainpool_debugfs_mutex);
static struct dentry *chainpool_debugfs_root;
static unsigned int chainpool_debugfs_users;
static unsigned int chainpool_debugfs_seq;

static int chainpool_debugfs_show(struct seq_file *m, void *unused)
{
	struct chainpool *pool = m->private;
	struct chainpool_stats st;
	unsigned int order;

	chainpool_get_stats(pool, &st);
	seq_printf(m, "name: %s\n", pool->name);
	seq_printf(m, "device: %s\n", dev_name(pool->dev));
	seq_printf(m, "block_size: %u\nstride: %u\nalign: %u\nboundary: %u\n",
		   st.size, st.stride, st.align, st.boundary);
	seq_printf(m, "blocks_total: %llu\nblocks_in_use: %u\n",
		   (unsigned long long)st.blocks_total, st.blocks_in_use);
	seq_printf(m, "slabs: %u\n", st.nr_slabs);
	for (order = 0; order < CHAINPOOL_NR_ORDERS; order++)
		if (st.slabs_by_order[order])
			seq_printf(m, "slabs_order_%u: %u (%u KiB each)\n",
				   order, st.slabs_by_order[order],
				   chainpool_plan_slab_bytes(&pool->core.plan,
							     order) >> 10);
	seq_printf(m, "dma_bytes: %llu\nmeta_bytes: %llu\n",
		   (unsigned long long)st.dma_bytes,
		   (unsigned long long)st.meta_bytes);
	seq_printf(m, "create_ns: %llu\nfill_ns: %llu\n",
		   (unsigned long long)st.create_ns,
		   (unsigned long long)st.fill_ns);
	seq_printf(m, "fallbacks: %u\nrejected_slabs: %u\ninjected_failures: %u\n",
		   st.fallbacks, st.rejected, st.injected);
	seq_printf(m, "parked_slabs: %u\n", st.parked);
	seq_printf(m, "debug: %u\n", pool->core.debug);
	return 0;
}

static int chainpool_debugfs_open(struct inode *inode, struct file *file)
{
	return single_open(file, chainpool_debugfs_show, inode->i_private);
}

static const struct file_operations chainpool_debugfs_fops = {
	.owner = THIS_MODULE,
	.open = chainpool_debugfs_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/*
 * One file per pool in chainpool-<module>/: every module linking chainpool
 * gets its own directory.  The sequence number keeps two pools of the same
 * name on the same device apart.
 */
static void chainpool_debugfs_add(struct chainpool *pool)
{
	char fname[CHAINPOOL_NAME_LEN + 64];
	char *c;

	mutex_lock(&chainpool_debugfs_mutex);
	if (!chainpool_debugfs_users)
		chainpool_debugfs_root =
			debugfs_create_dir("chainpool-" KBUILD_MODNAME, NULL);
	chainpool_debugfs_users++;
	snprintf(fname, sizeof(fname), "%s-%s-%u", dev_name(pool->dev),
		 pool->name, chainpool_debugfs_seq++);
	for (c = fname; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
	/* Debugfs is optional: a failure only means no file. */
	if (!IS_ERR_OR_NULL(chainpool_debugfs_root))
		pool->debugfs = debugfs_create_file(fname, 0400,
						    chainpool_debugfs_root,
						    pool,
						    &chainpool_debugfs_fops);
	mutex_unlock(&chainpool_debugfs_mutex);
}

static void chainpool_debugfs_del(struct chainpool *pool)
{
	mutex_lock(&chainpool_debugfs_mutex);
	/* Waits for readers of the file, so the pool may go after this. */
	if (!IS_ERR_OR_NULL(pool->debugfs))
		debugfs_remove(pool->debugfs);
	pool->debugfs = NULL;
	if (!--chainpool_debugfs_users) {
		if (!IS_ERR_OR_NULL(chainpool_debugfs_root))
			debugfs_remove(chainpool_debugfs_root);
		chainpool_debugfs_root = NULL;
	}
	mutex_unlock(&chainpool_debugfs_mutex);
}

/**
 * chainpool_debugfs_exit() - remove the module's debugfs directory
 *
 * For the module's exit: a pool never destroyed keeps its file, which
 * would run the unloaded module's code when opened, and the directory,
 * which would keep every later load of the module from making its own.
 */
void chainpool_debugfs_exit(void)
{
	mutex_lock(&chainpool_debugfs_mutex);
	if (chainpool_debugfs_users)
		pr_err("chainpool: %u pools never destroyed, removing their debugfs files\n",
		       chainpool_debugfs_users);
	if (!IS_ERR_OR_NULL(chainpool_debugfs_root))
		debugfs_remove_recursive(chainpool_debugfs_root);
	chainpool_debugfs_root = NULL;
	chainpool_debugfs_users = 0;
	mutex_unlock(&chainpool_debugfs_mutex);
}

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

/*
 * Acquire slabs until the pool holds @nr_blocks, then add them in one
 * table.  @fit (a fill): size the last slab to what is missing, and free
 * every table the pool replaced; else (growth on alloc) every slab is of
 * the largest order, and replaced tables wait for a bound.  The pool lock
 * must not be held.  Slabs acquired before a failure are still added.
 */
static int chainpool_grow(struct chainpool *pool, u64 nr_blocks, bool fit,
			  gfp_t gfp)
{
	const struct chainpool_plan *plan = &pool->core.plan;
	struct chainpool_dma_ctx dc = { .pool = pool, .dev = pool->dev };
	struct chainpool_new_slab *pending = NULL, **tail = &pending;
	struct chainpool_core_stats cs;
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
	chainpool_core_get_stats(&pool->core, &cs);
	spin_unlock_irqrestore(&pool->lock, flags);
	have = cs.blocks_total;
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
 * chainpool_create_params() - create a pool with explicit settings
 * @name: pool name, for messages and debugfs
 * @dev: device the blocks are for
 * @size: block size
 * @align: block alignment, 0 or a power of two
 * @boundary: 0, or a power of two not below @size that blocks must not cross
 * @params: slab cap, debug and fault injection settings
 *
 * Like dma_pool_create(), no memory is allocated for blocks yet; see
 * chainpool_fill().  Exported only to tests (CHAINPOOL_TESTING), which
 * bypass the module parameters with it.
 *
 * Context: may sleep.
 * Return: the pool, or NULL.
 */
CP_TESTABLE
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
 * chainpool_create() - create a pool, as dma_pool_create()
 * @name: pool name, for messages and debugfs
 * @dev: device the blocks are for
 * @size: block size
 * @align: block alignment, 0 or a power of two
 * @boundary: 0, or a power of two not below @size that blocks must not cross
 *
 * Settings come from the module parameters chainpool_slab_kb,
 * chainpool_debug and, only with chainpool_debug, the fault injection
 * knobs chainpool_fail_slab and chainpool_fail_max_order.
 *
 * Context: may sleep.
 * Return: the pool, or NULL.
 */
struct chainpool *chainpool_create(const char *name, struct device *dev,
				   size_t size, size_t align, size_t boundary)
{
	struct chainpool_params params = {
		.slab_bytes = (u64)READ_ONCE(chainpool_slab_kb) << 10,
		.debug = chainpool_debug,
		.fail_slab = chainpool_debug ? READ_ONCE(chainpool_fail_slab) : 0,
		.fail_max_order = chainpool_debug &&
				  READ_ONCE(chainpool_fail_max_order),
	};

	return chainpool_create_params(name, dev, size, align, boundary,
				       &params);
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
	struct chainpool_core_stats cs;
	unsigned long irqflags;
	void *vaddr;
	int ret;

	for (;;) {
		spin_lock_irqsave(&pool->lock, irqflags);
		ret = chainpool_core_alloc(&pool->core, flags, &vaddr, dma);
		if (ret == -ENOMEM)
			chainpool_core_get_stats(&pool->core, &cs);
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
		if (chainpool_grow(pool, cs.blocks_total + 1, false, gfp))
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
	struct chainpool_dma_ctx dc = { 0 };
	const struct chainpool_table *t;
	u32 in_use, i;

	if (!pool)
		return;
	chainpool_debugfs_del(pool);
	chainpool_unpark(pool);
	dc.dev = pool->dev;
	dc.may_free = true;
	in_use = pool->core.nr_in_use;
	if (in_use)
		dev_err(pool->dev, "chainpool %s: destroy with %u blocks still in use\n",
			pool->name, in_use);
	t = chainpool_core_table(&pool->core);
	for (i = 0; t && i < t->nr_slabs; i++) {
		const struct chainpool_slab *slab = &t->slabs[i];

		if (t->maps)
			kfree(t->maps[i]);
		if (!in_use)
			chainpool_dma_free(&dc,
					   chainpool_plan_slab_bytes(&pool->core.plan,
								     slab->order),
					   slab->cpu, slab->dma);
	}
	/* No reader may run any more: the tables go at once. */
	chainpool_free_tables(pool->retired);
	kvfree(chainpool_table_mem((void *)t));
	kfree(pool);
}
