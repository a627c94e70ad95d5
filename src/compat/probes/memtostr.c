// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: memtostr()
 *
 * HAVE_MEMTOSTR: copy a fixed-size, possibly unterminated byte array into a
 * C string array.  Added in v6.11 by "string.h: Introduce memtostr() and
 * memtostr_pad()" (Kees Cook).  Fallback: an equivalent macro.
 *
 * Since: v6.11
 */
#include <linux/kernel.h>
#include <linux/string.h>

struct probe_page {
	u8 name[16] __nonstring;
};

static void __maybe_unused probe(char (*dst)[17], struct probe_page *pg)
{
	memtostr(*dst, pg->name);
}
