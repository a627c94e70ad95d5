// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: EPOLLIN and EPOLLRDNORM from <linux/poll.h>
 *
 * HAVE_EPOLLIN: ->poll() methods return EPOLL* masks.  The kernel-wide
 * POLL* -> EPOLL* switch is v4.16, a9a08845e9ac ("vfs: do bulk POLL* ->
 * EPOLL* replacement", Linus Torvalds); the uapi <linux/eventpoll.h> has
 * had the constants since v4.12, 7e040726850a ("eventpoll.h: add missing
 * epoll event masks").  Fallback: include <linux/eventpoll.h>, else the
 * POLL* values (the same bits).
 *
 * Since: v4.16 (a9a08845e9ac)
 */
#include <linux/poll.h>

static unsigned int __maybe_unused probe(void)
{
	return (__force unsigned int)(EPOLLIN | EPOLLRDNORM);
}
