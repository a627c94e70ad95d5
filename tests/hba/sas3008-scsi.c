/*
 * Emulated LSI SAS3008: SCSI IO on the SCSI bus, and the scatter gather
 * lists: IEEE (MPI 2.5), MPI 2.0 (the SAS2 chips and the MCPU endpoint).
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "exec/address-spaces.h"
#include "scsi/constants.h"
#include "trace.h"
#include "sas3008.h"

/* Scatter gather lists */

/*
 * Add a data element of an SGL to @qsg (a zero length adds nothing); false
 * once the list has more than SGL_MAX_ELEMENTS elements.
 */
static bool sas3008_sgl_add(QEMUSGList *qsg, uint64_t addr, uint32_t len,
                            uint32_t *elements)
{
    if (!len) {
        return true;
    }
    if (++*elements > SGL_MAX_ELEMENTS) {
        return false;
    }
    qemu_sglist_add(qsg, addr, len);
    return true;
}

/*
 * Walk an IEEE SGL that starts at @off in the request frame @frame and may
 * continue in chain segments in guest memory; add its simple elements to @qsg.
 * Returns an IOCStatus.
 */
static uint16_t sas3008_ieee_sgl(SAS3008State *s, const uint8_t *frame,
                                 uint32_t frame_len, uint32_t off,
                                 QEMUSGList *qsg, uint32_t *nchains)
{
    uint64_t seg_addr = 0;
    uint32_t seg_n = (frame_len - off) / IEEE_SGE_SIZE;
    uint32_t i = 0, chains = 0, elements = 0;
    bool in_frame = true;
    uint8_t e[IEEE_SGE_SIZE];

    if (off + IEEE_SGE_SIZE > frame_len) {
        return ST_INVALID_SGL;
    }
    for (;;) {
        uint64_t addr;
        uint32_t len;
        uint8_t flags;

        *nchains = chains;
        if (i == seg_n) {
            return ST_SUCCESS;  /* end of the last segment */
        }
        if (in_frame) {
            memcpy(e, frame + off + i * IEEE_SGE_SIZE, IEEE_SGE_SIZE);
        } else if (pci_dma_read(&s->dev, seg_addr + i * IEEE_SGE_SIZE, e,
                                IEEE_SGE_SIZE) != MEMTX_OK) {
            return ST_INVALID_SGL;
        }
        addr = ldq_le_p(e + IEEE_SGE_ADDRESS);
        len = ldl_le_p(e + IEEE_SGE_LENGTH);
        flags = e[IEEE_SGE_FLAGS];
        if ((flags & IEEE_FLAGS_ADDR_MASK) != 0) {
            return ST_INVALID_SGL;  /* only system addresses */
        }
        if (flags & IEEE_FLAGS_CHAIN) {
            if (len < IEEE_SGE_SIZE || len % IEEE_SGE_SIZE ||
                ++chains > s->max_chain_depth) {
                return ST_INVALID_SGL;
            }
            seg_addr = addr;
            seg_n = len / IEEE_SGE_SIZE;
            in_frame = false;
            i = 0;
            continue;
        }
        if (!sas3008_sgl_add(qsg, addr, len, &elements)) {
            return ST_INVALID_SGL;
        }
        if (flags & IEEE_FLAGS_END_OF_LIST) {
            return ST_SUCCESS;
        }
        i++;
    }
}

/* Decode an MPI (not IEEE) simple element of a config request, if it is one */
bool sas3008_mpi_sge(const uint8_t *sge, uint64_t *addr, uint32_t *len,
                     bool *to_ioc)
{
    uint32_t fl = ldl_le_p(sge + MPI_SGE_FLAGS_LENGTH);
    uint8_t flags = fl >> MPI_SGE_FLAGS_SHIFT;

    if ((flags & MPI_SGE_FLAGS_ELEMENT_MASK) != MPI_SGE_FLAGS_SIMPLE) {
        return false;
    }
    *len = fl & MPI_SGE_LENGTH_MASK;
    *to_ioc = flags & MPI_SGE_FLAGS_HOST_TO_IOC;
    *addr = (flags & MPI_SGE_FLAGS_64BIT) ?
            ldq_le_p(sge + MPI_SGE_ADDRESS) :
            (uint32_t)ldl_le_p(sge + MPI_SGE_ADDRESS);
    return true;
}

/* Does [@addr, @addr + @len) lie in the RAM of the mcpu BAR? */
static bool sas3008_in_bar_ram(SAS3008State *s, uint64_t addr, uint32_t len)
{
    pcibus_t bar = pci_get_bar_addr(&s->dev, 1);

    return sas3008_chip(s)->mcpu && bar != PCI_BAR_UNMAPPED &&
           addr >= bar + MCPU_REGS_SIZE &&
           addr + len <= bar + MCPU_REGS_SIZE + MCPU_RAM_SIZE;
}

/*
 * Read or write @len bytes at @addr for the IOC.  The MCPU's firmware finds
 * what the driver cloned into the BAR in its own memory: such an address
 * never goes out on the bus, so no IOMMU translates it.  Anything else is
 * DMA.
 */
static MemTxResult sas3008_mem_rw(SAS3008State *s, uint64_t addr, void *buf,
                                  uint32_t len, bool to_mem)
{
    if (sas3008_in_bar_ram(s, addr, len)) {
        uint8_t *ram = (uint8_t *)memory_region_get_ram_ptr(&s->mcpu_ram) +
                       (addr - pci_get_bar_addr(&s->dev, 1) - MCPU_REGS_SIZE);

        if (to_mem) {
            memcpy(ram, buf, len);
        } else {
            memcpy(buf, ram, len);
        }
        return MEMTX_OK;
    }
    return pci_dma_rw(&s->dev, addr, buf, len,
                      to_mem ? DMA_DIRECTION_FROM_DEVICE :
                      DMA_DIRECTION_TO_DEVICE, MEMTXATTRS_UNSPECIFIED);
}

/* Does every element of @qsg lie in the RAM of the mcpu BAR? */
static bool sas3008_qsg_in_bar_ram(SAS3008State *s, QEMUSGList *qsg)
{
    int i;

    for (i = 0; i < qsg->nsg; i++) {
        if (!sas3008_in_bar_ram(s, qsg->sg[i].base, qsg->sg[i].len)) {
            return false;
        }
    }
    return qsg->nsg > 0;
}

/*
 * Walk an MPI 2.0 SGL of simple and chain elements, 32- or 64-bit each
 * (Mpi2SGESimple32/64, Mpi2SGEChain32/64), that starts at @off in the request
 * frame @frame: a chain element must sit where the frame's ChainOffset, then
 * the previous chain's NextChainOffset, says (in dwords); its Length is the
 * size of the next segment, at most a request frame (MPI 2.0 chain segments are
 * frame sized).  The list must end with END_OF_LIST. Returns an IOCStatus.
 */
uint16_t sas3008_mpi_sgl(SAS3008State *s, const uint8_t *frame,
                         uint32_t frame_len, uint32_t off, QEMUSGList *qsg,
                         SAS3008SGLStats *st)
{
    uint8_t seg[REPLY_MAX];
    const uint8_t *p = frame;
    uint32_t seg_len = frame_len, chain_at = frame[MSG_CHAIN_OFFSET] * 4;
    uint32_t elements = 0;

    memset(st, 0, sizeof(*st));
    while (off + MPI_SGE_SIMPLE32_SIZE <= seg_len) {
        uint32_t fl = ldl_le_p(p + off + MPI_SGE_FLAGS_LENGTH);
        uint8_t flags = fl >> MPI_SGE_FLAGS_SHIFT;
        uint32_t esize = (flags & MPI_SGE_FLAGS_64BIT) ?
                         MPI_SGE_SIMPLE64_SIZE : MPI_SGE_SIMPLE32_SIZE;
        uint64_t addr;
        uint32_t len, next;

        if (off + esize > seg_len || (flags & MPI_SGE_FLAGS_LOCAL)) {
            return ST_INVALID_SGL;
        }
        addr = (flags & MPI_SGE_FLAGS_64BIT) ?
               ldq_le_p(p + off + MPI_SGE_ADDRESS) :
               (uint32_t)ldl_le_p(p + off + MPI_SGE_ADDRESS);
        switch (flags & MPI_SGE_FLAGS_ELEMENT_MASK) {
        case MPI_SGE_FLAGS_SIMPLE:
            if (chain_at && off == chain_at) {
                return ST_INVALID_SGL;  /* the chain is missing */
            }
            len = fl & MPI_SGE_LENGTH_MASK;
            if (!sas3008_sgl_add(qsg, addr, len, &elements)) {
                return ST_INVALID_SGL;
            }
            if (flags & MPI_SGE_FLAGS_64BIT) {
                st->simple64++;
            } else {
                st->simple32++;
            }
            if (flags & MPI_SGE_FLAGS_END_OF_LIST) {
                return ST_SUCCESS;
            }
            off += esize;
            break;
        case MPI_SGE_FLAGS_CHAIN:
            len = fl & MPI_SGE_CHAIN_LENGTH_MASK;
            next = ((fl >> MPI_SGE_CHAIN_NEXT_SHIFT) &
                    MPI_SGE_CHAIN_NEXT_MASK) * 4;
            if (!chain_at || off != chain_at ||
                len < MPI_SGE_SIMPLE32_SIZE || len > s->req_frame_bytes ||
                (next && next + MPI_SGE_SIMPLE32_SIZE > len) ||
                st->chains >= s->max_chain_depth) {
                return ST_INVALID_SGL;
            }
            if (sas3008_mem_rw(s, addr, seg, len, false) != MEMTX_OK) {
                return ST_INVALID_SGL;
            }
            st->chains++;
            if (sas3008_in_bar_ram(s, addr, len)) {
                st->bar_chains++;
            }
            p = seg;
            seg_len = len;
            chain_at = next;
            off = 0;
            break;
        default:
            return ST_INVALID_SGL;      /* no transaction context here */
        }
    }
    return ST_INVALID_SGL;              /* no END_OF_LIST */
}

/* Copy @len bytes between @buf and the memory @qsg describes. */
void sas3008_sgl_copy(SAS3008State *s, QEMUSGList *qsg, uint8_t *buf,
                      uint32_t len, bool to_guest)
{
    int i;

    for (i = 0; i < qsg->nsg && len; i++) {
        uint32_t l = MIN(qsg->sg[i].len, len);

        sas3008_mem_rw(s, qsg->sg[i].base, buf, l, to_guest);
        buf += l;
        len -= l;
    }
}

/* SCSI IO */

/* Forget SCSI IO @r, and its SCSI request if any. */
static void sas3008_free_request(SAS3008Request *r)
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

/* The SCSI IO reply of @r, through a reply frame. */
static void sas3008_io_reply(SAS3008State *s, SAS3008Request *r,
                             uint16_t status, uint8_t scsi_status,
                             uint8_t scsi_state, uint32_t xfer,
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

    trace_sas3008_scsi_io_error(smid, status);
    sas3008_reply_header(reply, frame, sizeof(reply), status);
    reply[SCSIIO_REPLY_SCSI_STATE] = SCSI_STATE_NO_SCSI_STATUS;
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}

/* Cancel the outstanding IO of @handle and SMID @smid (0: any); how many */
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

/* A SCSI IO request: check it, walk its SGL, start it on its disk. */
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
    bool mpi2 = sas3008_chip(s)->mpi2;
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
    if (mpi2) {
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
        sas3008_io_error(s, smid, msix, frame, status);
        qemu_sglist_destroy(&r->qsg);
        g_free(r);
        return;
    }
    if (sas3008_chip(s)->mcpu && sas3008_qsg_in_bar_ram(s, &r->qsg)) {
        /* write data the driver cloned into the BAR: the IOC's own memory */
        r->qsg.as = &address_space_memory;
    }
    trace_sas3008_scsi_io(smid, handle, frame[SCSIIO_CDB], r->data_length,
                          chains);
    sas3008_count_io(s, chains, mpi2 ? &st : NULL);
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
        sas3008_count_unit_attention(s);
    }
    xfer = r->data_length > resid ? r->data_length - resid : 0;
    trace_sas3008_scsi_complete(r->smid, sreq->status, xfer);
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
    trace_sas3008_scsi_cancelled(r->smid, r->cancel_status);
    sas3008_io_reply(r->s, r, r->cancel_status, 0,
                     (r->cancel_status == ST_SCSI_TASK_TERMINATED ?
                      SCSI_STATE_TERMINATED : 0) | SCSI_STATE_NO_SCSI_STATUS,
                     0, 0);
    sas3008_free_request(r);
}

const struct SCSIBusInfo sas3008_scsi_info = {
    .tcq = true,
    .max_target = EXP_DISKS - 1,     /* the expander's; NUM_PHYS without */
    .max_lun = 0,
    .get_sg_list = sas3008_get_sg_list,
    .complete = sas3008_command_complete,
    .cancel = sas3008_request_cancelled,
};

/* A FW Upload request: an empty image, so the driver has no version to show */
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
