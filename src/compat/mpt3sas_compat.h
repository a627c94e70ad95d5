/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel API compatibility for the out-of-tree mpt3sas driver
 *
 * Force-included (-include) into every upstream driver object, ahead of the
 * driver's own includes: the one entry point of the compat layer.  Every
 * shim is keyed on a HAVE_* result that compat/probe.mk measured on the
 * target kernel (compat_config.h), never on the kernel version:
 * distribution kernels backport APIs freely.
 *
 * The shims come in three kinds, one header each, included below in this
 * order (host_template.h names an array renames.h defines):
 *  - compat/renames.h: a kernel function, macro or constant the upstream
 *    code uses unchanged, provided under its current name where the kernel
 *    lacks it (an older kernel name mapped onto it, or a small backport);
 *  - compat/patch_helpers.h: mpt3sas_compat_*() helpers that only the
 *    compat patches (mpt3sas/patches/01xx) call, where the upstream code
 *    itself must differ (shared host tags, poll queues);
 *  - compat/host_template.h: the MPT3SAS_SHT_*() and MPT3SAS_DEFINE_*()
 *    macros through which the 01xx patches spell the host template members
 *    and callback signatures that changed.
 *
 * Every fallback also compiles where the kernel has the API: a function is
 * defined as mpt3sas_compat_<name>() and <name> #defined to it, a macro is
 * #undef'ed first.  On the kernels a fallback is for that changes nothing;
 * it lets tests/compat/compat-fallbacks.sh force probes false and
 * compile the fallbacks of the oldest supported kernel on the newer
 * kernels we have headers for.
 */
#ifndef MPT3SAS_COMPAT_H
#define MPT3SAS_COMPAT_H

#include "compat_config.h"

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
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

#include "renames.h"
#include "patch_helpers.h"
#include "host_template.h"

#endif /* MPT3SAS_COMPAT_H */
