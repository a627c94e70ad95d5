/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chainpool: a stand-in for dma_pool for pools of hundreds of thousands of
 * small coherent blocks, such as the mpt3sas chain buffers.
 *
 * Same contract as dma_pool (create, alloc, zalloc, free, destroy), plus a
 * bulk fill, a bulk allocation and a whole-pool release for pools filled
 * and emptied at once, a lock-free O(log slabs) DMA-to-CPU address lookup
 * and statistics.
 */
#ifndef CHAINPOOL_H
#define CHAINPOOL_H

#include <linux/types.h>

#include "chainpool_core.h"

struct chainpool;
struct device;

/**
 * struct chainpool_stats - a pool's geometry and counters
 * @size: block size
 * @stride: distance between neighbouring blocks
 * @align: block alignment
 * @boundary: boundary blocks do not cross, 0 for none
 * @blocks_total: blocks in all slabs
 * @blocks_in_use: blocks allocated and not freed
 * @nr_slabs: number of slabs
 * @slabs_by_order: number of slabs of each order
 * @dma_bytes: coherent memory held
 * @meta_bytes: memory of the slab table and debug maps
 * @create_ns: time chainpool_create() took
 * @fill_ns: time spent in chainpool_fill()
 * @fallbacks: slab allocations retried at a smaller order
 * @rejected: slabs given back because their DMA address broke the layout
 * @injected: slabs failed by fault injection (either knob)
 * @parked: slabs given back in atomic context, so freed later
 * @debug: the pool checks and poisons (chainpool_debug)
 */
struct chainpool_stats {
	u32 size;
	u32 stride;
	u32 align;
	u32 boundary;
	u64 blocks_total;
	u32 blocks_in_use;
	u32 nr_slabs;
	u32 slabs_by_order[CHAINPOOL_NR_ORDERS];
	u64 dma_bytes;
	u64 meta_bytes;
	u64 create_ns;
	u64 fill_ns;
	u32 fallbacks;
	u32 rejected;
	u32 injected;
	u32 parked;
	bool debug;
};

#ifdef CHAINPOOL_TESTING
/**
 * struct chainpool_test_hold - lock holds of one kind, for tests
 * @holds: times the pool lock was taken for it
 * @max_blocks: most blocks handed out or released in one hold
 * @max_ns: longest hold, interrupts off, in ns
 * @sum_ns: all holds, in ns
 */
struct chainpool_test_hold {
	u32 holds;
	u32 max_blocks;
	u64 max_ns;
	u64 sum_ns;
};

/**
 * struct chainpool_test_stats - what only a test build counts
 * @bulk: the holds of chainpool_alloc_bulk() that hand blocks out
 * @release: the holds of chainpool_release_all()
 * @grace_periods: RCU grace periods waited for to free replaced tables
 * @retired_bytes: replaced tables not yet freed
 *
 * Compiled only with CHAINPOOL_TESTING (chainpool_test.ko), never into
 * mpt3sas.ko.
 */
struct chainpool_test_stats {
	struct chainpool_test_hold bulk;
	struct chainpool_test_hold release;
	u32 grace_periods;
	u64 retired_bytes;
};

void chainpool_get_test_stats(struct chainpool *pool,
			      struct chainpool_test_stats *ts);
#endif

struct chainpool *chainpool_create(const char *name, struct device *dev,
				   size_t size, size_t align, size_t boundary);
int chainpool_fill(struct chainpool *pool, unsigned int nr_blocks, gfp_t gfp);
void *chainpool_alloc(struct chainpool *pool, gfp_t gfp, dma_addr_t *dma);
void *chainpool_zalloc(struct chainpool *pool, gfp_t gfp, dma_addr_t *dma);
int chainpool_alloc_bulk(struct chainpool *pool, unsigned int count,
			 gfp_t gfp, chainpool_bulk_fn fn, void *ctx);
void chainpool_free(struct chainpool *pool, void *vaddr, dma_addr_t dma);
int chainpool_release_all(struct chainpool *pool);
void *chainpool_dma_to_virt(struct chainpool *pool, dma_addr_t dma);
void chainpool_get_stats(struct chainpool *pool, struct chainpool_stats *st);
void chainpool_destroy(struct chainpool *pool);
void chainpool_debugfs_exit(void);

#endif /* CHAINPOOL_H */
