// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: <linux/unaligned.h>
 *
 * HAVE_LINUX_UNALIGNED_H: the unaligned access helpers moved from
 * <asm/unaligned.h> to <linux/unaligned.h> in v6.12, "move asm/unaligned.h
 * to linux/unaligned.h" (Al Viro); the asm header is gone since.
 * Fallback: compat/linux/unaligned.h includes <asm/unaligned.h>.
 *
 * Since: v6.12
 */
#include <linux/types.h>
#include <linux/unaligned.h>

static u32 __maybe_unused probe(const void *p)
{
	return get_unaligned_be32(p);
}
