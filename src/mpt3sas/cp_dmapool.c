// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cp_dmapool: the dma_pool calls of the mpt3sas driver, routed to chainpool
 * or to the kernel's dma_pool.
 *
 * The pool_allocator module parameter picks the allocator at load time,
 * chainpool by default, so that users can compare both on their own
 * hardware.  Each pool remembers which one it was created with.
 *
 * The pool_fail module parameter fails one of the driver's DMA pool
 * creations, pool allocations or coherent allocations, chosen by pool
 * (or calling function) and ordinal, to walk the driver's error paths.
 */

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
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
#undef dma_alloc_coherent

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

/* Pools created and not yet destroyed, for the check at module exit. */
static atomic_t cp_dmapool_live = ATOMIC_INIT(0);

/*
 * pool_fail=OP:NAME:N[+] fails the Nth call of OP on NAME since the
 * parameter was written: OP is create (dma_pool_create()), alloc
 * (dma_pool_alloc(), dma_pool_zalloc(), a bulk allocation or fill: one
 * each) or coherent (dma_alloc_coherent(); NAME is the calling function).
 * NAME is the driver's, with '_' for ' '.  A trailing '+' fails every
 * later call of any OP and NAME as well: memory that runs out there.
 * pool_fail=trace fails nothing and logs the points: every create and
 * coherent allocation and the first allocation from each pool name.
 * Debian's kernels lack CONFIG_FAULT_INJECTION, hence not fault_attr.
 */
enum cp_fault_op {
	CP_FAULT_CREATE,
	CP_FAULT_ALLOC,
	CP_FAULT_COHERENT,
	CP_FAULT_NR_OPS,
};

static const char * const cp_fault_op_names[] = {
	[CP_FAULT_CREATE] = "create",
	[CP_FAULT_ALLOC] = "alloc",
	[CP_FAULT_COHERENT] = "coherent",
};

#define CP_FAULT_NAME_LEN	32
#define CP_FAULT_NR_NAMES	24

/**
 * struct cp_fault - the pool_fail setting and its counters
 * @armed: a setting is in force
 * @trace: log the points, fail none
 * @persist: the setting ends in '+'
 * @tripped: the point of a '+' setting has failed: every call fails
 * @op: the operation to fail
 * @nth: its ordinal
 * @name: the pool or function, '_' for ' '
 * @spec: the setting as written, for reading back
 * @nr_names: entries of @names in use
 * @names: calls so far, per name and operation
 */
struct cp_fault {
	bool armed;
	bool trace;
	bool persist;
	bool tripped;
	enum cp_fault_op op;
	u32 nth;
	char name[CP_FAULT_NAME_LEN];
	char spec[CP_FAULT_NAME_LEN + 24];
	unsigned int nr_names;
	struct {
		char name[CP_FAULT_NAME_LEN];
		u32 calls[CP_FAULT_NR_OPS];
	} names[CP_FAULT_NR_NAMES];
};

static DEFINE_SPINLOCK(cp_fault_lock);	/* pool allocations may be atomic */
static struct cp_fault cp_fault;

/* NAME as pool_fail spells it: at most 31 characters, '_' for ' '. */
static void cp_fault_key(char *key, const char *name)
{
	char *c;

	strscpy(key, name, CP_FAULT_NAME_LEN);
	for (c = key; *c; c++)
		if (*c == ' ')
			*c = '_';
}

/* The setting alone: set apart from the counters, which it restarts. */
struct cp_fault_spec {
	bool armed;
	bool trace;
	bool persist;
	enum cp_fault_op op;
	u32 nth;
	char name[CP_FAULT_NAME_LEN];
};

static int cp_fault_parse(char *s, struct cp_fault_spec *f)
{
	char *op, *name;
	size_t len;
	int i;

	if (!*s || !strcmp(s, "off"))
		return 0;
	f->armed = true;
	if (!strcmp(s, "trace")) {
		f->trace = true;
		return 0;
	}
	op = strsep(&s, ":");
	name = strsep(&s, ":");
	if (!s || !*name)
		return -EINVAL;
	for (i = 0; i < CP_FAULT_NR_OPS; i++)
		if (!strcmp(op, cp_fault_op_names[i]))
			break;
	if (i == CP_FAULT_NR_OPS)
		return -EINVAL;
	f->op = i;
	len = strlen(s);
	if (len && s[len - 1] == '+') {
		f->persist = true;
		s[len - 1] = '\0';
	}
	if (kstrtou32(s, 10, &f->nth) || !f->nth)
		return -EINVAL;
	cp_fault_key(f->name, name);
	return 0;
}

static int pool_fail_set(const char *val, const struct kernel_param *kp)
{
	struct cp_fault_spec f = { };
	char buf[sizeof(cp_fault.spec)];
	unsigned long flags;
	size_t len;

	if (strscpy(buf, val, sizeof(buf)) < 0)
		goto bad;
	len = strlen(buf);
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	spin_lock_irqsave(&cp_fault_lock, flags);
	memset(&cp_fault, 0, sizeof(cp_fault));
	strscpy(cp_fault.spec, buf, sizeof(cp_fault.spec));
	spin_unlock_irqrestore(&cp_fault_lock, flags);
	if (cp_fault_parse(buf, &f))
		goto bad;
	spin_lock_irqsave(&cp_fault_lock, flags);
	cp_fault.trace = f.trace;
	cp_fault.persist = f.persist;
	cp_fault.op = f.op;
	cp_fault.nth = f.nth;
	strscpy(cp_fault.name, f.name, sizeof(cp_fault.name));
	cp_fault.armed = f.armed;
	spin_unlock_irqrestore(&cp_fault_lock, flags);
	return 0;
bad:
	pr_err("mpt3sas: pool_fail=%s is not OP:NAME:N[+] (OP create, alloc or coherent), trace or off\n",
	       val);
	return -EINVAL;
}

static int pool_fail_get(char *buf, const struct kernel_param *kp)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&cp_fault_lock, flags);
	n = scnprintf(buf, PAGE_SIZE, "%s\n",
		      cp_fault.armed ? cp_fault.spec : "off");
	spin_unlock_irqrestore(&cp_fault_lock, flags);
	return n;
}

static const struct kernel_param_ops pool_fail_ops = {
	.set = pool_fail_set,
	.get = pool_fail_get,
};

/* Root only, like chainpool_fail_slab; writing it restarts the counts. */
module_param_cb(pool_fail, &pool_fail_ops, NULL, 0600);
MODULE_PARM_DESC(pool_fail,
		 "fail a DMA allocation of the driver: OP:NAME:N[+] (OP create, alloc or coherent; '+': and all later ones), trace, or off (default)");

/* Count a call of @op on @name; true if pool_fail says it fails. */
static bool cp_fault_hit(enum cp_fault_op op, const char *name,
			 struct device *dev)
{
	char key[CP_FAULT_NAME_LEN];
	unsigned long flags;
	bool fail = false, log;
	unsigned int i;
	u32 n = 0;

	if (!READ_ONCE(cp_fault.armed))
		return false;
	cp_fault_key(key, name);
	spin_lock_irqsave(&cp_fault_lock, flags);
	for (i = 0; i < cp_fault.nr_names; i++)
		if (!strcmp(cp_fault.names[i].name, key))
			break;
	if (i == cp_fault.nr_names && i < CP_FAULT_NR_NAMES) {
		strscpy(cp_fault.names[i].name, key, CP_FAULT_NAME_LEN);
		cp_fault.nr_names++;
	}
	if (i < cp_fault.nr_names)
		n = ++cp_fault.names[i].calls[op];
	if (cp_fault.tripped) {
		fail = true;
	} else if (!cp_fault.trace && op == cp_fault.op &&
		   n == cp_fault.nth && !strcmp(key, cp_fault.name)) {
		fail = true;
		cp_fault.tripped = cp_fault.persist;
	}
	log = fail || (cp_fault.trace && (op != CP_FAULT_ALLOC || n == 1));
	spin_unlock_irqrestore(&cp_fault_lock, flags);
	if (fail)
		dev_warn(dev, "pool_fail: %s:%s:%u fails\n",
			 cp_fault_op_names[op], key, n);
	else if (log)
		dev_info(dev, "pool_fail: point %s:%s:%u\n",
			 cp_fault_op_names[op], key, n);
	return fail;
}

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

	if (cp_fault_hit(CP_FAULT_CREATE, name, dev))
		return NULL;
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
	atomic_inc(&cp_dmapool_live);
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
	atomic_dec(&cp_dmapool_live);
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
	if (cp_fault_hit(CP_FAULT_ALLOC, pool->name, pool->dev))
		return NULL;
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
	if (cp_fault_hit(CP_FAULT_ALLOC, pool->name, pool->dev))
		return NULL;
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
	if (cp_fault_hit(CP_FAULT_ALLOC, pool->name, pool->dev))
		return -ENOMEM;
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
 * chainpool reserves all @count blocks at once and hands them out in
 * bounded batches, one lock hold each (see chainpool_alloc_bulk()); the
 * kernel's dma_pool has no such call, and the caller then allocates block
 * by block as upstream does.
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
	if (cp_fault_hit(CP_FAULT_ALLOC, pool->name, pool->dev))
		return -ENOMEM;
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

/**
 * cp_dma_alloc_coherent - dma_alloc_coherent() for the driver
 * @dev: the device
 * @size: bytes wanted
 * @dma: where to store the DMA address
 * @gfp: allocation flags
 * @caller: the calling function, pool_fail's NAME for it
 *
 * Return: the CPU address, or NULL.
 */
void *cp_dma_alloc_coherent(struct device *dev, size_t size,
			    dma_addr_t *dma, gfp_t gfp, const char *caller)
{
	if (cp_fault_hit(CP_FAULT_COHERENT, caller, dev))
		return NULL;
	return dma_alloc_coherent(dev, size, dma, gfp);
}

/**
 * cp_dmapool_exit - report pools never destroyed, at module exit
 *
 * Their memory is lost; chainpool's debugfs files of them go with the
 * module, or opening one would run the unloaded module's code.
 */
void cp_dmapool_exit(void)
{
	int live = atomic_read(&cp_dmapool_live);

	if (live)
		pr_err("mpt3sas: %d DMA pools were never destroyed\n", live);
	chainpool_debugfs_exit();
}
