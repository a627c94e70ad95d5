// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: strscpy()
 *
 * HAVE_STRSCPY: bounded string copy that always NUL-terminates.  Added in
 * v4.3 by 30035e45753b ("string: provide strscpy()", Chris Metcalf), so
 * present on every supported kernel (4.15 on); the machinery's unit test
 * relies on that.
 *
 * Since: v4.3 (30035e45753b)
 */
#include <linux/string.h>

static ssize_t __maybe_unused probe(char *dst, const char *src, size_t len)
{
	return strscpy(dst, src, len);
}
