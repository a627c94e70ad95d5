/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's upper_32_bits() and lower_32_bits(), for the chainpool core's user-space build. */
#ifndef UNIT_LINUX_WORDPART_H
#define UNIT_LINUX_WORDPART_H

/* Split shift, as in the kernel, so a 32-bit dma_addr_t stays defined. */
#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))

#endif
