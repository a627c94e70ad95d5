// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the chainpool core and of its kernel glue (chainpool.c,
 * chainpool_grow.c, built unchanged on the shim in kernel/) on a fake DMA
 * allocator: every block of many pool shapes is checked against the
 * layout rules and lookups, plus fallback, fault injection, debug checks
 * and stats.
 */
#include <stdlib.h>

#include <linux/device.h>
#include <linux/slab.h>

#include "chainpool_pool.h"
#include "fake_dma.h"
#include "kshim.h"
#include "cp_sink.h"
#include "test_common.h"

#define PAGE		4096U
#define GIB4		0x100000000ULL

char test_case[160];

/* The core's counts, counted from its table as the glue's stats are. */
static struct chainpool_core_stats
core_stats(const struct chainpool_core *core)
{
	struct chainpool_core_stats st;

	chainpool_core_get_stats(core, &st);
	return st;
}

static int cmp_dma(const void *a, const void *b)
{
	const struct cp_block *x = a, *y = b;

	return x->dma < y->dma ? -1 : x->dma > y->dma;
}

static int cmp_cpu(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct cp_block *)a)->cpu;
	uintptr_t y = (uintptr_t)((const struct cp_block *)b)->cpu;

	return x < y ? -1 : x > y;
}

static bool same_unit(u64 start, u64 len, u64 unit)
{
	return start / unit == (start + len - 1) / unit;
}

/* Layout rules, lookups and overlap for blocks[0..n). Reorders blocks. */
static void check_blocks(struct chainpool *pool, struct cp_block *blocks, size_t n)
{
	const struct chainpool_plan *plan = &pool->core.plan;
	size_t i;

	for (i = 0; i < n; i++) {
		dma_addr_t dma = blocks[i].dma, back;
		u8 *cpu = blocks[i].cpu;

		CHECK_EQ(dma % plan->align, 0);
		if (plan->size < PAGE)
			CHECK(same_unit(dma, plan->size, PAGE));
		if (plan->boundary)
			CHECK(same_unit(dma, plan->size, plan->boundary));
		CHECK(same_unit(dma, plan->size, GIB4));
		CHECK(chainpool_core_dma_to_virt(&pool->core, dma) == cpu);
		CHECK(chainpool_dma_to_virt(pool, dma) == cpu);
		/* Block starts are 16-aligned, so these are not blocks. */
		CHECK(!chainpool_core_dma_to_virt(&pool->core, dma + 1));
		CHECK(!chainpool_core_dma_to_virt(&pool->core, dma + 8));
		if (!pool->core.debug) {
			/* Only a debug pool keeps the CPU address index. */
			CHECK_EQ(chainpool_core_virt_to_dma(&pool->core, cpu,
							    &back),
				 -EOPNOTSUPP);
			continue;
		}
		CHECK_EQ(chainpool_core_virt_to_dma(&pool->core, cpu, &back), 0);
		CHECK_EQ(back, dma);
		CHECK_EQ(chainpool_core_virt_to_dma(&pool->core, cpu + 1, &back),
			 -EFAULT);
	}
	qsort(blocks, n, sizeof(*blocks), cmp_dma);
	for (i = 1; i < n; i++)
		CHECK(blocks[i - 1].dma + plan->size <= blocks[i].dma);
	qsort(blocks, n, sizeof(*blocks), cmp_cpu);
	for (i = 1; i < n; i++)
		CHECK((u8 *)blocks[i - 1].cpu + plan->size <=
		      (u8 *)blocks[i].cpu);
}

/*
 * The 16 bytes before a slab map only when they lie in another slab of the
 * pool, and then to that slab's memory.
 */
static void check_before_slab(const struct chainpool_core *core,
			      const struct chainpool_slab *slab)
{
	dma_addr_t before = slab->dma - 16;
	u8 *cpu = chainpool_core_dma_to_virt(core, before);
	u32 i;

	for (i = 0; i < core_stats(core).nr_slabs; i++) {
		const struct chainpool_slab *other =
			&chainpool_core_table(core)->slabs[i];
		u32 bytes = chainpool_plan_slab_bytes(&core->plan, other->order);

		if (slab->dma >= 16 && before - other->dma < bytes) {
			CHECK(other != slab);
			CHECK(!cpu || cpu == (u8 *)other->cpu +
					     (before - other->dma));
			return;
		}
	}
	CHECK(!cpu);
}

/* Nothing outside the slabs maps, nor padding after a block. */
static void check_non_blocks(struct chainpool *pool)
{
	const struct chainpool_core *core = &pool->core;
	const struct chainpool_plan *plan = &core->plan;
	u32 i;

	for (i = 0; i < core_stats(core).nr_slabs; i++) {
		const struct chainpool_slab *slab =
			&chainpool_core_table(core)->slabs[i];
		u32 bytes = chainpool_plan_slab_bytes(plan, slab->order);
		dma_addr_t end = slab->dma + bytes;
		dma_addr_t back;

		CHECK(chainpool_core_dma_to_virt(core, slab->dma) == slab->cpu);
		if (core->debug && !chainpool_core_dma_to_virt(core, end))
			CHECK_EQ(chainpool_core_virt_to_dma(core,
							    (u8 *)slab->cpu + bytes,
							    &back), -EFAULT);
		check_before_slab(core, slab);
		if (plan->stride > plan->size + 16)
			CHECK(!chainpool_core_dma_to_virt(core, slab->dma +
							  ((plan->size + 15) & ~15U)));
	}
	CHECK(!chainpool_core_dma_to_virt(core, 0));
	CHECK(!chainpool_core_dma_to_virt(core, ~(dma_addr_t)0 & ~15ULL));
}

/*
 * A pool on @fd's memory through chainpool_create_params(), as
 * chainpool_create() makes one from the module parameters; its device,
 * which carries @fd to the shim's dma_alloc_coherent(), is freed by
 * pool_destroy().  0, or -EINVAL when the pool was refused.
 */
static int pool_init_params(struct chainpool **pool, struct fake_dma *fd,
			    size_t size, size_t align, size_t boundary,
			    const struct chainpool_params *params)
{
	struct device *dev = calloc(1, sizeof(*dev));

	CHECK(dev);
	dev->init_name = "unit";
	dev->fake_dma = fd;
	*pool = chainpool_create_params("test", dev, size, align, boundary,
					params);
	if (*pool)
		return 0;
	free(dev);
	return -EINVAL;
}

static int pool_init(struct chainpool **pool, struct fake_dma *fd,
		     size_t size, size_t align, size_t boundary, u64 slab_cap,
		     bool debug)
{
	struct chainpool_params params = { .slab_bytes = slab_cap,
					   .debug = debug };

	return pool_init_params(pool, fd, size, align, boundary, &params);
}

static void pool_destroy(struct chainpool *pool)
{
	struct device *dev = pool->dev;

	chainpool_destroy(pool);
	free(dev);
}

static int pool_fill(struct chainpool *pool, u64 nr_blocks)
{
	return chainpool_fill(pool, nr_blocks, GFP_KERNEL);
}

/* Growth on alloc: one slab of the largest order. */
static int grow_slab(struct chainpool *pool)
{
	return chainpool_grow(pool, core_stats(&pool->core).blocks_total + 1,
			      false, GFP_KERNEL);
}

/*
 * chainpool_alloc(), or chainpool_zalloc() for __GFP_ZERO: 0, -ENOMEM
 * when it returned NULL, or -EIO when it reported a block written after
 * free (dev_err()), which it hands out all the same.
 */
static int pool_alloc(struct chainpool *pool, gfp_t gfp, void **cpu,
		      dma_addr_t *dma)
{
	u32 errs = kshim.dev_errs;

	*cpu = gfp & __GFP_ZERO ? chainpool_zalloc(pool, gfp & ~__GFP_ZERO,
						   dma) :
				  chainpool_alloc(pool, gfp, dma);
	if (!*cpu)
		return -ENOMEM;
	return kshim.dev_errs == errs ? 0 : -EIO;
}

/* chainpool_alloc_bulk(); -EIO as for pool_alloc(). */
static int pool_alloc_bulk(struct chainpool *pool, u32 count, gfp_t gfp,
			   chainpool_bulk_fn fn, void *ctx)
{
	u32 errs = kshim.dev_errs;
	int ret = chainpool_alloc_bulk(pool, count, gfp, fn, ctx);

	return ret ? ret : kshim.dev_errs == errs ? 0 : -EIO;
}

static void *alloc_array(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	CHECK(p);
	return p;
}

static void alloc_n(struct chainpool *pool, struct cp_block *blocks, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &blocks[i].cpu,
				    &blocks[i].dma), 0);
}

static void free_n(struct chainpool *pool, struct cp_block *blocks, size_t n)
{
	u32 errs = kshim.dev_errs;
	size_t i;

	for (i = 0; i < n; i++)
		chainpool_free(pool, blocks[i].cpu, blocks[i].dma);
	/* A bad free is reported, and only that way. */
	CHECK_EQ(kshim.dev_errs, errs);
}

/*
 * Destroy without complaint, every slab given back to the DMA allocator,
 * and no memory of the pool's left (its slab tables, debug maps, the
 * pool itself): no other pool may be alive.
 */
static void check_no_leak(struct chainpool *pool, struct fake_dma *fd)
{
	u32 errs = kshim.dev_errs;

	CHECK_EQ(pool->core.nr_in_use, 0);
	pool_destroy(pool);
	CHECK_EQ(kshim.dev_errs, errs);
	CHECK_EQ(fd->live, 0);
	CHECK_EQ(fd->live_bytes, 0);
	CHECK_EQ(fd->allocs, fd->frees);
	CHECK_EQ(kshim.live, 0);
	CHECK_EQ(kshim.allocs, kshim.frees);
	CHECK_EQ(kshim.locks_held, 0);
	CHECK_EQ(kshim.rcu_depth, 0);
}

/* A misuse of a kernel call the shim caught fails the test. */
static void shim_bug(const char *msg)
{
	fail_msg("%s: kernel shim: %s", test_case, msg);
}

/* Name the case for the checks' messages; a fresh fake DMA allocator. */
static void __printf(3, 4)
start_case(struct fake_dma *fd, u64 dma_base, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(test_case, sizeof(test_case), fmt, ap);
	va_end(ap);
	fake_dma_init(fd, dma_base);
	kshim_reset();
}

/*
 * One round of a test that runs with the debug checks off, then on: the
 * case named @what and "debug=N", a fresh fake allocator at @dma_base and
 * a pool of @size-byte blocks in slabs of at most @cap bytes.
 */
static void start_debug_round(struct chainpool **pool, struct fake_dma *fd,
			      u64 dma_base, const char *what, size_t size,
			      u64 cap, int debug)
{
	start_case(fd, dma_base, "%s debug=%d", what, debug);
	CHECK_EQ(pool_init(pool, fd, size, 0, 0, cap, debug), 0);
}

/* Every block checked, then freed; the pool destroyed with no leak. */
static void check_free_all(struct chainpool *pool, struct fake_dma *fd,
			   struct cp_block *blocks, size_t n)
{
	check_blocks(pool, blocks, n);
	free_n(pool, blocks, n);
	check_no_leak(pool, fd);
}

/*
 * Fill a pool with @n blocks (or grow it on demand), allocate them all,
 * check every one, free them all, destroy.
 */
static void run_shape(size_t size, size_t align, size_t boundary, size_t n,
		      u64 dma_base, bool fill, bool debug)
{
	struct fake_dma fd;
	struct chainpool *pool;
	struct cp_block *blocks = alloc_array(n, sizeof(*blocks));

	start_case(&fd, dma_base,
		   "size %zu align %zu boundary %zu n %zu base %#llx%s%s", size,
		   align, boundary, n, (unsigned long long)dma_base,
		   fill ? " fill" : "", debug ? " debug" : "");
	CHECK_EQ(pool_init(&pool, &fd, size, align, boundary, 0, debug), 0);
	if (fill) {
		CHECK_EQ(pool_fill(pool, n), 0);
		CHECK(core_stats(&pool->core).blocks_total >= n);
		/* Only the last slab may be partly unneeded. */
		CHECK(core_stats(&pool->core).blocks_total - n <
		      chainpool_plan_blocks_per_slab(&pool->core.plan,
						     pool->core.plan.max_order));
	}
	alloc_n(pool, blocks, n);
	if (fill)	/* a filled pool never grows on alloc */
		CHECK_EQ(fd.allocs, core_stats(&pool->core).nr_slabs);
	CHECK_EQ(pool->core.nr_in_use, n);
	check_blocks(pool, blocks, n);
	check_non_blocks(pool);
	free_n(pool, blocks, n);
	CHECK_EQ(pool->core.nr_in_use, 0);
	check_no_leak(pool, &fd);
	free(blocks);
}

static void test_count_sweep(void **state)
{
	static const size_t counts[] = {
		1, 2, 7, 31, 1000, 65537, 373959, 1000000
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(counts); i++) {
		/* Start below 4 GiB so the pool straddles it. */
		run_shape(128, 0, 0, counts[i], GIB4 - (8ULL << 20), true,
			  false);
		if (counts[i] <= 65537)
			run_shape(16, 16, 0, counts[i], 0x10000, false, false);
	}
}

static void test_shape_sweep(void **state)
{
	static const size_t sizes[] = {
		16, 24, 100, 128, 512, 1000, 2048, 4096
	};
	static const size_t aligns[] = { 16, 64, 512, 4096 };
	static const size_t boundaries[] = { 0, 4096, 65536 };
	size_t s, a, b;

	(void)state;
	for (s = 0; s < 8; s++)
		for (a = 0; a < 4; a++)
			for (b = 0; b < 3; b++) {
				if (boundaries[b] && boundaries[b] < sizes[s])
					continue;
				run_shape(sizes[s], aligns[a], boundaries[b],
					  1500, GIB4 - (1ULL << 20), true,
					  false);
				run_shape(sizes[s], aligns[a], boundaries[b],
					  300, GIB4 - (64ULL << 10), false,
					  (s + a + b) % 2);
			}
	/* Blocks above a page. */
	run_shape(5000, 16, 0, 100, GIB4 - (1ULL << 20), true, false);
	run_shape(5000, 16, 8192, 100, GIB4 - (1ULL << 20), true, true);
	run_shape(1 << 20, 16, 0, 1, GIB4 - (1ULL << 20), true, false);
	run_shape(1 << 20, 4096, 1 << 20, 3, GIB4 - (1ULL << 20), false,
		  true);
	/* Tiny blocks still hold the free link. */
	run_shape(1, 0, 0, 5000, 0x40000000, true, true);
	run_shape(8, 0, 8, 5000, 0x40000000, false, false);
}

/* An allocator that refuses slabs above 16 KiB: every slab falls back. */
static void test_fallback_orders(void **state)
{
	struct cp_block *blocks = alloc_array(10000, sizeof(*blocks));
	struct fake_dma fd;
	struct chainpool *pool;
	u32 slabs;

	(void)state;
	start_case(&fd, 0x80000000ULL, "fallback to 16 KiB");
	fd.max_bytes = 16384;
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, false), 0);
	alloc_n(pool, blocks, 10000);
	slabs = (10000 + 127) / 128;
	CHECK_EQ(core_stats(&pool->core).nr_slabs, slabs);
	CHECK_EQ(core_stats(&pool->core).slabs_by_order[2], slabs);
	CHECK_EQ(pool->acquire.fallbacks, 3 * slabs);
	CHECK_EQ(fd.refused, 3 * slabs);
	CHECK_EQ(pool->acquire.rejected, 0);
	/* Only the last resort, dma_pool's own order, may warn. */
	CHECK_EQ(fd.warned_allocs, 0);
	check_free_all(pool, &fd, blocks, 10000);

	start_case(&fd, 0x80000000ULL, "fallback to one page");
	fd.max_bytes = PAGE;
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, false), 0);
	CHECK_EQ(pool_fill(pool, 1000), 0);
	CHECK_EQ(core_stats(&pool->core).slabs_by_order[0], (1000 + 31) / 32);
	CHECK_EQ(fd.warned_allocs, core_stats(&pool->core).nr_slabs);
	alloc_n(pool, blocks, 1000);
	check_free_all(pool, &fd, blocks, 1000);

	start_case(&fd, 0x80000000ULL, "nothing fits");
	fd.max_bytes = PAGE / 2;
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, false), 0);
	CHECK_EQ(pool_fill(pool, 1000), -ENOMEM);
	CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &blocks[0].cpu, &blocks[0].dma),
		 -ENOMEM);
	CHECK_EQ(core_stats(&pool->core).nr_slabs, 0);
	check_no_leak(pool, &fd);
	free(blocks);
}

/* Slabs the layout cannot use are given back, a smaller order is tried. */
static void test_rejected_slabs(void **state)
{
	/* Page aligned but each of 128..8 KiB would span 4 GiB. */
	static const u64 cross[] = {
		GIB4 - PAGE, GIB4 - PAGE, GIB4 - PAGE, GIB4 - PAGE,
		GIB4 - PAGE, GIB4 - PAGE,
	};
	static const u64 odd[] = {
		0x10000200, 0x10000200, 0x10000200, 0x10000200, 0x10000200,
		0x10000200,
	};
	struct cp_block blocks[32];
	struct fake_dma fd;
	struct chainpool *pool;

	(void)state;
	start_case(&fd, 0, "slab across 4 GiB");
	fd.script = cross;
	fd.script_len = 6;
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, false), 0);
	CHECK_EQ(grow_slab(pool), 0);
	CHECK_EQ(pool->acquire.rejected, 5);
	CHECK_EQ(pool->acquire.fallbacks, 5);
	CHECK_EQ(core_stats(&pool->core).slabs_by_order[0], 1);
	CHECK_EQ(fd.live, 1);
	alloc_n(pool, blocks, 32);
	CHECK(blocks[31].dma + 128 == GIB4);
	check_free_all(pool, &fd, blocks, 32);

	start_case(&fd, 0, "misaligned slab");
	fd.script = odd;
	fd.script_len = 6;
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, false), 0);
	CHECK_EQ(grow_slab(pool), -ENOMEM);
	CHECK_EQ(pool->acquire.rejected, 6);
	CHECK_EQ(fd.live, 0);
	check_no_leak(pool, &fd);

	/*
	 * Page aligned, never naturally aligned (CMA beyond
	 * CONFIG_CMA_ALIGNMENT): one-segment slabs are taken as they are.
	 */
	start_case(&fd, 0x20000000, "skewed allocator");
	fd.skew = PAGE;
	CHECK_EQ(pool_init(&pool, &fd, 4096, 4096, 0, 0, false), 0);
	CHECK_EQ(pool_fill(pool, 100), 0);
	CHECK_EQ(pool->acquire.rejected, 0);
	CHECK_EQ(core_stats(&pool->core).slabs_by_order[0], 0);
	CHECK_EQ(core_stats(&pool->core).slabs_by_order[5], 3);
	alloc_n(pool, blocks, 32);
	CHECK(blocks[0].dma & (32 * PAGE - 1));
	check_free_all(pool, &fd, blocks, 32);

	/* The same allocator with the driver's large single-block pools. */
	start_case(&fd, 0x20000000, "skewed, one large block");
	fd.skew = PAGE;
	CHECK_EQ(pool_init(&pool, &fd, 2621440, 16, 0, 0, false), 0);
	CHECK_EQ(pool_fill(pool, 1), 0);
	CHECK_EQ(pool->acquire.rejected, 0);
	CHECK_EQ(core_stats(&pool->core).dma_bytes, 2621440);
	alloc_n(pool, blocks, 1);
	CHECK(blocks[0].dma & ((4U << 20) - 1));
	check_free_all(pool, &fd, blocks, 1);

	/* Small blocks in several segments still need aligned segments. */
	start_case(&fd, 0x20000000, "skewed, 64 KiB boundary");
	fd.skew = PAGE;
	CHECK_EQ(pool_init(&pool, &fd, 4096, 0, 65536, 0, false), 0);
	CHECK_EQ(pool_fill(pool, 100), 0);
	CHECK_EQ(core_stats(&pool->core).slabs_by_order[5], 0);
	CHECK_EQ(core_stats(&pool->core).slabs_by_order[4], 0);
	CHECK(pool->acquire.rejected > 0);
	check_no_leak(pool, &fd);
}

/*
 * The fault hook: fail_at fails the Nth acquisition, once, giving back
 * the slab it had; fail_max_order fails only the largest order, so the
 * slab comes one order down.  One count of both.
 */
static void test_fault_hook(void **state)
{
	struct chainpool_fault fault = { .fail_at = 3 };
	struct chainpool_acquire_stats acq = { 0 };
	struct chainpool_slab slabs[4], slab;
	struct chainpool_plan plan;
	struct fake_dma fd;
	u32 k;

	(void)state;
	start_case(&fd, 0x80000000ULL, "fault hook");
	CHECK_EQ(chainpool_plan_init(&plan, 128, 0, 0, 4096, 16384), 0);
	for (k = 1; k <= 4; k++)
		CHECK_EQ(chainpool_slab_acquire(&plan, plan.max_order,
						&fake_dma_ops, &fd, &fault,
						&acq, &slabs[k - 1]),
			 k == 3 ? -ENOMEM : 0);
	CHECK_EQ(fault.injected, 1);
	CHECK_EQ(fd.allocs, 4);
	CHECK_EQ(fd.live, 3);
	CHECK_EQ(acq.fallbacks, 0);
	for (k = 1; k <= 4; k++)
		if (k != 3)
			fake_dma_ops.free(&fd, chainpool_plan_slab_bytes(&plan,
							slabs[k - 1].order),
					  slabs[k - 1].cpu, slabs[k - 1].dma);

	fault = (struct chainpool_fault){ .fail_max_order = true };
	CHECK_EQ(chainpool_slab_acquire(&plan, plan.max_order, &fake_dma_ops,
					&fd, &fault, &acq, &slab), 0);
	CHECK_EQ(slab.order, plan.max_order - 1);
	CHECK_EQ(fault.injected, 1);
	CHECK_EQ(acq.fallbacks, 1);
	CHECK_EQ(acq.rejected, 0);
	CHECK_EQ(fd.live, 1);
	fake_dma_ops.free(&fd, chainpool_plan_slab_bytes(&plan, slab.order),
			  slab.cpu, slab.dma);

	/* A plan with one order has nothing to fall back to: no failure. */
	CHECK_EQ(chainpool_plan_init(&plan, 4096, 0, 0, 4096, 4096), 0);
	fault.injected = 0;
	CHECK_EQ(chainpool_slab_acquire(&plan, plan.max_order, &fake_dma_ops,
					&fd, &fault, &acq, &slab), 0);
	CHECK_EQ(fault.injected, 0);
	fake_dma_ops.free(&fd, chainpool_plan_slab_bytes(&plan, slab.order),
			  slab.cpu, slab.dma);
	CHECK_EQ(fd.live, 0);
}

/* Fail each slab allocation in turn: clean error, nothing leaked. */
static void test_fault_every_slab(void **state)
{
	struct fake_dma fd;
	struct chainpool *pool;
	u32 needed, k;

	(void)state;
	fake_dma_init(&fd, 0);
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 16384, false), 0);
	CHECK_EQ(pool_fill(pool, 20000), 0);
	needed = core_stats(&pool->core).nr_slabs;
	check_no_leak(pool, &fd);
	CHECK(needed > 100);

	for (k = 1; k <= needed + 1; k++) {
		struct chainpool_params params = { .slab_bytes = 16384,
						   .debug = k % 3 == 0,
						   .fail_slab = k };

		start_case(&fd, GIB4 - (1ULL << 20), "fail slab %u of %u", k,
			   needed);
		CHECK_EQ(pool_init_params(&pool, &fd, 128, 0, 0, &params), 0);
		if (k <= needed) {
			CHECK_EQ(pool_fill(pool, 20000), -ENOMEM);
			CHECK_EQ(core_stats(&pool->core).nr_slabs, k - 1);
			CHECK_EQ(pool->fault.injected, 1);
		} else {
			CHECK_EQ(pool_fill(pool, 20000), 0);
			CHECK_EQ(pool->fault.injected, 0);
		}
		CHECK_EQ(fd.live, core_stats(&pool->core).nr_slabs);
		check_no_leak(pool, &fd);
	}
}

enum order_kind { LIFO, FIFO, RANDOM };

/* Free in some order, reallocate: the same blocks come back, no growth. */
static void run_pattern(enum order_kind kind, bool debug)
{
	const size_t n = 50000;
	struct cp_block *blocks = alloc_array(n, sizeof(*blocks));
	struct cp_block *again = alloc_array(n, sizeof(*again));
	struct fake_dma fd;
	struct chainpool *pool;
	u32 slabs, round;
	size_t i;

	snprintf(test_case, sizeof(test_case), "pattern %d debug %d", kind,
		 debug);
	srand(12345);
	fake_dma_init(&fd, GIB4 - (2ULL << 20));
	CHECK_EQ(pool_init(&pool, &fd, 100, 32, 0, 0, debug), 0);
	alloc_n(pool, blocks, n);
	slabs = core_stats(&pool->core).nr_slabs;
	for (round = 0; round < 3; round++) {
		if (kind == LIFO) {
			for (i = n; i-- > 0;)
				CHECK_EQ(chainpool_core_free(&pool->core,
							     blocks[i].cpu,
							     blocks[i].dma), 0);
		} else {
			if (kind == RANDOM)
				for (i = n - 1; i > 0; i--) {
					size_t j = (size_t)rand() % (i + 1);
					struct cp_block t = blocks[i];

					blocks[i] = blocks[j];
					blocks[j] = t;
				}
			/* Free half, reallocate it, then free all. */
			free_n(pool, blocks, n / 2);
			CHECK_EQ(pool->core.nr_in_use, n - n / 2);
			alloc_n(pool, blocks, n / 2);
			free_n(pool, blocks, n);
		}
		CHECK_EQ(pool->core.nr_in_use, 0);
		alloc_n(pool, again, n);
		CHECK_EQ(core_stats(&pool->core).nr_slabs, slabs);
		if (kind == LIFO)	/* most recently freed first */
			for (i = 0; i < n; i++)
				CHECK(again[i].dma == blocks[i].dma);
		memcpy(blocks, again, n * sizeof(*blocks));
	}
	check_free_all(pool, &fd, again, n);
	free(blocks);
	free(again);
}

static void test_patterns(void **state)
{
	(void)state;
	run_pattern(LIFO, false);
	run_pattern(FIFO, false);
	run_pattern(RANDOM, false);
	run_pattern(LIFO, true);
	run_pattern(RANDOM, true);
}

static void test_debug_checks(void **state)
{
	struct cp_block a, b, c;
	struct fake_dma fd;
	struct chainpool *pool;
	u8 *bytes;
	u32 i;

	(void)state;
	start_case(&fd, 0x70000000, "debug checks");
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, true), 0);
	CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &a.cpu, &a.dma), 0);
	CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &b.cpu, &b.dma), 0);
	bytes = a.cpu;
	for (i = 0; i < 128; i++)
		CHECK_EQ(bytes[i], CHAINPOOL_POISON_ALLOCATED);

	CHECK_EQ(chainpool_core_free(&pool->core, a.cpu, a.dma), 0);
	for (i = 16; i < 128; i++)
		CHECK_EQ(bytes[i], CHAINPOOL_POISON_FREED);
	CHECK_EQ(chainpool_core_free(&pool->core, a.cpu, a.dma), -EALREADY);
	CHECK_EQ(chainpool_core_free(&pool->core, b.cpu, b.dma + 1), -EFAULT);
	CHECK_EQ(chainpool_core_free(&pool->core, b.cpu, 0x1000), -EFAULT);
	CHECK_EQ(chainpool_core_free(&pool->core, a.cpu, b.dma), -EINVAL);
	/* A block never handed out is not in use either. */
	CHECK_EQ(chainpool_core_free(&pool->core, (u8 *)b.cpu + 128, b.dma + 128),
		 -EALREADY);
	CHECK_EQ(pool->core.nr_in_use, 1);

	/* Write after free: found when the block is handed out again. */
	bytes[100] = 0;
	CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &c.cpu, &c.dma), -EIO);
	CHECK(c.cpu == a.cpu);
	CHECK_EQ(chainpool_core_free(&pool->core, c.cpu, c.dma), 0);
	CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &c.cpu, &c.dma), 0);

	free_n(pool, &b, 1);
	free_n(pool, &c, 1);
	check_no_leak(pool, &fd);
}

/* Overwrite the free link at the start of a freed block. */
static void set_link(void *block, const void *next, dma_addr_t dma)
{
	memcpy(block, &next, sizeof(next));
	memcpy((u8 *)block + sizeof(next), &dma, sizeof(dma));
}

/*
 * With debug, a free link that fails validation is neither followed nor
 * written through: the block comes back with its true DMA address, the
 * rest of the list is dropped, and the next block is carved fresh.
 */
static void test_debug_bad_links(void **state)
{
	struct cp_block a, b, c, d, e;
	struct fake_dma fd;
	struct chainpool *pool;

	(void)state;
	start_case(&fd, 0x70000000, "debug bad links");
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, true), 0);
	CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &a.cpu, &a.dma), 0);
	CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &b.cpu, &b.dma), 0);
	CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &c.cpu, &c.dma), 0);

	/* b -> a on the list; b's next now points far outside the pool-> */
	free_n(pool, &a, 1);
	free_n(pool, &b, 1);
	set_link(b.cpu, (void *)(uintptr_t)0x10, b.dma);
	CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &d.cpu, &d.dma), -EIO);
	CHECK(d.cpu == b.cpu);
	CHECK(d.dma == b.dma);
	CHECK(!pool->core.free_head);
	/* a was dropped with the list: the next block is a fresh one. */
	CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &e.cpu, &e.dma), 0);
	CHECK(e.cpu != a.cpu && e.cpu != b.cpu && e.cpu != c.cpu);
	CHECK_EQ(pool->core.nr_in_use, 3);
	free_n(pool, &d, 1);
	free_n(pool, &e, 1);

	/* A link naming a block still in use (c) is cut as well. */
	set_link(e.cpu, c.cpu, e.dma);
	CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &e.cpu, &e.dma), -EIO);
	CHECK(!pool->core.free_head);
	CHECK(chainpool_core_dma_to_virt(&pool->core, e.dma) == e.cpu);

	/* A wrong DMA address in the link: the table's address is used. */
	free_n(pool, &e, 1);
	set_link(e.cpu, NULL, e.dma + 128);
	CHECK_EQ(pool_alloc(pool, GFP_KERNEL, &d.cpu, &d.dma), -EIO);
	CHECK(d.cpu == e.cpu);
	CHECK(d.dma == e.dma);
	CHECK_EQ(pool->core.nr_in_use, 2);
	free_n(pool, &c, 1);
	free_n(pool, &d, 1);
	check_no_leak(pool, &fd);
}

/*
 * Bulk allocation hands out the very blocks per-block allocation would,
 * in the same order, each once; then a whole-pool release takes them all
 * back without a per-block free, and destroy frees every slab.
 */
static void run_bulk(size_t size, size_t align, size_t boundary, u32 n,
		     bool debug)
{
	struct cp_block *bulk = alloc_array(n, sizeof(*bulk));
	struct cp_block *single = alloc_array(n, sizeof(*single));
	struct cp_sink sink = { .blocks = bulk };
	struct fake_dma fd, fd1;
	struct chainpool *pool, *pool1;
	u32 i;

	start_case(&fd, GIB4 - (1ULL << 20),
		   "bulk size %zu align %zu boundary %zu n %u debug %d", size,
		   align, boundary, n, debug);
	/* Per-block allocation first, from a pool of its own, then gone. */
	fake_dma_init(&fd1, GIB4 - (1ULL << 20));
	CHECK_EQ(pool_init(&pool1, &fd1, size, align, boundary, 0, debug), 0);
	CHECK_EQ(pool_fill(pool1, n), 0);
	alloc_n(pool1, single, n);
	free_n(pool1, single, n);
	check_no_leak(pool1, &fd1);

	CHECK_EQ(pool_init(&pool, &fd, size, align, boundary, 0, debug), 0);
	CHECK_EQ(pool_alloc_bulk(pool, n, GFP_KERNEL, cp_sink_store, &sink), 0);
	CHECK_EQ(sink.calls, n);
	CHECK(!sink.out_of_order);
	CHECK_EQ(pool->core.nr_in_use, n);
	for (i = 0; i < n; i++) {
		CHECK_EQ(bulk[i].dma, single[i].dma);
		CHECK(chainpool_core_dma_to_virt(&pool->core, bulk[i].dma) ==
		      bulk[i].cpu);
	}
	/* Blocks the fill made but nobody took are not found. */
	if (core_stats(&pool->core).blocks_total > n) {
		const struct chainpool_table *t = chainpool_core_table(&pool->core);
		const struct chainpool_slab *last = &t->slabs[t->nr_slabs - 1];

		CHECK(!chainpool_core_dma_to_virt(&pool->core, last->dma +
				chainpool_plan_block_offset(&pool->core.plan,
							    last->order,
							    last->nr_blocks - 1)));
	}
	check_blocks(pool, bulk, n);

	/* Whole-pool release: nothing in use, nothing found, no leak. */
	CHECK_EQ(chainpool_release_all(pool), 0);
	CHECK_EQ(pool->core.nr_in_use, 0);
	for (i = 0; i < n; i += 1 + n / 64)
		CHECK(!chainpool_core_dma_to_virt(&pool->core, single[i].dma));
	if (debug)	/* a block released with the pool is not in use */
		CHECK_EQ(chainpool_core_free(&pool->core, bulk[0].cpu,
					     bulk[0].dma), -EALREADY);
	/* The pool is as if just filled: the same blocks come back. */
	sink.calls = 0;
	CHECK_EQ(pool_alloc_bulk(pool, n, GFP_KERNEL, cp_sink_store, &sink), 0);
	CHECK_EQ(fd.allocs, core_stats(&pool->core).nr_slabs);
	for (i = 0; i < n; i++)
		CHECK_EQ(bulk[i].dma, single[i].dma);
	CHECK_EQ(chainpool_release_all(pool), 0);
	check_no_leak(pool, &fd);
	free(bulk);
	free(single);
}

static void test_bulk(void **state)
{
	static const u32 counts[] = { 1, 31, 32, 1000, 65537, 373959 };
	u32 i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(counts); i++)
		run_bulk(128, 16, 0, counts[i], false);
	run_bulk(128, 16, 0, 20000, true);
	run_bulk(100, 64, 0, 5000, false);
	run_bulk(100, 512, 128, 5000, true);
	run_bulk(1000, 16, 1024, 3000, false);
	run_bulk(24, 16, 0, 3000, false);
	run_bulk(5000, 16, 8192, 100, false);
	run_bulk(4096, 4096, 65536, 100, true);
}

/* Too few free blocks: nothing taken.  Freed blocks are taken first. */
static void test_bulk_partial(void **state)
{
	struct cp_block blocks[300];
	struct cp_sink sink = { .blocks = blocks };
	struct fake_dma fd;
	struct chainpool *pool;

	(void)state;
	start_case(&fd, 0x10000000, "bulk short and mixed");
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 16384, false), 0);
	CHECK_EQ(pool_fill(pool, 200), 0);
	CHECK_EQ(chainpool_core_alloc_bulk(&pool->core, 257, 0, cp_sink_store,
					   &sink), -ENOMEM);
	CHECK_EQ(sink.calls, 0);
	CHECK_EQ(pool->core.nr_in_use, 0);
	CHECK_EQ(chainpool_core_alloc_bulk(&pool->core, 100, 0, cp_sink_store,
					   &sink), 0);
	free_n(pool, &blocks[10], 5);
	sink.calls = 0;
	sink.blocks = &blocks[100];
	CHECK_EQ(chainpool_core_alloc_bulk(&pool->core, 156,
					   CHAINPOOL_ALLOC_ZERO, cp_sink_store,
					   &sink), 0);
	CHECK_EQ(sink.calls, 156);
	CHECK(blocks[100].cpu == blocks[14].cpu);	/* last freed first */
	CHECK_EQ(pool->core.nr_in_use, 251);
	CHECK_EQ(((u8 *)blocks[255].cpu)[127], 0);
	memcpy(&blocks[10], &blocks[100], 5 * sizeof(blocks[0]));
	memmove(&blocks[100], &blocks[105], 151 * sizeof(blocks[0]));
	check_blocks(pool, blocks, 251);
	CHECK_EQ(chainpool_release_all(pool), 0);
	check_no_leak(pool, &fd);
}

/*
 * A slab allocation failing half way through the fill of a bulk
 * allocation: the bulk fails, hands out nothing, and the whole-pool
 * release and destroy free the slabs the fill got.  With debug too.
 */
static void test_bulk_fault(void **state)
{
	struct cp_block *blocks = alloc_array(20000, sizeof(*blocks));
	struct cp_sink sink = { .blocks = blocks };
	struct fake_dma fd;
	struct chainpool *pool;
	u32 k;

	(void)state;
	for (k = 1; k <= 20; k++) {
		struct chainpool_params params = { .slab_bytes = 16384,
						   .debug = k % 2,
						   .fail_slab = k };

		start_case(&fd, GIB4 - (1ULL << 20), "bulk fault at slab %u",
			   k);
		CHECK_EQ(pool_init_params(&pool, &fd, 128, 0, 0, &params), 0);
		sink.calls = 0;
		CHECK_EQ(pool_alloc_bulk(pool, 20000, GFP_KERNEL, cp_sink_store,
					 &sink), -ENOMEM);
		CHECK_EQ(sink.calls, 0);
		CHECK_EQ(core_stats(&pool->core).nr_slabs, k - 1);
		CHECK_EQ(pool->core.nr_in_use, 0);
		CHECK_EQ(fd.live, k - 1);
		CHECK_EQ(chainpool_release_all(pool), 0);
		check_no_leak(pool, &fd);
	}
	free(blocks);
}

/*
 * Table storage for a test that grows a pool's core itself, laid out as
 * the glue's (a struct chainpool_table_mem) so that chainpool_destroy()
 * frees it as one of its own.
 */
static void *table_storage(u32 max_slabs, bool debug)
{
	struct chainpool_table_mem *mem;

	mem = kvmalloc(sizeof(*mem) +
		       chainpool_core_table_bytes(max_slabs, debug),
		       GFP_KERNEL);
	CHECK(mem);
	mem->next = NULL;
	return mem->storage;
}

/*
 * Adding a slab publishes a new table and leaves the old one as it was, so
 * a lock-free reader still in the old table finds every block it holds;
 * the new table finds the new slab's blocks too.  Both a lean and a debug
 * pool, whose table also carries the CPU index and the in-use maps.
 */
static void test_table_publication(void **state)
{
	struct chainpool_table *old, *t1;
	const struct chainpool_table *from;
	struct chainpool_new_slab add;
	struct chainpool_slab slab;
	struct fake_dma fd;
	struct chainpool *pool;
	void *storage[2], *cpu[2];
	dma_addr_t dma[2];
	unsigned long *map[2] = { NULL, NULL };
	int i, debug;

	(void)state;
	for (debug = 0; debug < 2; debug++) {
		start_debug_round(&pool, &fd, 0x40000000, "table publication",
				  128, 4096, debug);
		for (i = 0; i < 2; i++) {
			CHECK_EQ(chainpool_slab_acquire(&pool->core.plan, 0,
							&fake_dma_ops, &fd, NULL,
							NULL, &slab), 0);
			if (debug)
				map[i] = kzalloc(chainpool_core_map_bytes(&pool->core.plan, 0),
						 GFP_KERNEL);
			storage[i] = table_storage(i + 1, debug);
			add = (struct chainpool_new_slab){ .slab = slab,
							   .map = map[i] };
			/*
			 * Storage for fewer slabs than the pool has, then
			 * than the new table needs: refused, pool unchanged.
			 */
			from = chainpool_core_table(&pool->core);
			if (i)
				CHECK_EQ(chainpool_core_grow(&pool->core,
							     storage[i], i - 1,
							     &add, &old),
					 -ENOSPC);
			CHECK_EQ(chainpool_core_grow(&pool->core, storage[i], i,
						     &add, &old), -ENOSPC);
			CHECK(chainpool_core_table(&pool->core) == from);
			CHECK_EQ(chainpool_core_grow(&pool->core, storage[i],
						     i + 1, &add, &old), 0);
			CHECK(old == (i ? storage[0] : NULL));
			CHECK(chainpool_core_table(&pool->core) == storage[i]);
			/* Take every block of the slab; keep the last one. */
			while (pool->core.nr_in_use < core_stats(&pool->core).blocks_total)
				CHECK_EQ(chainpool_core_alloc(&pool->core, 0,
							      &cpu[i], &dma[i]),
					 0);
		}
		t1 = storage[0];
		CHECK_EQ(t1->nr_slabs, 1);
		CHECK_EQ(t1->max_slabs, 1);
		CHECK(chainpool_core_lookup(&pool->core, t1, dma[0]) == cpu[0]);
		CHECK(!chainpool_core_lookup(&pool->core, t1, dma[1]));
		CHECK(chainpool_core_lookup(&pool->core, storage[1], dma[0]) ==
		      cpu[0]);
		CHECK(chainpool_core_lookup(&pool->core, storage[1], dma[1]) ==
		      cpu[1]);
		CHECK_EQ(core_stats(&pool->core).meta_bytes,
			 chainpool_core_table_bytes(2, debug) +
			 (debug ? 2 * chainpool_core_map_bytes(&pool->core.plan,
							       0) : 0));
		/* storage[1] is the pool's now, storage[0] the test's. */
		kvfree(chainpool_table_mem(storage[0]));
		CHECK_EQ(chainpool_release_all(pool), 0);
		check_no_leak(pool, &fd);
	}
}

/* Are @ids sorted by strictly increasing DMA or (@by_cpu) CPU address? */
static bool index_sorted(const struct chainpool_table *t, const u32 *ids,
			 bool by_cpu)
{
	u32 i;

	for (i = 1; i < t->nr_slabs; i++) {
		const struct chainpool_slab *a = &t->slabs[ids[i - 1]];
		const struct chainpool_slab *b = &t->slabs[ids[i]];

		if (by_cpu ? (uintptr_t)a->cpu >= (uintptr_t)b->cpu :
			     a->dma >= b->dma)
			return false;
	}
	return true;
}

/*
 * A fill adds all its slabs in one table, published once.  The slabs
 * come in an order unrelated to their addresses (odd ones first, then
 * even ones backwards) on top of a table that already has slabs; the
 * indexes come out sorted and every block is found.  Too little storage,
 * the same slab twice, a slab without its debug map (or with one without
 * debug) and nothing to add are refused and leave the pool as it was.
 */
static void test_staged_fill(void **state)
{
	enum { FIRST = 3, BATCH = 37 };
	struct chainpool_new_slab add[BATCH], twice[2], bad;
	struct chainpool_slab slabs[BATCH];
	const struct chainpool_table *before;
	struct chainpool_table *old, *t;
	unsigned long *maps[BATCH];
	unsigned long dummy_map[1];
	void *storage, *cpu;
	struct fake_dma fd;
	struct chainpool *pool;
	int i, debug;
	u64 blocks;
	dma_addr_t dma;

	(void)state;
	for (debug = 0; debug < 2; debug++) {
		start_debug_round(&pool, &fd, 0x40000000, "staged fill", 128,
				  4096, debug);
		for (i = 0; i < FIRST; i++)
			CHECK_EQ(grow_slab(pool), 0);
		blocks = core_stats(&pool->core).blocks_total;
		before = chainpool_core_table(&pool->core);
		for (i = 0; i < BATCH; i++) {
			CHECK_EQ(chainpool_slab_acquire(&pool->core.plan, 0,
							&fake_dma_ops, &fd,
							NULL, NULL, &slabs[i]),
				 0);
			maps[i] = debug ? kzalloc(chainpool_core_map_bytes(&pool->core.plan, 0),
						  GFP_KERNEL) : NULL;
		}
		/* Linked odd ones first, then even ones backwards. */
		for (i = 0; i < BATCH; i++) {
			int at = i < BATCH / 2 ? 2 * i + 1 :
						 2 * (BATCH - 1 - i);

			add[i] = (struct chainpool_new_slab){
				.next = i + 1 < BATCH ? &add[i + 1] : NULL,
				.slab = slabs[at], .map = maps[at] };
		}
		storage = table_storage(FIRST + BATCH, debug);
		CHECK_EQ(chainpool_core_grow(&pool->core, storage,
					     FIRST + BATCH - 1, add, &old),
			 -ENOSPC);
		twice[0] = (struct chainpool_new_slab){ .next = &twice[1],
			.slab = slabs[5], .map = maps[5] };
		twice[1] = (struct chainpool_new_slab){ .slab = slabs[5],
							.map = maps[5] };
		CHECK_EQ(chainpool_core_grow(&pool->core, storage,
					     FIRST + BATCH, twice, &old),
			 -EEXIST);
		bad = (struct chainpool_new_slab){ .slab = slabs[0],
			.map = debug ? NULL : dummy_map };
		CHECK_EQ(chainpool_core_grow(&pool->core, storage,
					     FIRST + BATCH, &bad, &old),
			 -EINVAL);
		CHECK_EQ(chainpool_core_grow(&pool->core, storage,
					     FIRST + BATCH, NULL, &old),
			 -EINVAL);
		/* Refused: the pool is as it was. */
		CHECK(chainpool_core_table(&pool->core) == before);
		CHECK_EQ(core_stats(&pool->core).nr_slabs, FIRST);
		CHECK_EQ(core_stats(&pool->core).blocks_total, blocks);

		CHECK_EQ(chainpool_core_grow(&pool->core, storage,
					     FIRST + BATCH, add, &old), 0);
		CHECK(old == before);
		/* @old came from grow_slab(); the test replaced it, frees it. */
		kvfree(chainpool_table_mem(old));
		t = storage;
		CHECK(chainpool_core_table(&pool->core) == t);
		CHECK_EQ(t->base, FIRST);
		CHECK_EQ(core_stats(&pool->core).nr_slabs, FIRST + BATCH);
		CHECK_EQ(core_stats(&pool->core).blocks_total,
			 blocks + BATCH * slabs[0].nr_blocks);
		CHECK(index_sorted(t, t->by_dma, false));
		if (debug)
			CHECK(index_sorted(t, t->by_cpu, true));

		/* Every block is handed out once and found by its address. */
		while (pool->core.nr_in_use < core_stats(&pool->core).blocks_total) {
			CHECK_EQ(chainpool_core_alloc(&pool->core, 0, &cpu,
						      &dma), 0);
			CHECK(chainpool_core_lookup(&pool->core, t, dma) ==
			      cpu);
		}
		CHECK_EQ(chainpool_core_alloc(&pool->core, 0, &cpu, &dma),
			 -ENOMEM);
		CHECK_EQ(chainpool_release_all(pool), 0);
		check_no_leak(pool, &fd);
	}
}

static void test_release_debug(void **state)
{
	struct cp_block blocks[64];
	struct cp_sink sink = { .blocks = blocks };
	struct fake_dma fd;
	struct chainpool *pool;
	u32 i, errs;

	(void)state;
	start_case(&fd, 0x10000000, "release with debug");
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, true), 0);
	CHECK_EQ(pool_alloc_bulk(pool, 64, GFP_KERNEL, cp_sink_store, &sink), 0);
	for (i = 0; i < 128; i++)
		CHECK_EQ(((u8 *)blocks[63].cpu)[i], CHAINPOOL_POISON_ALLOCATED);
	free_n(pool, &blocks[5], 1);
	CHECK_EQ(chainpool_release_all(pool), 0);
	/* Released blocks carry the free poison, and are not in use. */
	for (i = 0; i < 128; i++)
		CHECK_EQ(((u8 *)blocks[63].cpu)[i], CHAINPOOL_POISON_FREED);
	CHECK_EQ(chainpool_core_free(&pool->core, blocks[7].cpu, blocks[7].dma),
		 -EALREADY);
	/* A stray in-use bit no allocation accounts for is reported. */
	sink.calls = 0;
	CHECK_EQ(pool_alloc_bulk(pool, 10, GFP_KERNEL, cp_sink_store, &sink), 0);
	__set_bit(32, chainpool_core_table(&pool->core)->maps[0]); /* never taken */
	errs = kshim.dev_errs;
	CHECK_EQ(chainpool_release_all(pool), -EIO);
	CHECK_EQ(kshim.dev_errs, errs + 1);
	CHECK_EQ(pool->core.nr_in_use, 0);
	CHECK(!test_bit(32, chainpool_core_table(&pool->core)->maps[0]));
	check_no_leak(pool, &fd);
}

/*
 * A bulk allocation in batches, as the kernel glue runs it with its lock
 * dropped in between: the reserved blocks are left to it by single
 * allocations, which grow the pool instead; single frees and allocations
 * between the batches take nothing twice; every batch hands out at most
 * chainpool_core_batch() blocks, in order.
 */
static void run_batches(bool debug)
{
	const u32 n = 5000, spare = 100, want = n - spare;
	struct cp_block *bulk = alloc_array(want, sizeof(*bulk));
	struct cp_block *single = alloc_array(2048, sizeof(*single));
	struct cp_block *all = alloc_array(want + 2048, sizeof(*all));
	struct cp_sink sink = { .blocks = bulk };
	u32 batch, index = 0, batches = 0, nsingle = 0;
	struct fake_dma fd;
	struct chainpool *pool;
	void *cpu;
	dma_addr_t dma;

	start_case(&fd, GIB4 - (1ULL << 20), "batched bulk, debug %d", debug);
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, debug), 0);
	CHECK_EQ(pool_fill(pool, n), 0);
	CHECK(core_stats(&pool->core).blocks_total < n + 1024);	/* single[] holds the rest */
	batch = chainpool_core_batch(&pool->core);
	CHECK_EQ(batch, CHAINPOOL_BATCH_BLOCKS);
	CHECK_EQ(chainpool_core_reserve(&pool->core, core_stats(&pool->core).blocks_total + 1),
		 -ENOMEM);
	CHECK_EQ(chainpool_core_reserve(&pool->core, want), 0);
	/* What is left beside the reservation, and then nothing. */
	CHECK_EQ(chainpool_core_reserve(&pool->core,
					core_stats(&pool->core).blocks_total - want + 1),
		 -ENOMEM);
	while (core_stats(&pool->core).blocks_total - pool->core.nr_in_use > want) {
		CHECK_EQ(chainpool_core_alloc(&pool->core, 0, &single[nsingle].cpu,
					      &single[nsingle].dma), 0);
		nsingle++;
	}
	CHECK_EQ(chainpool_core_alloc(&pool->core, 0, &cpu, &dma), -ENOMEM);
	while (index < want) {
		u32 from = index;

		CHECK_EQ(chainpool_core_alloc_reserved(&pool->core, &index,
						       batch < want - index ?
						       batch : want - index,
						       0, cp_sink_store, &sink),
			 0);
		CHECK(index - from <= batch);
		CHECK(index > from);
		batches++;
		/* Between batches: a free, an allocation, a growth. */
		if (nsingle && batches % 2) {
			nsingle--;
			CHECK_EQ(chainpool_core_free(&pool->core,
						     single[nsingle].cpu,
						     single[nsingle].dma), 0);
		} else {
			CHECK_EQ(pool_alloc(pool, GFP_KERNEL,
					    &single[nsingle].cpu,
					    &single[nsingle].dma), 0);
			nsingle++;
		}
		CHECK_EQ(pool->core.nr_reserved, want - index);
	}
	CHECK_EQ(sink.calls, want);
	CHECK(!sink.out_of_order);
	CHECK_EQ(batches, (want + batch - 1) / batch);
	CHECK_EQ(pool->core.nr_reserved, 0);
	CHECK_EQ(pool->core.nr_in_use, want + nsingle);
	/* Nothing was handed out twice. */
	memcpy(all, bulk, want * sizeof(*all));
	memcpy(all + want, single, nsingle * sizeof(*all));
	check_blocks(pool, all, want + nsingle);
	/* Unreserving more than is reserved leaves nothing reserved. */
	CHECK_EQ(pool_fill(pool, pool->core.nr_in_use + 1), 0);
	CHECK_EQ(chainpool_core_reserve(&pool->core, 1), 0);
	chainpool_core_unreserve(&pool->core, 5);
	CHECK_EQ(pool->core.nr_reserved, 0);
	CHECK_EQ(chainpool_release_all(pool), 0);
	check_no_leak(pool, &fd);
	free(bulk);
	free(single);
	free(all);
}

/*
 * A whole-pool release of a debug pool, step by step: each step goes over
 * at most a batch of blocks; a released block is no longer found nor
 * freeable, one not yet gone over still is; a freed block's link survives
 * the steps before it, so an allocation between steps takes it cleanly.
 * Without debug, no step has work.
 */
static void test_release_steps(void **state)
{
	const u32 n = 3000;
	struct cp_block *blocks = alloc_array(n, sizeof(*blocks));
	struct cp_sink sink = { .blocks = blocks };
	struct chainpool_release rel;
	struct fake_dma fd;
	struct chainpool *pool;
	struct cp_block again;
	u32 batch, steps = 0, i;
	bool more;

	(void)state;
	start_case(&fd, 0x10000000, "release steps");
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, false), 0);
	CHECK_EQ(pool_alloc_bulk(pool, n, GFP_KERNEL, cp_sink_store, &sink), 0);
	chainpool_core_release_begin(&rel);
	CHECK(!chainpool_core_release_step(&pool->core, &rel));
	CHECK_EQ(rel.stepped, 0);
	CHECK_EQ(chainpool_core_release_end(&pool->core, &rel), 0);
	CHECK_EQ(pool->core.nr_in_use, 0);
	check_no_leak(pool, &fd);

	start_case(&fd, 0x10000000, "release steps, debug");
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, true), 0);
	sink.calls = 0;
	CHECK_EQ(pool_alloc_bulk(pool, n, GFP_KERNEL, cp_sink_store, &sink), 0);
	batch = chainpool_core_batch(&pool->core);
	/* The last block, freed: on the free list through the release. */
	free_n(pool, &blocks[n - 1], 1);
	chainpool_core_release_begin(&rel);
	do {
		more = chainpool_core_release_step(&pool->core, &rel);
		steps++;
		CHECK(rel.stepped <= batch);
		if (steps == 1) {
			/* Gone over: released.  Not yet: still in use. */
			CHECK(!chainpool_core_dma_to_virt(&pool->core,
							  blocks[0].dma));
			CHECK_EQ(((u8 *)blocks[0].cpu)[64],
				 CHAINPOOL_POISON_FREED);
			CHECK_EQ(chainpool_core_free(&pool->core, blocks[0].cpu,
						     blocks[0].dma), -EALREADY);
			CHECK(chainpool_core_dma_to_virt(&pool->core,
							 blocks[n - 2].dma) ==
			      blocks[n - 2].cpu);
			CHECK_EQ(((u8 *)blocks[n - 2].cpu)[64],
				 CHAINPOOL_POISON_ALLOCATED);
			/* The freed block comes back intact, and goes again. */
			CHECK_EQ(chainpool_core_alloc(&pool->core, 0, &again.cpu,
						      &again.dma), 0);
			CHECK(again.cpu == blocks[n - 1].cpu);
			free_n(pool, &again, 1);
		}
	} while (more);
	/* Every block of every slab, a batch at a time. */
	CHECK_EQ(steps, (u32)((core_stats(&pool->core).blocks_total + batch - 1) / batch));
	CHECK_EQ(rel.marked, n - 1);
	CHECK_EQ(chainpool_core_release_end(&pool->core, &rel), 0);
	for (i = 0; i < n - 1; i++)
		CHECK_EQ(((u8 *)blocks[i].cpu)[127], CHAINPOOL_POISON_FREED);
	CHECK_EQ(pool->core.nr_in_use, 0);
	check_no_leak(pool, &fd);
	free(blocks);
}

static void test_bulk_batches(void **state)
{
	struct fake_dma fd;
	struct chainpool *pool;

	(void)state;
	run_batches(false);
	run_batches(true);
	/* Batches bounded in bytes too: large blocks, smaller batches. */
	start_case(&fd, 0, "batch sizes");
	CHECK_EQ(pool_init(&pool, &fd, 4096, 0, 0, 0, false), 0);
	CHECK_EQ(chainpool_core_batch(&pool->core),
		 CHAINPOOL_BATCH_BYTES / 4096);
	check_no_leak(pool, &fd);
	CHECK_EQ(pool_init(&pool, &fd, 1 << 20, 0, 0, 0, false), 0);
	CHECK_EQ(chainpool_core_batch(&pool->core), 1);
	check_no_leak(pool, &fd);
	CHECK_EQ(pool_init(&pool, &fd, 16, 0, 0, 0, false), 0);
	CHECK_EQ(chainpool_core_batch(&pool->core), CHAINPOOL_BATCH_BLOCKS);
	check_no_leak(pool, &fd);
}

static void test_zalloc(void **state)
{
	struct cp_block a, b;
	struct fake_dma fd;
	struct chainpool *pool;
	int debug;
	u32 i;

	(void)state;
	for (debug = 0; debug < 2; debug++) {
		start_debug_round(&pool, &fd, 0x70000000, "zalloc", 1000, 0,
				  debug);
		CHECK_EQ(pool_alloc(pool, GFP_KERNEL | __GFP_ZERO, &a.cpu, &a.dma),
			 0);
		for (i = 0; i < 1000; i++)
			CHECK_EQ(((u8 *)a.cpu)[i], 0);
		memset(a.cpu, 0xff, 1000);
		free_n(pool, &a, 1);
		CHECK_EQ(pool_alloc(pool, GFP_KERNEL | __GFP_ZERO, &b.cpu, &b.dma),
			 0);
		CHECK(b.cpu == a.cpu);
		for (i = 0; i < 1000; i++)
			CHECK_EQ(((u8 *)b.cpu)[i], 0);
		free_n(pool, &b, 1);
		check_no_leak(pool, &fd);
	}
}

static void test_stats(void **state)
{
	struct chainpool_core_stats st;
	struct chainpool_stats gst;
	struct chainpool_plan plan;
	struct fake_dma fd;
	struct chainpool *pool;
	struct cp_block *blocks = alloc_array(1000, sizeof(*blocks));
	struct chainpool_slab *kept;
	u32 order, errs;

	(void)state;
	start_case(&fd, 0, "stats");
	CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, false), 0);
	chainpool_core_get_stats(&pool->core, &st);
	CHECK_EQ(st.blocks_total, 0);
	CHECK_EQ(st.nr_slabs, 0);
	CHECK_EQ(st.meta_bytes, 0);

	/* The mpt3sas case: 365 slabs of 128 KiB and one of 32 KiB. */
	CHECK_EQ(pool_fill(pool, 373959), 0);
	alloc_n(pool, blocks, 1000);
	chainpool_core_get_stats(&pool->core, &st);
	CHECK_EQ(st.nr_slabs, 366);
	CHECK_EQ(st.slabs_by_order[5], 365);
	CHECK_EQ(st.slabs_by_order[3], 1);
	for (order = 0; order < CHAINPOOL_NR_ORDERS; order++)
		if (order != 5 && order != 3)
			CHECK_EQ(st.slabs_by_order[order], 0);
	CHECK_EQ(st.blocks_total, 365 * 1024 + 256);
	CHECK_EQ(st.blocks_in_use, 1000);
	CHECK_EQ(st.dma_bytes, 365ULL * (128 << 10) + (32 << 10));
	CHECK_EQ(st.dma_bytes, fd.live_bytes);
	/* Lean: a table of exactly the slabs, no per-block metadata. */
	CHECK_EQ(st.meta_bytes, chainpool_core_table_bytes(366, false));
	CHECK(st.meta_bytes <= 16 << 10);
	CHECK_EQ(pool->acquire.fallbacks, 0);
	/* The glue's stats add the pool and the table's header. */
	chainpool_get_stats(pool, &gst);
	CHECK_EQ(gst.nr_slabs, 366);
	CHECK_EQ(gst.blocks_in_use, 1000);
	CHECK_EQ(gst.dma_bytes, st.dma_bytes);
	CHECK_EQ(gst.meta_bytes, st.meta_bytes + sizeof(struct chainpool) +
		 sizeof(struct chainpool_table_mem));
	CHECK_EQ(gst.fallbacks + gst.rejected + gst.injected + gst.parked, 0);

	/*
	 * Destroy with blocks in use complains and keeps the slabs: the
	 * device may DMA.  The pool's metadata is freed all the same.
	 */
	kept = alloc_array(st.nr_slabs, sizeof(*kept));
	memcpy(kept, chainpool_core_table(&pool->core)->slabs,
	       st.nr_slabs * sizeof(*kept));
	plan = pool->core.plan;
	errs = kshim.dev_errs;
	CHECK_EQ(pool->core.nr_in_use, 1000);
	pool_destroy(pool);
	CHECK_EQ(kshim.dev_errs, errs + 1);
	CHECK_EQ(kshim.live, 0);
	CHECK_EQ(fd.live, 366);
	for (order = 0; order < st.nr_slabs; order++)
		fake_dma_ops.free(&fd, chainpool_plan_slab_bytes(&plan,
								 kept[order].order),
				  kept[order].cpu, kept[order].dma);
	CHECK_EQ(fd.live_bytes, 0);
	free(kept);
	free(blocks);
}

/*
 * Growth on alloc in atomic context (GFP_ATOMIC, under a caller's lock):
 * nothing may sleep, so the slabs the growth gives back (here: five that
 * would span 4 GiB) are parked, not freed; the next growth that may sleep
 * frees them, or else the destroy does.  The shim aborts on any sleeping
 * call in atomic context.
 */
static void test_atomic_growth(void **state)
{
	static const u64 cross[] = {
		GIB4 - PAGE, GIB4 - PAGE, GIB4 - PAGE, GIB4 - PAGE,
		GIB4 - PAGE, GIB4 - PAGE, 0x10000000,
	};
	struct chainpool_stats st;
	struct cp_block a;
	struct fake_dma fd;
	struct chainpool *pool;
	int round;

	(void)state;
	for (round = 0; round < 2; round++) {
		start_case(&fd, 0, "atomic growth, round %d", round);
		fd.script = cross;
		fd.script_len = ARRAY_SIZE(cross);
		CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 0, false), 0);
		kshim.atomic = true;
		CHECK_EQ(pool_alloc(pool, GFP_ATOMIC, &a.cpu, &a.dma), 0);
		kshim.atomic = false;
		CHECK(a.dma + 32 * 128 == GIB4);
		chainpool_get_stats(pool, &st);
		CHECK_EQ(st.parked, 5);
		CHECK_EQ(st.rejected, 5);
		CHECK_EQ(st.nr_slabs, 1);
		CHECK_EQ(fd.live, 6);
		CHECK_EQ(fd.frees, 0);
		if (round) {
			/* The destroy frees the parked slabs. */
			free_n(pool, &a, 1);
			check_no_leak(pool, &fd);
			continue;
		}
		/* A growth that may sleep frees them first. */
		CHECK_EQ(pool_fill(pool, 33), 0);
		CHECK_EQ(fd.frees, 5);
		CHECK_EQ(fd.live, 2);
		CHECK_EQ(chainpool_core_table(&pool->core)->slabs[1].dma,
			 0x10000000);
		free_n(pool, &a, 1);
		check_no_leak(pool, &fd);
	}
}

/*
 * Each kmalloc() and kvmalloc() of a debug pool's fill failing in turn
 * (the slabs' in-use maps, the slab table): a clean -ENOMEM, the slabs
 * already added kept, and nothing leaked.
 */
static void test_kmalloc_faults(void **state)
{
	struct cp_block blocks[64];
	struct fake_dma fd;
	struct chainpool *pool;
	u32 k, calls;
	int ret;

	(void)state;
	for (k = 1; ; k++) {
		start_case(&fd, GIB4 - (1ULL << 20), "kmalloc fault %u", k);
		CHECK_EQ(pool_init(&pool, &fd, 128, 0, 0, 16384, true), 0);
		calls = kshim.alloc_calls;
		kshim.fail_alloc_at = calls + k;
		ret = pool_fill(pool, 2000);
		kshim.fail_alloc_at = 0;
		CHECK_EQ(fd.live, core_stats(&pool->core).nr_slabs);
		if (!ret) {
			/* No call left to fail: the fill is whole. */
			CHECK(kshim.alloc_calls < calls + k);
			CHECK(core_stats(&pool->core).blocks_total >= 2000);
			alloc_n(pool, blocks, 64);
			check_free_all(pool, &fd, blocks, 64);
			break;
		}
		CHECK_EQ(ret, -ENOMEM);
		CHECK(core_stats(&pool->core).blocks_total < 2000);
		check_no_leak(pool, &fd);
	}
	/* A map per slab and a table: more than one call was failed. */
	CHECK(k > 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_sweep),
		cmocka_unit_test(test_shape_sweep),
		cmocka_unit_test(test_fallback_orders),
		cmocka_unit_test(test_rejected_slabs),
		cmocka_unit_test(test_fault_hook),
		cmocka_unit_test(test_fault_every_slab),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_debug_checks),
		cmocka_unit_test(test_debug_bad_links),
		cmocka_unit_test(test_zalloc),
		cmocka_unit_test(test_bulk),
		cmocka_unit_test(test_bulk_partial),
		cmocka_unit_test(test_bulk_fault),
		cmocka_unit_test(test_release_debug),
		cmocka_unit_test(test_bulk_batches),
		cmocka_unit_test(test_release_steps),
		cmocka_unit_test(test_table_publication),
		cmocka_unit_test(test_staged_fill),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_atomic_growth),
		cmocka_unit_test(test_kmalloc_faults),
	};

	kshim_bug_hook = shim_bug;
	return cmocka_run_group_tests_name("chainpool_core", tests, NULL, NULL);
}
