// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe: struct blk_mq_queue_map, blk_mq_tag_set.map[HCTX_TYPE_*]
 *
 * HAVE_BLK_MQ_QUEUE_MAP: a tag set holds one CPU-to-queue map per
 * hardware context type (default, read, poll) and blk_mq_map_queues()
 * fills one of them.  Added in v5.0 by ed76e329d74a ("blk-mq: abstract out
 * queue map") and "blk-mq: support multiple hctx maps" (Jens Axboe); until
 * v4.20 a tag set had a single mq_map and .map_queues callbacks got the
 * whole struct blk_mq_tag_set.  Without it the driver leaves .map_queues
 * unset: it runs one hardware queue there (no shost->host_tagset before
 * v5.10), which the midlayer's default map covers.
 *
 * Since: v5.0 (ed76e329d74a)
 */
#include <linux/blk-mq.h>

static void __maybe_unused probe(struct blk_mq_tag_set *set)
{
	struct blk_mq_queue_map *map = &set->map[HCTX_TYPE_POLL];

	map->queue_offset = set->nr_maps;
	blk_mq_map_queues(map);
}
