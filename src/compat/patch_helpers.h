/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpt3sas compat: helpers that only the compat patches call
 *
 * Included by compat/mpt3sas_compat.h only, after compat/renames.h.
 *
 * Where the upstream driver itself must do something else on an older
 * kernel (no shared host tags, no poll queues), a compat patch in
 * mpt3sas/patches/01xx replaces its code with a call to one of these
 * mpt3sas_compat_*() helpers.  Upstream code never calls them, and a
 * helper is added here only together with the patch that calls it.
 */
#ifndef MPT3SAS_COMPAT_PATCH_HELPERS_H
#define MPT3SAS_COMPAT_PATCH_HELPERS_H

#ifndef MPT3SAS_COMPAT_H
#error "include compat/mpt3sas_compat.h instead"
#endif

/*
 * Shared host-wide tags (v5.10): without them the driver keeps to one
 * hardware queue, as the in-tree mpt3sas of those kernels does.
 */
#ifdef HAVE_SHOST_HOST_TAGSET
/**
 * mpt3sas_compat_host_tagset() - whether the host shares its tags
 * @shost: SCSI host
 *
 * Called by patch 0105 where the upstream driver reads shost->host_tagset.
 *
 * Return: shost->host_tagset; false on kernels without the member.
 */
static inline bool mpt3sas_compat_host_tagset(struct Scsi_Host *shost)
{
	return shost->host_tagset;
}

/**
 * mpt3sas_compat_set_host_tagset() - share the host's tags across queues
 * @shost: SCSI host, not yet added
 * @host_tagset: the value upstream assigns to shost->host_tagset
 *
 * Called by patch 0105 where the upstream driver sets shost->host_tagset;
 * does nothing on kernels without the member.
 */
static inline void mpt3sas_compat_set_host_tagset(struct Scsi_Host *shost,
						  bool host_tagset)
{
	shost->host_tagset = host_tagset;
}
#else
/* no host_tagset: never shared; see the kernel-doc above */
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
/**
 * mpt3sas_compat_poll_queues() - the poll queues the driver may use
 * @poll_queues: the number the upstream driver computed (module parameter)
 *
 * Called by patch 0103 where the upstream driver reads its poll_queues.
 *
 * Return: @poll_queues; 0 on kernels without .mq_poll.
 */
static inline int mpt3sas_compat_poll_queues(int poll_queues)
{
	return poll_queues;
}

/**
 * mpt3sas_compat_nr_maps() - the host's number of queue maps
 * @shost: SCSI host
 *
 * Called by patch 0103 where the upstream driver reads shost->nr_maps.
 * Without .mq_poll it is only defined where struct blk_mq_queue_map
 * exists (v5.0), and reads the tag set's count.
 *
 * Return: shost->nr_maps, or shost->tag_set.nr_maps.
 */
static inline unsigned int mpt3sas_compat_nr_maps(struct Scsi_Host *shost)
{
	return shost->nr_maps;
}

/**
 * mpt3sas_compat_set_nr_maps() - set the host's number of queue maps
 * @shost: SCSI host, not yet added
 * @nr_maps: the value upstream assigns to shost->nr_maps
 *
 * Called by patch 0103 where the upstream driver sets shost->nr_maps;
 * does nothing on kernels without .mq_poll (the default map count holds).
 */
static inline void mpt3sas_compat_set_nr_maps(struct Scsi_Host *shost,
					      unsigned int nr_maps)
{
	shost->nr_maps = nr_maps;
}
#else
/* no .mq_poll: no poll queues; see the kernel-doc above */
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

/*
 * The hwmon channel table is const where struct hwmon_chip_info takes it
 * so (v6.5); patch 0108 spells its qualifier with this.
 */
#ifdef HAVE_HWMON_CHIP_INFO_CONST
#define MPT3SAS_HWMON_INFO_CONST	const
#else
#define MPT3SAS_HWMON_INFO_CONST
#endif

#endif /* MPT3SAS_COMPAT_PATCH_HELPERS_H */
