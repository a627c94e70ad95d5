// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: timer_delete_sync()
 *
 * HAVE_TIMER_DELETE_SYNC: new name of del_timer_sync().  Added in v6.2 by
 * "timers: Rename del_timer_sync() to timer_delete_sync()" (Thomas
 * Gleixner), backported to the 5.10.y/5.15.y/6.1.y stable trees (Debian
 * 5.10 has it); del_timer_sync() was removed in v6.16.  The pinned driver
 * has no timer; kept for new code.  Fallback: del_timer_sync().
 *
 * Since: v6.2
 */
#include <linux/timer.h>

static int __maybe_unused probe(struct timer_list *t)
{
	return timer_delete_sync(t);
}
