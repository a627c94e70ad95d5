/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's swap(), for the chainpool core's user-space build. */
#ifndef UNIT_LINUX_MINMAX_H
#define UNIT_LINUX_MINMAX_H

#define swap(a, b) \
	do { __typeof__(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)

#endif
