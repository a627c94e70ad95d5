// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chainpool's fault hook, for test builds only (CHAINPOOL_FAULT_INJECTION):
 * the test build of mpt3sas.ko (tests/hba-alloc) and chainpool_test.ko
 * link it; mpt3sas.ko as shipped does not.
 *
 * pool_fail=OP:NAME:N[+] fails the Nth call of OP on NAME since the
 * parameter was written.  OP: create (a pool creation), alloc (an
 * allocation from a pool: single, zeroed or bulk, one each), coherent (a
 * dma_alloc_coherent() of the driver; NAME is the calling function),
 * slab (a slab of chainpool, as if memory ran out; counted per pool:
 * creating a pool of NAME restarts it) or topslab (a slab of a pool's
 * largest order, so that a smaller one is tried).  NAME is '_' for ' ',
 * or '*' for any.  N '*' fails every such call; a trailing '+' fails
 * every later create, alloc and coherent call too, as memory that runs
 * out there.  pool_fail=trace fails nothing and logs the points: every
 * create and coherent call and the first alloc of each name.
 */
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "chainpool.h"
#include "cp_fault.h"

/* This file implements the renamed call; it must see the real one. */
#undef dma_alloc_coherent

#define CP_FAULT_NAME_LEN	32
#define CP_FAULT_NR_NAMES	24

static const char * const cp_fault_ops[] = {
	[CHAINPOOL_FAULT_CREATE] = "create",
	[CHAINPOOL_FAULT_ALLOC] = "alloc",
	[CHAINPOOL_FAULT_COHERENT] = "coherent",
	[CHAINPOOL_FAULT_SLAB] = "slab",
	[CHAINPOOL_FAULT_TOP_SLAB] = "topslab",
};

/* The setting; @nth 0 is every call. */
struct cp_fault_spec {
	bool armed;
	bool trace;
	bool persist;
	enum chainpool_fault_op op;
	u32 nth;
	char name[CP_FAULT_NAME_LEN];
};

static struct {
	struct cp_fault_spec spec;
	bool tripped;
	char text[CP_FAULT_NAME_LEN + 24];
	unsigned int nr_names;
	struct {
		char name[CP_FAULT_NAME_LEN];
		u32 calls[CHAINPOOL_FAULT_NR_OPS];
	} names[CP_FAULT_NR_NAMES];
} cp_fault;
static DEFINE_SPINLOCK(cp_fault_lock);	/* pool allocations may be atomic */

static void cp_fault_key(char *key, const char *name)
{
	char *c;

	strscpy(key, name, CP_FAULT_NAME_LEN);
	for (c = key; *c; c++)
		if (*c == ' ')
			*c = '_';
}

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
	cp_fault_key(f->name, name);
	return 0;
}

static int pool_fail_set(const char *val, const struct kernel_param *kp)
{
	struct cp_fault_spec f = { };
	char buf[sizeof(cp_fault.text)];
	unsigned long flags;

	if (strscpy(buf, val, sizeof(buf)) < 0)
		goto bad;
	strim(buf);
	if (cp_fault_parse(buf, &f))
		goto bad;
	spin_lock_irqsave(&cp_fault_lock, flags);
	memset(&cp_fault, 0, sizeof(cp_fault));
	strscpy(cp_fault.text, val, sizeof(cp_fault.text));
	strim(cp_fault.text);
	cp_fault.spec = f;
	spin_unlock_irqrestore(&cp_fault_lock, flags);
	return 0;
bad:
	pr_err("pool_fail=%s is not OP:NAME:N[+] (OP create, alloc, coherent, slab or topslab), trace or off\n",
	       val);
	return -EINVAL;
}

static int pool_fail_get(char *buf, const struct kernel_param *kp)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&cp_fault_lock, flags);
	n = sprintf(buf, "%s\n", cp_fault.spec.armed ? cp_fault.text : "off");
	spin_unlock_irqrestore(&cp_fault_lock, flags);
	return n;
}

static const struct kernel_param_ops pool_fail_ops = {
	.set = pool_fail_set,
	.get = pool_fail_get,
};

module_param_cb(pool_fail, &pool_fail_ops, NULL, 0600);
MODULE_PARM_DESC(pool_fail,
		 "test build: fail a DMA allocation: OP:NAME:N[+], trace, or off (default)");

/**
 * chainpool_fault() - count a call at a fault point; should it fail?
 * @op: what is called
 * @name: the pool, or for CHAINPOOL_FAULT_COHERENT the calling function
 * @dev: the device, for the log line
 *
 * Return: true if pool_fail says this call fails.
 */
bool chainpool_fault(enum chainpool_fault_op op, const char *name,
		     struct device *dev)
{
	bool slab = op >= CHAINPOOL_FAULT_SLAB, fail = false, log;
	struct cp_fault_spec *f = &cp_fault.spec;
	char key[CP_FAULT_NAME_LEN];
	unsigned long flags;
	unsigned int i;
	u32 n = 0;

	if (!READ_ONCE(cp_fault.spec.armed))
		return false;
	cp_fault_key(key, name);
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
	if (cp_fault.tripped && !slab) {
		fail = true;
	} else if (!f->trace && op == f->op && (!f->nth || n == f->nth) &&
		   (!strcmp(f->name, "*") || !strcmp(key, f->name))) {
		fail = true;
		cp_fault.tripped = f->persist;
	}
	log = !slab && (fail || (f->trace &&
				 (op != CHAINPOOL_FAULT_ALLOC || n == 1)));
	spin_unlock_irqrestore(&cp_fault_lock, flags);
	if (log && fail)
		dev_warn(dev, "pool_fail: %s:%s:%u fails\n", cp_fault_ops[op],
			 key, n);
	else if (log)
		dev_info(dev, "pool_fail: point %s:%s:%u\n", cp_fault_ops[op],
			 key, n);
	return fail;
}

/**
 * cp_dma_alloc_coherent() - the driver's dma_alloc_coherent(), a fault point
 * @dev: the device
 * @size: bytes wanted
 * @dma: set to the DMA address
 * @gfp: allocation flags
 * @caller: the calling function, the point's name
 *
 * Return: the CPU address, or NULL.
 */
void *cp_dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma,
			    gfp_t gfp, const char *caller)
{
	if (chainpool_fault(CHAINPOOL_FAULT_COHERENT, caller, dev))
		return NULL;
	return dma_alloc_coherent(dev, size, dma, gfp);
}
