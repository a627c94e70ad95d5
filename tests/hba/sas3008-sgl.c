/*
 * Emulated LSI SAS3008: scatter gather lists.  IEEE SGLs with chain
 * elements (MPI 2.5), MPI 2.0 SGLs of simple and chain elements (the SAS2
 * chips and the mcpu endpoint), and the memory of the mcpu BAR they may
 * point into.
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "sas3008.h"

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

/**
 * sas3008_ieee_sgl: walk an IEEE SGL that starts at @off in the request
 * frame @frame and may continue in chain segments in guest memory; add its
 * simple elements to @qsg.  Returns an IOCStatus.
 * @s: the HBA
 * @frame: the request frame
 * @frame_len: its size
 * @off: where the SGL starts in it
 * @qsg: the list to add to
 * @nchains: the number of chain segments, set
 */
uint16_t sas3008_ieee_sgl(SAS3008State *s, const uint8_t *frame,
                          uint32_t frame_len, uint32_t off, QEMUSGList *qsg,
                          uint32_t *nchains)
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

/**
 * sas3008_mpi_sge: decode one MPI (not IEEE) simple element, as config
 * requests carry; false if @sge is no simple element.
 * @sge: the element
 * @addr: its address, set
 * @len: its length, set
 * @to_ioc: its direction, set
 */
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

/**
 * sas3008_qsg_in_bar_ram: does every element of @qsg lie in the RAM of the
 * mcpu BAR?
 * @s: the HBA
 * @qsg: the list
 */
bool sas3008_qsg_in_bar_ram(SAS3008State *s, QEMUSGList *qsg)
{
    int i;

    for (i = 0; i < qsg->nsg; i++) {
        if (!sas3008_in_bar_ram(s, qsg->sg[i].base, qsg->sg[i].len)) {
            return false;
        }
    }
    return qsg->nsg > 0;
}

/**
 * sas3008_mpi_sgl: walk an MPI 2.0 SGL of simple and chain elements, 32- or
 * 64-bit each (Mpi2SGESimple32/64, Mpi2SGEChain32/64), that starts at @off
 * in the request frame @frame: a chain element must sit where the frame's
 * ChainOffset, then the previous chain's NextChainOffset, says (in dwords);
 * its Length is the size of the next segment, at most a request frame (MPI
 * 2.0 chain segments are frame sized).  The list must end with END_OF_LIST.
 * Returns an IOCStatus.
 * @s: the HBA
 * @frame: the request frame
 * @frame_len: its size
 * @off: where the SGL starts in it
 * @qsg: the list to add the simple elements to
 * @st: the elements by kind, set
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

/**
 * sas3008_sgl_copy: copy @len bytes between @buf and the memory @qsg
 * describes.
 * @s: the HBA
 * @qsg: the guest's buffer
 * @buf: ours
 * @len: how much
 * @to_guest: the direction
 */
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
