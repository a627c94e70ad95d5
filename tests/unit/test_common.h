/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared helpers of the chainpool unit tests.
 */
#ifndef TEST_COMMON_H
#define TEST_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __aligned(n) __attribute__((aligned(n)))

/* Name of the case being run, printed when a check fails. */
extern char test_case[160];

#define CHECK(cond)							\
	do {								\
		if (!(cond))						\
			fail_msg("%s: check failed: %s", test_case, #cond); \
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		long long a_ = (long long)(a);	\
		long long b_ = (long long)(b);	\
		if (a_ != b_)						\
			fail_msg("%s: %s == %lld, expected %s == %lld",	\
				 test_case, #a, a_, #b, b_);		\
	} while (0)

#endif
