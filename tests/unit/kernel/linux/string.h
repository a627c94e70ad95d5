/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libc's string functions and the kernel's strscpy(). */
#ifndef KSHIM_LINUX_STRING_H
#define KSHIM_LINUX_STRING_H

#include <string.h>
#include <linux/types.h>

ssize_t strscpy(char *dst, const char *src, size_t size);

#endif
