// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: timer_container_of()
 *
 * HAVE_TIMER_CONTAINER_OF: new name of from_timer().  Added in v6.16 by
 * 41cb08555c41 ("treewide, timers: Rename from_timer() to
 * timer_container_of()", Ingo Molnar); from_timer() itself dates from
 * v4.14, 686fef928bba ("timer: Prepare to change timer callback argument
 * type", Kees Cook).  The pinned driver has no timer; kept for new code.
 * Fallback: from_timer().
 *
 * Since: v6.16 (41cb08555c41)
 */
#include <linux/timer.h>

struct probe_obj {
	struct timer_list timer;
};

static __maybe_unused struct probe_obj *probe(struct timer_list *t)
{
	struct probe_obj *obj = timer_container_of(obj, t, timer);

	return obj;
}
