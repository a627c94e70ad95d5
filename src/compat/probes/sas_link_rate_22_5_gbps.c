// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: SAS_LINK_RATE_22_5_GBPS
 *
 * HAVE_SAS_LINK_RATE_22_5_GBPS: the SAS transport class can name 22.5 Gbps
 * (SAS-4) links.  Added to enum sas_linkrate around v5.18 for the
 * Broadcom SAS-4 HBAs (mpi3mr, mpt3sas); not in Debian 5.10.  It is an
 * enum constant, so #ifdef cannot see it.  Fallback: report such links as
 * SAS_LINK_RATE_12_0_GBPS, the fastest rate those kernels can name.
 *
 * Since: v5.18
 */
#include <scsi/scsi_transport_sas.h>

static enum sas_linkrate __maybe_unused probe(void)
{
	return SAS_LINK_RATE_22_5_GBPS;
}
