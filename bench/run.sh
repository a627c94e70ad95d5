#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/run.sh (`make bench`): run cp_bench.ko in the VM harness on each
# kernel series, plainly and with an emulated IOMMU, sweeping N; write
# build/bench/results.json, stamped (scripts/docs.py stamp: version,
# kernels, date, machine), print the table of ratios against chainpool
# and draw build/bench/scaling.png.  `make docs-results` takes the results
# into docs/.
#
# Environment:
#   BENCH_KERNELS     series (default: those tagged bench in
#                     tests/kernels/series)
#   BENCH_N           block counts (default "1000 10000 100000 373959 1000000")
#   BENCH_SIZE        block size (default 128), BENCH_ALIGN (default 16)
#   BENCH_ALLOCATORS  comma list (default all six)
#   BENCH_REPEAT      runs per (allocator, N), the fastest of each phase
#                     reported (default 3); a run that took over 2 s is
#                     not repeated (the old dma_pool with large N)
#   BENCH_BOOTS       boots of each guest (default 1); with more, each
#                     time in the results is the median over the boots
#   BENCH_BASE        a git revision whose chainpool_bulk is timed too, as
#                     chainpool_bulk@base: its cp_bench built as
#                     cp_bench_base.ko runs in the same guests, after this
#                     tree's at each N (before it on even boots), so both
#                     share the other allocators' times
#   BENCH_SETUPS      default "plain iommu" (the harness' --setups)
#   BENCH_TIMEOUT     seconds per guest (default 3600)
#   BENCH_WARM_MB     guest RAM the first step touches before timing, so
#                     that the host's first-touch faults are not charged to
#                     an allocator (default 1536; the guests have 2G)
#   BENCH_OUT         output directory (default build/bench)
#   BENCH_PLOT        0: no plot
#
# The guests are QEMU TCG: compare ratios, not absolute times.  Guest logs:
# $BENCH_OUT/vm/[boot-B/]<series>-<setup>.log.  Exits non-zero if a guest
# failed or a record is missing; the JSON, the table and the plot are
# still written from what was measured.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# shellcheck source=tests/kernels/lib.sh
. "$top/tests/kernels/lib.sh"
BENCH_KERNELS=${BENCH_KERNELS:-$(kernel_series bench)}
BENCH_N=${BENCH_N:-1000 10000 100000 373959 1000000}
BENCH_SIZE=${BENCH_SIZE:-128}
BENCH_ALIGN=${BENCH_ALIGN:-16}
BENCH_ALLOCATORS=${BENCH_ALLOCATORS:-dma_pool,page_carve,chainpool,chainpool_1page,chainpool_bulk,memset_floor}
BENCH_REPEAT=${BENCH_REPEAT:-3}
BENCH_BOOTS=${BENCH_BOOTS:-1}
BENCH_BASE=${BENCH_BASE:-}
BENCH_SETUPS=${BENCH_SETUPS:-plain iommu}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-3600}
BENCH_OUT=${BENCH_OUT:-$top/build/bench}
BENCH_PLOT=${BENCH_PLOT:-1}
BENCH_WARM_MB=${BENCH_WARM_MB:-1536}

mkdir -p "$BENCH_OUT"
BENCH_OUT=$(cd "$BENCH_OUT" && pwd)

# One guest step per N: insmod, measure every allocator, rmmod; with
# BENCH_BASE, the base revision's step beside it.
steps() { # BOOT
	local n warm=$BENCH_WARM_MB this base
	for n in $BENCH_N; do
		this="cp_bench n=$n size=$BENCH_SIZE align=$BENCH_ALIGN allocators=$BENCH_ALLOCATORS repeat=$BENCH_REPEAT"
		base="cp_bench_base n=$n size=$BENCH_SIZE align=$BENCH_ALIGN allocators=chainpool_bulk repeat=$BENCH_REPEAT"
		if [ -z "$BENCH_BASE" ]; then
			echo "$this warm_mb=$warm"
		elif [ $(($1 % 2)) = 1 ]; then
			printf '%s\n' "$this warm_mb=$warm" "$base warm_mb=0"
		else
			printf '%s\n' "$base warm_mb=$warm" "$this warm_mb=0"
		fi
		warm=0
	done
}

modules=cp_bench
checked=$BENCH_ALLOCATORS
if [ -n "$BENCH_BASE" ]; then
	git -C "$top" rev-parse -q --verify "$BENCH_BASE^{commit}" >/dev/null ||
		{ echo "bench: BENCH_BASE=$BENCH_BASE is no revision of this repository" >&2; exit 2; }
	# Its own sources, its module renamed so that both load in one guest.
	export BENCH_BASE_SRC=$BENCH_OUT/base-src
	rm -rf "$BENCH_BASE_SRC"
	mkdir -p "$BENCH_BASE_SRC"
	git -C "$top" archive "$BENCH_BASE" bench src tests/lib | tar -x -C "$BENCH_BASE_SRC"
	sed -i 's/\<cp_bench\>/cp_bench_base/g' "$BENCH_BASE_SRC/bench/kernel/Kbuild"
	modules="cp_bench cp_bench_base"
	checked=$checked,chainpool_bulk@base
	echo "bench: chainpool_bulk@base from $BENCH_BASE ($(git -C "$top" log -1 --format=%s "$BENCH_BASE"))"
fi

# The harness' own work dir under BENCH_OUT (BUILD_ROOT), the kernels from
# the shared cache: a concurrent `make vmtest` keeps its logs.
t0=$SECONDS
rc=0
vms=""
for boot in $(seq 1 "$BENCH_BOOTS"); do
	vm=$BENCH_OUT/vm
	[ "$BENCH_BOOTS" = 1 ] || vm=$BENCH_OUT/vm/boot-$boot
	vms="$vms $vm"
	BUILD_ROOT=$BENCH_OUT KERNELS_DIR=${KERNELS_DIR:-$top/build/kernels} \
		KERNELS=$BENCH_KERNELS BUILD_MODULES=$modules \
		tests/vm/run.sh --dir "$vm" --setups "$BENCH_SETUPS" --steps "$(steps "$boot")" \
		--timeout "$BENCH_TIMEOUT" --mem 2G --build "$top/scripts/build-modules.sh" || rc=$?
done
echo "bench: guests done in $((SECONDS - t0))s (harness exit $rc)"

logs=""
for vm in $vms; do
	for series in $BENCH_KERNELS; do
		for setup in $BENCH_SETUPS; do
			log=$vm/$series-$setup.log
			if [ -f "$log" ]; then
				logs="$logs $log"
			else
				echo "bench: no log $log" >&2
				rc=1
			fi
		done
	done
done
[ -n "$logs" ] || exit 1
# shellcheck disable=SC2086 # word list of logs
python3 bench/results.py collect -o "$BENCH_OUT/results.json" $logs
python3 scripts/docs.py stamp --kind bench \
	--guests "QEMU TCG guests, q35, 1 vCPU, 2G of RAM" \
	--run "bench/run.sh, BENCH_N=$BENCH_N, BENCH_REPEAT=$BENCH_REPEAT, BENCH_BOOTS=$BENCH_BOOTS${BENCH_BASE:+, BENCH_BASE}, size $BENCH_SIZE" \
	--seconds "$SECONDS" "$BENCH_OUT/results.json"
python3 bench/results.py table "$BENCH_OUT/results.json" | tee "$BENCH_OUT/table.txt"
python3 bench/results.py table --markdown "$BENCH_OUT/results.json" > "$BENCH_OUT/table.md"
if [ "$BENCH_PLOT" = 1 ]; then
	python3 bench/results.py plot --out "$BENCH_OUT/scaling.png" "$BENCH_OUT/results.json"
	echo "bench: plot $BENCH_OUT/scaling.png"
fi
python3 bench/results.py check --n "$BENCH_N" --allocators "$checked" \
	"$BENCH_OUT/results.json" || rc=1
echo "bench: results $BENCH_OUT/results.json, table $BENCH_OUT/table.txt ($((SECONDS - t0))s)"
exit $rc
