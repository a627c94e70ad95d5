/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel API compatibility for the out-of-tree mpt3sas driver
 *
 * Force-included (-include) into every driver object, ahead of the driver's
 * own includes.  Every shim below is keyed on a HAVE_* result that
 * compat/probe.mk measured on the target kernel (compat_config.h), never on
 * the kernel version: distribution kernels backport APIs freely.
 *
 * Two kinds of shims:
 *  - a missing function or constant is provided under its new name, so the
 *    upstream code compiles unchanged;
 *  - where the upstream code itself must differ (host template members and
 *    callback signatures), the compat patches in mpt3sas/patches/01xx make
 *    it use the MPT3SAS_SHT_*() and MPT3SAS_DEFINE_*() macros below.
 *
 * Every fallback also compiles where the kernel has the API: a function is
 * defined as mpt3sas_compat_<name>() and <name> #defined to it, a macro is
 * #undef'ed first.  On the kernels a fallback is for that changes nothing;
 * it lets tests/compat/old-kernel-fallbacks.sh force probes false and
 * compile the fallbacks of the oldest supported kernel on the newer
 * kernels we have headers for.
 */
#ifndef MPT3SAS_COMPAT_H
#define MPT3SAS_COMPAT_H

#include "compat_config.h"

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/interrupt.h>
#include <linux/pci.h>
#include <linux/poll.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/sysfs.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_common.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_eh.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_transport_sas.h>

#if defined(HAVE_BLK_MQ_QUEUE_MAP) && !defined(HAVE_BLK_MQ_MAP_HW_QUEUES)
#include <linux/blk-mq-pci.h>
#endif

#ifndef HAVE_EPOLLIN
#include <linux/eventpoll.h>
#endif

#ifndef HAVE_PCI_ENABLE_PCIE_ERROR_REPORTING
#include <linux/aer.h>
#endif

#ifndef HAVE_PCI_DISABLE_LINK_STATE
#include <linux/pci-aspm.h>
#endif

/* <linux/unaligned.h> (v6.12): see compat/linux/unaligned.h */

/* Attribute for byte arrays that need not be NUL-terminated (v4.20). */
#ifndef __nonstring
#define __nonstring
#endif

/* ---- compiler and core helpers ------------------------------------------- */

#ifndef HAVE_FALLTHROUGH
/* the v5.4 pseudo keyword; older kernels do not enable the warning it quiets */
#undef fallthrough
#ifdef __has_attribute
#if __has_attribute(__fallthrough__)
#define fallthrough	__attribute__((__fallthrough__))
#endif
#endif
#ifndef fallthrough
#define fallthrough	do {} while (0)
#endif
#endif

#ifndef HAVE_STRUCT_SIZE
/* v4.18 helper: sizeof(*p) plus n trailing members, SIZE_MAX on overflow */
static inline size_t mpt3sas_compat_struct_size(size_t base, size_t elem,
						size_t n)
{
	if (elem && n > (SIZE_MAX - base) / elem)
		return SIZE_MAX;
	return base + elem * n;
}

#undef struct_size
#define struct_size(p, member, n)					\
	mpt3sas_compat_struct_size(sizeof(*(p)), sizeof((*(p)).member[0]), (n))
#endif

#ifndef HAVE_POLL_T
/* ->poll() returned unsigned int before __poll_t */
#define __poll_t	unsigned int
#endif

#ifndef HAVE_EPOLLIN
/* <linux/eventpoll.h> has them since v4.12; the bits equal the POLL* ones */
#ifndef EPOLLIN
#define EPOLLIN		POLLIN
#endif
#ifndef EPOLLRDNORM
#define EPOLLRDNORM	POLLRDNORM
#endif
#endif

/* ---- strings and sysfs ------------------------------------------------ */

#ifndef HAVE_MEMTOSTR
/* Same contract as the v6.11 helper: dest is a char array, src a byte array */
#undef memtostr
#define memtostr(dest, src)	do {					\
	const size_t _dest_len = ARRAY_SIZE(dest);			\
	const size_t _src_chars = strnlen((const char *)(src),		\
					  sizeof(src));			\
	const size_t _copy_len = min(_dest_len - 1, _src_chars);	\
									\
	BUILD_BUG_ON(_dest_len == 0);					\
	memcpy(dest, src, _copy_len);					\
	(dest)[_copy_len] = '\0';					\
} while (0)
#endif

#ifndef HAVE_SYSFS_EMIT
static inline __printf(2, 3) int
mpt3sas_compat_sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list args;
	int len;

	va_start(args, fmt);
	len = vscnprintf(buf, PAGE_SIZE, fmt, args);
	va_end(args);
	return len;
}

#define sysfs_emit	mpt3sas_compat_sysfs_emit
#endif

/* ---- timers and workqueues --------------------------------------------- */

#ifndef HAVE_TIMER_DELETE_SYNC
static inline int mpt3sas_compat_timer_delete_sync(struct timer_list *timer)
{
	return del_timer_sync(timer);
}

#define timer_delete_sync	mpt3sas_compat_timer_delete_sync
#endif

#ifndef HAVE_TIMER_CONTAINER_OF
#undef timer_container_of
#define timer_container_of(var, timer, field)	from_timer(var, timer, field)
#endif

#ifndef HAVE_WQ_PERCPU
/* per-CPU is the default of alloc_workqueue() wherever WQ_PERCPU is absent */
#define WQ_PERCPU	0
#endif

/* ---- PCI and interrupts -------------------------------------------------- */

#ifndef HAVE_PCI_IRQ_INTX
#undef PCI_IRQ_INTX
#define PCI_IRQ_INTX	PCI_IRQ_LEGACY
#endif

#ifndef HAVE_IRQ_UPDATE_AFFINITY_HINT
static inline int
mpt3sas_compat_irq_update_affinity_hint(unsigned int irq,
					const struct cpumask *m)
{
	return irq_set_affinity_hint(irq, m);
}

#define irq_update_affinity_hint	mpt3sas_compat_irq_update_affinity_hint
#endif

#ifndef HAVE_PCI_ENABLE_PCIE_ERROR_REPORTING
/* AER reporting is enabled by the PCI core (v6.0); the helpers are gone. */
static inline int
mpt3sas_compat_pci_enable_pcie_error_reporting(struct pci_dev *dev)
{
	return 0;
}

static inline int
mpt3sas_compat_pci_disable_pcie_error_reporting(struct pci_dev *dev)
{
	return 0;
}

#define pci_enable_pcie_error_reporting \
	mpt3sas_compat_pci_enable_pcie_error_reporting
#define pci_disable_pcie_error_reporting \
	mpt3sas_compat_pci_disable_pcie_error_reporting
#endif

/* ---- block layer ----------------------------------------------------------- */

#if defined(HAVE_BLK_MQ_QUEUE_MAP) && !defined(HAVE_BLK_MQ_MAP_HW_QUEUES)
static inline void
mpt3sas_compat_blk_mq_map_hw_queues(struct blk_mq_queue_map *qmap,
				    struct device *dev, unsigned int offset)
{
	blk_mq_pci_map_queues(qmap, to_pci_dev(dev), offset);
}

#define blk_mq_map_hw_queues	mpt3sas_compat_blk_mq_map_hw_queues
#endif

/* ---- SCSI midlayer --------------------------------------------------------- */

#ifndef HAVE_SCSI_CMD_TO_RQ
static inline struct request *
mpt3sas_compat_scsi_cmd_to_rq(struct scsi_cmnd *scmd)
{
	return scmd->request;
}

#define scsi_cmd_to_rq	mpt3sas_compat_scsi_cmd_to_rq
#endif

#ifndef HAVE_SCSI_DONE
static inline void mpt3sas_compat_scsi_done(struct scsi_cmnd *cmd)
{
	cmd->scsi_done(cmd);
}

#define scsi_done	mpt3sas_compat_scsi_done
#endif

#ifndef HAVE_SCSI_BUILD_SENSE
static inline void mpt3sas_compat_scsi_build_sense(struct scsi_cmnd *scmd,
						   int desc, u8 key, u8 asc,
						   u8 ascq)
{
	scsi_build_sense_buffer(desc, scmd->sense_buffer, key, asc, ascq);
	scmd->result = (DRIVER_SENSE << 24) | SAM_STAT_CHECK_CONDITION;
}

#define scsi_build_sense	mpt3sas_compat_scsi_build_sense
#endif

#ifndef HAVE_SCSI_PROT_REF_TAG
static inline u32 mpt3sas_compat_scsi_prot_ref_tag(struct scsi_cmnd *scmd)
{
	/* 9: log2 of the 512-byte sector (SECTOR_SHIFT is v4.18) */
	unsigned int shift = ilog2(scmd->device->sector_size) - 9;

	return (blk_rq_pos(scsi_cmd_to_rq(scmd)) >> shift) & 0xffffffff;
}

#define scsi_prot_ref_tag	mpt3sas_compat_scsi_prot_ref_tag
#endif

#ifndef HAVE_SCSI_DEVICE_BUSY
static inline int mpt3sas_compat_scsi_device_busy(struct scsi_device *sdev)
{
	return atomic_read(&sdev->device_busy);
}

#define scsi_device_busy	mpt3sas_compat_scsi_device_busy
#endif

#ifndef HAVE_SCSI_HOST_BUSY
static inline int mpt3sas_compat_scsi_host_busy(struct Scsi_Host *shost)
{
	return atomic_read(&shost->host_busy);
}

#define scsi_host_busy	mpt3sas_compat_scsi_host_busy
#endif

#ifndef HAVE_SAS_LINK_RATE_22_5_GBPS
/* the fastest rate the transport class of these kernels can name */
#define SAS_LINK_RATE_22_5_GBPS	SAS_LINK_RATE_12_0_GBPS
#endif

#ifndef HAVE_SAS_ATA_NCQ_PRIO_SUPPORTED
/* NCQ priority bit of the ATA Information VPD page, as libsas reads it */
static inline bool
mpt3sas_compat_sas_ata_ncq_prio_supported(struct scsi_device *sdev)
{
	bool supported = false;
	u8 *buf;

	buf = kmalloc(256, GFP_KERNEL);
	if (!buf)
		return false;
	if (!scsi_get_vpd_page(sdev, 0x89, buf, 256))
		supported = (buf[213] >> 4) & 1;
	kfree(buf);
	return supported;
}

#define sas_ata_ncq_prio_supported	mpt3sas_compat_sas_ata_ncq_prio_supported
#endif

/*
 * Host sysfs attributes: .shost_groups (v5.16) registers the driver's
 * groups together with the midlayer's when the host device is added.  On
 * older kernels do the same by hand: scsi_add_host() is wrapped to append
 * the driver's groups to shost_dev.groups, which device_add() registers
 * before the uevent, exactly like the template member does.
 */
#ifdef HAVE_SHT_SHOST_GROUPS
static inline int mpt3sas_compat_shost_groups(struct Scsi_Host *shost)
{
	return 0;
}
#else
extern const struct attribute_group *mpt3sas_host_groups[];

static inline int mpt3sas_compat_shost_groups(struct Scsi_Host *shost)
{
	/* the same pointers for every host: midlayer's groups, then ours */
	static const struct attribute_group *groups[16];
	const struct attribute_group **g;
	unsigned int n = 0;

	for (g = shost->shost_dev.groups; g && *g; g++) {
		if (n >= ARRAY_SIZE(groups) - 1)
			return -E2BIG;
		groups[n++] = *g;
	}
	for (g = mpt3sas_host_groups; *g; g++) {
		if (n >= ARRAY_SIZE(groups) - 1)
			return -E2BIG;
		groups[n++] = *g;
	}
	groups[n] = NULL;
	shost->shost_dev.groups = groups;
	return 0;
}
#endif

/*
 * SCSI device sysfs attributes: .sdev_groups exists since v4.17
 * (86b87cde0b55, "scsi: core: host template attribute groups").  Before,
 * the template lists struct device_attribute pointers in .sdev_attrs,
 * which the midlayer creates for every new device.  MPT3SAS_SHT_SDEV_GROUPS()
 * points .sdev_attrs at the array below, filled from the driver's groups
 * by the scsi_add_host() wrapper, before the host can have a device.
 */
#ifdef HAVE_SHT_SDEV_GROUPS
static inline int mpt3sas_compat_sdev_groups(void)
{
	return 0;
}
#else
extern const struct attribute_group *mpt3sas_dev_groups[];

static struct device_attribute *mpt3sas_compat_sdev_attrs[32] __maybe_unused;

static inline int mpt3sas_compat_sdev_groups(void)
{
	const struct attribute_group **g;
	struct attribute **a;
	unsigned int n = 0;

	for (g = mpt3sas_dev_groups; *g; g++) {
		for (a = (*g)->attrs; a && *a; a++) {
			if (n >= ARRAY_SIZE(mpt3sas_compat_sdev_attrs) - 1)
				return -E2BIG;
			mpt3sas_compat_sdev_attrs[n++] =
				container_of(*a, struct device_attribute, attr);
		}
	}
	mpt3sas_compat_sdev_attrs[n] = NULL;
	return 0;
}
#endif

#if !defined(HAVE_SHT_SHOST_GROUPS) || !defined(HAVE_SHT_SDEV_GROUPS)
static inline int __must_check
mpt3sas_compat_scsi_add_host(struct Scsi_Host *shost, struct device *dev)
{
	int ret;

	ret = mpt3sas_compat_shost_groups(shost);
	if (!ret)
		ret = mpt3sas_compat_sdev_groups();
	if (ret)
		return ret;
	return scsi_add_host_with_dma(shost, dev, dev);
}

#define scsi_add_host(shost, dev)	mpt3sas_compat_scsi_add_host(shost, dev)
#endif

/*
 * Shared host-wide tags (v5.10): without them the driver keeps to one
 * hardware queue, as the in-tree mpt3sas of those kernels does.
 */
#ifdef HAVE_SHOST_HOST_TAGSET
static inline bool mpt3sas_compat_host_tagset(struct Scsi_Host *shost)
{
	return shost->host_tagset;
}

static inline void mpt3sas_compat_set_host_tagset(struct Scsi_Host *shost,
						  bool host_tagset)
{
	shost->host_tagset = host_tagset;
}
#else
static inline bool mpt3sas_compat_host_tagset(struct Scsi_Host *shost)
{
	return false;
}

static inline void mpt3sas_compat_set_host_tagset(struct Scsi_Host *shost,
						  bool host_tagset)
{
}
#endif

/*
 * io_uring poll queues need the midlayer's .mq_poll and Scsi_Host.nr_maps
 * (v5.13); without them the driver runs without poll queues.
 */
#ifdef HAVE_SHT_MQ_POLL
static inline int mpt3sas_compat_poll_queues(int poll_queues)
{
	return poll_queues;
}

static inline unsigned int mpt3sas_compat_nr_maps(struct Scsi_Host *shost)
{
	return shost->nr_maps;
}

static inline void mpt3sas_compat_set_nr_maps(struct Scsi_Host *shost,
					      unsigned int nr_maps)
{
	shost->nr_maps = nr_maps;
}
#else
static inline int mpt3sas_compat_poll_queues(int poll_queues)
{
	return 0;
}

#ifdef HAVE_BLK_MQ_QUEUE_MAP
static inline unsigned int mpt3sas_compat_nr_maps(struct Scsi_Host *shost)
{
	return shost->tag_set.nr_maps;
}
#endif

static inline void mpt3sas_compat_set_nr_maps(struct Scsi_Host *shost,
					      unsigned int nr_maps)
{
}
#endif

/* ---- SCSI host template ---------------------------------------------------- */

/*
 * The template macros expand to a designated initializer including its
 * trailing comma (or to nothing), so the patched templates list them
 * without one.  The variants that expand to nothing ignore their argument
 * on purpose (checkpatch: "Argument ... is not used").
 */

/* Host templates are const where the midlayer takes them as const (v6.4). */
#ifdef HAVE_CONST_SCSI_HOST_TEMPLATE
#define MPT3SAS_SHT_CONST	const
#else
#define MPT3SAS_SHT_CONST
#endif

/* .queuecommand returns enum scsi_qc_status since v6.19/v7.0 */
#ifdef HAVE_SCSI_QC_STATUS
#define MPT3SAS_QC_STATUS	enum scsi_qc_status
#else
#define MPT3SAS_QC_STATUS	int
#endif

/* .bios_param gets the gendisk instead of the block_device since v6.16 */
#ifdef HAVE_SHT_BIOS_PARAM_GENDISK
#define MPT3SAS_BIOS_PARAM_DISK	struct gendisk
#else
#define MPT3SAS_BIOS_PARAM_DISK	struct block_device
#endif

/* .slave_alloc became .sdev_init in v6.14 */
#ifdef HAVE_SHT_SDEV_INIT
#define MPT3SAS_SHT_SDEV_INIT(fn)	.sdev_init = (fn),
#else
#define MPT3SAS_SHT_SDEV_INIT(fn)	.slave_alloc = (fn),
#endif

/* .slave_destroy became .sdev_destroy in v6.14 */
#ifdef HAVE_SHT_SDEV_DESTROY
#define MPT3SAS_SHT_SDEV_DESTROY(fn)	.sdev_destroy = (fn),
#else
#define MPT3SAS_SHT_SDEV_DESTROY(fn)	.slave_destroy = (fn),
#endif

/*
 * The driver's configure callback edits a struct queue_limits (v6.10
 * .device_configure, v6.14 .sdev_configure).  Older kernels only have
 * .slave_configure(sdev): MPT3SAS_DEFINE_SDEV_CONFIGURE(fn) then defines
 * fn_compat(), which hands fn() a copy of the queue's limits and applies
 * the two limits the driver changes with the blk_queue_*() setters.
 */
#if defined(HAVE_SHT_SDEV_CONFIGURE)
#define MPT3SAS_SHT_SDEV_CONFIGURE(fn)	.sdev_configure = (fn),
#define MPT3SAS_DEFINE_SDEV_CONFIGURE(fn)
#elif defined(HAVE_SHT_DEVICE_CONFIGURE)
#define MPT3SAS_SHT_SDEV_CONFIGURE(fn)	.device_configure = (fn),
#define MPT3SAS_DEFINE_SDEV_CONFIGURE(fn)
#else
static inline int
mpt3sas_compat_slave_configure(struct scsi_device *sdev,
			       int (*fn)(struct scsi_device *sdev,
					 struct queue_limits *lim))
{
	struct request_queue *q = sdev->request_queue;
	struct queue_limits *lim;
	int ret;

	lim = kmemdup(&q->limits, sizeof(*lim), GFP_KERNEL);
	if (!lim)
		return -ENOMEM;
	ret = fn(sdev, lim);
	if (!ret) {
		if (lim->max_hw_sectors != q->limits.max_hw_sectors)
			blk_queue_max_hw_sectors(q, lim->max_hw_sectors);
		if (lim->virt_boundary_mask != q->limits.virt_boundary_mask)
			blk_queue_virt_boundary(q, lim->virt_boundary_mask);
	}
	kfree(lim);
	return ret;
}

#define MPT3SAS_SHT_SDEV_CONFIGURE(fn)	.slave_configure = fn##_compat,
#define MPT3SAS_DEFINE_SDEV_CONFIGURE(fn)				\
static int fn##_compat(struct scsi_device *sdev)			\
{									\
	return mpt3sas_compat_slave_configure(sdev, fn);		\
}
#endif

#ifdef HAVE_SHT_SHOST_GROUPS
#define MPT3SAS_SHT_SHOST_GROUPS(groups)	.shost_groups = (groups),
#else
/* see mpt3sas_compat_scsi_add_host() */
#define MPT3SAS_SHT_SHOST_GROUPS(groups)
#endif

#ifdef HAVE_SHT_SDEV_GROUPS
#define MPT3SAS_SHT_SDEV_GROUPS(groups)	.sdev_groups = (groups),
#else
/* see mpt3sas_compat_sdev_groups() */
#define MPT3SAS_SHT_SDEV_GROUPS(groups)	.sdev_attrs = mpt3sas_compat_sdev_attrs,
#endif

/*
 * .max_segment_size (v5.0); before, the block layer's 64 KiB segment limit
 * applies, and segments are only merged with .use_clustering set (until
 * v4.20; the in-tree mpt3sas of those kernels set ENABLE_CLUSTERING).
 */
#ifdef HAVE_SHT_MAX_SEGMENT_SIZE
#define MPT3SAS_SHT_MAX_SEGMENT_SIZE(size)	.max_segment_size = (size),
#else
#define MPT3SAS_SHT_MAX_SEGMENT_SIZE(size)
#endif

#ifdef HAVE_SHT_USE_CLUSTERING
#define MPT3SAS_SHT_USE_CLUSTERING	.use_clustering = ENABLE_CLUSTERING,
#else
#define MPT3SAS_SHT_USE_CLUSTERING
#endif

#ifdef HAVE_SHT_MQ_POLL
#define MPT3SAS_SHT_MQ_POLL(fn)		.mq_poll = (fn),
#else
#define MPT3SAS_SHT_MQ_POLL(fn)
#endif

/*
 * .map_queues returned int until v6.1.  Before v5.0 (no struct
 * blk_mq_queue_map) the driver's callback is not built at all and the
 * midlayer's default map is used: those kernels have no host_tagset, so
 * the driver runs a single hardware queue, for which the upstream
 * callback does nothing either.
 */
#ifndef HAVE_BLK_MQ_QUEUE_MAP
#define MPT3SAS_SHT_MAP_QUEUES(fn)
#define MPT3SAS_DEFINE_MAP_QUEUES(fn)
#elif defined(HAVE_SHT_MAP_QUEUES_VOID)
#define MPT3SAS_SHT_MAP_QUEUES(fn)	.map_queues = (fn),
#define MPT3SAS_DEFINE_MAP_QUEUES(fn)
#else
#define MPT3SAS_SHT_MAP_QUEUES(fn)	.map_queues = fn##_compat,
#define MPT3SAS_DEFINE_MAP_QUEUES(fn)					\
static int fn##_compat(struct Scsi_Host *shost)				\
{									\
	fn(shost);							\
	return 0;							\
}
#endif

#endif /* MPT3SAS_COMPAT_H */
