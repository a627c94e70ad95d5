// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chainpool: what the module shows its users: the module parameters
 * chainpool_create() reads, and one debugfs file per pool.
 *
 * Written against APIs stable from v4.15 on: open-coded single_open()
 * fops, debugfs return values only passed on.
 */
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>

#include "chainpool_pool.h"

#define CHAINPOOL_SLAB_KB_MAX		4096U
#define CHAINPOOL_SLAB_KB_DEFAULT	(CHAINPOOL_DEFAULT_SLAB_CAP >> 10)

static unsigned int chainpool_slab_kb = CHAINPOOL_SLAB_KB_DEFAULT;
static bool chainpool_debug;
static unsigned int chainpool_fail_slab;
static bool chainpool_fail_max_order;

static unsigned int chainpool_slab_kb_min(void)
{
	return PAGE_SIZE >= 1024 ? PAGE_SIZE / 1024 : 1;
}

/* Clamp to [one page, 4 MiB] and round down to a power of two, loudly. */
static int chainpool_slab_kb_set(const char *val,
				 const struct kernel_param *kp)
{
	unsigned int kb, use;
	int ret;

	ret = kstrtouint(val, 0, &kb);
	if (ret)
		return ret;
	use = clamp(kb, chainpool_slab_kb_min(), CHAINPOOL_SLAB_KB_MAX);
	use = rounddown_pow_of_two(use);
	if (use != kb)
		pr_warn("chainpool: chainpool_slab_kb=%u is not a power of two in [%u, %u], using %u\n",
			kb, chainpool_slab_kb_min(), CHAINPOOL_SLAB_KB_MAX, use);
	*(unsigned int *)kp->arg = use;
	return 0;
}

static const struct kernel_param_ops chainpool_slab_kb_ops = {
	.set = chainpool_slab_kb_set,
	.get = param_get_uint,
};

module_param_cb(chainpool_slab_kb, &chainpool_slab_kb_ops, &chainpool_slab_kb,
		0444);
MODULE_PARM_DESC(chainpool_slab_kb,
		 "largest chainpool slab in KiB, a power of two up to 4096 (default 128)");
module_param(chainpool_debug, bool, 0444);
MODULE_PARM_DESC(chainpool_debug,
		 "poison freed chainpool blocks and check frees (default off)");
/* Writable by root only, and ignored unless chainpool_debug is set. */
module_param(chainpool_fail_slab, uint, 0600);
MODULE_PARM_DESC(chainpool_fail_slab,
		 "with chainpool_debug: fail the Nth slab allocation of each new pool (0: off)");
/* Same rules: root only, and only with chainpool_debug. */
module_param(chainpool_fail_max_order, bool, 0600);
MODULE_PARM_DESC(chainpool_fail_max_order,
		 "with chainpool_debug: fail every slab allocation at the largest order of a pool that has smaller ones, to test the fallback (default off)");

/**
 * chainpool_create() - create a pool, as dma_pool_create()
 * @name: pool name, for messages and debugfs
 * @dev: device the blocks are for
 * @size: block size
 * @align: block alignment, 0 or a power of two
 * @boundary: 0, or a power of two not below @size that blocks must not cross
 *
 * Settings come from the module parameters chainpool_slab_kb,
 * chainpool_debug and, only with chainpool_debug, the fault injection
 * knobs chainpool_fail_slab and chainpool_fail_max_order.
 *
 * Context: may sleep.
 * Return: the pool, or NULL.
 */
struct chainpool *chainpool_create(const char *name, struct device *dev,
				   size_t size, size_t align, size_t boundary)
{
	struct chainpool_params params = {
		.slab_bytes = (u64)READ_ONCE(chainpool_slab_kb) << 10,
		.debug = chainpool_debug,
		.fail_slab = chainpool_debug ? READ_ONCE(chainpool_fail_slab) : 0,
		.fail_max_order = chainpool_debug &&
				  READ_ONCE(chainpool_fail_max_order),
	};

	return chainpool_create_params(name, dev, size, align, boundary,
				       &params);
}

static DEFINE_MUTEX(chainpool_debugfs_mutex);
static struct dentry *chainpool_debugfs_root;
static unsigned int chainpool_debugfs_users;
static unsigned int chainpool_debugfs_seq;

static int chainpool_debugfs_show(struct seq_file *m, void *unused)
{
	struct chainpool *pool = m->private;
	struct chainpool_stats st;
	unsigned int order;

	chainpool_get_stats(pool, &st);
	seq_printf(m, "name: %s\n", pool->name);
	seq_printf(m, "device: %s\n", dev_name(pool->dev));
	seq_printf(m, "block_size: %u\nstride: %u\nalign: %u\nboundary: %u\n",
		   st.size, st.stride, st.align, st.boundary);
	seq_printf(m, "blocks_total: %llu\nblocks_in_use: %u\n",
		   (unsigned long long)st.blocks_total, st.blocks_in_use);
	seq_printf(m, "slabs: %u\n", st.nr_slabs);
	for (order = 0; order < CHAINPOOL_NR_ORDERS; order++)
		if (st.slabs_by_order[order])
			seq_printf(m, "slabs_order_%u: %u (%u KiB each)\n",
				   order, st.slabs_by_order[order],
				   chainpool_plan_slab_bytes(&pool->core.plan,
							     order) >> 10);
	seq_printf(m, "dma_bytes: %llu\nmeta_bytes: %llu\n",
		   (unsigned long long)st.dma_bytes,
		   (unsigned long long)st.meta_bytes);
	seq_printf(m, "create_ns: %llu\nfill_ns: %llu\n",
		   (unsigned long long)st.create_ns,
		   (unsigned long long)st.fill_ns);
	seq_printf(m, "fallbacks: %u\nrejected_slabs: %u\ninjected_failures: %u\n",
		   st.fallbacks, st.rejected, st.injected);
	seq_printf(m, "parked_slabs: %u\n", st.parked);
	seq_printf(m, "debug: %u\n", pool->core.debug);
	return 0;
}

static int chainpool_debugfs_open(struct inode *inode, struct file *file)
{
	return single_open(file, chainpool_debugfs_show, inode->i_private);
}

static const struct file_operations chainpool_debugfs_fops = {
	.owner = THIS_MODULE,
	.open = chainpool_debugfs_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * chainpool_debugfs_add() - give a new pool its debugfs file
 * @pool: the pool, its name and device set
 *
 * One file per pool in chainpool-<module>/: every module linking chainpool
 * gets its own directory.  The sequence number keeps two pools of the same
 * name on the same device apart.  Debugfs is optional: a failure only
 * means no file.
 */
void chainpool_debugfs_add(struct chainpool *pool)
{
	char fname[CHAINPOOL_NAME_LEN + 64];
	char *c;

	mutex_lock(&chainpool_debugfs_mutex);
	if (!chainpool_debugfs_users)
		chainpool_debugfs_root =
			debugfs_create_dir("chainpool-" KBUILD_MODNAME, NULL);
	chainpool_debugfs_users++;
	snprintf(fname, sizeof(fname), "%s-%s-%u", dev_name(pool->dev),
		 pool->name, chainpool_debugfs_seq++);
	for (c = fname; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
	if (!IS_ERR_OR_NULL(chainpool_debugfs_root))
		pool->debugfs = debugfs_create_file(fname, 0400,
						    chainpool_debugfs_root,
						    pool,
						    &chainpool_debugfs_fops);
	mutex_unlock(&chainpool_debugfs_mutex);
}

/**
 * chainpool_debugfs_del() - remove a pool's debugfs file
 * @pool: the pool
 *
 * Waits for the file's readers, so the pool may be freed after it.
 */
void chainpool_debugfs_del(struct chainpool *pool)
{
	mutex_lock(&chainpool_debugfs_mutex);
	if (!IS_ERR_OR_NULL(pool->debugfs))
		debugfs_remove(pool->debugfs);
	pool->debugfs = NULL;
	if (!--chainpool_debugfs_users) {
		if (!IS_ERR_OR_NULL(chainpool_debugfs_root))
			debugfs_remove(chainpool_debugfs_root);
		chainpool_debugfs_root = NULL;
	}
	mutex_unlock(&chainpool_debugfs_mutex);
}

/**
 * chainpool_debugfs_exit() - remove the module's debugfs directory
 *
 * For the module's exit: a pool never destroyed keeps its file, which
 * would run the unloaded module's code when opened, and the directory,
 * which would keep every later load of the module from making its own.
 */
void chainpool_debugfs_exit(void)
{
	mutex_lock(&chainpool_debugfs_mutex);
	if (chainpool_debugfs_users)
		pr_err("chainpool: %u pools never destroyed, removing their debugfs files\n",
		       chainpool_debugfs_users);
	if (!IS_ERR_OR_NULL(chainpool_debugfs_root))
		debugfs_remove_recursive(chainpool_debugfs_root);
	chainpool_debugfs_root = NULL;
	chainpool_debugfs_users = 0;
	mutex_unlock(&chainpool_debugfs_mutex);
}
