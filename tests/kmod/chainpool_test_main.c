// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * In-kernel tests of chainpool, run at load, in KTAP (KUnit is not in every
 * target kernel): what the unit tests cannot show, on real DMA addresses of
 * a real device (cp_testdev.c), real CPUs and the kernel's allocators.
 * chainpool.c is included so that the tests can use its internals.
 */
#include "chainpool.c"
#include "cp_fault.c"

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/sizes.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>

#include "cp_dmapool.h"
#include "cp_sink.h"
#include "cp_testdev.h"

#define CPT_SZ_4G		0x100000000ULL
#define CPT_DRIVER_BLOCKS	20000U
#define CPT_RESIDENT_BLOCKS	1000U
/* The mpt3sas chain pool of a SAS 9300-8i with max_sgl_entries=256. */
#define CPT_CHAIN_BLOCKS	373959U
#define CPT_CHAIN_SIZE		128U

static unsigned int expect_fail_slab;
module_param(expect_fail_slab, uint, 0444);
MODULE_PARM_DESC(expect_fail_slab,
		 "run only the fault test: pool_fail=slab:knob:N must fail slab N (default 0: run the suite)");

static char *rel = "";
module_param(rel, charp, 0444);
MODULE_PARM_DESC(rel,
		 "run one reliability case on the anchor pool instead of the suite: fault, fallback, cycles or inuse (default: the suite)");

static char *skip = "";
module_param(skip, charp, 0444);
MODULE_PARM_DESC(skip,
		 "comma-separated suite tests to report as skipped, e.g. page_slabs_anchor (default: none)");

static unsigned int cycles = 1;
module_param(cycles, uint, 0444);
MODULE_PARM_DESC(cycles, "rel=cycles: create/alloc/release/destroy cycles (default 1)");

static unsigned int inuse_blocks = 100;
module_param(inuse_blocks, uint, 0444);
MODULE_PARM_DESC(inuse_blocks, "rel=inuse: blocks left in use at destroy (default 100)");

static struct cp_dmapool *cpt_resident;
static struct cp_block cpt_resident_blocks[CPT_RESIDENT_BLOCKS];
static struct cp_testdev cpt_td;
static unsigned int cpt_number;
static char cpt_reason[160];

/* Record the first failed check of a test; false if @ok is false. */
static bool cpt_check(bool ok, int line, const char *what)
{
	if (!ok && !cpt_reason[0])
		snprintf(cpt_reason, sizeof(cpt_reason), "line %d: %s", line,
			 what);
	return ok;
}

#define CPT_CHECK(cond) cpt_check(!!(cond), __LINE__, #cond)

/* A test, or a reliability case; @arg is passed to @fn. */
struct cpt_case {
	const char *name;
	void (*fn)(unsigned int arg);
	unsigned int arg;
};

static void cpt_run(const struct cpt_case *c)
{
	cpt_reason[0] = '\0';
	c->fn(c->arg);
	if (cpt_reason[0])
		pr_info("not ok %u - %s # %s\n", ++cpt_number, c->name,
			cpt_reason);
	else
		pr_info("ok %u - %s\n", ++cpt_number, c->name);
}

/* A pool of @size-byte blocks, created with chainpool_debug=@debug. */
static struct chainpool *cpt_create(const char *name, size_t size, bool debug)
{
	struct chainpool *pool;
	bool was = chainpool_debug;

	chainpool_debug = debug;
	pool = chainpool_create(name, cpt_td.dev, size, 16, 0);
	chainpool_debug = was;
	CPT_CHECK(pool);
	return pool;
}

static bool cpt_same_unit(u64 start, u64 len, u64 unit)
{
	return div64_u64(start, unit) == div64_u64(start + len - 1, unit);
}

/* Every layout rule for blocks[0..n) (the pools here have no boundary). */
static void cpt_check_blocks(struct chainpool *pool, struct cp_block *blocks,
			     unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		u64 dma = blocks[i].dma;

		if (!CPT_CHECK(!(dma & (pool->align - 1))) ||
		    !CPT_CHECK(pool->size >= PAGE_SIZE ||
			       cpt_same_unit(dma, pool->size, PAGE_SIZE)) ||
		    !CPT_CHECK(cpt_same_unit(dma, pool->size, CPT_SZ_4G)))
			return;
		/* the device may write all of it */
		memset(blocks[i].cpu, 0x5a, pool->size);
		if (!(i % 4096))
			cond_resched();
	}
}

/* Lowest and highest DMA address: mem5g checks one lies above 4 GiB. */
static void cpt_log_dma_range(const struct cp_block *blocks, unsigned int n)
{
	u64 lo = U64_MAX, hi = 0;
	unsigned int i, above = 0;

	for (i = 0; i < n; i++) {
		lo = min_t(u64, lo, blocks[i].dma);
		hi = max_t(u64, hi, blocks[i].dma);
		above += blocks[i].dma >= CPT_SZ_4G;
	}
	pr_info("# dma range: 0x%llx..0x%llx, %u of %u blocks above 4 GiB, mask 0x%llx\n",
		lo, hi, above, n, (u64)dma_get_mask(cpt_td.dev));
}

/*
 * Where a bulk allocation stores the blocks, room for the chain pool;
 * with @batch set, the longest hold of the pool's lock: the store
 * callback runs under it, and a hold starts every batch of blocks.
 */
static struct {
	struct cp_sink s;
	u32 batch;
	u64 start_ns;
	u64 max_ns;
} cpt_sink;

static void cpt_store(void *ctx, u32 index, void *vaddr, dma_addr_t dma)
{
	u64 now;

	if (cpt_sink.batch) {
		now = ktime_get_ns();
		if (!(index % cpt_sink.batch))
			cpt_sink.start_ns = now;
		else
			cpt_sink.max_ns = max(cpt_sink.max_ns,
					      now - cpt_sink.start_ns);
	}
	cp_sink_store(&cpt_sink.s, index, vaddr, dma);
}

/* The chain pool's bulk allocation into cpt_sink; @timed: its lock holds. */
static int cpt_bulk(struct chainpool *pool, bool timed)
{
	cpt_sink.s.calls = 0;
	cpt_sink.s.out_of_order = false;
	cpt_sink.max_ns = 0;
	/* chainpool_alloc_bulk()'s batch: one block under chainpool_debug */
	cpt_sink.batch = !timed ? 0 : pool->debug ? 1 :
			 clamp(CP_BATCH_BYTES / pool->stride, 1U,
			       CP_BATCH_BLOCKS);
	return chainpool_alloc_bulk(pool, CPT_CHAIN_BLOCKS, GFP_KERNEL,
				    cpt_store, NULL);
}

/* Slabs a bulk allocation of the anchor pool takes with today's cap. */
static unsigned int cpt_anchor_slabs(struct chainpool *pool)
{
	unsigned int slabs = 0;
	u32 seg, per_seg;
	u64 have = 0;

	while (have < CPT_CHAIN_BLOCKS) {
		unsigned int o = cp_order_for(pool, CPT_CHAIN_BLOCKS - have);

		have += cp_layout(pool, cp_slab_bytes(pool, o), &seg, &per_seg);
		slabs++;
	}
	return slabs;
}

#define CPT_DEBUG	BIT(0)	/* the pool with chainpool_debug */
#define CPT_PAGE_SLABS	BIT(1)	/* slabs of a page, as when fragmented */

/* The mpt3sas case: a bulk allocation, a whole-pool release, destroy. */
static void cpt_test_anchor(unsigned int arg)
{
	unsigned int kb = chainpool_slab_kb;
	struct cp_block *blocks = cpt_sink.s.blocks;
	struct chainpool_stats st;
	u64 t_alloc, t_release, t_destroy;
	struct chainpool *pool;
	int ret;

	if (arg & CPT_PAGE_SLABS)
		chainpool_slab_kb = PAGE_SIZE >> 10;
	pool = cpt_create("anchor", CPT_CHAIN_SIZE, arg & CPT_DEBUG);
	chainpool_slab_kb = kb;
	if (!pool)
		return;
	t_alloc = ktime_get_ns();
	ret = cpt_bulk(pool, true);
	t_alloc = ktime_get_ns() - t_alloc;
	chainpool_get_stats(pool, &st);
	pr_info("# bulk alloc %u x %u B: %llu us, %u slabs, longest lock hold %llu us (%u blocks)\n",
		cpt_sink.s.calls, CPT_CHAIN_SIZE, div_u64(t_alloc, 1000),
		st.nr_slabs, div_u64(cpt_sink.max_ns, 1000), cpt_sink.batch);
	if (CPT_CHECK(ret == 0) &&
	    CPT_CHECK(cpt_sink.s.calls == CPT_CHAIN_BLOCKS) &&
	    CPT_CHECK(!cpt_sink.s.out_of_order)) {
		CPT_CHECK(st.in_use == CPT_CHAIN_BLOCKS);
		CPT_CHECK(st.nr_slabs == cpt_anchor_slabs(pool));
		cpt_log_dma_range(blocks, CPT_CHAIN_BLOCKS);
		cpt_check_blocks(pool, blocks, CPT_CHAIN_BLOCKS);
	}
	t_release = ktime_get_ns();
	chainpool_release_all(pool);
	t_release = ktime_get_ns() - t_release;
	chainpool_get_stats(pool, &st);
	CPT_CHECK(st.in_use == 0);
	t_destroy = ktime_get_ns();
	chainpool_destroy(pool);
	t_destroy = ktime_get_ns() - t_destroy;
	pr_info("# whole-pool release: %llu us, destroy: %llu us\n",
		div_u64(t_release, 1000), div_u64(t_destroy, 1000));
}

#define CPT_CONC_HOLD		32U
#define CPT_CONC_ROUNDS		2000U
#define CPT_CONC_MAX		8U

static struct {
	struct chainpool *pool;
	struct completion done[CPT_CONC_MAX];
	unsigned int bad[CPT_CONC_MAX];
} cpt_conc;

/* Each worker holds blocks tagged with its id; none may see another's. */
static int cpt_conc_worker(void *arg)
{
	unsigned int id = (unsigned long)arg, r, i;
	struct cp_block held[CPT_CONC_HOLD];
	unsigned long flags;

	for (r = 0; r < CPT_CONC_ROUNDS; r++) {
		for (i = 0; i < CPT_CONC_HOLD; i++) {
			/* every other one atomic, with interrupts off */
			if (i % 2)
				local_irq_save(flags);
			held[i].cpu = chainpool_alloc(cpt_conc.pool, i % 2 ?
						      GFP_ATOMIC : GFP_KERNEL,
						      &held[i].dma);
			if (i % 2)
				local_irq_restore(flags);
			if (held[i].cpu)
				memset(held[i].cpu, id, CPT_CHAIN_SIZE);
		}
		for (i = 0; i < CPT_CONC_HOLD; i++) {
			if (!held[i].cpu)
				continue;
			if (memchr_inv(held[i].cpu, id, CPT_CHAIN_SIZE))
				cpt_conc.bad[id]++;
			chainpool_free(cpt_conc.pool, held[i].cpu, held[i].dma);
		}
		cond_resched();
	}
	complete(&cpt_conc.done[id]);
	return 0;
}

/* Allocations, frees and lookups from one thread per CPU at once. */
static void cpt_test_concurrency(unsigned int arg)
{
	unsigned int n = min(num_online_cpus(), CPT_CONC_MAX), i, bad = 0;
	struct task_struct *t;

	cpt_conc.pool = cpt_create("concurrency", CPT_CHAIN_SIZE, false);
	if (!cpt_conc.pool)
		return;
	for (i = 0; i < n; i++) {
		init_completion(&cpt_conc.done[i]);
		cpt_conc.bad[i] = 0;
		t = kthread_run(cpt_conc_worker, (void *)(unsigned long)i,
				"cpt_conc/%u", i);
		if (!CPT_CHECK(!IS_ERR(t)))
			complete(&cpt_conc.done[i]);
	}
	for (i = 0; i < n; i++) {
		wait_for_completion(&cpt_conc.done[i]);
		bad += cpt_conc.bad[i];
	}
	pr_info("# concurrency: %u threads, %u rounds of %u blocks, %u bad\n",
		n, CPT_CONC_ROUNDS, CPT_CONC_HOLD, bad);
	CPT_CHECK(bad == 0);
	CPT_CHECK(!cpt_conc.pool->in_use);
	chainpool_destroy(cpt_conc.pool);
}

/*
 * Blocks of megabytes, as the driver's RDPQ chunks: one slab each, of the
 * block in whole pages.  With a CMA area, spacers push one off its
 * natural alignment, which the layout must accept.
 */
static void cpt_test_large_blocks(unsigned int arg)
{
	static const size_t sizes[] = { 1310720 + 512, 2621440 };
	struct cp_block spacer[4], *sp;
	unsigned int i, s, try, nr_spacers = 0;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t natural = roundup_pow_of_two(sizes[i]);
		struct chainpool_stats st;
		struct chainpool *pool;
		struct cp_block b;

		for (try = 0; ; try++) {
			pool = cpt_create("large", sizes[i], false);
			if (!pool)
				goto out;
			b.cpu = chainpool_alloc(pool, GFP_KERNEL, &b.dma);
			if (!CPT_CHECK(b.cpu)) {
				chainpool_destroy(pool);
				goto out;
			}
			if ((b.dma & (natural - 1)) ||
			    try == ARRAY_SIZE(spacer))
				break;
			chainpool_free(pool, b.cpu, b.dma);
			chainpool_destroy(pool);
			if (nr_spacers == ARRAY_SIZE(spacer))
				continue;
			sp = &spacer[nr_spacers];
			sp->cpu = dma_alloc_coherent(cpt_td.dev, SZ_1M,
						     &sp->dma, GFP_KERNEL);
			if (sp->cpu)
				nr_spacers++;
		}
		chainpool_get_stats(pool, &st);
		pr_info("# large block: %zu B at dma %pad, %snaturally aligned, %u spacers\n",
			sizes[i], &b.dma, b.dma & (natural - 1) ? "not " : "",
			nr_spacers);
		CPT_CHECK(st.nr_slabs == 1);
		CPT_CHECK(st.dma_bytes == PAGE_ALIGN(sizes[i]));
		cpt_check_blocks(pool, &b, 1);
		chainpool_free(pool, b.cpu, b.dma);
		chainpool_destroy(pool);
	}
out:
	for (s = 0; s < nr_spacers; s++)
		dma_free_coherent(cpt_td.dev, SZ_1M, spacer[s].cpu,
				  spacer[s].dma);
}

/* Debug poison, but zeroes where the kernel's init_on_alloc is on. */
static void cpt_test_debug_poison(unsigned int arg)
{
	struct chainpool *pool = cpt_create("debug", 128, true);
	struct cp_block a;

	if (!pool)
		return;
	a.cpu = chainpool_alloc(pool, GFP_KERNEL, &a.dma);
	if (CPT_CHECK(a.cpu)) {
		CPT_CHECK(!memchr_inv(a.cpu, want_init_on_alloc(GFP_KERNEL) ?
				      0 : POOL_POISON_ALLOCATED, 128));
		chainpool_free(pool, a.cpu, a.dma);
		CPT_CHECK(!memchr_inv((u8 *)a.cpu + 16, POOL_POISON_FREED, 112));
	}
	chainpool_destroy(pool);
}

/* @n blocks through the driver's calls, as patch 0200 takes them. */
static struct cp_dmapool *cpt_driver_pool(const char *name,
					  struct cp_block *blocks,
					  unsigned int n)
{
	struct cp_sink sink = { .blocks = blocks };
	struct cp_dmapool *pool;
	u64 start = ktime_get_ns();
	unsigned int i;
	int ret;

	pool = cp_dmapool_create(name, cpt_td.dev, CPT_CHAIN_SIZE, 16, 0);
	if (!CPT_CHECK(pool))
		return NULL;
	ret = cp_dmapool_alloc_bulk(pool, n, GFP_KERNEL, cp_sink_store, &sink);
	/* chainpool in one pass; dma_pool block by block, as upstream */
	CPT_CHECK(ret == -EOPNOTSUPP || (!ret && sink.calls == n));
	for (i = 0; i < n; i++) {
		if (ret)
			blocks[i].cpu = cp_dmapool_alloc(pool, GFP_KERNEL,
							 &blocks[i].dma);
		if (!CPT_CHECK(blocks[i].cpu))
			break;
	}
	cp_dmapool_log_created(pool, i, start);
	return pool;
}

static void cpt_driver_pool_release(struct cp_dmapool *pool,
				    struct cp_block *blocks, unsigned int n)
{
	u64 start = ktime_get_ns();
	unsigned int i;

	if (!cp_dmapool_release_all(pool))
		for (i = 0; i < n && blocks[i].cpu; i++)
			cp_dmapool_free(pool, blocks[i].cpu, blocks[i].dma);
	cp_dmapool_destroy_logged(pool, start);
}

/* The calls mpt3sas makes, through the allocator pool_allocator picks. */
static void cpt_test_driver_pool(unsigned int arg)
{
	struct cp_block *blocks = cpt_sink.s.blocks;
	struct cp_dmapool *pool;
	dma_addr_t dma;
	void *p;

	memset(blocks, 0, CPT_DRIVER_BLOCKS * sizeof(*blocks));
	pool = cpt_driver_pool("driver pool", blocks, CPT_DRIVER_BLOCKS);
	if (pool) {
		/* dma_pool_zalloc(), as the driver's renames make it */
		p = dma_pool_zalloc(pool, GFP_KERNEL, &dma);
		if (CPT_CHECK(p) && CPT_CHECK(!memchr_inv(p, 0, CPT_CHAIN_SIZE)))
			cp_dmapool_free(pool, p, dma);
		cpt_driver_pool_release(pool, blocks, CPT_DRIVER_BLOCKS);
	}
}

/* A pool kept until rmmod: the harness reads its debugfs file. */
static void cpt_test_resident_pool(unsigned int arg)
{
	cpt_resident = cpt_driver_pool("resident pool", cpt_resident_blocks,
				       CPT_RESIDENT_BLOCKS);
}

static const struct cpt_case cpt_tests[] = {
	{ "chain_pool_373959x128", cpt_test_anchor, 0 },
	{ "chain_pool_debug", cpt_test_anchor, CPT_DEBUG },
	{ "page_slabs_anchor", cpt_test_anchor, CPT_PAGE_SLABS },
	{ "concurrency", cpt_test_concurrency },
	{ "large_blocks", cpt_test_large_blocks },
	{ "debug_poison", cpt_test_debug_poison },
	{ "driver_pool", cpt_test_driver_pool },
	{ "resident_pool", cpt_test_resident_pool },
};

/*
 * Reliability cases (tests/reliability/), one per load, selected by rel=,
 * on the anchor pool with chainpool_debug= and pool_fail= as loaded; each
 * prints one "# rel ..." line the guest scripts read.
 */
static struct chainpool *cpt_rel_pool(const char *name)
{
	return cpt_create(name, CPT_CHAIN_SIZE, chainpool_debug);
}

/*
 * pool_fail=slab:anchor:N expect_fail_slab=N (slab:knob:N without rel=):
 * the bulk allocation fails with -ENOMEM at slab N and keeps no slab;
 * past the last slab, or without a fault, it succeeds.
 */
static void cpt_rel_fault(unsigned int knob)
{
	struct chainpool *pool = cpt_rel_pool(knob ? "knob" : "anchor");
	struct chainpool_stats st;
	unsigned int needed;
	bool hit;
	int ret;

	if (!pool)
		return;
	needed = cpt_anchor_slabs(pool);
	hit = expect_fail_slab && expect_fail_slab <= needed;
	ret = cpt_bulk(pool, false);
	chainpool_get_stats(pool, &st);
	pr_info("# rel fault: needed=%u fail_slab=%u ret=%d slabs=%u dma_kib=%llu\n",
		needed, expect_fail_slab, ret, st.nr_slabs, st.dma_bytes >> 10);
	CPT_CHECK(ret == (hit ? -ENOMEM : 0));
	CPT_CHECK(st.nr_slabs == (hit ? 0 : needed));
	chainpool_release_all(pool);
	chainpool_destroy(pool);
}

/*
 * pool_fail=topslab:anchor:*: every slab of the largest order fails; the
 * pool is built from smaller ones, every block within the layout.
 */
static void cpt_rel_fallback(unsigned int arg)
{
	struct chainpool *pool = cpt_rel_pool("anchor");
	struct chainpool_stats st;
	int ret;

	if (!pool)
		return;
	ret = cpt_bulk(pool, false);
	chainpool_get_stats(pool, &st);
	pr_info("# rel fallback: ret=%d max_order=%u slabs=%u at_max_order=%u fallbacks=%u blocks=%llu\n",
		ret, pool->max_order, st.nr_slabs,
		st.slabs_by_order[pool->max_order], st.fallbacks, st.blocks);
	CPT_CHECK(ret == 0);
	CPT_CHECK(st.slabs_by_order[pool->max_order] == 0);
	CPT_CHECK(st.fallbacks >= 1);
	if (!ret)
		cpt_check_blocks(pool, cpt_sink.s.blocks, CPT_CHAIN_BLOCKS);
	chainpool_release_all(pool);
	chainpool_destroy(pool);
}

/* cycles=N: the driver's attach and detach of the anchor pool, N times. */
static void cpt_rel_cycles(unsigned int arg)
{
	struct chainpool *pool;
	unsigned int i;
	int ret;

	for (i = 0; i < cycles; i++) {
		pool = cpt_rel_pool("anchor");
		if (!pool)
			break;
		ret = cpt_bulk(pool, false);
		chainpool_release_all(pool);
		chainpool_destroy(pool);
		if (!CPT_CHECK(ret == 0))
			break;
		cond_resched();
	}
	pr_info("# rel cycles: %u of %u done\n", i, cycles);
}

/*
 * inuse_blocks=K: destroy the anchor pool with K blocks still allocated.
 * chainpool reports it, as dma_pool_destroy() does, and keeps the slabs
 * (the device may still use them): the destroy gives the free page count
 * nothing like the pool's pages back, and the blocks stay writable.
 */
static void cpt_rel_inuse(unsigned int arg)
{
	struct cp_block *blocks = cpt_sink.s.blocks;
	struct chainpool_stats st;
	struct chainpool *pool;
	unsigned long before, after, gained, dma_pages;
	unsigned int i;

	if (!CPT_CHECK(inuse_blocks))
		return;
	pool = cpt_rel_pool("anchor");
	if (!pool)
		return;
	CPT_CHECK(cpt_bulk(pool, false) == 0);
	/* all but K back, one by one: K stay in use */
	for (i = inuse_blocks; i < cpt_sink.s.calls; i++)
		chainpool_free(pool, blocks[i].cpu, blocks[i].dma);
	chainpool_get_stats(pool, &st);
	dma_pages = st.dma_bytes >> PAGE_SHIFT;
	before = global_zone_page_state(NR_FREE_PAGES);
	chainpool_destroy(pool);
	after = global_zone_page_state(NR_FREE_PAGES);
	gained = after > before ? after - before : 0;
	pr_info("# rel inuse: in_use=%llu slabs=%u dma_pages=%lu free_pages_gained=%lu\n",
		st.in_use, st.nr_slabs, dma_pages, gained);
	/* With debug only the busy slabs stay; without, all of them. */
	if (CPT_CHECK(st.in_use == inuse_blocks) &&
	    CPT_CHECK(chainpool_debug || gained < dma_pages / 2))
		for (i = 0; i < inuse_blocks; i++)
			memset(blocks[i].cpu, 0x5a, CPT_CHAIN_SIZE);
}

static const struct cpt_case cpt_rel_tests[] = {
	{ "fault", cpt_rel_fault },
	{ "fallback", cpt_rel_fallback },
	{ "cycles", cpt_rel_cycles },
	{ "inuse", cpt_rel_inuse },
	{ "fault_knob", cpt_rel_fault, 1 },	/* expect_fail_slab= alone */
};

/* skip= as a mask of cpt_tests; each name must be one, once. */
static int cpt_skip_mask(unsigned long *mask)
{
	const char *p;
	unsigned int i;
	size_t n;

	*mask = 0;
	for (p = skip; *p; p += n + (p[n] == ',')) {
		n = strcspn(p, ",");
		for (i = 0; i < ARRAY_SIZE(cpt_tests); i++)
			if (!strncmp(p, cpt_tests[i].name, n) &&
			    !cpt_tests[i].name[n])
				break;
		/* a typo would skip nothing */
		if (i == ARRAY_SIZE(cpt_tests) || *mask & BIT(i)) {
			pr_err("chainpool_test: skip=%s: names must be distinct suite tests\n",
			       skip);
			return -EINVAL;
		}
		*mask |= BIT(i);
	}
	return 0;
}

static int cpt_run_all(void)
{
	const char *one = rel[0] ? rel : expect_fail_slab ? "fault_knob" : NULL;
	unsigned long mask;
	unsigned int i;

	for (i = 0; one && i < ARRAY_SIZE(cpt_rel_tests); i++) {
		if (strcmp(one, cpt_rel_tests[i].name))
			continue;
		pr_info("1..1\n");
		cpt_run(&cpt_rel_tests[i]);
		return 0;
	}
	if (one) {
		pr_err("chainpool_test: rel=%s is not one of: fault, fallback, cycles, inuse\n",
		       rel);
		return -EINVAL;
	}
	if (cpt_skip_mask(&mask))
		return -EINVAL;
	pr_info("1..%zu\n", ARRAY_SIZE(cpt_tests));
	for (i = 0; i < ARRAY_SIZE(cpt_tests); i++) {
		if (mask & BIT(i))
			pr_info("ok %u - %s # SKIP skip=\n", ++cpt_number,
				cpt_tests[i].name);
		else
			cpt_run(&cpt_tests[i]);
	}
	return 0;
}

static int __init chainpool_test_init(void)
{
	int ret;

	pr_info("KTAP version 1\n");
	ret = cp_testdev_get(&cpt_td, "chainpool_test", "# ");
	if (ret) {
		pr_info("1..0 # SKIP no device: %d\n", ret);
		return 0;
	}
	cpt_sink.s.blocks = vmalloc(CPT_CHAIN_BLOCKS *
				    sizeof(*cpt_sink.s.blocks));
	ret = cpt_sink.s.blocks ? cpt_run_all() : -ENOMEM;
	if (ret) {
		vfree(cpt_sink.s.blocks);
		cp_testdev_put(&cpt_td);
	}
	return ret;
}

static void __exit chainpool_test_exit(void)
{
	if (cpt_resident)
		cpt_driver_pool_release(cpt_resident, cpt_resident_blocks,
					CPT_RESIDENT_BLOCKS);
	vfree(cpt_sink.s.blocks);
	cp_testdev_put(&cpt_td);
}

module_init(chainpool_test_init);
module_exit(chainpool_test_exit);

MODULE_DESCRIPTION("In-kernel tests of the chainpool DMA block allocator");
MODULE_LICENSE("GPL");
