/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpt3sas compat: the kernel's current names on older kernels
 *
 * Included by compat/mpt3sas_compat.h only, after compat_config.h and the
 * kernel headers.
 *
 * The upstream driver uses every name below unchanged.  Where the probe
 * says the target kernel lacks it, it is provided under that name: an
 * older kernel's equivalent mapped onto it (0 for WQ_PERCPU), or a small
 * backport with the contract of the kernel's own function (struct_size(),
 * sysfs_emit(), ...), whose kernel documentation applies.
 *
 * The last one, scsi_add_host(), also registers the sysfs attribute groups
 * that compat/host_template.h leaves out of the host template on kernels
 * without .shost_groups or .sdev_groups.
 */
#ifndef MPT3SAS_COMPAT_RENAMES_H
#define MPT3SAS_COMPAT_RENAMES_H

#ifndef MPT3SAS_COMPAT_H
#error "include compat/mpt3sas_compat.h instead"
#endif

#if defined(HAVE_BLK_MQ_QUEUE_MAP) && !defined(HAVE_BLK_MQ_MAP_HW_QUEUES)
#include <linux/blk-mq-pci.h>
#endif

#ifndef HAVE_EPOLLIN
#include <linux/eventpoll.h>
#endif

#ifndef HAVE_PCI_DISABLE_LINK_STATE
#include <linux/pci-aspm.h>
#endif

/* <linux/unaligned.h> (v6.12): see compat/linux/unaligned.h */

/* <linux/blkdev.h> names the 512-byte sector's shift since v4.17. */
#ifndef SECTOR_SHIFT
#define SECTOR_SHIFT	9
#endif

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

/* ---- memory (chainpool.c) ------------------------------------------------ */

#ifndef HAVE_MIGHT_ALLOC
static inline void mpt3sas_compat_might_alloc(gfp_t gfp)
{
	might_sleep_if(gfpflags_allow_blocking(gfp));
}

#define might_alloc	mpt3sas_compat_might_alloc
#endif

#ifndef HAVE_BITMAP_ZALLOC
static inline unsigned long *
mpt3sas_compat_bitmap_zalloc(unsigned int nbits, gfp_t gfp)
{
	return kcalloc(BITS_TO_LONGS(nbits), sizeof(unsigned long), gfp);
}

static inline void mpt3sas_compat_bitmap_free(const unsigned long *bitmap)
{
	kfree(bitmap);
}

#define bitmap_zalloc	mpt3sas_compat_bitmap_zalloc
#define bitmap_free	mpt3sas_compat_bitmap_free
#endif

#ifndef HAVE_WANT_INIT_ON_FREE
/* no init_on_alloc= or init_on_free= on such kernels */
static inline bool mpt3sas_compat_want_init_on_alloc(gfp_t gfp)
{
	return gfp & __GFP_ZERO;
}

static inline bool mpt3sas_compat_want_init_on_free(void)
{
	return false;
}

#define want_init_on_alloc	mpt3sas_compat_want_init_on_alloc
#define want_init_on_free	mpt3sas_compat_want_init_on_free
#endif

#ifndef HAVE_DEFINE_SHOW_ATTRIBUTE
#undef DEFINE_SHOW_ATTRIBUTE
#define DEFINE_SHOW_ATTRIBUTE(__name)					\
static int __name ## _open(struct inode *inode, struct file *file)	\
{									\
	return single_open(file, __name ## _show, inode->i_private);	\
}									\
									\
static const struct file_operations __name ## _fops = {		\
	.owner		= THIS_MODULE,					\
	.open		= __name ## _open,				\
	.read		= seq_read,					\
	.llseek		= seq_lseek,					\
	.release	= single_release,				\
}
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

/* ---- workqueues --------------------------------------------------------- */

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

/* Came with irq_update_affinity_hint(); irq_set_affinity_hint() did both. */
static inline int
mpt3sas_compat_irq_set_affinity_and_hint(unsigned int irq,
					 const struct cpumask *m)
{
	return irq_set_affinity_hint(irq, m);
}

#define irq_set_affinity_and_hint	mpt3sas_compat_irq_set_affinity_and_hint
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

#ifndef HAVE_HWMON_CHANNEL_INFO
#include <linux/hwmon.h>
#undef HWMON_CHANNEL_INFO
#define HWMON_CHANNEL_INFO(stype, ...)					\
	(&(struct hwmon_channel_info) {					\
		.type = hwmon_##stype,					\
		.config = (u32 []) { __VA_ARGS__, 0 }			\
	})
#endif

#ifndef HAVE_KZALLOC_OBJ
/* kzalloc_obj(P[, gfp]) and kzalloc_objs(P, n[, gfp]) of v7.0 */
#undef kzalloc_obj
#undef kzalloc_objs
#define kzalloc_obj(P, ...)	mpt3sas_compat_kzalloc_obj(P, ##__VA_ARGS__, GFP_KERNEL)
#define mpt3sas_compat_kzalloc_obj(P, gfp, ...)	kzalloc(sizeof(P), gfp)
#define kzalloc_objs(P, n, ...)	\
	mpt3sas_compat_kzalloc_objs(P, n, ##__VA_ARGS__, GFP_KERNEL)
#define mpt3sas_compat_kzalloc_objs(P, n, gfp, ...)	kcalloc(n, sizeof(P), gfp)
#endif

#ifndef HAVE_SCSI_GET_HOST_STATE
static inline enum scsi_host_state
mpt3sas_compat_scsi_get_host_state(struct Scsi_Host *shost)
{
	return READ_ONCE(shost->shost_state);
}

#define scsi_get_host_state	mpt3sas_compat_scsi_get_host_state
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
/* the template's .shost_groups registers them: nothing to do */
static inline int mpt3sas_compat_shost_groups(struct Scsi_Host *shost)
{
	return 0;
}
#else
extern const struct attribute_group *mpt3sas_host_groups[];

/**
 * mpt3sas_compat_shost_groups() - add the driver's host attribute groups
 * @shost: SCSI host, allocated but not yet added
 *
 * Appends mpt3sas_host_groups (mpt3sas_scsih.c) to the midlayer's groups
 * of the host device, which device_add() registers; the replacement of
 * .shost_groups, which MPT3SAS_SHT_SHOST_GROUPS() (compat/host_template.h)
 * leaves out of the template on these kernels.  Called by
 * mpt3sas_compat_scsi_add_host().
 *
 * Return: 0, or -E2BIG if the groups do not fit the array.
 */
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
/* the template's .sdev_groups registers them: nothing to do */
static inline int mpt3sas_compat_sdev_groups(void)
{
	return 0;
}
#else
extern const struct attribute_group *mpt3sas_dev_groups[];

/* NULL-terminated; the host template's .sdev_attrs (compat/host_template.h) */
static struct device_attribute *mpt3sas_compat_sdev_attrs[32] __maybe_unused;

/**
 * mpt3sas_compat_sdev_groups() - list the driver's device attributes
 *
 * Fills mpt3sas_compat_sdev_attrs, which MPT3SAS_SHT_SDEV_GROUPS()
 * (compat/host_template.h) names as the template's .sdev_attrs, with the
 * attributes of mpt3sas_dev_groups (mpt3sas_scsih.c).  Called by
 * mpt3sas_compat_scsi_add_host(), before the host can have a device.
 *
 * Return: 0, or -E2BIG if the attributes do not fit the array.
 */
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
/**
 * mpt3sas_compat_scsi_add_host() - scsi_add_host() with the sysfs groups
 * @shost: SCSI host to add
 * @dev: its parent device, also the DMA device
 *
 * What the upstream driver's scsi_add_host() calls become on kernels that
 * lack .shost_groups or .sdev_groups: registers the driver's attribute
 * groups the way those template members would (see
 * mpt3sas_compat_shost_groups() and mpt3sas_compat_sdev_groups()), then
 * adds the host.
 *
 * Return: 0 or a negative errno, as scsi_add_host().
 */
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

#endif /* MPT3SAS_COMPAT_RENAMES_H */
