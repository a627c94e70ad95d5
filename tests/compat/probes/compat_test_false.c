// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Must be false on every kernel: the function does not exist.
 */
#include <linux/kernel.h>

static int __maybe_unused probe(void)
{
	return mpt3sas_compat_no_such_kernel_api(42);
}
