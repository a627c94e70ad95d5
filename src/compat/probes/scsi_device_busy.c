// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: scsi_device_busy()
 *
 * HAVE_SCSI_DEVICE_BUSY: number of commands outstanding on a SCSI device.
 * Added in v5.13 by Ming Lei's series "scsi: core: Add scsi_device_busy()
 * to read sdev->device_busy" and 020b0f0a3192 ("scsi: core: Replace
 * sdev->device_busy with sbitmap"), which turned the atomic_t device_busy
 * counter into sdev->budget_map.  Fallback: atomic_read(&sdev->device_busy)
 * (an atomic_t from 4.15 to 5.12).
 *
 * Since: v5.13 (020b0f0a3192)
 */
#include <scsi/scsi_device.h>

static int __maybe_unused probe(struct scsi_device *sdev)
{
	return scsi_device_busy(sdev);
}
