// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: blk_mq_pci_map_queues() in <linux/blk-mq-pci.h>
 *
 * HAVE_BLK_MQ_PCI_MAP_QUEUES: PCI queue mapping helper (v4.10, taking a
 * struct blk_mq_queue_map since v5.0).  Removed with <linux/blk-mq-pci.h>
 * after blk_mq_map_hw_queues() replaced it (v6.14/v6.15, "blk-mq: remove
 * unused queue mapping helpers", Daniel Wagner).
 */
#include <linux/blk-mq.h>
#include <linux/blk-mq-pci.h>

static void __maybe_unused probe(struct blk_mq_queue_map *map,
				 struct pci_dev *pdev)
{
	blk_mq_pci_map_queues(map, pdev, 0);
}
