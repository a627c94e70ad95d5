/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cond_resched(): a point where the caller may sleep; see kshim.c. */
#ifndef KSHIM_LINUX_SCHED_H
#define KSHIM_LINUX_SCHED_H

void cond_resched(void);

#endif
