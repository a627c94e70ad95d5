// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chainpool's slab geometry: how big a slab of each order is, where its
 * blocks lie, which DMA addresses a slab may have (alignment, boundary,
 * the 4 GiB rule), and getting one slab, falling back to smaller orders.
 *
 * Builds in the kernel and in user space, like the rest of the core.
 */
#include "chainpool_core.h"

/**
 * chainpool_plan_init() - compute the geometry of a pool
 * @plan: filled in on success
 * @size: block size, as for dma_pool_create()
 * @align: block alignment, 0 or a power of two; raised to CHAINPOOL_MIN_ALIGN
 * @boundary: 0, or a power of two not below @size that blocks must not cross
 * @page_size: platform page size, a power of two
 * @slab_cap: largest slab to use in bytes, 0 for the default.  Rounded down
 *	to a power of two; raised to the smallest slab that holds one block.
 *
 * Return: 0, or -EINVAL when the parameters are invalid.
 */
int chainpool_plan_init(struct chainpool_plan *plan, size_t size, size_t align,
			size_t boundary, u32 page_size, u64 slab_cap)
{
	u64 min_bytes, cap_bytes;

	if (!size || size > CHAINPOOL_MAX_BLOCK_SIZE)
		return -EINVAL;
	if (align && (!is_power_of_2(align) || align > CHAINPOOL_MAX_BLOCK_SIZE))
		return -EINVAL;
	if (boundary && (!is_power_of_2(boundary) || boundary < size))
		return -EINVAL;
	if (!is_power_of_2(page_size) || page_size < CHAINPOOL_MIN_ALIGN)
		return -EINVAL;

	memset(plan, 0, sizeof(*plan));
	plan->size = size;
	plan->align = align < CHAINPOOL_MIN_ALIGN ? CHAINPOOL_MIN_ALIGN : align;
	/* A boundary no slab can reach constrains nothing. */
	plan->boundary = boundary < CHAINPOOL_MAX_SLAB_BYTES ? boundary : 0;
	plan->page_size = page_size;
	plan->page_shift = ilog2(page_size);
	plan->stride = ALIGN(plan->size, plan->align);
	plan->footprint = plan->size < CHAINPOOL_LINK_BYTES ?
			  CHAINPOOL_LINK_BYTES : plan->size;

	/*
	 * Like dma_pool: a page, or the block rounded up to whole pages, not
	 * to a power of two (a 2.5 MB block takes 2.5 MB, not 4 MiB).  Its
	 * order is that of the power of two holding it.
	 */
	min_bytes = ALIGN(plan->stride, page_size);
	if (roundup_pow_of_two(min_bytes) > CHAINPOOL_MAX_SLAB_BYTES)
		return -EINVAL;
	plan->min_bytes = min_bytes;
	plan->min_order = ilog2(roundup_pow_of_two(min_bytes)) -
			  plan->page_shift;

	cap_bytes = slab_cap ? slab_cap : CHAINPOOL_DEFAULT_SLAB_CAP;
	if (cap_bytes > CHAINPOOL_MAX_SLAB_BYTES)
		cap_bytes = CHAINPOOL_MAX_SLAB_BYTES;
	plan->max_order = ilog2(cap_bytes) - plan->page_shift;
	if (cap_bytes < page_size || plan->max_order < plan->min_order)
		plan->max_order = plan->min_order;
	return 0;
}

/**
 * chainpool_plan_blocks_per_slab() - blocks in a slab of a given order
 * @plan: geometry
 * @order: slab order
 *
 * Return: number of blocks.
 */
u32 chainpool_plan_blocks_per_slab(const struct chainpool_plan *plan,
				   unsigned int order)
{
	u32 segments = chainpool_plan_slab_bytes(plan, order) /
		       chainpool_plan_segment(plan, order);

	return segments * chainpool_plan_blocks_per_segment(plan, order);
}

/**
 * chainpool_plan_order_for() - smallest slab order holding some blocks
 * @plan: geometry
 * @nr_blocks: blocks wanted
 *
 * Lets a bulk fill size its last slab to what is still missing.
 *
 * Return: an order in [min_order, max_order]; max_order when even the
 * largest slab is too small.
 */
unsigned int chainpool_plan_order_for(const struct chainpool_plan *plan,
				      u64 nr_blocks)
{
	unsigned int order;

	for (order = plan->min_order; order < plan->max_order; order++)
		if (chainpool_plan_blocks_per_slab(plan, order) >= nr_blocks)
			break;
	return order;
}

/**
 * chainpool_plan_slab_fits() - check a slab's addresses against the layout
 * @plan: geometry
 * @order: slab order
 * @cpu: CPU address of the slab
 * @dma: DMA address of the slab
 *
 * A slab cut into several segments relies on segment starts being
 * segment-aligned DMA addresses (alignment, page and boundary rules).  A
 * slab that is one segment needs only what its blocks need: the block
 * alignment, page alignment (the start of a page-sized slab), and no
 * boundary line inside it; not natural alignment, which CMA gives large
 * allocations only up to CONFIG_CMA_ALIGNMENT.  No slab may span a 4 GiB
 * line.  The CPU address must be aligned enough to hold the free link.
 *
 * Return: true when blocks carved from the slab obey every rule.
 */
bool chainpool_plan_slab_fits(const struct chainpool_plan *plan,
			      unsigned int order, const void *cpu,
			      dma_addr_t dma)
{
	u32 bytes = chainpool_plan_slab_bytes(plan, order);
	u32 segment = chainpool_plan_segment(plan, order);
	dma_addr_t last = dma + (bytes - 1);
	u32 need = segment;

	if ((uintptr_t)cpu & (CHAINPOOL_MIN_ALIGN - 1))
		return false;
	if (segment == bytes) {
		need = plan->page_size;
		if (bytes < need)
			need = bytes;
		if (need < plan->align)
			need = plan->align;
		if (plan->boundary &&
		    (dma ^ last) & ~(dma_addr_t)(plan->boundary - 1))
			return false;
	}
	if (dma & (need - 1))
		return false;
	if (last < dma)
		return false;
	return upper_32_bits(dma) == upper_32_bits(last);
}

/*
 * The fault-injection hook: may a slab of @order that fits the layout be
 * kept?  0: yes; -EAGAIN: fail this order; -ENOMEM: fail the acquisition.
 */
static int cp_fault_hit(struct chainpool_fault *fault,
			const struct chainpool_plan *plan, unsigned int order)
{
	int ret = 0;

	if (!fault)
		return 0;
	if (fault->fail_max_order && order == plan->max_order &&
	    order > plan->min_order)
		ret = -EAGAIN;
	else if (fault->fail_at && ++fault->count == fault->fail_at)
		ret = -ENOMEM;
	if (ret)
		fault->injected++;
	return ret;
}

/**
 * chainpool_slab_acquire() - get one slab, falling back to smaller orders
 * @plan: geometry
 * @start_order: order to try first, clamped to [min_order, max_order]
 * @ops: allocator
 * @ctx: passed to @ops
 * @fault: fault injection, may be NULL
 * @stats: counters to update, may be NULL
 * @slab: filled in on success
 *
 * Tries @start_order, then each smaller order down to min_order, which is
 * what dma_pool would have asked for.  A slab whose addresses do not fit
 * the layout, or that @fault fails, is given back and the next order is
 * tried.  Touches no pool state, so the kernel glue can call it without
 * holding the pool lock.
 *
 * Return: 0, or -ENOMEM.
 */
int chainpool_slab_acquire(const struct chainpool_plan *plan,
			   unsigned int start_order,
			   const struct chainpool_slab_ops *ops, void *ctx,
			   struct chainpool_fault *fault,
			   struct chainpool_acquire_stats *stats,
			   struct chainpool_slab *slab)
{
	struct chainpool_acquire_stats unused;
	unsigned int order;

	if (!stats)
		stats = &unused;
	if (start_order > plan->max_order)
		start_order = plan->max_order;
	if (start_order < plan->min_order)
		start_order = plan->min_order;

	for (order = start_order; ; order--) {
		u32 bytes = chainpool_plan_slab_bytes(plan, order);
		int injected = 0;
		dma_addr_t dma;
		void *cpu;

		cpu = ops->alloc(ctx, bytes, order > plan->min_order, &dma);
		if (cpu && chainpool_plan_slab_fits(plan, order, cpu, dma)) {
			injected = cp_fault_hit(fault, plan, order);
			if (!injected) {
				slab->cpu = cpu;
				slab->dma = dma;
				slab->nr_blocks =
					chainpool_plan_blocks_per_slab(plan,
								       order);
				slab->order = order;
				return 0;
			}
		} else if (cpu) {
			stats->rejected++;
		}
		if (cpu)
			ops->free(ctx, bytes, cpu, dma);
		if (injected == -ENOMEM || order == plan->min_order)
			return -ENOMEM;
		stats->fallbacks++;
	}
}

