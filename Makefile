# SPDX-License-Identifier: GPL-2.0-or-later
#
# mpt3sas-chainpool: the mpt3sas driver of Linux 6.12 with its own DMA
# chain-buffer allocator, built out of tree for the kernels in
# packaging/kernel-min and newer.
#
#   make                 fetch and verify upstream, assemble, build mpt3sas.ko
#                        and the packages
#   make modules         build for KVER=<release> or KDIR=<build dir>
#   make dist, packages  DKMS source tarball; .deb and .rpm (build/pkg/)
#   make check           every test; ends with "N passed, N failed"
#   make check-debug     build a KASAN/kmemleak/lockdep 6.1 kernel and run the
#                        in-kernel tests in it
#   make unit            user-space unit tests of the allocator
#   make matrix          build against each Debian kernel series
#   make vmtest          boot each series in QEMU and test the modules there
#   make static          checkpatch, sparse and coccinelle on our own C
#   make reliability     the reliability suites in QEMU, in full (about 12
#                        minutes; tests/reliability/README.md)
#   make bench           time dma_pool, page carving and chainpool in QEMU on
#                        6.1, 6.12 and sid (about 12 minutes; build/bench/)
#   make repin           move the upstream pin (PIN_VERSION=<Debian version>)
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

# The verified pristine driver; refetched when the pin moves.
$(UPSTREAM_DIR)/.verified: src/mpt3sas/upstream.lock scripts/upstream.sh
	scripts/upstream.sh fetch $(UPSTREAM_DIR)
	touch $@

upstream: $(UPSTREAM_DIR)/.verified

# Cheap to redo, so always rebuilt: src/ edits take effect at once.
tree: upstream
	scripts/assemble.sh $(UPSTREAM_DIR) $(TREE)

modules: tree
	scripts/build-module.sh $(TREE) $(OBJ_ROOT)

unit:
	$(MAKE) -C tests/unit check

matrix: tree
	tests/matrix.sh

# Builds the modules for each kernel itself; KERNELS= picks series.
vmtest: tree
	BUILD_MODULES_CMD=$(CURDIR)/scripts/build-test-modules.sh tests/vm/run.sh

static: tree
	tests/static.sh

# make check runs a reduced sample; KERNELS= picks series.
reliability: tree
	tests/reliability/run.sh

# Long; not part of make check.  BENCH_KERNELS=, BENCH_N=... narrow it.
bench:
	bench/run.sh

check: tree
	tests/run.sh

check-debug: tree
	tests/check-debug.sh

repin:
	scripts/upstream.sh repin $(PIN_VERSION)
	rm -f $(UPSTREAM_DIR)/.verified

clean:
	rm -rf $(TREE) $(OBJ_ROOT) $(BUILD)/check
	-$(MAKE) -C tests/unit clean

distclean:
	rm -rf $(BUILD)

include packaging/packaging.mk

.PHONY: all upstream tree modules unit matrix vmtest static reliability bench \
	check check-debug repin clean distclean
