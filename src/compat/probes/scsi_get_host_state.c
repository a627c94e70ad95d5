// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: scsi_get_host_state()
 *
 * HAVE_SCSI_GET_HOST_STATE: the host's state read once, for callers that
 * hold no host lock.  Added in v7.3; the 54.100 driver of that kernel reads
 * the state through it in its queuecommand.  Fallback: READ_ONCE() of
 * shost->shost_state, as the helper does.
 *
 * Since: v7.3
 */
#include <scsi/scsi_host.h>

static enum scsi_host_state __maybe_unused probe(struct Scsi_Host *shost)
{
	return scsi_get_host_state(shost);
}
