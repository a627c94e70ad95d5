/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's min(), max() and swap(), for the user-space builds. */
#ifndef UNIT_LINUX_MINMAX_H
#define UNIT_LINUX_MINMAX_H

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

#define swap(a, b) \
	do { __typeof__(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)

#endif
