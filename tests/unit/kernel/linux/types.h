/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * <linux/types.h> of the user-space shim (tests/unit/kernel/): u8, u32,
 * u64 and dma_addr_t come from chainpool_types.h, the one place the core's
 * user-space build takes them from, so the core and the glue agree.
 */
#ifndef KSHIM_LINUX_TYPES_H
#define KSHIM_LINUX_TYPES_H

#include <stddef.h>
#include <sys/types.h>

#include "chainpool_types.h"

typedef unsigned int gfp_t;

#endif
