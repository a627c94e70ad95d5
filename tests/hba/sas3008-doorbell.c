/*
 * Emulated LSI SAS3008: the doorbell handshake (IOC Facts, Port Facts, IOC
 * Init), the host diagnostic register with its write sequence, and the
 * message unit and adapter resets.
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "sas3008.h"

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
    if (s->mpi2) {
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
             s->mpi2 ? 0 : s->max_chain_seg_size);
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
               post_depth < 16 || (post_depth % 16 && !s->mcpu) ||
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
    if (fn < ARRAY_SIZE(sas3008_handshakes) && sas3008_handshakes[fn]) {
        sas3008_handshakes[fn](s, req);
        return;
    }
    qemu_log_mask(LOG_UNIMP, "sas3008: handshake function 0x%02x\n", fn);
    sas3008_reply_header(r, req, sizeof(r), ST_INVALID_FUNCTION);
    sas3008_hs_reply(s, r, sizeof(r));
}

/* Resets */

/**
 * sas3008_cancel_all: end every outstanding request without a reply.
 * @s: the HBA
 */
void sas3008_cancel_all(SAS3008State *s)
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

/**
 * sas3008_hard_reset: the adapter reset of the diagnostic register (and
 * of the PCI device): a message unit reset that forgets IOC Init too.
 * @s: the HBA
 */
void sas3008_hard_reset(SAS3008State *s)
{
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

/**
 * sas3008_doorbell_write: a write of the Doorbell register: a handshake
 * message's next dword, or a doorbell function.
 * @s: the HBA
 * @val: the value written
 */
void sas3008_doorbell_write(SAS3008State *s, uint32_t val)
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

/**
 * sas3008_doorbell_read: the Doorbell register: IOC state, who initialized
 * it, and the fault code or the handshake reply's next word.
 * @s: the HBA
 */
uint32_t sas3008_doorbell_read(SAS3008State *s)
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

/**
 * sas3008_his_write: any write of the host interrupt status clears the
 * doorbell interrupt; while the host reads a reply it also moves on to the
 * next word (unless the read took it: doorbell_pop), or past the last one
 * to the end of the handshake, which raises it again.
 * @s: the HBA
 */
void sas3008_his_write(SAS3008State *s)
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

/**
 * sas3008_diag_write: a write of the host diagnostic register, once the
 * write sequence has unlocked it.
 * @s: the HBA
 * @val: the value written
 */
void sas3008_diag_write(SAS3008State *s, uint32_t val)
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

/**
 * sas3008_wrseq_write: a key of the write sequence that unlocks the host
 * diagnostic register.
 * @s: the HBA
 * @val: the value written
 */
void sas3008_wrseq_write(SAS3008State *s, uint32_t val)
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
