// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fake coherent DMA allocator for the chainpool unit tests.
 */
#include <stdlib.h>

#include "fake_dma.h"

#define FAKE_PAGE 4096U

void fake_dma_init(struct fake_dma *fd, u64 base)
{
	memset(fd, 0, sizeof(*fd));
	fd->next_dma = base;
}

static void *fake_alloc(void *ctx, u32 bytes, bool nowarn, dma_addr_t *dma)
{
	struct fake_dma *fd = ctx;
	void *cpu;
	u64 addr;

	fd->calls++;
	if (!nowarn)
		fd->warned_allocs++;
	if (fd->fail_call && fd->calls == fd->fail_call)
		return NULL;
	if (fd->max_bytes && bytes > fd->max_bytes) {
		fd->refused++;
		return NULL;
	}
	if (fd->script) {
		if (fd->script_pos == fd->script_len)
			return NULL;
		addr = fd->script[fd->script_pos++];
	} else {
		/*
		 * Aligned to the power of two holding @bytes, as the buddy
		 * allocator behind dma_alloc_coherent() gives.
		 */
		u64 natural = 1;

		while (natural < bytes)
			natural <<= 1;
		addr = ((fd->next_dma + natural - 1) & ~(natural - 1)) +
		       fd->skew;
		fd->next_dma = addr + bytes;
	}
	cpu = aligned_alloc(FAKE_PAGE, bytes < FAKE_PAGE ? FAKE_PAGE : bytes);
	if (!cpu)
		return NULL;
	/* Zeroed, as dma_alloc_coherent() hands memory out since 5.0. */
	memset(cpu, 0, bytes);
	fd->live++;
	fd->live_bytes += bytes;
	fd->allocs++;
	*dma = addr;
	return cpu;
}

static void fake_free(void *ctx, u32 bytes, void *cpu, dma_addr_t dma)
{
	struct fake_dma *fd = ctx;

	(void)dma;
	free(cpu);
	fd->live--;
	fd->live_bytes -= bytes;
	fd->frees++;
}

const struct chainpool_slab_ops fake_dma_ops = {
	.alloc = fake_alloc,
	.free = fake_free,
};
