// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shim's calls (kshim.h): memory from malloc(), coherent memory from
 * aligned_alloc() at fake DMA addresses the test places, one thread's
 * locks, messages to stderr.
 */
#include <stdarg.h>
#include <stdio.h>

#include "kshim.h"

struct kshim kshim;

#define kshim_bug(fmt, ...)						\
	do {								\
		fprintf(stderr, "kshim: BUG: " fmt "\n", ##__VA_ARGS__);	\
		abort();						\
	} while (0)

static void kshim_might_sleep(const char *what)
{
	if (kshim.locks_held || kshim.atomic)
		kshim_bug("%s() may sleep: %d spinlocks held%s", what,
			  kshim.locks_held, kshim.atomic ? ", atomic" : "");
}

void *memchr_inv(const void *p, int c, size_t n)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != (u8)c)
			return (void *)(b + i);
	return NULL;
}

ssize_t strscpy(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(src, size - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
	return src[len] ? -E2BIG : (ssize_t)len;
}

/* Each buffer remembers its size and DMA address, to check the free. */
struct kshim_coherent {
	size_t size;
	dma_addr_t dma;
	u64 pad;
};

void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma,
			 gfp_t gfp)
{
	size_t natural = PAGE_SIZE, bytes = PAGE_ALIGN(size);
	struct kshim_coherent *h;
	u64 at;

	if (gfpflags_allow_blocking(gfp))
		kshim_might_sleep(__func__);
	dev->calls++;
	if ((gfp & (__GFP_NORETRY | __GFP_NOWARN)) ==
	    (__GFP_NORETRY | __GFP_NOWARN))
		dev->noretry++;
	if (dev->max_bytes && size > dev->max_bytes)
		return NULL;
	while (natural < size)
		natural <<= 1;
	h = aligned_alloc(PAGE_SIZE, bytes + PAGE_SIZE);
	if (!h)
		return NULL;
	at = ALIGN(dev->next_dma, (u64)natural) + dev->skew;
	dev->next_dma = at + bytes;
	h = (void *)((char *)h + PAGE_SIZE - sizeof(*h));
	h->size = size;
	h->dma = at;
	*dma = at;
	dev->live++;
	/* not zeroed, as before Linux 5.0 */
	memset(h + 1, 0x5a, size);
	return h + 1;
}

void dma_free_coherent(struct device *dev, size_t size, void *cpu,
		       dma_addr_t dma)
{
	struct kshim_coherent *h = (struct kshim_coherent *)cpu - 1;

	kshim_might_sleep(__func__);
	if (h->size != size || h->dma != dma)
		kshim_bug("coherent free (%zu, %#llx) of a buffer of %zu at %#llx",
			  size, dma, h->size, h->dma);
	dev->live--;
	free((char *)(h + 1) - PAGE_SIZE);
}

/* A word before each allocation tells kfree() from kvfree(). */
void *kshim_alloc(size_t size, gfp_t gfp, enum kshim_kind kind)
{
	long *p;

	if (gfpflags_allow_blocking(gfp))
		kshim_might_sleep(__func__);
	/* metadata takes no zone, zeroing or retry flags of a caller */
	if (gfp & ~(GFP_KERNEL | GFP_ATOMIC))
		kshim.bad_gfp++;
	if (++kshim.alloc_calls == kshim.fail_alloc_at)
		return NULL;
	p = calloc(1, size + 16);
	if (!p)
		return NULL;
	p[0] = kind;
	kshim.live++;
	return (char *)p + 16;
}

void kshim_free(const void *p, enum kshim_kind kind)
{
	long *h;

	if (!p)
		return;
	h = (long *)((char *)p - 16);
	if (h[0] != kind)
		kshim_bug("%s of memory not from its allocator",
			  kind == KSHIM_KFREE ? "kfree" : "kvfree");
	h[0] = 0;
	kshim.live--;
	free(h);
}

void might_alloc(gfp_t gfp)
{
	if (gfpflags_allow_blocking(gfp))
		kshim_might_sleep(__func__);
}

void kshim_lock(spinlock_t *l)
{
	if (l->held)
		kshim_bug("spinlock taken twice");
	l->held = 1;
	kshim.locks_held++;
	kshim.lock_holds++;
}

void kshim_unlock(spinlock_t *l)
{
	if (!l->held)
		kshim_bug("spinlock released but not held");
	l->held = 0;
	kshim.locks_held--;
}

void mutex_lock(struct mutex *m)
{
	kshim_might_sleep(__func__);
	if (m->held)
		kshim_bug("mutex taken twice");
	m->held = 1;
}

void cond_resched(void)
{
	kshim_might_sleep(__func__);
}

void dev_err(const struct device *dev, const char *fmt, ...)
{
	va_list ap;

	kshim.dev_errs++;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", dev->name);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->len, sizeof(m->buf) - m->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->len = min(m->len + n, sizeof(m->buf) - 1);
}

static char kshim_dentry;

struct dentry *debugfs_lookup(const char *name, struct dentry *parent)
{
	if (!kshim.debugfs_dir)
		return NULL;
	kshim.dentry_refs++;
	return (struct dentry *)&kshim_dentry;
}

void dput(struct dentry *d)
{
	if (d && --kshim.dentry_refs < 0)
		kshim_bug("%s() without a reference", __func__);
}

struct dentry *debugfs_create_dir(const char *name, struct dentry *parent)
{
	if (kshim.debugfs_dir)
		kshim_bug("debugfs directory %s created twice", name);
	kshim.debugfs_dir = true;
	return (struct dentry *)&kshim_dentry;
}

struct dentry *debugfs_create_file(const char *name, unsigned int mode,
				   struct dentry *parent, void *data,
				   const struct file_operations *fops)
{
	kshim.debugfs_files++;
	return (struct dentry *)&kshim_dentry;
}

void debugfs_remove(struct dentry *d)
{
	if (d)
		kshim.debugfs_files--;
}
