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

static void test_geometry_values(void **state)
{
	struct chainpool_plan plan;

	(void)state;
	/* The mpt3sas chain pool. */
	plan = make_plan(128, 0, 0, 0);
	CHECK_EQ(plan.align, 16);
	CHECK_EQ(plan.stride, 128);
	CHECK_EQ(plan.min_order, 0);
	CHECK_EQ(plan.max_order, 5);
	CHECK_EQ(chainpool_plan_segment(&plan, 5), PAGE);
	CHECK_EQ(chainpool_plan_blocks_per_segment(&plan, 5), 32);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 5), 1024);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 0), 32);

	/* Stride not a power of two: 36 blocks of 112 bytes per page. */
	plan = make_plan(100, 16, 0, 0);
	CHECK_EQ(plan.stride, 112);
	CHECK_EQ(chainpool_plan_blocks_per_segment(&plan, 0), 36);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 3), 8 * 36);

	/* Tiny block: the free link needs 16 bytes. */
	plan = make_plan(1, 0, 0, 0);
	CHECK_EQ(plan.stride, 16);
	CHECK_EQ(plan.footprint, 16);
	CHECK_EQ(chainpool_plan_blocks_per_segment(&plan, 0), 256);

	/* Page-sized blocks need no page segments. */
	plan = make_plan(4096, 4096, 0, 0);
	CHECK_EQ(chainpool_plan_segment(&plan, 5), 128 << 10);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 5), 32);

	/* Boundary cuts a slab into boundary-sized segments. */
	plan = make_plan(4096, 16, 65536, 0);
	CHECK_EQ(chainpool_plan_segment(&plan, 5), 65536);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 5), 32);
	plan = make_plan(24, 16, 1024, 0);
	CHECK_EQ(plan.stride, 32);
	CHECK_EQ(chainpool_plan_segment(&plan, 5), 1024);
	CHECK_EQ(chainpool_plan_blocks_per_segment(&plan, 5), 32);
	plan = make_plan(1000, 16, 1024, 0);
	CHECK_EQ(chainpool_plan_blocks_per_segment(&plan, 0), 1);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 0), 4);

	/* Alignment above the boundary: one block per aligned slot. */
	plan = make_plan(100, 512, 128, 0);
	CHECK_EQ(plan.stride, 512);
	CHECK_EQ(chainpool_plan_segment(&plan, 0), 512);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 0), 8);

	/* Blocks above a page: dma_pool's allocation rounded to pages. */
	plan = make_plan(5000, 16, 0, 0);
	CHECK_EQ(plan.stride, 5008);
	CHECK_EQ(plan.min_order, 1);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 1), 1);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 5), 26);
	plan = make_plan(1 << 20, 16, 0, 0);
	CHECK_EQ(plan.min_order, 8);
	CHECK_EQ(plan.max_order, 8);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 8), 1);
}

static void test_slab_cap(void **state)
{
	struct chainpool_plan plan;

	(void)state;
	plan = make_plan(128, 0, 0, 100 << 10);
	CHECK_EQ(plan.max_order, 4);		/* rounded down to 64 KiB */
	plan = make_plan(128, 0, 0, 1024);
	CHECK_EQ(plan.max_order, 0);		/* raised to a page */
	plan = make_plan(128, 0, 0, 4096ULL << 10);
	CHECK_EQ(plan.max_order, 10);
	plan = make_plan(16384, 0, 0, 4096);
	CHECK_EQ(plan.min_order, 2);		/* raised to one block */
	CHECK_EQ(plan.max_order, 2);
}

static void test_order_for(void **state)
{
	struct chainpool_plan plan = make_plan(128, 0, 0, 0);

	(void)state;
	CHECK_EQ(chainpool_plan_order_for(&plan, 1), 0);
	CHECK_EQ(chainpool_plan_order_for(&plan, 32), 0);
	CHECK_EQ(chainpool_plan_order_for(&plan, 33), 1);
	CHECK_EQ(chainpool_plan_order_for(&plan, 199), 3);
	CHECK_EQ(chainpool_plan_order_for(&plan, 1024), 5);
	CHECK_EQ(chainpool_plan_order_for(&plan, 373959), 5);
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

static void test_slab_fits(void **state)
{
	struct chainpool_plan plan = make_plan(128, 0, 0, 0);
	static char buf[32] __aligned(16);

	(void)state;
	/* 128 KiB slab: needs page alignment and no 4 GiB crossing. */
	CHECK(chainpool_plan_slab_fits(&plan, 5, buf, 0x100000000ULL));
	CHECK(chainpool_plan_slab_fits(&plan, 5, buf, 0xfffe0000ULL));
	CHECK(chainpool_plan_slab_fits(&plan, 5, buf, 0x12345000ULL));
	CHECK(!chainpool_plan_slab_fits(&plan, 5, buf, 0xffff0000ULL));
	CHECK(!chainpool_plan_slab_fits(&plan, 5, buf, 0x12345200ULL));
	CHECK(!chainpool_plan_slab_fits(&plan, 5, buf + 8, 0x12345000ULL));
	CHECK(!chainpool_plan_slab_fits(&plan, 5, buf, 0xfffffffffffff000ULL));
	CHECK(chainpool_plan_slab_fits(&plan, 0, buf, 0xfffff000ULL));

	/*
	 * Page-sized blocks fill one segment, the whole slab: page
	 * alignment is all they need, not natural alignment.
	 */
	plan = make_plan(4096, 4096, 0, 0);
	CHECK_EQ(chainpool_plan_segment(&plan, 5), 32 * PAGE);
	CHECK(chainpool_plan_slab_fits(&plan, 5, buf, 0x12345000ULL));
	CHECK(chainpool_plan_slab_fits(&plan, 5, buf, 0x12340000ULL));
	CHECK(!chainpool_plan_slab_fits(&plan, 5, buf, 0x12345800ULL));
	CHECK(!chainpool_plan_slab_fits(&plan, 5, buf, 0xffff1000ULL));

	/* A larger alignment is still required. */
	plan = make_plan(8192, 8192, 0, 0);
	CHECK(!chainpool_plan_slab_fits(&plan, 4, buf, 0x12345000ULL));
	CHECK(chainpool_plan_slab_fits(&plan, 4, buf, 0x12346000ULL));

	/*
	 * The mpt3sas reply pool (about 1.3 MB in one block): one slab of
	 * whole pages, at a page-aligned address that CMA may hand out
	 * (1 MiB aligned, not 2 MiB).
	 */
	plan = make_plan(1310720 + 512, 4, 0, 0);
	CHECK_EQ(chainpool_plan_slab_bytes(&plan, plan.min_order),
		 1310720 + PAGE);
	CHECK_EQ(plan.max_order, plan.min_order);
	CHECK(chainpool_plan_slab_fits(&plan, plan.min_order, buf,
				       0x12300000ULL));
	CHECK(chainpool_plan_slab_fits(&plan, plan.min_order, buf,
				       0x12345000ULL));
	CHECK(!chainpool_plan_slab_fits(&plan, plan.min_order, buf,
					0xfff00000ULL));

	/* A boundary line may not fall inside a one-segment slab. */
	plan = make_plan(9000, 0, 16384, 0);
	CHECK_EQ(chainpool_plan_slab_bytes(&plan, plan.min_order), 3 * PAGE);
	CHECK(chainpool_plan_slab_fits(&plan, plan.min_order, buf,
				       0x12344000ULL));
	CHECK(chainpool_plan_slab_fits(&plan, plan.min_order, buf,
				       0x12345000ULL));
	CHECK(!chainpool_plan_slab_fits(&plan, plan.min_order, buf,
					0x12346000ULL));
}

/* Blocks larger than a page take whole pages, not a power of two. */
static void test_large_blocks(void **state)
{
	struct chainpool_plan plan;
	u32 index;

	(void)state;
	/* A 2.5 MB RDPQ chunk: 640 pages, one block, order of 4 MiB. */
	plan = make_plan(2621440, 16, 0, 0);
	CHECK_EQ(plan.min_order, 10);
	CHECK_EQ(plan.max_order, 10);
	CHECK_EQ(chainpool_plan_slab_bytes(&plan, 10), 2621440);
	CHECK_EQ(chainpool_plan_segment(&plan, 10), 2621440);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 10), 1);
	CHECK_EQ(chainpool_plan_order_for(&plan, 1), 10);
	CHECK_EQ(chainpool_plan_offset_to_index(&plan, 10, 0, &index), 0);
	CHECK_EQ(index, 0);
	CHECK_EQ(chainpool_plan_offset_to_index(&plan, 10, 16, &index),
		 -EINVAL);

	/* 12 KiB blocks: a 12 KiB smallest slab, larger ones hold more. */
	plan = make_plan(12288, 0, 0, 0);
	CHECK_EQ(plan.min_order, 2);
	CHECK_EQ(plan.max_order, 5);
	CHECK_EQ(chainpool_plan_slab_bytes(&plan, 2), 12288);
	CHECK_EQ(chainpool_plan_slab_bytes(&plan, 3), 32768);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 2), 1);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 3), 2);
	CHECK_EQ(chainpool_plan_blocks_per_slab(&plan, 5), 10);
	CHECK_EQ(chainpool_plan_offset_to_index(&plan, 5, 9 * 12288, &index),
		 0);
	CHECK_EQ(index, 9);
	CHECK_EQ(chainpool_plan_offset_to_index(&plan, 5, 10 * 12288,
						&index), -EINVAL);

	/* A cap below one block still allows the one-block slab. */
	plan = make_plan(12288, 0, 0, 8192);
	CHECK_EQ(plan.max_order, plan.min_order);
	plan = make_plan(128, 0, 0, 1024);
	CHECK_EQ(plan.max_order, 0);
}

static void test_fault_hit(void **state)
{
	struct chainpool_fault fault = { .fail_at = 3 };
	struct chainpool_fault off = { 0 };

	(void)state;
	CHECK(!chainpool_fault_hit(&fault));
	CHECK(!chainpool_fault_hit(&fault));
	CHECK(chainpool_fault_hit(&fault));
	CHECK(!chainpool_fault_hit(&fault));
	CHECK(!chainpool_fault_hit(&off));
	CHECK(!chainpool_fault_hit(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invalid_params),
		cmocka_unit_test(test_geometry_values),
		cmocka_unit_test(test_slab_cap),
		cmocka_unit_test(test_order_for),
		cmocka_unit_test(test_index_roundtrip),
		cmocka_unit_test(test_slab_fits),
		cmocka_unit_test(test_large_blocks),
		cmocka_unit_test(test_fault_hit),
	};

	return cmocka_run_group_tests_name("chainpool_plan", tests, NULL, NULL);
}
