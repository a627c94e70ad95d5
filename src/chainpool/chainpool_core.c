// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Allocator core of chainpool.
 *
 * Replaces dma_pool for pools of hundreds of thousands of small blocks.
 * Memory comes in large, power-of-two, naturally aligned slabs.  Blocks
 * that were never used are carved from the newest slabs with a bump
 * cursor, freed blocks are kept on a list linked through the blocks
 * themselves (as mm/dmapool.c does since 6.4), so alloc and free are O(1)
 * and filling or destroying a pool costs O(slabs), not O(blocks).
 *
 * Builds in the kernel and in user space: no allocation, no locking, no
 * virt_to_page().
 */
#include "chainpool_core.h"

/*
 * A free block starts with this link.  Keeping the DMA address in the
 * block lets alloc hand it out without any lookup.
 */
struct chainpool_free_link {
	struct chainpool_free_link *next;
	dma_addr_t dma;
};

#define CHAINPOOL_LINK_BYTES	((u32)sizeof(struct chainpool_free_link))

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
 * chainpool_plan_slab_bytes() - size of a slab of a given order
 * @plan: geometry
 * @order: slab order
 *
 * Return: @plan->min_bytes for min_order, else page_size << @order.
 */
u32 chainpool_plan_slab_bytes(const struct chainpool_plan *plan,
			      unsigned int order)
{
	if (order == plan->min_order)
		return plan->min_bytes;
	return plan->page_size << order;
}

/**
 * chainpool_plan_segment() - bytes of a slab within which blocks are packed
 * @plan: geometry
 * @order: slab order
 *
 * Blocks never cross a segment end.  Segments are the slab itself, cut
 * down to the boundary and, for blocks smaller than a page, to a page (the
 * guarantee dma_pool gives), but never below the alignment: aligned starts
 * are then segment starts and blocks no larger than a segment cannot cross.
 *
 * Return: the segment size: a power of two, or the whole slab when that is
 * a min_order slab of whole pages that the rules do not cut.
 */
CP_TESTABLE
u32 chainpool_plan_segment(const struct chainpool_plan *plan,
			   unsigned int order)
{
	u32 segment = chainpool_plan_slab_bytes(plan, order);

	if (plan->boundary && plan->boundary < segment)
		segment = plan->boundary;
	if (plan->size < plan->page_size && plan->page_size < segment)
		segment = plan->page_size;
	if (segment < plan->align)
		segment = plan->align;
	return segment;
}

/**
 * chainpool_plan_blocks_per_segment() - blocks packed into one segment
 * @plan: geometry
 * @order: slab order
 *
 * Return: number of blocks, at least 1 for orders from min_order up.
 */
CP_TESTABLE
u32 chainpool_plan_blocks_per_segment(const struct chainpool_plan *plan,
				      unsigned int order)
{
	u32 segment = chainpool_plan_segment(plan, order);

	if (segment < plan->footprint)
		return 0;
	return (segment - plan->footprint) / plan->stride + 1;
}

/**
 * chainpool_plan_blocks_per_slab() - blocks in a slab of a given order
 * @plan: geometry
 * @order: slab order
 *
 * Return: number of blocks.
 */
CP_TESTABLE
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
 * chainpool_plan_block_offset() - byte offset of a block inside its slab
 * @plan: geometry
 * @order: slab order
 * @index: block index inside the slab, below the slab's block count
 *
 * Return: offset of the block's first byte from the slab start.
 */
CP_TESTABLE
u32 chainpool_plan_block_offset(const struct chainpool_plan *plan,
				unsigned int order, u32 index)
{
	u32 per_segment = chainpool_plan_blocks_per_segment(plan, order);
	u32 segment = chainpool_plan_segment(plan, order);

	return (index / per_segment) * segment +
	       (index % per_segment) * plan->stride;
}

/**
 * chainpool_plan_offset_to_index() - block index of a slab offset
 * @plan: geometry
 * @order: slab order
 * @offset: byte offset from the slab start
 * @index: set to the block index on success
 *
 * Return: 0, or -EINVAL when @offset is not the first byte of a block.
 */
CP_TESTABLE
int chainpool_plan_offset_to_index(const struct chainpool_plan *plan,
				   unsigned int order, u32 offset, u32 *index)
{
	u32 segment = chainpool_plan_segment(plan, order);
	u32 per_segment = chainpool_plan_blocks_per_segment(plan, order);
	u32 in_segment = offset % segment;
	u32 slot = in_segment / plan->stride;

	if (offset >= chainpool_plan_slab_bytes(plan, order))
		return -EINVAL;
	if (in_segment % plan->stride || slot >= per_segment)
		return -EINVAL;
	*index = (offset / segment) * per_segment + slot;
	return 0;
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
CP_TESTABLE
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

/**
 * chainpool_core_init() - start an empty pool
 * @core: pool state
 * @plan: geometry, copied
 * @debug: poison freed blocks and check frees; every slab added must then
 *	come with an in-use map of chainpool_core_map_bytes() zeroed bytes
 */
void chainpool_core_init(struct chainpool_core *core,
			 const struct chainpool_plan *plan, bool debug)
{
	memset(core, 0, sizeof(*core));
	core->plan = *plan;
	core->debug = debug;
}

/**
 * chainpool_core_table_bytes() - storage needed for a slab table
 * @max_slabs: slabs the table must hold
 * @debug: the pool debugs, so the table also holds the CPU address index
 *	and the in-use maps
 *
 * Return: bytes of storage to pass to chainpool_core_grow().
 */
size_t chainpool_core_table_bytes(u32 max_slabs, bool debug)
{
	size_t per_slab = sizeof(struct chainpool_slab) + sizeof(u32);

	if (debug)
		per_slab += sizeof(u32) + sizeof(unsigned long *);
	return sizeof(struct chainpool_table) + (size_t)max_slabs * per_slab;
}

/* Lay a table of @max_slabs out in @storage; pointers first, for alignment. */
static struct chainpool_table *cp_table_init(void *storage, u32 max_slabs,
					     bool debug)
{
	struct chainpool_table *t = storage;

	t->nr_slabs = 0;
	t->max_slabs = max_slabs;
	t->slabs = (struct chainpool_slab *)(t + 1);
	t->maps = debug ? (unsigned long **)(t->slabs + max_slabs) : NULL;
	t->by_dma = debug ? (u32 *)(t->maps + max_slabs) :
			    (u32 *)(t->slabs + max_slabs);
	t->by_cpu = debug ? t->by_dma + max_slabs : NULL;
	return t;
}

/**
 * chainpool_core_table() - the slab table, for the caller holding the lock
 * @core: pool state
 *
 * Return: the current table, or NULL before the first slab.
 */
const struct chainpool_table *
chainpool_core_table(const struct chainpool_core *core)
{
	return CP_TABLE(core->table);
}

/**
 * chainpool_core_map_bytes() - size of a debug in-use map
 * @plan: geometry
 * @order: slab order
 *
 * Return: bytes of the map a debug pool needs for a slab of @order.
 */
size_t chainpool_core_map_bytes(const struct chainpool_plan *plan,
				unsigned int order)
{
	u32 blocks = chainpool_plan_blocks_per_slab(plan, order);

	return BITS_TO_LONGS(blocks) * sizeof(unsigned long);
}

/* Sort key of slab @id: its DMA address, or (@by_cpu) its CPU address. */
static u64 cp_key(const struct chainpool_table *t, u32 id, bool by_cpu)
{
	return by_cpu ? (uintptr_t)t->slabs[id].cpu : t->slabs[id].dma;
}

/*
 * The one binary search: the first of the @n positions of the sorted
 * index @ids whose slab's key is above @key.
 */
static u32 cp_upper(const struct chainpool_table *t, const u32 *ids, u32 n,
		    u64 key, bool by_cpu)
{
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (cp_key(t, ids[mid], by_cpu) <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static u32 cp_slab_bytes(const struct chainpool_core *core,
			 const struct chainpool_slab *slab)
{
	return chainpool_plan_slab_bytes(&core->plan, slab->order);
}

/* Slabs in the pool: those of its table. */
static u32 cp_nr_slabs(const struct chainpool_core *core)
{
	const struct chainpool_table *t = CP_TABLE(core->table);

	return t ? t->nr_slabs : 0;
}

/* Blocks in the pool, counted from its table: O(slabs). */
static u64 cp_nr_blocks(const struct chainpool_core *core)
{
	const struct chainpool_table *t = CP_TABLE(core->table);
	u64 n = 0;
	u32 i;

	for (i = 0; t && i < t->nr_slabs; i++)
		n += t->slabs[i].nr_blocks;
	return n;
}

/* Index in @t->slabs of the slab containing @dma, or -1. */
static int cp_find_dma(const struct chainpool_core *core,
		       const struct chainpool_table *t, dma_addr_t dma)
{
	u32 pos = t ? cp_upper(t, t->by_dma, t->nr_slabs, dma, false) : 0;
	u32 id;

	if (!pos)
		return -1;
	id = t->by_dma[pos - 1];
	if (dma - t->slabs[id].dma >= cp_slab_bytes(core, &t->slabs[id]))
		return -1;
	return id;
}

/* Sift @ids[@root] down the max-heap @ids[0..@n). */
static void cp_sift_down(const struct chainpool_table *t, u32 *ids, u32 n,
			 u32 root, bool by_cpu)
{
	u32 child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && cp_key(t, ids[child + 1], by_cpu) >
				     cp_key(t, ids[child], by_cpu))
			child++;
		if (cp_key(t, ids[root], by_cpu) >= cp_key(t, ids[child], by_cpu))
			return;
		swap(ids[root], ids[child]);
		root = child;
	}
}

/*
 * Sort the index @ids of @t by address after slabs were appended to it:
 * one appended slab moves into place by binary search, O(slabs); more
 * are heapsorted with the rest, O(slabs log slabs) whatever the order
 * the DMA allocator handed them out in.
 */
static void cp_sort_index(const struct chainpool_table *t, u32 *ids,
			  bool by_cpu)
{
	u32 n = t->nr_slabs, lo, id, i;

	if (n - t->base == 1) {
		id = ids[n - 1];
		lo = cp_upper(t, ids, n - 1, cp_key(t, id, by_cpu), by_cpu);
		memmove(ids + lo + 1, ids + lo, (n - 1 - lo) * sizeof(*ids));
		ids[lo] = id;
		return;
	}
	for (i = n / 2; i-- > 0;)
		cp_sift_down(t, ids, n, i, by_cpu);
	for (i = n; i-- > 1;) {
		swap(ids[0], ids[i]);
		cp_sift_down(t, ids, i, 0, by_cpu);
	}
}

/* Do two slabs neighbouring in the sorted index @ids overlap? */
static bool cp_index_overlaps(const struct chainpool_core *core,
			      const struct chainpool_table *t, const u32 *ids,
			      bool by_cpu)
{
	u32 i;

	for (i = 1; i < t->nr_slabs; i++) {
		const struct chainpool_slab *s = &t->slabs[ids[i - 1]];

		if (cp_key(t, ids[i], by_cpu) - cp_key(t, ids[i - 1], by_cpu) <
		    cp_slab_bytes(core, s))
			return true;
	}
	return false;
}

/* May @slab, with its debug @map, join a pool of @core's geometry? */
static bool cp_slab_valid(const struct chainpool_core *core,
			  const struct chainpool_slab *slab,
			  const unsigned long *map)
{
	const struct chainpool_plan *plan = &core->plan;

	if (slab->order < plan->min_order || slab->order >= CHAINPOOL_NR_ORDERS ||
	    ((u64)plan->page_size << slab->order) > CHAINPOOL_MAX_SLAB_BYTES)
		return false;
	return chainpool_plan_slab_fits(plan, slab->order, slab->cpu,
					slab->dma) &&
	       slab->nr_blocks ==
			chainpool_plan_blocks_per_slab(plan, slab->order) &&
	       core->debug == !!map;
}

/**
 * chainpool_core_grow() - add slabs to a pool in one new table
 * @core: pool state
 * @storage: chainpool_core_table_bytes(@max_slabs, debug) bytes, aligned
 *	for pointers (any kmalloc() or malloc() result is)
 * @max_slabs: capacity of @storage: the pool's slabs and the new ones
 * @add: the slabs to add, in the order carving is to take them
 * @old_table: set on success to the table replaced (NULL for the first),
 *	which the caller frees once no lock-free reader can still be in it
 *
 * Copies the pool's table into @storage, appends the slabs of @add,
 * sorts the indexes and checks that no two slabs overlap, then publishes
 * the new table with release semantics (in the kernel:
 * rcu_assign_pointer()), so a lock-free reader sees the old table or the
 * new one, each complete, and the new blocks become allocatable.  Under
 * the caller's lock.  A fill adds all its slabs in one call, so it
 * copies the table once, not once a slab: O(slabs) for one new slab,
 * O(slabs log slabs) for more.
 *
 * Return: 0; -ENOSPC when @max_slabs is too few (the pool grew since
 * @storage was sized: size it again); -EINVAL when a slab does not fit
 * the layout, or lacks its debug map or has one without debug; -EEXIST
 * when two slabs overlap; -EINVAL too for an empty @add.  On error the
 * pool is unchanged and @storage is the caller's.
 */
int chainpool_core_grow(struct chainpool_core *core, void *storage,
			u32 max_slabs, const struct chainpool_new_slab *add,
			struct chainpool_table **old_table)
{
	struct chainpool_table *from = CP_TABLE(core->table), *t;
	u32 n = from ? from->nr_slabs : 0, count = 0;
	const struct chainpool_new_slab *p;

	for (p = add; p; p = p->next, count++)
		if (!cp_slab_valid(core, &p->slab, p->map))
			return -EINVAL;
	if (!count)
		return -EINVAL;
	if (!storage || max_slabs < n || max_slabs - n < count)
		return -ENOSPC;
	t = cp_table_init(storage, max_slabs, core->debug);
	if (n) {
		memcpy(t->slabs, from->slabs, n * sizeof(*t->slabs));
		memcpy(t->by_dma, from->by_dma, n * sizeof(*t->by_dma));
	}
	if (n && core->debug) {
		memcpy(t->by_cpu, from->by_cpu, n * sizeof(*t->by_cpu));
		memcpy(t->maps, from->maps, n * sizeof(*t->maps));
	}
	t->base = n;
	for (p = add; p; p = p->next, n++) {
		t->slabs[n] = p->slab;
		t->by_dma[n] = n;
		if (core->debug) {
			t->by_cpu[n] = n;
			t->maps[n] = p->map;
		}
	}
	t->nr_slabs = n;
	cp_sort_index(t, t->by_dma, false);
	if (cp_index_overlaps(core, t, t->by_dma, false))
		return -EEXIST;
	if (core->debug) {
		cp_sort_index(t, t->by_cpu, true);
		if (cp_index_overlaps(core, t, t->by_cpu, true))
			return -EEXIST;
	}
	*old_table = from;
	CP_PUBLISH(core->table, t);
	return 0;
}

/**
 * chainpool_core_virt_to_dma() - DMA address of the block at a CPU address
 * @core: pool state, with debug (only a debug pool keeps the CPU address
 *	index this needs)
 * @vaddr: CPU address
 * @dma: set to the DMA address on success
 *
 * O(log slabs).
 *
 * Return: 0; -EFAULT when @vaddr is not the start of a block of this
 * pool; -EOPNOTSUPP when the pool does not debug.
 */
CP_TESTABLE
int chainpool_core_virt_to_dma(const struct chainpool_core *core,
			       const void *vaddr, dma_addr_t *dma)
{
	const struct chainpool_table *t = CP_TABLE(core->table);
	uintptr_t cpu = (uintptr_t)vaddr;
	const struct chainpool_slab *slab;
	u32 pos, offset, index;

	if (!core->debug)
		return -EOPNOTSUPP;
	pos = t ? cp_upper(t, t->by_cpu, t->nr_slabs, cpu, true) : 0;
	if (!pos)
		return -EFAULT;
	slab = &t->slabs[t->by_cpu[pos - 1]];
	if (cpu - (uintptr_t)slab->cpu >= cp_slab_bytes(core, slab))
		return -EFAULT;
	offset = (u32)(cpu - (uintptr_t)slab->cpu);
	if (chainpool_plan_offset_to_index(&core->plan, slab->order, offset,
					   &index))
		return -EFAULT;
	*dma = slab->dma + offset;
	return 0;
}

/* Slab id and block index of the block starting at @dma, or -1. */
static int cp_block_of(const struct chainpool_core *core,
		       const struct chainpool_table *t, dma_addr_t dma,
		       u32 *index)
{
	int id = cp_find_dma(core, t, dma);

	if (id < 0 ||
	    chainpool_plan_offset_to_index(&core->plan, t->slabs[id].order,
					   (u32)(dma - t->slabs[id].dma), index))
		return -1;
	return id;
}

/* Bytes after the link must still carry the free poison. */
static bool cp_poison_intact(const struct chainpool_core *core,
			     const u8 *block)
{
	u32 i;

	for (i = CHAINPOOL_LINK_BYTES; i < core->plan.footprint; i++)
		if (block[i] != CHAINPOOL_POISON_FREED)
			return false;
	return true;
}

/* Move the bump cursor; carve_pos is read without the lock. */
static void cp_set_carve(struct chainpool_core *core, u32 slab, u32 next)
{
	CP_WRITE_ONCE(core->carve_pos, (u64)slab << 32 | next);
}

/*
 * The slab the bump cursor carves from next, past used-up ones, and in
 * *@id and *@next the cursor; or NULL.
 */
static const struct chainpool_slab *cp_carve_slab(struct chainpool_core *core,
						  u32 *id, u32 *next)
{
	const struct chainpool_table *t = CP_TABLE(core->table);
	u32 n = cp_nr_slabs(core);

	*id = upper_32_bits(core->carve_pos);
	*next = lower_32_bits(core->carve_pos);
	while (*id < n && *next == t->slabs[*id].nr_blocks) {
		*next = 0;
		cp_set_carve(core, ++*id, 0);
	}
	return *id < n ? &t->slabs[*id] : NULL;
}

/*
 * With debug: may a free link point at @ptr?  Only at the start of a block
 * of this pool that is not in use; anything else is a corrupted link.
 */
static bool cp_free_target_ok(const struct chainpool_core *core,
			      const void *ptr)
{
	const struct chainpool_table *t = CP_TABLE(core->table);
	dma_addr_t dma;
	u32 index;
	int id;

	if (chainpool_core_virt_to_dma(core, ptr, &dma))
		return false;
	id = cp_block_of(core, t, dma, &index);
	return id >= 0 && !test_bit(index, t->maps[id]);
}

/* chainpool_core_alloc() without the reservation check. */
static int cp_alloc_one(struct chainpool_core *core, unsigned int flags,
			void **vaddr, dma_addr_t *dma)
{
	const struct chainpool_table *t = CP_TABLE(core->table);
	const struct chainpool_slab *slab = NULL;
	dma_addr_t block_dma;
	u32 index = 0;
	void *block;
	int id = -1;
	int ret = 0;

	if (core->free_head) {
		struct chainpool_free_link *link = core->free_head;
		struct chainpool_free_link *next = link->next;

		block = link;
		block_dma = link->dma;
		if (core->debug) {
			/*
			 * The head was checked before it became the head; its
			 * link is block memory a stray write may have hit.
			 * Take the DMA address from the slab table, and cut
			 * the list rather than follow a bad next link.
			 */
			if (chainpool_core_virt_to_dma(core, block, &block_dma)) {
				core->free_head = NULL;
				return -EFAULT;
			}
			if (block_dma != link->dma || !cp_poison_intact(core, block))
				ret = -EIO;
			if (next && !cp_free_target_ok(core, next)) {
				next = NULL;
				ret = -EIO;
			}
			id = cp_block_of(core, t, block_dma, &index);
		}
		core->free_head = next;
	} else {
		u32 carve_id;

		slab = cp_carve_slab(core, &carve_id, &index);
		if (!slab)
			return -ENOMEM;
		id = carve_id;
		cp_set_carve(core, carve_id, index + 1);
		block_dma = slab->dma + chainpool_plan_block_offset(&core->plan,
								    slab->order,
								    index);
		block = (u8 *)slab->cpu + (u32)(block_dma - slab->dma);
	}

	if (core->debug) {
		/* A corrupted link may point anywhere; do not trust it. */
		if (id < 0 || (u8 *)t->slabs[id].cpu +
			      (u32)(block_dma - t->slabs[id].dma) != block)
			ret = -EIO;
		else
			__set_bit(index, t->maps[id]);
	}
	if (flags & CHAINPOOL_ALLOC_ZERO)
		memset(block, 0, core->plan.size);
	else if (core->debug)
		memset(block, CHAINPOOL_POISON_ALLOCATED, core->plan.size);

	core->nr_in_use++;
	*vaddr = block;
	*dma = block_dma;
	return ret;
}

/**
 * chainpool_core_alloc() - take one block
 * @core: pool state
 * @flags: CHAINPOOL_ALLOC_ZERO to get a zeroed block
 * @vaddr: set to the block's CPU address
 * @dma: set to the block's DMA address
 *
 * O(1): the most recently freed block, else the next never-used one.
 * A debug pool fills the block with CHAINPOOL_POISON_ALLOCATED unless
 * zeroing was asked for.
 *
 * A debug pool never follows a free link it has not checked: a block's
 * link must name the block's own DMA address and point at a free block of
 * the pool, else the rest of the free list is dropped (those blocks are
 * lost to the pool, not handed out twice) and nothing is written through
 * the bad link.
 *
 * Blocks reserved by bulk allocations under way are not taken.
 *
 * Return: 0; -ENOMEM when the pool is empty, or the free blocks left are
 * reserved (add a slab and retry); -EIO
 * when debugging found the poison or the link of a freed block
 * overwritten, in which case the block is still handed out, as dma_pool
 * does, and the caller reports the corruption; -EFAULT (debug only, not
 * expected) when the free list's head is not a block of the pool: the
 * list is dropped, nothing is handed out, and a retry carves a new block.
 */
int chainpool_core_alloc(struct chainpool_core *core, unsigned int flags,
			 void **vaddr, dma_addr_t *dma)
{
	if (core->nr_reserved &&
	    cp_nr_blocks(core) - core->nr_in_use <= core->nr_reserved)
		return -ENOMEM;
	return cp_alloc_one(core, flags, vaddr, dma);
}

/**
 * chainpool_core_free() - give a block back
 * @core: pool state
 * @vaddr: CPU address from chainpool_core_alloc()
 * @dma: DMA address from chainpool_core_alloc()
 *
 * O(1).  A debug pool first checks, in O(log slabs), that @dma starts a
 * block of this pool whose CPU address is @vaddr and that the block is in
 * use, then poisons it.  Without debug nothing is checked, as in dma_pool.
 *
 * Return: 0; with debug, -EFAULT when @dma is not a block of this pool,
 * -EINVAL when @vaddr does not match @dma, -EALREADY when the block is not
 * in use (double free).  On error the pool is left unchanged.
 */
int chainpool_core_free(struct chainpool_core *core, void *vaddr,
			dma_addr_t dma)
{
	struct chainpool_free_link *link = vaddr;

	if (core->debug) {
		const struct chainpool_table *t = CP_TABLE(core->table);
		u32 index;
		int id;

		id = cp_block_of(core, t, dma, &index);
		if (id < 0)
			return -EFAULT;
		if ((u8 *)t->slabs[id].cpu + (u32)(dma - t->slabs[id].dma) !=
		    vaddr)
			return -EINVAL;
		if (!test_bit(index, t->maps[id]))
			return -EALREADY;
		__clear_bit(index, t->maps[id]);
		memset(vaddr, CHAINPOOL_POISON_FREED, core->plan.footprint);
	}

	link->next = core->free_head;
	link->dma = dma;
	core->free_head = link;
	core->nr_in_use--;
	return 0;
}

/**
 * chainpool_core_batch() - blocks per hold of the caller's lock
 * @core: pool state
 *
 * Bulk allocations and whole-pool releases work through at most this
 * many blocks per call, so that the caller can drop its lock (in the
 * kernel: let interrupts in) between calls: CHAINPOOL_BATCH_BLOCKS, or
 * as many as span CHAINPOOL_BATCH_BYTES, at least one.
 *
 * Return: the batch size in blocks.
 */
u32 chainpool_core_batch(const struct chainpool_core *core)
{
	u32 n = CHAINPOOL_BATCH_BYTES / core->plan.stride;

	if (n > CHAINPOOL_BATCH_BLOCKS)
		n = CHAINPOOL_BATCH_BLOCKS;
	return n ? n : 1;
}

/**
 * chainpool_core_reserve() - set free blocks aside for a bulk allocation
 * @core: pool state
 * @count: blocks to set aside
 *
 * O(1).  Reserved blocks are counted, not picked: chainpool_core_alloc()
 * leaves as many free blocks as are reserved, and
 * chainpool_core_alloc_reserved() hands them out, batch by batch, whatever
 * single allocations and frees run between the batches.
 *
 * Return: 0; -ENOMEM when fewer than @count free blocks are not reserved
 * already (nothing is reserved: add slabs and retry).
 */
int chainpool_core_reserve(struct chainpool_core *core, u32 count)
{
	u64 in_use = (u64)core->nr_in_use + core->nr_reserved;
	u64 nr_blocks = cp_nr_blocks(core);

	if (in_use > nr_blocks || nr_blocks - in_use < count)
		return -ENOMEM;
	core->nr_reserved += count;
	return 0;
}

/**
 * chainpool_core_unreserve() - give back reserved blocks not handed out
 * @core: pool state
 * @count: reserved blocks to give back
 */
void chainpool_core_unreserve(struct chainpool_core *core, u32 count)
{
	if (count > core->nr_reserved)
		count = core->nr_reserved;
	core->nr_reserved -= count;
}

/**
 * chainpool_core_alloc_reserved() - hand out reserved blocks
 * @core: pool state
 * @index: index of the first block for @fn; advanced by the blocks handed out
 * @count: blocks to hand out, at most those still reserved
 * @flags: CHAINPOOL_ALLOC_ZERO to get zeroed blocks
 * @fn: called once per block, in order, with its CPU and DMA address
 * @ctx: passed to @fn
 *
 * Freed blocks first, through chainpool_core_alloc()'s path (as every
 * block of a debug pool), then blocks never used, carved slab by slab
 * with a running offset, without a per-block call.  Each block handed out
 * leaves the reservation.
 *
 * Return: 0; -EIO when debugging found freed blocks overwritten (every
 * block is still handed out, as by chainpool_core_alloc()); -ENOMEM when
 * the pool ran short after all, which only a debug pool that dropped a
 * corrupted free list, or a count a double free broke, can: the blocks
 * handed out stay in use, the caller unreserves the rest.
 */
int chainpool_core_alloc_reserved(struct chainpool_core *core, u32 *index,
				  u32 count, unsigned int flags,
				  chainpool_bulk_fn fn, void *ctx)
{
	const struct chainpool_plan *plan = &core->plan;
	u32 i = *index, end;
	int ret = 0;

	if (count > core->nr_reserved)
		count = core->nr_reserved;
	end = i + count;
	while (i < end && (core->free_head || core->debug)) {
		void *vaddr;
		dma_addr_t dma;
		int r = cp_alloc_one(core, flags, &vaddr, &dma);

		if (r == -EFAULT)
			continue;	/* the list was dropped: carve */
		if (r == -ENOMEM)
			goto out;
		if (r)
			ret = r;
		core->nr_reserved--;
		fn(ctx, i++, vaddr, dma);
	}
	while (i < end) {
		const struct chainpool_slab *slab;
		u32 per_segment, segment, take, slot, offset, k, id, next;

		slab = cp_carve_slab(core, &id, &next);
		if (!slab) {
			ret = -ENOMEM;
			goto out;
		}
		per_segment = chainpool_plan_blocks_per_segment(plan,
								slab->order);
		segment = chainpool_plan_segment(plan, slab->order);
		take = slab->nr_blocks - next;
		if (take > end - i)
			take = end - i;
		slot = next % per_segment;
		offset = chainpool_plan_block_offset(plan, slab->order, next);
		for (k = 0; k < take; k++) {
			u8 *block = (u8 *)slab->cpu + offset;

			if (flags & CHAINPOOL_ALLOC_ZERO)
				memset(block, 0, plan->size);
			fn(ctx, i++, block, slab->dma + offset);
			if (++slot == per_segment) {
				slot = 0;
				offset += segment - offset % segment;
			} else {
				offset += plan->stride;
			}
		}
		core->nr_in_use += take;
		core->nr_reserved -= take;
		cp_set_carve(core, id, next + take);
	}
out:
	*index = i;
	return ret;
}

#ifdef CHAINPOOL_TESTING
/**
 * chainpool_core_alloc_bulk() - take many blocks in one pass
 * @core: pool state
 * @count: blocks wanted
 * @flags: CHAINPOOL_ALLOC_ZERO to get zeroed blocks
 * @fn: called once per block, in order, with its CPU and DMA address
 * @ctx: passed to @fn
 *
 * chainpool_core_reserve() and chainpool_core_alloc_reserved() of every
 * block in one call, for a caller that need not bound its lock holds
 * (the user-space tests and bench/core).  All or nothing: when the pool
 * holds fewer than @count free blocks, nothing is taken.
 *
 * Return: 0; -ENOMEM when fewer than @count blocks are free (add slabs
 * and retry); -EIO as chainpool_core_alloc_reserved().  With debug, a
 * dropped corrupted free list can still make the pool run short half
 * way: -ENOMEM, and the blocks already handed out stay in use.
 */
int chainpool_core_alloc_bulk(struct chainpool_core *core, u32 count,
			      unsigned int flags, chainpool_bulk_fn fn,
			      void *ctx)
{
	u32 index = 0;
	int ret;

	ret = chainpool_core_reserve(core, count);
	if (ret)
		return ret;
	ret = chainpool_core_alloc_reserved(core, &index, count, flags, fn,
					    ctx);
	if (ret == -ENOMEM)
		chainpool_core_unreserve(core, count - index);
	return ret;
}
#endif

/**
 * chainpool_core_release_begin() - start a whole-pool release
 * @rel: the release's progress, set up here
 *
 * A whole-pool release is for a caller that holds every block in use and
 * is done with all of them (the driver's chain pool at detach):
 * chainpool_core_release_begin(), chainpool_core_release_step() until it
 * returns false, then chainpool_core_release_end(), each of them under
 * the caller's lock, which may be dropped in between.  Without debug the
 * steps have nothing to do and the release is O(1).
 */
void chainpool_core_release_begin(struct chainpool_release *rel)
{
	memset(rel, 0, sizeof(*rel));
}

/*
 * Poison @count blocks of @slab from block @first on as freed: one memset
 * per segment they span, padding between them included.
 */
static void cp_poison_blocks(const struct chainpool_core *core,
			     const struct chainpool_slab *slab, u32 first,
			     u32 count)
{
	const struct chainpool_plan *plan = &core->plan;
	u32 per_segment = chainpool_plan_blocks_per_segment(plan, slab->order);

	while (count) {
		u32 n = per_segment - first % per_segment;

		if (n > count)
			n = count;
		memset((u8 *)slab->cpu +
		       chainpool_plan_block_offset(plan, slab->order, first),
		       CHAINPOOL_POISON_FREED,
		       (n - 1) * plan->stride + plan->footprint);
		first += n;
		count -= n;
	}
}

/**
 * chainpool_core_release_step() - release a batch of blocks of a debug pool
 * @core: pool state
 * @rel: the release's progress
 *
 * Goes over at most chainpool_core_batch() blocks of the in-use maps, in
 * slab order: counts the blocks in use, poisons them as freed and clears
 * their bits.  Free blocks are left as they are: they carry the free
 * poison already, and their links, which a single allocation between
 * steps may still follow.  A released block is not found by lookups any
 * more and cannot be freed again.
 *
 * Return: true while blocks remain to go over; always false without debug.
 */
bool chainpool_core_release_step(struct chainpool_core *core,
				 struct chainpool_release *rel)
{
	const struct chainpool_table *t = CP_TABLE(core->table);
	u32 batch = chainpool_core_batch(core), left = batch;

	while (core->debug && left && rel->slab < cp_nr_slabs(core)) {
		const struct chainpool_slab *slab = &t->slabs[rel->slab];
		unsigned long *map = t->maps[rel->slab];
		u32 end = slab->nr_blocks, i = rel->next;

		if (end - i > left)
			end = i + left;
		while (i < end) {
			unsigned long *word = &map[i / BITS_PER_LONG];

			/* A whole word at once: none in use, or all. */
			if (!(i % BITS_PER_LONG) && end - i >= BITS_PER_LONG &&
			    (!*word || !~*word)) {
				if (*word)
					cp_poison_blocks(core, slab, i,
							 BITS_PER_LONG);
				rel->marked += *word ? BITS_PER_LONG : 0;
				*word = 0;
				i += BITS_PER_LONG;
				continue;
			}
			if (test_bit(i, map)) {
				__clear_bit(i, map);
				rel->marked++;
				cp_poison_blocks(core, slab, i, 1);
			}
			i++;
		}
		left -= end - rel->next;
		rel->next = end;
		if (end == slab->nr_blocks) {
			rel->slab++;
			rel->next = 0;
		}
	}
	rel->stepped = batch - left;
	return core->debug && rel->slab < cp_nr_slabs(core);
}

/**
 * chainpool_core_release_end() - end a whole-pool release
 * @core: pool state
 * @rel: the release's progress, its steps done
 *
 * O(1): drops the free list and rewinds the bump cursor, so the pool is
 * as if just filled and hands the same blocks out again.
 *
 * Return: 0; with debug, -EIO when the in-use maps did not add up to the
 * blocks in use (the pool is released all the same).
 */
int chainpool_core_release_end(struct chainpool_core *core,
			       struct chainpool_release *rel)
{
	u32 in_use = core->nr_in_use;

	core->free_head = NULL;
	cp_set_carve(core, 0, 0);
	core->nr_in_use = 0;
	return core->debug && rel->marked != in_use ? -EIO : 0;
}

#ifdef CHAINPOOL_TESTING
/**
 * chainpool_core_release_all() - give back every block at once
 * @core: pool state
 *
 * The whole release (see chainpool_core_release_begin()) in one call, for
 * a caller that need not bound its lock holds.  O(1) without debug; a
 * debug pool checks, clears and poisons in O(blocks).
 *
 * Return: 0; with debug, -EIO when the in-use maps did not add up to the
 * blocks in use (the pool is released all the same).
 */
int chainpool_core_release_all(struct chainpool_core *core)
{
	struct chainpool_release rel;

	chainpool_core_release_begin(&rel);
	while (chainpool_core_release_step(core, &rel))
		;
	return chainpool_core_release_end(core, &rel);
}
#endif

/**
 * chainpool_core_lookup() - CPU address of a handed-out block
 * @core: pool state; only its geometry and cursor are read
 * @table: the pool's slab table, taken under the lock or, lock-free, under
 *	rcu_read_lock() from rcu_dereference(core->table); may be NULL
 * @dma: DMA address
 *
 * O(log slabs).  Finds only blocks the pool has handed out: carved before
 * the cursor and, with debug, in use now.  Without debug, a block freed
 * one by one is still found: the pool does not track it.  A table older
 * than the cursor is fine: the cursor only names slabs carving reached,
 * and every slab of the table is there.
 *
 * Return: the CPU address, or NULL when @dma is not the start of such a
 * block.
 */
void *chainpool_core_lookup(const struct chainpool_core *core,
			    const struct chainpool_table *table,
			    dma_addr_t dma)
{
	const struct chainpool_slab *slab;
	u32 offset, index;
	int id = -1;

	if (table)
		id = cp_find_dma(core, table, dma);
	if (id < 0)
		return NULL;
	slab = &table->slabs[id];
	offset = (u32)(dma - slab->dma);
	if (chainpool_plan_offset_to_index(&core->plan, slab->order, offset,
					   &index))
		return NULL;
	if (((u64)id << 32 | index) >= CP_READ_ONCE(core->carve_pos))
		return NULL;
	if (core->debug && !test_bit(index, table->maps[id]))
		return NULL;
	return (u8 *)slab->cpu + offset;
}

#ifdef CHAINPOOL_TESTING
/**
 * chainpool_core_dma_to_virt() - CPU address of a handed-out block
 * @core: pool state
 * @dma: DMA address
 *
 * chainpool_core_lookup() in the pool's current table, for a caller that
 * holds the lock.
 *
 * Return: the CPU address, or NULL.
 */
void *chainpool_core_dma_to_virt(const struct chainpool_core *core,
				 dma_addr_t dma)
{
	return chainpool_core_lookup(core, CP_TABLE(core->table), dma);
}
#endif

/**
 * chainpool_core_get_stats() - snapshot of the pool's counters
 * @core: pool state
 * @stats: filled in
 */
void chainpool_core_get_stats(const struct chainpool_core *core,
			      struct chainpool_core_stats *stats)
{
	const struct chainpool_table *t = CP_TABLE(core->table);
	u32 i;

	memset(stats, 0, sizeof(*stats));
	stats->blocks_in_use = core->nr_in_use;
	if (!t)
		return;
	stats->nr_slabs = t->nr_slabs;
	stats->meta_bytes = chainpool_core_table_bytes(t->max_slabs,
						       core->debug);
	for (i = 0; i < t->nr_slabs; i++) {
		const struct chainpool_slab *slab = &t->slabs[i];

		stats->blocks_total += slab->nr_blocks;
		stats->dma_bytes += cp_slab_bytes(core, slab);
		stats->slabs_by_order[slab->order]++;
		if (core->debug)
			stats->meta_bytes +=
				chainpool_core_map_bytes(&core->plan,
							 slab->order);
	}
}
