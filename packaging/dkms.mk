# SPDX-License-Identifier: GPL-2.0-or-later
#
# DKMS entry of the mpt3sas-chainpool tree (dkms.conf's MAKE[0]):
#
#   make -f dkms.mk KVER=<release> KDIR=<build dir> KERNEL_MIN=<series> [KERNEL_MAX=]
#
# A dkms that knows no BUILD_EXCLUSIVE directive builds for any kernel: stop
# here, plainly, for one outside the supported range.  Then run the tree's
# own Makefile, which probes this kernel's API and runs Kbuild.

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
# dkms.conf passes the range make dist wrote into it.
ifeq ($(KERNEL_MIN),)
$(error KERNEL_MIN=<oldest supported kernel series> is required)
endif
KERNEL_MAX ?=

all: range-check
	$(MAKE) -f Makefile KVER=$(KVER) KDIR=$(KDIR)

range-check:
	@kv='$(KVER)'; min='$(KERNEL_MIN)'; max='$(KERNEL_MAX)'; \
	s=$$(echo "$$kv" | sed -n 's/^\([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p'); \
	set -- $$s; kmaj=$${1:-0}; kmin=$${2:-0}; ok=1; \
	amaj=$${min%%.*}; amin=$${min#*.}; \
	if [ -z "$$s" ] || [ $$kmaj -lt $$amaj ] || \
	   { [ $$kmaj -eq $$amaj ] && [ $$kmin -lt $$amin ]; }; then ok=0; fi; \
	if [ -n "$$max" ]; then zmaj=$${max%%.*}; zmin=$${max#*.}; \
	  if [ $$kmaj -gt $$zmaj ] || \
	     { [ $$kmaj -eq $$zmaj ] && [ $$kmin -gt $$zmin ]; }; then ok=0; fi; \
	  range="$$min to $$max"; else range="$$min and newer"; fi; \
	if [ $$ok = 0 ]; then \
	  echo "mpt3sas-chainpool supports kernels $$range; $$kv is not supported" >&2; \
	  exit 1; fi

clean:
	$(MAKE) -f Makefile KVER=$(KVER) KDIR=$(KDIR) clean

.PHONY: all range-check clean
