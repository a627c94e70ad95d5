// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A user-space shim of the few kernel calls chainpool.c and
 * chainpool_grow.c make, so the unit tests and bench/core build those
 * files unchanged: coherent DMA memory from the device's fake DMA
 * allocator, kmalloc() and friends from malloc(), spinlocks and RCU for
 * one thread, messages to stderr.  Misuse a kernel would catch (a lock
 * taken twice, a sleeping call with a lock held or in an RCU read
 * section, kfree() of kvmalloc() memory) aborts.  No allocator logic.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/ktime.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "chainpool_pool.h"
#include "fake_dma.h"
#include "kshim.h"

struct kshim kshim;

void kshim_reset(void)
{
	u64 live = kshim.live;

	memset(&kshim, 0, sizeof(kshim));
	kshim.live = live;
}

void (*kshim_bug_hook)(const char *msg);

static __noreturn __printf(1, 2) void kshim_bug(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "kshim: BUG: %s\n", msg);
	if (kshim_bug_hook)
		kshim_bug_hook(msg);
	abort();
}

/* might_sleep(): nothing may sleep under a spinlock or in RCU. */
static void kshim_might_sleep(const char *what)
{
	if (kshim.locks_held || kshim.rcu_depth || kshim.atomic)
		kshim_bug("%s() may sleep: %d locks held, RCU depth %d%s", what,
			  kshim.locks_held, kshim.rcu_depth,
			  kshim.atomic ? ", atomic context" : "");
}

u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void cond_resched(void)
{
	kshim_might_sleep(__func__);
}

ssize_t strscpy(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(src, size);

	if (!size)
		return -E2BIG;
	if (len == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, len + 1);
	return len;
}

/*
 * kmalloc() and kvmalloc() memory, each with a header that says which,
 * so that kfree() of kvmalloc() memory is caught, as it is a bug in the
 * kernel.  16 bytes keep the memory 16-aligned like malloc()'s.
 */
struct kshim_mem {
	u32 magic;
	bool kv;
	u64 pad;
	u64 data[];
};

#define KSHIM_KMALLOC	0x6b6d616cU
#define KSHIM_FREED	0x66726565U

static void *kshim_alloc(size_t size, gfp_t gfp, bool kv)
{
	struct kshim_mem *m;

	if (gfpflags_allow_blocking(gfp))
		kshim_might_sleep(kv ? "kvmalloc" : "kmalloc");
	if (++kshim.alloc_calls == kshim.fail_alloc_at)
		return NULL;
	m = gfp & __GFP_ZERO ? calloc(1, sizeof(*m) + size) :
			       malloc(sizeof(*m) + size);
	if (!m)
		return NULL;
	m->magic = KSHIM_KMALLOC;
	m->kv = kv;
	kshim.allocs++;
	kshim.kv_allocs += kv;
	kshim.live++;
	return m->data;
}

static void kshim_free(const void *p, bool kv)
{
	struct kshim_mem *m;

	if (!p)
		return;
	m = container_of((void *)p, struct kshim_mem, data);
	if (m->magic != KSHIM_KMALLOC)
		kshim_bug("%s(%p): not from kmalloc() or kvmalloc()",
			  kv ? "kvfree" : "kfree", p);
	if (m->kv && !kv)
		kshim_bug("kfree(%p) of kvmalloc() memory", p);
	/* vfree() may sleep. */
	if (m->kv)
		kshim_might_sleep("kvfree");
	m->magic = KSHIM_FREED;
	kshim.frees++;
	kshim.live--;
	free(m);
}

void *kmalloc(size_t size, gfp_t gfp)
{
	return kshim_alloc(size, gfp, false);
}

void kfree(const void *p)
{
	kshim_free(p, false);
}

void *kvmalloc(size_t size, gfp_t gfp)
{
	if ((gfp & GFP_KERNEL) != GFP_KERNEL)
		kshim_bug("%s() without GFP_KERNEL (gfp %#x)", __func__, gfp);
	return kshim_alloc(size, gfp, true);
}

void kvfree(const void *p)
{
	kshim_free(p, true);
}

void *dma_alloc_coherent(struct device *dev, size_t size,
			 dma_addr_t *dma_handle, gfp_t gfp)
{
	if (gfpflags_allow_blocking(gfp))
		kshim_might_sleep(__func__);
	return fake_dma_ops.alloc(dev->fake_dma, size, gfp & __GFP_NOWARN,
				  dma_handle);
}

/* Never with interrupts off, so never under a spinlock. */
void dma_free_coherent(struct device *dev, size_t size, void *cpu_addr,
		       dma_addr_t dma_handle)
{
	kshim_might_sleep(__func__);
	fake_dma_ops.free(dev->fake_dma, size, cpu_addr, dma_handle);
}

void spin_lock_init(spinlock_t *lock)
{
	lock->locked = false;
}

void kshim_spin_lock(spinlock_t *lock)
{
	if (lock->locked)
		kshim_bug("spinlock %p taken twice", (void *)lock);
	lock->locked = true;
	kshim.locks_held++;
}

void kshim_spin_unlock(spinlock_t *lock)
{
	if (!lock->locked)
		kshim_bug("spinlock %p released but not held", (void *)lock);
	lock->locked = false;
	kshim.locks_held--;
}

void rcu_read_lock(void)
{
	kshim.rcu_depth++;
}

void rcu_read_unlock(void)
{
	if (!kshim.rcu_depth)
		kshim_bug("%s() outside a read section", __func__);
	kshim.rcu_depth--;
}

/* One thread: no reader runs beside the writer, so no wait is needed. */
void synchronize_rcu_expedited(void)
{
	kshim_might_sleep(__func__);
	kshim.grace_periods++;
}

const char *dev_name(const struct device *dev)
{
	return dev->init_name ? dev->init_name : "kshim";
}

/*
 * The conversions the glue's messages use, with the kernel's %pad (a
 * pointer to a dma_addr_t); any other aborts.
 */
static void kshim_vprintk(const char *fmt, va_list ap)
{
	const char *p;

	for (p = fmt; *p; p++) {
		if (*p != '%') {
			fputc(*p, stderr);
			continue;
		}
		p++;
		if (*p == '%') {
			fputc('%', stderr);
		} else if (*p == 's') {
			fputs(va_arg(ap, const char *), stderr);
		} else if (*p == 'u') {
			fprintf(stderr, "%u", va_arg(ap, unsigned int));
		} else if (*p == 'd') {
			fprintf(stderr, "%d", va_arg(ap, int));
		} else if (p[0] == 'p' && p[1] == 'a' && p[2] == 'd') {
			const dma_addr_t *dma = va_arg(ap, const dma_addr_t *);

			fprintf(stderr, "%#llx", (unsigned long long)*dma);
			p += 2;
		} else if (*p == 'p') {
			fprintf(stderr, "%p", va_arg(ap, void *));
		} else {
			kshim_bug("printk conversion %%%c not in the shim", *p);
		}
	}
}

static void kshim_dev_vprintk(const char *level, const struct device *dev,
			      const char *fmt, va_list ap)
{
	fprintf(stderr, "%s%s: ", level, dev_name(dev));
	kshim_vprintk(fmt, ap);
}

void _dev_err(const struct device *dev, const char *fmt, ...)
{
	va_list ap;

	kshim.dev_errs++;
	va_start(ap, fmt);
	kshim_dev_vprintk(KERN_ERR, dev, fmt, ap);
	va_end(ap);
}

void _dev_warn(const struct device *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kshim_dev_vprintk(KERN_WARNING, dev, fmt, ap);
	va_end(ap);
}

void print_hex_dump(const char *level, const char *prefix_str,
		    int prefix_type, int rowsize, int groupsize,
		    const void *buf, size_t len, bool ascii)
{
	const u8 *b = buf;
	size_t i;

	(void)groupsize;
	(void)ascii;
	for (i = 0; i < len; i++) {
		if (!(i % rowsize)) {
			fprintf(stderr, "%s%s", i ? "\n" : "", level);
			fputs(prefix_str, stderr);
			if (prefix_type == DUMP_PREFIX_OFFSET)
				fprintf(stderr, "%08zx: ", i);
		}
		fprintf(stderr, "%02x ", b[i]);
	}
	fputc('\n', stderr);
}

/*
 * chainpool_module.c's debugfs files, which the kernel build alone has:
 * in user space, no-ops.
 */
void chainpool_debugfs_add(struct chainpool *pool __always_unused)
{
}

void chainpool_debugfs_del(struct chainpool *pool __always_unused)
{
}
