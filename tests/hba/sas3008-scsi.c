/*
 * Emulated LSI SAS3008: SCSI IO.  The requests' life on the SCSI bus (their
 * SGLs are sas3008-sgl.c's), their replies and the counters of the
 * statistics capability.
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "exec/address-spaces.h"
#include "scsi/constants.h"
#include "sas3008.h"

/* SCSI IO */

/**
 * sas3008_free_request: forget SCSI IO @r, and its SCSI request if any.
 * @r: the request
 */
void sas3008_free_request(SAS3008Request *r)
{
    SAS3008State *s = r->s;

    if (r->sreq) {
        r->sreq->hba_private = NULL;
        scsi_req_unref(r->sreq);
    }
    if (s->smid_req[r->smid] == r) {
        s->smid_req[r->smid] = NULL;
    }
    qemu_sglist_destroy(&r->qsg);
    g_free(r);
}

/**
 * sas3008_io_reply: the SCSI IO reply of @r, through a reply frame.
 * @s: the HBA
 * @r: the request
 * @status: its IOCStatus
 * @scsi_status: the SCSI status
 * @scsi_state: the SCSIState bits
 * @xfer: the bytes transferred
 * @sense_count: the bytes of sense data
 */
void sas3008_io_reply(SAS3008State *s, SAS3008Request *r, uint16_t status,
                      uint8_t scsi_status, uint8_t scsi_state, uint32_t xfer,
                      uint32_t sense_count)
{
    uint8_t reply[SCSIIO_REPLY_SIZE];

    sas3008_reply_header(reply, r->frame, sizeof(reply), status);
    reply[SCSIIO_REPLY_SCSI_STATUS] = scsi_status;
    reply[SCSIIO_REPLY_SCSI_STATE] = scsi_state;
    stl_le_p(reply + SCSIIO_REPLY_TRANSFER_COUNT, xfer);
    stl_le_p(reply + SCSIIO_REPLY_SENSE_COUNT, sense_count);
    stw_le_p(reply + SCSIIO_REPLY_TASK_TAG, r->smid);
    sas3008_reply(s, r->smid, r->msix, reply, sizeof(reply));
}

static void sas3008_io_error(SAS3008State *s, uint16_t smid, uint8_t msix,
                             const uint8_t *frame, uint16_t status)
{
    uint8_t reply[SCSIIO_REPLY_SIZE];

    sas3008_reply_header(reply, frame, sizeof(reply), status);
    reply[SCSIIO_REPLY_SCSI_STATE] = SCSI_STATE_NO_SCSI_STATUS;
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}

/* Hold the first READ(10)/READ(16) of stall_lba: the abort test. */
static bool sas3008_stall(SAS3008State *s, const uint8_t *cdb)
{
    uint64_t lba;

    if (s->stalled_once || s->stall_lba == UINT64_MAX) {
        return false;
    }
    if (cdb[0] == READ_10) {
        lba = ldl_be_p(cdb + CDB_LBA);
    } else if (cdb[0] == READ_16) {
        lba = ldq_be_p(cdb + CDB_LBA);
    } else {
        return false;
    }
    if (lba != s->stall_lba) {
        return false;
    }
    s->stalled_once = true;
    return true;
}

static void sas3008_stat_add(SAS3008State *s, uint32_t reg, uint32_t n)
{
    pci_set_long(s->dev.config + reg, pci_get_long(s->dev.config + reg) + n);
}

/*
 * The statistics capability: a SCSI IO with @chains chain segments, @bar
 * of them in the mcpu BAR; @st the elements of its MPI 2.0 SGL, if any.
 */
static void sas3008_count_io(SAS3008State *s, uint32_t chains, uint32_t bar,
                             const SAS3008SGLStats *st)
{
    sas3008_stat_add(s, STAT_IOS, 1);
    if (st) {
        sas3008_stat_add(s, STAT_MPI_SIMPLE32, st->simple32);
        sas3008_stat_add(s, STAT_MPI_SIMPLE64, st->simple64);
        sas3008_stat_add(s, STAT_MPI_CHAINS, st->chains);
    }
    if (!chains) {
        return;
    }
    sas3008_stat_add(s, STAT_CHAINED_IOS, 1);
    if (chains > pci_get_long(s->dev.config + STAT_MAX_CHAINS)) {
        pci_set_long(s->dev.config + STAT_MAX_CHAINS, chains);
    }
    if (bar == chains) {
        /* every chain segment was the driver's clone in the BAR */
        sas3008_stat_add(s, STAT_BAR_CHAINED_IOS, 1);
    }
}

/**
 * sas3008_scsi_io: a SCSI IO request: check it, walk its SGL, and start it
 * on the disk of its DevHandle.
 * @s: the HBA
 * @smid: the request's SMID
 * @msix: the reply queue
 * @frame: the request frame
 */
void sas3008_scsi_io(SAS3008State *s, uint16_t smid, uint8_t msix,
                     const uint8_t *frame)
{
    SAS3008Request *r;
    SCSIDevice *sdev;
    uint16_t handle = lduw_le_p(frame + SCSIIO_DEV_HANDLE);
    uint32_t control = ldl_le_p(frame + SCSIIO_CONTROL);
    uint32_t dir = control & SCSIIO_CONTROL_DIR_MASK;
    uint32_t cdb_len = lduw_le_p(frame + SCSIIO_IO_FLAGS) &
                       SCSIIO_IOFLAGS_CDB_LENGTH_MASK;
    uint32_t sgl_off = frame[SCSIIO_SGL_OFFSET0] * 4;
    uint16_t status;
    SAS3008SGLStats st = { 0 };
    uint32_t chains = 0;
    int32_t n;

    if (s->smid_req[smid]) {
        sas3008_fault(s, FAULT_BAD_SMID, "SCSI IO with an SMID in use");
        return;
    }
    sdev = sas3008_handle_dev(s, handle);
    if (!sdev || ldq_le_p(frame + SCSIIO_LUN) != 0) {
        sas3008_io_error(s, smid, msix, frame, ST_SCSI_DEVICE_NOT_THERE);
        return;
    }
    if (cdb_len == 0 || cdb_len > SCSIIO_CDB_MAX ||
        dir == SCSIIO_CONTROL_DIR_MASK) {
        sas3008_io_error(s, smid, msix, frame, ST_INVALID_FIELD);
        return;
    }
    r = g_new0(SAS3008Request, 1);
    r->s = s;
    r->smid = smid;
    r->msix = msix;
    r->handle = handle;
    memcpy(r->frame, frame, MIN(s->req_frame_bytes, REPLY_MAX));
    r->data_length = ldl_le_p(frame + SCSIIO_DATA_LENGTH);
    r->sense_addr = ((uint64_t)s->sense_high << 32) |
                    (uint32_t)ldl_le_p(frame + SCSIIO_SENSE_BUFFER_LOW);
    r->sense_len = frame[SCSIIO_SENSE_BUFFER_LENGTH];
    r->cancel_status = ST_SCSI_TASK_TERMINATED;
    pci_dma_sglist_init(&r->qsg, &s->dev, 4);
    if (s->mpi2) {
        status = sas3008_mpi_sgl(s, frame, s->req_frame_bytes,
                                 sgl_off ? sgl_off : SCSIIO_SGL, &r->qsg,
                                 &st);
        chains = st.chains;
    } else {
        status = sas3008_ieee_sgl(s, frame, s->req_frame_bytes,
                                  sgl_off ? sgl_off : SCSIIO_SGL, &r->qsg,
                                  &chains);
    }
    if (status != ST_SUCCESS) {
        qemu_log_mask(LOG_GUEST_ERROR, "sas3008: SMID %u: invalid SGL\n",
                      smid);
        sas3008_io_error(s, smid, msix, frame, status);
        qemu_sglist_destroy(&r->qsg);
        g_free(r);
        return;
    }
    if (s->mcpu && sas3008_qsg_in_bar_ram(s, &r->qsg)) {
        /* write data the driver cloned into the BAR: the IOC's own memory */
        r->qsg.as = &address_space_memory;
    }
    sas3008_count_io(s, chains, st.bar_chains, s->mpi2 ? &st : NULL);
    s->smid_req[smid] = r;
    if (sas3008_stall(s, frame + SCSIIO_CDB)) {
        /* never started: only task management or a reset ends it */
        r->stalled = true;
        return;
    }
    r->sreq = scsi_req_new(sdev, smid, 0, (uint8_t *)frame + SCSIIO_CDB,
                           cdb_len, r);
    n = scsi_req_enqueue(r->sreq);
    if (n) {
        if ((n > 0 && dir != SCSIIO_CONTROL_READ) ||
            (n < 0 && dir != SCSIIO_CONTROL_WRITE) ||
            (uint32_t)ABS(n) > r->data_length ||
            (uint64_t)ABS(n) > r->qsg.size) {
            /* the CDB moves other data than the request describes */
            r->cancel_status = ST_SCSI_DATA_OVERRUN;
            scsi_req_cancel(r->sreq);
            return;
        }
        scsi_req_continue(r->sreq);
    }
}

static QEMUSGList *sas3008_get_sg_list(SCSIRequest *sreq)
{
    SAS3008Request *r = sreq->hba_private;

    return &r->qsg;
}

static void sas3008_command_complete(SCSIRequest *sreq, size_t resid)
{
    SAS3008Request *r = sreq->hba_private;
    SAS3008State *s;
    uint8_t sense[SCSI_SENSE_BUF_SIZE];
    int sense_len;
    uint32_t xfer;

    if (!r) {
        return;
    }
    s = r->s;
    sense_len = scsi_req_get_sense(sreq, sense, sizeof(sense));
    if (sense_len > 0 && r->sense_len) {
        pci_dma_write(&s->dev, r->sense_addr, sense,
                      MIN(sense_len, r->sense_len));
    }
    if (sreq->status == CHECK_CONDITION && sense_len > 0 &&
        scsi_parse_sense_buf(sense, sense_len).key == UNIT_ATTENTION) {
        sas3008_stat_add(s, STAT_UNIT_ATTENTIONS, 1);
    }
    xfer = r->data_length > resid ? r->data_length - resid : 0;
    if (sreq->status == GOOD && xfer == r->data_length) {
        sas3008_turbo_reply(s, r->smid, r->msix);
    } else {
        sas3008_io_reply(s, r, xfer < r->data_length && sreq->status == GOOD ?
                         ST_SCSI_DATA_UNDERRUN : ST_SUCCESS,
                         sreq->status,
                         sense_len > 0 ? SCSI_STATE_AUTOSENSE_VALID : 0,
                         xfer, MAX(sense_len, 0));
    }
    sas3008_free_request(r);
}

static void sas3008_request_cancelled(SCSIRequest *sreq)
{
    SAS3008Request *r = sreq->hba_private;

    if (!r) {
        return;
    }
    sas3008_io_reply(r->s, r, r->cancel_status, 0,
                     (r->cancel_status == ST_SCSI_TASK_TERMINATED ?
                      SCSI_STATE_TERMINATED : 0) | SCSI_STATE_NO_SCSI_STATUS,
                     0, 0);
    sas3008_free_request(r);
}

const struct SCSIBusInfo sas3008_scsi_info = {
    .tcq = true,
    .max_target = NUM_PHYS - 1,
    .max_lun = 0,
    .get_sg_list = sas3008_get_sg_list,
    .complete = sas3008_command_complete,
    .cancel = sas3008_request_cancelled,
};

/**
 * sas3008_fw_upload: a FW Upload request: an empty image, so that the
 * driver has no package version to show.
 * @s: the HBA
 * @smid: the request's SMID
 * @msix: the reply queue
 * @req: the request frame
 */
void sas3008_fw_upload(SAS3008State *s, uint16_t smid, uint8_t msix,
                       const uint8_t *req)
{
    uint8_t reply[FWUPLOAD_REPLY_SIZE];
    QEMUSGList qsg;
    uint16_t status;
    uint32_t size = ldl_le_p(req + FWUPLOAD_IMAGE_SIZE), done = 0, n;
    int i;

    pci_dma_sglist_init(&qsg, &s->dev, 1);
    status = sas3008_ieee_sgl(s, req, s->req_frame_bytes, FWUPLOAD_SGL, &qsg,
                              &n);
    for (i = 0; status == ST_SUCCESS && i < qsg.nsg && done < size; i++) {
        uint32_t l = MIN(qsg.sg[i].len, size - done);

        dma_memory_set(qsg.as, qsg.sg[i].base, 0, l, MEMTXATTRS_UNSPECIFIED);
        done += l;
    }
    qemu_sglist_destroy(&qsg);
    sas3008_reply_header(reply, req, sizeof(reply), status);
    stl_le_p(reply + FWUPLOAD_REPLY_ACTUAL_IMAGE_SIZE, done);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}
