/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a bulk allocation stores each block, as mpt3sas's chain_lookup does:
 * for the tests and bench/core, in the kernel and in user space.
 */
#ifndef CP_SINK_H
#define CP_SINK_H

#include <linux/types.h>

struct cp_block {
	void *cpu;
	dma_addr_t dma;
};

struct cp_sink {
	struct cp_block *blocks;	/* room for every block asked for */
	u32 calls;			/* blocks stored */
	bool out_of_order;		/* an index came other than the next */
};

/* The bulk allocation's callback; @ctx is a struct cp_sink. */
static inline void cp_sink_store(void *ctx, u32 index, void *vaddr,
				 dma_addr_t dma)
{
	struct cp_sink *sink = ctx;

	if (index != sink->calls)
		sink->out_of_order = true;
	sink->calls++;
	sink->blocks[index].cpu = vaddr;
	sink->blocks[index].dma = dma;
}

#endif
