/*
 * Emulated LSI SAS3008: task management, and the cancelling of outstanding
 * SCSI IO it shares with the resets.
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "sas3008.h"

/**
 * sas3008_cancel_io: cancel the outstanding IO of @handle (all if 0), or
 * only SMID @smid; returns how many.
 * @s: the HBA
 * @handle: the DevHandle, or 0
 * @smid: the SMID, or 0
 */
uint32_t sas3008_cancel_io(SAS3008State *s, uint16_t handle, uint16_t smid)
{
    uint32_t i, n = 0;

    for (i = 1; i <= s->max_smid; i++) {
        SAS3008Request *r = s->smid_req[i];

        if (!r || (handle && r->handle != handle) || (smid && i != smid)) {
            continue;
        }
        n++;
        if (r->sreq) {
            scsi_req_cancel(r->sreq);
        } else {
            sas3008_io_reply(s, r, ST_SCSI_TASK_TERMINATED, 0,
                             SCSI_STATE_TERMINATED | SCSI_STATE_NO_SCSI_STATUS,
                             0, 0);
            sas3008_free_request(r);
        }
    }
    return n;
}

/* Is SMID @task outstanding (for @handle, unless 0)? */
static bool sas3008_task_outstanding(SAS3008State *s, uint16_t task,
                                     uint16_t handle)
{
    return task && task <= s->max_smid && s->smid_req[task] &&
           (!handle || s->smid_req[task]->handle == handle);
}

/**
 * sas3008_task_mgmt: a SCSI task management request.
 * @s: the HBA
 * @smid: the request's SMID
 * @msix: the reply queue
 * @req: the request frame
 */
void sas3008_task_mgmt(SAS3008State *s, uint16_t smid, uint8_t msix,
                       const uint8_t *req)
{
    uint8_t reply[TM_REPLY_SIZE];
    uint16_t handle = lduw_le_p(req + TM_DEV_HANDLE);
    uint8_t type = req[TM_TASK_TYPE];
    uint16_t task = lduw_le_p(req + TM_TASK_MID);
    SCSIDevice *sdev = sas3008_handle_dev(s, handle);
    uint8_t rsp = TM_RSP_COMPLETE;
    uint32_t n = 0;

    sas3008_reply_header(reply, req, sizeof(reply), ST_SUCCESS);
    if (!sdev) {
        stw_le_p(reply + REPLY_IOC_STATUS, ST_SCSI_DEVICE_NOT_THERE);
        sas3008_reply(s, smid, msix, reply, sizeof(reply));
        return;
    }
    switch (type) {
    case TM_ABORT_TASK:
        if (sas3008_task_outstanding(s, task, handle)) {
            n = sas3008_cancel_io(s, handle, task);
        }
        break;
    case TM_QUERY_TASK:
        if (sas3008_task_outstanding(s, task, 0)) {
            rsp = TM_RSP_SUCCEEDED;
        }
        break;
    case TM_ABORT_TASK_SET:
    case TM_CLEAR_TASK_SET:
        n = sas3008_cancel_io(s, handle, 0);
        break;
    case TM_LUN_RESET:
    case TM_TARGET_RESET:
        n = sas3008_cancel_io(s, handle, 0);
        device_cold_reset(DEVICE(sdev));
        break;
    default:
        rsp = TM_RSP_NOT_SUPPORTED;
        break;
    }
    reply[TM_REPLY_RESPONSE_CODE] = rsp;
    stl_le_p(reply + TM_REPLY_TERMINATION_COUNT, n);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}
