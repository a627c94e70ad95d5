/*
 * Emulated LSI SAS3008: the configuration pages the driver reads, one
 * builder each, and the config request.
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "trace.h"
#include "sas3008.h"

/*
 * A page builder fills page @p (zeroed, CONFIG_PAGE_MAX bytes) for page
 * address @addr and returns its length, or 0 if there is no page at that
 * address; it may set *status instead (then its length does not matter).
 * The header is written after it.
 */
typedef size_t SAS3008PageBuilder(SAS3008State *s, uint32_t addr, uint8_t *p,
                                  uint16_t *status);

/* NUL-padded, as firmware fills its string fields */
static void cfg_str(uint8_t *p, const char *str, size_t len)
{
    memcpy(p, str, MIN(strlen(str), len));
}

static size_t manufacturing0(SAS3008State *s, uint32_t addr, uint8_t *p,
                             uint16_t *status)
{
    const SAS3008Chip *chip = sas3008_chip(s);

    cfg_str(p + MANP0_CHIP_NAME, chip->chip_name, 16);
    cfg_str(p + MANP0_CHIP_REVISION, chip->chip_revision, 8);
    cfg_str(p + MANP0_BOARD_NAME, chip->board_name, 16);
    cfg_str(p + MANP0_BOARD_ASSEMBLY, "QEMU", 16);
    cfg_str(p + MANP0_BOARD_TRACER_NUMBER, "mpt3sas-cp", 16);
    return MANP0_SIZE;
}

static size_t manufacturing11(SAS3008State *s, uint32_t addr, uint8_t *p,
                              uint16_t *status)
{
    p[MANP11_EEDP_TAG_MODE] = s->manu11_eedp_tag_mode;
    return MANP11_SIZE;
}

static size_t ioc8(SAS3008State *s, uint32_t addr, uint8_t *p,
                   uint16_t *status)
{
    p[IOCP8_NUM_DEVS_PER_ENCLOSURE] = sas3008_max_disks(s);
    stw_le_p(p + IOCP8_MAX_PERSISTENT_ENTRIES, 128);
    stw_le_p(p + IOCP8_MAX_NUM_PHYSICAL_MAPPED_IDS, sas3008_max_disks(s));
    return IOCP8_SIZE;
}

static size_t io_unit0(SAS3008State *s, uint32_t addr, uint8_t *p,
                       uint16_t *status)
{
    stq_le_p(p + IOUP0_UNIQUE_VALUE, s->sas_addr);
    return IOUP0_SIZE;
}

static size_t io_unit1(SAS3008State *s, uint32_t addr, uint8_t *p,
                       uint16_t *status)
{
    stl_le_p(p + IOUP1_FLAGS, s->iounit1_flags);
    return IOUP1_SIZE;
}

/* The IOC's own sensor, as a SAS3008 reports it; the board has none. */
static size_t io_unit7(SAS3008State *s, uint32_t addr, uint8_t *p,
                       uint16_t *status)
{
    stw_le_p(p + IOUP7_IOC_TEMPERATURE, IOC_TEMPERATURE_C);
    p[IOUP7_IOC_TEMPERATURE_UNITS] = IOUP7_TEMP_CELSIUS;
    return IOUP7_SIZE;
}

/* What the HBA's @phy is attached to: the expander, a disk or nothing */
static uint16_t sas3008_phy_attached(SAS3008State *s, int phy)
{
    if (s->expander) {
        return EXP_DEV_HANDLE;
    }
    return sas3008_disk(s, phy) ? sas3008_disk_handle(s, phy) : 0;
}

static size_t sas_io_unit0(SAS3008State *s, uint32_t addr, uint8_t *p,
                           uint16_t *status)
{
    int phy;

    p[SASIOUP0_NUM_PHYS] = NUM_PHYS;
    for (phy = 0; phy < NUM_PHYS; phy++) {
        uint8_t *d = p + SASIOUP0_PHY_DATA + phy * SASIOUP0_PHY_SIZE;
        uint16_t att = sas3008_phy_attached(s, phy);

        d[SASIOUP0_PHY_PORT] = 0;
        d[SASIOUP0_PHY_NEGOTIATED_LINK_RATE] = att ? LINK_RATE_NEGOTIATED : 0;
        stl_le_p(d + SASIOUP0_PHY_CONTROLLER_DEVICE_INFO, HBA_DEVICE_INFO);
        stw_le_p(d + SASIOUP0_PHY_ATTACHED_DEV_HANDLE, att);
        stw_le_p(d + SASIOUP0_PHY_CONTROLLER_DEV_HANDLE, HBA_DEV_HANDLE);
    }
    return SASIOUP0_PHY_DATA + NUM_PHYS * SASIOUP0_PHY_SIZE;
}

static size_t sas_io_unit1(SAS3008State *s, uint32_t addr, uint8_t *p,
                           uint16_t *status)
{
    int phy;

    stw_le_p(p + SASIOUP1_NARROW_MAX_QUEUE_DEPTH, 254);
    stw_le_p(p + SASIOUP1_WIDE_MAX_QUEUE_DEPTH, 254);
    p[SASIOUP1_NUM_PHYS] = NUM_PHYS;
    p[SASIOUP1_SATA_MAX_QDEPTH] = 32;
    for (phy = 0; phy < NUM_PHYS; phy++) {
        uint8_t *d = p + SASIOUP1_PHY_DATA + phy * SASIOUP1_PHY_SIZE;

        d[SASIOUP1_PHY_MAX_MIN_LINK_RATE] = LINK_RATE_MAX_MIN;
        stl_le_p(d + SASIOUP1_PHY_CONTROLLER_DEVICE_INFO, HBA_DEVICE_INFO);
    }
    return SASIOUP1_PHY_DATA + NUM_PHYS * SASIOUP1_PHY_SIZE;
}

/*
 * The handle after @handle (PGAD_GET_NEXT_FIRST: the first) of the
 * expander or a disk, or 0
 */
static uint16_t sas3008_next_handle(SAS3008State *s, uint16_t handle)
{
    uint16_t h = handle == PGAD_GET_NEXT_FIRST ? FIRST_DEV_HANDLE :
                 handle + 1;

    for (; h < sas3008_disk_handle(s, sas3008_max_disks(s)); h++) {
        if ((s->expander && h == EXP_DEV_HANDLE) ||
            sas3008_handle_dev(s, h)) {
            return h;
        }
    }
    return 0;
}

/* The controller itself, the expander, or a disk */
static size_t sas_device0(SAS3008State *s, uint32_t addr, uint8_t *p,
                          uint16_t *status)
{
    uint16_t handle = addr & PGAD_HANDLE_MASK;
    uint32_t form = addr & PGAD_FORM_MASK, info;
    uint64_t sas_addr;
    int id;

    if (form == SAS_DEVICE_PGAD_FORM_GET_NEXT_HANDLE) {
        handle = sas3008_next_handle(s, handle);
    } else if (form != SAS_DEVICE_PGAD_FORM_HANDLE) {
        *status = ST_INVALID_FIELD;
        return 0;
    }
    if (handle == HBA_DEV_HANDLE && form) {
        sas_addr = s->sas_addr;
        info = HBA_DEVICE_INFO;
    } else if (s->expander && handle == EXP_DEV_HANDLE) {
        /* on the wide port of the HBA's phys, from its phy 0 */
        sas_addr = sas3008_exp_sas_addr(s);
        info = EXP_DEVICE_INFO;
        stw_le_p(p + SASDEVP0_PARENT_DEV_HANDLE, HBA_DEV_HANDLE);
        p[SASDEVP0_ATTACHED_PHY_IDENTIFIER] = EXP_DISKS;
        p[SASDEVP0_MAX_PORT_CONNECTIONS] = NUM_PHYS;
    } else if (sas3008_handle_dev(s, handle)) {
        id = handle - sas3008_disk_handle(s, 0);
        sas_addr = sas3008_dev_sas_addr(s, id);
        info = DISK_DEVICE_INFO | (s->expander ? 0 : DEVINFO_DIRECT_ATTACH);
        stw_le_p(p + SASDEVP0_SLOT, id);
        stw_le_p(p + SASDEVP0_PARENT_DEV_HANDLE,
                 s->expander ? EXP_DEV_HANDLE : HBA_DEV_HANDLE);
        p[SASDEVP0_PHY_NUM] = id;
        p[SASDEVP0_ACCESS_STATUS] = SASDEVP0_ACCESS_OK;
        p[SASDEVP0_MAX_PORT_CONNECTIONS] = 1;
    } else {
        return 0;
    }
    stw_le_p(p + SASDEVP0_ENCLOSURE_HANDLE, ENCL_HANDLE);
    stq_le_p(p + SASDEVP0_SAS_ADDRESS, sas_addr);
    stw_le_p(p + SASDEVP0_DEV_HANDLE, handle);
    stl_le_p(p + SASDEVP0_DEVICE_INFO, info);
    stw_le_p(p + SASDEVP0_FLAGS, SASDEVP0_FLAGS_DEVICE_PRESENT);
    stq_le_p(p + SASDEVP0_DEVICE_NAME, sas_addr);
    return SASDEVP0_SIZE;
}

static size_t sas_phy0(SAS3008State *s, uint32_t addr, uint8_t *p,
                       uint16_t *status)
{
    int phy = addr & PGAD_PHY_NUMBER_MASK;

    if ((addr & PGAD_FORM_MASK) != SAS_PHY_PGAD_FORM_PHY_NUMBER ||
        phy >= NUM_PHYS) {
        return 0;
    }
    stw_le_p(p + SASPHYP0_OWNER_DEV_HANDLE, HBA_DEV_HANDLE);
    if (sas3008_phy_attached(s, phy)) {
        stw_le_p(p + SASPHYP0_ATTACHED_DEV_HANDLE,
                 sas3008_phy_attached(s, phy));
        p[SASPHYP0_ATTACHED_PHY_IDENTIFIER] = s->expander ?
                                              EXP_DISKS + phy : 0;
        p[SASPHYP0_NEGOTIATED_LINK_RATE] = LINK_RATE_NEGOTIATED;
    }
    p[SASPHYP0_PROGRAMMED_LINK_RATE] = LINK_RATE_MAX_MIN;
    p[SASPHYP0_HW_LINK_RATE] = LINK_RATE_MAX_MIN;
    return SASPHYP0_SIZE;
}

static size_t enclosure0(SAS3008State *s, uint32_t addr, uint8_t *p,
                         uint16_t *status)
{
    uint16_t handle = addr & PGAD_HANDLE_MASK;
    uint32_t form = addr & PGAD_FORM_MASK;

    if (!((form == SAS_ENCLOS_PGAD_FORM_GET_NEXT_HANDLE &&
           handle == PGAD_GET_NEXT_FIRST) ||
          (form == SAS_ENCLOS_PGAD_FORM_HANDLE && handle == ENCL_HANDLE))) {
        return 0;
    }
    stq_le_p(p + ENCLP0_ENCLOSURE_LOGICAL_ID, s->sas_addr);
    stw_le_p(p + ENCLP0_ENCLOSURE_HANDLE, ENCL_HANDLE);
    stw_le_p(p + ENCLP0_NUM_SLOTS, sas3008_max_disks(s));
    return ENCLP0_SIZE;
}

/* The expander, by handle or the one after 0xffff (expander=on) */
static size_t expander0(SAS3008State *s, uint32_t addr, uint8_t *p,
                        uint16_t *status)
{
    uint16_t handle = addr & PGAD_HANDLE_MASK;
    uint32_t form = addr & PGAD_FORM_MASK;

    if (!s->expander ||
        !((form == SAS_EXPAND_PGAD_FORM_GET_NEXT_HNDL &&
           handle == PGAD_GET_NEXT_FIRST) ||
          (form == SAS_EXPAND_PGAD_FORM_HNDL && handle == EXP_DEV_HANDLE))) {
        return 0;
    }
    p[EXPP0_PHYSICAL_PORT] = 0;
    stw_le_p(p + EXPP0_ENCLOSURE_HANDLE, ENCL_HANDLE);
    stq_le_p(p + EXPP0_SAS_ADDRESS, sas3008_exp_sas_addr(s));
    stw_le_p(p + EXPP0_DEV_HANDLE, EXP_DEV_HANDLE);
    stw_le_p(p + EXPP0_PARENT_DEV_HANDLE, HBA_DEV_HANDLE);
    p[EXPP0_NUM_PHYS] = EXP_NUM_PHYS;
    return EXPP0_SIZE;
}

/* A phy of the expander: a disk's, or one of the wide port to the HBA */
static size_t expander1(SAS3008State *s, uint32_t addr, uint8_t *p,
                        uint16_t *status)
{
    int phy = addr >> SAS_EXPAND_PGAD_PHYNUM_SHIFT &
              SAS_EXPAND_PGAD_PHYNUM_MASK;

    if (!s->expander || (addr & PGAD_FORM_MASK) !=
        SAS_EXPAND_PGAD_FORM_HNDL_PHY_NUM ||
        (addr & PGAD_HANDLE_MASK) != EXP_DEV_HANDLE || phy >= EXP_NUM_PHYS) {
        return 0;
    }
    p[EXPP1_PHYSICAL_PORT] = 0;
    p[EXPP1_NUM_PHYS] = EXP_NUM_PHYS;
    p[EXPP1_PHY] = phy;
    p[EXPP1_PROGRAMMED_LINK_RATE] = LINK_RATE_MAX_MIN;
    p[EXPP1_HW_LINK_RATE] = LINK_RATE_MAX_MIN;
    stw_le_p(p + EXPP1_EXPANDER_DEV_HANDLE, EXP_DEV_HANDLE);
    p[EXPP1_PHY_IDENTIFIER] = phy;
    if (phy >= EXP_DISKS) {
        stw_le_p(p + EXPP1_ATTACHED_DEV_HANDLE, HBA_DEV_HANDLE);
        stl_le_p(p + EXPP1_ATTACHED_DEVICE_INFO, HBA_DEVICE_INFO);
        p[EXPP1_ATTACHED_PHY_IDENTIFIER] = phy - EXP_DISKS;
        p[EXPP1_NEGOTIATED_LINK_RATE] = LINK_RATE_NEGOTIATED;
    } else if (sas3008_disk(s, phy)) {
        stw_le_p(p + EXPP1_ATTACHED_DEV_HANDLE, sas3008_disk_handle(s, phy));
        stl_le_p(p + EXPP1_ATTACHED_DEVICE_INFO, DISK_DEVICE_INFO);
        p[EXPP1_NEGOTIATED_LINK_RATE] = LINK_RATE_NEGOTIATED;
    }
    return EXPP1_SIZE;
}

static const struct {
    uint8_t type, exttype, num, version;
    SAS3008PageBuilder *build;      /* NULL: a page of @size zeroes */
    size_t size;
} sas3008_pages[] = {
    { PAGETYPE_MANUFACTURING, 0, 0, 0x00, manufacturing0 },
    { PAGETYPE_MANUFACTURING, 0, 11, 0x00, manufacturing11 },
    { PAGETYPE_BIOS, 0, 2, 0x04, NULL, BIOSP2_SIZE },
    { PAGETYPE_BIOS, 0, 3, 0x01, NULL, BIOSP3_SIZE },
    { PAGETYPE_IOC, 0, 1, 0x00, NULL, IOCP1_SIZE },
    { PAGETYPE_IOC, 0, 8, 0x00, ioc8 },
    { PAGETYPE_IO_UNIT, 0, 0, 0x02, io_unit0 },
    { PAGETYPE_IO_UNIT, 0, 1, 0x04, io_unit1 },
    { PAGETYPE_IO_UNIT, 0, 7, 0x05, io_unit7 },
    { PAGETYPE_IO_UNIT, 0, 8, 0x00, NULL, IOUP8_SIZE },
    { PAGETYPE_EXTENDED, EXTPAGETYPE_SAS_IO_UNIT, 0, 0x05, sas_io_unit0 },
    { PAGETYPE_EXTENDED, EXTPAGETYPE_SAS_IO_UNIT, 1, 0x09, sas_io_unit1 },
    { PAGETYPE_EXTENDED, EXTPAGETYPE_SAS_EXPANDER, 0, 0x06, expander0 },
    { PAGETYPE_EXTENDED, EXTPAGETYPE_SAS_EXPANDER, 1, 0x02, expander1 },
    { PAGETYPE_EXTENDED, EXTPAGETYPE_SAS_DEVICE, 0, 0x09, sas_device0 },
    { PAGETYPE_EXTENDED, EXTPAGETYPE_SAS_PHY, 0, 0x03, sas_phy0 },
    { PAGETYPE_EXTENDED, EXTPAGETYPE_ENCLOSURE, 0, 0x04, enclosure0 },
};

/*
 * Build page @num of @type/@exttype at @addr into @p; returns its length
 * or 0 if there is no such page (status in *status): an extended page type
 * the model has none of is an invalid type, anything else an invalid page.
 */
static size_t sas3008_config_page(SAS3008State *s, uint8_t type,
                                  uint8_t exttype, uint8_t num, uint32_t addr,
                                  uint8_t *p, uint16_t *status)
{
    bool known_type = type != PAGETYPE_EXTENDED;
    size_t len = 0, i;

    memset(p, 0, CONFIG_PAGE_MAX);
    *status = ST_SUCCESS;
    for (i = 0; i < ARRAY_SIZE(sas3008_pages); i++) {
        if (sas3008_pages[i].type != type ||
            sas3008_pages[i].exttype != exttype) {
            continue;
        }
        known_type = true;
        if (sas3008_pages[i].num != num) {
            continue;
        }
        len = sas3008_pages[i].build ?
              sas3008_pages[i].build(s, addr, p, status) :
              sas3008_pages[i].size;
        if (*status != ST_SUCCESS) {
            return 0;
        }
        p[PAGE_VERSION] = sas3008_pages[i].version;
        p[PAGE_NUMBER] = num;
        if (exttype) {
            p[PAGE_TYPE] = PAGETYPE_EXTENDED;
            stw_le_p(p + PAGE_EXT_LENGTH, len / 4);
            p[PAGE_EXT_TYPE] = exttype;
        } else {
            p[PAGE_LENGTH] = len / 4;
            p[PAGE_TYPE] = type;
        }
        break;
    }
    if (!known_type) {
        *status = ST_CONFIG_INVALID_TYPE;
    } else if (!len) {
        *status = ST_CONFIG_INVALID_PAGE;
    }
    return len;
}

/*
 * The page buffer of a config request: its first simple element, or of an
 * MPI 2.0 IOC the whole MPI SGL (an MCPU endpoint's driver may have moved
 * it into the BAR).
 */
static bool sas3008_config_sgl(SAS3008State *s, const uint8_t *req,
                               QEMUSGList *qsg)
{
    SAS3008SGLStats st;
    uint32_t buflen;
    uint64_t buf;
    bool to_ioc;

    if (sas3008_chip(s)->mpi2) {
        return sas3008_mpi_sgl(s, req, s->req_frame_bytes,
                               CONFIG_PAGE_BUFFER_SGE, qsg,
                               &st) == ST_SUCCESS;
    }
    if (!sas3008_mpi_sge(req + CONFIG_PAGE_BUFFER_SGE, &buf, &buflen,
                         &to_ioc)) {
        return false;
    }
    qemu_sglist_add(qsg, buf, buflen);
    return true;
}

/* IO unit 1, SAS IO unit 1 (ignored) and manufacturing 11 are writable */
static uint16_t sas3008_config_write(SAS3008State *s, uint8_t type,
                                     uint8_t exttype, uint8_t num,
                                     QEMUSGList *qsg)
{
    uint8_t w[MANP11_WRITE_SIZE] = { 0 };

    if (type == PAGETYPE_IO_UNIT && num == 1) {
        sas3008_sgl_copy(s, qsg, w, MIN(qsg->size, IOUP1_SIZE), false);
        s->iounit1_flags = ldl_le_p(w + IOUP1_FLAGS);
    } else if (type == PAGETYPE_MANUFACTURING && num == 11) {
        sas3008_sgl_copy(s, qsg, w, MIN(qsg->size, MANP11_WRITE_SIZE), false);
        s->manu11_eedp_tag_mode = w[MANP11_EEDP_TAG_MODE];
    } else if (!(exttype == EXTPAGETYPE_SAS_IO_UNIT && num == 1)) {
        return ST_CONFIG_INVALID_ACTION;
    }
    return ST_SUCCESS;
}

/* A config request: a page's header, its contents, or a writable one's write */
void sas3008_config(SAS3008State *s, uint16_t smid, uint8_t msix,
                    const uint8_t *req)
{
    uint8_t reply[CONFIG_REPLY_SIZE];
    uint8_t page[CONFIG_PAGE_MAX];
    uint8_t action = req[CONFIG_ACTION];
    const uint8_t *hdr = req + CONFIG_HEADER;
    uint8_t type = hdr[PAGE_TYPE] & PAGETYPE_MASK, num = hdr[PAGE_NUMBER];
    uint8_t exttype = type == PAGETYPE_EXTENDED ?
                      req[CONFIG_EXT_PAGE_TYPE] : 0;
    uint32_t addr = ldl_le_p(req + CONFIG_PAGE_ADDRESS);
    uint16_t status;
    QEMUSGList qsg;
    size_t len, hlen = exttype ? PAGE_EXT_HEADER_SIZE : PAGE_HEADER_SIZE;

    pci_dma_sglist_init(&qsg, &s->dev, 2);
    if (action == CFG_ACTION_HEADER) {
        /* the header of the page type, whatever the page address */
        switch (exttype) {
        case EXTPAGETYPE_SAS_DEVICE:
            addr = SAS_DEVICE_PGAD_FORM_HANDLE | HBA_DEV_HANDLE;
            break;
        case EXTPAGETYPE_SAS_PHY:
            addr = SAS_PHY_PGAD_FORM_PHY_NUMBER;        /* phy 0 */
            break;
        case EXTPAGETYPE_ENCLOSURE:
            addr = SAS_ENCLOS_PGAD_FORM_HANDLE | ENCL_HANDLE;
            break;
        case EXTPAGETYPE_SAS_EXPANDER:
            addr = (num ? SAS_EXPAND_PGAD_FORM_HNDL_PHY_NUM :
                    SAS_EXPAND_PGAD_FORM_HNDL) | EXP_DEV_HANDLE;
            break;
        }
    }
    len = sas3008_config_page(s, type, exttype, num, addr, page, &status);
    if (len && action == CFG_ACTION_HEADER &&
        exttype == EXTPAGETYPE_SAS_IO_UNIT && num <= 1 &&
        sas3008_lie(s, LIE_CONFIG_VARY)) {
        /*
         * A variable-length page whose header is sized for twice the
         * phys: the read that follows returns the NUM_PHYS there are,
         * its NumPhys and ExtPageLength saying so.
         */
        len += NUM_PHYS * (num ? SASIOUP1_PHY_SIZE : SASIOUP0_PHY_SIZE);
    }
    if (len > hlen && action != CFG_ACTION_HEADER &&
        sas3008_lie(s, LIE_CONFIG_SHORT)) {
        /* half the page, and its header says so: less than the header's */
        len = QEMU_ALIGN_UP(hlen + (len - hlen) / 2, 4);
        if (exttype) {
            stw_le_p(page + PAGE_EXT_LENGTH, len / 4);
        } else {
            page[PAGE_LENGTH] = len / 4;
        }
    }
    sas3008_reply_header(reply, req, sizeof(reply), status);
    /* the header always echoes the page asked for */
    memcpy(reply + CONFIG_HEADER, hdr, PAGE_HEADER_SIZE);
    reply[CONFIG_EXT_PAGE_TYPE] = req[CONFIG_EXT_PAGE_TYPE];
    if (len) {
        memcpy(reply + CONFIG_HEADER, page, PAGE_HEADER_SIZE);
        reply[CONFIG_HEADER + PAGE_TYPE] = hdr[PAGE_TYPE];
        if (exttype) {
            stw_le_p(reply + CONFIG_EXT_PAGE_LENGTH, len / 4);
            reply[CONFIG_HEADER + PAGE_LENGTH] = 0;
        }
    }
    if (status != ST_SUCCESS) {
        goto out;
    }
    switch (action) {
    case CFG_ACTION_HEADER:
    case CFG_ACTION_DEFAULT:
        break;
    case CFG_ACTION_GET_CHANGEABLE:
        memset(page + hlen, 0, len - hlen);
        /* fall through */
    case CFG_ACTION_READ_CURRENT:
    case CFG_ACTION_READ_DEFAULT:
    case CFG_ACTION_READ_NVRAM:
        if (!sas3008_config_sgl(s, req, &qsg)) {
            status = ST_INVALID_SGL;
            break;
        }
        sas3008_sgl_copy(s, &qsg, page, MIN(qsg.size, len), true);
        break;
    case CFG_ACTION_WRITE_CURRENT:
    case CFG_ACTION_WRITE_NVRAM:
        if (!sas3008_config_sgl(s, req, &qsg)) {
            status = ST_INVALID_SGL;
            break;
        }
        status = sas3008_config_write(s, type, exttype, num, &qsg);
        break;
    default:
        status = ST_CONFIG_INVALID_ACTION;
        break;
    }
out:
    trace_sas3008_config(action, type, exttype, num, addr, status);
    qemu_sglist_destroy(&qsg);
    stw_le_p(reply + REPLY_IOC_STATUS, status);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}
