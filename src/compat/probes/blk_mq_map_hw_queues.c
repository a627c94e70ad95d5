// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: blk_mq_map_hw_queues()
 *
 * HAVE_BLK_MQ_MAP_HW_QUEUES: bus-independent queue mapping from a struct
 * device's IRQ affinity.  Added in v6.14 by 1452e9b470c9 ("blk-mq:
 * introduce blk_mq_map_hw_queues", Daniel Wagner) and backported to
 * 6.12.y (Debian's 6.12 has it); blk_mq_pci_map_queues() was later
 * removed.  Fallback (v5.0 on): blk_mq_pci_map_queues(map,
 * to_pci_dev(dev), offset); before v5.0 the driver maps no queues.
 *
 * Since: v6.14 (1452e9b470c9)
 */
#include <linux/blk-mq.h>

static void __maybe_unused probe(struct blk_mq_queue_map *map,
				 struct device *dev)
{
	blk_mq_map_hw_queues(map, dev, 0);
}
