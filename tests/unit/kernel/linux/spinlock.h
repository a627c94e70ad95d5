/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Spinlocks for single-threaded tests: taking a held lock or releasing a
 * free one aborts, as lockdep would report it, and while any is held
 * (interrupts off in the kernel) calls that may sleep abort too (kshim.c).
 */
#ifndef KSHIM_LINUX_SPINLOCK_H
#define KSHIM_LINUX_SPINLOCK_H

#include <linux/kernel.h>

typedef struct {
	bool locked;
} spinlock_t;

void spin_lock_init(spinlock_t *lock);
void kshim_spin_lock(spinlock_t *lock);
void kshim_spin_unlock(spinlock_t *lock);

#define spin_lock_irqsave(lock, flags) \
	do { (flags) = 0; kshim_spin_lock(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags) \
	do { (void)(flags); kshim_spin_unlock(lock); } while (0)

#endif
