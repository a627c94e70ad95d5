// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: enum scsi_timeout_action (*scsi_host_template.eh_timed_out)()
 *
 * HAVE_SCSI_TIMEOUT_ACTION: .eh_timed_out returns enum scsi_timeout_action
 * (SCSI_EH_DONE, SCSI_EH_RESET_TIMER, SCSI_EH_NOT_HANDLED) since v6.2,
 * dee7121e8c0a ("scsi: core: Change the return type of .eh_timed_out()",
 * Bart Van Assche); before, enum blk_eh_timer_return, whose
 * BLK_EH_NOT_HANDLED became BLK_EH_DONE in v4.18, 6600593cbd93 ("block:
 * rename BLK_EH_NOT_HANDLED to BLK_EH_DONE").  The 6.12 driver does not
 * implement .eh_timed_out; recorded for new code.
 *
 * Since: v6.2 (dee7121e8c0a)
 */
#include <scsi/scsi_host.h>

static enum scsi_timeout_action probe_timed_out(struct scsi_cmnd *cmd)
{
	return SCSI_EH_NOT_HANDLED;
}

static struct scsi_host_template probe_sht __maybe_unused = {
	.eh_timed_out = probe_timed_out,
};
