/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's <linux/bitops.h> helpers the chainpool core uses, for its
 * user-space build.  Non-atomic, like the kernel's __set_bit(): the core
 * runs under its caller's lock.
 */
#ifndef UNIT_LINUX_BITOPS_H
#define UNIT_LINUX_BITOPS_H

#include <stdbool.h>

#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define BIT(nr)			(1UL << (nr))

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return addr[nr / BITS_PER_LONG] & BIT(nr % BITS_PER_LONG);
}

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= BIT(nr % BITS_PER_LONG);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] &= ~BIT(nr % BITS_PER_LONG);
}

static inline unsigned int hweight_long(unsigned long w)
{
	return __builtin_popcountl(w);
}

#endif
