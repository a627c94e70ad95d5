/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's attribute macros the shim and the glue use, for user space. */
#ifndef KSHIM_LINUX_COMPILER_ATTRIBUTES_H
#define KSHIM_LINUX_COMPILER_ATTRIBUTES_H

#define __always_unused		__attribute__((__unused__))
#define noinline		__attribute__((__noinline__))
#define __noreturn		__attribute__((__noreturn__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))

#endif
