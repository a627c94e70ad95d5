// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: blk_mq_pci_map_queues(struct blk_mq_queue_map *, pdev, offset)
 *
 * HAVE_BLK_MQ_PCI_MAP_QUEUES: PCI queue mapping helper of
 * <linux/blk-mq-pci.h>.  Added in v4.10 as (struct blk_mq_tag_set *,
 * pdev); the vector offset argument came in v4.17 with Keith Busch's
 * "blk-mq: Allow PCI vector offset for mapping queues" (v4.15 has the
 * two-argument form: HiSilicon backported that patch to their 4.15
 * tree); the first argument became a struct blk_mq_queue_map in v5.0
 * (ed76e329d74a, "blk-mq: abstract out queue map").  Removed after
 * blk_mq_map_hw_queues() replaced it (v6.14/v6.15, Daniel Wagner).
 * Before v5.0 the driver does not map queues itself (patch 0107).
 *
 * Since: v5.0 (ed76e329d74a)
 */
#include <linux/blk-mq.h>
#include <linux/blk-mq-pci.h>

static void __maybe_unused probe(struct blk_mq_queue_map *map,
				 struct pci_dev *pdev)
{
	blk_mq_pci_map_queues(map, pdev, 0);
}
