/*
 * Emulated LSI SAS3008 (MPI 2.5) host bus adapter, and the MPI 2.0 chips
 * the same driver attaches, for the mpt3sas tests: see tests/hba/README.md.
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/pci/msix.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "trace.h"
#include "sas3008.h"

/* The disk of scsi-id @id (on that phy of the HBA or expander), if any. */
SCSIDevice *sas3008_disk(SAS3008State *s, int id)
{
    SCSIDevice *d;

    if (id < 0 || id >= sas3008_max_disks(s)) {
        return NULL;
    }
    d = scsi_device_find(&s->bus, 0, id, 0);
    /* scsi_device_find falls back to another LUN of the target */
    if (d && (d->id != id || d->lun != 0)) {
        return NULL;
    }
    return d;
}

/* The disk of DevHandle @handle, if any. */
SCSIDevice *sas3008_handle_dev(SAS3008State *s, uint16_t handle)
{
    return sas3008_disk(s, handle - sas3008_disk_handle(s, 0));
}

/* The SAS address of the disk of scsi-id @id. */
uint64_t sas3008_dev_sas_addr(SAS3008State *s, int id)
{
    return (s->sas_addr & ~0xffffffULL) + 0x100000 + id;
}

/* Put the IOC into the FAULT state with fault @code. */
void sas3008_fault(SAS3008State *s, uint16_t code, const char *why)
{
    trace_sas3008_fault(code, why);
    s->state = IOC_STATE_FAULT;
    s->fault_code = code;
    /* the IOC writes its new state to the Doorbell: a doorbell interrupt */
    s->intr_status |= HIS_IOC2SYS_DB;
}

/* Interrupts and the reply queues */

/* A reply that waits for a reply frame */
typedef struct SAS3008PendingReply {
    uint16_t smid;
    uint8_t msix;
    uint16_t len;
    uint8_t data[REPLY_MAX];
} SAS3008PendingReply;

/* Does reply post queue @q hold descriptors the host has not consumed? */
static bool sas3008_reply_pending(SAS3008State *s, uint32_t q)
{
    return s->post_ioc_idx[q] != s->post_host_idx[q];
}

/* Set INTx from the reply queues, unless MSI-X is on or replies are masked. */
static void sas3008_update_intx(SAS3008State *s)
{
    bool level = false;
    uint32_t q;

    if (!msix_enabled(&s->dev) && !(s->intr_mask & HIM_RIM)) {
        for (q = 0; q < s->nr_queues; q++) {
            level |= sas3008_reply_pending(s, q);
        }
    }
    pci_set_irq(&s->dev, level);
}

static void sas3008_notify(SAS3008State *s, uint32_t q)
{
    if (msix_enabled(&s->dev)) {
        if (!(s->intr_mask & HIM_RIM)) {
            msix_notify(&s->dev, q);
        }
    } else {
        sas3008_update_intx(s);
    }
}

/* Put an 8-byte reply descriptor on reply post queue @q. */
static bool sas3008_post_desc(SAS3008State *s, uint32_t q, uint64_t desc)
{
    uint32_t next;
    uint8_t buf[RPY_DESC_SIZE];

    next = (s->post_ioc_idx[q] + 1) % s->reply_post_depth;
    if (next == s->post_host_idx[q]) {
        return false;   /* full: the host has not caught up */
    }
    stq_le_p(buf, desc);
    pci_dma_write(&s->dev, s->reply_post_base +
                  ((uint64_t)q * s->reply_post_depth + s->post_ioc_idx[q]) *
                  RPY_DESC_SIZE, buf, RPY_DESC_SIZE);
    s->post_ioc_idx[q] = next;
    sas3008_notify(s, q);
    return true;
}

static uint32_t sas3008_queue(SAS3008State *s, uint8_t msix)
{
    return msix < s->nr_queues ? msix : 0;
}

static uint64_t sas3008_desc(uint8_t flags, uint32_t q, uint16_t smid)
{
    return flags | ((uint64_t)q << DESC_MSIX_SHIFT) |
           ((uint64_t)smid << DESC_SMID_SHIFT);
}

/* Complete SCSI IO @smid without a reply frame. */
void sas3008_turbo_reply(SAS3008State *s, uint16_t smid, uint8_t msix)
{
    uint32_t q = sas3008_queue(s, msix);

    if (s->state != IOC_STATE_OPERATIONAL || s->resetting) {
        return;
    }
    if (sas3008_lie(s, LIE_SMID)) {
        /* a completion of an SMID past every credit, then the real one */
        sas3008_post_desc(s, q, sas3008_desc(RPY_SCSI_IO_SUCCESS, q,
                                             s->max_smid + 1));
    }
    trace_sas3008_turbo_reply(smid, q);
    if (!sas3008_post_desc(s, q, sas3008_desc(RPY_SCSI_IO_SUCCESS, q, smid))) {
        sas3008_fault(s, FAULT_BAD_INDEX, "reply post queue full");
    }
}

/* Send the replies that wait, as long as frames and queue slots last. */
static void sas3008_post_replies(SAS3008State *s)
{
    SAS3008PendingReply *p;

    while (s->state == IOC_STATE_OPERATIONAL &&
           (p = g_queue_peek_head(&s->pending))) {
        uint32_t q = sas3008_queue(s, p->msix);
        uint8_t buf[REPLY_FREE_ENTRY_SIZE];
        uint32_t frame;
        uint64_t desc;

        if (s->reply_free_ioc_idx == s->reply_free_host_idx) {
            return;     /* wait for the host to free a frame */
        }
        if ((s->post_ioc_idx[q] + 1) % s->reply_post_depth ==
            s->post_host_idx[q]) {
            return;
        }
        pci_dma_read(&s->dev, s->reply_free_base +
                     s->reply_free_ioc_idx * REPLY_FREE_ENTRY_SIZE,
                     buf, REPLY_FREE_ENTRY_SIZE);
        frame = ldl_le_p(buf);
        s->reply_free_ioc_idx = (s->reply_free_ioc_idx + 1) %
                                s->reply_free_depth;
        pci_dma_write(&s->dev, ((uint64_t)s->reply_high << 32) | frame,
                      p->data, p->len);
        if (sas3008_lie(s, LIE_REPLY_ADDR)) {
            /* 1 GiB off: no reply pool is that large */
            frame ^= REPLY_LIE_DISTANCE;
        }
        trace_sas3008_reply(p->smid, q, frame);
        desc = sas3008_desc(RPY_ADDRESS_REPLY, q, p->smid) |
               ((uint64_t)frame << RPY_DESC_FRAME_SHIFT);
        g_queue_pop_head(&s->pending);
        g_free(p);
        sas3008_post_desc(s, q, desc);
    }
}

/* Send a reply through a reply frame, now or once the host frees one. */
void sas3008_reply(SAS3008State *s, uint16_t smid, uint8_t msix,
                   const void *msg, size_t len)
{
    SAS3008PendingReply *p;

    if (s->state != IOC_STATE_OPERATIONAL || s->resetting) {
        return;
    }
    p = g_new0(SAS3008PendingReply, 1);
    p->smid = smid;
    p->msix = msix;
    p->len = MIN(len, MIN(REPLY_MAX, s->reply_frame_size * 4));
    memcpy(p->data, msg, p->len);
    g_queue_push_tail(&s->pending, p);
    sas3008_post_replies(s);
}

/* Forget the replies that wait for a frame (reset). */
static void sas3008_drop_replies(SAS3008State *s)
{
    SAS3008PendingReply *p;

    while ((p = g_queue_pop_head(&s->pending))) {
        g_free(p);
    }
}

/*
 * A reply header copied from the request: function, flags, VP/VF; the rest of
 * the @len-byte @reply zeroed.
 */
void sas3008_reply_header(uint8_t *reply, const uint8_t *req, size_t len,
                          uint16_t status)
{
    memset(reply, 0, len);
    memcpy(reply, req, MSG_ECHO_SIZE);
    reply[MSG_LENGTH] = len / 4;
    stw_le_p(reply + REPLY_IOC_STATUS, status);
}

/* Reply to @req with a bare header and @status. */
static void sas3008_simple_reply(SAS3008State *s, uint16_t smid, uint8_t msix,
                                 const uint8_t *req, uint16_t status)
{
    uint8_t reply[REPLY_HEADER_SIZE];

    sas3008_reply_header(reply, req, sizeof(reply), status);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}

/* Empty the reply post and reply free queues. */
static void sas3008_reset_queues(SAS3008State *s)
{
    memset(s->post_ioc_idx, 0, sizeof(s->post_ioc_idx));
    memset(s->post_host_idx, 0, sizeof(s->post_host_idx));
    s->reply_free_ioc_idx = 0;
    s->reply_free_host_idx = 0;
}

/* The host has consumed queue @q up to @idx. */
static void sas3008_reply_post_index(SAS3008State *s, uint32_t q, uint32_t idx)
{
    if (s->state != IOC_STATE_OPERATIONAL) {
        return;
    }
    if (q >= s->nr_queues || idx >= s->reply_post_depth) {
        sas3008_fault(s, FAULT_BAD_INDEX, "reply post host index");
        return;
    }
    s->post_host_idx[q] = idx;
    sas3008_update_intx(s);
    sas3008_post_replies(s);
}

/* The host has freed reply frames up to @idx. */
static void sas3008_reply_free_index(SAS3008State *s, uint32_t idx)
{
    if (s->state != IOC_STATE_OPERATIONAL) {
        return;
    }
    if (idx >= s->reply_free_depth) {
        sas3008_fault(s, FAULT_BAD_INDEX, "reply free host index");
        return;
    }
    s->reply_free_host_idx = idx;
    sas3008_post_replies(s);
}

/* The doorbell handshake and the resets */

/*
 * Hand @len bytes of reply to the host, a 16-bit word at a time.  The host
 * reads each word from the Doorbell once and then clears the doorbell
 * interrupt; here the word stays until that clear, and the next one raises
 * the interrupt again.  The lie doorbell_pop hands out the next word on
 * each read of the Doorbell instead, as QEMU's mptsas does: a host that
 * reads the Doorbell besides loses a word of the reply.
 */
static void sas3008_hs_reply(SAS3008State *s, const uint8_t *reply, int len)
{
    int i;

    for (i = 0; i < len / 2; i++) {
        s->hs_reply[i] = lduw_le_p(reply + 2 * i);
    }
    s->hs_reply_cnt = len / 2;
    s->hs_reply_idx = 0;
    s->hs_pop = sas3008_lie(s, LIE_DOORBELL_POP);
    s->hs_state = HS_READ;
    s->intr_status |= HIS_IOC2SYS_DB;
}

static void sas3008_ioc_facts(SAS3008State *s, const uint8_t *req)
{
    uint8_t r[IOCFACTS_REPLY_SIZE];

    sas3008_reply_header(r, req, sizeof(r), ST_SUCCESS);
    if (sas3008_chip(s)->mpi2) {
        stw_le_p(r + IOCFACTS_MSG_VERSION, MPI_VERSION_2_0);
        stw_le_p(r + IOCFACTS_HEADER_VERSION, MPI2_HEADER_VERSION);
    } else {
        stw_le_p(r + IOCFACTS_MSG_VERSION, MPI_VERSION_2_5);
        stw_le_p(r + IOCFACTS_HEADER_VERSION, MPI25_HEADER_VERSION);
    }
    r[IOCFACTS_MAX_CHAIN_DEPTH] = s->max_chain_depth;
    r[IOCFACTS_WHO_INIT] = s->who_init;
    r[IOCFACTS_NUMBER_OF_PORTS] = 1;
    r[IOCFACTS_MAX_MSIX_VECTORS] = s->use_msix ? s->msix_vectors : 0;
    stw_le_p(r + IOCFACTS_REQUEST_CREDIT, s->request_credit);
    stw_le_p(r + IOCFACTS_PRODUCT_ID, IOCFACTS_PRODUCTID_IT);
    stl_le_p(r + IOCFACTS_IOC_CAPABILITIES, IOCFACTS_CAP_EVENT_REPLAY |
             IOCFACTS_CAP_MSI_X_INDEX | IOCFACTS_CAP_TLR |
             IOCFACTS_CAP_TASK_SET_FULL);
    stl_le_p(r + IOCFACTS_FW_VERSION, s->fw_version);
    stw_le_p(r + IOCFACTS_REQUEST_FRAME_SIZE, s->request_frame_size);
    /* reserved in MPI 2.0: chain segments are request frames */
    stw_le_p(r + IOCFACTS_MAX_CHAIN_SEGMENT_SIZE,
             sas3008_chip(s)->mpi2 ? 0 : s->max_chain_seg_size);
    stw_le_p(r + IOCFACTS_MAX_INITIATORS, 32);
    stw_le_p(r + IOCFACTS_MAX_TARGETS, 1024);
    stw_le_p(r + IOCFACTS_MAX_SAS_EXPANDERS, 64);
    stw_le_p(r + IOCFACTS_MAX_ENCLOSURES, 64);
    stw_le_p(r + IOCFACTS_PROTOCOL_FLAGS, IOCFACTS_PROTOCOL_SCSI_INITIATOR);
    stw_le_p(r + IOCFACTS_HIGH_PRIORITY_CREDIT, s->hi_priority_credit);
    stw_le_p(r + IOCFACTS_MAX_REPLY_POST_DEPTH, s->max_reply_post_depth);
    r[IOCFACTS_REPLY_FRAME_SIZE] = s->reply_frame_size;
    r[IOCFACTS_MAX_VOLUMES] = 0;
    stw_le_p(r + IOCFACTS_MAX_DEV_HANDLE, 1024);
    stw_le_p(r + IOCFACTS_MAX_PERSISTENT_ENTRIES, 128);
    stw_le_p(r + IOCFACTS_MIN_DEV_HANDLE, FIRST_DEV_HANDLE);
    sas3008_hs_reply(s, r, sizeof(r));
}

static void sas3008_port_facts(SAS3008State *s, const uint8_t *req)
{
    uint8_t r[PORTFACTS_REPLY_SIZE];

    sas3008_reply_header(r, req, sizeof(r), req[PORTFACTS_PORT_NUMBER] ?
                         ST_INVALID_FIELD : ST_SUCCESS);
    r[PORTFACTS_PORT_NUMBER] = req[PORTFACTS_PORT_NUMBER];
    r[PORTFACTS_PORT_TYPE] = PORTFACTS_PORTTYPE_SAS_PHYSICAL;
    sas3008_hs_reply(s, r, sizeof(r));
}

static void sas3008_ioc_init(SAS3008State *s, const uint8_t *req)
{
    uint8_t r[REPLY_HEADER_SIZE];
    uint16_t status = ST_SUCCESS;
    uint32_t frame = lduw_le_p(req + IOCINIT_SYSTEM_REQUEST_FRAME_SIZE) * 4;
    uint32_t post_depth = lduw_le_p(req + IOCINIT_REPLY_POST_DEPTH);
    uint32_t free_depth = lduw_le_p(req + IOCINIT_REPLY_FREE_DEPTH);
    uint32_t queues = req[IOCINIT_HOST_MSIX_VECTORS] ?
                      req[IOCINIT_HOST_MSIX_VECTORS] : 1;

    if (s->state == IOC_STATE_READY && sas3008_lie(s, LIE_IOC_FAULT)) {
        sas3008_fault(s, FAULT_LIE, "lie: a fault instead of IOC Init");
        return;
    }
    if (s->state != IOC_STATE_READY) {
        status = ST_INVALID_FUNCTION;
    } else if (frame < SCSIIO_SGL || frame > REPLY_MAX ||
               post_depth < 16 || (post_depth % 16 && !sas3008_chip(s)->mcpu) ||
               post_depth > s->max_reply_post_depth ||
               free_depth < 16 || queues > s->msix_vectors ||
               (req[MSG_FLAGS] & IOCINIT_MSGFLAG_RDPQ_ARRAY_MODE)) {
        status = ST_INVALID_FIELD;
    }
    sas3008_reply_header(r, req, sizeof(r), status);
    if (status == ST_SUCCESS) {
        s->who_init = req[IOCINIT_WHO_INIT];
        s->req_frame_bytes = frame;
        s->reply_post_depth = post_depth;
        s->reply_free_depth = free_depth;
        s->sense_high = ldl_le_p(req + IOCINIT_SENSE_ADDRESS_HIGH);
        s->reply_high = ldl_le_p(req + IOCINIT_REPLY_ADDRESS_HIGH);
        s->req_base = ldq_le_p(req + IOCINIT_REQUEST_FRAME_BASE);
        s->reply_post_base = ldq_le_p(req + IOCINIT_REPLY_POST_ADDRESS);
        s->reply_free_base = ldq_le_p(req + IOCINIT_REPLY_FREE_ADDRESS);
        s->nr_queues = queues;
        s->stalled_once = false;        /* once per driver attach */
        sas3008_reset_queues(s);
        s->events_on = false;
        s->state = IOC_STATE_OPERATIONAL;
    }
    trace_sas3008_ioc_init(status, queues, post_depth, free_depth);
    sas3008_hs_reply(s, r, sizeof(r));
}

typedef void SAS3008Handshake(SAS3008State *s, const uint8_t *req);

/* What the doorbell handshake takes, by function; the rest is refused */
static SAS3008Handshake *const sas3008_handshakes[] = {
    [FN_IOC_INIT] = sas3008_ioc_init,
    [FN_IOC_FACTS] = sas3008_ioc_facts,
    [FN_PORT_FACTS] = sas3008_port_facts,
};

static void sas3008_handshake_msg(SAS3008State *s)
{
    uint8_t req[HANDSHAKE_MAX_DWORDS * 4];
    uint8_t r[REPLY_HEADER_SIZE];
    uint8_t fn;
    int i;

    memset(req, 0, sizeof(req));
    for (i = 0; i < s->hs_cnt; i++) {
        stl_le_p(req + 4 * i, s->hs_msg[i]);
    }
    fn = req[MSG_FUNCTION];
    trace_sas3008_handshake(fn);
    if (fn < ARRAY_SIZE(sas3008_handshakes) && sas3008_handshakes[fn]) {
        sas3008_handshakes[fn](s, req);
        return;
    }
    qemu_log_mask(LOG_UNIMP, "sas3008: handshake function 0x%02x\n", fn);
    sas3008_reply_header(r, req, sizeof(r), ST_INVALID_FUNCTION);
    sas3008_hs_reply(s, r, sizeof(r));
}

/* Resets */

/* End every outstanding request without a reply. */
static void sas3008_cancel_all(SAS3008State *s)
{
    s->resetting = true;
    sas3008_cancel_io(s, 0, 0);
    s->resetting = false;
    sas3008_drop_replies(s);
}

/* Message unit reset: back to READY, the IOC Init settings are kept. */
static void sas3008_soft_reset(SAS3008State *s)
{
    sas3008_cancel_all(s);
    sas3008_reset_queues(s);
    s->events_on = false;
    s->hs_state = HS_NONE;
    s->intr_status = HIS_IOC2SYS_DB;    /* the change of state to READY */
    s->state = IOC_STATE_READY;
    s->fault_code = 0;
    sas3008_update_intx(s);
}

/*
 * The adapter reset of the diagnostic register (and of the PCI device): a
 * message unit reset that forgets IOC Init too.
 */
static void sas3008_hard_reset(SAS3008State *s)
{
    trace_sas3008_reset(true);
    sas3008_soft_reset(s);
    s->intr_mask = HIM_RESET_IRQ | HIM_RIM | HIM_DIM;
    s->nr_queues = 1;
    s->reply_post_depth = 16;
    s->reply_free_depth = 16;
    s->req_frame_bytes = s->request_frame_size * 4;
    s->who_init = 0;
    s->wrseq_idx = 0;
    s->diag &= ~(DIAG_WRITE_ENABLE | DIAG_RESET_ADAPTER | DIAG_HOLD_IOC_RESET);
    memset(s->event_masks, 0xff, sizeof(s->event_masks));
    sas3008_update_intx(s);
}

/* Registers */

/* A Doorbell write: a handshake message's next dword, or a function. */
static void sas3008_doorbell_write(SAS3008State *s, uint32_t val)
{
    uint8_t fn = val >> DOORBELL_FUNCTION_SHIFT;

    if (s->hs_state == HS_WRITE) {
        if (s->hs_idx < s->hs_cnt) {
            s->hs_msg[s->hs_idx++] = val;
        }
        if (s->hs_idx == s->hs_cnt) {
            sas3008_handshake_msg(s);
        }
        return;
    }
    switch (fn) {
    case FN_IOC_MSG_UNIT_RESET:
        trace_sas3008_reset(false);
        sas3008_soft_reset(s);
        break;
    case FN_HANDSHAKE:
        s->hs_cnt = (val >> DOORBELL_ADD_DWORDS_SHIFT) &
                    DOORBELL_ADD_DWORDS_MASK;
        if (s->hs_cnt == 0 || s->hs_cnt > HANDSHAKE_MAX_DWORDS) {
            sas3008_fault(s, FAULT_BAD_DESCRIPTOR, "handshake length");
            break;
        }
        if (sas3008_lie(s, LIE_DOORBELL_MUTE)) {
            break;      /* no handshake, no doorbell interrupt */
        }
        s->hs_idx = 0;
        s->hs_state = HS_WRITE;
        s->intr_status |= HIS_IOC2SYS_DB;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "sas3008: doorbell function 0x%02x\n",
                      fn);
        break;
    }
}

/*
 * The Doorbell register: IOC state, who initialized it, and the fault code or
 * the handshake reply's next word.
 */
static uint32_t sas3008_doorbell_read(SAS3008State *s)
{
    uint32_t val = s->state | (s->who_init << DOORBELL_WHO_INIT_SHIFT);

    if (s->state == IOC_STATE_FAULT) {
        return s->state | s->fault_code;
    }
    switch (s->hs_state) {
    case HS_WRITE:
        val |= DOORBELL_USED;
        break;
    case HS_READ:
        val |= DOORBELL_USED;
        if (s->hs_reply_idx < s->hs_reply_cnt) {
            val |= s->hs_reply[s->hs_pop ? s->hs_reply_idx++ :
                               s->hs_reply_idx];
        }
        break;
    }
    return val;
}

/*
 * Any write of the host interrupt status clears the doorbell interrupt; while
 * the host reads a reply it also moves on to the next word (unless the read
 * took it: doorbell_pop), or past the last one to the end of the handshake,
 * which raises it again.
 */
static void sas3008_his_write(SAS3008State *s)
{
    s->intr_status &= ~HIS_IOC2SYS_DB;
    if (s->hs_state == HS_READ) {
        if (!s->hs_pop) {
            s->hs_reply_idx++;
        }
        if (s->hs_reply_idx >= s->hs_reply_cnt) {
            s->hs_state = HS_NONE;
        }
        s->intr_status |= HIS_IOC2SYS_DB;
    }
}

/* A host diagnostic register write, once the write sequence unlocked it */
static void sas3008_diag_write(SAS3008State *s, uint32_t val)
{
    if (!(s->diag & DIAG_WRITE_ENABLE)) {
        return;
    }
    if (val & DIAG_RESET_ADAPTER) {
        sas3008_hard_reset(s);
        s->diag |= DIAG_RESET_HISTORY;
        /*
         * The phys come up again with a hard reset of each link, after
         * which a SAS disk reports a unit attention (SPL, SAM).
         */
        bus_cold_reset(BUS(&s->bus));
        return;
    }
    s->diag = (s->diag & ~(DIAG_HOLD_IOC_RESET | DIAG_HCB_MODE)) |
              (val & (DIAG_HOLD_IOC_RESET | DIAG_HCB_MODE));
    if (!(val & DIAG_RESET_HISTORY)) {
        s->diag &= ~DIAG_RESET_HISTORY;
    }
}

/* A key of the write sequence that unlocks the host diagnostic register. */
static void sas3008_wrseq_write(SAS3008State *s, uint32_t val)
{
    static const uint8_t keys[] = { 0xf, 0x4, 0xb, 0x2, 0x7, 0xd };

    val &= WRSEQ_KEY_MASK;
    if (val == keys[s->wrseq_idx]) {
        if (++s->wrseq_idx == ARRAY_SIZE(keys)) {
            s->diag |= DIAG_WRITE_ENABLE;
            s->wrseq_idx = 0;
        }
        return;
    }
    /* the flush key, or a wrong one, starts over and locks */
    s->diag &= ~DIAG_WRITE_ENABLE;
    s->wrseq_idx = val == keys[0] ? 1 : 0;
}

/* Events and port enable */

/* Send @event with @len bytes of event data, unless the host masked it. */
static void sas3008_event(SAS3008State *s, uint16_t event, const void *data,
                          size_t len)
{
    uint8_t reply[REPLY_MAX];

    if (!s->events_on ||
        (s->event_masks[event / 32] & (1u << (event % 32)))) {
        return;
    }
    assert(EVREPLY_EVENT_DATA + len <= sizeof(reply));
    memset(reply, 0, sizeof(reply));
    stw_le_p(reply + EVREPLY_EVENT_DATA_LENGTH, len / 4);
    reply[MSG_LENGTH] = (EVREPLY_EVENT_DATA + len) / 4;
    reply[MSG_FUNCTION] = FN_EVENT_NOTIFICATION;
    reply[EVREPLY_ACK_REQUIRED] = 0;
    stw_le_p(reply + EVREPLY_EVENT, event);
    stl_le_p(reply + EVREPLY_EVENT_CONTEXT, ++s->event_context);
    trace_sas3008_event(event, s->event_context);
    memcpy(reply + EVREPLY_EVENT_DATA, data, len);
    sas3008_reply(s, 0, 0, reply, EVREPLY_EVENT_DATA + len);
}

static void sas3008_discovery_event(SAS3008State *s, bool started)
{
    uint8_t d[EVDISC_SIZE] = { 0 };

    d[EVDISC_FLAGS] = started ? EVDISC_FLAGS_IN_PROGRESS : 0;
    d[EVDISC_REASON_CODE] = started ? EVDISC_RC_STARTED : EVDISC_RC_COMPLETED;
    sas3008_event(s, EV_SAS_DISCOVERY, d, sizeof(d));
}

/* The HBA's own enclosure, added at discovery as firmware reports it. */
static void sas3008_enclosure_event(SAS3008State *s)
{
    uint8_t d[EVENCL_SIZE] = { 0 };

    stw_le_p(d + EVENCL_ENCLOSURE_HANDLE, ENCL_HANDLE);
    d[EVENCL_REASON_CODE] = EVENCL_RC_ADDED;
    stq_le_p(d + EVENCL_ENCLOSURE_LOGICAL_ID, s->sas_addr);
    stw_le_p(d + EVENCL_NUM_SLOTS, sas3008_max_disks(s));
    stl_le_p(d + EVENCL_PHY_BITS, (1u << NUM_PHYS) - 1);
    sas3008_event(s, EV_SAS_ENCL_DEVICE_STATUS_CHANGE, d, sizeof(d));
}

/*
 * Topology change lists of the disks' phys, the HBA's or the expander's,
 * each list of the phys from one disk to another that one reply frame
 * holds.  Each of the expander's says it was added: the driver adds it
 * at the first and knows it at the others.  The HBA's phys to the
 * expander are in no list: mpt3sas 54.100 retries a list whose target it
 * cannot add as a disk, forever; it finds them in SAS PHY page 0.
 */
static void sas3008_topology_event(SAS3008State *s)
{
    int room = (MIN(s->reply_frame_size * 4, REPLY_MAX) -
                EVREPLY_EVENT_DATA - EVTOPO_PHY) / EVTOPO_PHY_SIZE;
    int first = 0, last, id;
    uint8_t d[REPLY_MAX];

    for (;;) {
        while (first < sas3008_max_disks(s) && !sas3008_disk(s, first)) {
            first++;
        }
        if (first == sas3008_max_disks(s)) {
            return;
        }
        last = first;
        for (id = first; id < MIN(first + room, sas3008_max_disks(s)); id++) {
            if (sas3008_disk(s, id)) {
                last = id;
            }
        }
        memset(d, 0, sizeof(d));
        stw_le_p(d + EVTOPO_ENCLOSURE_HANDLE, ENCL_HANDLE);
        if (s->expander) {
            stw_le_p(d + EVTOPO_EXPANDER_DEV_HANDLE, EXP_DEV_HANDLE);
            d[EVTOPO_NUM_PHYS] = EXP_NUM_PHYS;
            d[EVTOPO_EXP_STATUS] = EVTOPO_ES_ADDED;
        } else {
            d[EVTOPO_NUM_PHYS] = NUM_PHYS;
        }
        d[EVTOPO_NUM_ENTRIES] = last - first + 1;
        d[EVTOPO_START_PHY_NUM] = first;
        d[EVTOPO_PHYSICAL_PORT] = 0;
        for (id = first; id <= last; id++) {
            uint8_t *e = d + EVTOPO_PHY + (id - first) * EVTOPO_PHY_SIZE;

            if (!sas3008_disk(s, id)) {
                e[EVTOPO_PHY_STATUS] = EVTOPO_PHYSTATUS_VACANT |
                                       EVTOPO_RC_NO_CHANGE;
                continue;
            }
            stw_le_p(e + EVTOPO_PHY_ATTACHED_DEV_HANDLE,
                     sas3008_disk_handle(s, id));
            e[EVTOPO_PHY_LINK_RATE] = LINK_RATE_12_0 << LINK_RATE_SHIFT;
            e[EVTOPO_PHY_STATUS] = EVTOPO_RC_TARG_ADDED;
        }
        sas3008_event(s, EV_SAS_TOPOLOGY_CHANGE_LIST, d,
                      EVTOPO_PHY + (last - first + 1) * EVTOPO_PHY_SIZE);
        first = last + 1;
    }
}

/*
 * An SMP request to the expander.  It knows REPORT MANUFACTURER INFORMATION,
 * which mpt3sas sends as it adds the expander (to fill in its vendor in sysfs);
 * any other function is unknown to it.
 */
static void sas3008_smp_passthrough(SAS3008State *s, uint16_t smid,
                                    uint8_t msix, const uint8_t *req)
{
    /* the request's data out and data in: two IEEE simple elements */
    const uint8_t *out = req + SMPPT_SGL, *in = out + IEEE_SGE_SIZE;
    uint8_t reply[SMPPT_REPLY_SIZE], rq[4] = { 0 }, rsp[SMP_RMI_LENGTH];
    uint16_t status = ST_SUCCESS;
    uint32_t rsp_len = 0;

    memset(rsp, 0, sizeof(rsp));
    if (!s->expander ||
        ldq_le_p(req + SMPPT_SAS_ADDRESS) != sas3008_exp_sas_addr(s)) {
        status = ST_SAS_SMP_REQUEST_FAILED;
    } else if ((out[IEEE_SGE_FLAGS] | in[IEEE_SGE_FLAGS]) & IEEE_FLAGS_CHAIN ||
               !(in[IEEE_SGE_FLAGS] & IEEE_FLAGS_END_OF_LIST) ||
               ldl_le_p(out + IEEE_SGE_LENGTH) < sizeof(rq)) {
        status = ST_INVALID_SGL;
    } else {
        pci_dma_read(&s->dev, ldq_le_p(out + IEEE_SGE_ADDRESS), rq,
                     sizeof(rq));
        rsp[0] = SMP_FRAME_RESPONSE;
        rsp[1] = rq[1];
        if (rq[0] == SMP_FRAME_REQUEST &&
            rq[1] == SMP_FN_REPORT_MANUFACTURER_INFO) {
            rsp[2] = SMP_RESULT_ACCEPTED;
            rsp[SMP_RMI_RESPONSE_LENGTH] = (SMP_RMI_LENGTH - 4) / 4;
            memcpy(rsp + SMP_RMI_VENDOR, "LSI     ", 8);
            memcpy(rsp + SMP_RMI_PRODUCT, "SAS3x40         ", 16);
            memcpy(rsp + SMP_RMI_REVISION, "0601", 4);
            rsp_len = SMP_RMI_LENGTH;
        } else {
            rsp[2] = SMP_RESULT_UNKNOWN_FUNCTION;
            rsp_len = 4;
        }
        pci_dma_write(&s->dev, ldq_le_p(in + IEEE_SGE_ADDRESS), rsp,
                      MIN(rsp_len, ldl_le_p(in + IEEE_SGE_LENGTH)));
    }
    trace_sas3008_smp(rq[1], status);
    sas3008_reply_header(reply, req, sizeof(reply), status);
    stw_le_p(reply + SMPPT_RESPONSE_DATA_LENGTH, rsp_len);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}

/* A port enable request: discovery of the disks, then the reply. */
static void sas3008_port_enable(SAS3008State *s, uint16_t smid, uint8_t msix,
                                const uint8_t *req)
{
    sas3008_discovery_event(s, true);
    sas3008_enclosure_event(s);
    sas3008_topology_event(s);
    sas3008_discovery_event(s, false);
    sas3008_simple_reply(s, smid, msix, req, ST_SUCCESS);
}

/* An event notification request: the event masks; events flow from now on. */
static void sas3008_event_notification(SAS3008State *s, uint16_t smid,
                                       uint8_t msix, const uint8_t *req)
{
    uint8_t reply[EVNOTIFY_REPLY_SIZE];
    int i;

    for (i = 0; i < EV_MASK_WORDS; i++) {
        s->event_masks[i] = ldl_le_p(req + EVNOTIFY_EVENT_MASKS + 4 * i);
    }
    s->events_on = true;
    sas3008_reply_header(reply, req, sizeof(reply), ST_SUCCESS);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}

/* Event acknowledge and SAS IO unit control: nothing to do here but reply. */
static void sas3008_accept(SAS3008State *s, uint16_t smid, uint8_t msix,
                           const uint8_t *req)
{
    sas3008_simple_reply(s, smid, msix, req, ST_SUCCESS);
}

/* Task management */

/* Is SMID @task outstanding (for @handle, unless 0)? */
static bool sas3008_task_outstanding(SAS3008State *s, uint16_t task,
                                     uint16_t handle)
{
    return task && task <= s->max_smid && s->smid_req[task] &&
           (!handle || s->smid_req[task]->handle == handle);
}

/* A SCSI task management request. */
static void sas3008_task_mgmt(SAS3008State *s, uint16_t smid, uint8_t msix,
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
    trace_sas3008_task_mgmt(handle, type, task, n);
    reply[TM_REPLY_RESPONSE_CODE] = rsp;
    stl_le_p(reply + TM_REPLY_TERMINATION_COUNT, n);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}

/* Requests from the request queue */

/* What the request queue takes, by function; the rest is refused */
static SAS3008Function *const sas3008_functions[] = {
    [FN_SCSI_IO] = sas3008_scsi_io,
    [FN_SCSI_TASK_MGMT] = sas3008_task_mgmt,
    [FN_CONFIG] = sas3008_config,
    [FN_PORT_ENABLE] = sas3008_port_enable,
    [FN_EVENT_NOTIFICATION] = sas3008_event_notification,
    [FN_EVENT_ACK] = sas3008_accept,
    [FN_FW_UPLOAD] = sas3008_fw_upload,
    [FN_SMP_PASSTHROUGH] = sas3008_smp_passthrough,
    [FN_SAS_IO_UNIT_CONTROL] = sas3008_accept,
};

static void sas3008_request(SAS3008State *s, uint32_t lo, uint32_t hi)
{
    uint8_t type = lo & REQ_TYPE_MASK;
    uint8_t msix = (lo >> DESC_MSIX_SHIFT) & DESC_MSIX_MASK;
    uint16_t smid = lo >> DESC_SMID_SHIFT;
    uint8_t frame[REPLY_MAX];
    const char *why = NULL;
    uint8_t fn, only;

    if (s->state != IOC_STATE_OPERATIONAL) {
        sas3008_fault(s, FAULT_NOT_OPERATIONAL,
                      "request descriptor while not operational");
        return;
    }
    if (smid == 0 || smid > s->max_smid) {
        sas3008_fault(s, FAULT_BAD_SMID, "request descriptor with a bad SMID");
        return;
    }
    memset(frame, 0, sizeof(frame));
    if (sas3008_chip(s)->mcpu) {
        /* the driver's clone of the frame in the BAR, not host memory */
        uint64_t off = (uint64_t)smid * s->req_frame_bytes;
        uint32_t len = MIN(s->req_frame_bytes, sizeof(frame));

        if (off + len > MCPU_RAM_SIZE) {
            sas3008_fault(s, FAULT_BAD_SMID, "SMID beyond the BAR's frames");
            return;
        }
        memcpy(frame, (uint8_t *)memory_region_get_ram_ptr(&s->mcpu_ram) + off,
               len);
    } else {
        pci_dma_read(&s->dev,
                     s->req_base + (uint64_t)smid * s->req_frame_bytes,
                     frame, MIN(s->req_frame_bytes, sizeof(frame)));
    }
    fn = frame[MSG_FUNCTION];
    trace_sas3008_request(smid, fn, msix);
    /* the SCSI IO and high priority descriptors carry one function each */
    switch (type) {
    case REQ_TYPE_SCSI_IO:
    case REQ_TYPE_FAST_PATH:
        only = FN_SCSI_IO;
        why = "SCSI IO descriptor for another function";
        break;
    case REQ_TYPE_HIGH_PRIORITY:
        only = FN_SCSI_TASK_MGMT;
        why = "high priority descriptor for another function";
        break;
    case REQ_TYPE_DEFAULT:
        only = fn;
        break;
    default:
        sas3008_fault(s, FAULT_BAD_DESCRIPTOR, "unknown descriptor type");
        return;
    }
    if (fn != only) {
        sas3008_fault(s, FAULT_BAD_DESCRIPTOR, why);
        return;
    }
    if (fn == FN_SCSI_IO && sas3008_lie(s, LIE_IO_FAULT)) {
        sas3008_fault(s, FAULT_LIE, "lie: a fault instead of a SCSI IO");
        return;
    }
    if (fn < ARRAY_SIZE(sas3008_functions) && sas3008_functions[fn]) {
        sas3008_functions[fn](s, smid, msix, frame);
        return;
    }
    qemu_log_mask(LOG_UNIMP, "sas3008: function 0x%02x\n", fn);
    sas3008_simple_reply(s, smid, msix, frame, ST_INVALID_FUNCTION);
}

static uint32_t sas3008_reg_read(SAS3008State *s, hwaddr addr)
{
    uint32_t val, q;

    switch (addr) {
    case REG_DOORBELL:
        return sas3008_doorbell_read(s);
    case REG_HOST_DIAGNOSTIC:
        return s->diag;
    case REG_HOST_INT_STATUS:
        val = s->intr_status;
        for (q = 0; q < s->nr_queues; q++) {
            if (sas3008_reply_pending(s, q)) {
                val |= HIS_REPLY_DESC_INT;
            }
        }
        return val;
    case REG_HOST_INT_MASK:
        return s->intr_mask;
    case REG_REPLY_FREE_HOST_IDX:
        return s->reply_free_host_idx;
    case REG_REPLY_POST_HOST_IDX:
        return s->post_host_idx[0];
    case REG_HCB_SIZE:
    case REG_HCB_ADDR_LOW:
    case REG_HCB_ADDR_HIGH:
        return s->hcb[(addr - REG_HCB_SIZE) / 4];
    default:
        return 0;
    }
}

static uint64_t sas3008_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    uint32_t val = sas3008_reg_read(opaque, addr);

    trace_sas3008_mmio_read(addr, val);
    return val;
}

static void sas3008_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    SAS3008State *s = opaque;

    trace_sas3008_mmio_write(addr, val);
    switch (addr) {
    case REG_DOORBELL:
        sas3008_doorbell_write(s, val);
        break;
    case REG_WRITE_SEQUENCE:
        sas3008_wrseq_write(s, val);
        break;
    case REG_HOST_DIAGNOSTIC:
        sas3008_diag_write(s, val);
        break;
    case REG_HOST_INT_STATUS:
        sas3008_his_write(s);
        break;
    case REG_HOST_INT_MASK:
        s->intr_mask = val & (HIM_RESET_IRQ | HIM_RIM | HIM_DIM);
        sas3008_update_intx(s);
        /* replies posted while masked */
        for (uint32_t q = 0; q < s->nr_queues; q++) {
            if (sas3008_reply_pending(s, q)) {
                sas3008_notify(s, q);
            }
        }
        break;
    case REG_REPLY_FREE_HOST_IDX:
        sas3008_reply_free_index(s, val);
        break;
    case REG_REPLY_POST_HOST_IDX:
        sas3008_reply_post_index(s, (val >> REPLY_POST_HOST_MSIX_SHIFT) &
                                 REPLY_POST_HOST_MSIX_MASK,
                                 val & REPLY_POST_HOST_IDX_MASK);
        break;
    case REG_HCB_SIZE:
    case REG_HCB_ADDR_LOW:
    case REG_HCB_ADDR_HIGH:
        s->hcb[(addr - REG_HCB_SIZE) / 4] = val;
        break;
    case REG_REQ_DESC_POST_LOW:
        s->desc_low = val;
        break;
    case REG_REQ_DESC_POST_HIGH:
        sas3008_request(s, s->desc_low, val);
        break;
    default:
        if (addr >= REG_SUP_REPLY_POST_IDX &&
            addr < REG_SUP_REPLY_POST_IDX +
                   SUP_REPLY_POST_GROUPS * SUP_REPLY_POST_STRIDE &&
            (addr - REG_SUP_REPLY_POST_IDX) % SUP_REPLY_POST_STRIDE == 0) {
            uint32_t group = (addr - REG_SUP_REPLY_POST_IDX) /
                             SUP_REPLY_POST_STRIDE;

            sas3008_reply_post_index(s, group * SUP_REPLY_POST_GROUP_QUEUES +
                                     ((val >> REPLY_POST_HOST_MSIX_SHIFT) &
                                      (SUP_REPLY_POST_GROUP_QUEUES - 1)),
                                     val & REPLY_POST_HOST_IDX_MASK);
        }
        break;
    }
}

static const MemoryRegionOps sas3008_mmio_ops = {
    .read = sas3008_mmio_read,
    .write = sas3008_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 8,
    },
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

/*
 * The chips, the class data of their types.  Where no property sets them,
 * the IOC Facts: of a SAS 9300-8i (FreeBSD mpr's IOCFacts: 10240 and 128
 * credits); of the SAS2 chips those the driver logs for their IT firmware
 * P20 (20.00.07.00): RequestCredit is its "Max Controller Queue Depth",
 * HighPriorityCredit what its current depth (RequestCredit - HP - 8) and
 * request pool depth (RequestCredit + HP) leave, MaxMSIxVectors its "MSI-X
 * vectors supported"; MaxChainDepth 128 and the reply post queue as the
 * SAS3008's, as the logs show only that they exceed what the driver asks.
 * The MCPU endpoint's are those its BAR layout assumes.
 */
enum { CHIP_SAS3008, CHIP_SAS2008, CHIP_SAS2308, CHIP_MCPU };

static const SAS3008Chip sas3008_chips[] = {
    [CHIP_SAS3008] = {
        .desc = "LSI SAS3008 (MPI 2.5), a SAS 9300-8i",
        .device_id = 0x0097, .subsystem_id = 0x30e0, .revision = 2,
        .request_credit = 10240, .hi_priority_credit = 128,
        .max_chain_depth = 128, .msix_vectors = 16,
        .chip_name = "LSISAS3008", .chip_revision = "C0",
        .board_name = "SAS9300-8i",
    },
    /* Max Controller Queue Depth(3432), current 3364, depth 3492 */
    [CHIP_SAS2008] = {
        .desc = "LSI SAS2008 (MPI 2.0), a SAS 9211-8i",
        .device_id = 0x0072, .subsystem_id = 0x3020, .revision = 3,
        .mpi2 = true,
        .request_credit = 3432, .hi_priority_credit = 60,
        .max_chain_depth = 128, .msix_vectors = 1,
        .chip_name = "LSISAS2008", .chip_revision = "B2",
        .board_name = "SAS9211-8i",
    },
    /* Max Controller Queue Depth(8192), current 8056 */
    [CHIP_SAS2308] = {
        .desc = "LSI SAS2308 (MPI 2.0), a SAS 9207-8i",
        .device_id = 0x0087, .subsystem_id = 0x3020, .revision = 5,
        .mpi2 = true,
        .request_credit = 8192, .hi_priority_credit = 128,
        .max_chain_depth = 128, .msix_vectors = 16,
        .chip_name = "LSISAS2308", .chip_revision = "D1",
        .board_name = "SAS9207-8i",
    },
    /*
     * "based on maxCredit 32", the driver's hi_priority_depth,
     * MCPU_MAX_CHAINS_PER_IO
     */
    [CHIP_MCPU] = {
        .desc = "PCIe switch management endpoint (MPI 2.0, MCPU)",
        .device_id = MCPU_DEVICE_ID, .subsystem_id = MCPU_DEVICE_ID,
        .revision = 2,
        .mpi2 = true, .mcpu = true,
        .request_credit = 32, .hi_priority_credit = 5,
        .max_chain_depth = 3, .msix_vectors = 16,
        .chip_name = "SWITCH_MPI_EP", .chip_revision = "C0",
        .board_name = "MCPU-EP",
    },
};

/* The MCPU endpoint's memory BAR: registers, then RAM for the clones. */
static bool sas3008_mcpu_bar(SAS3008State *s, Error **errp)
{
    uint32_t rs = s->request_frame_size * 4;
    uint32_t credit = s->request_credit + 1;
    /*
     * the end of the data buffer of the last SMID (request credit and
     * high priority SMIDs): _base_get_buffer_bar0()
     */
    uint64_t end = MCPU_REGS_SIZE + (uint64_t)credit * rs +
                   MCPU_REPLY_FREE_CLONE +
                   (uint64_t)(credit + 2) * s->max_chain_depth * rs +
                   (uint64_t)(s->request_credit + s->hi_priority_credit + 1) *
                   MCPU_IO_SIZE;
    Error *err = NULL;

    if (end > MCPU_MSIX_TABLE_OFFSET) {
        error_setg(errp, "the driver's BAR layout does not fit");
        return false;
    }
    memory_region_init(&s->mmio, OBJECT(s), "sas3008-mcpu-bar",
                       MCPU_MMIO_SIZE);
    memory_region_init_io(&s->mcpu_regs, OBJECT(s), &sas3008_mmio_ops, s,
                          "sas3008-mcpu-regs", MCPU_REGS_SIZE);
    memory_region_add_subregion(&s->mmio, 0, &s->mcpu_regs);
    /* unmigratable like the device: no RAM block to register */
    memory_region_init_ram_nomigrate(&s->mcpu_ram, OBJECT(s),
                                     "sas3008-mcpu-ram", MCPU_RAM_SIZE, &err);
    if (err) {
        error_propagate(errp, err);
        return false;
    }
    memory_region_add_subregion(&s->mmio, MCPU_REGS_SIZE, &s->mcpu_ram);
    /* 32-bit addresses */
    pci_register_bar(&s->dev, 1, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->mmio);
    return true;
}

static void sas3008_realize(PCIDevice *dev, Error **errp)
{
    SAS3008State *s = SAS3008(dev);
    const SAS3008Chip *chip = sas3008_chip(s);

    if (s->request_credit == PROP_CHIP) {
        s->request_credit = chip->request_credit;
    }
    if (s->hi_priority_credit == PROP_CHIP) {
        s->hi_priority_credit = chip->hi_priority_credit;
    }
    if (s->max_chain_depth == PROP_CHIP) {
        s->max_chain_depth = chip->max_chain_depth;
    }
    if (s->msix_vectors == PROP_CHIP) {
        s->msix_vectors = chip->msix_vectors;
    }
    if (!s->msix_vectors || s->msix_vectors > MSIX_MAX_VECTORS ||
        (s->request_credit | s->hi_priority_credit) > 0xffff ||
        s->max_chain_depth > 0xff) {
        error_setg(errp, "msix_vectors 1 to %d, credits 16-bit, "
                   "max_chain_depth 8-bit", MSIX_MAX_VECTORS);
        return;
    }
    if (s->request_frame_size * 4 < REQUEST_FRAME_MIN ||
        s->request_frame_size * 4 > REPLY_MAX ||
        s->reply_frame_size * 4 < REPLY_FRAME_MIN ||
        s->reply_frame_size * 4 > REPLY_MAX) {
        error_setg(errp, "request and reply frames are 128 bytes at most");
        return;
    }
    if (s->expander && (chip->mpi2 || chip->mcpu)) {
        error_setg(errp, "expander=on: the sas3008 type only");
        return;
    }
    if (!sas3008_test_realize(s, errp)) {
        return;
    }
    dev->config[PCI_INTERRUPT_PIN] = 0x01;
    memory_region_init_io(&s->io, OBJECT(s), &sas3008_mmio_ops, s,
                          "sas3008-io", IO_SIZE);
    pci_register_bar(dev, 0, PCI_BASE_ADDRESS_SPACE_IO, &s->io);
    if (chip->mcpu) {
        if (!sas3008_mcpu_bar(s, errp)) {
            return;
        }
    } else {
        memory_region_init_io(&s->mmio, OBJECT(s), &sas3008_mmio_ops, s,
                              "sas3008-mmio", MMIO_SIZE);
        pci_register_bar(dev, 1, PCI_BASE_ADDRESS_SPACE_MEMORY |
                         PCI_BASE_ADDRESS_MEM_TYPE_64, &s->mmio);
    }
    /* a PCIe endpoint, as the real chip: behind a root port it hot-plugs */
    if (pcie_endpoint_cap_init(dev, PCIE_CAP) < 0) {
        error_setg(errp, "cannot add the PCI Express capability");
        return;
    }
    if (s->use_msix) {
        if (msix_init(dev, s->msix_vectors, &s->mmio, 1,
                      chip->mcpu ? MCPU_MSIX_TABLE_OFFSET : MSIX_TABLE_OFFSET,
                      &s->mmio, 1,
                      chip->mcpu ? MCPU_MSIX_PBA_OFFSET : MSIX_PBA_OFFSET,
                      0, errp)) {
            return;
        }
        for (uint32_t i = 0; i < s->msix_vectors; i++) {
            msix_vector_use(dev, i);
        }
    }
    if (!s->sas_addr) {
        s->sas_addr = 0x500605b000000000ULL |
                      ((uint64_t)pci_dev_bus_num(dev) << 16) |
                      (PCI_SLOT(dev->devfn) << 8);
    }
    s->max_smid = s->request_credit + s->hi_priority_credit;
    s->smid_req = g_new0(SAS3008Request *, s->max_smid + 1);
    g_queue_init(&s->pending);
    s->manu11_eedp_tag_mode = 1;
    scsi_bus_init(&s->bus, sizeof(s->bus), &dev->qdev, &sas3008_scsi_info);
}

static void sas3008_exit(PCIDevice *dev)
{
    SAS3008State *s = SAS3008(dev);

    sas3008_cancel_all(s);
    if (s->use_msix) {
        msix_uninit(dev, &s->mmio, &s->mmio);
    }
    pcie_cap_exit(dev);
    g_free(s->smid_req);
}

static void sas3008_reset(DeviceState *dev)
{
    SAS3008State *s = SAS3008(dev);

    s->diag = 0;
    sas3008_hard_reset(s);
}

static const VMStateDescription vmstate_sas3008 = {
    .name = "sas3008",
    .unmigratable = 1,
};

static Property sas3008_properties[] = {
    DEFINE_PROP_UINT64("sas_address", SAS3008State, sas_addr, 0),
    DEFINE_PROP_BOOL("msix", SAS3008State, use_msix, true),
    DEFINE_PROP_BOOL("expander", SAS3008State, expander, false),
    DEFINE_PROP_UINT32("msix_vectors", SAS3008State, msix_vectors, PROP_CHIP),
    DEFINE_PROP_UINT32("request_credit", SAS3008State, request_credit,
                       PROP_CHIP),
    DEFINE_PROP_UINT32("hi_priority_credit", SAS3008State,
                       hi_priority_credit, PROP_CHIP),
    DEFINE_PROP_UINT16("request_frame_size", SAS3008State, request_frame_size,
                       0x20),
    DEFINE_PROP_UINT32("max_chain_depth", SAS3008State, max_chain_depth,
                       PROP_CHIP),
    DEFINE_PROP_UINT16("max_chain_segment_size", SAS3008State,
                       max_chain_seg_size, 0),
    DEFINE_PROP_UINT16("reply_frame_size", SAS3008State, reply_frame_size,
                       0x20),
    DEFINE_PROP_UINT16("max_reply_post_depth", SAS3008State,
                       max_reply_post_depth, 0xfff0),
    DEFINE_PROP_UINT32("fw_version", SAS3008State, fw_version, 0x10000100),
    /* not MPI: the tests' hooks (sas3008-test.c) */
    DEFINE_PROP_UINT64("stall_lba", SAS3008State, stall_lba, UINT64_MAX),
    DEFINE_PROP_STRING("lie", SAS3008State, lie_name),
    DEFINE_PROP_UINT32("lie_after", SAS3008State, lie_after, 0),
    DEFINE_PROP_UINT32("lie_count", SAS3008State, lie_count, 1),
    DEFINE_PROP_END_OF_LIST(),
};

static void sas3008_base_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->realize = sas3008_realize;
    pc->exit = sas3008_exit;
    pc->vendor_id = 0x1000;                     /* LSI / Broadcom */
    pc->subsystem_vendor_id = 0x1000;
    pc->class_id = PCI_CLASS_STORAGE_SAS;
    dc->reset = sas3008_reset;
    dc->vmsd = &vmstate_sas3008;
    device_class_set_props(dc, sas3008_properties);
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
}

static void sas3008_chip_class_init(ObjectClass *oc, void *data)
{
    const SAS3008Chip *chip = data;
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    SAS3008_CLASS(oc)->chip = chip;
    pc->device_id = chip->device_id;
    pc->subsystem_id = chip->subsystem_id;
    pc->revision = chip->revision;
    DEVICE_CLASS(oc)->desc = chip->desc;
}

#define SAS3008_CHIP_TYPE(type, chip) {                 \
        .name = type,                                   \
        .parent = TYPE_SAS3008_BASE,                    \
        .class_init = sas3008_chip_class_init,          \
        .class_data = (void *)&sas3008_chips[chip],     \
    }

static const TypeInfo sas3008_types[] = {
    {
        .name = TYPE_SAS3008_BASE,
        .parent = TYPE_PCI_DEVICE,
        .instance_size = sizeof(SAS3008State),
        .class_size = sizeof(SAS3008Class),
        .class_init = sas3008_base_class_init,
        .abstract = true,
        .interfaces = (InterfaceInfo[]) {
            { INTERFACE_PCIE_DEVICE },
            { },
        },
    },
    SAS3008_CHIP_TYPE("sas3008", CHIP_SAS3008),
    SAS3008_CHIP_TYPE("sas2008", CHIP_SAS2008),
    SAS3008_CHIP_TYPE("sas2308", CHIP_SAS2308),
    SAS3008_CHIP_TYPE("mpi-switch-ep", CHIP_MCPU),
};

DEFINE_TYPES(sas3008_types)
