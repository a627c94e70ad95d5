/*
 * Emulated LSI SAS3008 (MPI 2.5) host bus adapter, for the mpt3sas driver
 * tests of mpt3sas-chainpool.
 *
 * It models what the Linux mpt3sas driver uses of a SAS 9300-8i: the
 * doorbell handshake (IOC Facts, Port Facts, IOC Init), message unit and
 * diagnostic resets, request descriptors, reply free and reply descriptor
 * post queues with MSI-X (one vector per reply queue) or INTx, the
 * configuration pages the driver reads, events and their acks, port
 * enable with the SAS topology of the attached disks, task management and
 * SCSI IO with IEEE scatter gather lists and chain elements.  The disks are
 * ordinary scsi-hd devices on the adapter's bus, one per phy (scsi-id =
 * phy number, LUN 0).
 *
 * With mcpu=on it is instead an MPI 2.0 PCIe switch management endpoint
 * (1000:02b0), which the driver double-buffers through its memory BAR
 * (is_mcpu_endpoint): request frames, chain segments and write data are
 * cloned into the BAR, which is RAM from offset 256 on, and the SGLs are
 * MPI ones with 32-bit elements.
 *
 * A malformed request gets the error status real firmware returns, or puts
 * the IOC into the FAULT state with a logged fault code (see FAULT_*); the
 * guest recovers with a diagnostic reset.
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "exec/address-spaces.h"
#include "hw/pci/pci.h"
#include "hw/pci/msix.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "hw/scsi/scsi.h"
#include "migration/vmstate.h"
#include "sysemu/dma.h"
#include "scsi/constants.h"
#include "qom/object.h"

#define TYPE_SAS3008 "sas3008"
OBJECT_DECLARE_SIMPLE_TYPE(SAS3008State, SAS3008)

/* System interface registers (MPI 2.5) */
#define REG_DOORBELL            0x00
#define REG_WRITE_SEQUENCE      0x04
#define REG_HOST_DIAGNOSTIC     0x08
#define REG_HOST_INT_STATUS     0x30
#define REG_HOST_INT_MASK       0x34
#define REG_REPLY_FREE_HOST_IDX 0x48
#define REG_REPLY_POST_HOST_IDX 0x6c
#define REG_HCB_SIZE            0x74
#define REG_HCB_ADDR_LOW        0x78
#define REG_HCB_ADDR_HIGH       0x7c
#define REG_REQ_DESC_POST_LOW   0xc0
#define REG_REQ_DESC_POST_HIGH  0xc4
#define REG_SUP_REPLY_POST_IDX  0x30c   /* + 0x10 per group of 8 queues */
/*
 * Not MPI: read-only counters for tests/hba in a vendor capability of the
 * PCI config space: SCSI IO requests started, those with chain elements,
 * the most chain segments in one.
 */
#define STAT_CAP                0xd0
#define STAT_CAP_SIZE           20
#define STAT_IOS                (STAT_CAP + 4)
#define STAT_CHAINED_IOS        (STAT_CAP + 8)
#define STAT_MAX_CHAINS         (STAT_CAP + 12)
#define STAT_BAR_CHAINED_IOS    (STAT_CAP + 16) /* chains in the BAR (mcpu) */
#define PCIE_CAP                0x68    /* clear of STAT_CAP: 0x3c bytes */
#define SUP_REPLY_POST_GROUPS   12

#define MMIO_SIZE               0x10000
#define IO_SIZE                 0x100
#define MSIX_TABLE_OFFSET       0xe000
#define MSIX_PBA_OFFSET         0xf800
#define MSIX_MAX_VECTORS        96

/*
 * mcpu=on: the driver's BAR layout for an MCPU endpoint (_clone_sg_entries()
 * in mpt3sas_base.c): registers up to 256, then request frames (SMID x frame
 * size), the reply free clone (512 bytes from (RequestCredit + 1) frames on),
 * MaxChainDepth frame-sized chain segments per SMID, 64 KiB of data per SMID;
 * 4 MiB in all, below 4 GiB.  The MSI-X table and PBA are in the last 4 KiB.
 */
#define MCPU_DEVICE_ID          0x02b0  /* MPI2_MFGPAGE_DEVID_SWITCH_MPI_EP */
#define MCPU_MMIO_SIZE          0x400000
#define MCPU_REGS_SIZE          0x100   /* MPI_FRAME_START_OFFSET */
#define MCPU_MSIX_TABLE_OFFSET  (MCPU_MMIO_SIZE - 0x1000)
#define MCPU_MSIX_PBA_OFFSET    (MCPU_MMIO_SIZE - 0x800)
#define MCPU_RAM_SIZE           (MCPU_MSIX_TABLE_OFFSET - MCPU_REGS_SIZE)
#define MCPU_REPLY_FREE_CLONE   512     /* REPLY_FREE_POOL_SIZE */
#define MCPU_IO_SIZE            0x10000
#define MCPU_REQUEST_CREDIT     32      /* "based on maxCredit 32" */
#define MCPU_HI_PRIORITY_CREDIT 5       /* the driver's hi_priority_depth */
#define MCPU_MAX_CHAIN_DEPTH    3       /* MCPU_MAX_CHAINS_PER_IO */

/* Doorbell */
#define IOC_STATE_RESET         0x00000000
#define IOC_STATE_READY         0x10000000
#define IOC_STATE_OPERATIONAL   0x20000000
#define IOC_STATE_FAULT         0x40000000
#define IOC_STATE_MASK          0xf0000000
#define DOORBELL_USED           0x08000000
#define DOORBELL_WHO_INIT_SHIFT 24
#define DOORBELL_DATA_MASK      0x0000ffff

/* Host interrupt status and mask */
#define HIS_SYS2IOC_DB          0x80000000
#define HIS_REPLY_DESC_INT      0x00000008
#define HIS_IOC2SYS_DB          0x00000001
#define HIM_RESET_IRQ           0x40000000
#define HIM_RIM                 0x00000008
#define HIM_DIM                 0x00000001

/* Host diagnostic */
#define DIAG_HCB_MODE           0x00000100
#define DIAG_WRITE_ENABLE       0x00000080
#define DIAG_RESET_HISTORY      0x00000020
#define DIAG_RESET_ADAPTER      0x00000004
#define DIAG_HOLD_IOC_RESET     0x00000002

/* Functions */
#define FN_SCSI_IO              0x00
#define FN_SCSI_TASK_MGMT       0x01
#define FN_IOC_INIT             0x02
#define FN_IOC_FACTS            0x03
#define FN_CONFIG               0x04
#define FN_PORT_FACTS           0x05
#define FN_PORT_ENABLE          0x06
#define FN_EVENT_NOTIFICATION   0x07
#define FN_EVENT_ACK            0x08
#define FN_FW_UPLOAD            0x12
#define FN_SAS_IO_UNIT_CONTROL  0x1b
#define FN_IOC_MSG_UNIT_RESET   0x40
#define FN_HANDSHAKE            0x42

/* IOCStatus */
#define ST_SUCCESS              0x0000
#define ST_INVALID_FUNCTION     0x0001
#define ST_INVALID_SGL          0x0003
#define ST_INTERNAL_ERROR       0x0004
#define ST_INVALID_FIELD        0x0007
#define ST_CONFIG_INVALID_ACTION 0x0020
#define ST_CONFIG_INVALID_TYPE  0x0021
#define ST_CONFIG_INVALID_PAGE  0x0022
#define ST_SCSI_DEVICE_NOT_THERE 0x0043
#define ST_SCSI_DATA_OVERRUN    0x0044
#define ST_SCSI_DATA_UNDERRUN   0x0045
#define ST_SCSI_TASK_TERMINATED 0x0048
#define ST_SCSI_IOC_TERMINATED  0x004b

/* Request and reply descriptors */
#define REQ_TYPE_MASK           0x1e
#define REQ_TYPE_SCSI_IO        0x00
#define REQ_TYPE_HIGH_PRIORITY  0x06
#define REQ_TYPE_DEFAULT        0x08
#define REQ_TYPE_FAST_PATH      0x0c
#define RPY_SCSI_IO_SUCCESS     0x00
#define RPY_ADDRESS_REPLY       0x01

/* IEEE and MPI scatter gather elements */
#define IEEE_SGE_SIZE           16
#define IEEE_FLAGS_CHAIN        0x80
#define IEEE_FLAGS_END_OF_LIST  0x40
#define IEEE_FLAGS_ADDR_MASK    0x03
#define MPI_SGE_FLAGS_ELEMENT_MASK 0x30
#define MPI_SGE_FLAGS_SIMPLE    0x10
#define MPI_SGE_FLAGS_CHAIN     0x30
#define MPI_SGE_FLAGS_LOCAL     0x08
#define MPI_SGE_FLAGS_HOST_TO_IOC 0x04
#define MPI_SGE_FLAGS_64BIT     0x02
#define MPI_SGE_FLAGS_END_OF_LIST 0x01
#define SGL_MAX_ELEMENTS        4096

/* SCSI IO */
#define SCSIIO_CONTROL_DIR_MASK 0x03000000
#define SCSIIO_CONTROL_WRITE    0x01000000
#define SCSIIO_CONTROL_READ     0x02000000
#define SCSI_STATE_AUTOSENSE_VALID 0x01
#define SCSI_STATE_NO_SCSI_STATUS 0x04
#define SCSI_STATE_TERMINATED   0x08

/* Task management */
#define TM_ABORT_TASK           0x01
#define TM_ABORT_TASK_SET       0x02
#define TM_TARGET_RESET         0x03
#define TM_LUN_RESET            0x05
#define TM_CLEAR_TASK_SET       0x06
#define TM_QUERY_TASK           0x07
#define TM_RSP_COMPLETE         0x00
#define TM_RSP_NOT_SUPPORTED    0x04
#define TM_RSP_SUCCEEDED        0x08
#define TM_RSP_INVALID_LUN      0x09

/* Config */
#define CFG_ACTION_HEADER       0x00
#define CFG_ACTION_READ_CURRENT 0x01
#define CFG_ACTION_WRITE_CURRENT 0x02
#define CFG_ACTION_DEFAULT      0x03
#define CFG_ACTION_WRITE_NVRAM  0x04
#define CFG_ACTION_READ_DEFAULT 0x05
#define CFG_ACTION_READ_NVRAM   0x06
#define CFG_ACTION_GET_CHANGEABLE 0x07
#define PAGETYPE_IO_UNIT        0x00
#define PAGETYPE_IOC            0x01
#define PAGETYPE_BIOS           0x02
#define PAGETYPE_MANUFACTURING  0x09
#define PAGETYPE_EXTENDED       0x0f
#define EXTPAGETYPE_SAS_IO_UNIT 0x10
#define EXTPAGETYPE_SAS_DEVICE  0x12
#define EXTPAGETYPE_SAS_PHY     0x13
#define EXTPAGETYPE_ENCLOSURE   0x15

/* Events */
#define EV_SAS_DEVICE_STATUS_CHANGE 0x000f
#define EV_SAS_DISCOVERY        0x0016
#define EV_SAS_TOPOLOGY_CHANGE_LIST 0x001c
#define EV_SAS_ENCL_DEVICE_STATUS_CHANGE 0x001d
#define EV_MASK_WORDS           4

/* SAS */
#define DEVINFO_SSP_TARGET      0x00000400
#define DEVINFO_SSP_INITIATOR   0x00000040
#define DEVINFO_STP_INITIATOR   0x00000020
#define DEVINFO_SMP_INITIATOR   0x00000010
#define DEVINFO_DIRECT_ATTACH   0x00000800
#define DEVINFO_END_DEVICE      0x00000001
#define LINK_RATE_12_0          0x0b
#define HBA_DEV_HANDLE          0x0001
#define ENCL_HANDLE             0x0001
#define FIRST_DEV_HANDLE        0x0009
#define NUM_PHYS                8

/* IOC fault codes of this model (Doorbell[15:0] in the FAULT state) */
#define FAULT_BAD_SMID          0x5301
#define FAULT_BAD_DESCRIPTOR    0x5302
#define FAULT_BAD_INDEX         0x5303
#define FAULT_REPLY_FREE_EMPTY  0x5304
#define FAULT_NOT_OPERATIONAL   0x5305

#define HANDSHAKE_MAX_DWORDS    128
#define REPLY_MAX               128

typedef struct SAS3008Request {
    SAS3008State *s;
    SCSIRequest *sreq;
    QEMUSGList qsg;
    uint16_t smid;
    uint16_t handle;
    uint8_t msix;
    uint8_t frame[REPLY_MAX];
    uint32_t data_length;
    hwaddr sense_addr;
    uint8_t sense_len;
    uint16_t cancel_status;     /* IOCStatus of a cancelled request */
    bool stalled;               /* held by stall_lba until aborted */
} SAS3008Request;

typedef struct SAS3008PendingReply {
    uint16_t smid;
    uint8_t msix;
    uint16_t len;
    uint8_t data[REPLY_MAX];
} SAS3008PendingReply;

enum { HS_NONE, HS_WRITE, HS_READ };

struct SAS3008State {
    PCIDevice dev;
    MemoryRegion mmio;              /* mcpu: a container of the three below */
    MemoryRegion io;
    MemoryRegion mcpu_regs;
    MemoryRegion mcpu_ram;
    SCSIBus bus;
    bool mcpu;

    /* properties: the IOC Facts of a SAS 9300-8i by default */
    uint64_t sas_addr;
    uint32_t msix_vectors;
    uint16_t request_credit;
    uint16_t hi_priority_credit;
    uint16_t request_frame_size;    /* dwords */
    uint16_t max_chain_depth;
    uint16_t max_chain_seg_size;    /* 16-byte elements, 0: 8 */
    uint16_t reply_frame_size;      /* dwords */
    uint16_t max_reply_post_depth;
    uint32_t fw_version;
    bool use_msix;
    uint64_t stall_lba;             /* hold the first READ of this LBA */
    bool stalled_once;

    /* doorbell and handshake */
    uint32_t state;
    uint16_t fault_code;
    uint8_t who_init;
    int hs_state;
    uint32_t hs_msg[HANDSHAKE_MAX_DWORDS];
    int hs_idx, hs_cnt;
    uint16_t hs_reply[REPLY_MAX / 2];
    int hs_reply_idx, hs_reply_cnt;

    uint32_t intr_status;           /* HIS_IOC2SYS_DB only */
    uint32_t intr_mask;
    uint32_t diag;
    int wrseq_idx;
    uint32_t hcb[3];                /* HCB size, address: kept, unused */

    /* IOC Init */
    uint64_t req_base;
    uint32_t req_frame_bytes;
    uint64_t reply_post_base;
    uint32_t reply_post_depth;
    uint64_t reply_free_base;
    uint32_t reply_free_depth;
    uint32_t sense_high, reply_high;
    uint32_t nr_queues;
    uint32_t reply_free_ioc_idx, reply_free_host_idx;
    uint32_t post_ioc_idx[MSIX_MAX_VECTORS];
    uint32_t post_host_idx[MSIX_MAX_VECTORS];
    uint32_t desc_low;

    /* outstanding SCSI IO by SMID */
    SAS3008Request **smid_req;
    uint32_t max_smid;
    bool resetting;

    /* events */
    uint32_t event_masks[EV_MASK_WORDS];
    bool events_on;
    uint32_t event_context;
    GQueue pending;                 /* replies waiting for a reply frame */

    /* writable config pages */
    uint32_t iounit1_flags;
    uint8_t manu11_eedp_tag_mode;
};

static void sas3008_post_replies(SAS3008State *s);

static SCSIDevice *sas3008_phy_dev(SAS3008State *s, int phy)
{
    return scsi_device_find(&s->bus, 0, phy, 0);
}

static SCSIDevice *sas3008_handle_dev(SAS3008State *s, uint16_t handle)
{
    SCSIDevice *d;

    if (handle < FIRST_DEV_HANDLE || handle >= FIRST_DEV_HANDLE + NUM_PHYS) {
        return NULL;
    }
    d = sas3008_phy_dev(s, handle - FIRST_DEV_HANDLE);
    /* scsi_device_find falls back to another LUN of the target */
    if (d && (d->id != handle - FIRST_DEV_HANDLE || d->lun != 0)) {
        return NULL;
    }
    return d;
}

static uint64_t sas3008_dev_sas_addr(SAS3008State *s, int phy)
{
    return (s->sas_addr & ~0xffffffULL) + 0x100000 + phy;
}

/* Interrupts */

static bool sas3008_reply_pending(SAS3008State *s, uint32_t q)
{
    return s->post_ioc_idx[q] != s->post_host_idx[q];
}

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

static void sas3008_fault(SAS3008State *s, uint16_t code, const char *why)
{
    qemu_log_mask(LOG_GUEST_ERROR, "sas3008: IOC fault 0x%04x: %s\n",
                  code, why);
    s->state = IOC_STATE_FAULT;
    s->fault_code = code;
}

/* Reply queues */

/* Put an 8-byte reply descriptor on reply post queue @q. */
static bool sas3008_post_desc(SAS3008State *s, uint32_t q, uint64_t desc)
{
    uint32_t next;
    uint8_t buf[8];

    next = (s->post_ioc_idx[q] + 1) % s->reply_post_depth;
    if (next == s->post_host_idx[q]) {
        return false;   /* full: the host has not caught up */
    }
    stq_le_p(buf, desc);
    pci_dma_write(&s->dev, s->reply_post_base +
                  ((uint64_t)q * s->reply_post_depth + s->post_ioc_idx[q]) * 8,
                  buf, 8);
    s->post_ioc_idx[q] = next;
    sas3008_notify(s, q);
    return true;
}

static uint32_t sas3008_queue(SAS3008State *s, uint8_t msix)
{
    return msix < s->nr_queues ? msix : 0;
}

static void sas3008_turbo_reply(SAS3008State *s, uint16_t smid, uint8_t msix)
{
    uint32_t q = sas3008_queue(s, msix);
    uint64_t desc = RPY_SCSI_IO_SUCCESS | ((uint64_t)q << 8) |
                    ((uint64_t)smid << 16);

    if (s->state != IOC_STATE_OPERATIONAL || s->resetting) {
        return;
    }
    if (!sas3008_post_desc(s, q, desc)) {
        sas3008_fault(s, FAULT_BAD_INDEX, "reply post queue full");
    }
}

/* Send @len bytes of reply message through a reply frame. */
static void sas3008_reply(SAS3008State *s, uint16_t smid, uint8_t msix,
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

static void sas3008_post_replies(SAS3008State *s)
{
    SAS3008PendingReply *p;

    while (s->state == IOC_STATE_OPERATIONAL &&
           (p = g_queue_peek_head(&s->pending))) {
        uint32_t q = sas3008_queue(s, p->msix);
        uint8_t buf[4];
        uint32_t frame;
        uint64_t desc;

        if (s->reply_free_ioc_idx == s->reply_free_host_idx) {
            return;     /* wait for the host to free a frame */
        }
        if ((s->post_ioc_idx[q] + 1) % s->reply_post_depth ==
            s->post_host_idx[q]) {
            return;
        }
        pci_dma_read(&s->dev, s->reply_free_base + s->reply_free_ioc_idx * 4,
                     buf, 4);
        frame = ldl_le_p(buf);
        s->reply_free_ioc_idx = (s->reply_free_ioc_idx + 1) %
                                s->reply_free_depth;
        pci_dma_write(&s->dev, ((uint64_t)s->reply_high << 32) | frame,
                      p->data, p->len);
        desc = RPY_ADDRESS_REPLY | ((uint64_t)q << 8) |
               ((uint64_t)p->smid << 16) | ((uint64_t)frame << 32);
        g_queue_pop_head(&s->pending);
        g_free(p);
        sas3008_post_desc(s, q, desc);
    }
}

static void sas3008_drop_replies(SAS3008State *s)
{
    SAS3008PendingReply *p;

    while ((p = g_queue_pop_head(&s->pending))) {
        g_free(p);
    }
}

/* A reply header copied from the request: function, flags, VP/VF. */
static void sas3008_reply_header(uint8_t *reply, const uint8_t *req,
                                 size_t len, uint16_t status)
{
    memset(reply, 0, len);
    memcpy(reply, req, 12);
    reply[2] = len / 4;
    stw_le_p(reply + 0x0e, status);
}

static void sas3008_simple_reply(SAS3008State *s, uint16_t smid, uint8_t msix,
                                 const uint8_t *req, uint16_t status)
{
    uint8_t reply[0x14];

    sas3008_reply_header(reply, req, sizeof(reply), status);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}

/* Events */

static void sas3008_event(SAS3008State *s, uint16_t event, const void *data,
                          size_t len)
{
    uint8_t reply[REPLY_MAX];

    if (!s->events_on ||
        (s->event_masks[event / 32] & (1u << (event % 32)))) {
        return;
    }
    assert(0x1c + len <= sizeof(reply));
    memset(reply, 0, sizeof(reply));
    stw_le_p(reply, len / 4);
    reply[2] = (0x1c + len) / 4;
    reply[3] = FN_EVENT_NOTIFICATION;
    reply[6] = 0;       /* no ack required */
    stw_le_p(reply + 0x14, event);
    stl_le_p(reply + 0x18, ++s->event_context);
    memcpy(reply + 0x1c, data, len);
    sas3008_reply(s, 0, 0, reply, 0x1c + len);
}

static void sas3008_discovery_event(SAS3008State *s, bool started)
{
    uint8_t d[8] = { 0 };

    d[0] = started ? 0x01 : 0x00;       /* discovery in progress */
    d[1] = started ? 0x01 : 0x02;       /* started / completed */
    sas3008_event(s, EV_SAS_DISCOVERY, d, sizeof(d));
}

/* The HBA's own enclosure, added at discovery as firmware reports it. */
static void sas3008_enclosure_event(SAS3008State *s)
{
    uint8_t d[0x14] = { 0 };

    stw_le_p(d + 0x00, ENCL_HANDLE);
    d[0x02] = 0x01;                     /* added */
    stq_le_p(d + 0x04, s->sas_addr);
    stw_le_p(d + 0x0c, NUM_PHYS);
    stl_le_p(d + 0x10, (1u << NUM_PHYS) - 1);
    sas3008_event(s, EV_SAS_ENCL_DEVICE_STATUS_CHANGE, d, sizeof(d));
}

/* A topology change list of the HBA's own phys: every phy with a disk. */
static void sas3008_topology_event(SAS3008State *s, int only_phy, bool added)
{
    uint8_t d[0x0c + NUM_PHYS * 4] = { 0 };
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
    stw_le_p(d + 0x00, ENCL_HANDLE);
    stw_le_p(d + 0x02, 0);              /* no expander: the HBA's phys */
    d[0x04] = NUM_PHYS;
    d[0x08] = n;
    d[0x09] = start;
    d[0x0a] = 0;                        /* no expander */
    d[0x0b] = 0;                        /* physical port */
    for (phy = start; phy < start + n; phy++) {
        uint8_t *e = d + 0x0c + (phy - start) * 4;

        if (added && !sas3008_phy_dev(s, phy)) {
            e[3] = 0x80 | 0x04;         /* vacant, no change */
            continue;
        }
        stw_le_p(e, FIRST_DEV_HANDLE + phy);
        e[2] = added ? (LINK_RATE_12_0 << 4) : LINK_RATE_12_0;
        e[3] = added ? 0x01 : 0x02;     /* target added / not responding */
    }
    sas3008_event(s, EV_SAS_TOPOLOGY_CHANGE_LIST, d, 0x0c + n * 4);
}

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
 * continue in chain segments in guest memory; add its simple elements to
 * @qsg.  Returns an IOCStatus.
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
        addr = ldq_le_p(e);
        len = ldl_le_p(e + 8);
        flags = e[15];
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

/* One MPI (not IEEE) simple element: config pages. */
static bool sas3008_mpi_sge(const uint8_t *sge, uint64_t *addr, uint32_t *len,
                            bool *to_ioc)
{
    uint32_t fl = ldl_le_p(sge);
    uint8_t flags = fl >> 24;

    if ((flags & MPI_SGE_FLAGS_ELEMENT_MASK) != MPI_SGE_FLAGS_SIMPLE) {
        return false;
    }
    *len = fl & 0xffffff;
    *to_ioc = flags & MPI_SGE_FLAGS_HOST_TO_IOC;
    *addr = (flags & MPI_SGE_FLAGS_64BIT) ? ldq_le_p(sge + 4) :
            (uint32_t)ldl_le_p(sge + 4);
    return true;
}

/* Does [@addr, @addr + @len) lie in the RAM of the mcpu BAR? */
static bool sas3008_in_bar_ram(SAS3008State *s, uint64_t addr, uint32_t len)
{
    pcibus_t bar = pci_get_bar_addr(&s->dev, 1);

    return s->mcpu && bar != PCI_BAR_UNMAPPED &&
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
 * size of the next segment, at most a request frame (MPI 2.0 chain segments
 * are frame sized).  The list must end with END_OF_LIST.  Adds the simple
 * elements to @qsg; counts the chain segments in *nchains, those in the
 * mcpu BAR in *bar_chains.  Returns an IOCStatus.
 */
static uint16_t sas3008_mpi_sgl(SAS3008State *s, const uint8_t *frame,
                                uint32_t frame_len, uint32_t off,
                                QEMUSGList *qsg, uint32_t *nchains,
                                uint32_t *bar_chains)
{
    uint8_t seg[REPLY_MAX];
    const uint8_t *p = frame;
    uint32_t seg_len = frame_len, chain_at = frame[2] * 4;
    uint32_t elements = 0;

    *nchains = 0;
    *bar_chains = 0;
    while (off + 8 <= seg_len) {
        uint32_t fl = ldl_le_p(p + off);
        uint8_t flags = fl >> 24;
        uint32_t esize = (flags & MPI_SGE_FLAGS_64BIT) ? 12 : 8;
        uint64_t addr;
        uint32_t len, next;

        if (off + esize > seg_len || (flags & MPI_SGE_FLAGS_LOCAL)) {
            return ST_INVALID_SGL;
        }
        addr = esize == 12 ? ldq_le_p(p + off + 4) :
               (uint32_t)ldl_le_p(p + off + 4);
        switch (flags & MPI_SGE_FLAGS_ELEMENT_MASK) {
        case MPI_SGE_FLAGS_SIMPLE:
            if (chain_at && off == chain_at) {
                return ST_INVALID_SGL;  /* the chain is missing */
            }
            len = fl & 0xffffff;
            if (!sas3008_sgl_add(qsg, addr, len, &elements)) {
                return ST_INVALID_SGL;
            }
            if (flags & MPI_SGE_FLAGS_END_OF_LIST) {
                return ST_SUCCESS;
            }
            off += esize;
            break;
        case MPI_SGE_FLAGS_CHAIN:
            len = fl & 0xffff;
            next = ((fl >> 16) & 0xff) * 4;
            if (!chain_at || off != chain_at || len < 8 ||
                len > s->req_frame_bytes || (next && next + 8 > len) ||
                *nchains >= s->max_chain_depth) {
                return ST_INVALID_SGL;
            }
            if (sas3008_mem_rw(s, addr, seg, len, false) != MEMTX_OK) {
                return ST_INVALID_SGL;
            }
            (*nchains)++;
            if (sas3008_in_bar_ram(s, addr, len)) {
                (*bar_chains)++;
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
static void sas3008_sgl_copy(SAS3008State *s, QEMUSGList *qsg, uint8_t *buf,
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

/* Configuration pages */

static void cfg_header(uint8_t *p, uint8_t type, uint8_t num, uint8_t ver,
                       uint8_t exttype, size_t len)
{
    p[0] = ver;
    p[2] = num;
    if (exttype) {
        p[3] = PAGETYPE_EXTENDED;
        stw_le_p(p + 4, len / 4);
        p[6] = exttype;
    } else {
        p[1] = len / 4;
        p[3] = type;
    }
}

/* NUL-padded, as firmware fills its string fields */
static void cfg_str(uint8_t *p, const char *str, size_t len)
{
    memcpy(p, str, MIN(strlen(str), len));
}

/*
 * Build page @num of @type/@exttype at @addr into @p; returns its length
 * or 0 if there is no such page (status in *status).
 */
static size_t sas3008_config_page(SAS3008State *s, uint8_t type,
                                  uint8_t exttype, uint8_t num, uint32_t addr,
                                  uint8_t *p, uint16_t *status)
{
    size_t len = 0;
    int phy;
    uint16_t handle;

    memset(p, 0, 512);
    *status = ST_SUCCESS;
    switch (type) {
    case PAGETYPE_MANUFACTURING:
        if (num == 0) {
            len = 0x4c;
            cfg_str(p + 0x04, s->mcpu ? "SWITCH_MPI_EP" : "LSISAS3008", 16);
            cfg_str(p + 0x14, "C0", 8);
            cfg_str(p + 0x1c, s->mcpu ? "MCPU-EP" : "SAS9300-8i", 16);
            cfg_str(p + 0x2c, "QEMU", 16);
            cfg_str(p + 0x3c, "mpt3sas-cp", 16);
        } else if (num == 11) {
            len = 0x5c;
            p[0x09] = s->manu11_eedp_tag_mode;
        }
        cfg_header(p, type, num, 0, 0, len);
        break;
    case PAGETYPE_BIOS:
        if (num == 2) {
            len = 0x1c + 24 * 3;
            cfg_header(p, type, num, 0x04, 0, len);
        } else if (num == 3) {
            len = 0x68;
            cfg_header(p, type, num, 0x01, 0, len);
        }
        break;
    case PAGETYPE_IOC:
        if (num == 1) {
            len = 0x18;
        } else if (num == 8) {
            len = 0x18;
            p[0x04] = NUM_PHYS;                 /* NumDevsPerEnclosure */
            stw_le_p(p + 0x08, 128);            /* MaxPersistentEntries */
            stw_le_p(p + 0x0a, NUM_PHYS);       /* MaxNumPhysicalMappedIDs */
        }
        cfg_header(p, type, num, 0, 0, len);
        break;
    case PAGETYPE_IO_UNIT:
        if (num == 0) {
            len = 0x0c;
            stq_le_p(p + 0x04, s->sas_addr);
            cfg_header(p, type, num, 0x02, 0, len);
        } else if (num == 1) {
            len = 0x08;
            stl_le_p(p + 0x04, s->iounit1_flags);
            cfg_header(p, type, num, 0x04, 0, len);
        } else if (num == 8) {
            len = 0x10;                         /* no sensors */
            cfg_header(p, type, num, 0, 0, len);
        }
        break;
    case PAGETYPE_EXTENDED:
        switch (exttype) {
        case EXTPAGETYPE_SAS_IO_UNIT:
            if (num == 0) {
                len = 0x10 + NUM_PHYS * 0x14;
                p[0x0c] = NUM_PHYS;
                for (phy = 0; phy < NUM_PHYS; phy++) {
                    uint8_t *d = p + 0x10 + phy * 0x14;
                    bool att = sas3008_phy_dev(s, phy) != NULL;

                    d[0] = 0;                   /* port */
                    d[3] = att ? (LINK_RATE_12_0 << 4) | LINK_RATE_12_0 : 0;
                    stl_le_p(d + 4, DEVINFO_SSP_INITIATOR |
                             DEVINFO_STP_INITIATOR | DEVINFO_SMP_INITIATOR |
                             DEVINFO_END_DEVICE);
                    stw_le_p(d + 8, att ? FIRST_DEV_HANDLE + phy : 0);
                    stw_le_p(d + 10, HBA_DEV_HANDLE);
                }
                cfg_header(p, type, num, 0x05, exttype, len);
            } else if (num == 1) {
                len = 0x14 + NUM_PHYS * 0x0c;
                stw_le_p(p + 0x0a, 254);        /* narrow port queue depth */
                stw_le_p(p + 0x0e, 254);        /* wide port queue depth */
                p[0x10] = NUM_PHYS;
                p[0x11] = 32;
                for (phy = 0; phy < NUM_PHYS; phy++) {
                    uint8_t *d = p + 0x14 + phy * 0x0c;

                    d[3] = (LINK_RATE_12_0 << 4) | 0x08;
                    stl_le_p(d + 4, DEVINFO_SSP_INITIATOR |
                             DEVINFO_STP_INITIATOR | DEVINFO_SMP_INITIATOR |
                             DEVINFO_END_DEVICE);
                }
                cfg_header(p, type, num, 0x09, exttype, len);
            }
            break;
        case EXTPAGETYPE_SAS_DEVICE:
            if (num != 0) {
                break;
            }
            handle = addr & 0xffff;
            if ((addr & 0xf0000000) == 0x00000000) {
                /* get next handle */
                handle = handle == 0xffff ? FIRST_DEV_HANDLE : handle + 1;
                while (handle < FIRST_DEV_HANDLE + NUM_PHYS &&
                       !sas3008_handle_dev(s, handle)) {
                    handle++;
                }
            } else if ((addr & 0xf0000000) != 0x20000000) {
                *status = ST_INVALID_FIELD;
                return 0;
            }
            if (handle == HBA_DEV_HANDLE && (addr & 0xf0000000)) {
                /* the controller itself */
                len = 0x38;
                stw_le_p(p + 0x0a, ENCL_HANDLE);
                stq_le_p(p + 0x0c, s->sas_addr);
                stw_le_p(p + 0x18, HBA_DEV_HANDLE);
                stl_le_p(p + 0x1c, DEVINFO_SSP_INITIATOR |
                         DEVINFO_STP_INITIATOR | DEVINFO_SMP_INITIATOR |
                         DEVINFO_END_DEVICE);
                stw_le_p(p + 0x20, 0x0001);             /* present */
                stq_le_p(p + 0x24, s->sas_addr);
                cfg_header(p, type, num, 0x09, exttype, len);
                break;
            }
            if (!sas3008_handle_dev(s, handle)) {
                break;
            }
            phy = handle - FIRST_DEV_HANDLE;
            len = 0x38;
            stw_le_p(p + 0x08, phy);                    /* slot */
            stw_le_p(p + 0x0a, ENCL_HANDLE);
            stq_le_p(p + 0x0c, sas3008_dev_sas_addr(s, phy));
            stw_le_p(p + 0x14, HBA_DEV_HANDLE);         /* parent */
            p[0x16] = phy;
            p[0x17] = 0;                                /* access ok */
            stw_le_p(p + 0x18, handle);
            p[0x1a] = 0;
            stl_le_p(p + 0x1c, DEVINFO_SSP_TARGET | DEVINFO_DIRECT_ATTACH |
                     DEVINFO_END_DEVICE);
            stw_le_p(p + 0x20, 0x0001);                 /* present */
            p[0x22] = 0;                                /* port */
            p[0x23] = 1;
            stq_le_p(p + 0x24, sas3008_dev_sas_addr(s, phy));
            cfg_header(p, type, num, 0x09, exttype, len);
            break;
        case EXTPAGETYPE_SAS_PHY:
            if (num != 0 || (addr & 0xf0000000) != 0 ||
                (addr & 0xff) >= NUM_PHYS) {
                break;
            }
            phy = addr & 0xff;
            len = 0x24;
            stw_le_p(p + 0x08, HBA_DEV_HANDLE);
            if (sas3008_phy_dev(s, phy)) {
                stw_le_p(p + 0x0c, FIRST_DEV_HANDLE + phy);
                p[0x1c] = (LINK_RATE_12_0 << 4) | LINK_RATE_12_0;
            }
            p[0x14] = (LINK_RATE_12_0 << 4) | 0x08;     /* programmed */
            p[0x15] = (LINK_RATE_12_0 << 4) | 0x08;     /* hardware */
            cfg_header(p, type, num, 0x03, exttype, len);
            break;
        case EXTPAGETYPE_ENCLOSURE:
            handle = addr & 0xffff;
            if (num != 0 ||
                !(((addr & 0xf0000000) == 0 && handle == 0xffff) ||
                  ((addr & 0xf0000000) == 0x10000000 &&
                   handle == ENCL_HANDLE))) {
                break;
            }
            len = 0x28;
            stq_le_p(p + 0x0c, s->sas_addr);
            stw_le_p(p + 0x16, ENCL_HANDLE);
            stw_le_p(p + 0x18, NUM_PHYS);
            cfg_header(p, type, num, 0x04, exttype, len);
            break;
        default:
            *status = ST_CONFIG_INVALID_TYPE;
            return 0;
        }
        break;
    default:
        break;
    }
    if (!len && *status == ST_SUCCESS) {
        *status = ST_CONFIG_INVALID_PAGE;
    }
    return len;
}

/*
 * The page buffer of a config request: its first simple element, or with
 * mcpu=on the whole MPI SGL (the driver may have moved it into the BAR).
 */
static bool sas3008_config_sgl(SAS3008State *s, const uint8_t *req,
                               QEMUSGList *qsg)
{
    uint32_t buflen, n, nbar;
    uint64_t buf;
    bool to_ioc;

    if (s->mcpu) {
        return sas3008_mpi_sgl(s, req, s->req_frame_bytes, 0x1c, qsg, &n,
                               &nbar) == ST_SUCCESS;
    }
    if (!sas3008_mpi_sge(req + 0x1c, &buf, &buflen, &to_ioc)) {
        return false;
    }
    qemu_sglist_add(qsg, buf, buflen);
    return true;
}

static void sas3008_config(SAS3008State *s, uint16_t smid, uint8_t msix,
                           const uint8_t *req)
{
    uint8_t reply[0x18];
    uint8_t page[512];
    uint8_t action = req[0];
    uint8_t type = req[0x17] & 0x0f, num = req[0x16];
    uint8_t exttype = type == PAGETYPE_EXTENDED ? req[0x06] : 0;
    uint32_t addr = ldl_le_p(req + 0x18);
    uint16_t status;
    QEMUSGList qsg;
    size_t len;

    pci_dma_sglist_init(&qsg, &s->dev, 2);
    if (action == CFG_ACTION_HEADER) {
        /* the header of the page type, whatever the page address */
        switch (exttype) {
        case EXTPAGETYPE_SAS_DEVICE:
            addr = 0x20000000 | HBA_DEV_HANDLE;
            break;
        case EXTPAGETYPE_SAS_PHY:
            addr = 0;
            break;
        case EXTPAGETYPE_ENCLOSURE:
            addr = 0x10000000 | ENCL_HANDLE;
            break;
        }
    }
    len = sas3008_config_page(s, type, exttype, num, addr, page, &status);
    sas3008_reply_header(reply, req, sizeof(reply), status);
    /* the header always echoes the page asked for */
    memcpy(reply + 0x14, req + 0x14, 4);
    reply[0x06] = req[0x06];
    if (len) {
        memcpy(reply + 0x14, page, 4);
        reply[0x17] = req[0x17];
        if (exttype) {
            stw_le_p(reply + 0x04, len / 4);
            reply[0x15] = 0;
        }
    }
    if (status != ST_SUCCESS) {
        goto out;
    }
    switch (action) {
    case CFG_ACTION_HEADER:
        break;
    case CFG_ACTION_READ_CURRENT:
    case CFG_ACTION_READ_DEFAULT:
    case CFG_ACTION_READ_NVRAM:
    case CFG_ACTION_GET_CHANGEABLE:
        if (!sas3008_config_sgl(s, req, &qsg)) {
            status = ST_INVALID_SGL;
            break;
        }
        if (action == CFG_ACTION_GET_CHANGEABLE) {
            memset(page + (exttype ? 8 : 4), 0, len - (exttype ? 8 : 4));
        }
        sas3008_sgl_copy(s, &qsg, page, MIN(qsg.size, len), true);
        break;
    case CFG_ACTION_WRITE_CURRENT:
    case CFG_ACTION_WRITE_NVRAM:
        if (!sas3008_config_sgl(s, req, &qsg)) {
            status = ST_INVALID_SGL;
            break;
        }
        /* IO unit 1, SAS IO unit 1 and manufacturing 11 are writable */
        if (type == PAGETYPE_IO_UNIT && num == 1) {
            uint8_t w[8] = { 0 };

            sas3008_sgl_copy(s, &qsg, w, MIN(qsg.size, sizeof(w)), false);
            s->iounit1_flags = ldl_le_p(w + 4);
        } else if (type == PAGETYPE_MANUFACTURING && num == 11) {
            uint8_t w[12] = { 0 };

            sas3008_sgl_copy(s, &qsg, w, MIN(qsg.size, sizeof(w)), false);
            s->manu11_eedp_tag_mode = w[9];
        } else if (!(exttype == EXTPAGETYPE_SAS_IO_UNIT && num == 1)) {
            status = ST_CONFIG_INVALID_ACTION;
        }
        break;
    case CFG_ACTION_DEFAULT:
        break;
    default:
        status = ST_CONFIG_INVALID_ACTION;
        break;
    }
out:
    qemu_sglist_destroy(&qsg);
    stw_le_p(reply + 0x0e, status);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}

/* SCSI IO */

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

static void sas3008_io_reply(SAS3008State *s, SAS3008Request *r,
                             uint16_t status, uint8_t scsi_status,
                             uint8_t scsi_state, uint32_t xfer,
                             uint32_t sense_count)
{
    uint8_t reply[0x34];

    sas3008_reply_header(reply, r->frame, sizeof(reply), status);
    reply[0x0c] = scsi_status;
    reply[0x0d] = scsi_state;
    stl_le_p(reply + 0x14, xfer);
    stl_le_p(reply + 0x18, sense_count);
    stw_le_p(reply + 0x20, r->smid);
    sas3008_reply(s, r->smid, r->msix, reply, sizeof(reply));
}

static void sas3008_io_error(SAS3008State *s, uint16_t smid, uint8_t msix,
                             const uint8_t *frame, uint16_t status)
{
    uint8_t reply[0x34];

    sas3008_reply_header(reply, frame, sizeof(reply), status);
    reply[0x0d] = SCSI_STATE_NO_SCSI_STATUS;
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
        lba = ldl_be_p(cdb + 2);
    } else if (cdb[0] == READ_16) {
        lba = ldq_be_p(cdb + 2);
    } else {
        return false;
    }
    if (lba != s->stall_lba) {
        return false;
    }
    s->stalled_once = true;
    return true;
}

static void sas3008_scsi_io(SAS3008State *s, uint16_t smid, uint8_t msix,
                            const uint8_t *frame)
{
    SAS3008Request *r;
    SCSIDevice *sdev;
    uint16_t handle = lduw_le_p(frame);
    uint32_t control = ldl_le_p(frame + 0x3c);
    uint32_t dir = control & SCSIIO_CONTROL_DIR_MASK;
    uint32_t cdb_len = lduw_le_p(frame + 0x24) & 0x3f;
    uint32_t sgl_off = frame[0x14] * 4;
    uint16_t status;
    uint32_t chains = 0, bar_chains = 0;
    int32_t n;

    if (s->smid_req[smid]) {
        sas3008_fault(s, FAULT_BAD_SMID, "SCSI IO with an SMID in use");
        return;
    }
    sdev = sas3008_handle_dev(s, handle);
    if (!sdev || ldq_le_p(frame + 0x34) != 0) {
        sas3008_io_error(s, smid, msix, frame, ST_SCSI_DEVICE_NOT_THERE);
        return;
    }
    if (cdb_len == 0 || cdb_len > 32 || dir == SCSIIO_CONTROL_DIR_MASK) {
        sas3008_io_error(s, smid, msix, frame, ST_INVALID_FIELD);
        return;
    }
    r = g_new0(SAS3008Request, 1);
    r->s = s;
    r->smid = smid;
    r->msix = msix;
    r->handle = handle;
    memcpy(r->frame, frame, MIN(s->req_frame_bytes, REPLY_MAX));
    r->data_length = ldl_le_p(frame + 0x1c);
    r->sense_addr = ((uint64_t)s->sense_high << 32) |
                    (uint32_t)ldl_le_p(frame + 0x0c);
    r->sense_len = frame[0x12];
    r->cancel_status = ST_SCSI_TASK_TERMINATED;
    pci_dma_sglist_init(&r->qsg, &s->dev, 4);
    if (s->mcpu) {
        status = sas3008_mpi_sgl(s, frame, s->req_frame_bytes,
                                 sgl_off ? sgl_off : 0x60, &r->qsg, &chains,
                                 &bar_chains);
    } else {
        status = sas3008_ieee_sgl(s, frame, s->req_frame_bytes,
                                  sgl_off ? sgl_off : 0x60, &r->qsg, &chains);
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
    pci_set_long(s->dev.config + STAT_IOS,
                 pci_get_long(s->dev.config + STAT_IOS) + 1);
    if (chains) {
        pci_set_long(s->dev.config + STAT_CHAINED_IOS,
                     pci_get_long(s->dev.config + STAT_CHAINED_IOS) + 1);
        if (chains > pci_get_long(s->dev.config + STAT_MAX_CHAINS)) {
            pci_set_long(s->dev.config + STAT_MAX_CHAINS, chains);
        }
        if (bar_chains == chains) {
            /* every chain segment was the driver's clone in the BAR */
            pci_set_long(s->dev.config + STAT_BAR_CHAINED_IOS,
                         pci_get_long(s->dev.config + STAT_BAR_CHAINED_IOS) +
                         1);
        }
    }
    s->smid_req[smid] = r;
    if (sas3008_stall(s, frame + 0x40)) {
        /* never started: only task management or a reset ends it */
        r->stalled = true;
        return;
    }
    r->sreq = scsi_req_new(sdev, smid, 0, (uint8_t *)frame + 0x40, cdb_len,
                           r);
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

/* Cancel the outstanding IO of @handle (all if 0), or only SMID @smid. */
static uint32_t sas3008_cancel_io(SAS3008State *s, uint16_t handle,
                                  uint16_t smid)
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

static void sas3008_task_mgmt(SAS3008State *s, uint16_t smid, uint8_t msix,
                              const uint8_t *req)
{
    uint8_t reply[0x1c];
    uint16_t handle = lduw_le_p(req);
    uint8_t type = req[0x05];
    uint16_t task = lduw_le_p(req + 0x30);
    SCSIDevice *sdev = sas3008_handle_dev(s, handle);
    uint8_t rsp = TM_RSP_COMPLETE;
    uint32_t n = 0;

    sas3008_reply_header(reply, req, sizeof(reply), ST_SUCCESS);
    if (!sdev) {
        stw_le_p(reply + 0x0e, ST_SCSI_DEVICE_NOT_THERE);
        sas3008_reply(s, smid, msix, reply, sizeof(reply));
        return;
    }
    switch (type) {
    case TM_ABORT_TASK:
        if (task && task <= s->max_smid && s->smid_req[task] &&
            s->smid_req[task]->handle == handle) {
            n = sas3008_cancel_io(s, handle, task);
        }
        break;
    case TM_QUERY_TASK:
        if (task && task <= s->max_smid && s->smid_req[task]) {
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
    reply[0x04] = rsp;
    stl_le_p(reply + 0x14, n);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}

/* Requests from the request queue */

static void sas3008_port_enable(SAS3008State *s, uint16_t smid, uint8_t msix,
                                const uint8_t *req)
{
    /* discovery of the directly attached disks, then the reply */
    sas3008_discovery_event(s, true);
    sas3008_enclosure_event(s);
    sas3008_topology_event(s, -1, true);
    sas3008_discovery_event(s, false);
    sas3008_simple_reply(s, smid, msix, req, ST_SUCCESS);
}

static void sas3008_fw_upload(SAS3008State *s, uint16_t smid, uint8_t msix,
                              const uint8_t *req)
{
    uint8_t reply[0x18];
    QEMUSGList qsg;
    uint16_t status;
    uint32_t size = ldl_le_p(req + 0x1c), done = 0, n;
    int i;

    /* an empty image: no package version to show */
    pci_dma_sglist_init(&qsg, &s->dev, 1);
    status = sas3008_ieee_sgl(s, req, s->req_frame_bytes, 0x20, &qsg, &n);
    for (i = 0; status == ST_SUCCESS && i < qsg.nsg && done < size; i++) {
        uint32_t l = MIN(qsg.sg[i].len, size - done);
        dma_memory_set(qsg.as, qsg.sg[i].base, 0, l, MEMTXATTRS_UNSPECIFIED);
        done += l;
    }
    qemu_sglist_destroy(&qsg);
    sas3008_reply_header(reply, req, sizeof(reply), status);
    stl_le_p(reply + 0x14, done);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}

static void sas3008_event_notification(SAS3008State *s, uint16_t smid,
                                       uint8_t msix, const uint8_t *req)
{
    uint8_t reply[0x1c];
    int i;

    memcpy(s->event_masks, req + 0x14, sizeof(s->event_masks));
    for (i = 0; i < EV_MASK_WORDS; i++) {
        s->event_masks[i] = le32_to_cpu(s->event_masks[i]);
    }
    s->events_on = true;
    sas3008_reply_header(reply, req, sizeof(reply), ST_SUCCESS);
    sas3008_reply(s, smid, msix, reply, sizeof(reply));
}

/* Event acknowledge and SAS IO unit control: nothing to do here */
static void sas3008_accept(SAS3008State *s, uint16_t smid, uint8_t msix,
                           const uint8_t *req)
{
    sas3008_simple_reply(s, smid, msix, req, ST_SUCCESS);
}

typedef void SAS3008Function(SAS3008State *s, uint16_t smid, uint8_t msix,
                             const uint8_t *req);

/* What the request queue takes, by function; the rest is refused */
static SAS3008Function *const sas3008_functions[] = {
    [FN_SCSI_IO] = sas3008_scsi_io,
    [FN_SCSI_TASK_MGMT] = sas3008_task_mgmt,
    [FN_CONFIG] = sas3008_config,
    [FN_PORT_ENABLE] = sas3008_port_enable,
    [FN_EVENT_NOTIFICATION] = sas3008_event_notification,
    [FN_EVENT_ACK] = sas3008_accept,
    [FN_FW_UPLOAD] = sas3008_fw_upload,
    [FN_SAS_IO_UNIT_CONTROL] = sas3008_accept,
};

static void sas3008_request(SAS3008State *s, uint32_t lo, uint32_t hi)
{
    uint8_t type = lo & REQ_TYPE_MASK;
    uint8_t msix = (lo >> 8) & 0xff;
    uint16_t smid = lo >> 16;
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
    if (s->mcpu) {
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
    fn = frame[3];
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
    if (fn < ARRAY_SIZE(sas3008_functions) && sas3008_functions[fn]) {
        sas3008_functions[fn](s, smid, msix, frame);
        return;
    }
    qemu_log_mask(LOG_UNIMP, "sas3008: function 0x%02x\n", fn);
    sas3008_simple_reply(s, smid, msix, frame, ST_INVALID_FUNCTION);
}

/* Doorbell handshake */

static void sas3008_hs_reply(SAS3008State *s, const uint8_t *reply, int len)
{
    int i;

    for (i = 0; i < len / 2; i++) {
        s->hs_reply[i] = lduw_le_p(reply + 2 * i);
    }
    s->hs_reply_cnt = len / 2;
    s->hs_reply_idx = 0;
    s->hs_state = HS_READ;
    s->intr_status |= HIS_IOC2SYS_DB;
}

static void sas3008_ioc_facts(SAS3008State *s, const uint8_t *req)
{
    uint8_t r[0x44];

    sas3008_reply_header(r, req, sizeof(r), ST_SUCCESS);
    if (s->mcpu) {
        stw_le_p(r + 0x00, 0x0200);             /* MPI 2.0 */
        stw_le_p(r + 0x04, 0x1e00);             /* header version */
    } else {
        stw_le_p(r + 0x00, 0x0205);             /* MPI 2.5 */
        stw_le_p(r + 0x04, 0x2a00);             /* header version */
    }
    r[0x14] = s->max_chain_depth;
    r[0x15] = s->who_init;
    r[0x16] = 1;                                /* ports */
    r[0x17] = s->use_msix ? s->msix_vectors : 0;
    stw_le_p(r + 0x18, s->request_credit);
    stw_le_p(r + 0x1a, 0x2221);                 /* IT firmware */
    stl_le_p(r + 0x1c, 0x00002000 |             /* event replay */
             0x00008000 |                       /* MSI-X index */
             0x00000800 |                       /* TLR */
             0x00000004);                       /* task set full */
    stl_le_p(r + 0x20, s->fw_version);
    stw_le_p(r + 0x24, s->request_frame_size);
    /* reserved in MPI 2.0: chain segments are request frames */
    stw_le_p(r + 0x26, s->mcpu ? 0 : s->max_chain_seg_size);
    stw_le_p(r + 0x28, 32);                     /* initiators */
    stw_le_p(r + 0x2a, 1024);                   /* targets */
    stw_le_p(r + 0x2c, 64);                     /* expanders */
    stw_le_p(r + 0x2e, 64);                     /* enclosures */
    stw_le_p(r + 0x30, 0x0002);                 /* SCSI initiator */
    stw_le_p(r + 0x32, s->hi_priority_credit);
    stw_le_p(r + 0x34, s->max_reply_post_depth);
    r[0x36] = s->reply_frame_size;
    r[0x37] = 0;                                /* no volumes */
    stw_le_p(r + 0x38, 1024);                   /* MaxDevHandle */
    stw_le_p(r + 0x3a, 128);
    stw_le_p(r + 0x3c, FIRST_DEV_HANDLE);
    sas3008_hs_reply(s, r, sizeof(r));
}

static void sas3008_port_facts(SAS3008State *s, const uint8_t *req)
{
    uint8_t r[0x1c];

    sas3008_reply_header(r, req, sizeof(r), req[6] ? ST_INVALID_FIELD :
                         ST_SUCCESS);
    r[0x06] = req[0x06];
    r[0x15] = 0x30;                             /* SAS physical port */
    sas3008_hs_reply(s, r, sizeof(r));
}

static void sas3008_reset_queues(SAS3008State *s)
{
    memset(s->post_ioc_idx, 0, sizeof(s->post_ioc_idx));
    memset(s->post_host_idx, 0, sizeof(s->post_host_idx));
    s->reply_free_ioc_idx = 0;
    s->reply_free_host_idx = 0;
}

static void sas3008_ioc_init(SAS3008State *s, const uint8_t *req)
{
    uint8_t r[0x14];
    uint16_t status = ST_SUCCESS;
    uint32_t frame = lduw_le_p(req + 0x1a) * 4;
    uint32_t post_depth = lduw_le_p(req + 0x1c);
    uint32_t free_depth = lduw_le_p(req + 0x1e);
    uint32_t queues = req[0x17] ? req[0x17] : 1;

    if (s->state != IOC_STATE_READY) {
        status = ST_INVALID_FUNCTION;
    } else if (frame < 0x60 || frame > REPLY_MAX ||
               post_depth < 16 || (post_depth % 16 && !s->mcpu) ||
               post_depth > s->max_reply_post_depth ||
               free_depth < 16 || queues > s->msix_vectors ||
               (req[0x07] & 0x01)) {            /* no RDPQ array mode */
        status = ST_INVALID_FIELD;
    }
    sas3008_reply_header(r, req, sizeof(r), status);
    if (status == ST_SUCCESS) {
        s->who_init = req[0];
        s->req_frame_bytes = frame;
        s->reply_post_depth = post_depth;
        s->reply_free_depth = free_depth;
        s->sense_high = ldl_le_p(req + 0x20);
        s->reply_high = ldl_le_p(req + 0x24);
        s->req_base = ldq_le_p(req + 0x28);
        s->reply_post_base = ldq_le_p(req + 0x30);
        s->reply_free_base = ldq_le_p(req + 0x38);
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
    uint8_t r[0x14];
    uint8_t fn;
    int i;

    memset(req, 0, sizeof(req));
    for (i = 0; i < s->hs_cnt; i++) {
        stl_le_p(req + 4 * i, s->hs_msg[i]);
    }
    fn = req[3];
    if (fn < ARRAY_SIZE(sas3008_handshakes) && sas3008_handshakes[fn]) {
        sas3008_handshakes[fn](s, req);
        return;
    }
    qemu_log_mask(LOG_UNIMP, "sas3008: handshake function 0x%02x\n", fn);
    sas3008_reply_header(r, req, sizeof(r), ST_INVALID_FUNCTION);
    sas3008_hs_reply(s, r, sizeof(r));
}

/* Resets */

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
    s->intr_status = 0;
    s->state = IOC_STATE_READY;
    s->fault_code = 0;
    sas3008_update_intx(s);
}

static void sas3008_hard_reset(SAS3008State *s)
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

static void sas3008_doorbell_write(SAS3008State *s, uint32_t val)
{
    uint8_t fn = val >> 24;

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
        s->hs_cnt = (val >> 16) & 0xff;
        if (s->hs_cnt == 0 || s->hs_cnt > HANDSHAKE_MAX_DWORDS) {
            sas3008_fault(s, FAULT_BAD_DESCRIPTOR, "handshake length");
            break;
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
            val |= s->hs_reply[s->hs_reply_idx];
        }
        break;
    }
    return val;
}

/* Any write clears the doorbell interrupt; while the host reads a reply it
 * also moves on to the next word, which raises it again. */
static void sas3008_his_write(SAS3008State *s)
{
    s->intr_status &= ~HIS_IOC2SYS_DB;
    if (s->hs_state == HS_READ) {
        s->hs_reply_idx++;
        if (s->hs_reply_idx >= s->hs_reply_cnt) {
            s->hs_state = HS_NONE;
        }
        s->intr_status |= HIS_IOC2SYS_DB;
    }
}

static void sas3008_diag_write(SAS3008State *s, uint32_t val)
{
    if (!(s->diag & DIAG_WRITE_ENABLE)) {
        return;
    }
    if (val & DIAG_RESET_ADAPTER) {
        sas3008_hard_reset(s);
        s->diag |= DIAG_RESET_HISTORY;
        return;
    }
    s->diag = (s->diag & ~(DIAG_HOLD_IOC_RESET | DIAG_HCB_MODE)) |
              (val & (DIAG_HOLD_IOC_RESET | DIAG_HCB_MODE));
    if (!(val & DIAG_RESET_HISTORY)) {
        s->diag &= ~DIAG_RESET_HISTORY;
    }
}

static void sas3008_wrseq_write(SAS3008State *s, uint32_t val)
{
    static const uint8_t keys[] = { 0xf, 0x4, 0xb, 0x2, 0x7, 0xd };

    val &= 0xf;
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

static uint64_t sas3008_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    SAS3008State *s = opaque;
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

static void sas3008_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    SAS3008State *s = opaque;

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
    case REG_HOST_INT_MASK: {
        uint32_t q;

        s->intr_mask = val & (HIM_RESET_IRQ | HIM_RIM | HIM_DIM);
        sas3008_update_intx(s);
        /* replies posted while masked */
        if (msix_enabled(&s->dev) && !(s->intr_mask & HIM_RIM)) {
            for (q = 0; q < s->nr_queues; q++) {
                if (sas3008_reply_pending(s, q)) {
                    msix_notify(&s->dev, q);
                }
            }
        }
        break;
    }
    case REG_REPLY_FREE_HOST_IDX:
        if (s->state != IOC_STATE_OPERATIONAL) {
            break;
        }
        if (val >= s->reply_free_depth) {
            sas3008_fault(s, FAULT_BAD_INDEX, "reply free host index");
            break;
        }
        s->reply_free_host_idx = val;
        sas3008_post_replies(s);
        break;
    case REG_REPLY_POST_HOST_IDX:
        sas3008_reply_post_index(s, (val >> 24) & 0xff, val & 0xffffff);
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
            addr < REG_SUP_REPLY_POST_IDX + SUP_REPLY_POST_GROUPS * 0x10 &&
            (addr - REG_SUP_REPLY_POST_IDX) % 0x10 == 0) {
            uint32_t group = (addr - REG_SUP_REPLY_POST_IDX) / 0x10;

            sas3008_reply_post_index(s, group * 8 + ((val >> 24) & 7),
                                     val & 0xffffff);
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

static const struct SCSIBusInfo sas3008_scsi_info = {
    .tcq = true,
    .max_target = NUM_PHYS - 1,
    .max_lun = 0,
    .get_sg_list = sas3008_get_sg_list,
    .complete = sas3008_command_complete,
    .cancel = sas3008_request_cancelled,
};

static void sas3008_realize(PCIDevice *dev, Error **errp)
{
    SAS3008State *s = SAS3008(dev);

    if (s->msix_vectors < 1 || s->msix_vectors > MSIX_MAX_VECTORS) {
        error_setg(errp, "msix_vectors must be 1 to %d", MSIX_MAX_VECTORS);
        return;
    }
    if (s->request_frame_size * 4 < 0x80 ||
        s->request_frame_size * 4 > REPLY_MAX ||
        s->reply_frame_size * 4 < 0x40 || s->reply_frame_size * 4 > REPLY_MAX) {
        error_setg(errp, "request and reply frames are 128 bytes at most");
        return;
    }
    dev->config[PCI_INTERRUPT_PIN] = 0x01;
    memory_region_init_io(&s->io, OBJECT(s), &sas3008_mmio_ops, s,
                          "sas3008-io", IO_SIZE);
    pci_register_bar(dev, 0, PCI_BASE_ADDRESS_SPACE_IO, &s->io);
    if (s->mcpu) {
        uint32_t rs = s->request_frame_size * 4, credit, end;
        Error *err = NULL;

        /* the MCPU's IOC Facts, which the driver's BAR layout assumes */
        s->request_credit = MCPU_REQUEST_CREDIT;
        s->hi_priority_credit = MCPU_HI_PRIORITY_CREDIT;
        s->max_chain_depth = MCPU_MAX_CHAIN_DEPTH;
        credit = s->request_credit + 1;
        /*
         * the end of the data buffer of the last SMID (request credit and
         * high priority SMIDs): _base_get_buffer_bar0()
         */
        end = MCPU_REGS_SIZE + credit * rs + MCPU_REPLY_FREE_CLONE +
              (credit + 2) * s->max_chain_depth * rs +
              (s->request_credit + s->hi_priority_credit + 1) * MCPU_IO_SIZE;
        if (end > MCPU_MSIX_TABLE_OFFSET) {
            error_setg(errp, "mcpu: the driver's BAR layout does not fit");
            return;
        }
        pci_config_set_device_id(dev->config, MCPU_DEVICE_ID);
        pci_set_word(dev->config + PCI_SUBSYSTEM_ID, MCPU_DEVICE_ID);
        /* registers, then RAM for the driver's clones; 32-bit addresses */
        memory_region_init(&s->mmio, OBJECT(s), "sas3008-mcpu-bar",
                           MCPU_MMIO_SIZE);
        memory_region_init_io(&s->mcpu_regs, OBJECT(s), &sas3008_mmio_ops, s,
                              "sas3008-mcpu-regs", MCPU_REGS_SIZE);
        memory_region_add_subregion(&s->mmio, 0, &s->mcpu_regs);
        /* unmigratable like the device: no RAM block to register */
        memory_region_init_ram_nomigrate(&s->mcpu_ram, OBJECT(s),
                                         "sas3008-mcpu-ram", MCPU_RAM_SIZE,
                                         &err);
        if (err) {
            error_propagate(errp, err);
            return;
        }
        memory_region_add_subregion(&s->mmio, MCPU_REGS_SIZE, &s->mcpu_ram);
        pci_register_bar(dev, 1, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->mmio);
    } else {
        memory_region_init_io(&s->mmio, OBJECT(s), &sas3008_mmio_ops, s,
                              "sas3008-mmio", MMIO_SIZE);
        pci_register_bar(dev, 1, PCI_BASE_ADDRESS_SPACE_MEMORY |
                         PCI_BASE_ADDRESS_MEM_TYPE_64, &s->mmio);
    }
    if (pci_add_capability(dev, PCI_CAP_ID_VNDR, STAT_CAP, STAT_CAP_SIZE,
                           errp) < 0) {
        return;
    }
    dev->config[STAT_CAP + 2] = STAT_CAP_SIZE;
    /* a PCIe endpoint, as the real chip: behind a root port it hot-plugs */
    if (pcie_endpoint_cap_init(dev, PCIE_CAP) < 0) {
        error_setg(errp, "cannot add the PCI Express capability");
        return;
    }
    if (s->use_msix) {
        if (msix_init(dev, s->msix_vectors, &s->mmio, 1,
                      s->mcpu ? MCPU_MSIX_TABLE_OFFSET : MSIX_TABLE_OFFSET,
                      &s->mmio, 1,
                      s->mcpu ? MCPU_MSIX_PBA_OFFSET : MSIX_PBA_OFFSET,
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
    .name = TYPE_SAS3008,
    .unmigratable = 1,
};

static Property sas3008_properties[] = {
    DEFINE_PROP_UINT64("sas_address", SAS3008State, sas_addr, 0),
    DEFINE_PROP_BOOL("msix", SAS3008State, use_msix, true),
    DEFINE_PROP_UINT32("msix_vectors", SAS3008State, msix_vectors, 16),
    DEFINE_PROP_UINT16("request_credit", SAS3008State, request_credit, 10240),
    DEFINE_PROP_UINT16("hi_priority_credit", SAS3008State, hi_priority_credit,
                       128),
    DEFINE_PROP_UINT16("request_frame_size", SAS3008State, request_frame_size,
                       0x20),
    DEFINE_PROP_UINT16("max_chain_depth", SAS3008State, max_chain_depth, 128),
    DEFINE_PROP_UINT16("max_chain_segment_size", SAS3008State,
                       max_chain_seg_size, 0),
    DEFINE_PROP_UINT16("reply_frame_size", SAS3008State, reply_frame_size,
                       0x20),
    DEFINE_PROP_UINT16("max_reply_post_depth", SAS3008State,
                       max_reply_post_depth, 0xfff0),
    DEFINE_PROP_UINT32("fw_version", SAS3008State, fw_version, 0x10000100),
    DEFINE_PROP_UINT64("stall_lba", SAS3008State, stall_lba, UINT64_MAX),
    DEFINE_PROP_BOOL("mcpu", SAS3008State, mcpu, false),
    DEFINE_PROP_END_OF_LIST(),
};

static void sas3008_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->realize = sas3008_realize;
    pc->exit = sas3008_exit;
    pc->vendor_id = 0x1000;                     /* LSI / Broadcom */
    pc->device_id = 0x0097;                     /* SAS3008 */
    pc->subsystem_vendor_id = 0x1000;
    pc->subsystem_id = 0x30e0;                  /* SAS 9300-8i */
    pc->revision = 2;
    pc->class_id = PCI_CLASS_STORAGE_SAS;
    dc->reset = sas3008_reset;
    dc->vmsd = &vmstate_sas3008;
    device_class_set_props(dc, sas3008_properties);
    dc->desc = "LSI SAS3008 (MPI 2.5), emulated for the mpt3sas tests";
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
}

static const TypeInfo sas3008_info = {
    .name = TYPE_SAS3008,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(SAS3008State),
    .class_init = sas3008_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { },
    },
};

static void sas3008_register_types(void)
{
    type_register_static(&sas3008_info);
}

type_init(sas3008_register_types)
