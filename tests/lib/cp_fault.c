// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chainpool's fault hook, for test builds only (CHAINPOOL_FAULT_INJECTION):
 * chainpool_test.ko and the test builds of mpt3sas.ko (tests/hba-alloc).
 *
 * pool_fail=OP:NAME:N[+] fails the Nth call of OP on NAME since it was
 * written: create, alloc (single, zeroed or bulk), coherent (NAME: the
 * calling function), slab (counted anew for each pool of NAME), topslab (a
 * slab of a pool's largest order) or kmalloc (NAME: FUNCTION.LINE).  NAME
 * '_' is ' ', '*' any; N '*' fails every call; '+' every later create,
 * alloc, coherent and kmalloc call too.  pool_fail=trace fails nothing and
 * logs the points.
 * pool_fail=cross4g:NAME:N fails nothing: once, the Nth slab of pool NAME
 * gets a DMA address across 4 GiB (the memory real), as a machine with
 * memory above 4 GiB could give; the driver must not hand it to the HBA.
 */
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "chainpool.h"
#include "cp_fault.h"

/* This file implements the renamed calls; it must see the real ones. */
#undef dma_alloc_coherent
#undef dma_free_coherent

#define CP_FAULT_NAME_LEN	64
#define CP_FAULT_NR_NAMES	160

/* Ops of the test builds beyond chainpool's */
#define CP_OP_KMALLOC	CHAINPOOL_FAULT_NR_OPS
#define CP_OP_CROSS4G	(CHAINPOOL_FAULT_NR_OPS + 1)
#define CP_OP_NR		(CHAINPOOL_FAULT_NR_OPS + 2)

/* 64 bytes below 8 GiB: a block of more than 64 bytes there crosses 8 GiB */
#define CROSS4G_DMA		((dma_addr_t)(8ULL << 30) - 64)

static const char * const cp_fault_ops[] = {
	[CHAINPOOL_FAULT_CREATE] = "create",
	[CHAINPOOL_FAULT_ALLOC] = "alloc",
	[CHAINPOOL_FAULT_COHERENT] = "coherent",
	[CHAINPOOL_FAULT_SLAB] = "slab",
	[CHAINPOOL_FAULT_TOP_SLAB] = "topslab",
	[CP_OP_KMALLOC] = "kmalloc",
	[CP_OP_CROSS4G] = "cross4g",
};

/* The setting; @nth 0 is every call. */
struct cp_fault_spec {
	bool armed;
	bool trace;
	bool persist;
	unsigned int op;
	u32 nth;
	char name[CP_FAULT_NAME_LEN];
};

static struct {
	struct cp_fault_spec spec;
	bool tripped;
	/* cross4g: the next slab's address is moved; the one moved */
	bool cross4g_next;
	void *cross4g_cpu;
	dma_addr_t cross4g_real;
	unsigned int nr_names;
	struct {
		char name[CP_FAULT_NAME_LEN];
		u32 calls[CP_OP_NR];
	} names[CP_FAULT_NR_NAMES];
} cp_fault;
static DEFINE_SPINLOCK(cp_fault_lock);	/* pool allocations may be atomic */

static int cp_fault_parse(char *s, struct cp_fault_spec *f)
{
	char *op, *name;
	size_t len;
	int i;

	if (!*s || !strcmp(s, "off"))
		return 0;
	f->armed = true;
	if (!strcmp(s, "trace")) {
		f->trace = true;
		return 0;
	}
	op = strsep(&s, ":");
	name = strsep(&s, ":");
	if (!s || !*name)
		return -EINVAL;
	i = match_string(cp_fault_ops, ARRAY_SIZE(cp_fault_ops), op);
	if (i < 0)
		return -EINVAL;
	f->op = i;
	len = strlen(s);
	if (len && s[len - 1] == '+') {
		f->persist = true;
		s[--len] = '\0';
	}
	if (strcmp(s, "*") && (kstrtou32(s, 10, &f->nth) || !f->nth))
		return -EINVAL;
	if (f->op == CP_OP_CROSS4G && (!f->nth || f->persist))
		return -EINVAL;
	strscpy(f->name, name, CP_FAULT_NAME_LEN);
	strreplace(f->name, ' ', '_');
	return 0;
}

static int pool_fail_set(const char *val, const struct kernel_param *kp)
{
	struct cp_fault_spec f = { };
	char buf[CP_FAULT_NAME_LEN + 24];
	unsigned long flags;
	bool busy;

	if (strscpy(buf, val, sizeof(buf)) < 0 ||
	    cp_fault_parse(strim(buf), &f))
		goto bad;
	spin_lock_irqsave(&cp_fault_lock, flags);
	busy = cp_fault.cross4g_cpu;
	if (!busy) {
		memset(&cp_fault, 0, sizeof(cp_fault));
		cp_fault.spec = f;
	}
	spin_unlock_irqrestore(&cp_fault_lock, flags);
	if (busy) {
		pr_err("pool_fail: a slab moved across 4 GiB is not given back yet\n");
		return -EBUSY;
	}
	return 0;
bad:
	pr_err("pool_fail=%s is not OP:NAME:N[+] (OP create, alloc, coherent, slab, topslab, kmalloc or cross4g), trace or off\n",
	       val);
	return -EINVAL;
}

/* Written only: nothing reads the setting back. */
static const struct kernel_param_ops pool_fail_ops = {
	.set = pool_fail_set,
};

module_param_cb(pool_fail, &pool_fail_ops, NULL, 0600);
MODULE_PARM_DESC(pool_fail,
		 "test build: fail a DMA allocation: OP:NAME:N[+], trace, or off (default)");

/* A call of @op at @name (the pool, or the caller): should it fail? */
bool chainpool_fault(enum chainpool_fault_op op, const char *name,
		     struct device *dev)
{
	bool slab = op == CHAINPOOL_FAULT_SLAB || op == CHAINPOOL_FAULT_TOP_SLAB;
	bool fail = false, log, cross = false;
	struct cp_fault_spec *f = &cp_fault.spec;
	const char *who = dev ? dev_name(dev) : "mpt3sas";
	char key[CP_FAULT_NAME_LEN];
	unsigned long flags;
	unsigned int i;
	u32 n = 0;

	if (!READ_ONCE(cp_fault.spec.armed))
		return false;
	strscpy(key, name, CP_FAULT_NAME_LEN);
	strreplace(key, ' ', '_');
	spin_lock_irqsave(&cp_fault_lock, flags);
	for (i = 0; i < cp_fault.nr_names; i++)
		if (!strcmp(cp_fault.names[i].name, key))
			break;
	if (i == cp_fault.nr_names && i < CP_FAULT_NR_NAMES) {
		strscpy(cp_fault.names[i].name, key, CP_FAULT_NAME_LEN);
		cp_fault.nr_names++;
	}
	if (i < cp_fault.nr_names) {
		n = ++cp_fault.names[i].calls[op];
		/* a new pool of that name: its slabs count from 1 again */
		if (op == CHAINPOOL_FAULT_CREATE)
			cp_fault.names[i].calls[CHAINPOOL_FAULT_SLAB] = 0;
	}
	if (f->op == CP_OP_CROSS4G) {
		/* a slab of the pool, counted as the slab op counts them */
		cross = op == CHAINPOOL_FAULT_SLAB && n == f->nth &&
			!strcmp(key, f->name) && !cp_fault.tripped;
		/* once: the pools the driver creates again count anew */
		cp_fault.tripped |= cross;
		if (op == CHAINPOOL_FAULT_SLAB)
			cp_fault.cross4g_next = cross;
	} else if (cp_fault.tripped && !slab) {
		fail = true;
	} else if (!f->trace && op == f->op && (!f->nth || n == f->nth) &&
		   (!strcmp(f->name, "*") || !strcmp(key, f->name))) {
		fail = true;
		cp_fault.tripped = f->persist;
	}
	log = !slab && (fail || (f->trace &&
				 ((op != CHAINPOOL_FAULT_ALLOC &&
				   op != CP_OP_KMALLOC) || n == 1)));
	spin_unlock_irqrestore(&cp_fault_lock, flags);
	if (cross)
		dev_warn(dev, "pool_fail: cross4g:%s:%u: the slab's DMA address is moved across 4 GiB\n",
			 key, n);
	if (log && fail)
		pr_warn("%s: pool_fail: %s:%s:%u fails\n", who,
			cp_fault_ops[op], key, n);
	else if (log)
		pr_info("%s: pool_fail: point %s:%s:%u\n", who,
			cp_fault_ops[op], key, n);
	return fail;
}

/* A k*alloc() of the driver: should it fail? */
bool cp_fault_kmalloc(const char *caller, unsigned int line)
{
	char name[CP_FAULT_NAME_LEN];

	snprintf(name, sizeof(name), "%s.%u", caller, line);
	return chainpool_fault(CP_OP_KMALLOC, name, NULL);
}

/* The driver's dma_alloc_coherent(), a fault point named by @caller. */
void *cp_dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma,
			    gfp_t gfp, const char *caller)
{
	if (chainpool_fault(CHAINPOOL_FAULT_COHERENT, caller, dev))
		return NULL;
	return dma_alloc_coherent(dev, size, dma, gfp);
}

/* chainpool's slab: the one cross4g names gets CROSS4G_DMA as *@dma. */
void *cp_dma_alloc_slab(struct device *dev, size_t size, dma_addr_t *dma,
			gfp_t gfp)
{
	void *cpu = dma_alloc_coherent(dev, size, dma, gfp);
	unsigned long flags;
	dma_addr_t real = 0;
	bool cross;

	spin_lock_irqsave(&cp_fault_lock, flags);
	cross = cpu && cp_fault.cross4g_next && !cp_fault.cross4g_cpu;
	cp_fault.cross4g_next = false;
	if (cross) {
		real = *dma;
		cp_fault.cross4g_cpu = cpu;
		cp_fault.cross4g_real = real;
		*dma = CROSS4G_DMA;
	}
	spin_unlock_irqrestore(&cp_fault_lock, flags);
	if (cross)
		dev_warn(dev, "pool_fail: cross4g: %zu bytes at dma 0x%llx handed out at 0x%llx\n",
			 size, (unsigned long long)real,
			 (unsigned long long)CROSS4G_DMA);
	return cpu;
}

/* dma_free_coherent(), taking a moved slab back at its real address. */
void cp_dma_free_coherent(struct device *dev, size_t size, void *cpu,
			  dma_addr_t dma)
{
	unsigned long flags;
	bool moved;

	spin_lock_irqsave(&cp_fault_lock, flags);
	moved = cpu && cpu == cp_fault.cross4g_cpu && dma == CROSS4G_DMA;
	if (moved) {
		dma = cp_fault.cross4g_real;
		cp_fault.cross4g_cpu = NULL;
	}
	spin_unlock_irqrestore(&cp_fault_lock, flags);
	if (moved)
		dev_info(dev, "pool_fail: cross4g: the slab at 0x%llx is given back\n",
			 (unsigned long long)CROSS4G_DMA);
	dma_free_coherent(dev, size, cpu, dma);
}
