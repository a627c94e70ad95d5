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
#include <linux/minmax.h>
#include <linux/types.h>

#define U32_MAX		((u32)~0U)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define READ_ONCE(x)		CP_READ_ONCE(x)
#define WRITE_ONCE(x, val)	CP_WRITE_ONCE(x, val)

#endif
