// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: __poll_t
 *
 * HAVE_POLL_T: the (sparse-annotated) type of poll masks, which
 * file_operations.poll returns.  Introduced with Al Viro's poll annotation
 * series; SCST's backport.h dates it to v4.16, 65aaf87b3aa2 ("add
 * EPOLLNVAL, annotate EPOLL... and event_poll->event").  Before,
 * ->poll() returned unsigned int.  Fallback: typedef unsigned int __poll_t.
 *
 * Since: v4.16 (65aaf87b3aa2)
 */
#include <linux/poll.h>

static __poll_t __maybe_unused probe(void)
{
	return 0;
}
