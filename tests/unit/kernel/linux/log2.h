/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's <linux/log2.h> helpers the chainpool core uses, for its
 * user-space build (as tools/testing/memblock builds mm/memblock.c).
 */
#ifndef UNIT_LINUX_LOG2_H
#define UNIT_LINUX_LOG2_H

#include <stdbool.h>

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

/* Only for n > 0, as in the kernel. */
static inline int ilog2(unsigned long long n)
{
	return 63 - __builtin_clzll(n);
}

/* Only for n > 0, as in the kernel. */
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n == 1 ? 1 : 1UL << (8 * sizeof(long) - __builtin_clzl(n - 1));
}

#endif
