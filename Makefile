# SPDX-License-Identifier: GPL-2.0-or-later
#
# mpt3sas-chainpool: the newest upstream mpt3sas driver with its own DMA
# chain-buffer allocator, built out of tree for the kernels in
# packaging/kernel-min and newer.
#
#   make                 fetch and verify upstream, assemble, build mpt3sas.ko
#                        and the packages
#   make modules         build for KVER=<release> or KDIR=<build dir>
#   make dist, packages  DKMS source tarball; .deb and .rpm (build/pkg/)
#   make srpm            the source RPM (rpmbuild -ta takes the tarball too)
#   make kmod            the kmod RPM for one RHEL kernel (KVER= or KDIR=)
#   make repo            the packages as a signed dnf and apt repository
#                        (REPO_KEY=<gpg key>, REPO_URL=; build/repo/)
#   make check           every test; ends with "N passed, N failed"
#   make deps            install what make needs (scripts/deps/modules and
#                        packages); make does it itself when it is missing
#   make deps-check      the same, plus what make check needs (deps/check)
#   make check-debug     build a KASAN/kmemleak/lockdep 6.1 kernel and run the
#                        in-kernel tests in it
#   make unit            user-space unit tests of the allocator
#   make matrix          build against each kernel series (Debian's and the
#                        distributions' bundles: tests/kernels/series)
#   make vmtest          boot each series in QEMU and test the modules there
#   make static          checkpatch, sparse and coccinelle on our own C,
#                        shellcheck on our shell scripts
#   make reliability     the reliability suites in QEMU, in full, and every
#                        planted fault (docs/testing.md)
#   make bench           time dma_pool, page carving and chainpool in QEMU on
#                        the series tagged bench (build/bench/)
#   make bench-core      time the allocator core natively, per block
#                        (seconds; build/bench-core/)
#   make qemu            Debian 12's QEMU with our emulated SAS3008 HBA
#                        (tests/hba/, into build/qemu/; cached)
#   make hbatest         mpt3sas.ko on the emulated HBA in QEMU on every kernel
#                        series: attach, chain pool, direct I/O, rmmod,
#                        cycles, shutdown, hot-unplug, the timing tool,
#                        in-tree against ours (build/hbatest/table.md), the
#                        lying controllers (tests/hba/rounds), after the
#                        full fault walk (tests/hba-alloc/run.sh), then
#                        every planted fault of those suites;
#                        make hbatest-reduced: one of each on the series
#                        tagged hbatest
#   make repin           move the upstream pin to the newest linux-source-X.Y
#                        (PIN_PACKAGE=linux-source-X.Y PIN_VERSION=<version>)
#   make upstream-series our fixes of upstream bugs as git format-patch files
#                        against the pristine driver, with a cover letter,
#                        checked with git am and checkpatch
#                        (build/upstream-series/)
#   make kabi-report     after make matrix: the symbols mpt3sas.ko imports
#                        that RHEL's kABI stablelists lack (build/kabi/)
#   make docs            the tables of figures in docs/ from the results
#                        files committed in docs/results/ (scripts/docs.py)
#   make docs-results    copy the stamped results of the last make bench,
#                        hbatest, bench-core, kabi-report and check into
#                        docs/results/,
#                        then make docs
#
# Everything generated lives in build/.

BUILD    := build
UPSTREAM_DIR := $(BUILD)/upstream
TREE     := $(BUILD)/tree
OBJ_ROOT := $(BUILD)/obj

export KVER KDIR UPSTREAM
# Pass CC on only when the user chose one: Kbuild picks its own otherwise.
ifneq ($(origin CC),default)
export CC
endif

all: modules packages

# Each target installs (as root on Debian or Ubuntu) or names what it
# needs; silent when nothing is missing.  NO_DEPS=1 skips that.
deps: deps-modules deps-packages

deps-modules:
	@scripts/deps.sh modules

deps-packages:
	@scripts/deps.sh packages

deps-repo:
	@scripts/deps.sh repo

deps-check:
	@scripts/deps.sh modules packages check

# The verified pristine driver; refetched when the pin moves.
$(UPSTREAM_DIR)/.verified: src/mpt3sas/upstream.lock scripts/upstream.sh | deps-modules
	scripts/upstream.sh fetch $(UPSTREAM_DIR)
	touch $@

upstream: $(UPSTREAM_DIR)/.verified

# Cheap to redo, so always rebuilt: src/ edits take effect at once.
tree: upstream | deps-modules
	scripts/assemble.sh $(UPSTREAM_DIR) $(TREE)

modules: tree
	scripts/build-module.sh $(TREE) $(OBJ_ROOT)

unit: | deps-check
	$(MAKE) -C tests/unit check

matrix: tree | deps-check
	tests/matrix.sh

# Builds the modules for each kernel itself; KERNELS= picks series.
vmtest: tree | deps-check
	tests/vm/run.sh --build $(CURDIR)/scripts/build-modules.sh

static: tree | deps-check
	tests/static.sh

# make check runs a reduced sample; KERNELS= picks series.
reliability: tree | deps-check
	tests/reliability/run.sh && tests/reliability/mem-check.sh && \
		tests/plants/run.sh reliability

# Long; not part of make check.  BENCH_KERNELS=, BENCH_N=... narrow it.
bench: | deps-check
	bench/run.sh

# Native, in seconds; make check runs its checks with small N (bench-core).
# BENCH_CORE_N=n,n,... and BENCH_CORE_RUNS= narrow it.
bench-core: | deps-modules
	$(MAKE) -C bench/core run

# Not part of make check (yet).  KERNELS= picks series.
qemu: | deps-check
	tests/hba/qemu.sh

# The fault walk first, so that the results' stamp times the whole target.
hbatest: tree | deps-check
	t0=$$(date +%s) && tests/hba-alloc/run.sh && \
		tests/hba/run.sh --started $$t0 && \
		tests/plants/run.sh hbatest && tests/plants/run.sh hba-alloc && \
		tests/plants/run.sh hba-lying

hbatest-reduced: tree | deps-check
	tests/hba/run.sh --reduced

check: tree | deps-check
	tests/run.sh

check-debug: tree | deps-check
	tests/debug-kernel.sh

# The figures in docs/ come from docs/results/*.json and nowhere else.
docs:
	python3 scripts/docs.py render

# After make matrix: the symbols outside RHEL's kABI stablelists
kabi-report:
	python3 scripts/kabi-results.py
	python3 scripts/docs.py stamp --kind kabi --guests "the modules make matrix built for the RHEL bundles, RHEL's stablelists (Module.kabi_x86_64 of each release)" build/kabi/results.json

docs-results:
	python3 scripts/docs.py import

repin:
	scripts/upstream.sh repin "$(PIN_PACKAGE)" "$(PIN_VERSION)"
	rm -f $(UPSTREAM_DIR)/.verified

# The 03xx patches but those of src/mpt3sas/patches/upstream-held.
upstream-series: upstream
	scripts/upstream-series.sh write $(UPSTREAM_DIR) $(BUILD)/upstream-series

clean:
	rm -rf $(TREE) $(OBJ_ROOT) $(BUILD)/check $(BUILD)/bench-core
	-$(MAKE) -C tests/unit clean

distclean:
	rm -rf $(BUILD)

include packaging/packaging.mk

.PHONY: kabi-report all deps deps-modules deps-packages deps-repo deps-check upstream tree modules \
	unit matrix vmtest static reliability bench bench-core check check-debug \
	repin upstream-series clean distclean qemu hbatest hbatest-reduced docs \
	docs-results
