# SPDX-License-Identifier: GPL-2.0-or-later
#
# DKMS entry of the mpt3sas-chainpool tree (dkms.conf's MAKE[0]):
#
#   make -f dkms.mk KVER=<release> KDIR=<build dir> KERNEL_MIN=<series> [KERNEL_MAX=]
#
# A dkms that knows no BUILD_EXCLUSIVE directive builds for any kernel: stop
# here, plainly, for one outside the supported range.  Then run the tree's
# own Makefile, which probes this kernel's API and runs Kbuild.
#
# The range rule is kernel-range.sh's (packaging/, shipped beside this
# file by make dist), the one that also wrote dkms.conf's regex.

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
# dkms.conf passes the range make dist wrote into it.
ifeq ($(KERNEL_MIN),)
$(error KERNEL_MIN=<oldest supported kernel series> is required)
endif
KERNEL_MAX ?=
KERNEL_RANGE := $(dir $(lastword $(MAKEFILE_LIST)))kernel-range.sh
# Values reach the range rule through the environment, not pasted into
# shell code.
export KVER KERNEL_MIN KERNEL_MAX

all: range-check
	$(MAKE) -f Makefile KVER=$(KVER) KDIR=$(KDIR)

range-check:
	@bash $(KERNEL_RANGE) require "$$KVER" "$$KERNEL_MIN" $${KERNEL_MAX:+"$$KERNEL_MAX"}

clean:
	$(MAKE) -f Makefile KVER=$(KVER) KDIR=$(KDIR) clean

.PHONY: all range-check clean
