/*
 * Emulated LSI SAS3008 and its MPI 2.0 kin: the device model's state and
 * what its files share (tests/hba/README.md).
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_SCSI_SAS3008_H
#define HW_SCSI_SAS3008_H

#include "hw/pci/pci.h"
#include "hw/scsi/scsi.h"
#include "sysemu/dma.h"
#include "qom/object.h"
#include "sas3008-mpi.h"

/* The abstract base of the chips' types (sas3008_chips in sas3008.c) */
#define TYPE_SAS3008_BASE "sas3008-base"
typedef struct SAS3008State SAS3008State;
typedef struct SAS3008Class SAS3008Class;
DECLARE_OBJ_CHECKERS(SAS3008State, SAS3008Class, SAS3008, TYPE_SAS3008_BASE)

/*
 * A chip, the class data of its type: its PCI IDs, manufacturing page 0's
 * names, and the IOC Facts a property does not set.
 */
typedef struct SAS3008Chip {
    const char *desc;
    uint16_t device_id, subsystem_id;
    uint8_t revision;
    bool mpi2;          /* MPI 2.0: IOC Facts, SGLs, frame-sized chains */
    bool mcpu;          /* an MCPU endpoint: frames and chains in the BAR */
    uint16_t request_credit, hi_priority_credit, max_chain_depth;
    uint32_t msix_vectors;
    const char *chip_name, *chip_revision, *board_name;
} SAS3008Chip;

struct SAS3008Class {
    PCIDeviceClass parent_class;
    const SAS3008Chip *chip;
};

#define PCIE_CAP                0x68    /* 0x3c bytes, below the tests' 0xd0 */
#define SUP_REPLY_POST_GROUPS   12

#define MMIO_SIZE               0x10000
#define IO_SIZE                 0x100
#define MSIX_TABLE_OFFSET       0xe000
#define MSIX_PBA_OFFSET         0xf800
#define MSIX_MAX_VECTORS        96

/*
 * The MCPU endpoint: the driver's BAR layout for it (_clone_sg_entries() in
 * mpt3sas_base.c): registers up to 256, then request frames (SMID x frame
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

/* a property's default: the chip's value */
#define PROP_CHIP               UINT32_MAX

/*
 * The SAS topology: the HBA and its enclosure, and a disk per phy; or
 * (expander=on) an edge expander on a wide port of the HBA's phys, with
 * a disk on each of its first EXP_DISKS phys and the HBA's on the rest.
 * A disk's scsi-id is its phy's number.
 */
#define HBA_DEV_HANDLE          0x0001
#define ENCL_HANDLE             0x0001
#define FIRST_DEV_HANDLE        0x0009
#define NUM_PHYS                8
#define EXP_DEV_HANDLE          0x0009
#define EXP_FIRST_DISK_HANDLE   0x000a
#define EXP_DISKS               32
#define EXP_NUM_PHYS            (EXP_DISKS + NUM_PHYS)
#define EXP_DEVICE_INFO         (DEVINFO_EDGE_EXPANDER | DEVINFO_SMP_TARGET)
#define IOC_TEMPERATURE_C       47      /* IO unit page 7: hbatest reads it */
#define HBA_DEVICE_INFO         (DEVINFO_SSP_INITIATOR | \
                                 DEVINFO_STP_INITIATOR | \
                                 DEVINFO_SMP_INITIATOR | DEVINFO_END_DEVICE)
#define DISK_DEVICE_INFO        (DEVINFO_SSP_TARGET | DEVINFO_END_DEVICE)
/* a phy's negotiated rate, and its max and min (12 and 1.5 Gb/s) */
#define LINK_RATE_NEGOTIATED    (LINK_RATE_12_0 << LINK_RATE_SHIFT | \
                                 LINK_RATE_12_0)
#define LINK_RATE_MAX_MIN       (LINK_RATE_12_0 << LINK_RATE_SHIFT | \
                                 LINK_RATE_1_5)

/* IOC fault codes of this model (Doorbell[15:0] in the FAULT state) */
#define FAULT_BAD_SMID          0x5301
#define FAULT_BAD_DESCRIPTOR    0x5302
#define FAULT_BAD_INDEX         0x5303
#define FAULT_NOT_OPERATIONAL   0x5305
#define FAULT_LIE               0x5306  /* a fault lie= asked for */

/*
 * Not MPI: the lie= property, a protocol break the device commits on
 * purpose (sas3008-test.c).
 */
typedef enum {
    LIE_NONE,
    LIE_SMID,           /* an extra SCSI IO success with an SMID past credit */
    LIE_REPLY_ADDR,     /* an address reply outside the reply frames */
    LIE_CONFIG_SHORT,   /* a page read shorter than its header said */
    LIE_CONFIG_VARY,    /* SAS IO unit page headers sized for more phys */
    LIE_IOC_FAULT,      /* FAULT instead of an answer to IOC Init */
    LIE_DOORBELL_MUTE,  /* a handshake the doorbell never answers */
    LIE_IO_FAULT,       /* FAULT instead of taking a SCSI IO */
    LIE_DOORBELL_POP,   /* a handshake reply whose Doorbell reads take words */
} SAS3008Lie;
#define REPLY_LIE_DISTANCE      0x40000000      /* LIE_REPLY_ADDR's frame */

#define HANDSHAKE_MAX_DWORDS    128
#define REPLY_MAX               128     /* request and reply frames, most */
#define REQUEST_FRAME_MIN       0x80
#define REPLY_FRAME_MIN         0x40
#define SGL_MAX_ELEMENTS        4096
#define CONFIG_PAGE_MAX         512

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

enum { HS_NONE, HS_WRITE, HS_READ };

struct SAS3008State {
    PCIDevice dev;
    MemoryRegion mmio;              /* mcpu: a container of the three below */
    MemoryRegion io;
    MemoryRegion mcpu_regs;
    MemoryRegion mcpu_ram;
    SCSIBus bus;

    /* properties; PROP_CHIP: the chip's, set at realize */
    uint64_t sas_addr;
    uint32_t msix_vectors;
    uint32_t request_credit;
    uint32_t hi_priority_credit;
    uint32_t max_chain_depth;
    uint16_t request_frame_size;    /* dwords */
    uint16_t max_chain_seg_size;    /* 16-byte elements, 0: 8 */
    uint16_t reply_frame_size;      /* dwords */
    uint16_t max_reply_post_depth;
    uint32_t fw_version;
    bool use_msix;
    bool expander;

    /* not MPI: the tests' hooks (sas3008-test.c) */
    uint64_t stall_lba;             /* hold the first READ of this LBA */
    bool stalled_once;
    char *lie_name;                 /* lie=: see SAS3008Lie */
    uint32_t lie_after;
    uint32_t lie_count;
    SAS3008Lie lie;
    uint32_t lie_chances;           /* the lie's chances so far */

    /* doorbell and handshake */
    uint32_t state;
    uint16_t fault_code;
    uint8_t who_init;
    int hs_state;
    uint32_t hs_msg[HANDSHAKE_MAX_DWORDS];
    int hs_idx, hs_cnt;
    uint16_t hs_reply[REPLY_MAX / 2];
    int hs_reply_idx, hs_reply_cnt;
    bool hs_pop;                    /* LIE_DOORBELL_POP: this reply's */

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

/*
 * A request of the request queue, by function: @smid and @msix from its
 * descriptor, @req its frame.
 */
typedef void SAS3008Function(SAS3008State *s, uint16_t smid, uint8_t msix,
                             const uint8_t *req);

static inline const SAS3008Chip *sas3008_chip(SAS3008State *s)
{
    return SAS3008_GET_CLASS(s)->chip;
}

/* the disks' scsi-ids are 0 to this less one */
static inline int sas3008_max_disks(SAS3008State *s)
{
    return s->expander ? EXP_DISKS : NUM_PHYS;
}

static inline uint16_t sas3008_disk_handle(SAS3008State *s, int id)
{
    return (s->expander ? EXP_FIRST_DISK_HANDLE : FIRST_DEV_HANDLE) + id;
}

static inline uint64_t sas3008_exp_sas_addr(SAS3008State *s)
{
    return (s->sas_addr & ~0xffffffULL) + 0x200000;
}

/* sas3008.c */
SCSIDevice *sas3008_disk(SAS3008State *s, int id);
SCSIDevice *sas3008_handle_dev(SAS3008State *s, uint16_t handle);
uint64_t sas3008_dev_sas_addr(SAS3008State *s, int id);
void sas3008_fault(SAS3008State *s, uint16_t code, const char *why);
void sas3008_turbo_reply(SAS3008State *s, uint16_t smid, uint8_t msix);
void sas3008_reply(SAS3008State *s, uint16_t smid, uint8_t msix,
                   const void *msg, size_t len);
void sas3008_reply_header(uint8_t *reply, const uint8_t *req, size_t len,
                          uint16_t status);

/* sas3008-config.c */
SAS3008Function sas3008_config;

/* sas3008-scsi.c; SAS3008SGLStats: what an MPI 2.0 SGL held */
typedef struct SAS3008SGLStats {
    uint32_t simple32, simple64;    /* simple elements */
    uint32_t chains;                /* chain elements followed */
    uint32_t bar_chains;            /* of them, chain segments in the BAR */
} SAS3008SGLStats;
extern const struct SCSIBusInfo sas3008_scsi_info;
uint16_t sas3008_mpi_sgl(SAS3008State *s, const uint8_t *frame,
                         uint32_t frame_len, uint32_t off, QEMUSGList *qsg,
                         SAS3008SGLStats *st);
bool sas3008_mpi_sge(const uint8_t *sge, uint64_t *addr, uint32_t *len,
                     bool *to_ioc);
void sas3008_sgl_copy(SAS3008State *s, QEMUSGList *qsg, uint8_t *buf,
                      uint32_t len, bool to_guest);
uint32_t sas3008_cancel_io(SAS3008State *s, uint16_t handle, uint16_t smid);
SAS3008Function sas3008_scsi_io;
SAS3008Function sas3008_fw_upload;

/* sas3008-test.c */
bool sas3008_test_realize(SAS3008State *s, Error **errp);
bool sas3008_lie(SAS3008State *s, SAS3008Lie lie);
bool sas3008_stall(SAS3008State *s, const uint8_t *cdb);
void sas3008_count_io(SAS3008State *s, uint32_t chains,
                      const SAS3008SGLStats *st);
void sas3008_count_unit_attention(SAS3008State *s);

#endif
