/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocator core of chainpool: slab geometry (chainpool_plan.c), the slab
 * table and O(log slabs) DMA address lookup (chainpool_table.c), O(1)
 * block alloc/free (chainpool_core.c).
 *
 * The core never allocates memory and takes no locks.  The caller (the
 * kernel glue in chainpool.c or the user-space unit tests) hands it slab
 * memory and table storage, and serialises all calls on one core.
 */
#ifndef CHAINPOOL_CORE_H
#define CHAINPOOL_CORE_H

#include "chainpool_types.h"

/* Blocks are at least this aligned so a free block can hold its link. */
#define CHAINPOOL_MIN_ALIGN		16U
/* Largest block; keeps every offset inside a slab within 32 bits. */
#define CHAINPOOL_MAX_BLOCK_SIZE	BIT(30)
/* Largest slab, for the same reason. */
#define CHAINPOOL_MAX_SLAB_BYTES	BIT(31)
/* Slab cap used when the caller passes 0. */
#define CHAINPOOL_DEFAULT_SLAB_CAP	(128U << 10)
/* Slab orders are relative to the page size and stay below this. */
#define CHAINPOOL_NR_ORDERS		32

/* Same patterns as mm/dmapool.c, so dumps look familiar. */
#define CHAINPOOL_POISON_FREED		0xa7
#define CHAINPOOL_POISON_ALLOCATED	0xa5

/*
 * Most blocks a bulk allocation hands out, or a whole-pool release goes
 * over, under one hold of the caller's lock (in the kernel: with
 * interrupts off), and fewer when that many would span more than
 * CHAINPOOL_BATCH_BYTES; see chainpool_core_batch().
 */
#define CHAINPOOL_BATCH_BLOCKS		512U
#define CHAINPOOL_BATCH_BYTES		(64U << 10)

/*
 * A free block starts with this link.  Keeping the DMA address in the
 * block lets alloc hand it out without any lookup.
 */
struct chainpool_free_link {
	struct chainpool_free_link *next;
	dma_addr_t dma;
};

#define CHAINPOOL_LINK_BYTES	((u32)sizeof(struct chainpool_free_link))

/* chainpool_core_alloc() flags */
#define CHAINPOOL_ALLOC_ZERO		0x1U

/**
 * struct chainpool_plan - geometry shared by every slab of one pool
 * @size: requested block size in bytes
 * @align: block alignment (power of two, at least CHAINPOOL_MIN_ALIGN)
 * @boundary: blocks do not cross this power of two; 0 means no boundary
 * @page_size: page size of the platform
 * @stride: distance between neighbouring blocks of one segment
 * @footprint: bytes a block really occupies (room for the free link)
 * @page_shift: log2(@page_size)
 * @min_bytes: bytes of a min_order slab: one block in whole pages
 * @min_order: order of the smallest slab that holds one block
 * @max_order: order of the largest slab the pool asks for
 *
 * A slab of order n is page_size << n bytes, except that a min_order slab
 * is @min_bytes, which may be less (no power of two).  It is cut into segments
 * (see chainpool_plan_segment()), and blocks are packed into each segment
 * at multiples of @stride without crossing its end.
 */
struct chainpool_plan {
	u32 size;
	u32 align;
	u32 boundary;
	u32 page_size;
	u32 stride;
	u32 footprint;
	unsigned int page_shift;
	u32 min_bytes;
	unsigned int min_order;
	unsigned int max_order;
};

/**
 * struct chainpool_slab - one physically contiguous coherent buffer
 * @cpu: CPU address returned by the DMA allocator
 * @dma: DMA address returned by the DMA allocator
 * @nr_blocks: blocks in this slab
 * @order: slab size is chainpool_plan_slab_bytes() of @order
 */
struct chainpool_slab {
	void *cpu;
	dma_addr_t dma;
	u32 nr_blocks;
	unsigned int order;
};

/**
 * struct chainpool_table - the slabs of a pool, never changed once published
 * @nr_slabs: slabs in the table
 * @max_slabs: capacity the storage was laid out for
 * @base: slabs taken from the table it replaced; the rest are new
 * @slabs: slabs in the order they were added; carving follows this order
 * @by_dma: indexes into @slabs sorted by DMA address
 * @by_cpu: indexes into @slabs sorted by CPU address; debug pools only
 * @maps: each slab's in-use map, one bit per block; debug pools only
 *
 * Adding slabs builds a new table in fresh storage (chainpool_core_grow())
 * and publishes it with release semantics (in the kernel:
 * rcu_assign_pointer()), so a lock-free reader sees either the old table
 * or the new one, each complete.  The in-use maps are shared between
 * tables; only their bits change.
 */
struct chainpool_table {
	u32 nr_slabs;
	u32 max_slabs;
	u32 base;
	struct chainpool_slab *slabs;
	u32 *by_dma;
	u32 *by_cpu;
	unsigned long **maps;
};

/**
 * struct chainpool_core - state of one pool
 * @plan: geometry
 * @table: the slab table; read under the caller's lock or, by
 *	chainpool_core_lookup() only, lock-free (RCU in the kernel).  The
 *	pool's slab and block counts and its bytes are the table's.
 * @free_head: last freed block; each free block links to the next one
 * @carve_pos: the bump cursor: the slab it carves from << 32 | the next
 *	never-used block of that slab, in one word so that a lock-free
 *	reader (chainpool_core_lookup()) sees a consistent cursor
 * @nr_in_use: blocks handed out and not yet freed
 * @nr_reserved: free blocks promised to bulk allocations under way, which
 *	chainpool_core_alloc() leaves to them
 * @debug: poison freed blocks, check frees against in-use maps
 */
struct chainpool_core {
	struct chainpool_plan plan;
	struct chainpool_table __rcu *table;
	void *free_head;
	u64 carve_pos;
	u32 nr_in_use;
	u32 nr_reserved;
	bool debug;
};

/**
 * struct chainpool_new_slab - a slab for chainpool_core_grow() to add
 * @next: the next slab to add, or NULL
 * @slab: the slab, from chainpool_slab_acquire()
 * @map: with debug, the slab's in-use map of chainpool_core_map_bytes()
 *	zeroed bytes, which the pool owns once the slab is added; else NULL
 *
 * The kernel glue keeps this record in the slab's own first bytes, which
 * nothing else uses until the slab is in the pool.
 */
struct chainpool_new_slab {
	struct chainpool_new_slab *next;
	struct chainpool_slab slab;
	unsigned long *map;
};

/**
 * struct chainpool_core_stats - snapshot for logs and debugfs, counted
 *	from the slab table when asked
 * @blocks_total: blocks in all slabs
 * @blocks_in_use: blocks allocated and not freed
 * @nr_slabs: number of slabs
 * @slabs_by_order: number of slabs of each order
 * @dma_bytes: coherent memory held by the slabs
 * @meta_bytes: slab table and debug maps
 */
struct chainpool_core_stats {
	u64 blocks_total;
	u32 blocks_in_use;
	u32 nr_slabs;
	u32 slabs_by_order[CHAINPOOL_NR_ORDERS];
	u64 dma_bytes;
	u64 meta_bytes;
};

/**
 * typedef chainpool_bulk_fn - receives each block of a bulk allocation
 * @ctx: the caller's context
 * @index: 0 for the first block handed out, up to the count asked for - 1
 * @vaddr: the block's CPU address
 * @dma: the block's DMA address
 *
 * Called with the pool's lock held (in the kernel: a spinlock, interrupts
 * off), which the kernel glue drops and retakes between batches of
 * blocks: it must only store the addresses, not sleep or call the pool.
 */
typedef void (*chainpool_bulk_fn)(void *ctx, u32 index, void *vaddr,
				  dma_addr_t dma);

/**
 * struct chainpool_release - a whole-pool release under way
 * @slab: next slab whose in-use map chainpool_core_release_step() reads
 * @next: next block of @slab
 * @marked: in-use bits found so far
 * @stepped: blocks the last step went over
 */
struct chainpool_release {
	u32 slab;
	u32 next;
	u64 marked;
	u32 stepped;
};

/**
 * struct chainpool_fault - fault injection of chainpool_slab_acquire()
 * @fail_at: fail the Nth slab acquisition, counting from 1; 0 never
 * @fail_max_order: fail every slab of the largest order, so the pool is
 *	built from smaller ones; ignored by a plan with one order
 * @count: slab acquisitions so far that @fail_at counts
 * @injected: slabs failed on purpose, by either rule
 *
 * The one hook: a slab allocated and fitting the layout is given back,
 * as if it broke the layout (@fail_max_order: the next order is tried)
 * or as if memory ran out (@fail_at).  Freeing what was allocated
 * exercises the paths that give slabs back.
 */
struct chainpool_fault {
	u32 fail_at;
	bool fail_max_order;
	u32 count;
	u32 injected;
};

/**
 * struct chainpool_slab_ops - how chainpool_slab_acquire() gets memory
 * @alloc: return the CPU address of @bytes of coherent memory and its DMA
 *	address in *@dma, or NULL.  @nowarn: the caller can fall back, so
 *	the allocator should not warn on failure.
 * @free: give back memory returned by @alloc
 */
struct chainpool_slab_ops {
	void *(*alloc)(void *ctx, u32 bytes, bool nowarn, dma_addr_t *dma);
	void (*free)(void *ctx, u32 bytes, void *cpu, dma_addr_t dma);
};

/**
 * struct chainpool_acquire_stats - what chainpool_slab_acquire() went through
 * @fallbacks: times it moved on to a smaller order
 * @rejected: slabs freed again because their DMA address broke the layout
 */
struct chainpool_acquire_stats {
	u32 fallbacks;
	u32 rejected;
};

/*
 * Block geometry, static inline: the alloc, bulk and lookup paths run it
 * for every block, where a call into another object costs more than the
 * arithmetic.
 */
/**
 * chainpool_plan_slab_bytes() - size of a slab of a given order
 * @plan: geometry
 * @order: slab order
 *
 * Return: @plan->min_bytes for min_order, else page_size << @order.
 */
static inline u32 chainpool_plan_slab_bytes(const struct chainpool_plan *plan,
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
static inline u32 chainpool_plan_segment(const struct chainpool_plan *plan,
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
static inline u32 chainpool_plan_blocks_per_segment(const struct chainpool_plan *plan,
						    unsigned int order)
{
	u32 segment = chainpool_plan_segment(plan, order);

	if (segment < plan->footprint)
		return 0;
	return (segment - plan->footprint) / plan->stride + 1;
}

/**
 * chainpool_plan_block_offset() - byte offset of a block inside its slab
 * @plan: geometry
 * @order: slab order
 * @index: block index inside the slab, below the slab's block count
 *
 * Return: offset of the block's first byte from the slab start.
 */
static inline u32 chainpool_plan_block_offset(const struct chainpool_plan *plan,
					      unsigned int order, u32 index)
{
	u32 per_segment, segment;

	/*
	 * A power-of-two stride fills every segment to its end (a segment
	 * is a power of two no smaller than the stride, or a slab's only
	 * one): no gaps, so no division on the carve path.
	 */
	if (is_power_of_2(plan->stride))
		return index * plan->stride;
	per_segment = chainpool_plan_blocks_per_segment(plan, order);
	segment = chainpool_plan_segment(plan, order);
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
static inline int chainpool_plan_offset_to_index(const struct chainpool_plan *plan,
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

/* chainpool_plan.c: geometry, and getting one slab */
int chainpool_plan_init(struct chainpool_plan *plan, size_t size, size_t align,
			size_t boundary, u32 page_size, u64 slab_cap);
u32 chainpool_plan_blocks_per_slab(const struct chainpool_plan *plan,
				   unsigned int order);
unsigned int chainpool_plan_order_for(const struct chainpool_plan *plan,
				      u64 nr_blocks);
bool chainpool_plan_slab_fits(const struct chainpool_plan *plan,
			      unsigned int order, const void *cpu,
			      dma_addr_t dma);
int chainpool_slab_acquire(const struct chainpool_plan *plan,
			   unsigned int start_order,
			   const struct chainpool_slab_ops *ops, void *ctx,
			   struct chainpool_fault *fault,
			   struct chainpool_acquire_stats *stats,
			   struct chainpool_slab *slab);

/* chainpool_table.c: the slab table, growth, lookups and stats */
size_t chainpool_core_table_bytes(u32 max_slabs, bool debug);
size_t chainpool_core_map_bytes(const struct chainpool_plan *plan,
				unsigned int order);
int chainpool_core_grow(struct chainpool_core *core, void *storage,
			u32 max_slabs, const struct chainpool_new_slab *add,
			struct chainpool_table **old_table);
const struct chainpool_table *
chainpool_core_table(const struct chainpool_core *core);
u64 chainpool_core_nr_blocks(const struct chainpool_core *core);
int chainpool_core_block_of(const struct chainpool_core *core,
			    const struct chainpool_table *t, dma_addr_t dma,
			    u32 *index);
int chainpool_core_virt_to_dma(const struct chainpool_core *core,
			       const void *vaddr, dma_addr_t *dma);
void *chainpool_core_lookup(const struct chainpool_core *core,
			    const struct chainpool_table *table,
			    dma_addr_t dma);
void chainpool_core_get_stats(const struct chainpool_core *core,
			      struct chainpool_core_stats *stats);

/* chainpool_core.c: the blocks */
void chainpool_core_init(struct chainpool_core *core,
			 const struct chainpool_plan *plan, bool debug);
int chainpool_core_alloc(struct chainpool_core *core, unsigned int flags,
			 void **vaddr, dma_addr_t *dma);
u32 chainpool_core_batch(const struct chainpool_core *core);
int chainpool_core_reserve(struct chainpool_core *core, u32 count);
void chainpool_core_unreserve(struct chainpool_core *core, u32 count);
int chainpool_core_alloc_reserved(struct chainpool_core *core, u32 *index,
				  u32 count, unsigned int flags,
				  chainpool_bulk_fn fn, void *ctx);
int chainpool_core_free(struct chainpool_core *core, void *vaddr,
			dma_addr_t dma);
void chainpool_core_release_begin(struct chainpool_release *rel);
bool chainpool_core_release_step(struct chainpool_core *core,
				 struct chainpool_release *rel);
int chainpool_core_release_end(struct chainpool_core *core,
			       struct chainpool_release *rel);

/*
 * Test hooks: built only with CHAINPOOL_TESTING (the unit tests,
 * bench/core and chainpool_test.ko), never into mpt3sas.ko.
 */
#ifdef CHAINPOOL_TESTING
int chainpool_core_alloc_bulk(struct chainpool_core *core, u32 count,
			      unsigned int flags, chainpool_bulk_fn fn,
			      void *ctx);
int chainpool_core_release_all(struct chainpool_core *core);
void *chainpool_core_dma_to_virt(const struct chainpool_core *core,
				 dma_addr_t dma);
#endif

#endif /* CHAINPOOL_CORE_H */
