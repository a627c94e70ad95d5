// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Allocator core of chainpool: the blocks.
 *
 * Replaces dma_pool for pools of hundreds of thousands of small blocks.
 * Memory comes in large, power-of-two, naturally aligned slabs
 * (chainpool_plan.c) listed in a slab table (chainpool_table.c).  Blocks
 * that were never used are carved from the slabs in order with a bump
 * cursor, freed blocks are kept on a list linked through the blocks
 * themselves (as mm/dmapool.c does since 6.4), so alloc and free are O(1)
 * and filling or destroying a pool costs O(slabs), not O(blocks).
 *
 * Builds in the kernel and in user space: no allocation, no locking, no
 * virt_to_page().
 */
#include "chainpool_core.h"

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

/* Slabs in the pool: those of its table. */
static u32 cp_nr_slabs(const struct chainpool_core *core)
{
	const struct chainpool_table *t = CP_TABLE(core->table);

	return t ? t->nr_slabs : 0;
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
 * *@id and *@next the cursor; or NULL.  Locals, not the out parameters,
 * in the loop: they could alias the pool, which would cost a load and a
 * store per test.
 */
static const struct chainpool_slab *cp_carve_slab(struct chainpool_core *core,
						  u32 *id, u32 *next)
{
	const struct chainpool_table *t = CP_TABLE(core->table);
	u32 slab = upper_32_bits(core->carve_pos);
	u32 index = lower_32_bits(core->carve_pos);

	if (!t)
		return NULL;
	while (slab < t->nr_slabs && index == t->slabs[slab].nr_blocks) {
		slab++;
		index = 0;
	}
	if (slab == t->nr_slabs)
		return NULL;
	*id = slab;
	*next = index;
	return &t->slabs[slab];
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
	id = chainpool_core_block_of(core, t, dma, &index);
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
			id = chainpool_core_block_of(core, t, block_dma, &index);
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

/* cp_alloc_one(), unless the free blocks left are reserved. */
static noinline int cp_alloc_unreserved(struct chainpool_core *core,
					unsigned int flags, void **vaddr,
					dma_addr_t *dma)
{
	if (chainpool_core_nr_blocks(core) - core->nr_in_use <= core->nr_reserved)
		return -ENOMEM;
	return cp_alloc_one(core, flags, vaddr, dma);
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
	/*
	 * Counting the pool's blocks out of line leaves the common case a
	 * tail call that saves no register.
	 */
	if (core->nr_reserved)
		return cp_alloc_unreserved(core, flags, vaddr, dma);
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

		id = chainpool_core_block_of(core, t, dma, &index);
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
	u64 nr_blocks = chainpool_core_nr_blocks(core);

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

