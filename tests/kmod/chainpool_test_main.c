// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * In-kernel tests of chainpool on real DMA addresses of a real device.
 *
 * Loading the module runs every test and prints the results in KTAP
 * format to the kernel log; init then returns 0 and the harness unloads
 * the module.  KUnit is not used because not every target kernel enables
 * it.  The device is the first PCI device matching pci_id (QEMU's edu
 * device by default), else a platform device registered for the run.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>
#include "chainpool_pool.h"
#include "cp_dmapool.h"
#include "cp_sink.h"
#include "cp_testdev.h"

/* The mpt3sas chain pool of a SAS 9300-8i with max_sgl_entries=256. */
#define CPT_CHAIN_BLOCKS	373959U
#define CPT_CHAIN_SIZE		128U
#define CPT_SZ_4G		0x100000000ULL

static unsigned int expect_fail_slab;
module_param(expect_fail_slab, uint, 0444);
MODULE_PARM_DESC(expect_fail_slab,
		 "run only the fault knob test: chainpool_debug=1 chainpool_fail_slab=N must fail slab N (default 0: run the suite)");

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
MODULE_PARM_DESC(cycles, "rel=cycles: create/fill/alloc/free/destroy cycles (default 1)");

static unsigned int inuse_blocks = 100;
module_param(inuse_blocks, uint, 0444);
MODULE_PARM_DESC(inuse_blocks, "rel=inuse: blocks left in use at destroy (default 100)");

/* The driver's way in: dma_pool calls renamed to cp_dmapool. */
#define CPT_DRIVER_BLOCKS	20000U
#define CPT_RESIDENT_BLOCKS	1000U

static struct cp_dmapool *cpt_resident;
static struct cp_block *cpt_resident_blocks;

static struct cp_testdev cpt_td;

static unsigned int cpt_number;
static unsigned int cpt_failures;
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

static void cpt_run(const char *name, void (*test)(void))
{
	cpt_reason[0] = '\0';
	test();
	cpt_number++;
	if (cpt_reason[0]) {
		cpt_failures++;
		pr_info("not ok %u - %s # %s\n", cpt_number, name, cpt_reason);
	} else {
		pr_info("ok %u - %s\n", cpt_number, name);
	}
}

/* Is @name one of the comma-separated names of skip=? */
static bool cpt_skipped(const char *name)
{
	const char *p = skip;
	size_t len = strlen(name);

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == len && !strncmp(p, name, n))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

static int cpt_cmp_dma(const void *a, const void *b)
{
	const struct cp_block *x = a, *y = b;

	return x->dma < y->dma ? -1 : x->dma > y->dma;
}

/*
 * sort() before v5.2 swaps a 16-byte element byte by byte: sorting the
 * 373,959 blocks of the anchor pool then took minutes under TCG on 4.15,
 * long enough for the soft lockup detector.
 */
static void cpt_swap_block(void *a, void *b, int size)
{
	swap(*(struct cp_block *)a, *(struct cp_block *)b);
}

static int cpt_cmp_cpu(const void *a, const void *b)
{
	unsigned long x = (unsigned long)((const struct cp_block *)a)->cpu;
	unsigned long y = (unsigned long)((const struct cp_block *)b)->cpu;

	return x < y ? -1 : x > y;
}

static bool cpt_same_unit(u64 start, u64 len, u64 unit)
{
	return div64_u64(start, unit) == div64_u64(start + len - 1, unit);
}

/* Every layout rule and lookup for blocks[0..n); reorders blocks. */
static bool cpt_check_blocks(struct chainpool *pool, struct cp_block *blocks,
			     unsigned int n)
{
	struct chainpool_stats st;
	unsigned int i;

	chainpool_get_stats(pool, &st);
	for (i = 0; i < n; i++) {
		u64 dma = blocks[i].dma;

		if (!CPT_CHECK(!(dma & (st.align - 1))) ||
		    !CPT_CHECK(st.size >= PAGE_SIZE ||
			       cpt_same_unit(dma, st.size, PAGE_SIZE)) ||
		    !CPT_CHECK(!st.boundary ||
			       cpt_same_unit(dma, st.size, st.boundary)) ||
		    !CPT_CHECK(cpt_same_unit(dma, st.size, CPT_SZ_4G)) ||
		    !CPT_CHECK(chainpool_dma_to_virt(pool, blocks[i].dma) ==
			       blocks[i].cpu) ||
		    !CPT_CHECK(!chainpool_dma_to_virt(pool, blocks[i].dma + 1)) ||
		    !CPT_CHECK(!chainpool_dma_to_virt(pool, blocks[i].dma + 8)))
			return false;
		if (!(i % 4096))
			cond_resched();
	}
	sort(blocks, n, sizeof(*blocks), cpt_cmp_dma, cpt_swap_block);
	for (i = 1; i < n; i++)
		if (!CPT_CHECK(blocks[i - 1].dma + st.size <= blocks[i].dma))
			return false;
	sort(blocks, n, sizeof(*blocks), cpt_cmp_cpu, cpt_swap_block);
	for (i = 1; i < n; i++)
		if (!CPT_CHECK((u8 *)blocks[i - 1].cpu + st.size <=
			       (u8 *)blocks[i].cpu))
			return false;
	return true;
}

/*
 * Where the blocks lie: lowest and highest DMA address (0x%llx, so no
 * leading zeros: a highest address of more than 8 digits is above 4 GiB,
 * which the mem5g guest checks with dma_bits=64) and how many are above.
 */
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

static struct chainpool *cpt_create(size_t size, size_t align,
				    size_t boundary, u64 slab_bytes,
				    bool debug, u32 fail_slab)
{
	struct chainpool_params params = {
		.slab_bytes = slab_bytes,
		.debug = debug,
		.fail_slab = fail_slab,
	};

	return chainpool_create_params("cpt", cpt_td.dev, size, align, boundary,
				       &params);
}

static unsigned int cpt_alloc_n(struct chainpool *pool,
				struct cp_block *blocks, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		blocks[i].cpu = chainpool_alloc(pool, GFP_KERNEL,
						&blocks[i].dma);
		if (!blocks[i].cpu)
			break;
	}
	return i;
}

static void cpt_free_n(struct chainpool *pool, struct cp_block *blocks,
		       unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		chainpool_free(pool, blocks[i].cpu, blocks[i].dma);
}

/* Two blocks of @pool into @a and @b; true if both came. */
static bool cpt_alloc_two(struct chainpool *pool, struct cp_block *a,
			  struct cp_block *b)
{
	a->cpu = chainpool_alloc(pool, GFP_KERNEL, &a->dma);
	b->cpu = chainpool_alloc(pool, GFP_KERNEL, &b->dma);
	return a->cpu && b->cpu;
}

/*
 * Room for @n blocks in *@blocks and a pool of chains named @name, as the
 * driver creates it (so the chainpool_* module parameters apply); NULL,
 * and a failed check, without either.  chainpool_destroy() the pool,
 * vfree() the blocks.
 */
static struct chainpool *cpt_chain_begin(const char *name,
					 struct cp_block **blocks,
					 unsigned int n)
{
	struct chainpool *pool;

	*blocks = vmalloc(n * sizeof(**blocks));
	if (!CPT_CHECK(*blocks))
		return NULL;
	pool = chainpool_create(name, cpt_td.dev, CPT_CHAIN_SIZE, 16, 0);
	if (!CPT_CHECK(pool)) {
		vfree(*blocks);
		*blocks = NULL;
	}
	return pool;
}

/* The mpt3sas case: fill, allocate all, check, free all, destroy. */
static void cpt_test_chain_pool(void)
{
	struct chainpool_stats st, filled;
	struct cp_block *blocks;
	struct chainpool *pool;
	u64 t_alloc, t_free, t_destroy;
	unsigned int got;
	int ret;

	pool = cpt_chain_begin("chain pool", &blocks, CPT_CHAIN_BLOCKS);
	if (!pool)
		return;

	t_alloc = ktime_get_ns();
	ret = chainpool_fill(pool, CPT_CHAIN_BLOCKS, GFP_KERNEL);
	CPT_CHECK(ret == 0);
	chainpool_get_stats(pool, &filled);
	got = cpt_alloc_n(pool, blocks, CPT_CHAIN_BLOCKS);
	t_alloc = ktime_get_ns() - t_alloc;
	chainpool_get_stats(pool, &st);
	pr_info("# fill+alloc %u x %u B: %llu us, %u slabs, %llu KiB, %u fallbacks\n",
		got, CPT_CHAIN_SIZE, div_u64(t_alloc, 1000), st.nr_slabs,
		st.dma_bytes >> 10, st.fallbacks);
	if (CPT_CHECK(got == CPT_CHAIN_BLOCKS)) {
		CPT_CHECK(st.blocks_in_use == CPT_CHAIN_BLOCKS);
		CPT_CHECK(st.blocks_total >= CPT_CHAIN_BLOCKS);
		cpt_log_dma_range(blocks, got);
		cpt_check_blocks(pool, blocks, got);
	}

	/* A filled pool does not grow on alloc. */
	CPT_CHECK(st.nr_slabs == filled.nr_slabs);
	CPT_CHECK(st.dma_bytes == filled.dma_bytes);
	CPT_CHECK(st.blocks_total == filled.blocks_total);
	t_free = ktime_get_ns();
	cpt_free_n(pool, blocks, got);
	t_free = ktime_get_ns() - t_free;
	chainpool_get_stats(pool, &st);
	CPT_CHECK(st.blocks_in_use == 0);
	t_destroy = ktime_get_ns();
	chainpool_destroy(pool);
	t_destroy = ktime_get_ns() - t_destroy;
	pr_info("# free %u: %llu us, destroy: %llu us\n", got,
		div_u64(t_free, 1000), div_u64(t_destroy, 1000));
	vfree(blocks);
}

/* A sink for @n blocks; false, and a failed check, without the memory. */
static bool cpt_sink_alloc(struct cp_sink *sink, unsigned int n)
{
	memset(sink, 0, sizeof(*sink));
	sink->blocks = vmalloc(n * sizeof(*sink->blocks));
	return CPT_CHECK(sink->blocks);
}

/*
 * A sink for @n blocks of @pool, just created; @pool, or NULL and a
 * failed check without either (the pool is then destroyed).
 */
static struct chainpool *cpt_sink_begin(struct cp_sink *sink, unsigned int n,
					struct chainpool *pool)
{
	if (!CPT_CHECK(pool))
		return NULL;
	if (!cpt_sink_alloc(sink, n)) {
		chainpool_destroy(pool);
		return NULL;
	}
	return pool;
}

/* A bulk allocation of @n blocks of @pool into @sink, from its start. */
static int cpt_alloc_bulk(struct chainpool *pool, struct cp_sink *sink,
			  unsigned int n)
{
	sink->calls = 0;
	return chainpool_alloc_bulk(pool, n, GFP_KERNEL, cp_sink_store, sink);
}

/* Every block a bulk allocation handed out is found at its address. */
static void cpt_lookup_sink(struct chainpool *pool, const struct cp_sink *sink)
{
	unsigned int i;

	for (i = 0; i < sink->calls; i++) {
		if (!CPT_CHECK(chainpool_dma_to_virt(pool, sink->blocks[i].dma) ==
			       sink->blocks[i].cpu))
			break;
		if (!(i % 4096))
			cond_resched();
	}
}

/*
 * The mpt3sas case through the whole-pool paths: one bulk allocation of
 * every chain, then one release of the whole pool and an O(slabs) destroy.
 */
static void cpt_test_bulk_chain_pool(void)
{
	struct cp_sink sink;
	struct chainpool_stats st;
	struct chainpool *pool;
	u64 t_alloc, t_release, t_destroy;
	struct cp_block probe;
	int ret;

	pool = cpt_sink_begin(&sink, CPT_CHAIN_BLOCKS,
			      chainpool_create("chain pool", cpt_td.dev,
					       CPT_CHAIN_SIZE, 16, 0));
	if (!pool)
		return;
	t_alloc = ktime_get_ns();
	ret = cpt_alloc_bulk(pool, &sink, CPT_CHAIN_BLOCKS);
	t_alloc = ktime_get_ns() - t_alloc;
	chainpool_get_stats(pool, &st);
	pr_info("# bulk alloc %u x %u B: %llu us, %u slabs, %llu B of metadata\n",
		sink.calls, CPT_CHAIN_SIZE, div_u64(t_alloc, 1000), st.nr_slabs,
		st.meta_bytes);
	if (!CPT_CHECK(ret == 0) ||
	    !CPT_CHECK(sink.calls == CPT_CHAIN_BLOCKS) ||
	    !CPT_CHECK(!sink.out_of_order)) {
		chainpool_destroy(pool);
		vfree(sink.blocks);
		return;
	}
	CPT_CHECK(st.blocks_in_use == CPT_CHAIN_BLOCKS);
	/* Lean unless debugging: no per-block metadata, one table. */
	if (!st.debug)
		CPT_CHECK(st.meta_bytes <= SZ_16K);
	probe = sink.blocks[CPT_CHAIN_BLOCKS / 2];
	/*
	 * Every block is found at its address; the full layout check (two
	 * sorts) already ran on the per-block test's blocks: here the last
	 * 16384, across the last slabs, are enough and keep TCG guests fast.
	 */
	cpt_lookup_sink(pool, &sink);
	cpt_check_blocks(pool, sink.blocks + CPT_CHAIN_BLOCKS - 16384, 16384);

	t_release = ktime_get_ns();
	CPT_CHECK(chainpool_release_all(pool) == 0);
	t_release = ktime_get_ns() - t_release;
	chainpool_get_stats(pool, &st);
	CPT_CHECK(st.blocks_in_use == 0);
	/* Released blocks are no longer found. */
	CPT_CHECK(!chainpool_dma_to_virt(pool, probe.dma));
	t_destroy = ktime_get_ns();
	chainpool_destroy(pool);
	t_destroy = ktime_get_ns() - t_destroy;
	pr_info("# whole-pool release: %llu us, destroy: %llu us\n",
		div_u64(t_release, 1000), div_u64(t_destroy, 1000));
	vfree(sink.blocks);
}

/*
 * A slab failing half way through the fill of a bulk allocation: nothing
 * is handed out, and release and destroy free the slabs the fill got.
 */
static void cpt_test_bulk_fault(void)
{
	const unsigned int blocks = 4096;	/* 32 slabs of 16 KiB */
	struct cp_sink sink;
	struct chainpool_stats st;
	struct chainpool *pool;
	unsigned int k;

	if (!cpt_sink_alloc(&sink, blocks))
		return;
	for (k = 1; k <= 33; k += 4) {
		pool = cpt_create(128, 16, 0, 16384, k % 2, k);
		if (!CPT_CHECK(pool))
			break;
		CPT_CHECK(cpt_alloc_bulk(pool, &sink, blocks) ==
			  (k <= 32 ? -ENOMEM : 0));
		chainpool_get_stats(pool, &st);
		CPT_CHECK(sink.calls == (k <= 32 ? 0 : blocks));
		CPT_CHECK(st.nr_slabs == min(k - 1, 32U));
		CPT_CHECK(st.injected == (k <= 32));
		CPT_CHECK(chainpool_release_all(pool) == 0);
		chainpool_destroy(pool);
	}
	vfree(sink.blocks);
}

/*
 * Whole-pool release with the debug checks on: blocks freed one by one
 * before it are fine, released blocks carry the free poison and are no
 * longer in use, and the pool hands them out again.
 */
static void cpt_test_bulk_debug_release(void)
{
	const unsigned int n = 5000;
	struct cp_sink sink;
	struct chainpool_stats st;
	struct chainpool *pool;
	struct cp_block one;

	pool = cpt_sink_begin(&sink, n, cpt_create(128, 16, 0, 0, true, 0));
	if (!pool)
		return;
	if (CPT_CHECK(cpt_alloc_bulk(pool, &sink, n) == 0)) {
		one = sink.blocks[n - 1];
		CPT_CHECK(((u8 *)one.cpu)[100] == CHAINPOOL_POISON_ALLOCATED);
		chainpool_free(pool, sink.blocks[7].cpu, sink.blocks[7].dma);
		CPT_CHECK(chainpool_release_all(pool) == 0);
		chainpool_get_stats(pool, &st);
		CPT_CHECK(st.blocks_in_use == 0);
		CPT_CHECK(((u8 *)one.cpu)[100] == CHAINPOOL_POISON_FREED);
		CPT_CHECK(!chainpool_dma_to_virt(pool, one.dma));
		CPT_CHECK(cpt_alloc_bulk(pool, &sink, n) == 0);
		CPT_CHECK(sink.blocks[n - 1].dma == one.dma);
		CPT_CHECK(chainpool_dma_to_virt(pool, one.dma) == one.cpu);
		CPT_CHECK(chainpool_release_all(pool) == 0);
	}
	chainpool_destroy(pool);
	vfree(sink.blocks);
}

/* Several shapes of pool; every block checked on real DMA addresses. */
static void cpt_test_shapes(void)
{
	static const struct {
		size_t size, align, boundary;
	} shapes[] = {
		{ 16, 16, 0 }, { 24, 16, 0 }, { 100, 64, 0 }, { 128, 16, 4096 },
		{ 512, 512, 0 }, { 1000, 16, 1024 }, { 2048, 4096, 0 },
		{ 4096, 4096, 65536 }, { 100, 512, 128 }, { 5000, 16, 0 },
		{ 1 << 20, 4096, 0 },
	};
	const unsigned int n = 2000;
	struct cp_block *blocks;
	unsigned int s, want, got;

	blocks = vmalloc(n * sizeof(*blocks));
	if (!CPT_CHECK(blocks))
		return;
	for (s = 0; s < ARRAY_SIZE(shapes); s++) {
		struct chainpool *pool;

		pool = cpt_create(shapes[s].size, shapes[s].align,
				  shapes[s].boundary, 0, s % 2, 0);
		if (!CPT_CHECK(pool))
			break;
		want = shapes[s].size > 4096 ? 4 : n;
		got = cpt_alloc_n(pool, blocks, want);
		CPT_CHECK(got == want);
		cpt_check_blocks(pool, blocks, got);
		cpt_free_n(pool, blocks, got);
		chainpool_destroy(pool);
	}
	vfree(blocks);
}

/* Addresses that are not block starts do not map. */
static void cpt_test_lookup(void)
{
	struct chainpool *pool = cpt_create(100, 16, 0, 0, false, 0);
	struct cp_block a, b;

	if (!CPT_CHECK(pool))
		return;
	if (CPT_CHECK(cpt_alloc_two(pool, &a, &b))) {
		CPT_CHECK(chainpool_dma_to_virt(pool, a.dma) == a.cpu);
		CPT_CHECK(chainpool_dma_to_virt(pool, b.dma) == b.cpu);
		CPT_CHECK(!chainpool_dma_to_virt(pool, a.dma + 100));
		CPT_CHECK(!chainpool_dma_to_virt(pool, a.dma + 16));
		CPT_CHECK(!chainpool_dma_to_virt(pool, a.dma - 16));
		CPT_CHECK(!chainpool_dma_to_virt(pool, 0));
		chainpool_free(pool, a.cpu, a.dma);
		chainpool_free(pool, b.cpu, b.dma);
	}
	chainpool_destroy(pool);
}

/*
 * Slabs added after the first fill (a pool that grows while lock-free
 * lookups may run, each growth publishing a new table) are found all the
 * same, as are the first.
 */
static void cpt_test_lookup_growth(void)
{
	const unsigned int first = 100, n = 3000;
	struct chainpool_stats st;
	struct cp_block *blocks;
	struct chainpool *pool;
	unsigned int got, i;

	blocks = vmalloc(n * sizeof(*blocks));
	if (!CPT_CHECK(blocks))
		return;
	pool = cpt_create(128, 16, 0, PAGE_SIZE, false, 0);
	if (!CPT_CHECK(pool))
		goto out;
	CPT_CHECK(chainpool_fill(pool, first, GFP_KERNEL) == 0);
	got = cpt_alloc_n(pool, blocks, n);
	CPT_CHECK(got == n);
	chainpool_get_stats(pool, &st);
	/* The pool grew after the fill, while lookups were possible. */
	CPT_CHECK(st.nr_slabs > DIV_ROUND_UP(first, PAGE_SIZE / 128));
	for (i = 0; i < got; i++)
		if (!CPT_CHECK(chainpool_dma_to_virt(pool, blocks[i].dma) ==
			       blocks[i].cpu))
			break;
	cpt_check_blocks(pool, blocks, got);
	cpt_free_n(pool, blocks, got);
	chainpool_destroy(pool);
out:
	vfree(blocks);
}

/*
 * Concurrency: one worker per online CPU (up to CPT_CONC_MAX_WORKERS)
 * allocates and frees blocks of one shared pool, some with GFP_ATOMIC and
 * interrupts off, while a reader thread keeps looking up the blocks it
 * holds.  The pool starts with a small fill and grows through the run:
 * workers hold more blocks as they go and the reader takes blocks as the
 * run progresses, so its lock-free lookups race the publication of each
 * new slab table.
 * Every block carries its holder's tag: a block handed to two holders at
 * once, or looked up at a wrong address, fails the test.
 */
#define CPT_CONC_MAX_WORKERS	4U
#define CPT_CONC_ITERS		16384U
/* A worker sleeps a tick this often: with one CPU, the reader runs then. */
#define CPT_CONC_SLEEP_EVERY	512U
#define CPT_CONC_HOLD		256U
/* Blocks a worker takes or gives back at once, at most. */
#define CPT_CONC_BURST		8U
#define CPT_CONC_READER_HOLD	256U
#define CPT_CONC_FIRST_FILL	64U
#define CPT_CONC_READER_ID	0xffffU

struct cpt_conc;

struct cpt_conc_thread {
	struct cpt_conc *conc;
	struct task_struct *task;
	struct completion done;
	unsigned int id;
	struct cp_block held[CPT_CONC_HOLD];
	unsigned int nr_held;
	unsigned int allocs;
	unsigned int atomic_allocs;
	unsigned int atomic_fails;
	unsigned int fails;
	unsigned int frees;
	unsigned int lookups;
	unsigned int lookup_bad;
	unsigned int tag_bad;
};

struct cpt_conc {
	struct chainpool *pool;
	atomic_t workers_left;
	atomic_t progress;
	unsigned int nr_workers;
	unsigned int reader_rounds;
	unsigned int reader_saw_growth;
	struct cpt_conc_thread reader;
	struct cpt_conc_thread workers[CPT_CONC_MAX_WORKERS];
};

/* What a holder writes into the first and last 8 bytes of its block. */
static u64 cpt_conc_tag(unsigned int id, dma_addr_t dma)
{
	return (u64)id << 48 ^ (u64)dma;
}

static void cpt_conc_mark(struct cpt_conc_thread *t, struct cp_block *b)
{
	u64 tag = cpt_conc_tag(t->id, b->dma);

	memcpy(b->cpu, &tag, sizeof(tag));
	memcpy((u8 *)b->cpu + CPT_CHAIN_SIZE - sizeof(tag), &tag, sizeof(tag));
}

/* The block still carries our tag and is found at its address. */
static void cpt_conc_verify(struct cpt_conc_thread *t,
			    const struct cp_block *b)
{
	u64 tag = cpt_conc_tag(t->id, b->dma), head, tail;

	memcpy(&head, b->cpu, sizeof(head));
	memcpy(&tail, (u8 *)b->cpu + CPT_CHAIN_SIZE - sizeof(tail),
	       sizeof(tail));
	if (head != tag || tail != tag)
		t->tag_bad++;
	if (chainpool_dma_to_virt(t->conc->pool, b->dma) != b->cpu)
		t->lookup_bad++;
	t->lookups++;
}

/*
 * Take up to @nr blocks back to back, then tag and check them, so that
 * the allocations of concurrent workers overlap as much as they can.
 * With @atomic: GFP_ATOMIC, interrupts off.  Returns the blocks taken.
 */
static unsigned int cpt_conc_take(struct cpt_conc_thread *t, unsigned int nr,
				  bool atomic)
{
	unsigned int first = t->nr_held, k;
	unsigned long flags = 0;

	nr = min(nr, CPT_CONC_HOLD - t->nr_held);
	if (atomic)
		local_irq_save(flags);
	for (k = 0; k < nr; k++) {
		struct cp_block *b = &t->held[t->nr_held];

		b->cpu = chainpool_alloc(t->conc->pool,
					 atomic ? GFP_ATOMIC : GFP_KERNEL,
					 &b->dma);
		t->allocs++;
		t->atomic_allocs += atomic;
		if (!b->cpu) {
			/* GFP_ATOMIC may fail under memory pressure */
			if (atomic)
				t->atomic_fails++;
			else
				t->fails++;
			break;
		}
		t->nr_held++;
	}
	if (atomic)
		local_irq_restore(flags);
	for (k = first; k < t->nr_held; k++) {
		cpt_conc_mark(t, &t->held[k]);
		cpt_conc_verify(t, &t->held[k]);
	}
	return t->nr_held - first;
}

/*
 * Give back up to @nr held blocks, picked by @rnd: each checked, then all
 * freed back to back (interrupts off when @atomic).
 */
static void cpt_conc_give(struct cpt_conc_thread *t, unsigned int nr,
			  u32 rnd, bool atomic)
{
	struct cp_block out[CPT_CONC_BURST];
	unsigned long flags = 0;
	unsigned int k;

	nr = min3(nr, t->nr_held, CPT_CONC_BURST);
	for (k = 0; k < nr; k++) {
		unsigned int i = (rnd >> 8) % t->nr_held;

		rnd = rnd * 1664525U + 1013904223U;
		out[k] = t->held[i];
		cpt_conc_verify(t, &out[k]);
		t->held[i] = t->held[--t->nr_held];
	}
	if (atomic)
		local_irq_save(flags);
	for (k = 0; k < nr; k++)
		chainpool_free(t->conc->pool, out[k].cpu, out[k].dma);
	if (atomic)
		local_irq_restore(flags);
	t->frees += nr;
}

/* Sleep until kthread_stop(): the thread's results stay readable. */
static void cpt_conc_wait_stop(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
}

static int cpt_conc_worker(void *arg)
{
	struct cpt_conc_thread *t = arg;
	u32 rnd = 2654435761U * (t->id + 1);
	unsigned int it;

	for (it = 0; it < CPT_CONC_ITERS; it++) {
		/* Hold more blocks as the run goes on: the pool keeps growing. */
		unsigned int target = 4 + (CPT_CONC_HOLD - 4) * it /
					  CPT_CONC_ITERS;
		unsigned int burst;
		bool take;

		rnd = rnd * 1664525U + 1013904223U;
		burst = 1 + (rnd >> 12) % CPT_CONC_BURST;
		take = !t->nr_held ||
		       (t->nr_held < target && (rnd >> 24) % 4 != 0);
		/* A quarter of the bursts with GFP_ATOMIC, interrupts off. */
		if (take)
			cpt_conc_take(t, burst, !((rnd >> 16) % 4));
		else
			cpt_conc_give(t, burst, rnd, (rnd >> 20) & 1);
		atomic_inc(&t->conc->progress);
		if (!((it + 1) % CPT_CONC_SLEEP_EVERY))
			schedule_timeout_uninterruptible(1);
		else if (!(it % 64))
			cond_resched();
	}
	while (t->nr_held)
		cpt_conc_give(t, CPT_CONC_BURST, 0, false);
	atomic_dec(&t->conc->workers_left);
	complete(&t->done);
	cpt_conc_wait_stop();
	return 0;
}

/*
 * Looks up every block it holds, round after round, while any worker
 * runs; takes blocks in step with the workers' progress, so that they
 * come from slabs all through the pool's growth.  Counts the rounds after
 * which the pool had more slabs than before: growth it raced.
 */
static int cpt_conc_reader(void *arg)
{
	struct cpt_conc_thread *t = arg;
	struct cpt_conc *c = t->conc;
	unsigned int total = CPT_CONC_ITERS * c->nr_workers, i;
	struct chainpool_stats st;
	u32 last_slabs = 0;

	while (atomic_read(&c->workers_left)) {
		unsigned int want = 1 + (u64)CPT_CONC_READER_HOLD *
					atomic_read(&c->progress) / total;

		while (t->nr_held < min(want, CPT_CONC_READER_HOLD) &&
		       cpt_conc_take(t, 1, false))
			;
		for (i = 0; i < t->nr_held; i++)
			cpt_conc_verify(t, &t->held[i]);
		chainpool_get_stats(c->pool, &st);
		if (last_slabs && st.nr_slabs > last_slabs)
			c->reader_saw_growth++;
		last_slabs = st.nr_slabs;
		c->reader_rounds++;
		cond_resched();
	}
	complete(&t->done);
	cpt_conc_wait_stop();
	return 0;
}

static void cpt_test_concurrency(void)
{
	unsigned int filled_slabs, i, n = 0, cpu, sum_allocs = 0;
	unsigned int sum_frees = 0, sum_atomic = 0, sum_atomic_fails = 0;
	unsigned int sum_lookups = 0, per_slab = PAGE_SIZE / CPT_CHAIN_SIZE;
	struct chainpool_stats st;
	struct cpt_conc *c;
	bool ok;
	u64 t0;

	c = vzalloc(sizeof(*c));
	if (!CPT_CHECK(c))
		return;
	c->pool = cpt_create(CPT_CHAIN_SIZE, 16, 0, PAGE_SIZE, false, 0);
	if (!CPT_CHECK(c->pool))
		goto out;
	CPT_CHECK(chainpool_fill(c->pool, CPT_CONC_FIRST_FILL, GFP_KERNEL) == 0);
	chainpool_get_stats(c->pool, &st);
	filled_slabs = st.nr_slabs;

	/* Create every thread first, start them only when all exist. */
	ok = true;
	for_each_online_cpu(cpu) {
		struct cpt_conc_thread *t;

		if (n == CPT_CONC_MAX_WORKERS)
			break;
		t = &c->workers[n];
		t->conc = c;
		t->id = n;
		init_completion(&t->done);
		t->task = kthread_create(cpt_conc_worker, t, "cpt_conc/%u", cpu);
		ok = CPT_CHECK(!IS_ERR(t->task));
		if (!ok)
			break;
		kthread_bind(t->task, cpu);
		n++;
	}
	c->nr_workers = n;
	atomic_set(&c->workers_left, n);
	c->reader.conc = c;
	c->reader.id = CPT_CONC_READER_ID;
	init_completion(&c->reader.done);
	c->reader.task = kthread_create(cpt_conc_reader, &c->reader,
					"cpt_conc_reader");
	if (!ok || !CPT_CHECK(n) || !CPT_CHECK(!IS_ERR(c->reader.task))) {
		/* Never woken: kthread_stop() makes them exit unrun. */
		for (i = 0; i < n; i++)
			kthread_stop(c->workers[i].task);
		if (!IS_ERR(c->reader.task))
			kthread_stop(c->reader.task);
		chainpool_destroy(c->pool);
		goto out;
	}

	t0 = ktime_get_ns();
	wake_up_process(c->reader.task);
	for (i = 0; i < n; i++)
		wake_up_process(c->workers[i].task);
	for (i = 0; i < n; i++) {
		wait_for_completion(&c->workers[i].done);
		kthread_stop(c->workers[i].task);
	}
	wait_for_completion(&c->reader.done);
	kthread_stop(c->reader.task);
	t0 = ktime_get_ns() - t0;

	for (i = 0; i < n; i++) {
		struct cpt_conc_thread *t = &c->workers[i];

		sum_allocs += t->allocs;
		sum_frees += t->frees;
		sum_atomic += t->atomic_allocs;
		sum_atomic_fails += t->atomic_fails;
		sum_lookups += t->lookups;
		CPT_CHECK(t->fails == 0);
		CPT_CHECK(t->lookup_bad == 0);
		CPT_CHECK(t->tag_bad == 0);
		CPT_CHECK(t->allocs == t->frees + t->fails + t->atomic_fails);
		CPT_CHECK(t->atomic_allocs > 0);
	}
	CPT_CHECK(c->reader.fails == 0);
	CPT_CHECK(c->reader.lookup_bad == 0);
	CPT_CHECK(c->reader.tag_bad == 0);
	/* The reader ran alongside the workers and saw the pool grow. */
	CPT_CHECK(c->reader_rounds >= 2);
	CPT_CHECK(c->reader_saw_growth > 0);

	/* Only the reader's blocks are left in use. */
	chainpool_get_stats(c->pool, &st);
	CPT_CHECK(st.blocks_in_use == c->reader.nr_held);
	pr_info("# concurrency: %u threads (+1 reader), %u allocs (%u atomic, %u failed), %u frees, %u lookups; reader: %u blocks, %u rounds, %u lookups, saw %u growths; %u slabs, %u of them from the first fill; %llu us\n",
		n, sum_allocs, sum_atomic, sum_atomic_fails, sum_frees,
		sum_lookups, c->reader.nr_held, c->reader_rounds,
		c->reader.lookups, c->reader_saw_growth, st.nr_slabs,
		filled_slabs, div_u64(t0, 1000));
	/* The reader's blocks, after the workers' churn and the growth. */
	for (i = 0; i < c->reader.nr_held; i++)
		cpt_conc_verify(&c->reader, &c->reader.held[i]);
	CPT_CHECK(c->reader.lookup_bad == 0);
	CPT_CHECK(c->reader.tag_bad == 0);
	while (c->reader.nr_held)
		cpt_conc_give(&c->reader, CPT_CONC_BURST, 0, false);
	CPT_CHECK(c->reader.allocs == c->reader.frees + c->reader.fails);

	chainpool_get_stats(c->pool, &st);
	CPT_CHECK(st.blocks_in_use == 0);
	/* It grew during the run, under the reader's lookups. */
	CPT_CHECK(st.nr_slabs > filled_slabs);
	CPT_CHECK(st.slabs_by_order[0] == st.nr_slabs);
	CPT_CHECK(st.blocks_total == (u64)st.nr_slabs * per_slab);
	CPT_CHECK(st.dma_bytes == (u64)st.nr_slabs * PAGE_SIZE);
	CPT_CHECK(st.injected == 0);
	chainpool_destroy(c->pool);
out:
	vfree(c);
}

/*
 * The driver's single-block pools (reply pool, RDPQ chunks): one block of
 * whole pages, not rounded up to a power of two, taken wherever the DMA
 * allocator puts it.  With CMA on, allocations beyond CONFIG_CMA_ALIGNMENT
 * (1 MiB) are not naturally aligned: 1 MiB spacers shift the block off a
 * 2 MiB line, which chainpool once refused.
 */
static void cpt_test_large_blocks(void)
{
	static const size_t sizes[] = { 1310720 + 512, 2621440 };
	const size_t spacer = SZ_1M;
	dma_addr_t spacer_dma[4];
	void *spacer_cpu[4];
	unsigned int i, s, try, nr_spacers = 0;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t natural = roundup_pow_of_two(sizes[i]);
		struct chainpool_stats st;
		struct chainpool *pool;
		struct cp_block b;

		for (try = 0; ; try++) {
			pool = cpt_create(sizes[i], 16, 0, 0, false, 0);
			if (!CPT_CHECK(pool))
				goto out;
			b.cpu = chainpool_alloc(pool, GFP_KERNEL, &b.dma);
			if (!CPT_CHECK(b.cpu)) {
				chainpool_destroy(pool);
				goto out;
			}
			/* Off its natural alignment, or spacers do not move it. */
			if ((b.dma & (natural - 1)) ||
			    try == ARRAY_SIZE(spacer_cpu))
				break;
			chainpool_free(pool, b.cpu, b.dma);
			chainpool_destroy(pool);
			if (nr_spacers == ARRAY_SIZE(spacer_cpu))
				continue;
			spacer_cpu[nr_spacers] =
				dma_alloc_coherent(cpt_td.dev, spacer,
						   &spacer_dma[nr_spacers],
						   GFP_KERNEL);
			if (spacer_cpu[nr_spacers])
				nr_spacers++;
		}
		chainpool_get_stats(pool, &st);
		pr_info("# large block: %zu B at dma %pad, %s, %u spacers\n",
			sizes[i], &b.dma,
			b.dma & (natural - 1) ? "not naturally aligned" :
						"naturally aligned",
			nr_spacers);
		CPT_CHECK(st.nr_slabs == 1);
		CPT_CHECK(st.dma_bytes == PAGE_ALIGN(sizes[i]));
		CPT_CHECK(cpt_check_blocks(pool, &b, 1));
		memset(b.cpu, 0x5a, sizes[i]);
		chainpool_free(pool, b.cpu, b.dma);
		chainpool_destroy(pool);
	}
out:
	for (s = 0; s < nr_spacers; s++)
		dma_free_coherent(cpt_td.dev, spacer, spacer_cpu[s], spacer_dma[s]);
}

/* Failing the kth slab allocation fails the fill cleanly, for every k. */
static void cpt_test_fault_injection(void)
{
	const unsigned int blocks = 4096;	/* 32 slabs of 16 KiB */
	struct chainpool_stats st;
	unsigned int k, needed;
	struct chainpool *pool;

	pool = cpt_create(128, 16, 0, 16384, false, 0);
	if (!CPT_CHECK(pool))
		return;
	CPT_CHECK(chainpool_fill(pool, blocks, GFP_KERNEL) == 0);
	chainpool_get_stats(pool, &st);
	needed = st.nr_slabs;
	chainpool_destroy(pool);
	if (!CPT_CHECK(needed >= 2))
		return;

	for (k = 1; k <= needed + 1; k++) {
		pool = cpt_create(128, 16, 0, 16384, k % 2, k);
		if (!CPT_CHECK(pool))
			return;
		if (k <= needed)
			CPT_CHECK(chainpool_fill(pool, blocks, GFP_KERNEL) ==
				  -ENOMEM);
		else
			CPT_CHECK(chainpool_fill(pool, blocks, GFP_KERNEL) == 0);
		chainpool_get_stats(pool, &st);
		CPT_CHECK(st.nr_slabs == min(k - 1, needed));
		CPT_CHECK(st.injected == (k <= needed));
		chainpool_destroy(pool);
	}
}

/* A one-page cap: every slab is a page, as dma_pool would use. */
static void cpt_test_page_slabs(void)
{
	const unsigned int n = 10000;
	struct chainpool_stats st;
	struct cp_block *blocks;
	struct chainpool *pool;
	unsigned int got;

	blocks = vmalloc(n * sizeof(*blocks));
	if (!CPT_CHECK(blocks))
		return;
	pool = cpt_create(128, 16, 0, PAGE_SIZE, false, 0);
	if (CPT_CHECK(pool)) {
		CPT_CHECK(chainpool_fill(pool, n, GFP_KERNEL) == 0);
		got = cpt_alloc_n(pool, blocks, n);
		CPT_CHECK(got == n);
		chainpool_get_stats(pool, &st);
		CPT_CHECK(st.slabs_by_order[0] == st.nr_slabs);
		CPT_CHECK(st.nr_slabs == DIV_ROUND_UP(n, PAGE_SIZE / 128));
		cpt_check_blocks(pool, blocks, got);
		cpt_free_n(pool, blocks, got);
		chainpool_destroy(pool);
	}
	vfree(blocks);
}

/*
 * The anchor pool from one-page slabs (chainpool_slab_kb=4): 11,687 slabs
 * in one fill.  The fill publishes one new slab table; one per slab would
 * copy and hold O(slabs²) bytes, ~1.9 GB here, more than a test guest
 * has.  Every block is then found at its address.
 */
static void cpt_test_page_slabs_anchor(void)
{
	const unsigned int per_page = PAGE_SIZE / CPT_CHAIN_SIZE;
	struct cp_sink sink;
	struct chainpool_stats st;
	struct chainpool *pool;

	pool = cpt_sink_begin(&sink, CPT_CHAIN_BLOCKS,
			      cpt_create(CPT_CHAIN_SIZE, 16, 0, PAGE_SIZE,
					 false, 0));
	if (!pool)
		return;
	CPT_CHECK(cpt_alloc_bulk(pool, &sink, CPT_CHAIN_BLOCKS) == 0);
	chainpool_get_stats(pool, &st);
	pr_info("# one-page slabs: %u slabs, %llu B of metadata\n",
		st.nr_slabs, st.meta_bytes);
	CPT_CHECK(st.nr_slabs == DIV_ROUND_UP(CPT_CHAIN_BLOCKS, per_page));
	/* One table of 28 bytes a slab, besides the pool itself. */
	CPT_CHECK(st.meta_bytes <= 28ULL * st.nr_slabs + SZ_4K);
	cpt_lookup_sink(pool, &sink);
	CPT_CHECK(sink.calls == CPT_CHAIN_BLOCKS);
	CPT_CHECK(chainpool_release_all(pool) == 0);
	chainpool_destroy(pool);
	vfree(sink.blocks);
}

static bool cpt_all_zero(const u8 *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

/* zalloc zeroes a block that was dirtied and freed. */
static void cpt_test_zalloc(void)
{
	unsigned int debug;

	for (debug = 0; debug < 2; debug++) {
		struct chainpool *pool = cpt_create(1000, 16, 0, 0, debug, 0);
		struct cp_block a, b;

		if (!CPT_CHECK(pool))
			return;
		a.cpu = chainpool_zalloc(pool, GFP_KERNEL, &a.dma);
		if (CPT_CHECK(a.cpu)) {
			CPT_CHECK(cpt_all_zero(a.cpu, 1000));
			memset(a.cpu, 0xff, 1000);
			chainpool_free(pool, a.cpu, a.dma);
			b.cpu = chainpool_zalloc(pool, GFP_KERNEL, &b.dma);
			CPT_CHECK(b.cpu == a.cpu && b.dma == a.dma);
			if (CPT_CHECK(b.cpu))
				CPT_CHECK(cpt_all_zero(b.cpu, 1000));
			if (b.cpu)
				chainpool_free(pool, b.cpu, b.dma);
		}
		chainpool_destroy(pool);
	}
}

/* Allocation with interrupts off grows the pool with GFP_ATOMIC. */
static void cpt_test_atomic(void)
{
	struct chainpool *pool = cpt_create(128, 16, 0, 0, false, 0);
	struct cp_block blocks[64];
	unsigned long flags;
	unsigned int i, got = 0;

	if (!CPT_CHECK(pool))
		return;
	local_irq_save(flags);
	for (i = 0; i < ARRAY_SIZE(blocks); i++) {
		blocks[i].cpu = chainpool_alloc(pool, GFP_ATOMIC,
						&blocks[i].dma);
		if (!blocks[i].cpu)
			break;
		got++;
	}
	local_irq_restore(flags);
	CPT_CHECK(got == ARRAY_SIZE(blocks));
	cpt_check_blocks(pool, blocks, got);
	cpt_free_n(pool, blocks, got);
	chainpool_destroy(pool);
}

/*
 * Growth that fails after its slab was allocated gives the slab back.
 * With interrupts off (GFP_ATOMIC) that must not call dma_free_coherent(),
 * which warns there: the slab is parked and freed later.  With GFP_KERNEL
 * it is freed at once.
 */
static void cpt_test_atomic_error_path(void)
{
	struct chainpool_params params = { .fail_slab = 1 };
	struct chainpool_stats st;
	struct chainpool *pool;
	struct cp_block a, b;
	unsigned long flags;

	pool = chainpool_create_params("cpt", cpt_td.dev, 128, 16, 0, &params);
	if (!CPT_CHECK(pool))
		return;
	local_irq_save(flags);
	a.cpu = chainpool_alloc(pool, GFP_ATOMIC, &a.dma);
	b.cpu = chainpool_alloc(pool, GFP_ATOMIC, &b.dma);
	local_irq_restore(flags);
	chainpool_get_stats(pool, &st);
	CPT_CHECK(!a.cpu);
	CPT_CHECK(b.cpu);
	CPT_CHECK(st.injected == 1);
	CPT_CHECK(st.parked == 1);
	CPT_CHECK(st.nr_slabs == 1);
	if (b.cpu)
		chainpool_free(pool, b.cpu, b.dma);
	chainpool_destroy(pool);

	pool = chainpool_create_params("cpt", cpt_td.dev, 128, 16, 0, &params);
	if (!CPT_CHECK(pool))
		return;
	a.cpu = chainpool_alloc(pool, GFP_KERNEL, &a.dma);
	chainpool_get_stats(pool, &st);
	CPT_CHECK(!a.cpu);
	CPT_CHECK(st.injected == 1);
	CPT_CHECK(st.parked == 0);
	chainpool_destroy(pool);
}

/*
 * A fill with interrupts off allocates its slab tables with the caller's
 * GFP_ATOMIC, not GFP_KERNEL, and its blocks are found.
 */
static void cpt_test_atomic_fill(void)
{
	struct chainpool *pool = cpt_create(128, 16, 0, 16384, false, 0);
	struct chainpool_stats st;
	struct cp_block a;
	unsigned long flags;
	int ret;

	if (!CPT_CHECK(pool))
		return;
	local_irq_save(flags);
	ret = chainpool_fill(pool, 1000, GFP_ATOMIC);
	local_irq_restore(flags);
	CPT_CHECK(ret == 0);
	chainpool_get_stats(pool, &st);
	CPT_CHECK(st.nr_slabs == DIV_ROUND_UP(1000, 128));
	a.cpu = chainpool_alloc(pool, GFP_KERNEL, &a.dma);
	if (CPT_CHECK(a.cpu)) {
		CPT_CHECK(chainpool_dma_to_virt(pool, a.dma) == a.cpu);
		chainpool_free(pool, a.cpu, a.dma);
	}
	chainpool_destroy(pool);
}

/* With debug, a double free and a foreign free are refused. */
static void cpt_test_debug_frees(void)
{
	struct chainpool *pool = cpt_create(128, 16, 0, 0, true, 0);
	struct chainpool_stats st;
	struct cp_block a, b;

	if (!CPT_CHECK(pool))
		return;
	if (CPT_CHECK(cpt_alloc_two(pool, &a, &b))) {
		chainpool_free(pool, a.cpu, a.dma);
		pr_info("# two \"bad free\" errors expected next\n");
		chainpool_free(pool, a.cpu, a.dma);
		chainpool_free(pool, b.cpu, b.dma + 1);
		chainpool_get_stats(pool, &st);
		CPT_CHECK(st.blocks_in_use == 1);
		chainpool_free(pool, b.cpu, b.dma);
		chainpool_get_stats(pool, &st);
		CPT_CHECK(st.blocks_in_use == 0);
	}
	chainpool_destroy(pool);
}

/* Allocate n blocks through the driver's calls and check the lookups. */
static struct cp_dmapool *cpt_driver_pool(const char *name,
					  struct cp_block *blocks,
					  unsigned int n)
{
	struct cp_sink sink = { .blocks = blocks };
	struct cp_dmapool *pool;
	u64 start = ktime_get_ns();
	unsigned int i;
	bool chainpool;
	int ret;

	pool = cp_dmapool_create(name, cpt_td.dev, CPT_CHAIN_SIZE, 16, 0);
	if (!CPT_CHECK(pool))
		return NULL;
	chainpool = !strcmp(cp_dmapool_allocator(pool), "chainpool");
	/* As patch 0200: in one pass with chainpool, else block by block. */
	ret = cp_dmapool_alloc_bulk(pool, n, GFP_KERNEL, cp_sink_store, &sink);
	CPT_CHECK(ret == (chainpool ? 0 : -EOPNOTSUPP));
	if (chainpool)
		CPT_CHECK(sink.calls == n);
	CPT_CHECK(cp_dmapool_fill(pool, n, GFP_KERNEL) == 0);
	for (i = 0; i < n; i++) {
		if (ret)
			blocks[i].cpu = cp_dmapool_alloc(pool, GFP_KERNEL,
							 &blocks[i].dma);
		if (!CPT_CHECK(blocks[i].cpu))
			break;
		/* Only chainpool can map an address back. */
		CPT_CHECK(cp_dmapool_dma_to_virt(pool, blocks[i].dma) ==
			  (chainpool ? blocks[i].cpu : NULL));
	}
	cp_dmapool_log_created(pool, i, start);
	return pool;
}

static void cpt_driver_pool_release(struct cp_dmapool *pool,
				    struct cp_block *blocks, unsigned int n)
{
	u64 start = ktime_get_ns();
	unsigned int i;

	/* As patch 0200: chainpool takes the whole pool back at once. */
	if (!cp_dmapool_release_all(pool))
		for (i = 0; i < n && blocks[i].cpu; i++)
			cp_dmapool_free(pool, blocks[i].cpu, blocks[i].dma);
	cp_dmapool_destroy_logged(pool, start);
}

/*
 * The calls mpt3sas makes, through the allocator pool_allocator picks:
 * create, fill, allocate, look up, log, free and destroy with a log line.
 */
static void cpt_test_driver_pool(void)
{
	struct cp_block *blocks;
	struct cp_dmapool *pool;

	blocks = vzalloc(CPT_DRIVER_BLOCKS * sizeof(*blocks));
	if (!CPT_CHECK(blocks))
		return;
	pool = cpt_driver_pool("driver pool", blocks, CPT_DRIVER_BLOCKS);
	if (pool)
		cpt_driver_pool_release(pool, blocks, CPT_DRIVER_BLOCKS);
	vfree(blocks);
}

/*
 * A pool that stays until the module is removed, so the harness can read
 * its debugfs file and see the destroy line at rmmod.
 */
static void cpt_test_resident_pool(void)
{
	cpt_resident_blocks = vzalloc(CPT_RESIDENT_BLOCKS *
				      sizeof(*cpt_resident_blocks));
	if (!CPT_CHECK(cpt_resident_blocks))
		return;
	cpt_resident = cpt_driver_pool("resident pool", cpt_resident_blocks,
				       CPT_RESIDENT_BLOCKS);
}

/*
 * chainpool_debug=1 chainpool_fail_slab=N: the Nth slab of each new pool
 * fails, the fill fails cleanly and keeps the slabs before it.
 */
static void cpt_test_fault_knob(void)
{
	/* 128 KiB slabs of 128-byte blocks: 1024 blocks each */
	unsigned int blocks = (expect_fail_slab + 1) * 1024;
	struct chainpool_stats st;
	struct chainpool *pool;

	pool = chainpool_create("knob", cpt_td.dev, CPT_CHAIN_SIZE, 16, 0);
	if (!CPT_CHECK(pool))
		return;
	CPT_CHECK(chainpool_fill(pool, blocks, GFP_KERNEL) == -ENOMEM);
	chainpool_get_stats(pool, &st);
	CPT_CHECK(st.injected == 1);
	CPT_CHECK(st.nr_slabs == expect_fail_slab - 1);
	chainpool_destroy(pool);
}

/* The same knob half way through the fill of a bulk allocation. */
static void cpt_test_fault_knob_bulk(void)
{
	unsigned int blocks = (expect_fail_slab + 1) * 1024;
	struct cp_sink sink;
	struct chainpool_stats st;
	struct chainpool *pool;

	pool = cpt_sink_begin(&sink, blocks,
			      chainpool_create("knob", cpt_td.dev,
					       CPT_CHAIN_SIZE, 16, 0));
	if (!pool)
		return;
	CPT_CHECK(cpt_alloc_bulk(pool, &sink, blocks) == -ENOMEM);
	chainpool_get_stats(pool, &st);
	CPT_CHECK(sink.calls == 0);
	CPT_CHECK(st.blocks_in_use == 0);
	CPT_CHECK(st.injected == 1);
	CPT_CHECK(st.nr_slabs == expect_fail_slab - 1);
	CPT_CHECK(chainpool_release_all(pool) == 0);
	chainpool_destroy(pool);
	vfree(sink.blocks);
}

/*
 * Interrupts are off for a bounded batch, not for a whole bulk
 * allocation or release: the anchor pool, with and without
 * chainpool_debug (a memset and a map update per block, a poisoned
 * pool at release), while a churn thread allocates and frees single
 * blocks of the same pool.  The test build counts the blocks handed out
 * and released per hold of the pool lock, and times the holds.  A block
 * handed to both the bulk allocation and the churn thread fails it:
 * each owner tags its blocks and checks the tags.
 */
#define CPT_BATCH_TAG		0xb0b0b0b0b0b0b0b0ULL
#define CPT_CHURN_TAG		0xc4c4c4c4c4c4c4c4ULL
#define CPT_CHURN_HOLD		64U

struct cpt_churn {
	struct chainpool *pool;
	struct completion started;
	struct cp_block held[CPT_CHURN_HOLD];
	unsigned int nr_held;
	unsigned int ops;
	unsigned int bad;
	unsigned int fails;
};

struct cpt_batch_sink {
	struct cp_sink sink;
	unsigned int bad;
};

static void cpt_batch_store(void *ctx, u32 index, void *vaddr,
			    dma_addr_t dma)
{
	struct cpt_batch_sink *bs = ctx;
	u64 tag;

	memcpy(&tag, vaddr, sizeof(tag));
	/* A fresh pool: a block with the churn's tag is held by it. */
	if (tag == (CPT_CHURN_TAG ^ dma))
		bs->bad++;
	tag = CPT_BATCH_TAG ^ dma;
	memcpy(vaddr, &tag, sizeof(tag));
	cp_sink_store(&bs->sink, index, vaddr, dma);
}

static void cpt_churn_free(struct cpt_churn *c, unsigned int i)
{
	struct cp_block b = c->held[i];
	u64 tag;

	memcpy(&tag, b.cpu, sizeof(tag));
	if (tag != (CPT_CHURN_TAG ^ b.dma))
		c->bad++;
	/* Not ours any more: a later owner must not see our tag. */
	memset(b.cpu, 0, sizeof(tag));
	c->held[i] = c->held[--c->nr_held];
	chainpool_free(c->pool, b.cpu, b.dma);
}

static int cpt_churn_thread(void *arg)
{
	struct cpt_churn *c = arg;
	u32 rnd = 12345;

	while (!kthread_should_stop()) {
		rnd = rnd * 1664525U + 1013904223U;
		if (c->nr_held < CPT_CHURN_HOLD && (rnd >> 24) % 3) {
			struct cp_block *b = &c->held[c->nr_held];
			u64 tag;

			b->cpu = chainpool_alloc(c->pool, GFP_KERNEL, &b->dma);
			if (!b->cpu) {
				c->fails++;
			} else {
				memcpy(&tag, b->cpu, sizeof(tag));
				if (tag == (CPT_BATCH_TAG ^ b->dma))
					c->bad++;
				tag = CPT_CHURN_TAG ^ b->dma;
				memcpy(b->cpu, &tag, sizeof(tag));
				c->nr_held++;
			}
		} else if (c->nr_held) {
			cpt_churn_free(c, (rnd >> 8) % c->nr_held);
		}
		if (++c->ops == CPT_CHURN_HOLD)
			complete(&c->started);
		cond_resched();
	}
	return 0;
}

static void cpt_batches_round(bool debug, struct cpt_batch_sink *bs)
{
	const u32 batch = CHAINPOOL_BATCH_BLOCKS;
	struct chainpool_test_stats ts;
	struct chainpool_stats st;
	struct task_struct *task;
	struct cpt_churn *c;
	unsigned int i, ops;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!CPT_CHECK(c))
		return;
	c->pool = cpt_create(CPT_CHAIN_SIZE, 16, 0, 0, debug, 0);
	if (!CPT_CHECK(c->pool))
		goto out;
	init_completion(&c->started);
	task = kthread_run(cpt_churn_thread, c, "cpt_churn");
	if (!CPT_CHECK(!IS_ERR(task))) {
		chainpool_destroy(c->pool);
		goto out;
	}
	wait_for_completion(&c->started);
	ops = c->ops;
	bs->sink.calls = 0;
	bs->sink.out_of_order = false;
	bs->bad = 0;
	ret = chainpool_alloc_bulk(c->pool, CPT_CHAIN_BLOCKS, GFP_KERNEL,
				   cpt_batch_store, bs);
	ops = c->ops - ops;
	kthread_stop(task);
	CPT_CHECK(ret == 0);
	CPT_CHECK(bs->sink.calls == CPT_CHAIN_BLOCKS);
	CPT_CHECK(!bs->sink.out_of_order);
	CPT_CHECK(!bs->bad);
	/* The bulk blocks still carry their tags: none went twice. */
	for (i = 0; i < bs->sink.calls; i++)
		if (!CPT_CHECK(*(u64 *)bs->sink.blocks[i].cpu ==
			       (CPT_BATCH_TAG ^ bs->sink.blocks[i].dma)))
			break;
	while (c->nr_held)
		cpt_churn_free(c, 0);
	CPT_CHECK(!c->bad);
	CPT_CHECK(!c->fails);
	chainpool_get_stats(c->pool, &st);
	CPT_CHECK(st.blocks_in_use == bs->sink.calls);
	CPT_CHECK(chainpool_release_all(c->pool) == 0);
	chainpool_get_test_stats(c->pool, &ts);
	pr_info("# batches (debug %d): bulk %u blocks in %u holds of at most %u blocks, %llu us in all, longest %llu us; release in %u holds of at most %u blocks, %llu us in all, longest %llu us; churn ran %u ops meanwhile\n",
		debug, bs->sink.calls, ts.bulk.holds, ts.bulk.max_blocks,
		div_u64(ts.bulk.sum_ns, 1000), div_u64(ts.bulk.max_ns, 1000),
		ts.release.holds, ts.release.max_blocks,
		div_u64(ts.release.sum_ns, 1000),
		div_u64(ts.release.max_ns, 1000), ops);
	CPT_CHECK(ts.bulk.max_blocks <= batch);
	CPT_CHECK(ts.bulk.holds >= DIV_ROUND_UP(CPT_CHAIN_BLOCKS, batch));
	CPT_CHECK(ts.release.max_blocks <= batch);
	chainpool_destroy(c->pool);
out:
	kfree(c);
}

static void cpt_test_bulk_batches(void)
{
	struct cpt_batch_sink bs;

	if (!cpt_sink_alloc(&bs.sink, CPT_CHAIN_BLOCKS))
		return;
	cpt_batches_round(false, &bs);
	cpt_batches_round(true, &bs);
	vfree(bs.sink.blocks);
}

/*
 * A pool growing one slab at a time on alloc, as the driver's PCIe SGL
 * pool does, replaces its slab table at each growth: the old tables are
 * kept back, within a bound, and freed after one grace period for many
 * growths, not one each.  A fill frees them all.
 */
static void cpt_test_growth_grace_periods(void)
{
	const unsigned int growths = 64, per_slab = PAGE_SIZE / CPT_CHAIN_SIZE;
	const unsigned int n = per_slab * (growths + 1);
	struct chainpool_test_stats ts;
	struct chainpool_stats st;
	struct cp_block *blocks;
	struct chainpool *pool;
	unsigned int got, i, gp;

	blocks = vmalloc(n * sizeof(*blocks));
	if (!CPT_CHECK(blocks))
		return;
	pool = cpt_create(CPT_CHAIN_SIZE, 16, 0, PAGE_SIZE, false, 0);
	if (!CPT_CHECK(pool))
		goto out;
	CPT_CHECK(chainpool_fill(pool, per_slab, GFP_KERNEL) == 0);
	got = cpt_alloc_n(pool, blocks, n);
	CPT_CHECK(got == n);
	chainpool_get_stats(pool, &st);
	chainpool_get_test_stats(pool, &ts);
	gp = ts.grace_periods;
	pr_info("# growth: %u single-slab growths, %u grace periods, %llu B of replaced tables held\n",
		st.nr_slabs - 1, gp, ts.retired_bytes);
	CPT_CHECK(st.nr_slabs == growths + 1);
	CPT_CHECK(gp <= growths / 8);
	CPT_CHECK(ts.retired_bytes <= max_t(u64, CHAINPOOL_RETIRE_BYTES,
					    CHAINPOOL_RETIRE_RATIO *
					    st.meta_bytes));
	for (i = 0; i < got; i++)
		if (!CPT_CHECK(chainpool_dma_to_virt(pool, blocks[i].dma) ==
			       blocks[i].cpu))
			break;
	/* A fill frees every replaced table, after one grace period. */
	CPT_CHECK(chainpool_fill(pool, n + 1, GFP_KERNEL) == 0);
	chainpool_get_test_stats(pool, &ts);
	CPT_CHECK(ts.retired_bytes == 0);
	CPT_CHECK(ts.grace_periods == gp + 1);
	cpt_free_n(pool, blocks, got);
	chainpool_destroy(pool);
out:
	vfree(blocks);
}

/* A test of the suite, a fault knob test or a reliability case. */
struct cpt_case {
	const char *name;
	void (*fn)(void);
};

static const struct cpt_case cpt_knob_tests[] = {
	{ "fault_knob", cpt_test_fault_knob },
	{ "fault_knob_bulk", cpt_test_fault_knob_bulk },
};

static const struct cpt_case cpt_tests[] = {
	{ "chain_pool_373959x128", cpt_test_chain_pool },
	{ "bulk_chain_pool_373959x128", cpt_test_bulk_chain_pool },
	{ "bulk_fault", cpt_test_bulk_fault },
	{ "bulk_debug_release", cpt_test_bulk_debug_release },
	{ "bulk_batches", cpt_test_bulk_batches },
	{ "growth_grace_periods", cpt_test_growth_grace_periods },
	{ "shapes", cpt_test_shapes },
	{ "lookup", cpt_test_lookup },
	{ "lookup_growth", cpt_test_lookup_growth },
	{ "concurrency", cpt_test_concurrency },
	{ "large_blocks", cpt_test_large_blocks },
	{ "fault_injection", cpt_test_fault_injection },
	{ "page_slabs", cpt_test_page_slabs },
	{ "page_slabs_anchor", cpt_test_page_slabs_anchor },
	{ "zalloc", cpt_test_zalloc },
	{ "atomic_alloc", cpt_test_atomic },
	{ "atomic_error_path", cpt_test_atomic_error_path },
	{ "atomic_fill", cpt_test_atomic_fill },
	{ "debug_frees", cpt_test_debug_frees },
	{ "driver_pool", cpt_test_driver_pool },
	{ "resident_pool", cpt_test_resident_pool },
};

/*
 * Reliability cases (tests/reliability/), one per load, selected by rel=.
 * They use chainpool_create(), so the module parameters chainpool_debug,
 * chainpool_fail_slab and chainpool_fail_max_order apply, and print one
 * "# rel ..." line the guest scripts read.
 */

/* Slabs chainpool_fill() takes for the anchor pool, with the default cap. */
static unsigned int cpt_anchor_plan(struct chainpool_plan *plan)
{
	unsigned int order, slabs = 0;
	u64 have = 0;

	if (chainpool_plan_init(plan, CPT_CHAIN_SIZE, 16, 0, PAGE_SIZE, 0))
		return 0;
	while (have < CPT_CHAIN_BLOCKS) {
		order = chainpool_plan_order_for(plan, CPT_CHAIN_BLOCKS - have);
		have += chainpool_plan_blocks_per_slab(plan, order);
		slabs++;
	}
	return slabs;
}

/*
 * chainpool_debug=1 chainpool_fail_slab=N expect_fail_slab=N: the fill of
 * the anchor pool fails with -ENOMEM at slab N and keeps the N - 1 slabs
 * before it, which destroy frees; past the last slab, or without a fault,
 * the fill succeeds.
 */
static void cpt_rel_fault(void)
{
	struct chainpool_plan plan;
	struct chainpool_stats st;
	struct chainpool *pool;
	unsigned int needed;
	bool hit;
	int ret;

	needed = cpt_anchor_plan(&plan);
	if (!CPT_CHECK(needed))
		return;
	hit = expect_fail_slab && expect_fail_slab <= needed;
	pool = chainpool_create("anchor", cpt_td.dev, CPT_CHAIN_SIZE, 16, 0);
	if (!CPT_CHECK(pool))
		return;
	ret = chainpool_fill(pool, CPT_CHAIN_BLOCKS, GFP_KERNEL);
	chainpool_get_stats(pool, &st);
	pr_info("# rel fault: needed=%u fail_slab=%u ret=%d slabs=%u injected=%u dma_kib=%llu\n",
		needed, expect_fail_slab, ret, st.nr_slabs, st.injected,
		st.dma_bytes >> 10);
	if (hit) {
		CPT_CHECK(ret == -ENOMEM);
		CPT_CHECK(st.injected == 1);
		CPT_CHECK(st.nr_slabs == expect_fail_slab - 1);
	} else {
		CPT_CHECK(ret == 0);
		CPT_CHECK(st.injected == 0);
		CPT_CHECK(st.nr_slabs == needed);
		CPT_CHECK(st.blocks_total >= CPT_CHAIN_BLOCKS);
	}
	chainpool_destroy(pool);
}

/* Allocate every block of a filled anchor pool, check, free them all. */
static bool cpt_rel_use_all(struct chainpool *pool, struct cp_block *blocks,
			    bool check)
{
	unsigned int got;
	bool ok;

	got = cpt_alloc_n(pool, blocks, CPT_CHAIN_BLOCKS);
	ok = CPT_CHECK(got == CPT_CHAIN_BLOCKS);
	if (ok && check)
		ok = cpt_check_blocks(pool, blocks, got);
	cpt_free_n(pool, blocks, got);
	return ok;
}

/*
 * chainpool_debug=1 chainpool_fail_max_order=1: every slab of the largest
 * order fails, the fill falls back and builds the pool from smaller slabs,
 * whose blocks all obey the layout and are found by their DMA address.
 */
static void cpt_rel_fallback(void)
{
	struct chainpool_plan plan;
	struct chainpool_stats st;
	struct cp_block *blocks;
	struct chainpool *pool;
	unsigned int o, smaller = 0;
	int ret;

	if (!CPT_CHECK(cpt_anchor_plan(&plan)))
		return;
	pool = cpt_chain_begin("anchor", &blocks, CPT_CHAIN_BLOCKS);
	if (!pool)
		return;
	ret = chainpool_fill(pool, CPT_CHAIN_BLOCKS, GFP_KERNEL);
	chainpool_get_stats(pool, &st);
	for (o = 0; o < plan.max_order; o++)
		smaller += st.slabs_by_order[o];
	pr_info("# rel fallback: ret=%d max_order=%u slabs=%u at_max_order=%u smaller=%u injected=%u fallbacks=%u blocks=%llu\n",
		ret, plan.max_order, st.nr_slabs,
		st.slabs_by_order[plan.max_order], smaller, st.injected,
		st.fallbacks, st.blocks_total);
	CPT_CHECK(ret == 0);
	CPT_CHECK(st.slabs_by_order[plan.max_order] == 0);
	CPT_CHECK(smaller == st.nr_slabs);
	CPT_CHECK(st.injected >= 1);
	CPT_CHECK(st.fallbacks >= st.injected);
	CPT_CHECK(st.blocks_total >= CPT_CHAIN_BLOCKS);
	if (!ret)
		cpt_rel_use_all(pool, blocks, true);
	chainpool_destroy(pool);
	vfree(blocks);
}

/* cycles=N: the driver's attach and detach of the anchor pool, N times. */
static void cpt_rel_cycles(void)
{
	struct cp_block *blocks;
	struct chainpool_stats st;
	struct chainpool *pool;
	unsigned int i;

	blocks = vmalloc(CPT_CHAIN_BLOCKS * sizeof(*blocks));
	if (!CPT_CHECK(blocks))
		return;
	for (i = 0; i < cycles; i++) {
		pool = chainpool_create("anchor", cpt_td.dev, CPT_CHAIN_SIZE, 16,
					0);
		if (!CPT_CHECK(pool))
			break;
		if (!CPT_CHECK(chainpool_fill(pool, CPT_CHAIN_BLOCKS,
					      GFP_KERNEL) == 0) ||
		    !cpt_rel_use_all(pool, blocks, false)) {
			chainpool_destroy(pool);
			break;
		}
		chainpool_get_stats(pool, &st);
		CPT_CHECK(st.blocks_in_use == 0);
		chainpool_destroy(pool);
		cond_resched();
	}
	pr_info("# rel cycles: %u of %u done\n", i, cycles);
	vfree(blocks);
}

static unsigned long cpt_free_pages(void)
{
	return global_zone_page_state(NR_FREE_PAGES);
}

/*
 * inuse_blocks=K: destroy the anchor pool with K blocks still allocated.
 * chainpool reports it, as dma_pool_destroy() does, and keeps the slabs
 * (the device may still use them): the destroy gives the free page count
 * nothing like the pool's pages back, and the blocks stay writable.
 */
static void cpt_rel_inuse(void)
{
	struct cp_block *blocks;
	struct chainpool_stats st;
	struct chainpool *pool;
	unsigned long before, after, gained, dma_pages;
	unsigned int got, i;

	if (!CPT_CHECK(inuse_blocks))
		return;
	pool = cpt_chain_begin("anchor", &blocks, inuse_blocks);
	if (!pool)
		return;
	CPT_CHECK(chainpool_fill(pool, CPT_CHAIN_BLOCKS, GFP_KERNEL) == 0);
	got = cpt_alloc_n(pool, blocks, inuse_blocks);
	CPT_CHECK(got == inuse_blocks);
	chainpool_get_stats(pool, &st);
	dma_pages = st.dma_bytes >> PAGE_SHIFT;
	/* Only the destroy in between: metadata comes back, slabs must not. */
	before = cpt_free_pages();
	chainpool_destroy(pool);
	after = cpt_free_pages();
	gained = after > before ? after - before : 0;
	pr_info("# rel inuse: in_use=%u slabs=%u dma_pages=%lu free_pages_gained=%lu\n",
		got, st.nr_slabs, dma_pages, gained);
	/* Still ours, the device could be writing there: check, then write. */
	if (CPT_CHECK(got && gained < dma_pages / 2))
		for (i = 0; i < got; i++)
			memset(blocks[i].cpu, 0x5a, CPT_CHAIN_SIZE);
	vfree(blocks);
}

static const struct cpt_case cpt_rel_tests[] = {
	{ "fault", cpt_rel_fault },
	{ "fallback", cpt_rel_fallback },
	{ "cycles", cpt_rel_cycles },
	{ "inuse", cpt_rel_inuse },
};

static int cpt_run_rel(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpt_rel_tests); i++) {
		if (strcmp(rel, cpt_rel_tests[i].name))
			continue;
		pr_info("1..1\n");
		cpt_run(cpt_rel_tests[i].name, cpt_rel_tests[i].fn);
		return 0;
	}
	pr_err("chainpool_test: rel=%s is not one of: fault, fallback, cycles, inuse\n",
	       rel);
	return -EINVAL;
}

/*
 * Every name in skip= must be a suite test, once: a typo would silently
 * skip nothing.
 */
static int cpt_check_skip(void)
{
	unsigned int i, names = 0, found = 0;
	const char *p;

	for (p = skip; *p; names++) {
		p += strcspn(p, ",");
		if (*p)
			p++;
	}
	for (i = 0; i < ARRAY_SIZE(cpt_tests); i++)
		found += cpt_skipped(cpt_tests[i].name);
	if (found == names)
		return 0;
	pr_err("chainpool_test: skip=%s: names must be distinct suite tests\n",
	       skip);
	return -EINVAL;
}

static int __init chainpool_test_init(void)
{
	unsigned int i;
	int ret;

	pr_info("KTAP version 1\n");
	ret = cp_testdev_get(&cpt_td, "chainpool_test", "# ");
	if (ret) {
		pr_info("1..0 # SKIP no device: %d\n", ret);
		return 0;
	}
	if (rel[0]) {
		ret = cpt_run_rel();
		if (ret) {
			cp_testdev_put(&cpt_td);
			return ret;
		}
	} else if (expect_fail_slab) {
		pr_info("1..%zu\n", ARRAY_SIZE(cpt_knob_tests));
		for (i = 0; i < ARRAY_SIZE(cpt_knob_tests); i++)
			cpt_run(cpt_knob_tests[i].name, cpt_knob_tests[i].fn);
	} else {
		ret = cpt_check_skip();
		if (ret) {
			cp_testdev_put(&cpt_td);
			return ret;
		}
		pr_info("1..%zu\n", ARRAY_SIZE(cpt_tests));
		for (i = 0; i < ARRAY_SIZE(cpt_tests); i++) {
			if (cpt_skipped(cpt_tests[i].name))
				pr_info("ok %u - %s # SKIP skip=\n", ++cpt_number,
					cpt_tests[i].name);
			else
				cpt_run(cpt_tests[i].name, cpt_tests[i].fn);
		}
	}
	pr_info("# chainpool_test: %u passed, %u failed\n",
		cpt_number - cpt_failures, cpt_failures);
	return 0;
}

static void __exit chainpool_test_exit(void)
{
	if (cpt_resident)
		cpt_driver_pool_release(cpt_resident, cpt_resident_blocks,
					CPT_RESIDENT_BLOCKS);
	vfree(cpt_resident_blocks);
	cp_testdev_put(&cpt_td);
}

module_init(chainpool_test_init);
module_exit(chainpool_test_exit);

MODULE_DESCRIPTION("In-kernel tests of the chainpool DMA block allocator");
MODULE_LICENSE("GPL");
