/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's ALIGN(), for the chainpool core's user-space build. */
#ifndef UNIT_LINUX_ALIGN_H
#define UNIT_LINUX_ALIGN_H

#define ALIGN(x, a)	(((x) + ((__typeof__(x))(a) - 1)) & \
			 ~((__typeof__(x))(a) - 1))

#endif
