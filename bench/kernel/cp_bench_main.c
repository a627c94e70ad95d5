// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cp_bench: times the allocators a driver can take its chain buffers from,
 * on one device and in one load: N blocks of S bytes from
 *
 *   dma_pool         the kernel's dma_pool: create + N allocs; N frees +
 *                    destroy (O(n^2) before Linux 6.4)
 *   page_carve       one dma_alloc_coherent() per page, carved into blocks
 *                    (the approach of the 2018 mpt3sas patch); the frees
 *                    give the pages back, blocks need no freeing
 *   chainpool        create + N allocs, the pool growing as they come;
 *                    N frees + destroy, slabs capped at the default
 *                    (128 KiB)
 *   chainpool_1page  the same with every slab one page
 *   chainpool_bulk   what the driver does: create + one bulk allocation
 *                    of the N blocks; one whole-pool release + destroy
 *   memset_floor     a memset of N * S bytes into memory already
 *                    allocated (page allocator chunks of up to 128 KiB):
 *                    the least any allocator of zeroed memory can cost
 *
 * Each (allocator, N) gives one line in the kernel log:
 *
 *   cp_bench: record allocator=A n=N size=S align=A create_ns=T
 *     destroy_ns=T coherent_allocs=C metadata_bytes=M
 *
 * (memset_floor: up to create_ns) and a KTAP result, so that the VM
 * harness notices a failure.  create_ns covers the create and every
 * alloc, destroy_ns every free (or the whole-pool release) and the
 * destroy; fill_ns is the part of chainpool_bulk's create_ns spent
 * getting the slabs.  Every allocator stores each block's CPU and DMA
 * address in the same caller array (cpb_blocks), as the driver's
 * chain_lookup does, so that the comparison is fair.  With repeat=R each
 * phase reports its fastest of R runs (fewer once a run took more than
 * repeat_max_ms).  In a fresh VM, pass warm_mb so
 * that the host maps the guest's RAM before the timing starts.  Init
 * returns 0; rmmod the module afterwards.  It is not part of the driver.
 *
 * coherent_allocs: dma_alloc_coherent() calls that succeeded.  dma_pool
 * does not say how many it made: every one is max(size, PAGE_SIZE) bytes
 * holding whole blocks, so for blocks up to a page it is the number of
 * distinct pages among the returned DMA addresses, and above a page one
 * per block.  metadata_bytes: memory an allocator holds besides the
 * blocks.  For dma_pool an estimate: one kmalloc()ed struct dma_page per
 * coherent allocation (40 bytes in kmalloc-64 before Linux 6.4, 32 bytes
 * in kmalloc-32 from 6.4 on) plus the pool (kmalloc-128).  page_carve:
 * its page table.  chainpool: its slab records and arrays.  The
 * caller's array of blocks is not counted for anyone: the driver keeps
 * its own.
 *
 * The device is the first PCI device matching pci_id (QEMU's edu device
 * by default), else a platform device registered for the run.
 */
/* Included, so that a run can set chainpool_slab_kb for its pools. */
#include "chainpool.c"

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>

#include "cp_testdev.h"

#define CPB_MAX_N	8
/*
 * The frees and allocs yield the CPU this often.  TCG guests are slow, and
 * 6.1's dma_pool_free() scans every page of the pool: behind the IOMMU on
 * a busy host, 1024 frees of a million-block pool kept the CPU over 20 s
 * and tripped the soft-lockup watchdog.
 */
#define CPB_RESCHED	64U

/*
 * Estimated dma_pool metadata, see the top of the file; Kbuild passes
 * CPB_DMA_PAGE_BYTES for the kernel it builds against.
 */
#ifndef CPB_DMA_PAGE_BYTES
#define CPB_DMA_PAGE_BYTES	32U
#endif
#define CPB_DMA_POOL_BYTES	128U

static unsigned int n[CPB_MAX_N] = { 373959 };
static unsigned int nr_n = 1;
module_param_array(n, uint, &nr_n, 0444);
MODULE_PARM_DESC(n, "number of blocks, or a comma list of up to 8 numbers (default 373959)");

static unsigned int size = 128;
module_param(size, uint, 0444);
MODULE_PARM_DESC(size, "block size in bytes (default 128)");

static unsigned int align = 16;
module_param(align, uint, 0444);
MODULE_PARM_DESC(align, "block alignment, a power of two (default 16)");

static char *allocators =
	"dma_pool,page_carve,chainpool,chainpool_1page,chainpool_bulk,memset_floor";
module_param(allocators, charp, 0444);
MODULE_PARM_DESC(allocators,
		 "comma list of dma_pool, page_carve, chainpool, chainpool_1page, chainpool_bulk, memset_floor (default all)");

static unsigned int repeat = 1;
module_param(repeat, uint, 0444);
MODULE_PARM_DESC(repeat, "runs of each (allocator, n); the fastest of each phase is reported (default 1)");

static unsigned int repeat_max_ms = 2000;
module_param(repeat_max_ms, uint, 0444);
MODULE_PARM_DESC(repeat_max_ms, "no more runs of an (allocator, n) once one took longer than this (default 2000)");

static unsigned int warm_mb;
module_param(warm_mb, uint, 0444);
MODULE_PARM_DESC(warm_mb,
		 "first allocate, touch and free up to this many MiB, so that a fresh VM's RAM is backed by the host before any timing (default 0)");

struct cpb_block {
	void *cpu;
	dma_addr_t dma;
};

/*
 * One run's numbers; destroy_ns is meaningless for the floor, fill_ns
 * (the part of create_ns getting the slabs) for all but chainpool_bulk.
 */
struct cpb_result {
	u64 create_ns;
	u64 destroy_ns;
	u64 fill_ns;
	u64 coherent_allocs;
	u64 metadata_bytes;
};

static struct cp_testdev cpb_td;
static struct cpb_block *cpb_blocks;
static unsigned int cpb_ktap;
static unsigned int cpb_failures;

static void cpb_resched(unsigned int i)
{
	if (!(i % CPB_RESCHED))
		cond_resched();
}

static int cpb_cmp_dma(const void *a, const void *b)
{
	const dma_addr_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/*
 * Coherent allocations behind @nr blocks of dma_pool: distinct pages
 * among the DMA addresses for blocks up to a page, else one per block.
 * Reuses the cpu field of the blocks as scratch; call after the frees.
 */
static u64 cpb_count_pages(unsigned int nr)
{
	dma_addr_t *pages = (dma_addr_t *)cpb_blocks;
	unsigned int i;
	u64 count = 0;

	if (size > PAGE_SIZE)
		return nr;
	/* in place: pages[i] never overtakes cpb_blocks[i] */
	for (i = 0; i < nr; i++)
		pages[i] = cpb_blocks[i].dma & PAGE_MASK;
	sort(pages, nr, sizeof(*pages), cpb_cmp_dma, NULL);
	for (i = 0; i < nr; i++)
		if (!i || pages[i] != pages[i - 1])
			count++;
	return count;
}

static int cpb_run_dma_pool(unsigned int nr, struct cpb_result *r)
{
	struct dma_pool *pool;
	unsigned int i, got;
	u64 t;

	t = ktime_get_ns();
	pool = dma_pool_create("cp_bench", cpb_td.dev, size, align, 0);
	if (!pool)
		return -ENOMEM;
	for (got = 0; got < nr; got++) {
		cpb_blocks[got].cpu = dma_pool_alloc(pool, GFP_KERNEL,
						     &cpb_blocks[got].dma);
		if (!cpb_blocks[got].cpu)
			break;
		cpb_resched(got);
	}
	r->create_ns = ktime_get_ns() - t;

	t = ktime_get_ns();
	for (i = 0; i < got; i++) {
		dma_pool_free(pool, cpb_blocks[i].cpu, cpb_blocks[i].dma);
		cpb_resched(i);
	}
	dma_pool_destroy(pool);
	r->destroy_ns = ktime_get_ns() - t;
	if (got < nr)
		return -ENOMEM;

	r->coherent_allocs = cpb_count_pages(nr);
	r->metadata_bytes = r->coherent_allocs * CPB_DMA_PAGE_BYTES +
			    CPB_DMA_POOL_BYTES;
	return 0;
}

static int cpb_run_page_carve(unsigned int nr, struct cpb_result *r)
{
	unsigned int stride = ALIGN(size, align);
	unsigned int per_page, nr_pages, i, page = 0, pages_got = 0;
	struct cpb_block *pages;
	int ret = 0;
	u64 t;

	if (stride > PAGE_SIZE)
		return -EINVAL;
	per_page = PAGE_SIZE / stride;
	nr_pages = DIV_ROUND_UP(nr, per_page);

	t = ktime_get_ns();
	pages = kvcalloc(nr_pages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		unsigned int off = (i % per_page) * stride;

		if (!off) {
			page = i / per_page;
			pages[page].cpu = dma_alloc_coherent(cpb_td.dev, PAGE_SIZE,
							     &pages[page].dma,
							     GFP_KERNEL);
			if (!pages[page].cpu) {
				ret = -ENOMEM;
				break;
			}
			pages_got++;
		}
		cpb_blocks[i].cpu = pages[page].cpu + off;
		cpb_blocks[i].dma = pages[page].dma + off;
		cpb_resched(i);
	}
	r->create_ns = ktime_get_ns() - t;

	t = ktime_get_ns();
	for (i = 0; i < pages_got; i++) {
		dma_free_coherent(cpb_td.dev, PAGE_SIZE, pages[i].cpu,
				  pages[i].dma);
		cpb_resched(i);
	}
	kvfree(pages);
	r->destroy_ns = ktime_get_ns() - t;

	r->coherent_allocs = pages_got;
	r->metadata_bytes = (u64)nr_pages * sizeof(*pages);
	return ret;
}

/* A pool of the run's blocks, slabs of up to @slab_bytes (0: default) */
static struct chainpool *cpb_chainpool_create(u64 slab_bytes)
{
	unsigned int was = chainpool_slab_kb;
	struct chainpool *pool;

	if (slab_bytes)
		chainpool_slab_kb = slab_bytes >> 10;
	pool = chainpool_create("cp_bench", cpb_td.dev, size, align, 0);
	chainpool_slab_kb = was;
	return pool;
}

/* What a chainpool says of itself once it holds the run's blocks */
static void cpb_chainpool_record(struct chainpool *pool, struct cpb_result *r)
{
	struct chainpool_stats st;

	chainpool_get_stats(pool, &st);
	r->coherent_allocs = st.nr_slabs;
	r->metadata_bytes = sizeof(*pool) + st.nr_slabs *
			    (sizeof(pool->slabs[0]) + sizeof(pool->by_dma[0]));
}

static int cpb_run_chainpool(unsigned int nr, u64 slab_bytes,
			     struct cpb_result *r)
{
	struct chainpool *pool;
	unsigned int i, got = 0;
	u64 t;

	t = ktime_get_ns();
	pool = cpb_chainpool_create(slab_bytes);
	if (!pool)
		return -ENOMEM;
	for (got = 0; got < nr; got++) {
		cpb_blocks[got].cpu = chainpool_alloc(pool, GFP_KERNEL,
						      &cpb_blocks[got].dma);
		if (!cpb_blocks[got].cpu)
			break;
		cpb_resched(got);
	}
	r->create_ns = ktime_get_ns() - t;
	cpb_chainpool_record(pool, r);

	t = ktime_get_ns();
	for (i = 0; i < got; i++) {
		chainpool_free(pool, cpb_blocks[i].cpu, cpb_blocks[i].dma);
		cpb_resched(i);
	}
	chainpool_destroy(pool);
	r->destroy_ns = ktime_get_ns() - t;
	return got < nr ? -ENOMEM : 0;
}

/* Stores each block of a bulk allocation in the caller's array. */
static void cpb_store(void *ctx, u32 index, void *vaddr, dma_addr_t dma)
{
	struct cpb_block *blocks = ctx;

	blocks[index].cpu = vaddr;
	blocks[index].dma = dma;
}

/*
 * The driver's whole-pool paths: one bulk allocation of all N blocks into
 * the caller's array, then one release of the whole pool and the destroy,
 * without a call per block.
 */
static int cpb_run_chainpool_bulk(unsigned int nr, struct cpb_result *r)
{
	struct chainpool *pool;
	int ret;
	u64 t;

	t = ktime_get_ns();
	pool = cpb_chainpool_create(0);
	if (!pool)
		return -ENOMEM;
	/* the slabs first, as the bulk allocation itself would get them */
	r->fill_ns = ktime_get_ns();
	ret = cp_grow(pool, nr, GFP_KERNEL);
	r->fill_ns = ktime_get_ns() - r->fill_ns;
	if (!ret)
		ret = chainpool_alloc_bulk(pool, nr, GFP_KERNEL, cpb_store,
					   cpb_blocks);
	r->create_ns = ktime_get_ns() - t;
	cpb_chainpool_record(pool, r);

	t = ktime_get_ns();
	chainpool_release_all(pool);
	chainpool_destroy(pool);
	r->destroy_ns = ktime_get_ns() - t;
	return ret;
}

/*
 * The floor: memset N * S bytes of memory allocated beforehand.  The
 * memory comes from the page allocator in chunks of up to 128 KiB, so it
 * is mapped like the coherent memory of the others (the direct map);
 * vmalloc() memory costs more per byte under QEMU TCG.
 */
static int cpb_run_memset_floor(unsigned int nr, struct cpb_result *r)
{
	size_t bytes = (size_t)nr * size, chunk, left;
	unsigned int order = get_order(min_t(size_t, bytes, SZ_128K));
	unsigned int nr_chunks, i, got;
	unsigned long *chunks;
	int ret = 0;
	u64 t;

	chunk = PAGE_SIZE << order;
	nr_chunks = DIV_ROUND_UP(bytes, chunk);
	chunks = kvcalloc(nr_chunks, sizeof(*chunks), GFP_KERNEL);
	if (!chunks)
		return -ENOMEM;
	for (got = 0; got < nr_chunks; got++) {
		chunks[got] = __get_free_pages(GFP_KERNEL, order);
		if (!chunks[got]) {
			ret = -ENOMEM;
			goto out;
		}
		memset((void *)chunks[got], 0xff, chunk);	/* warm up */
		cpb_resched(got);
	}
	t = ktime_get_ns();
	for (i = 0, left = bytes; i < nr_chunks; i++, left -= chunk)
		memset((void *)chunks[i], 0, min(left, chunk));
	r->create_ns = ktime_get_ns() - t;
out:
	for (i = 0; i < got; i++)
		free_pages(chunks[i], order);
	kvfree(chunks);
	return ret;
}

static int cpb_run_chainpool_default(unsigned int nr, struct cpb_result *r)
{
	return cpb_run_chainpool(nr, 0, r);
}

static int cpb_run_chainpool_1page(unsigned int nr, struct cpb_result *r)
{
	return cpb_run_chainpool(nr, PAGE_SIZE, r);
}

/*
 * Each allocator by its name and its run; @floor: a floor, not an
 * allocator, whose record has only the time it took.
 */
static const struct {
	const char *name;
	int (*run)(unsigned int nr, struct cpb_result *r);
	bool floor;
} cpb_allocators[] = {
	{ "dma_pool", cpb_run_dma_pool },
	{ "page_carve", cpb_run_page_carve },
	{ "chainpool", cpb_run_chainpool_default },
	{ "chainpool_1page", cpb_run_chainpool_1page },
	{ "chainpool_bulk", cpb_run_chainpool_bulk },
	{ "memset_floor", cpb_run_memset_floor, true },
};

static void cpb_one(unsigned int a, unsigned int nr)
{
	const char *name = cpb_allocators[a].name;
	struct cpb_result r = { 0 }, best = { 0 };
	unsigned int i;
	int ret = 0;

	for (i = 0; i < max(repeat, 1U) && !ret; i++) {
		if (i && best.create_ns + best.destroy_ns >
			 (u64)repeat_max_ms * NSEC_PER_MSEC)
			break;
		memset(&r, 0, sizeof(r));
		ret = cpb_allocators[a].run(nr, &r);
		if (!i || r.create_ns < best.create_ns) {
			best.create_ns = r.create_ns;
			best.fill_ns = r.fill_ns;
		}
		if (!i || r.destroy_ns < best.destroy_ns)
			best.destroy_ns = r.destroy_ns;
		best.coherent_allocs = r.coherent_allocs;
		best.metadata_bytes = r.metadata_bytes;
		cond_resched();
	}
	r = best;
	cpb_ktap++;
	if (ret) {
		cpb_failures++;
		pr_info("not ok %u - %s n=%u # failed: %d\n", cpb_ktap, name,
			nr, ret);
		return;
	}
	if (cpb_allocators[a].floor)
		pr_info("cp_bench: record allocator=%s n=%u size=%u align=%u create_ns=%llu\n",
			name, nr, size, align, r.create_ns);
	else
		pr_info("cp_bench: record allocator=%s n=%u size=%u align=%u create_ns=%llu destroy_ns=%llu coherent_allocs=%llu metadata_bytes=%llu fill_ns=%llu\n",
			name, nr, size, align, r.create_ns, r.destroy_ns,
			r.coherent_allocs, r.metadata_bytes, r.fill_ns);
	pr_info("ok %u - %s n=%u\n", cpb_ktap, name, nr);
}

/*
 * A fresh VM's RAM is mapped by the host on first touch, which would be
 * charged to whichever allocator first gets that memory.  Touch up to
 * warm_mb MiB of it once, in 2 MiB chunks chained through their first
 * word, without pushing hard on the rest of the system.
 */
static void cpb_warm(void)
{
	const unsigned int order = 9;
	unsigned long head = 0, p;
	unsigned int i, got = 0;

	for (i = 0; i < warm_mb >> (order + PAGE_SHIFT - 20); i++) {
		p = __get_free_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN,
				     order);
		if (!p)
			break;
		memset((void *)p, 0, PAGE_SIZE << order);
		*(unsigned long *)p = head;
		head = p;
		got++;
		cond_resched();
	}
	while (head) {
		p = head;
		head = *(unsigned long *)p;
		free_pages(p, order);
	}
	pr_info("cp_bench: touched %lu MiB before timing\n",
		((unsigned long)got << (order + PAGE_SHIFT)) >> 20);
}

/* Parse the allocators parameter into a bit mask of cpb_allocators. */
static int cpb_parse_allocators(unsigned long *mask)
{
	char *list, *p, *word;
	unsigned int a;
	int ret = 0;

	*mask = 0;
	list = kstrdup(allocators, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	p = list;
	while ((word = strsep(&p, ",")) != NULL) {
		if (!*word)
			continue;
		for (a = 0; a < ARRAY_SIZE(cpb_allocators); a++)
			if (!strcmp(word, cpb_allocators[a].name))
				break;
		if (a == ARRAY_SIZE(cpb_allocators)) {
			pr_err("cp_bench: unknown allocator '%s'\n", word);
			ret = -EINVAL;
			break;
		}
		*mask |= BIT(a);
	}
	kfree(list);
	if (!ret && !*mask)
		ret = -EINVAL;
	return ret;
}

static int __init cp_bench_init(void)
{
	unsigned int i, a, max_n = 0;
	unsigned long mask;
	int ret;

	pr_info("KTAP version 1\n");
	if (cpb_parse_allocators(&mask) || !size || !is_power_of_2(align)) {
		pr_info("1..0 # SKIP bad parameters: allocators=%s size=%u align=%u\n",
			allocators, size, align);
		return -EINVAL;
	}
	for (i = 0; i < nr_n; i++) {
		if (!n[i]) {
			pr_info("1..0 # SKIP bad parameters: n=0\n");
			return -EINVAL;
		}
		max_n = max(max_n, n[i]);
	}
	ret = cp_testdev_get(&cpb_td, "cp_bench", "cp_bench: ");
	if (ret) {
		pr_info("1..0 # SKIP no device: %d\n", ret);
		return 0;
	}
	cpb_blocks = vmalloc(array_size(max_n ?: 1, sizeof(*cpb_blocks)));
	if (!cpb_blocks) {
		cp_testdev_put(&cpb_td);
		return -ENOMEM;
	}
	pr_info("cp_bench: kernel %s, %u value(s) of n up to %u, blocks of %u B, align %u, page %lu B, best of %u\n",
		utsname()->release, nr_n, max_n, size, align, PAGE_SIZE,
		max(repeat, 1U));
	if (warm_mb)
		cpb_warm();
	pr_info("1..%u\n", nr_n * (unsigned int)hweight_long(mask));
	for (i = 0; i < nr_n; i++)
		for (a = 0; a < ARRAY_SIZE(cpb_allocators); a++)
			if (mask & BIT(a))
				cpb_one(a, n[i]);
	pr_info("cp_bench: done, %u runs, %u failed\n", cpb_ktap, cpb_failures);
	vfree(cpb_blocks);
	cpb_blocks = NULL;
	cp_testdev_put(&cpb_td);
	return 0;
}

static void __exit cp_bench_exit(void)
{
}

module_init(cp_bench_init);
module_exit(cp_bench_exit);

MODULE_DESCRIPTION("Benchmark of dma_pool, page carving and chainpool for DMA chain buffers");
MODULE_LICENSE("GPL");
