/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stand-ins for the kernel calls chainpool.c makes, so that it builds
 * unchanged in user space: every <linux/...> header of it is this one.
 * They count, fail where a test says, and abort on a misuse a kernel
 * would catch (sleeping under a spinlock, a bad free).
 */
#ifndef KSHIM_H
#define KSHIM_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef u64 dma_addr_t;
typedef unsigned int gfp_t;

#define BIT(n)			(1UL << (n))
#define __GFP_DIRECT_RECLAIM	BIT(0)
#define __GFP_ZERO		BIT(1)
#define __GFP_NOWARN		BIT(2)
#define __GFP_NORETRY		BIT(3)
#define GFP_ATOMIC		BIT(4)
#define GFP_KERNEL		(BIT(5) | __GFP_DIRECT_RECLAIM)

#define PAGE_SHIFT		12
#define PAGE_SIZE		BIT(PAGE_SHIFT)
#define PAGE_ALLOC_COSTLY_ORDER	3
#define POOL_POISON_FREED	0xa7
#define POOL_POISON_ALLOCATED	0xa9
#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define KBUILD_MODNAME		"unit"

#define __ALIGN_MASK(x, m)	(((x) + (m)) & ~(m))
#define ALIGN(x, a)		__ALIGN_MASK(x, (__typeof__(x))(a) - 1)
#define PAGE_ALIGN(x)		ALIGN(x, PAGE_SIZE)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min_t(t, a, b)		min((t)(a), (t)(b))
#define max_t(t, a, b)		max((t)(a), (t)(b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi)	clamp((t)(v), (t)(lo), (t)(hi))
#define READ_ONCE(x)		(x)	/* one thread */
#define WRITE_ONCE(x, v)	((x) = (v))
#define IS_ERR_OR_NULL(p)	(!(p) || (unsigned long)(p) >= (unsigned long)-4095)
#define __printf(a, b)		__attribute__((format(printf, a, b)))

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

static inline int ilog2(unsigned long long n)
{
	return 63 - __builtin_clzll(n);
}

static inline int get_order(unsigned long size)
{
	int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

static inline bool gfpflags_allow_blocking(gfp_t gfp)
{
	return gfp & __GFP_DIRECT_RECLAIM;
}

/* Bit @nr of @map set to @val; was it set? */
static inline bool kshim_test_and_put_bit(unsigned long nr, unsigned long *map,
					  bool val)
{
	unsigned long bit = 1UL << (nr % BITS_PER_LONG), *w = map + nr / BITS_PER_LONG;
	bool old = *w & bit;

	*w = val ? *w | bit : *w & ~bit;
	return old;
}

#define __test_and_set_bit(nr, map)	kshim_test_and_put_bit(nr, map, true)
#define __test_and_clear_bit(nr, map)	kshim_test_and_put_bit(nr, map, false)

static inline void bitmap_zero(unsigned long *map, unsigned int bits)
{
	memset(map, 0, BITS_TO_LONGS(bits) * sizeof(long));
}

void *memchr_inv(const void *p, int c, size_t n);

/* No bit beyond @bits is ever set here. */
static inline bool bitmap_empty(const unsigned long *map, unsigned int bits)
{
	return !memchr_inv(map, 0, BITS_TO_LONGS(bits) * sizeof(long));
}

ssize_t strscpy(char *dst, const char *src, size_t size);
#define sort(base, num, size, cmp, swap)	qsort(base, num, size, cmp)

/* The fake coherent DMA of a device: the test places the addresses. */
struct device {
	const char *name;
	u64 next_dma;		/* next address, before natural alignment */
	u64 skew;		/* added to each naturally aligned address */
	u32 max_bytes;		/* refuse larger allocations; 0: no limit */
	u32 calls;
	u32 noretry;		/* calls with __GFP_NORETRY | __GFP_NOWARN */
	u64 live;		/* buffers not freed */
};

void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma,
			 gfp_t gfp);
void dma_free_coherent(struct device *dev, size_t size, void *cpu,
		       dma_addr_t dma);
#define dev_name(dev)		((dev)->name)

/* Metadata: each allocation knows which call frees it. */
enum kshim_kind { KSHIM_KFREE = 1, KSHIM_KVFREE };
void *kshim_alloc(size_t size, gfp_t gfp, enum kshim_kind kind);
void kshim_free(const void *p, enum kshim_kind kind);
#define kzalloc(size, gfp)	kshim_alloc(size, gfp, KSHIM_KFREE)
#define kvmalloc_array(n, size, gfp) \
	kshim_alloc((n) * (size), gfp, KSHIM_KVFREE)
#define bitmap_zalloc(bits, gfp) \
	kshim_alloc(BITS_TO_LONGS(bits) * sizeof(long), gfp, KSHIM_KFREE)
#define kfree(p)		kshim_free(p, KSHIM_KFREE)
#define kvfree(p)		kshim_free(p, KSHIM_KVFREE)
#define bitmap_free(map)	kfree(map)
#define want_init_on_alloc(gfp)	(kshim.init_on_alloc || ((gfp) & __GFP_ZERO))
#define want_init_on_free()	kshim.init_on_free
void might_alloc(gfp_t gfp);

typedef struct {
	int held;
} spinlock_t;

struct mutex {
	int held;
};

#define DEFINE_MUTEX(m)		struct mutex m
#define spin_lock_init(l)	((l)->held = 0)
#define mutex_init(m)		((m)->held = 0)
#define mutex_unlock(m)		((m)->held = 0)
#define spin_lock_irqsave(l, f)	((f) = 0, kshim_lock(l))
#define spin_unlock_irqrestore(l, f) ((void)(f), kshim_unlock(l))
void kshim_lock(spinlock_t *l);
void kshim_unlock(spinlock_t *l);
void mutex_lock(struct mutex *m);
void cond_resched(void);

__printf(2, 3) void dev_err(const struct device *dev, const char *fmt, ...);

#define module_param(name, type, perm)
#define MODULE_PARM_DESC(name, desc)

struct dentry;
struct seq_file;
struct file_operations {
	int (*show)(struct seq_file *m, void *unused);
};

#define DEFINE_SHOW_ATTRIBUTE(name) \
	static const struct file_operations name##_fops = { name##_show }

struct seq_file {
	void *private;
	char buf[2048];
	size_t len;
};

__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);
struct dentry *debugfs_lookup(const char *name, struct dentry *parent);
void dput(struct dentry *d);
struct dentry *debugfs_create_dir(const char *name, struct dentry *parent);
struct dentry *debugfs_create_file(const char *name, unsigned int mode,
				   struct dentry *parent, void *data,
				   const struct file_operations *fops);
void debugfs_remove(struct dentry *d);

/* What the calls counted, and where they fail. */
struct kshim {
	u32 fail_alloc_at;	/* fail this 1-based metadata allocation */
	u32 alloc_calls;	/* metadata allocations, failed ones too */
	u64 live;		/* metadata allocations not freed */
	u32 dev_errs;		/* dev_err() messages */
	u64 lock_holds;		/* spinlock acquisitions */
	int locks_held;
	bool atomic;		/* the test's context: nothing may sleep */
	int debugfs_files;
	bool debugfs_dir;
	int dentry_refs;	/* debugfs_lookup() references not put */
	u32 bad_gfp;		/* metadata with a zone, zero or retry flag */
	bool init_on_alloc;	/* as the kernel's init_on_alloc=1 */
	bool init_on_free;
};

extern struct kshim kshim;

#endif
