/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The user-space shim's counters and knobs, for the tests that build
 * chainpool.c and chainpool_grow.c unchanged on it (as the kernel's
 * tools/testing/ builds kernel files): what the kernel calls did, and
 * where they fail.  No allocator logic lives here.
 */
#ifndef KSHIM_H
#define KSHIM_H

#include <linux/types.h>

/**
 * struct kshim - what the shim's kernel calls counted, and their faults
 * @allocs: kmalloc(), kzalloc() and kvmalloc() calls that returned memory
 * @frees: kfree() and kvfree() of such memory
 * @kv_allocs: the kvmalloc() ones among @allocs
 * @live: memory from them not yet freed, in allocations
 * @alloc_calls: calls of the three, failed ones too
 * @fail_alloc_at: fail this 1-based call of the three; 0 never
 * @dev_errs: dev_err() messages
 * @grace_periods: synchronize_rcu_expedited() calls
 * @locks_held: spinlocks held now
 * @rcu_depth: RCU read sections entered and not left
 * @atomic: set by a test to call the pool from atomic context, where
 *	nothing may sleep, as from under the caller's own spinlock
 */
struct kshim {
	u64 allocs;
	u64 frees;
	u64 kv_allocs;
	u64 live;
	u32 alloc_calls;
	u32 fail_alloc_at;
	u32 dev_errs;
	u32 grace_periods;
	int locks_held;
	int rcu_depth;
	bool atomic;
};

extern struct kshim kshim;

/*
 * Called with the message of a misuse the shim caught, if set; a test
 * harness fails the test there (it must not return).  Else the shim
 * aborts.
 */
extern void (*kshim_bug_hook)(const char *msg);

/* Clear the counters and knobs; the memory still live is kept count of. */
void kshim_reset(void);

#endif
