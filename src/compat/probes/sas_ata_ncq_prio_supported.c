// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: sas_ata_ncq_prio_supported()
 *
 * HAVE_SAS_ATA_NCQ_PRIO_SUPPORTED: libsas/SAS transport helper that reads
 * the NCQ priority bit from the ATA Information VPD page (0x89).  Added in
 * v6.10 by "scsi: libsas: Define NCQ Priority sysfs attributes for SATA
 * devices" (Igor Pylypiv); backported to 6.1.y, not in Debian 5.10.
 * Fallback: read VPD page 0x89 with scsi_get_vpd_page().
 *
 * Since: v6.10
 */
#include <scsi/scsi_device.h>
#include <scsi/scsi_transport_sas.h>

static bool __maybe_unused probe(struct scsi_device *sdev)
{
	return sas_ata_ncq_prio_supported(sdev);
}
