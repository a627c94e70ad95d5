// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of chainpool.c, included unchanged (the tests set its module
 * parameters) on the stand-ins of kernel/ for the kernel calls it makes.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "chainpool.c"
#include "cp_sink.h"

/* The 9300-8i's chain pool: 373,959 blocks of 128 B. */
#define CHAIN_BLOCKS	373959U

/* The test's fault hook: fail slab N (1-based), or every top-order slab. */
static struct {
	u32 slab_calls;
	u32 fail_slab;
	bool fail_top;
} fault;

bool chainpool_fault(enum chainpool_fault_op op, const char *name,
		     struct device *dev)
{
	if (op == CHAINPOOL_FAULT_TOP_SLAB)
		return fault.fail_top;
	return op == CHAINPOOL_FAULT_SLAB && ++fault.slab_calls == fault.fail_slab;
}

static struct device dev;
static struct cp_sink s;	/* room for the chain pool's blocks */

static int setup(void **state)
{
	memset(&dev, 0, sizeof(dev));
	memset(&fault, 0, sizeof(fault));
	memset(&kshim, 0, sizeof(kshim));
	dev.name = "0000:01:00.0";
	dev.next_dma = 1ULL << 20;
	chainpool_slab_kb = 128;
	chainpool_debug = false;
	s.blocks = calloc(CHAIN_BLOCKS, sizeof(*s.blocks));
	return 0;
}

/* Nothing of the pool left: no coherent memory, metadata or debugfs file. */
static int teardown(void **state)
{
	free(s.blocks);
	assert_int_equal(dev.live, 0);
	assert_int_equal(kshim.live, 0);
	assert_int_equal(kshim.debugfs_files, 0);
	assert_int_equal(kshim.dentry_refs, 0);
	assert_int_equal(kshim.bad_gfp, 0);
	assert_int_equal(kshim.locks_held, 0);
	return 0;
}

static struct chainpool *create(const char *name, u32 size, u32 align,
				u32 boundary)
{
	struct chainpool *pool = chainpool_create(name, &dev, size, align,
						  boundary);

	assert_true(pool);
	return pool;
}

/* A bulk allocation of @n blocks into s, as the driver makes it. */
static int bulk(struct chainpool *pool, u32 n)
{
	s.calls = 0;
	s.out_of_order = false;
	return chainpool_alloc_bulk(pool, n, GFP_KERNEL, cp_sink_store, &s);
}

static void release_destroy(struct chainpool *pool)
{
	chainpool_release_all(pool);
	chainpool_destroy(pool);
}

/* Every block distinct, aligned, inside no line it must not cross. */
static void check_blocks(struct cp_block *b, u32 n, u32 size, u32 align,
			 u64 boundary)
{
	u32 i, a = max_t(u32, align, 16);

	for (i = 0; i < n; i++) {
		u64 last = b[i].dma + size - 1;

		assert_true(b[i].cpu);
		assert_int_equal(b[i].dma % a, 0);
		assert_int_equal((uintptr_t)b[i].cpu % a, 0);
		if (boundary)
			assert_int_equal(b[i].dma / boundary, last / boundary);
		assert_int_equal(b[i].dma >> 32, last >> 32);
		if (size < PAGE_SIZE)
			assert_int_equal(b[i].dma / PAGE_SIZE,
					 last / PAGE_SIZE);
		/* the device writes its blocks: ASan checks they are memory */
		memset(b[i].cpu, i, size);
	}
	for (i = 0; i < n; i++)
		assert_int_equal(*(u8 *)b[i].cpu, (u8)i);
}

/* The chain pool as the driver takes it, in bounded lock holds. */
static void test_bulk_chain_pool(void **state)
{
	struct chainpool *pool = create("chain pool", 128, 16, 0);
	struct chainpool_stats st;
	u64 before = kshim.lock_holds;
	u32 calls;

	assert_int_equal(bulk(pool, CHAIN_BLOCKS), 0);
	/* one hold to read the count, then one per batch of 512 */
	assert_int_equal(kshim.lock_holds - before,
			 1 + 1 + (CHAIN_BLOCKS + 511) / 512);
	assert_int_equal(s.calls, CHAIN_BLOCKS);
	assert_true(!s.out_of_order);
	chainpool_get_stats(pool, &st);
	assert_int_equal(st.blocks, 365 * 1024 + 256);
	assert_int_equal(st.in_use, CHAIN_BLOCKS);
	assert_int_equal(st.nr_slabs, 366);
	assert_int_equal(st.slabs_by_order[5], 365);
	assert_int_equal(st.slabs_by_order[3], 1);
	assert_int_equal(st.dma_bytes, 365 * 128 * 1024 + 32 * 1024);
	check_blocks(s.blocks, CHAIN_BLOCKS, 128, 16, 0);
	chainpool_release_all(pool);
	chainpool_get_stats(pool, &st);
	assert_int_equal(st.in_use, 0);
	/* the same blocks again, without a coherent allocation */
	calls = dev.calls;
	assert_int_equal(bulk(pool, CHAIN_BLOCKS), 0);
	assert_int_equal(dev.calls, calls);
	assert_int_equal(s.calls, CHAIN_BLOCKS);
	release_destroy(pool);
}

/* Bulk holds are bounded in bytes too: 64 KiB of 4 KiB blocks is 16. */
static void test_bulk_batch_bytes(void **state)
{
	struct chainpool *pool = create("big", 4096, 0, 0);
	u64 before = kshim.lock_holds;

	assert_int_equal(bulk(pool, 100), 0);
	assert_int_equal(kshim.lock_holds - before, 1 + 1 + 7);
	check_blocks(s.blocks, 100, 4096, 16, 0);
	release_destroy(pool);
}

/* Sizes, alignments and boundaries, with and without debug. */
static void test_layouts(void **state)
{
	static const struct { u32 size, align, boundary; } c[] = {
		{ 1, 0, 0 }, { 16, 16, 0 }, { 24, 8, 0 }, { 24, 16, 0 },
		{ 100, 64, 0 }, { 100, 512, 128 }, { 128, 16, 0 },
		{ 128, 16, 4096 }, { 192, 16, 4096 }, { 512, 512, 0 },
		{ 1000, 0, 1024 }, { 1000, 16, 1024 }, { 2048, 4096, 0 },
		{ 3000, 0, 0 }, { 4096, 4096, 0 }, { 4096, 4096, 65536 },
		{ 5000, 0, 8192 }, { 5000, 16, 0 }, { 48, 16, 2048 },
		{ 1 << 20, 4096, 0 }, { 3 << 20, 0, 0 }, { 512, 4096, 0 },
	};
	u32 i, n;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct chainpool *pool;

		chainpool_debug = i % 2;
		n = c[i].size > PAGE_SIZE ? 3 : 2000;
		pool = create("layout", c[i].size, c[i].align, c[i].boundary);
		assert_int_equal(bulk(pool, n), 0);
		check_blocks(s.blocks, n, c[i].size, c[i].align,
			     c[i].boundary);
		release_destroy(pool);
	}
}

/* dma_pool_create()'s argument rules. */
static void test_create_rules(void **state)
{
	assert_true(!chainpool_create("x", NULL, 64, 0, 0));
	assert_true(!chainpool_create("x", &dev, 0, 0, 0));
	assert_true(!chainpool_create("x", &dev, 64, 48, 0));
	assert_true(!chainpool_create("x", &dev, 64, 0, 32));
	assert_true(!chainpool_create("x", &dev, 64, 0, 96));
	assert_true(!chainpool_create("x", &dev, (1U << 30) + 1, 0, 0));
}

/* Single allocations grow the pool by doubling; every block stays found. */
static void test_growth(void **state)
{
	struct chainpool *pool = create("grow", 256, 0, 0);
	struct cp_block *b = s.blocks;
	struct chainpool_stats st;
	u32 n = 5000, i;

	for (i = 0; i < n; i++)
		b[i].cpu = chainpool_alloc(pool, GFP_KERNEL, &b[i].dma);
	check_blocks(b, n, 256, 16, 0);
	chainpool_get_stats(pool, &st);
	assert_true(st.nr_slabs < 20);
	assert_true(st.blocks < 2 * n);
	assert_int_equal(st.in_use, n);
	for (i = 0; i < n; i++)
		chainpool_free(pool, b[i].cpu, b[i].dma);
	chainpool_get_stats(pool, &st);
	assert_int_equal(st.in_use, 0);
	/* freed blocks come back first, last freed first: no growth */
	i = dev.calls;
	assert_ptr_equal(chainpool_alloc(pool, GFP_KERNEL, &b[0].dma),
			 b[n - 1].cpu);
	assert_int_equal(dev.calls, i);
	chainpool_free(pool, b[n - 1].cpu, b[0].dma);
	chainpool_destroy(pool);
}

/*
 * Single allocations from one-page slabs, each growth's slabs at a DMA
 * address scattered among the earlier ones: the sorted array each growth
 * merges must find every block (debug checks each free against it), and
 * growth takes 128 KiB at a time, not a page.
 */
static void test_growth_merge(void **state)
{
	struct cp_block *b = s.blocks;
	u32 n = 3000, i, calls, growths = 0;
	struct chainpool *pool;
	struct chainpool_stats st;

	chainpool_slab_kb = 4;
	chainpool_debug = true;
	pool = create("merge", 256, 0, 0);
	for (i = 0; i < n; i++) {
		/* an odd multiplier: a distinct MiB for every i below 4096 */
		dev.next_dma = (1ULL << 30) + ((i * 2654435761U) % 4096 << 20);
		calls = dev.calls;
		b[i].cpu = chainpool_alloc(pool, GFP_KERNEL, &b[i].dma);
		assert_true(b[i].cpu);
		growths += dev.calls != calls;
	}
	/* 1, 1, 2, 4, 8, 16 pages, then 32 (128 KiB) each: 188 pages */
	assert_int_equal(growths, 11);
	chainpool_get_stats(pool, &st);
	assert_int_equal(st.slabs_by_order[0], st.nr_slabs);
	assert_true(st.nr_slabs >= n / 16);
	for (i = 0; i < n; i++)
		chainpool_free(pool, b[i].cpu, b[i].dma);
	assert_int_equal(kshim.dev_errs, 0);
	chainpool_get_stats(pool, &st);
	assert_int_equal(st.in_use, 0);
	chainpool_destroy(pool);
}

/*
 * __GFP_ZERO zeroes, also a block freed dirty or poisoned (debug);
 * without it, no promise (the shim fills 0x5a).
 */
static void test_zero(void **state)
{
	struct chainpool *pool;
	dma_addr_t dma;
	u8 *p;
	int d;

	for (d = 0; d < 2; d++) {
		chainpool_debug = d;
		pool = create("z", 200, 0, 0);
		p = chainpool_alloc(pool, GFP_KERNEL | __GFP_ZERO, &dma);
		assert_true(p);
		assert_true(!memchr_inv(p, 0, 200));
		memset(p, 0xff, 200);
		chainpool_free(pool, p, dma);
		p = chainpool_alloc(pool, GFP_KERNEL | __GFP_ZERO, &dma);
		assert_true(!memchr_inv(p, 0, 200));
		chainpool_free(pool, p, dma);
		chainpool_destroy(pool);
	}
}

/* An atomic allocation from an empty pool fails instead of sleeping. */
static void test_atomic(void **state)
{
	struct chainpool *pool = create("a", 64, 0, 0);
	dma_addr_t dma;
	void *p;

	kshim.atomic = true;
	assert_true(!chainpool_alloc(pool, GFP_ATOMIC, &dma));
	kshim.atomic = false;
	p = chainpool_alloc(pool, GFP_KERNEL, &dma);
	kshim.atomic = true;
	chainpool_free(pool, p, dma);
	p = chainpool_alloc(pool, GFP_ATOMIC, &dma);
	assert_true(p);
	chainpool_free(pool, p, dma);
	kshim.atomic = false;
	chainpool_destroy(pool);
}

/*
 * Slabs too large for memory: smaller orders, down to one block; tried
 * without retries or warnings above the costly order, and once only.  The
 * same for the hook's failures of the top order.
 */
static void test_fallback(void **state)
{
	struct chainpool *pool = create("f", 128, 0, 0);
	struct chainpool_stats st;

	dev.max_bytes = 16384;
	assert_int_equal(bulk(pool, 3000), 0);
	chainpool_get_stats(pool, &st);
	assert_int_equal(st.slabs_by_order[2], 23);
	/* orders 5, 4 and 3 failed once; later slabs start at 2 (and 1) */
	assert_int_equal(st.fallbacks, 3);
	assert_int_equal(dev.calls, 3 + st.nr_slabs);
	assert_int_equal(dev.noretry, 2);
	check_blocks(s.blocks, 3000, 128, 16, 0);
	release_destroy(pool);

	dev.max_bytes = 0;
	fault.fail_top = true;
	pool = create("t", 128, 0, 0);
	assert_int_equal(bulk(pool, 3000), 0);
	chainpool_get_stats(pool, &st);
	assert_int_equal(st.slabs_by_order[5], 0);
	assert_int_equal(st.slabs_by_order[4], 6);
	check_blocks(s.blocks, 3000, 128, 16, 0);
	release_destroy(pool);
}

/*
 * A slab of several blocks across a 4 GiB line is given back, and a
 * smaller one taken; a slab of one block is the caller's to check, as a
 * dma_pool's page is.
 */
static void test_4gib(void **state)
{
	struct chainpool *pool = create("4g", 4096, 0, 0);
	struct chainpool_stats st;
	dma_addr_t dma;
	void *p;

	/* the first slab of 128 KiB would start 64 KiB below 4 GiB */
	dev.next_dma = (4ULL << 30) - (128 << 10);
	dev.skew = 64 << 10;
	assert_int_equal(bulk(pool, 40), 0);
	chainpool_get_stats(pool, &st);
	assert_true(st.rejected >= 1);
	check_blocks(s.blocks, 40, 4096, 16, 0);
	release_destroy(pool);

	pool = create("one", 3 * 4096, 16, 0);
	dev.next_dma = (4ULL << 30) - (16 << 10);
	dev.skew = 8 << 10;
	p = chainpool_alloc(pool, GFP_KERNEL, &dma);
	assert_true(p);
	assert_int_equal(dma, (4ULL << 30) - (8 << 10));
	chainpool_get_stats(pool, &st);
	assert_int_equal(st.rejected, 0);
	chainpool_free(pool, p, dma);
	chainpool_destroy(pool);
}

/* A slab failing at any place of a fill: -ENOMEM and nothing kept. */
static void test_fail_every_slab(void **state)
{
	u32 k;

	for (k = 1; k <= 21; k++) {
		struct chainpool *pool;
		struct chainpool_stats st;

		chainpool_debug = k % 2;
		pool = create("e", 128, 0, 0);
		fault.slab_calls = 0;
		fault.fail_slab = k;
		assert_int_equal(bulk(pool, 20000), k <= 20 ? -ENOMEM : 0);
		chainpool_get_stats(pool, &st);
		assert_int_equal(st.nr_slabs, k <= 20 ? 0 : 20);
		release_destroy(pool);
	}
}

/* A kzalloc() or kvmalloc() failing anywhere: no crash, no leak (teardown). */
static void test_fail_every_kmalloc(void **state)
{
	u32 k;
	int ret;

	for (k = 1; k <= 40; k++) {
		struct chainpool *pool;

		kshim.alloc_calls = 0;
		kshim.fail_alloc_at = k;
		pool = chainpool_create("k", &dev, 128, 0, 0);
		if (!pool)
			continue;
		ret = bulk(pool, 20000);
		assert_true(ret == 0 || ret == -ENOMEM);
		release_destroy(pool);
	}
}

/* Debug: poison, double and foreign frees, corruption while free. */
static void test_debug(void **state)
{
	struct chainpool *pool, *other;
	dma_addr_t dma, odma;
	u8 *p, *q;

	chainpool_debug = true;
	pool = create("d", 64, 0, 0);
	other = create("o", 64, 0, 0);
	p = chainpool_alloc(pool, GFP_KERNEL, &dma);
	assert_true(!memchr_inv(p, POOL_POISON_ALLOCATED, 64));
	chainpool_free(pool, p, dma);
	assert_true(!memchr_inv(p + sizeof(struct cp_free), POOL_POISON_FREED,
				64 - sizeof(struct cp_free)));
	assert_int_equal(kshim.dev_errs, 0);
	chainpool_free(pool, p, dma);
	assert_int_equal(kshim.dev_errs, 1);
	q = chainpool_alloc(other, GFP_KERNEL, &odma);
	chainpool_free(pool, q, odma);
	assert_int_equal(kshim.dev_errs, 2);
	chainpool_free(pool, p + 16, dma + 16);
	assert_int_equal(kshim.dev_errs, 3);
	/* none of the refused frees counted */
	assert_int_equal(pool->in_use, 0);
	assert_int_equal(other->in_use, 1);
	/* written to while free: found when handed out again */
	p[40] = 0;
	assert_true(chainpool_alloc(pool, GFP_KERNEL, &dma) == p);
	assert_int_equal(kshim.dev_errs, 4);
	chainpool_free(pool, p, dma);
	chainpool_free(other, q, odma);
	chainpool_destroy(other);
	chainpool_destroy(pool);
}

/* Destroy of a busy pool: reported, and the busy slab kept (debug). */
static void test_destroy_busy(void **state)
{
	struct chainpool *pool;
	dma_addr_t dma;
	void *p;

	chainpool_debug = true;
	chainpool_slab_kb = 4;
	pool = create("b", 128, 0, 0);
	assert_int_equal(bulk(pool, 2000), 0);
	chainpool_release_all(pool);
	p = chainpool_alloc(pool, GFP_KERNEL, &dma);
	chainpool_destroy(pool);
	assert_int_equal(kshim.dev_errs, 1);
	assert_int_equal(dev.live, 1);
	dma_free_coherent(&dev, PAGE_SIZE, p, dma);
}

/* The debugfs file shows the geometry; gone with the pool, not its folder. */
static void test_debugfs(void **state)
{
	struct chainpool *pool = create("chain pool", 128, 0, 0);
	struct seq_file m = { .private = pool };

	assert_true(kshim.debugfs_dir);
	assert_int_equal(kshim.debugfs_files, 1);
	assert_int_equal(bulk(pool, 2000), 0);
	cp_debugfs_show(&m, NULL);
	assert_true(strstr(m.buf, "blocks: 2048\nin_use: 2000\nslabs: 2\n"));
	assert_true(strstr(m.buf, "slabs_order_5: 2\ndma_bytes: 262144\n"));
	release_destroy(pool);
	assert_int_equal(kshim.debugfs_files, 0);
	/* the folder is found again, not created twice */
	pool = create("again", 128, 0, 0);
	assert_int_equal(kshim.debugfs_files, 1);
	chainpool_destroy(pool);
}

/* chainpool_slab_kb: rounded down to a power of two from a page to 4 MiB. */
static void test_slab_kb(void **state)
{
	static const struct { unsigned int kb, order; } c[] = {
		{ 256, 6 }, { 100, 4 }, { 1, 0 }, { 0, 0 }, { 99999, 10 },
	};
	struct chainpool *pool;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		chainpool_slab_kb = c[i].kb;
		pool = create("kb", 128, 0, 0);
		assert_int_equal(pool->max_order, c[i].order);
		chainpool_destroy(pool);
	}
}

/* init_on_alloc zeroes what is handed out, init_on_free what comes back. */
static void test_init_on(void **state)
{
	struct chainpool *pool = create("i", 200, 0, 0);
	dma_addr_t dma;
	u8 *p;

	kshim.init_on_alloc = true;
	p = chainpool_alloc(pool, GFP_KERNEL, &dma);
	assert_true(!memchr_inv(p, 0, 200));
	kshim.init_on_alloc = false;
	memset(p, 0xff, 200);
	kshim.init_on_free = true;
	chainpool_free(pool, p, dma);
	assert_true(!memchr_inv(p + sizeof(struct cp_free), 0,
				200 - sizeof(struct cp_free)));
	kshim.init_on_free = false;
	chainpool_destroy(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_bulk_chain_pool),
		T(test_bulk_batch_bytes),
		T(test_layouts),
		T(test_create_rules),
		T(test_growth),
		T(test_growth_merge),
		T(test_zero),
		T(test_atomic),
		T(test_fallback),
		T(test_4gib),
		T(test_fail_every_slab),
		T(test_fail_every_kmalloc),
		T(test_debug),
		T(test_destroy_busy),
		T(test_debugfs),
		T(test_slab_kb),
		T(test_init_on),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
