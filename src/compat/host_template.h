/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpt3sas compat: SCSI host template macros for the compat patches
 *
 * Included by compat/mpt3sas_compat.h only, after compat/renames.h (for
 * mpt3sas_compat_sdev_attrs) and compat/patch_helpers.h.
 *
 * The host template's members and callback signatures changed over the
 * supported range.  The compat patches in mpt3sas/patches/01xx make the
 * upstream templates and callbacks spell them through the MPT3SAS_SHT_*()
 * and MPT3SAS_DEFINE_*() macros and the MPT3SAS_* type names below, which
 * expand to what the target kernel's struct scsi_host_template takes.
 */
#ifndef MPT3SAS_COMPAT_HOST_TEMPLATE_H
#define MPT3SAS_COMPAT_HOST_TEMPLATE_H

#ifndef MPT3SAS_COMPAT_H
#error "include compat/mpt3sas_compat.h instead"
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
/**
 * mpt3sas_compat_slave_configure() - run a limits-based configure callback
 * @sdev: SCSI device being configured
 * @fn: the driver's .sdev_configure callback
 *
 * The body of the fn_compat() .slave_configure callback that
 * MPT3SAS_DEFINE_SDEV_CONFIGURE(fn) defines in mpt3sas_scsih.c: runs @fn on
 * a copy of the queue's limits and applies the two the driver changes.
 *
 * Return: @fn's result, or -ENOMEM.
 */
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

#endif /* MPT3SAS_COMPAT_HOST_TEMPLATE_H */
