/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's min(), max(), container_of(), READ_ONCE() and U32_MAX, for
 * chainpool's glue built in user space.
 * Single-threaded tests: plain accesses, as chainpool_types.h's
 * CP_READ_ONCE().
 */
#ifndef KSHIM_LINUX_KERNEL_H
#define KSHIM_LINUX_KERNEL_H

#include <linux/compiler_attributes.h>
#include <linux/types.h>

#define U32_MAX		((u32)~0U)

#define min(a, b) \
	({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); \
	   __a < __b ? __a : __b; })
#define max(a, b) \
	({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); \
	   __a > __b ? __a : __b; })
#define min_t(type, a, b) \
	({ type __a = (a), __b = (b); __a < __b ? __a : __b; })
#define max_t(type, a, b) \
	({ type __a = (a), __b = (b); __a > __b ? __a : __b; })

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define READ_ONCE(x)		CP_READ_ONCE(x)
#define WRITE_ONCE(x, val)	CP_WRITE_ONCE(x, val)

#endif
