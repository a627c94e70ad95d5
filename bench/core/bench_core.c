// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_core: native user-space micro-benchmark of chainpool.
 *
 * Builds src/chainpool/chainpool.c as it is, on the unit tests' stand-ins
 * of the kernel calls (tests/unit/kernel/): slabs from aligned_alloc(),
 * synthetic DMA addresses, a spinlock of one thread.  For each N it
 * times, in ns per block (median of the runs):
 *
 *   create        chainpool_create() and a bulk allocation of N blocks
 *                 (slab allocations and the slab arrays; the release and
 *                 destroy untimed)
 *   bulk_carve    chainpool_alloc_bulk() of N blocks of a filled pool
 *   release_all   chainpool_release_all() of those N blocks
 *   alloc_carve   N chainpool_alloc() on a released pool (bump cursor)
 *   free          N chainpool_free()
 *   alloc_list    N chainpool_alloc() from the free list
 *   *_mutex       alloc_carve and free with a pthread mutex taken and
 *                 released around each call: the cost of a real lock
 *   memset        memset() of the same N * size bytes: a floor
 *
 * Every result is checked (counts, the set of blocks handed out again); a wrong one makes it exit 1.  No time is ever judged.
 *
 *   bench_core [-n N[,N...]] [-r runs] [-s size] [-o results.json]
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "chainpool.c"
#include "cp_sink.h"

#define noinline __attribute__((noinline))

#define BC_MAX_N	16
#define BC_ALIGN	16U
#define BC_PAGE		4096U
/* Synthetic DMA addresses from 32 MiB below 4 GiB: larger pools cross it. */
#define BC_DMA_BASE	0xfe000000ULL

enum bc_op {
	BC_CREATE,
	BC_BULK,
	BC_RELEASE,
	BC_ALLOC_CARVE,
	BC_FREE,
	BC_ALLOC_LIST,
	BC_ALLOC_MUTEX,
	BC_FREE_MUTEX,
	BC_MEMSET,
	BC_NR_OPS
};

static const char *const bc_op_name[BC_NR_OPS] = {
	[BC_CREATE] = "create",
	[BC_BULK] = "bulk_carve",
	[BC_RELEASE] = "release_all",
	[BC_ALLOC_CARVE] = "alloc_carve",
	[BC_FREE] = "free",
	[BC_ALLOC_LIST] = "alloc_list",
	[BC_ALLOC_MUTEX] = "alloc_carve_mutex",
	[BC_FREE_MUTEX] = "free_mutex",
	[BC_MEMSET] = "memset",
};

/* Results of one N: medians in ns, and every sample. */
struct bc_result {
	u32 n;
	u32 nr_slabs;
	u64 dma_bytes;
	u64 median[BC_NR_OPS];
	u64 *samples[BC_NR_OPS];
};

static unsigned int bc_errors;
static size_t bc_size = 128;
static unsigned int bc_runs = 5;
static pthread_mutex_t bc_lock = PTHREAD_MUTEX_INITIALIZER;

static void bc_fail(const char *what, u32 n, u64 detail)
{
	if (bc_errors++ < 20)
		fprintf(stderr, "bench_core: FAIL n=%u: %s (%llu)\n", n, what,
			(unsigned long long)detail);
}

#define BC_CHECK(cond, n, detail)					\
	do {								\
		if (!(cond))						\
			bc_fail(#cond, n, (u64)(detail));		\
	} while (0)

static u64 bc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int bc_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 bc_median(const u64 *samples, unsigned int nr)
{
	u64 sorted[64];
	unsigned int i;

	for (i = 0; i < nr; i++)
		sorted[i] = samples[i];
	qsort(sorted, nr, sizeof(*sorted), bc_cmp_u64);
	return nr % 2 ? sorted[nr / 2] :
			(sorted[nr / 2 - 1] + sorted[nr / 2]) / 2;
}

/* Sum and xor of the DMA addresses: the same set of blocks, any order. */
static void bc_digest(const struct cp_block *blocks, u32 n, u64 *sum,
		      u64 *xor)
{
	u32 i;

	*sum = 0;
	*xor = 0;
	for (i = 0; i < n; i++) {
		*sum += blocks[i].dma;
		*xor ^= blocks[i].dma * 0x9e3779b97f4a7c15ULL;
	}
}

/* The same set of blocks as the one of @sum and @xor (bc_digest()). */
static void bc_check_digest(const struct cp_block *blocks, u32 n, u64 sum,
			    u64 xor)
{
	u64 sum2, xor2;

	bc_digest(blocks, n, &sum2, &xor2);
	BC_CHECK(sum2 == sum && xor2 == xor, n, 0);
}

static u32 bc_in_use(const struct chainpool *pool)
{
	return pool->in_use;
}

/* Slabs a bulk allocation of @n blocks takes, from the layout alone. */
static u32 bc_expected_slabs(const struct chainpool *pool, u32 n)
{
	u32 seg, per_seg, slabs = 0;
	u64 have = 0;

	while (have < n) {
		have += cp_layout(pool, cp_slab_bytes(pool,
				  cp_order_for(pool, n - have)), &seg, &per_seg);
		slabs++;
	}
	return slabs;
}

static struct chainpool *bc_create(struct device *dev)
{
	return chainpool_create("bench", dev, bc_size, BC_ALIGN, 0);
}

/* create: create + bulk allocation, then destroy (not timed); fresh memory each run. */
static void bc_run_create(struct bc_result *res, struct cp_block *blocks,
			  unsigned int run)
{
	struct device dev = { .name = "bench", .next_dma = BC_DMA_BASE };
	struct cp_sink sink = { .blocks = blocks };
	struct chainpool *pool;
	u64 t;

	t = bc_now();
	pool = bc_create(&dev);
	BC_CHECK(pool, res->n, 0);
	if (!pool)
		return;
	BC_CHECK(chainpool_alloc_bulk(pool, res->n, GFP_KERNEL, cp_sink_store,
				      &sink) == 0, res->n, 0);
	res->samples[BC_CREATE][run] = bc_now() - t;
	BC_CHECK(pool->blocks >= res->n, res->n, pool->blocks);
	chainpool_release_all(pool);
	chainpool_destroy(pool);
	BC_CHECK(dev.live == 0, res->n, dev.live);
}

/*
 * The timed loops, one function each (not inlined: the plain and the
 * locked loops are compiled alike).  Each returns the calls that failed.
 */
typedef u32 bc_loop_fn(struct chainpool *pool, struct cp_block *blocks,
		       u32 n);

static noinline u32
bc_alloc_loop(struct chainpool *pool, struct cp_block *blocks, u32 n)
{
	u32 i, failed = 0;

	for (i = 0; i < n; i++)
		failed += !(blocks[i].cpu = chainpool_alloc(pool, GFP_KERNEL,
							  &blocks[i].dma));
	return failed;
}

static noinline u32
bc_alloc_loop_locked(struct chainpool *pool, struct cp_block *blocks,
		     u32 n)
{
	u32 i, failed = 0;

	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&bc_lock);
		failed += !(blocks[i].cpu = chainpool_alloc(pool, GFP_KERNEL,
							  &blocks[i].dma));
		pthread_mutex_unlock(&bc_lock);
	}
	return failed;
}

static noinline u32
bc_free_loop(struct chainpool *pool, struct cp_block *blocks, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		chainpool_free(pool, blocks[i].cpu, blocks[i].dma);
	return 0;
}

static noinline u32
bc_free_loop_locked(struct chainpool *pool, struct cp_block *blocks,
		    u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&bc_lock);
		chainpool_free(pool, blocks[i].cpu, blocks[i].dma);
		pthread_mutex_unlock(&bc_lock);
	}
	return 0;
}

/*
 * Sample @op of @run: @loop over all n blocks, timed.  No call may fail,
 * and @in_use blocks are in use after it.
 */
static void bc_time_loop(struct bc_result *res, enum bc_op op,
			 unsigned int run, bc_loop_fn *loop,
			 struct chainpool *pool, struct cp_block *blocks,
			 u32 in_use)
{
	u32 failed;
	u64 t;

	t = bc_now();
	failed = loop(pool, blocks, res->n);
	res->samples[op][run] = bc_now() - t;
	if (failed)
		bc_fail(bc_op_name[op], res->n, failed);
	BC_CHECK(bc_in_use(pool) == in_use, res->n, bc_in_use(pool));
}

static void bc_run_one_n(struct bc_result *res, struct cp_block *blocks,
			 u8 *floor_buf)
{
	const u32 n = res->n;
	struct cp_sink sink = { .blocks = blocks };
	u64 sum, xor, t;
	struct device dev = { .name = "bench", .next_dma = BC_DMA_BASE };
	struct chainpool_stats st;
	struct chainpool *pool;
	unsigned int run;
	u32 i;

	for (run = 0; run < bc_runs; run++)
		bc_run_create(res, blocks, run);

	/* One pool for the rest, its memory touched once before timing. */
	pool = bc_create(&dev);
	if (!pool || chainpool_alloc_bulk(pool, n, GFP_KERNEL, cp_sink_store,
					  &sink)) {
		bc_fail("fill", n, 0);
		chainpool_destroy(pool);
		return;
	}
	chainpool_release_all(pool);
	chainpool_get_stats(pool, &st);
	res->nr_slabs = st.nr_slabs;
	res->dma_bytes = st.dma_bytes;
	BC_CHECK(res->nr_slabs == bc_expected_slabs(pool, n), n,
		 res->nr_slabs);
	for (i = 0; i < res->nr_slabs; i++)
		memset(pool->slabs[i].cpu, 0, pool->slabs[i].bytes);
	memset(blocks, 0, (size_t)n * sizeof(*blocks));
	memset(floor_buf, 0, (size_t)n * bc_size);

	for (run = 0; run < bc_runs; run++) {
		/* bulk carve into the caller's array */
		sink.calls = 0;
		sink.out_of_order = false;
		t = bc_now();
		BC_CHECK(chainpool_alloc_bulk(pool, n, GFP_KERNEL, cp_sink_store,
					      &sink) == 0, n, 0);
		res->samples[BC_BULK][run] = bc_now() - t;
		BC_CHECK(sink.calls == n, n, sink.calls);
		BC_CHECK(!sink.out_of_order, n, 0);
		BC_CHECK(bc_in_use(pool) == n, n, bc_in_use(pool));

		if (!run)
			bc_digest(blocks, n, &sum, &xor);

		/* whole-pool release */
		t = bc_now();
		chainpool_release_all(pool);
		res->samples[BC_RELEASE][run] = bc_now() - t;
		BC_CHECK(bc_in_use(pool) == 0, n, bc_in_use(pool));

		/*
		 * The floor: the same bytes written once.  It also leaves the
		 * cache in the same state before the plain and the locked
		 * per-block loops below.
		 */
		t = bc_now();
		memset(floor_buf, run + 1, (size_t)n * bc_size);
		res->samples[BC_MEMSET][run] = bc_now() - t;
		BC_CHECK(floor_buf[(size_t)n * bc_size - 1] == (u8)(run + 1), n,
			 run);

		/* per-block alloc (bump cursor), free, alloc (free list) */
		bc_time_loop(res, BC_ALLOC_CARVE, run, bc_alloc_loop, pool,
			     blocks, n);
		if (!run)
			bc_check_digest(blocks, n, sum, xor);
		bc_time_loop(res, BC_FREE, run, bc_free_loop, pool, blocks, 0);
		bc_time_loop(res, BC_ALLOC_LIST, run, bc_alloc_loop, pool,
			     blocks, n);
		/* The free list gives back the same blocks. */
		bc_check_digest(blocks, n, sum, xor);
		chainpool_release_all(pool);

		/* the same per-block loops, a mutex around each call */
		memset(floor_buf, run + 2, (size_t)n * bc_size);
		bc_time_loop(res, BC_ALLOC_MUTEX, run, bc_alloc_loop_locked,
			     pool, blocks, n);
		bc_check_digest(blocks, n, sum, xor);
		bc_time_loop(res, BC_FREE_MUTEX, run, bc_free_loop_locked,
			     pool, blocks, 0);
		chainpool_release_all(pool);
	}
	BC_CHECK(pool->in_use == 0, n, pool->in_use);
	chainpool_destroy(pool);
	BC_CHECK(dev.live == 0, n, dev.live);
}

static double bc_per_block(const struct bc_result *res, enum bc_op op)
{
	return (double)res->median[op] / res->n;
}

static double bc_ratio(const struct bc_result *res, enum bc_op a,
		       enum bc_op b)
{
	return res->median[b] ? (double)res->median[a] / res->median[b] : 0;
}

/* Lock cost: mutex loops over plain loops, alloc and free together. */
static double bc_mutex_ratio(const struct bc_result *res)
{
	u64 plain = res->median[BC_ALLOC_CARVE] + res->median[BC_FREE];
	u64 locked = res->median[BC_ALLOC_MUTEX] + res->median[BC_FREE_MUTEX];

	return plain ? (double)locked / plain : 0;
}

static double bc_mutex_ns(const struct bc_result *res)
{
	double plain = res->median[BC_ALLOC_CARVE] + res->median[BC_FREE];
	double locked = res->median[BC_ALLOC_MUTEX] + res->median[BC_FREE_MUTEX];

	/* per call: one lock and unlock around each alloc and each free */
	return (locked - plain) / (2.0 * res->n);
}

static void bc_print(const struct bc_result *res, unsigned int nr_n)
{
	unsigned int i, op;

	printf("chainpool, %zu B blocks aligned to %u, ns per block (median of %u runs)\n",
	       bc_size, BC_ALIGN, bc_runs);
	printf("%-18s", "N");
	for (i = 0; i < nr_n; i++)
		printf(" %12u", res[i].n);
	printf("\n%-18s", "slabs");
	for (i = 0; i < nr_n; i++)
		printf(" %12u", res[i].nr_slabs);
	printf("\n");
	for (op = 0; op < BC_NR_OPS; op++) {
		printf("%-18s", bc_op_name[op]);
		for (i = 0; i < nr_n; i++)
			printf(" %12.3f", bc_per_block(&res[i], op));
		printf("\n");
	}
	printf("ratios\n");
	printf("%-18s", "mutex/plain");
	for (i = 0; i < nr_n; i++)
		printf(" %11.2fx", bc_mutex_ratio(&res[i]));
	printf("\n%-18s", "lock ns/call");
	for (i = 0; i < nr_n; i++)
		printf(" %12.2f", bc_mutex_ns(&res[i]));
	printf("\n%-18s", "bulk/memset");
	for (i = 0; i < nr_n; i++)
		printf(" %11.2fx", bc_ratio(&res[i], BC_BULK, BC_MEMSET));
	printf("\n%-18s", "alloc_carve/bulk");
	for (i = 0; i < nr_n; i++)
		printf(" %11.2fx", bc_ratio(&res[i], BC_ALLOC_CARVE, BC_BULK));
	printf("\n");
}

static void bc_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':');
		size_t i, j = 0;

		if (strncmp(line, "model name", 10) || !p)
			continue;
		/* JSON-safe: printable, no quotes or backslashes */
		for (i = 2; p[i] && p[i] != '\n' && j + 1 < len; i++)
			if (p[i] >= ' ' && p[i] != '"' && p[i] != '\\')
				buf[j++] = p[i];
		buf[j] = '\0';
		break;
	}
	fclose(f);
}

static int bc_write_json(const char *path, const struct bc_result *res,
			 unsigned int nr_n)
{
	FILE *f = fopen(path, "w");
	char cpu[128];
	unsigned int i, op, run;

	if (!f) {
		perror(path);
		return -1;
	}
	bc_cpu_model(cpu, sizeof(cpu));
	fprintf(f, "{\n  \"tool\": \"bench_core\",\n  \"cpu\": \"%s\",\n  \"online_cpus\": %ld,\n",
		cpu, sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(f, "  \"block_size\": %zu,\n  \"align\": %u,\n  \"runs\": %u,\n",
		bc_size, BC_ALIGN, bc_runs);
	fprintf(f, "  \"results\": [\n");
	for (i = 0; i < nr_n; i++) {
		fprintf(f, "    {\"n\": %u, \"slabs\": %u, \"dma_bytes\": %llu,\n",
			res[i].n, res[i].nr_slabs,
			(unsigned long long)res[i].dma_bytes);
		fprintf(f, "     \"ratios\": {\"mutex_over_plain\": %.3f, \"lock_ns_per_call\": %.3f, ",
			bc_mutex_ratio(&res[i]), bc_mutex_ns(&res[i]));
		fprintf(f, "\"bulk_over_memset\": %.3f, \"alloc_carve_over_bulk\": %.3f},\n",
			bc_ratio(&res[i], BC_BULK, BC_MEMSET),
			bc_ratio(&res[i], BC_ALLOC_CARVE, BC_BULK));
		fprintf(f, "     \"ops\": {\n");
		for (op = 0; op < BC_NR_OPS; op++) {
			fprintf(f, "       \"%s\": {\"median_ns\": %llu, \"ns_per_block\": %.3f, \"samples_ns\": [",
				bc_op_name[op],
				(unsigned long long)res[i].median[op],
				bc_per_block(&res[i], op));
			for (run = 0; run < bc_runs; run++)
				fprintf(f, "%s%llu", run ? ", " : "",
					(unsigned long long)res[i].samples[op][run]);
			fprintf(f, "]}%s\n", op + 1 < BC_NR_OPS ? "," : "");
		}
		fprintf(f, "     }}%s\n", i + 1 < nr_n ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
	if (fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}

static unsigned int bc_parse_n(char *arg, u32 *ns)
{
	unsigned int nr = 0;
	char *tok, *end;

	for (tok = strtok(arg, ", "); tok; tok = strtok(NULL, ", ")) {
		unsigned long v = strtoul(tok, &end, 10);

		if (*end || !v || v > 50000000UL || nr == BC_MAX_N) {
			fprintf(stderr, "bench_core: bad N '%s' (1 to 50000000, up to %u values)\n",
				tok, BC_MAX_N);
			exit(2);
		}
		ns[nr++] = v;
	}
	return nr;
}

static void bc_usage(void)
{
	fprintf(stderr, "usage: bench_core [-n N[,N...]] [-r runs] [-s size] [-o results.json]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	char default_n[] = "10000,373959,1000000";
	struct bc_result res[BC_MAX_N] = { 0 };
	const char *out = NULL;
	u32 ns[BC_MAX_N], max_n = 0;
	struct cp_block *blocks;
	unsigned int nr_n, i, op;
	char *n_arg = default_n;
	u8 *floor_buf;
	int c;

	while ((c = getopt(argc, argv, "n:r:s:o:")) != -1) {
		switch (c) {
		case 'n':
			n_arg = optarg;
			break;
		case 'r':
			bc_runs = strtoul(optarg, NULL, 10);
			if (!bc_runs || bc_runs > 64)
				bc_usage();
			break;
		case 's':
			bc_size = strtoul(optarg, NULL, 10);
			if (bc_size < 16 || bc_size > 65536)
				bc_usage();
			break;
		case 'o':
			out = optarg;
			break;
		default:
			bc_usage();
		}
	}
	if (optind != argc)
		bc_usage();
	nr_n = bc_parse_n(n_arg, ns);
	if (!nr_n)
		bc_usage();
	for (i = 0; i < nr_n; i++)
		if (ns[i] > max_n)
			max_n = ns[i];

	blocks = malloc((size_t)max_n * sizeof(*blocks));
	floor_buf = malloc((size_t)max_n * bc_size);
	if (!blocks || !floor_buf) {
		fprintf(stderr, "bench_core: out of memory\n");
		return 1;
	}
	for (i = 0; i < nr_n; i++) {
		res[i].n = ns[i];
		for (op = 0; op < BC_NR_OPS; op++) {
			res[i].samples[op] = calloc(bc_runs, sizeof(u64));
			if (!res[i].samples[op]) {
				fprintf(stderr, "bench_core: out of memory\n");
				return 1;
			}
		}
		bc_run_one_n(&res[i], blocks, floor_buf);
		for (op = 0; op < BC_NR_OPS; op++)
			res[i].median[op] = bc_median(res[i].samples[op],
						      bc_runs);
	}
	bc_print(res, nr_n);
	if (out && bc_write_json(out, res, nr_n))
		bc_errors++;
	for (i = 0; i < nr_n; i++)
		for (op = 0; op < BC_NR_OPS; op++)
			free(res[i].samples[op]);
	free(blocks);
	free(floor_buf);
	if (bc_errors) {
		fprintf(stderr, "bench_core: %u check(s) failed\n", bc_errors);
		return 1;
	}
	printf("bench_core: all checks passed%s%s\n", out ? ", results in " : "",
	       out ? out : "");
	return 0;
}
