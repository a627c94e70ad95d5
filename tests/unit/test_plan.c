// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the chainpool geometry: plan, segments, index math.
 */
#include "chainpool_core.h"
#include "test_common.h"

#define PAGE 4096U

char test_case[160] = "plan";

static struct chainpool_plan make_plan(size_t size, size_t align,
				       size_t boundary, u64 cap)
{
	struct chainpool_plan plan;

	snprintf(test_case, sizeof(test_case),
		 "size %zu align %zu boundary %zu cap %llu", size, align,
		 boundary, (unsigned long long)cap);
	CHECK_EQ(chainpool_plan_init(&plan, size, align, boundary, PAGE, cap),
		 0);
	return plan;
}

static void test_invalid_params(void **state)
{
	struct chainpool_plan plan;

	(void)state;
	assert_int_equal(chainpool_plan_init(&plan, 0, 0, 0, PAGE, 0), -EINVAL);
	assert_int_equal(chainpool_plan_init(&plan, 128, 3, 0, PAGE, 0), -EINVAL);
	assert_int_equal(chainpool_plan_init(&plan, 128, 48, 0, PAGE, 0), -EINVAL);
	assert_int_equal(chainpool_plan_init(&plan, 128, 0, 100, PAGE, 0), -EINVAL);
	assert_int_equal(chainpool_plan_init(&plan, 128, 0, 64, PAGE, 0), -EINVAL);
	assert_int_equal(chainpool_plan_init(&plan, 128, 0, 0, 0, 0), -EINVAL);
	assert_int_equal(chainpool_plan_init(&plan, 128, 0, 0, 3000, 0), -EINVAL);
	assert_int_equal(chainpool_plan_init(&plan, (1U << 30) + 1, 0, 0, PAGE, 0),
			 -EINVAL);
	/* Valid corner cases. */
	assert_int_equal(chainpool_plan_init(&plan, 1, 1, 1, PAGE, 0), 0);
	assert_int_equal(chainpool_plan_init(&plan, 128, 0, 128, PAGE, 0), 0);
}

/* What a geometry row checks of a plan; its arg is an order or a count. */
enum plan_what {
	P_ALIGN,
	P_STRIDE,
	P_FOOTPRINT,
	P_MIN_ORDER,
	P_MAX_ORDER,
	P_ORDER_SPAN,		/* max_order - min_order */
	P_SLAB_BYTES,		/* chainpool_plan_slab_bytes(arg) */
	P_SEGMENT,		/* chainpool_plan_segment(arg) */
	P_PER_SEGMENT,		/* chainpool_plan_blocks_per_segment(arg) */
	P_PER_SLAB,		/* chainpool_plan_blocks_per_slab(arg) */
	P_ORDER_FOR,		/* chainpool_plan_order_for(arg blocks) */
};

static const char *const plan_what_names[] = {
	[P_ALIGN] = "align",
	[P_STRIDE] = "stride",
	[P_FOOTPRINT] = "footprint",
	[P_MIN_ORDER] = "min_order",
	[P_MAX_ORDER] = "max_order",
	[P_ORDER_SPAN] = "max_order - min_order",
	[P_SLAB_BYTES] = "slab_bytes",
	[P_SEGMENT] = "segment",
	[P_PER_SEGMENT] = "blocks_per_segment",
	[P_PER_SLAB] = "blocks_per_slab",
	[P_ORDER_FOR] = "order_for",
};

/* An order argument that stands for the plan's min_order. */
#define MIN_ORDER ~0ULL

static long long plan_value(const struct chainpool_plan *plan,
			    enum plan_what what, unsigned long long arg)
{
	unsigned int order = arg == MIN_ORDER ? plan->min_order : arg;

	switch (what) {
	case P_ALIGN:
		return plan->align;
	case P_STRIDE:
		return plan->stride;
	case P_FOOTPRINT:
		return plan->footprint;
	case P_MIN_ORDER:
		return plan->min_order;
	case P_MAX_ORDER:
		return plan->max_order;
	case P_ORDER_SPAN:
		return (long long)plan->max_order - plan->min_order;
	case P_SLAB_BYTES:
		return chainpool_plan_slab_bytes(plan, order);
	case P_SEGMENT:
		return chainpool_plan_segment(plan, order);
	case P_PER_SEGMENT:
		return chainpool_plan_blocks_per_segment(plan, order);
	case P_PER_SLAB:
		return chainpool_plan_blocks_per_slab(plan, order);
	case P_ORDER_FOR:
		return chainpool_plan_order_for(plan, arg);
	}
	fail_msg("plan_value: unknown what %d", what);
	return -1;
}

/* One value of the plan of a block size, alignment, boundary and cap. */
static const struct geometry_row {
	size_t size, align, boundary;
	unsigned long long cap;
	enum plan_what what;
	unsigned long long arg;
	long long want;
} geometry[] = {
	/* The mpt3sas chain pool. */
	{ 128, 0, 0, 0, P_ALIGN, 0, 16 },
	{ 128, 0, 0, 0, P_STRIDE, 0, 128 },
	{ 128, 0, 0, 0, P_MIN_ORDER, 0, 0 },
	{ 128, 0, 0, 0, P_MAX_ORDER, 0, 5 },
	{ 128, 0, 0, 0, P_SEGMENT, 5, PAGE },
	{ 128, 0, 0, 0, P_PER_SEGMENT, 5, 32 },
	{ 128, 0, 0, 0, P_PER_SLAB, 5, 1024 },
	{ 128, 0, 0, 0, P_PER_SLAB, 0, 32 },
	/* Stride not a power of two: 36 blocks of 112 bytes per page. */
	{ 100, 16, 0, 0, P_STRIDE, 0, 112 },
	{ 100, 16, 0, 0, P_PER_SEGMENT, 0, 36 },
	{ 100, 16, 0, 0, P_PER_SLAB, 3, 8 * 36 },
	/* Tiny block: the free link needs 16 bytes. */
	{ 1, 0, 0, 0, P_STRIDE, 0, 16 },
	{ 1, 0, 0, 0, P_FOOTPRINT, 0, 16 },
	{ 1, 0, 0, 0, P_PER_SEGMENT, 0, 256 },
	/*
	 * Page-sized blocks need no page segments: they fill one segment,
	 * the whole slab.
	 */
	{ 4096, 4096, 0, 0, P_SEGMENT, 5, 128 << 10 },
	{ 4096, 4096, 0, 0, P_PER_SLAB, 5, 32 },
	{ 4096, 4096, 0, 0, P_SEGMENT, 5, 32 * PAGE },
	/* Boundary cuts a slab into boundary-sized segments. */
	{ 4096, 16, 65536, 0, P_SEGMENT, 5, 65536 },
	{ 4096, 16, 65536, 0, P_PER_SLAB, 5, 32 },
	{ 24, 16, 1024, 0, P_STRIDE, 0, 32 },
	{ 24, 16, 1024, 0, P_SEGMENT, 5, 1024 },
	{ 24, 16, 1024, 0, P_PER_SEGMENT, 5, 32 },
	{ 1000, 16, 1024, 0, P_PER_SEGMENT, 0, 1 },
	{ 1000, 16, 1024, 0, P_PER_SLAB, 0, 4 },
	/* Alignment above the boundary: one block per aligned slot. */
	{ 100, 512, 128, 0, P_STRIDE, 0, 512 },
	{ 100, 512, 128, 0, P_SEGMENT, 0, 512 },
	{ 100, 512, 128, 0, P_PER_SLAB, 0, 8 },
	/* Blocks above a page: dma_pool's allocation rounded to pages. */
	{ 5000, 16, 0, 0, P_STRIDE, 0, 5008 },
	{ 5000, 16, 0, 0, P_MIN_ORDER, 0, 1 },
	{ 5000, 16, 0, 0, P_PER_SLAB, 1, 1 },
	{ 5000, 16, 0, 0, P_PER_SLAB, 5, 26 },
	{ 1 << 20, 16, 0, 0, P_MIN_ORDER, 0, 8 },
	{ 1 << 20, 16, 0, 0, P_MAX_ORDER, 0, 8 },
	{ 1 << 20, 16, 0, 0, P_PER_SLAB, 8, 1 },
	/* The slab cap: rounded down to 64 KiB, raised to a page. */
	{ 128, 0, 0, 100 << 10, P_MAX_ORDER, 0, 4 },
	{ 128, 0, 0, 1024, P_MAX_ORDER, 0, 0 },
	{ 128, 0, 0, 4096ULL << 10, P_MAX_ORDER, 0, 10 },
	/* A cap below one block still allows the one-block slab. */
	{ 16384, 0, 0, 4096, P_MIN_ORDER, 0, 2 },
	{ 16384, 0, 0, 4096, P_MAX_ORDER, 0, 2 },
	{ 12288, 0, 0, 8192, P_ORDER_SPAN, 0, 0 },
	/* The order a fill of so many blocks starts with. */
	{ 128, 0, 0, 0, P_ORDER_FOR, 1, 0 },
	{ 128, 0, 0, 0, P_ORDER_FOR, 32, 0 },
	{ 128, 0, 0, 0, P_ORDER_FOR, 33, 1 },
	{ 128, 0, 0, 0, P_ORDER_FOR, 199, 3 },
	{ 128, 0, 0, 0, P_ORDER_FOR, 1024, 5 },
	{ 128, 0, 0, 0, P_ORDER_FOR, 373959, 5 },
	/*
	 * Blocks larger than a page take whole pages, not a power of two.
	 * A 2.5 MB RDPQ chunk: 640 pages, one block, order of 4 MiB.
	 */
	{ 2621440, 16, 0, 0, P_MIN_ORDER, 0, 10 },
	{ 2621440, 16, 0, 0, P_MAX_ORDER, 0, 10 },
	{ 2621440, 16, 0, 0, P_SLAB_BYTES, 10, 2621440 },
	{ 2621440, 16, 0, 0, P_SEGMENT, 10, 2621440 },
	{ 2621440, 16, 0, 0, P_PER_SLAB, 10, 1 },
	{ 2621440, 16, 0, 0, P_ORDER_FOR, 1, 10 },
	/* 12 KiB blocks: a 12 KiB smallest slab, larger ones hold more. */
	{ 12288, 0, 0, 0, P_MIN_ORDER, 0, 2 },
	{ 12288, 0, 0, 0, P_MAX_ORDER, 0, 5 },
	{ 12288, 0, 0, 0, P_SLAB_BYTES, 2, 12288 },
	{ 12288, 0, 0, 0, P_SLAB_BYTES, 3, 32768 },
	{ 12288, 0, 0, 0, P_PER_SLAB, 2, 1 },
	{ 12288, 0, 0, 0, P_PER_SLAB, 3, 2 },
	{ 12288, 0, 0, 0, P_PER_SLAB, 5, 10 },
	/*
	 * The mpt3sas reply pool (about 1.3 MB in one block): one slab of
	 * whole pages.
	 */
	{ 1310720 + 512, 4, 0, 0, P_SLAB_BYTES, MIN_ORDER, 1310720 + PAGE },
	{ 1310720 + 512, 4, 0, 0, P_ORDER_SPAN, 0, 0 },
	/* A boundary line may not fall inside a one-segment slab. */
	{ 9000, 0, 16384, 0, P_SLAB_BYTES, MIN_ORDER, 3 * PAGE },
};

static void test_geometry_values(void **state)
{
	const struct geometry_row *r;
	struct chainpool_plan plan;
	size_t len;

	(void)state;
	for (r = geometry; r < geometry + ARRAY_SIZE(geometry); r++) {
		plan = make_plan(r->size, r->align, r->boundary, r->cap);
		len = strlen(test_case);
		snprintf(test_case + len, sizeof(test_case) - len, ": %s(%lld)",
			 plan_what_names[r->what],
			 r->arg == MIN_ORDER ? -1LL : (long long)r->arg);
		CHECK_EQ(plan_value(&plan, r->what, r->arg), r->want);
	}
}

/* Every index of a slab maps to an offset and back; nothing else maps. */
static void check_slab_indexes(const struct chainpool_plan *plan,
			       unsigned int order)
{
	u32 n = chainpool_plan_blocks_per_slab(plan, order);
	u32 bytes = chainpool_plan_slab_bytes(plan, order);
	u32 i, off, idx, hits = 0;

	CHECK(n > 0);
	for (i = 0; i < n; i++) {
		off = chainpool_plan_block_offset(plan, order, i);
		CHECK(off + plan->size <= bytes);
		CHECK_EQ(chainpool_plan_offset_to_index(plan, order, off, &idx),
			 0);
		CHECK_EQ(idx, i);
	}
	for (off = 0; off < bytes + 64; off++)
		if (!chainpool_plan_offset_to_index(plan, order, off, &idx))
			hits++;
	CHECK_EQ(hits, n);
}

static void test_index_roundtrip(void **state)
{
	static const size_t sizes[] = { 1, 16, 24, 100, 128, 1000, 4096, 5000 };
	static const size_t aligns[] = { 0, 64, 512 };
	static const size_t boundaries[] = { 0, 1024, 8192 };
	struct chainpool_plan plan;
	unsigned int s, a, b, order;

	(void)state;
	for (s = 0; s < ARRAY_SIZE(sizes); s++)
		for (a = 0; a < ARRAY_SIZE(aligns); a++)
			for (b = 0; b < ARRAY_SIZE(boundaries); b++) {
				if (boundaries[b] && boundaries[b] < sizes[s])
					continue;
				plan = make_plan(sizes[s], aligns[a],
						 boundaries[b], 64 << 10);
				for (order = plan.min_order;
				     order <= plan.max_order; order++)
					check_slab_indexes(&plan, order);
			}
}

/* Whether a slab of @order at @cpu (buf + buf_off) and @dma fits. */
static const struct fits_row {
	size_t size, align, boundary;
	unsigned long long order;
	unsigned int buf_off;
	unsigned long long dma;
	bool fits;
} slab_fits[] = {
	/* 128 KiB slab: needs page alignment and no 4 GiB crossing. */
	{ 128, 0, 0, 5, 0, 0x100000000ULL, true },
	{ 128, 0, 0, 5, 0, 0xfffe0000ULL, true },
	{ 128, 0, 0, 5, 0, 0x12345000ULL, true },
	{ 128, 0, 0, 5, 0, 0xffff0000ULL, false },
	{ 128, 0, 0, 5, 0, 0x12345200ULL, false },
	{ 128, 0, 0, 5, 8, 0x12345000ULL, false },
	{ 128, 0, 0, 5, 0, 0xfffffffffffff000ULL, false },
	{ 128, 0, 0, 0, 0, 0xfffff000ULL, true },
	/*
	 * Page-sized blocks fill one segment, the whole slab: page
	 * alignment is all they need, not natural alignment.
	 */
	{ 4096, 4096, 0, 5, 0, 0x12345000ULL, true },
	{ 4096, 4096, 0, 5, 0, 0x12340000ULL, true },
	{ 4096, 4096, 0, 5, 0, 0x12345800ULL, false },
	{ 4096, 4096, 0, 5, 0, 0xffff1000ULL, false },
	/* A larger alignment is still required. */
	{ 8192, 8192, 0, 4, 0, 0x12345000ULL, false },
	{ 8192, 8192, 0, 4, 0, 0x12346000ULL, true },
	/*
	 * The mpt3sas reply pool's one slab, at a page-aligned address
	 * that CMA may hand out (1 MiB aligned, not 2 MiB).
	 */
	{ 1310720 + 512, 4, 0, MIN_ORDER, 0, 0x12300000ULL, true },
	{ 1310720 + 512, 4, 0, MIN_ORDER, 0, 0x12345000ULL, true },
	{ 1310720 + 512, 4, 0, MIN_ORDER, 0, 0xfff00000ULL, false },
	/* A boundary line may not fall inside a one-segment slab. */
	{ 9000, 0, 16384, MIN_ORDER, 0, 0x12344000ULL, true },
	{ 9000, 0, 16384, MIN_ORDER, 0, 0x12345000ULL, true },
	{ 9000, 0, 16384, MIN_ORDER, 0, 0x12346000ULL, false },
};

static void test_slab_fits(void **state)
{
	static char buf[32] __aligned(16);
	const struct fits_row *r;
	struct chainpool_plan plan;
	unsigned int order;
	size_t len;

	(void)state;
	for (r = slab_fits; r < slab_fits + ARRAY_SIZE(slab_fits); r++) {
		plan = make_plan(r->size, r->align, r->boundary, 0);
		order = r->order == MIN_ORDER ? plan.min_order : r->order;
		len = strlen(test_case);
		snprintf(test_case + len, sizeof(test_case) - len,
			 ": order %u at buf + %u, dma 0x%llx", order,
			 r->buf_off, r->dma);
		CHECK_EQ(chainpool_plan_slab_fits(&plan, order,
						  buf + r->buf_off, r->dma),
			 r->fits);
	}
}

/*
 * Blocks larger than a page: the one block of a 2.5 MB RDPQ chunk, and
 * the ten 12 KiB blocks of an order-5 slab, map to their index and back.
 */
static void test_large_blocks(void **state)
{
	struct chainpool_plan plan;
	u32 index;

	(void)state;
	plan = make_plan(2621440, 16, 0, 0);
	CHECK_EQ(chainpool_plan_offset_to_index(&plan, 10, 0, &index), 0);
	CHECK_EQ(index, 0);
	CHECK_EQ(chainpool_plan_offset_to_index(&plan, 10, 16, &index),
		 -EINVAL);

	plan = make_plan(12288, 0, 0, 0);
	CHECK_EQ(chainpool_plan_offset_to_index(&plan, 5, 9 * 12288, &index),
		 0);
	CHECK_EQ(index, 9);
	CHECK_EQ(chainpool_plan_offset_to_index(&plan, 5, 10 * 12288,
						&index), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invalid_params),
		cmocka_unit_test(test_geometry_values),
		cmocka_unit_test(test_index_roundtrip),
		cmocka_unit_test(test_slab_fits),
		cmocka_unit_test(test_large_blocks),
	};

	return cmocka_run_group_tests_name("chainpool_plan", tests, NULL, NULL);
}
