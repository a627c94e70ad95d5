/*
 * Emulated LSI SAS3008: events (SAS discovery, the enclosure, topology
 * change lists), event notification and acks, and port enable, which
 * discovers the directly attached disks.
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "sas3008.h"

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
    stw_le_p(d + EVENCL_NUM_SLOTS, NUM_PHYS);
    stl_le_p(d + EVENCL_PHY_BITS, (1u << NUM_PHYS) - 1);
    sas3008_event(s, EV_SAS_ENCL_DEVICE_STATUS_CHANGE, d, sizeof(d));
}

/* A topology change list of the HBA's own phys: every phy with a disk. */
static void sas3008_topology_event(SAS3008State *s, int only_phy, bool added)
{
    uint8_t d[EVTOPO_PHY + NUM_PHYS * EVTOPO_PHY_SIZE] = { 0 };
    int phy, n = 0, start = -1;

    for (phy = 0; phy < NUM_PHYS; phy++) {
        if (only_phy >= 0 && phy != only_phy) {
            continue;
        }
        if (added && !sas3008_phy_dev(s, phy)) {
            continue;
        }
        if (start < 0) {
            start = phy;
        }
        /* entries are for consecutive phys from StartPhyNum */
        n = phy - start + 1;
    }
    if (start < 0) {
        return;
    }
    stw_le_p(d + EVTOPO_ENCLOSURE_HANDLE, ENCL_HANDLE);
    /* no expander: the HBA's phys */
    stw_le_p(d + EVTOPO_EXPANDER_DEV_HANDLE, 0);
    d[EVTOPO_NUM_PHYS] = NUM_PHYS;
    d[EVTOPO_NUM_ENTRIES] = n;
    d[EVTOPO_START_PHY_NUM] = start;
    d[EVTOPO_EXP_STATUS] = 0;
    d[EVTOPO_PHYSICAL_PORT] = 0;
    for (phy = start; phy < start + n; phy++) {
        uint8_t *e = d + EVTOPO_PHY + (phy - start) * EVTOPO_PHY_SIZE;

        if (added && !sas3008_phy_dev(s, phy)) {
            e[EVTOPO_PHY_STATUS] = EVTOPO_PHYSTATUS_VACANT |
                                   EVTOPO_RC_NO_CHANGE;
            continue;
        }
        stw_le_p(e + EVTOPO_PHY_ATTACHED_DEV_HANDLE, FIRST_DEV_HANDLE + phy);
        e[EVTOPO_PHY_LINK_RATE] = added ?
                                  LINK_RATE_12_0 << LINK_RATE_SHIFT :
                                  LINK_RATE_12_0;
        e[EVTOPO_PHY_STATUS] = added ? EVTOPO_RC_TARG_ADDED :
                               EVTOPO_RC_TARG_NOT_RESPONDING;
    }
    sas3008_event(s, EV_SAS_TOPOLOGY_CHANGE_LIST, d,
                  EVTOPO_PHY + n * EVTOPO_PHY_SIZE);
}

/**
 * sas3008_port_enable: a port enable request: discovery of the directly
 * attached disks, then the reply.
 * @s: the HBA
 * @smid: the request's SMID
 * @msix: the reply queue
 * @req: the request frame
 */
void sas3008_port_enable(SAS3008State *s, uint16_t smid, uint8_t msix,
                         const uint8_t *req)
{
    sas3008_discovery_event(s, true);
    sas3008_enclosure_event(s);
    sas3008_topology_event(s, -1, true);
    sas3008_discovery_event(s, false);
    sas3008_simple_reply(s, smid, msix, req, ST_SUCCESS);
}

/**
 * sas3008_event_notification: an event notification request: the event
 * masks; events flow from now on.
 * @s: the HBA
 * @smid: the request's SMID
 * @msix: the reply queue
 * @req: the request frame
 */
void sas3008_event_notification(SAS3008State *s, uint16_t smid, uint8_t msix,
                                const uint8_t *req)
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

/**
 * sas3008_accept: event acknowledge and SAS IO unit control: nothing to do
 * here but reply.
 * @s: the HBA
 * @smid: the request's SMID
 * @msix: the reply queue
 * @req: the request frame
 */
void sas3008_accept(SAS3008State *s, uint16_t smid, uint8_t msix,
                    const uint8_t *req)
{
    sas3008_simple_reply(s, smid, msix, req, ST_SUCCESS);
}
