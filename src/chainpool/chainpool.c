// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chainpool: a pool of fixed-size coherent DMA blocks, carved from a few
 * large slabs.
 *
 * A free block holds the link to the next free block and its own DMA
 * address, so alloc and free are O(1).  Blocks never handed out are taken
 * by a bump cursor over the slabs, so filling a pool costs O(slabs), and
 * resetting the list and the cursor gives every block back at once.  The
 * slabs lie in one table in the order they came (the cursor's), with an
 * index of them sorted by DMA address (for the debug checks' binary search);
 * growth builds both anew outside the spinlock and swaps them in under it.
 * With chainpool_debug every free block is poisoned, as mm/dmapool.c does.
 */
#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poison.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "chainpool.h"

#define CP_MIN_ALIGN		16U
#define CP_MAX_SIZE		BIT(30)
/* Most blocks, and bytes of blocks, a bulk allocation takes per lock hold. */
#define CP_BATCH_BLOCKS		512U
#define CP_BATCH_BYTES		(64U << 10)
/* Growth for single allocations: at least this much, in slabs of any size */
#define CP_GROW_BYTES		(128U << 10)
#define CP_SLAB_KB_MAX		4096U

static unsigned int chainpool_slab_kb = 128;
static bool chainpool_debug;

module_param(chainpool_slab_kb, uint, 0444);
MODULE_PARM_DESC(chainpool_slab_kb,
		 "largest chainpool slab in KiB, rounded down to a power of two from a page to 4096 (default 128)");
module_param(chainpool_debug, bool, 0444);
MODULE_PARM_DESC(chainpool_debug,
		 "poison free chainpool blocks and check frees (default off)");

/* The first bytes of a free block. */
struct cp_free {
	struct cp_free *next;
	dma_addr_t dma;
};

/* One coherent buffer and how its blocks lie. */
struct cp_slab {
	void *cpu;
	dma_addr_t dma;
	u32 bytes;
	u32 seg;		/* blocks never cross a segment's end */
	u32 per_seg;		/* blocks per segment */
	u32 nr_blocks;
	unsigned long *map;	/* debug: a bit per block handed out */
};

struct chainpool {
	spinlock_t lock;		/* what follows, up to @dev */
	struct mutex grow_lock;		/* one growth at a time */
	struct cp_free *free;		/* the last block freed */
	u32 carve_slab;			/* the cursor: its slab, */
	u32 carve_next;			/* and the next block never used */
	u64 in_use;
	u64 blocks;
	u32 nr_slabs;
	struct cp_slab *slabs;		/* in the order they came */
	u32 *by_dma;			/* their indexes, sorted by DMA address */
	u32 fallbacks;			/* slabs retried at a smaller order */
	u32 rejected;			/* slabs breaking the layout */
	unsigned int top_order;		/* max_order, less once it failed */
	struct device *dev;
	u32 size;
	u32 align;
	u32 boundary;			/* 0: none */
	u32 stride;
	unsigned int min_order;		/* one block in whole pages */
	unsigned int max_order;		/* chainpool_slab_kb */
	bool debug;			/* poison, check frees against maps */
	struct dentry *debugfs;
	char name[32];
};

static u32 cp_footprint(const struct chainpool *pool)
{
	return max_t(u32, pool->size, sizeof(struct cp_free));
}

static u32 cp_slab_bytes(const struct chainpool *pool, unsigned int order)
{
	/* One block in whole pages, not rounded up to a power of two. */
	if (order == pool->min_order)
		return PAGE_ALIGN(cp_footprint(pool));
	return PAGE_SIZE << order;
}

/*
 * Segments keep blocks within the boundary and, below a page, within a
 * page (as dma_pool does); a slab's blocks then need its DMA address
 * aligned only to the segment, not to its own size.
 */
static u32 cp_layout(const struct chainpool *pool, u32 bytes, u32 *seg,
		     u32 *per_seg)
{
	u32 s = bytes, fp = cp_footprint(pool);

	if (pool->boundary && pool->boundary < s)
		s = pool->boundary;
	if (pool->size < PAGE_SIZE && PAGE_SIZE < s)
		s = PAGE_SIZE;
	s = min(max(s, pool->align), bytes);
	*seg = s;
	*per_seg = s < fp ? 0 : (s - fp) / pool->stride + 1;
	return bytes / s * *per_seg;
}

static unsigned int cp_order_for(const struct chainpool *pool, u64 blocks)
{
	unsigned int order;
	u32 seg, per_seg;

	for (order = pool->min_order; order < pool->top_order; order++)
		if (cp_layout(pool, cp_slab_bytes(pool, order), &seg,
			      &per_seg) >= blocks)
			break;
	return order;
}

static bool cp_crosses(u64 start, u64 len, u64 line)
{
	return line && (start & (line - 1)) + len > line;
}

/*
 * The boundary, and the HBA's rule that no block crosses a 4 GiB line.  A
 * slab of one block is the caller's to check, as a dma_pool page is: the
 * driver's own check then sees it and retries with a 32-bit mask.
 */
static bool cp_fits(const struct chainpool *pool, const struct cp_slab *s)
{
	if (s->dma & (pool->align - 1))
		return false;
	if (s->seg < s->bytes)
		return !(s->dma & (s->seg - 1));
	return !cp_crosses(s->dma, s->bytes, pool->boundary) &&
	       (s->nr_blocks == 1 || !cp_crosses(s->dma, s->bytes, 1ULL << 32));
}

static void cp_slab_put(struct chainpool *pool, struct cp_slab *s)
{
	dma_free_coherent(pool->dev, s->bytes, s->cpu, s->dma);
	bitmap_free(s->map);
}

/*
 * A slab of @order or, when memory or the layout says no, a smaller one;
 * once memory said no, later slabs start at the order that worked.
 */
static int cp_slab_get(struct chainpool *pool, unsigned int order, gfp_t gfp,
		       struct cp_slab *s)
{
	gfp_t flags;

	if (chainpool_fault(CHAINPOOL_FAULT_SLAB, pool->name, pool->dev))
		return -ENOMEM;
	for (;; order--) {
		s->bytes = cp_slab_bytes(pool, order);
		s->nr_blocks = cp_layout(pool, s->bytes, &s->seg, &s->per_seg);
		flags = gfp;
		if (order > pool->min_order)	/* a smaller slab will do */
			flags |= __GFP_NOWARN;
		if (order > PAGE_ALLOC_COSTLY_ORDER)	/* not worth a stall */
			flags |= __GFP_NORETRY;
		if (order == pool->max_order && order > pool->min_order &&
		    chainpool_fault(CHAINPOOL_FAULT_TOP_SLAB, pool->name,
				    pool->dev))
			s->cpu = NULL;
		else
			s->cpu = dma_alloc_coherent(pool->dev, s->bytes, &s->dma,
						    flags);
		if (s->cpu && cp_fits(pool, s))
			break;
		if (s->cpu) {
			WRITE_ONCE(pool->rejected, pool->rejected + 1);
			dma_free_coherent(pool->dev, s->bytes, s->cpu, s->dma);
		} else if (order > pool->min_order) {
			pool->top_order = order - 1;
		}
		if (order == pool->min_order)
			return -ENOMEM;
		WRITE_ONCE(pool->fallbacks, pool->fallbacks + 1);
	}
	s->map = NULL;
	if (pool->debug) {
		/* metadata: the caller's reclaim rules, not its zone */
		s->map = bitmap_zalloc(s->nr_blocks, gfp & GFP_KERNEL);
		if (!s->map) {
			cp_slab_put(pool, s);
			return -ENOMEM;
		}
		memset(s->cpu, POOL_POISON_FREED, s->bytes);
	}
	return 0;
}

static int cp_cmp_slab(const void *a, const void *b)
{
	const struct cp_slab *x = a, *y = b;

	return x->dma < y->dma ? -1 : x->dma > y->dma;
}

/* Add slabs for at least @want blocks, sleeping; the spinlock is held O(1). */
static int cp_grow(struct chainpool *pool, u64 want, gfp_t gfp)
{
	struct cp_slab *tab = NULL, *t;
	u32 m, n = 0, cap, total, i, j, k, *by, *old;
	unsigned long flags;
	u64 got = 0;

	if (!gfpflags_allow_blocking(gfp))
		return -ENOMEM;
	/* Only growth changes the table, and the mutex keeps others out. */
	mutex_lock(&pool->grow_lock);
	m = pool->nr_slabs;
	cap = m;
	while (got < want) {
		if (m + n == cap) {
			/* A larger table, with the slabs so far copied in */
			cap = m + max(2 * n, 16U);
			t = kvmalloc_array(cap, sizeof(*t) + sizeof(*by),
					   gfp & GFP_KERNEL);
			if (!t)
				goto fail;
			if (m + n)
				memcpy(t, tab ?: pool->slabs, (m + n) * sizeof(*t));
			kvfree(tab);
			tab = t;
		}
		if (cp_slab_get(pool, cp_order_for(pool, want - got), gfp,
				&tab[m + n]))
			goto fail;
		got += tab[m + n++].nr_blocks;
	}
	/* The new slabs sorted among themselves, then merged into the index. */
	total = m + n;
	sort(tab + m, n, sizeof(*tab), cp_cmp_slab, NULL);
	by = (u32 *)(tab + cap);
	old = pool->by_dma;
	for (j = m; j < total; j++)
		by[j] = j;
	for (i = 0, j = m, k = 0; i < m; k++)
		by[k] = j < total && tab[j].dma < tab[old[i]].dma ? j++ : old[i++];

	spin_lock_irqsave(&pool->lock, flags);
	t = pool->slabs;
	pool->slabs = tab;
	pool->by_dma = by;
	pool->nr_slabs = total;
	pool->blocks += got;
	spin_unlock_irqrestore(&pool->lock, flags);
	mutex_unlock(&pool->grow_lock);
	kvfree(t);
	return 0;
fail:
	mutex_unlock(&pool->grow_lock);
	while (n)
		cp_slab_put(pool, &tab[m + --n]);
	kvfree(tab);
	return -ENOMEM;
}

static u32 cp_offset(const struct chainpool *pool, const struct cp_slab *s,
		     u32 idx)
{
	/* No gaps between segments: no division on the carve path. */
	if (s->per_seg * pool->stride == s->seg)
		return idx * pool->stride;
	return idx / s->per_seg * s->seg + idx % s->per_seg * pool->stride;
}

/* The slab and index of the block at @dma, if it is a block's start. */
static struct cp_slab *cp_find(const struct chainpool *pool, dma_addr_t dma,
			       u32 *idx)
{
	u32 lo = 0, hi = pool->nr_slabs, mid, off, in, slot;
	struct cp_slab *s;

	/* By hand: bsearch() is no part of RHEL's kABI. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		s = &pool->slabs[pool->by_dma[mid]];
		if (dma < s->dma)
			hi = mid;
		else if (dma - s->dma >= s->bytes)
			lo = mid + 1;
		else
			break;
	}
	if (lo == hi)
		return NULL;
	off = dma - s->dma;
	in = off % s->seg;
	slot = in / pool->stride;
	if (in % pool->stride || slot >= s->per_seg)
		return NULL;
	*idx = off / s->seg * s->per_seg + slot;
	return *idx < s->nr_blocks ? s : NULL;
}

/* Pop a free block, or carve up to *@n in a row, and set *@n; lock held. */
static void *cp_take(struct chainpool *pool, dma_addr_t *dma, u32 *n)
{
	struct cp_free *f = pool->free;
	struct cp_slab *s;
	void *vaddr = f;
	u32 off, idx, run, next = pool->carve_next;

	if (f) {
		pool->free = f->next;
		*dma = f->dma;
		*n = 1;
	} else {
		if (pool->carve_slab >= pool->nr_slabs)
			return NULL;
		s = &pool->slabs[pool->carve_slab];
		off = cp_offset(pool, s, next);
		/* Contiguous to the slab's end, or to the segment's if gaps. */
		if (s->per_seg * pool->stride == s->seg)
			run = s->nr_blocks - next;
		else
			run = s->per_seg - next % s->per_seg;
		*n = min(*n, run);
		pool->carve_next = next + *n;
		if (pool->carve_next == s->nr_blocks) {
			pool->carve_slab++;
			pool->carve_next = 0;
		}
		*dma = s->dma + off;
		vaddr = s->cpu + off;
	}
	pool->in_use += *n;
	if (pool->debug) {	/* callers take one block at a time */
		s = cp_find(pool, *dma, &idx);
		if (!s || __test_and_set_bit(idx, s->map))
			dev_err(pool->dev, "chainpool %s: block %p handed out twice\n",
				pool->name, vaddr);
	}
	return vaddr;
}

/* Debug, outside the lock: a block written to while free lost its poison. */
static void cp_debug_take(struct chainpool *pool, void *vaddr)
{
	u32 link = sizeof(struct cp_free);

	if (pool->size > link &&
	    memchr_inv(vaddr + link, POOL_POISON_FREED, pool->size - link))
		dev_err(pool->dev, "chainpool %s: block %p corrupted while free\n",
			pool->name, vaddr);
	memset(vaddr, POOL_POISON_ALLOCATED, pool->size);
}

/* Debug: is @vaddr a block of @pool in use?  It is no longer. */
static bool cp_debug_give(struct chainpool *pool, void *vaddr, dma_addr_t dma)
{
	const char *err = NULL;
	unsigned long flags;
	struct cp_slab *s;
	u32 idx;

	spin_lock_irqsave(&pool->lock, flags);
	s = cp_find(pool, dma, &idx);
	if (!s || s->cpu + (dma - s->dma) != vaddr)
		err = "not from this pool";
	else if (!__test_and_clear_bit(idx, s->map))
		err = "freed twice";
	spin_unlock_irqrestore(&pool->lock, flags);
	if (err)
		dev_err(pool->dev, "chainpool %s: free of %p (%pad): %s\n",
			pool->name, vaddr, &dma, err);
	return !err;
}

/**
 * chainpool_alloc() - allocate a block, as dma_pool_alloc()
 * @pool: the pool
 * @gfp: allocation flags; __GFP_ZERO zeroes the block
 * @dma: set to the block's DMA address
 *
 * Context: any; growing the pool needs a gfp that may sleep.
 * Return: the block's CPU address, or NULL.
 */
void *chainpool_alloc(struct chainpool *pool, gfp_t gfp, dma_addr_t *dma)
{
	u32 top, seg, per_seg, one = 1;
	unsigned long flags;
	void *vaddr;

	might_alloc(gfp);
	for (;;) {
		spin_lock_irqsave(&pool->lock, flags);
		vaddr = cp_take(pool, dma, &one);
		spin_unlock_irqrestore(&pool->lock, flags);
		if (vaddr)
			break;
		/* Double the pool, by CP_GROW_BYTES or a largest slab at most. */
		top = cp_layout(pool, max(cp_slab_bytes(pool, pool->max_order),
					  CP_GROW_BYTES), &seg, &per_seg);
		if (cp_grow(pool, clamp_t(u64, READ_ONCE(pool->blocks), 1, top),
			    gfp))
			return NULL;
	}
	if (pool->debug)
		cp_debug_take(pool, vaddr);
	if (want_init_on_alloc(gfp))
		memset(vaddr, 0, pool->size);
	return vaddr;
}

/**
 * chainpool_free() - give a block back, as dma_pool_free()
 * @pool: the pool it came from
 * @vaddr: its CPU address
 * @dma: its DMA address
 *
 * With chainpool_debug, a block freed twice or not from @pool is reported
 * and left alone.
 */
void chainpool_free(struct chainpool *pool, void *vaddr, dma_addr_t dma)
{
	struct cp_free *f = vaddr;
	unsigned long flags;

	if (pool->debug) {
		if (!cp_debug_give(pool, vaddr, dma))
			return;
		memset(vaddr, POOL_POISON_FREED, pool->size);
	} else if (want_init_on_free()) {
		memset(vaddr, 0, pool->size);
	}
	spin_lock_irqsave(&pool->lock, flags);
	f->next = pool->free;
	f->dma = dma;
	pool->free = f;
	pool->in_use--;
	spin_unlock_irqrestore(&pool->lock, flags);
}

/**
 * chainpool_alloc_bulk() - allocate @count blocks at once
 * @pool: the pool
 * @count: blocks wanted
 * @gfp: allocation flags, which must allow sleeping
 * @fn: called with each block, see chainpool_bulk_fn
 * @ctx: passed to @fn
 *
 * Grows the pool once by what it lacks, in slabs of the largest order,
 * then hands the blocks out in batches of CP_BATCH_BLOCKS, fewer where
 * they would span more than CP_BATCH_BYTES (one with chainpool_debug):
 * one hold of the spinlock each.
 *
 * Return: 0, or -ENOMEM; blocks already passed to @fn stay allocated.
 */
int chainpool_alloc_bulk(struct chainpool *pool, u32 count, gfp_t gfp,
			 chainpool_bulk_fn fn, void *ctx)
{
	u32 batch = clamp(CP_BATCH_BYTES / pool->stride, 1U, CP_BATCH_BLOCKS);
	u32 i = 0, k, end, n;
	unsigned long flags;
	dma_addr_t dma;
	void *vaddr;
	u64 avail;

	might_alloc(gfp);
	if (pool->debug)
		batch = 1;
	spin_lock_irqsave(&pool->lock, flags);
	avail = pool->blocks - pool->in_use;
	spin_unlock_irqrestore(&pool->lock, flags);
	if (avail < count && cp_grow(pool, count - avail, gfp))
		return -ENOMEM;
	while (i < count) {
		end = min(count, i + batch);
		vaddr = NULL;
		spin_lock_irqsave(&pool->lock, flags);
		while (i < end) {
			n = end - i;
			vaddr = cp_take(pool, &dma, &n);
			if (!vaddr)
				break;
			for (k = 0; k < n; k++, i++)
				fn(ctx, i, vaddr + k * pool->stride,
				   dma + k * pool->stride);
		}
		spin_unlock_irqrestore(&pool->lock, flags);
		if (pool->debug && vaddr)	/* the batch's one block */
			cp_debug_take(pool, vaddr);
		/* Only if single allocations took blocks meanwhile. */
		if (i < end && cp_grow(pool, count - i, gfp))
			return -ENOMEM;
		cond_resched();
	}
	return 0;
}

/**
 * chainpool_release_all() - take every block back at once
 * @pool: the pool
 *
 * For a caller that holds every block of @pool and whose device no longer
 * uses any: O(1), or O(bytes) with chainpool_debug, which poisons them.
 */
void chainpool_release_all(struct chainpool *pool)
{
	struct cp_slab *s;
	unsigned long flags;
	u32 i;

	for (i = 0; pool->debug && i < pool->nr_slabs; i++) {
		s = &pool->slabs[i];
		memset(s->cpu, POOL_POISON_FREED, s->bytes);
		bitmap_zero(s->map, s->nr_blocks);
	}
	spin_lock_irqsave(&pool->lock, flags);
	pool->free = NULL;
	pool->carve_slab = 0;
	pool->carve_next = 0;
	pool->in_use = 0;
	spin_unlock_irqrestore(&pool->lock, flags);
}

/**
 * chainpool_get_stats() - a snapshot of a pool's geometry and counters
 * @pool: the pool
 * @st: filled in
 */
void chainpool_get_stats(struct chainpool *pool, struct chainpool_stats *st)
{
	unsigned long flags;
	u32 i;

	memset(st, 0, sizeof(*st));
	st->size = pool->size;
	st->stride = pool->stride;
	spin_lock_irqsave(&pool->lock, flags);
	st->blocks = pool->blocks;
	st->in_use = pool->in_use;
	st->nr_slabs = pool->nr_slabs;
	for (i = 0; i < pool->nr_slabs; i++) {
		st->slabs_by_order[min_t(int, get_order(pool->slabs[i].bytes),
					 CHAINPOOL_NR_ORDERS - 1)]++;
		st->dma_bytes += pool->slabs[i].bytes;
	}
	st->fallbacks = READ_ONCE(pool->fallbacks);
	st->rejected = READ_ONCE(pool->rejected);
	spin_unlock_irqrestore(&pool->lock, flags);
}

static int cp_debugfs_show(struct seq_file *m, void *unused)
{
	struct chainpool *pool = m->private;
	struct chainpool_stats st;
	int o;

	chainpool_get_stats(pool, &st);
	seq_printf(m, "name: %s\ndevice: %s\nblock_size: %u\nstride: %u\n",
		   pool->name, dev_name(pool->dev), st.size, st.stride);
	seq_printf(m, "blocks: %llu\nin_use: %llu\nslabs: %u\n", st.blocks,
		   st.in_use, st.nr_slabs);
	for (o = 0; o < CHAINPOOL_NR_ORDERS; o++)
		if (st.slabs_by_order[o])
			seq_printf(m, "slabs_order_%d: %u\n", o,
				   st.slabs_by_order[o]);
	seq_printf(m, "dma_bytes: %llu\nfallbacks: %u\nrejected: %u\ndebug: %d\n",
		   st.dma_bytes, st.fallbacks, st.rejected, pool->debug);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cp_debugfs);

/* Each module's directory stays, empty, once it has no pool. */
#define CP_DEBUGFS_DIR	"chainpool-" KBUILD_MODNAME
static DEFINE_MUTEX(cp_debugfs_lock);
static unsigned int cp_debugfs_seq;

/* The pool's file: CP_DEBUGFS_DIR/<device>-<name>-<n>, root only. */
static void cp_debugfs_add(struct chainpool *pool)
{
	struct dentry *dir, *parent;
	char fname[80], *c;

	mutex_lock(&cp_debugfs_lock);
	snprintf(fname, sizeof(fname), "%s-%s-%u", dev_name(pool->dev),
		 pool->name, cp_debugfs_seq++);
	for (c = fname; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
	dir = debugfs_lookup(CP_DEBUGFS_DIR, NULL);
	parent = dir ?: debugfs_create_dir(CP_DEBUGFS_DIR, NULL);
	if (!IS_ERR_OR_NULL(parent))
		pool->debugfs = debugfs_create_file(fname, 0400, parent, pool,
						    &cp_debugfs_fops);
	dput(dir);
	mutex_unlock(&cp_debugfs_lock);
}

/**
 * chainpool_create() - create a pool, as dma_pool_create()
 * @name: pool name, for messages and debugfs
 * @dev: device the blocks are for
 * @size: block size
 * @align: block alignment, 0 or a power of two
 * @boundary: 0, or a power of two not below @size that blocks never cross
 *
 * Takes no memory for blocks: the first allocation does.  Each pool gets a
 * root-only file in debugfs, chainpool-<module>/<device>-<name>-<n>.
 *
 * Context: may sleep.
 * Return: the pool, or NULL.
 */
struct chainpool *chainpool_create(const char *name, struct device *dev,
				   size_t size, size_t align, size_t boundary)
{
	unsigned int kb = min(READ_ONCE(chainpool_slab_kb), CP_SLAB_KB_MAX);
	struct chainpool *pool;

	if (!dev || !size || size > CP_MAX_SIZE ||
	    (align && !is_power_of_2(align)) ||
	    (boundary && (boundary < size || !is_power_of_2(boundary))))
		return NULL;
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	spin_lock_init(&pool->lock);
	mutex_init(&pool->grow_lock);
	pool->dev = dev;
	pool->size = size;
	pool->align = max_t(u32, align, CP_MIN_ALIGN);
	pool->boundary = min_t(size_t, boundary, 1U << 31);
	pool->stride = ALIGN(cp_footprint(pool), pool->align);
	pool->min_order = get_order(cp_footprint(pool));
	pool->max_order = max_t(unsigned int, pool->min_order,
				ilog2(max_t(u64, ((u64)kb << 10) >> PAGE_SHIFT,
					    1)));
	pool->top_order = pool->max_order;
	pool->debug = chainpool_debug;
	strscpy(pool->name, name, sizeof(pool->name));
	cp_debugfs_add(pool);
	return pool;
}

/**
 * chainpool_destroy() - destroy a pool, as dma_pool_destroy()
 * @pool: the pool, or NULL
 *
 * O(slabs).  A pool with blocks in use is reported and its slabs leaked
 * (with chainpool_debug, only the slabs in use), as the device may still
 * use them.
 *
 * Context: may sleep.
 */
void chainpool_destroy(struct chainpool *pool)
{
	struct cp_slab *s;
	u32 i;

	if (!pool)
		return;
	debugfs_remove(pool->debugfs);
	if (pool->in_use)
		dev_err(pool->dev, "chainpool %s: destroy with %llu blocks still in use\n",
			pool->name, pool->in_use);
	/* A slab with blocks in use stays: the device may still use it. */
	for (i = 0; i < pool->nr_slabs; i++) {
		s = &pool->slabs[i];
		if (!pool->in_use ||
		    (pool->debug && bitmap_empty(s->map, s->nr_blocks)))
			dma_free_coherent(pool->dev, s->bytes, s->cpu, s->dma);
		bitmap_free(s->map);
	}
	kvfree(pool->slabs);
	kfree(pool);
}
