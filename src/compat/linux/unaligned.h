/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The unaligned access helpers for kernels before v6.12, which moved them
 * from the asm/ header to the linux/ header of the same name (Al Viro's
 * "move asm/... to linux/..." commit).  The compat directory
 * is on the include path after the kernel's own (Kbuild puts LINUXINCLUDE
 * before ccflags-y), so this file is only reached when the kernel lacks
 * the linux/ header.
 */
#ifndef MPT3SAS_COMPAT_LINUX_UNALIGNED_H
#define MPT3SAS_COMPAT_LINUX_UNALIGNED_H

#include "compat_config.h"

#ifdef HAVE_LINUX_UNALIGNED_H
#error "the compat linux/ unaligned header shadows the kernel's"
#endif

#include <asm/unaligned.h>

#endif /* MPT3SAS_COMPAT_LINUX_UNALIGNED_H */
