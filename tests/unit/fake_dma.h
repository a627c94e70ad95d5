/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fake coherent DMA allocator for the chainpool unit tests: real CPU
 * memory from aligned_alloc() and a synthetic DMA address space the test
 * controls, so slabs can be placed around 4 GiB or at odd addresses.
 */
#ifndef FAKE_DMA_H
#define FAKE_DMA_H

#include "chainpool_core.h"

struct fake_dma {
	u64 next_dma;		/* bump cursor of the synthetic DMA space */
	u64 skew;		/* added to every naturally aligned address */
	u32 max_bytes;		/* refuse larger allocations; 0: no limit */
	const u64 *script;	/* if set, DMA addresses handed out in turn */
	size_t script_len;
	size_t script_pos;
	u32 fail_call;		/* fail this 1-based call; 0: never */
	u32 calls;
	u32 refused;
	u32 warned_allocs;	/* calls made without nowarn */
	u64 live;
	u64 live_bytes;
	u64 allocs;
	u64 frees;
};

extern const struct chainpool_slab_ops fake_dma_ops;

void fake_dma_init(struct fake_dma *fd, u64 base);

#endif
