// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: the switch/case pseudo keyword of <linux/compiler_attributes.h>
 * (its HAVE_ macro is named after this file, as for every probe).
 *
 * Added in v5.4 by 294f69e662d1, Joe Perches' compiler_attributes.h patch
 * that adds the pseudo keyword.  Fallback: the compiler attribute where
 * the compiler knows it, else an empty statement (kernels before v5.3 do
 * not enable the warning).
 *
 * Since: v5.4 (294f69e662d1)
 */
#include <linux/kernel.h>

static int __maybe_unused probe(int x)
{
	switch (x) {
	case 0:
		x++;
		fallthrough;
	default:
		return x;
	}
}
