// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: scsi_host_alloc(const struct scsi_host_template *, int)
 *
 * HAVE_CONST_SCSI_HOST_TEMPLATE: host templates may be const.  Since v6.4,
 * e0d3f2c694e5 ("scsi: core: Declare SCSI host template pointer members
 * const", Bart Van Assche).  Before, passing a const template discards
 * the qualifier.
 *
 * Since: v6.4 (e0d3f2c694e5)
 */
#include <scsi/scsi_host.h>

static const struct scsi_host_template probe_sht;

static __maybe_unused struct Scsi_Host *probe(void)
{
	return scsi_host_alloc(&probe_sht, 0);
}
