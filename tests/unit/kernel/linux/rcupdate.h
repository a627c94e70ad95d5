/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RCU for single-threaded tests: read sections are counted (nothing may
 * sleep in one, nor wait for a grace period), and a grace period is a
 * count, since no reader can run beside the writer.  The pointer accesses
 * are chainpool_types.h's, the core's own.
 */
#ifndef KSHIM_LINUX_RCUPDATE_H
#define KSHIM_LINUX_RCUPDATE_H

#include <linux/kernel.h>

void rcu_read_lock(void);
void rcu_read_unlock(void);
void synchronize_rcu_expedited(void);

#define rcu_dereference(p)			CP_READ_ONCE(p)
#define rcu_dereference_protected(p, c)		((void)(c), (p))
#define rcu_assign_pointer(p, v)		CP_PUBLISH(p, v)

#endif
