/*
 * Emulated LSI SAS3008 (MPI 2.5) host bus adapter, for the mpt3sas driver
 * tests of mpt3sas-chainpool.
 *
 * It models what the Linux mpt3sas driver uses of a SAS 9300-8i: the
 * doorbell handshake (IOC Facts, Port Facts, IOC Init), the doorbell
 * interrupt on its replies and on each change of IOC state, message unit
 * and diagnostic resets, request descriptors, reply free and reply descriptor
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
 * With sas2=sas2008 or sas2=sas2308 it is an MPI 2.0 SAS2 chip, a SAS
 * 9211-8i (1000:0072) or 9207-8i (1000:0087), which the driver attaches
 * through its mpt2sas host template: MPI 2.0 IOC Facts, chain segments of
 * a request frame's size, and MPI 2.0 SGLs of 64-bit simple and chain
 * elements (not IEEE ones) in SCSI IO and config requests.
 *
 * A malformed request gets the error status real firmware returns, or puts
 * the IOC into the FAULT state with a logged fault code (see FAULT_*); the
 * guest recovers with a diagnostic reset.
 *
 * This file is the PCI device: its registers, the request queue's dispatch
 * by function, realize and reset; sas3008.h lists the others.
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
#include "sas3008.h"

/**
 * sas3008_phy_dev: the disk on @phy, if any.
 * @s: the HBA
 * @phy: the phy number (the disk's scsi-id)
 */
SCSIDevice *sas3008_phy_dev(SAS3008State *s, int phy)
{
    return scsi_device_find(&s->bus, 0, phy, 0);
}

/**
 * sas3008_handle_dev: the disk of DevHandle @handle, if any.
 * @s: the HBA
 * @handle: the DevHandle
 */
SCSIDevice *sas3008_handle_dev(SAS3008State *s, uint16_t handle)
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

/**
 * sas3008_dev_sas_addr: the SAS address of the disk on @phy.
 * @s: the HBA
 * @phy: the phy number
 */
uint64_t sas3008_dev_sas_addr(SAS3008State *s, int phy)
{
    return (s->sas_addr & ~0xffffffULL) + 0x100000 + phy;
}

/**
 * sas3008_fault: put the IOC into the FAULT state with fault @code.
 * @s: the HBA
 * @code: the fault code, Doorbell[15:0]
 * @why: what the log says
 */
void sas3008_fault(SAS3008State *s, uint16_t code, const char *why)
{
    qemu_log_mask(LOG_GUEST_ERROR, "sas3008: IOC fault 0x%04x: %s\n",
                  code, why);
    s->state = IOC_STATE_FAULT;
    s->fault_code = code;
    /* the IOC writes its new state to the Doorbell: a doorbell interrupt */
    s->intr_status |= HIS_IOC2SYS_DB;
}

/*
 * sas2=: the chips, their PCI device IDs and revisions (not B0's 1), and
 * where no property sets them the IOC Facts the driver logs for their IT
 * firmware P20 (20.00.07.00): RequestCredit is its "Max Controller Queue
 * Depth", HighPriorityCredit what its current depth (RequestCredit - HP -
 * 8) and request pool depth (RequestCredit + HP) leave, MaxMSIxVectors
 * its "MSI-X vectors supported".  Frames of 128 bytes (its pools'
 * frame_size); MaxChainDepth 128 and the reply post queue as the
 * SAS3008's: the logs show only that they exceed what the driver asks.
 */
static const struct {
    const char *name;
    uint16_t device_id;
    uint8_t revision;
    uint16_t request_credit, hi_priority_credit;
    uint32_t msix_vectors;
} sas3008_sas2_chips[] = {
    /* a SAS 9300-8i (FreeBSD mpr's IOCFacts: 10240 and 128 credits) */
    [SAS2_NONE] = { NULL, 0x0097, 2, 10240, 128, 16 },
    /* 9211-8i: Max Controller Queue Depth(3432), current 3364, depth 3492 */
    [SAS2_2008] = { "sas2008", 0x0072, 3, 3432, 60, 1 },
    /* 9207-8i: Max Controller Queue Depth(8192), current 8056 */
    [SAS2_2308] = { "sas2308", 0x0087, 5, 8192, 128, 16 },
};

/* The names of lie=, by SAS3008Lie */
static const char *const sas3008_lies[] = {
    [LIE_NONE] = "none",
    [LIE_SMID] = "smid",
    [LIE_REPLY_ADDR] = "reply_addr",
    [LIE_CONFIG_SHORT] = "config_short",
    [LIE_CONFIG_VARY] = "config_vary",
    [LIE_IOC_FAULT] = "ioc_fault",
    [LIE_DOORBELL_MUTE] = "doorbell_mute",
    [LIE_IO_FAULT] = "io_fault",
    [LIE_DOORBELL_POP] = "doorbell_pop",
};

/**
 * sas3008_lie: is this chance to commit @lie one the lie= property takes?
 * After lie_after chances, lie_count times (0: always).
 * @s: the HBA
 * @lie: the lie the caller could commit now
 */
bool sas3008_lie(SAS3008State *s, SAS3008Lie lie)
{
    uint32_t n;

    if (s->lie != lie || lie == LIE_NONE) {
        return false;
    }
    n = s->lie_chances++;
    if (n < s->lie_after ||
        (s->lie_count && n - s->lie_after >= s->lie_count)) {
        return false;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "sas3008: lie %s, chance %u\n",
                  sas3008_lies[lie], n + 1);
    return true;
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
    fn = frame[MSG_FUNCTION];
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

static void sas3008_realize(PCIDevice *dev, Error **errp)
{
    SAS3008State *s = SAS3008(dev);

    for (s->lie = 0; s->lie_name; s->lie++) {
        if (s->lie == ARRAY_SIZE(sas3008_lies)) {
            error_setg(errp, "unknown lie %s", s->lie_name);
            return;
        }
        if (!strcmp(s->lie_name, sas3008_lies[s->lie])) {
            break;
        }
    }
    for (s->sas2 = SAS2_NONE; s->sas2_name; s->sas2++) {
        if (s->sas2 == ARRAY_SIZE(sas3008_sas2_chips)) {
            error_setg(errp, "sas2: sas2008 or sas2308, not %s",
                       s->sas2_name);
            return;
        }
        if (s->sas2 && !strcmp(s->sas2_name,
                               sas3008_sas2_chips[s->sas2].name)) {
            break;
        }
    }
    if (s->prop_request_credit == PROP_CHIP) {
        s->prop_request_credit = sas3008_sas2_chips[s->sas2].request_credit;
    }
    if (s->prop_hi_priority_credit == PROP_CHIP) {
        s->prop_hi_priority_credit =
            sas3008_sas2_chips[s->sas2].hi_priority_credit;
    }
    if (!s->msix_vectors) {
        s->msix_vectors = sas3008_sas2_chips[s->sas2].msix_vectors;
    }
    if (s->msix_vectors > MSIX_MAX_VECTORS ||
        (s->prop_request_credit | s->prop_hi_priority_credit) > 0xffff) {
        error_setg(errp, "msix_vectors 1 to %d, credits 16-bit",
                   MSIX_MAX_VECTORS);
        return;
    }
    s->request_credit = s->prop_request_credit;
    s->hi_priority_credit = s->prop_hi_priority_credit;
    if (s->sas2 && s->mcpu) {
        error_setg(errp, "sas2 and mcpu exclude each other");
        return;
    }
    s->mpi2 = s->mcpu || s->sas2;
    if (s->sas2) {
        /* subsystem 1000:3020: the 9211-8i and the 9207-8i */
        pci_config_set_device_id(dev->config,
                                 sas3008_sas2_chips[s->sas2].device_id);
        pci_config_set_revision(dev->config,
                                sas3008_sas2_chips[s->sas2].revision);
        pci_set_word(dev->config + PCI_SUBSYSTEM_ID, 0x3020);
    }
    if (s->request_frame_size * 4 < REQUEST_FRAME_MIN ||
        s->request_frame_size * 4 > REPLY_MAX ||
        s->reply_frame_size * 4 < REPLY_FRAME_MIN ||
        s->reply_frame_size * 4 > REPLY_MAX) {
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
    dev->config[STAT_CAP + STAT_CAP_LENGTH] = STAT_CAP_SIZE;
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
    /* 0 and PROP_CHIP: the chip's (sas3008_sas2_chips) */
    DEFINE_PROP_UINT32("msix_vectors", SAS3008State, msix_vectors, 0),
    DEFINE_PROP_UINT32("request_credit", SAS3008State, prop_request_credit,
                       PROP_CHIP),
    DEFINE_PROP_UINT32("hi_priority_credit", SAS3008State,
                       prop_hi_priority_credit, PROP_CHIP),
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
    DEFINE_PROP_STRING("sas2", SAS3008State, sas2_name),
    DEFINE_PROP_STRING("lie", SAS3008State, lie_name),
    DEFINE_PROP_UINT32("lie_after", SAS3008State, lie_after, 0),
    DEFINE_PROP_UINT32("lie_count", SAS3008State, lie_count, 1),
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
