/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages to stderr; see kshim.c. */
#ifndef KSHIM_LINUX_PRINTK_H
#define KSHIM_LINUX_PRINTK_H

#include <linux/kernel.h>

#define KERN_ERR	"<3>"
#define KERN_WARNING	"<4>"

enum {
	DUMP_PREFIX_NONE,
	DUMP_PREFIX_ADDRESS,
	DUMP_PREFIX_OFFSET
};

void print_hex_dump(const char *level, const char *prefix_str,
		    int prefix_type, int rowsize, int groupsize,
		    const void *buf, size_t len, bool ascii);

#endif
