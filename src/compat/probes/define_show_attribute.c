// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: DEFINE_SHOW_ATTRIBUTE()
 *
 * HAVE_DEFINE_SHOW_ATTRIBUTE: the single_open() file operations of a
 * seq_file show function, <name>_fops.  Added to <linux/seq_file.h> in
 * v4.16 by Andy Shevchenko's "seq_file: Introduce DEFINE_SHOW_ATTRIBUTE()
 * helper macro".  Fallback: the same macro.
 *
 * Since: v4.16
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/seq_file.h>

static int probe_show(struct seq_file *m, void *unused)
{
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(probe);

const struct file_operations *probe_fops_ptr(void)
{
	return &probe_fops;
}
