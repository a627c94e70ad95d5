/*
 * Emulated LSI SAS3008: not MPI, the hooks of the tests: lie=, stall_lba
 * and the counters in PCI config space (tests/hba/README.md).
 *
 * Copyright (c) mpt3sas-chainpool contributors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "scsi/constants.h"
#include "trace.h"
#include "sas3008.h"

/* The counters, in a vendor-specific capability the guest reads */
#define STAT_CAP                0xd0
#define STAT_CAP_LENGTH         2       /* the capability's length byte */
#define STAT_CAP_SIZE           36
#define STAT_IOS                (STAT_CAP + 4)
#define STAT_CHAINED_IOS        (STAT_CAP + 8)
#define STAT_MAX_CHAINS         (STAT_CAP + 12)
#define STAT_BAR_CHAINED_IOS    (STAT_CAP + 16)
#define STAT_MPI_SIMPLE32       (STAT_CAP + 20) /* Mpi2SGESimple32_t */
#define STAT_MPI_SIMPLE64       (STAT_CAP + 24) /* Mpi2SGESimple64_t */
#define STAT_MPI_CHAINS         (STAT_CAP + 28) /* Mpi2SGEChain32/64_t */
#define STAT_UNIT_ATTENTIONS    (STAT_CAP + 32) /* CHECK CONDITIONs of them */

#define CDB_LBA                 2       /* in READ(10) and READ(16) */

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

/* Take lie=, add the counters' capability. */
bool sas3008_test_realize(SAS3008State *s, Error **errp)
{
    for (s->lie = 0; s->lie_name; s->lie++) {
        if (s->lie == ARRAY_SIZE(sas3008_lies)) {
            error_setg(errp, "unknown lie %s", s->lie_name);
            return false;
        }
        if (!strcmp(s->lie_name, sas3008_lies[s->lie])) {
            break;
        }
    }
    if (pci_add_capability(&s->dev, PCI_CAP_ID_VNDR, STAT_CAP, STAT_CAP_SIZE,
                           errp) < 0) {
        return false;
    }
    s->dev.config[STAT_CAP + STAT_CAP_LENGTH] = STAT_CAP_SIZE;
    return true;
}

/*
 * Is this chance to commit @lie one the lie= property takes? After lie_after
 * chances, lie_count times (0: always).
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
    trace_sas3008_lie(sas3008_lies[lie], n + 1);
    return true;
}

/* Is @cdb the first READ(10)/READ(16) of stall_lba since IOC Init? */
bool sas3008_stall(SAS3008State *s, const uint8_t *cdb)
{
    uint64_t lba;

    if (s->stalled_once || s->stall_lba == UINT64_MAX) {
        return false;
    }
    if (cdb[0] == READ_10) {
        lba = ldl_be_p(cdb + CDB_LBA);
    } else if (cdb[0] == READ_16) {
        lba = ldq_be_p(cdb + CDB_LBA);
    } else {
        return false;
    }
    if (lba != s->stall_lba) {
        return false;
    }
    s->stalled_once = true;
    return true;
}

static void sas3008_stat_add(SAS3008State *s, uint32_t reg, uint32_t n)
{
    pci_set_long(s->dev.config + reg, pci_get_long(s->dev.config + reg) + n);
}

/* Count a SCSI IO request with @chains chain segments. */
void sas3008_count_io(SAS3008State *s, uint32_t chains,
                      const SAS3008SGLStats *st)
{
    sas3008_stat_add(s, STAT_IOS, 1);
    if (st) {
        sas3008_stat_add(s, STAT_MPI_SIMPLE32, st->simple32);
        sas3008_stat_add(s, STAT_MPI_SIMPLE64, st->simple64);
        sas3008_stat_add(s, STAT_MPI_CHAINS, st->chains);
    }
    if (!chains) {
        return;
    }
    sas3008_stat_add(s, STAT_CHAINED_IOS, 1);
    if (chains > pci_get_long(s->dev.config + STAT_MAX_CHAINS)) {
        pci_set_long(s->dev.config + STAT_MAX_CHAINS, chains);
    }
    if (st && st->bar_chains == chains) {
        /* every chain segment was the driver's clone in the BAR */
        sas3008_stat_add(s, STAT_BAR_CHAINED_IOS, 1);
    }
}

/* Count a unit attention a disk reported. */
void sas3008_count_unit_attention(SAS3008State *s)
{
    sas3008_stat_add(s, STAT_UNIT_ATTENTIONS, 1);
}
