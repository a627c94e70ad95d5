/*
 * Emulated LSI SAS3008: interrupts, the reply post queues (one per MSI-X
 * vector) and the reply free queue.
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "hw/pci/msix.h"
#include "sas3008.h"

/**
 * sas3008_reply_pending: does reply post queue @q hold descriptors the
 * host has not consumed?
 * @s: the HBA
 * @q: the queue
 */
bool sas3008_reply_pending(SAS3008State *s, uint32_t q)
{
    return s->post_ioc_idx[q] != s->post_host_idx[q];
}

/**
 * sas3008_update_intx: set INTx from the reply queues, unless MSI-X is on
 * or replies are masked.
 * @s: the HBA
 */
void sas3008_update_intx(SAS3008State *s)
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

/**
 * sas3008_turbo_reply: complete SCSI IO @smid without a reply frame.
 * @s: the HBA
 * @smid: the request's SMID
 * @msix: the reply queue its descriptor asked for
 */
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
        desc = sas3008_desc(RPY_ADDRESS_REPLY, q, p->smid) |
               ((uint64_t)frame << RPY_DESC_FRAME_SHIFT);
        g_queue_pop_head(&s->pending);
        g_free(p);
        sas3008_post_desc(s, q, desc);
    }
}

/**
 * sas3008_reply: send @len bytes of reply message through a reply frame,
 * now or once the host has freed one.
 * @s: the HBA
 * @smid: the request's SMID (0: an event)
 * @msix: the reply queue
 * @msg: the message
 * @len: its size, cut to a reply frame
 */
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

/**
 * sas3008_drop_replies: forget the replies that wait for a frame (reset).
 * @s: the HBA
 */
void sas3008_drop_replies(SAS3008State *s)
{
    SAS3008PendingReply *p;

    while ((p = g_queue_pop_head(&s->pending))) {
        g_free(p);
    }
}

/**
 * sas3008_reply_header: a reply header copied from the request: function,
 * flags, VP/VF; the rest of the @len-byte @reply zeroed.
 * @reply: the reply
 * @req: the request frame
 * @len: the reply's size
 * @status: its IOCStatus
 */
void sas3008_reply_header(uint8_t *reply, const uint8_t *req, size_t len,
                          uint16_t status)
{
    memset(reply, 0, len);
    memcpy(reply, req, MSG_ECHO_SIZE);
    reply[MSG_LENGTH] = len / 4;
    stw_le_p(reply + REPLY_IOC_STATUS, status);
}

/**
 * sas3008_simple_reply: reply to @req with a bare header and @status.
 * @s: the HBA
 * @smid: the request's SMID
 * @msix: the reply queue
 * @req: the request frame
 * @status: the IOCStatus
 */
void sas3008_simple_reply(SAS3008State *s, uint16_t smid, uint8_t msix,
                          const uint8_t *req, uint16_t status)
{
    uint8_t reply[REPLY_HEADER_SIZE];

    sas3008_reply_header(reply, req, sizeof(reply), status);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}

/**
 * sas3008_reset_queues: empty the reply post and reply free queues.
 * @s: the HBA
 */
void sas3008_reset_queues(SAS3008State *s)
{
    memset(s->post_ioc_idx, 0, sizeof(s->post_ioc_idx));
    memset(s->post_host_idx, 0, sizeof(s->post_host_idx));
    s->reply_free_ioc_idx = 0;
    s->reply_free_host_idx = 0;
}

/**
 * sas3008_reply_post_index: the host has consumed queue @q up to @idx.
 * @s: the HBA
 * @q: the queue
 * @idx: its new host index
 */
void sas3008_reply_post_index(SAS3008State *s, uint32_t q, uint32_t idx)
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

/**
 * sas3008_reply_free_index: the host has freed reply frames up to @idx.
 * @s: the HBA
 * @idx: the reply free queue's new host index
 */
void sas3008_reply_free_index(SAS3008State *s, uint32_t idx)
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
