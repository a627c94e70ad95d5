// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chainpool's slab table: the slabs of a pool with two sorted indexes
 * (by DMA address; by CPU address in debug pools), rebuilt in fresh
 * storage and published whole at each growth, so that a DMA address is
 * looked up lock-free in O(log slabs).
 *
 * Builds in the kernel and in user space, like the rest of the core.
 */
#include "chainpool_core.h"

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

/**
 * chainpool_core_nr_blocks() - blocks in a pool, counted from its table
 * @core: pool state
 *
 * Return: the blocks of every slab; O(slabs).
 */
u64 chainpool_core_nr_blocks(const struct chainpool_core *core)
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

/**
 * chainpool_core_block_of() - the block that starts at a DMA address
 * @core: pool state
 * @t: the pool's slab table, or NULL
 * @dma: DMA address
 * @index: set to the block's index in its slab
 *
 * O(log slabs).
 *
 * Return: the slab's index in @t->slabs, or -1 when @dma does not start a
 * block of the pool.
 */
int chainpool_core_block_of(const struct chainpool_core *core,
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

