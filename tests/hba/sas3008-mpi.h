/*
 * Emulated LSI SAS3008: the MPI 2.5 interface it speaks, in MPI's terms.
 *
 * Offsets of the fields the model uses, named after the MPI headers'
 * (mpi2*.h): ChainOffset is MSG_CHAIN_OFFSET.  All are little endian.
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_SCSI_SAS3008_MPI_H
#define HW_SCSI_SAS3008_MPI_H

/* System interface registers */
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
#define REG_SUP_REPLY_POST_IDX  0x30c   /* one per group of 8 queues */
#define SUP_REPLY_POST_STRIDE   0x10
#define SUP_REPLY_POST_GROUP_QUEUES 8

/* ReplyPostHostIndex: the index, and the queue (MSI-X index) it is of */
#define REPLY_POST_HOST_IDX_MASK 0x00ffffff
#define REPLY_POST_HOST_MSIX_SHIFT 24
#define REPLY_POST_HOST_MSIX_MASK 0xff

/* Doorbell */
#define IOC_STATE_READY         0x10000000
#define IOC_STATE_OPERATIONAL   0x20000000
#define IOC_STATE_FAULT         0x40000000
#define DOORBELL_USED           0x08000000
#define DOORBELL_WHO_INIT_SHIFT 24
#define DOORBELL_FUNCTION_SHIFT 24
#define DOORBELL_ADD_DWORDS_SHIFT 16
#define DOORBELL_ADD_DWORDS_MASK 0xff

/* Host interrupt status and mask */
#define HIS_REPLY_DESC_INT      0x00000008
#define HIS_IOC2SYS_DB          0x00000001
#define HIM_RESET_IRQ           0x40000000
#define HIM_RIM                 0x00000008
#define HIM_DIM                 0x00000001

/* Host diagnostic, and the write sequence keys that unlock it */
#define DIAG_HCB_MODE           0x00000100
#define DIAG_WRITE_ENABLE       0x00000080
#define DIAG_RESET_HISTORY      0x00000020
#define DIAG_RESET_ADAPTER      0x00000004
#define DIAG_HOLD_IOC_RESET     0x00000002
#define WRSEQ_KEY_MASK          0xf

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
#define FN_SMP_PASSTHROUGH      0x1a
#define FN_SAS_IO_UNIT_CONTROL  0x1b
#define FN_IOC_MSG_UNIT_RESET   0x40
#define FN_HANDSHAKE            0x42

/* IOCStatus */
#define ST_SUCCESS              0x0000
#define ST_INVALID_FUNCTION     0x0001
#define ST_INVALID_SGL          0x0003
#define ST_INVALID_FIELD        0x0007
#define ST_CONFIG_INVALID_ACTION 0x0020
#define ST_CONFIG_INVALID_TYPE  0x0021
#define ST_CONFIG_INVALID_PAGE  0x0022
#define ST_SCSI_DEVICE_NOT_THERE 0x0043
#define ST_SCSI_DATA_OVERRUN    0x0044
#define ST_SCSI_DATA_UNDERRUN   0x0045
#define ST_SCSI_TASK_TERMINATED 0x0048
#define ST_SAS_SMP_REQUEST_FAILED 0x0090

/*
 * Request descriptor (low dword: RequestFlags, MSIxIndex, SMID) and reply
 * descriptor (ReplyFlags, MSIxIndex, SMID, then ReplyFrameAddress)
 */
#define REQ_TYPE_MASK           0x1e
#define REQ_TYPE_SCSI_IO        0x00
#define REQ_TYPE_HIGH_PRIORITY  0x06
#define REQ_TYPE_DEFAULT        0x08
#define REQ_TYPE_FAST_PATH      0x0c
#define RPY_SCSI_IO_SUCCESS     0x00
#define RPY_ADDRESS_REPLY       0x01
#define DESC_MSIX_SHIFT         8
#define DESC_MSIX_MASK          0xff
#define DESC_SMID_SHIFT         16
#define RPY_DESC_FRAME_SHIFT    32
#define RPY_DESC_SIZE           8
#define REPLY_FREE_ENTRY_SIZE   4

/*
 * The header every message starts with (MPI2_DEFAULT_REQUEST/REPLY): a
 * reply echoes the request's first MSG_ECHO_SIZE bytes (function, flags,
 * VP_ID, VF_ID) with its own MsgLength, in dwords.
 */
#define MSG_CHAIN_OFFSET        0x02    /* request, dwords */
#define MSG_LENGTH              0x02    /* reply, dwords */
#define MSG_FUNCTION            0x03
#define MSG_FLAGS               0x07
#define MSG_ECHO_SIZE           0x0c
#define REPLY_IOC_STATUS        0x0e
#define REPLY_HEADER_SIZE       0x14    /* up to IOCLogInfo */

/* IEEE simple and chain elements (Mpi2IeeeSgeSimple64_t, ...Chain64_t) */
#define IEEE_SGE_SIZE           16
#define IEEE_SGE_ADDRESS        0x00
#define IEEE_SGE_LENGTH         0x08
#define IEEE_SGE_FLAGS          0x0f
#define IEEE_FLAGS_CHAIN        0x80
#define IEEE_FLAGS_END_OF_LIST  0x40
#define IEEE_FLAGS_ADDR_MASK    0x03

/*
 * MPI simple and chain elements: a FlagsLength dword (Mpi2SGESimple32/64_t:
 * flags, 24-bit length; Mpi2SGEChain32/64_t: flags, NextChainOffset in
 * dwords, 16-bit length), then a 32- or 64-bit address.
 */
#define MPI_SGE_FLAGS_LENGTH    0x00
#define MPI_SGE_ADDRESS         0x04
#define MPI_SGE_SIMPLE32_SIZE   8
#define MPI_SGE_SIMPLE64_SIZE   12
#define MPI_SGE_FLAGS_SHIFT     24
#define MPI_SGE_LENGTH_MASK     0x00ffffff
#define MPI_SGE_CHAIN_LENGTH_MASK 0x0000ffff
#define MPI_SGE_CHAIN_NEXT_SHIFT 16
#define MPI_SGE_CHAIN_NEXT_MASK 0xff
#define MPI_SGE_FLAGS_ELEMENT_MASK 0x30
#define MPI_SGE_FLAGS_SIMPLE    0x10
#define MPI_SGE_FLAGS_CHAIN     0x30
#define MPI_SGE_FLAGS_LOCAL     0x08
#define MPI_SGE_FLAGS_HOST_TO_IOC 0x04
#define MPI_SGE_FLAGS_64BIT     0x02
#define MPI_SGE_FLAGS_END_OF_LIST 0x01

/* IOC Facts reply (Mpi2IOCFactsReply_t) */
#define IOCFACTS_REPLY_SIZE     0x44
#define IOCFACTS_MSG_VERSION    0x00
#define IOCFACTS_HEADER_VERSION 0x04
#define IOCFACTS_MAX_CHAIN_DEPTH 0x14
#define IOCFACTS_WHO_INIT       0x15
#define IOCFACTS_NUMBER_OF_PORTS 0x16
#define IOCFACTS_MAX_MSIX_VECTORS 0x17
#define IOCFACTS_REQUEST_CREDIT 0x18
#define IOCFACTS_PRODUCT_ID     0x1a
#define IOCFACTS_IOC_CAPABILITIES 0x1c
#define IOCFACTS_FW_VERSION     0x20
#define IOCFACTS_REQUEST_FRAME_SIZE 0x24
#define IOCFACTS_MAX_CHAIN_SEGMENT_SIZE 0x26
#define IOCFACTS_MAX_INITIATORS 0x28
#define IOCFACTS_MAX_TARGETS    0x2a
#define IOCFACTS_MAX_SAS_EXPANDERS 0x2c
#define IOCFACTS_MAX_ENCLOSURES 0x2e
#define IOCFACTS_PROTOCOL_FLAGS 0x30
#define IOCFACTS_HIGH_PRIORITY_CREDIT 0x32
#define IOCFACTS_MAX_REPLY_POST_DEPTH 0x34
#define IOCFACTS_REPLY_FRAME_SIZE 0x36
#define IOCFACTS_MAX_VOLUMES    0x37
#define IOCFACTS_MAX_DEV_HANDLE 0x38
#define IOCFACTS_MAX_PERSISTENT_ENTRIES 0x3a
#define IOCFACTS_MIN_DEV_HANDLE 0x3c
#define MPI_VERSION_2_0         0x0200
#define MPI_VERSION_2_5         0x0205
#define MPI2_HEADER_VERSION     0x1e00
#define MPI25_HEADER_VERSION    0x2a00
#define IOCFACTS_PRODUCTID_IT   0x2221
#define IOCFACTS_CAP_EVENT_REPLAY 0x00002000
#define IOCFACTS_CAP_MSI_X_INDEX 0x00008000
#define IOCFACTS_CAP_TLR        0x00000800
#define IOCFACTS_CAP_TASK_SET_FULL 0x00000004
#define IOCFACTS_PROTOCOL_SCSI_INITIATOR 0x0002

/* Port Facts request and reply (Mpi2PortFactsRequest/Reply_t) */
#define PORTFACTS_REPLY_SIZE    0x1c
#define PORTFACTS_PORT_NUMBER   0x06
#define PORTFACTS_PORT_TYPE     0x15
#define PORTFACTS_PORTTYPE_SAS_PHYSICAL 0x30

/* IOC Init request (Mpi2IOCInitRequest_t) */
#define IOCINIT_WHO_INIT        0x00
#define IOCINIT_HOST_MSIX_VECTORS 0x17
#define IOCINIT_SYSTEM_REQUEST_FRAME_SIZE 0x1a  /* dwords */
#define IOCINIT_REPLY_POST_DEPTH 0x1c
#define IOCINIT_REPLY_FREE_DEPTH 0x1e
#define IOCINIT_SENSE_ADDRESS_HIGH 0x20
#define IOCINIT_REPLY_ADDRESS_HIGH 0x24
#define IOCINIT_REQUEST_FRAME_BASE 0x28
#define IOCINIT_REPLY_POST_ADDRESS 0x30
#define IOCINIT_REPLY_FREE_ADDRESS 0x38
#define IOCINIT_MSGFLAG_RDPQ_ARRAY_MODE 0x01

/* SCSI IO request and reply (Mpi25SCSIIORequest_t, Mpi2SCSIIOReply_t) */
#define SCSIIO_DEV_HANDLE       0x00
#define SCSIIO_SENSE_BUFFER_LOW 0x0c
#define SCSIIO_SENSE_BUFFER_LENGTH 0x12
#define SCSIIO_SGL_OFFSET0      0x14    /* dwords */
#define SCSIIO_DATA_LENGTH      0x1c
#define SCSIIO_IO_FLAGS         0x24
#define SCSIIO_LUN              0x34
#define SCSIIO_CONTROL          0x3c
#define SCSIIO_CDB              0x40
#define SCSIIO_SGL              0x60
#define SCSIIO_IOFLAGS_CDB_LENGTH_MASK 0x3f
#define SCSIIO_CDB_MAX          32
#define SCSIIO_CONTROL_DIR_MASK 0x03000000
#define SCSIIO_CONTROL_WRITE    0x01000000
#define SCSIIO_CONTROL_READ     0x02000000
#define SCSIIO_REPLY_SIZE       0x34
#define SCSIIO_REPLY_SCSI_STATUS 0x0c
#define SCSIIO_REPLY_SCSI_STATE 0x0d
#define SCSIIO_REPLY_TRANSFER_COUNT 0x14
#define SCSIIO_REPLY_SENSE_COUNT 0x18
#define SCSIIO_REPLY_TASK_TAG   0x20
#define SCSI_STATE_AUTOSENSE_VALID 0x01
#define SCSI_STATE_NO_SCSI_STATUS 0x04
#define SCSI_STATE_TERMINATED   0x08

/* Task management (Mpi2SCSITaskManagementRequest/Reply_t) */
#define TM_DEV_HANDLE           0x00
#define TM_TASK_TYPE            0x05
#define TM_TASK_MID             0x30
#define TM_REPLY_SIZE           0x1c
#define TM_REPLY_RESPONSE_CODE  0x04
#define TM_REPLY_TERMINATION_COUNT 0x14
#define TM_ABORT_TASK           0x01
#define TM_ABORT_TASK_SET       0x02
#define TM_TARGET_RESET         0x03
#define TM_LUN_RESET            0x05
#define TM_CLEAR_TASK_SET       0x06
#define TM_QUERY_TASK           0x07
#define TM_RSP_COMPLETE         0x00
#define TM_RSP_NOT_SUPPORTED    0x04
#define TM_RSP_SUCCEEDED        0x08

/* FW Upload (Mpi25FWUploadRequest_t, Mpi2FWUploadReply_t) */
#define FWUPLOAD_IMAGE_SIZE     0x1c
#define FWUPLOAD_SGL            0x20
#define FWUPLOAD_REPLY_SIZE     0x18
#define FWUPLOAD_REPLY_ACTUAL_IMAGE_SIZE 0x14

/* Config request and reply (Mpi2ConfigRequest/Reply_t) */
#define CONFIG_ACTION           0x00
#define CONFIG_EXT_PAGE_LENGTH  0x04    /* dwords */
#define CONFIG_EXT_PAGE_TYPE    0x06
#define CONFIG_HEADER           0x14    /* MPI2_CONFIG_PAGE_HEADER */
#define CONFIG_PAGE_ADDRESS     0x18
#define CONFIG_PAGE_BUFFER_SGE  0x1c
#define CONFIG_REPLY_SIZE       0x18
#define CFG_ACTION_HEADER       0x00
#define CFG_ACTION_READ_CURRENT 0x01
#define CFG_ACTION_WRITE_CURRENT 0x02
#define CFG_ACTION_DEFAULT      0x03
#define CFG_ACTION_WRITE_NVRAM  0x04
#define CFG_ACTION_READ_DEFAULT 0x05
#define CFG_ACTION_READ_NVRAM   0x06
#define CFG_ACTION_GET_CHANGEABLE 0x07

/*
 * Config page header (MPI2_CONFIG_PAGE_HEADER), at CONFIG_HEADER of the
 * request and reply and at the start of a page; an extended page's header
 * (MPI2_CONFIG_EXTENDED_PAGE_HEADER) goes on with its length and type.
 */
#define PAGE_VERSION            0x00
#define PAGE_LENGTH             0x01    /* dwords */
#define PAGE_NUMBER             0x02
#define PAGE_TYPE               0x03
#define PAGE_EXT_LENGTH         0x04    /* dwords */
#define PAGE_EXT_TYPE           0x06
#define PAGE_HEADER_SIZE        4
#define PAGE_EXT_HEADER_SIZE    8
#define PAGETYPE_MASK           0x0f
#define PAGETYPE_IO_UNIT        0x00
#define PAGETYPE_IOC            0x01
#define PAGETYPE_BIOS           0x02
#define PAGETYPE_MANUFACTURING  0x09
#define PAGETYPE_EXTENDED       0x0f
#define EXTPAGETYPE_SAS_IO_UNIT 0x10
#define EXTPAGETYPE_SAS_EXPANDER 0x11
#define EXTPAGETYPE_SAS_DEVICE  0x12
#define EXTPAGETYPE_SAS_PHY     0x13
#define EXTPAGETYPE_ENCLOSURE   0x15

/* PageAddress forms: SAS device, SAS phy and enclosure pages */
#define PGAD_FORM_MASK          0xf0000000
#define PGAD_HANDLE_MASK        0x0000ffff
#define PGAD_PHY_NUMBER_MASK    0x000000ff
#define SAS_DEVICE_PGAD_FORM_GET_NEXT_HANDLE 0x00000000
#define SAS_DEVICE_PGAD_FORM_HANDLE 0x20000000
#define SAS_PHY_PGAD_FORM_PHY_NUMBER 0x00000000
#define SAS_ENCLOS_PGAD_FORM_GET_NEXT_HANDLE 0x00000000
#define SAS_ENCLOS_PGAD_FORM_HANDLE 0x10000000
#define SAS_EXPAND_PGAD_FORM_GET_NEXT_HNDL 0x00000000
#define SAS_EXPAND_PGAD_FORM_HNDL_PHY_NUM 0x10000000
#define SAS_EXPAND_PGAD_FORM_HNDL 0x20000000
#define SAS_EXPAND_PGAD_PHYNUM_SHIFT 16
#define SAS_EXPAND_PGAD_PHYNUM_MASK 0xff
#define PGAD_GET_NEXT_FIRST     0xffff  /* "from the start" */

/* Manufacturing pages 0 and 11 (Mpi2ManufacturingPage0_t, ...11_t) */
#define MANP0_SIZE              0x4c
#define MANP0_CHIP_NAME         0x04    /* 16 bytes */
#define MANP0_CHIP_REVISION     0x14    /* 8 bytes */
#define MANP0_BOARD_NAME        0x1c    /* 16 bytes */
#define MANP0_BOARD_ASSEMBLY    0x2c    /* 16 bytes */
#define MANP0_BOARD_TRACER_NUMBER 0x3c  /* 16 bytes */
#define MANP11_SIZE             0x5c
#define MANP11_EEDP_TAG_MODE    0x09
#define MANP11_WRITE_SIZE       0x0c    /* what a write takes of it */

/* BIOS pages 2 (with 3 boot device forms of 24 bytes) and 3 */
#define BIOSP2_SIZE             (0x1c + 24 * 3)
#define BIOSP3_SIZE             0x68

/* IOC pages 1 and 8 (Mpi2IOCPage1_t, Mpi2IOCPage8_t) */
#define IOCP1_SIZE              0x18
#define IOCP8_SIZE              0x18
#define IOCP8_NUM_DEVS_PER_ENCLOSURE 0x04
#define IOCP8_MAX_PERSISTENT_ENTRIES 0x08
#define IOCP8_MAX_NUM_PHYSICAL_MAPPED_IDS 0x0a

/* IO unit pages 0, 1, 7 and 8 (Mpi2IOUnitPage0/1/7/8_t) */
#define IOUP0_SIZE              0x0c
#define IOUP0_UNIQUE_VALUE      0x04
#define IOUP1_SIZE              0x08
#define IOUP1_FLAGS             0x04
#define IOUP7_SIZE              0x28
#define IOUP7_IOC_TEMPERATURE   0x10
#define IOUP7_IOC_TEMPERATURE_UNITS 0x12
#define IOUP7_TEMP_CELSIUS      0x02    /* board sensor: 0, not present */
#define IOUP8_SIZE              0x10    /* no sensors */

/* SAS IO unit page 0 (Mpi2SasIOUnitPage0_t, Mpi2SasIOUnit0PhyData_t) */
#define SASIOUP0_NUM_PHYS       0x0c
#define SASIOUP0_PHY_DATA       0x10
#define SASIOUP0_PHY_SIZE       0x14
#define SASIOUP0_PHY_PORT       0x00
#define SASIOUP0_PHY_NEGOTIATED_LINK_RATE 0x03
#define SASIOUP0_PHY_CONTROLLER_DEVICE_INFO 0x04
#define SASIOUP0_PHY_ATTACHED_DEV_HANDLE 0x08
#define SASIOUP0_PHY_CONTROLLER_DEV_HANDLE 0x0a

/* SAS IO unit page 1 (Mpi2SasIOUnitPage1_t, Mpi2SasIOUnit1PhyData_t) */
#define SASIOUP1_NARROW_MAX_QUEUE_DEPTH 0x0a
#define SASIOUP1_WIDE_MAX_QUEUE_DEPTH 0x0e
#define SASIOUP1_NUM_PHYS       0x10
#define SASIOUP1_SATA_MAX_QDEPTH 0x11
#define SASIOUP1_PHY_DATA       0x14
#define SASIOUP1_PHY_SIZE       0x0c
#define SASIOUP1_PHY_MAX_MIN_LINK_RATE 0x03
#define SASIOUP1_PHY_CONTROLLER_DEVICE_INFO 0x04

/* SAS device page 0 (Mpi2SasDevicePage0_t) */
#define SASDEVP0_SIZE           0x38
#define SASDEVP0_SLOT           0x08
#define SASDEVP0_ENCLOSURE_HANDLE 0x0a
#define SASDEVP0_SAS_ADDRESS    0x0c
#define SASDEVP0_PARENT_DEV_HANDLE 0x14
#define SASDEVP0_PHY_NUM        0x16
#define SASDEVP0_ACCESS_STATUS  0x17
#define SASDEVP0_DEV_HANDLE     0x18
#define SASDEVP0_ATTACHED_PHY_IDENTIFIER 0x1a
#define SASDEVP0_DEVICE_INFO    0x1c
#define SASDEVP0_FLAGS          0x20
#define SASDEVP0_MAX_PORT_CONNECTIONS 0x23
#define SASDEVP0_DEVICE_NAME    0x24
#define SASDEVP0_FLAGS_DEVICE_PRESENT 0x0001
#define SASDEVP0_ACCESS_OK      0x00

/* SAS phy page 0 (Mpi2SasPhyPage0_t) */
#define SASPHYP0_SIZE           0x24
#define SASPHYP0_OWNER_DEV_HANDLE 0x08
#define SASPHYP0_ATTACHED_DEV_HANDLE 0x0c
#define SASPHYP0_ATTACHED_PHY_IDENTIFIER 0x0e
#define SASPHYP0_PROGRAMMED_LINK_RATE 0x14
#define SASPHYP0_HW_LINK_RATE   0x15
#define SASPHYP0_NEGOTIATED_LINK_RATE 0x1c

/* SAS enclosure page 0 (Mpi2SasEnclosurePage0_t) */
#define ENCLP0_SIZE             0x28
#define ENCLP0_ENCLOSURE_LOGICAL_ID 0x0c
#define ENCLP0_ENCLOSURE_HANDLE 0x16
#define ENCLP0_NUM_SLOTS        0x18

/* Event notification request and reply (Mpi2EventNotification*_t) */
#define EVNOTIFY_EVENT_MASKS    0x14
#define EVNOTIFY_REPLY_SIZE     0x1c
#define EV_MASK_WORDS           4
#define EVREPLY_EVENT_DATA_LENGTH 0x00  /* dwords */
#define EVREPLY_ACK_REQUIRED    0x06
#define EVREPLY_EVENT           0x14
#define EVREPLY_EVENT_CONTEXT   0x18
#define EVREPLY_EVENT_DATA      0x1c
#define EV_SAS_DISCOVERY        0x0016
#define EV_SAS_TOPOLOGY_CHANGE_LIST 0x001c
#define EV_SAS_ENCL_DEVICE_STATUS_CHANGE 0x001d

/* SAS discovery event data (Mpi2EventDataSasDiscovery_t) */
#define EVDISC_SIZE             0x08
#define EVDISC_FLAGS            0x00
#define EVDISC_REASON_CODE      0x01
#define EVDISC_FLAGS_IN_PROGRESS 0x01
#define EVDISC_RC_STARTED       0x01
#define EVDISC_RC_COMPLETED     0x02

/* Enclosure device status change (Mpi2EventDataSasEnclDevStatusChange_t) */
#define EVENCL_SIZE             0x14
#define EVENCL_ENCLOSURE_HANDLE 0x00
#define EVENCL_REASON_CODE      0x02
#define EVENCL_ENCLOSURE_LOGICAL_ID 0x04
#define EVENCL_NUM_SLOTS        0x0c
#define EVENCL_PHY_BITS         0x10
#define EVENCL_RC_ADDED         0x01

/* SAS expander page 0 (Mpi2ExpanderPage0_t) */
#define EXPP0_SIZE              0x3c
#define EXPP0_PHYSICAL_PORT     0x08
#define EXPP0_ENCLOSURE_HANDLE  0x0a
#define EXPP0_SAS_ADDRESS       0x0c
#define EXPP0_DEV_HANDLE        0x18
#define EXPP0_PARENT_DEV_HANDLE 0x1a
#define EXPP0_NUM_PHYS          0x20

/* SAS expander page 1, one phy (Mpi2ExpanderPage1_t) */
#define EXPP1_SIZE              0x2c
#define EXPP1_PHYSICAL_PORT     0x08
#define EXPP1_NUM_PHYS          0x0c
#define EXPP1_PHY               0x0d
#define EXPP1_PROGRAMMED_LINK_RATE 0x10
#define EXPP1_HW_LINK_RATE      0x11
#define EXPP1_ATTACHED_DEV_HANDLE 0x12
#define EXPP1_ATTACHED_DEVICE_INFO 0x18
#define EXPP1_EXPANDER_DEV_HANDLE 0x1c
#define EXPP1_NEGOTIATED_LINK_RATE 0x1f
#define EXPP1_PHY_IDENTIFIER    0x20
#define EXPP1_ATTACHED_PHY_IDENTIFIER 0x21

/* SMP passthrough (Mpi2SmpPassthroughRequest_t, ..Reply_t) */
#define SMPPT_SAS_ADDRESS       0x10
#define SMPPT_SGL               0x20
#define SMPPT_RESPONSE_DATA_LENGTH 0x04 /* reply */
#define SMPPT_REPLY_SIZE        0x1c
/* SMP frames (SAS-2): REPORT MANUFACTURER INFORMATION, its response */
#define SMP_FRAME_REQUEST       0x40
#define SMP_FRAME_RESPONSE      0x41
#define SMP_FN_REPORT_MANUFACTURER_INFO 0x01
#define SMP_RESULT_ACCEPTED     0x00
#define SMP_RESULT_UNKNOWN_FUNCTION 0x01
#define SMP_RMI_LENGTH          60      /* without the CRC, as mpt3sas reads it */
#define SMP_RMI_RESPONSE_LENGTH 3       /* byte 3: dwords after the header */
#define SMP_RMI_VENDOR          12
#define SMP_RMI_PRODUCT         20
#define SMP_RMI_REVISION        36

/* Topology change list (Mpi2EventDataSasTopologyChangeList_t) */
#define EVTOPO_ENCLOSURE_HANDLE 0x00
#define EVTOPO_EXPANDER_DEV_HANDLE 0x02
#define EVTOPO_NUM_PHYS         0x04
#define EVTOPO_NUM_ENTRIES      0x08
#define EVTOPO_START_PHY_NUM    0x09
#define EVTOPO_EXP_STATUS       0x0a
#define EVTOPO_PHYSICAL_PORT    0x0b
#define EVTOPO_PHY              0x0c
#define EVTOPO_PHY_SIZE         4
#define EVTOPO_PHY_ATTACHED_DEV_HANDLE 0x00
#define EVTOPO_PHY_LINK_RATE    0x02
#define EVTOPO_PHY_STATUS       0x03
#define EVTOPO_PHYSTATUS_VACANT 0x80
#define EVTOPO_RC_TARG_ADDED    0x01
#define EVTOPO_RC_NO_CHANGE     0x04
#define EVTOPO_ES_ADDED         0x01

/* SAS device info bits and link rates */
#define DEVINFO_SSP_TARGET      0x00000400
#define DEVINFO_SSP_INITIATOR   0x00000040
#define DEVINFO_STP_INITIATOR   0x00000020
#define DEVINFO_SMP_INITIATOR   0x00000010
#define DEVINFO_DIRECT_ATTACH   0x00000800
#define DEVINFO_SMP_TARGET      0x00000100
#define DEVINFO_EDGE_EXPANDER   0x00000002
#define DEVINFO_END_DEVICE      0x00000001
#define LINK_RATE_1_5           0x08
#define LINK_RATE_12_0          0x0b
#define LINK_RATE_SHIFT         4       /* the upper nibble: max or new */

#endif
