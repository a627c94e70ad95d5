/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The few types and helpers the core needs, by their kernel names: from
 * the kernel when built as part of a module; from libc and the small
 * headers of tests/unit/kernel/linux/ when built into the user-space unit
 * tests and bench/core.
 */
#ifndef CHAINPOOL_TYPES_H
#define CHAINPOOL_TYPES_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>	/* ALIGN(), upper_32_bits(), swap() on every version */
#include <linux/log2.h>
#include <linux/string.h>
#include <linux/compiler.h>
#include <linux/rcupdate.h>

#define CP_WRITE_ONCE(x, val)	WRITE_ONCE(x, val)
#define CP_READ_ONCE(x)		READ_ONCE(x)
/* The slab table: written under the pool lock, read with RCU. */
#define CP_TABLE(p)		rcu_dereference_protected(p, true)
#define CP_PUBLISH(p, v)	rcu_assign_pointer(p, v)

#else /* !__KERNEL__ */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>

/*
 * checkpatch flags these typedefs and the libc types they alias; they are
 * inherent to a file that must also build in user space, where the kernel's
 * u8/u32/u64/dma_addr_t do not exist.
 */
typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
typedef u64 dma_addr_t;

/* The kernel's helpers, from tests/unit/kernel/linux/ (on the include path). */
#include <linux/align.h>
#include <linux/bitops.h>
#include <linux/compiler_attributes.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/wordpart.h>
/* The user-space tests are single-threaded: plain accesses will do. */
#define CP_WRITE_ONCE(x, val)	((x) = (val))
#define CP_READ_ONCE(x)		(x)
#define __rcu
#define CP_TABLE(p)		(p)
#define CP_PUBLISH(p, v)	((p) = (v))

#endif /* __KERNEL__ */

#endif /* CHAINPOOL_TYPES_H */
