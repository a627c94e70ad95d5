/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chainpool: dma_pool's contract for pools of hundreds of thousands of
 * small coherent blocks, such as the mpt3sas chain buffers, with O(1)
 * alloc and free on every kernel, a bulk allocation and a whole-pool
 * release.
 */
#ifndef CHAINPOOL_H
#define CHAINPOOL_H

#include <linux/types.h>

struct chainpool;
struct device;

/* Slab orders counted by struct chainpool_stats. */
#define CHAINPOOL_NR_ORDERS	16

/* A pool's geometry and counters, for logs and debugfs. */
struct chainpool_stats {
	u32 size;
	u32 stride;		/* distance between neighbouring blocks */
	u64 blocks;		/* in all slabs */
	u64 in_use;
	u32 nr_slabs;
	u32 slabs_by_order[CHAINPOOL_NR_ORDERS];	/* the last: and up */
	u64 dma_bytes;
	u32 fallbacks;		/* slabs retried at a smaller order */
	u32 rejected;		/* slabs breaking the layout, given back */
};

/*
 * Receives each block of a bulk allocation, @index counting from 0, under
 * the pool's spinlock: it must only store the addresses.
 */
typedef void (*chainpool_bulk_fn)(void *ctx, u32 index, void *vaddr,
				  dma_addr_t dma);

struct chainpool *chainpool_create(const char *name, struct device *dev,
				   size_t size, size_t align, size_t boundary);
void *chainpool_alloc(struct chainpool *pool, gfp_t gfp, dma_addr_t *dma);
void chainpool_free(struct chainpool *pool, void *vaddr, dma_addr_t dma);
int chainpool_alloc_bulk(struct chainpool *pool, u32 count, gfp_t gfp,
			 chainpool_bulk_fn fn, void *ctx);
void chainpool_release_all(struct chainpool *pool);
void chainpool_get_stats(struct chainpool *pool, struct chainpool_stats *st);
void chainpool_destroy(struct chainpool *pool);

/*
 * Fault injection, for test builds only: the test provides the hook
 * (tests/lib/cp_fault.c in the kernel, the unit tests their own).
 */
enum chainpool_fault_op {
	CHAINPOOL_FAULT_CREATE,		/* a pool creation */
	CHAINPOOL_FAULT_ALLOC,		/* an allocation from a pool */
	CHAINPOOL_FAULT_COHERENT,	/* a driver's dma_alloc_coherent() */
	CHAINPOOL_FAULT_SLAB,		/* a slab, as if memory ran out */
	CHAINPOOL_FAULT_TOP_SLAB,	/* a slab of a pool's largest order */
	CHAINPOOL_FAULT_NR_OPS,
};

#ifdef CHAINPOOL_FAULT_INJECTION
bool chainpool_fault(enum chainpool_fault_op op, const char *name,
		     struct device *dev);
#else
static inline bool chainpool_fault(enum chainpool_fault_op op,
				   const char *name, struct device *dev)
{
	return false;
}
#endif

#endif /* CHAINPOOL_H */
