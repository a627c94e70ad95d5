# SPDX-License-Identifier: GPL-2.0-or-later
#
# compat/probe.mk - probe the target kernel's API for the mpt3sas compat layer
#
# Usage (from the module tree root, or anywhere):
#
#   make -f compat/probe.mk KDIR=<kernel build dir> OUT=<output dir> [CC=...]
#
#   KDIR        kernel build directory (default: running kernel's build dir)
#   OUT         output directory (default: generated/ next to this file); it
#               receives compat_config.h, compat_summary.txt, probe.log and
#               the .stamp that decides when to probe again
#   CC          only passed to the kernel's make when given on the command
#               line (Debian's headers pick their own gcc-NN otherwise)
#   PROBES      directory of probe sources (default: probes/ next to this
#               file; the machinery's unit test points it elsewhere)
#   PROBE_JOBS  parallel jobs for the probe pass (default: number of CPUs)
#   KEEP_PROBE_BUILD=1  keep $(OUT)/.probe-build for debugging
#   COMPAT_FORCE_FALSE="HAVE_X HAVE_Y ..."
#               test only: report these APIs missing whatever the kernel
#               has, so that their fallbacks get compiled on a kernel that
#               does not need them (tests/compat/compat-fallbacks.sh);
#               each name must be one of the probes.  The result says so
#               ("forced false") in compat_config.h and the summary.  A
#               make variable or an environment variable, so that it also
#               reaches this file through the tree's Makefile.
#
# Targets:
#   all (default)  probe when the stamp differs, i.e. when KDIR, its
#                  utsrelease.h, its .config/autoconf.h, CC, this file,
#                  probe.sh or a probe source changed, or compat_config.h
#                  is missing
#   force          probe unconditionally
#   summary        print the probe table of the last run
#   clean          remove the generated files
#
# The work is done by compat/probe.sh; this file resolves the defaults and
# hands them over in the environment, so that no value (a CC with quotes
# or spaces, a path) is ever pasted into shell code.  This header is the
# one description of the interface and of the probes; probe.sh's says
# only what passes between the two.
#
# Every probes/<api>.c is one small translation unit that compiles only if
# the kernel has the API; all of them are built in ONE parallel "make -k"
# Kbuild pass as objects of a throw-away external module, and HAVE_<API> is
# defined for each object that came out of it.  A built-in sanity probe
# must always compile; if it does not, the compiler or KDIR is broken and
# probing fails loudly instead of reporting every API as missing.
#
# Every probe's comment says what the probe tests, since which kernel and
# (where found) by which commit, and what the fallback is.  Its line
# " * Since: vX.Y[.Z] [(commit)]" names the first mainline release with
# the API in the probed form; tests/compat/compat-fallbacks.sh forces
# every probe newer than packaging/kernel-min false from it.

COMPAT_DIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))

KDIR ?= /lib/modules/$(shell uname -r)/build
OUT ?= $(COMPAT_DIR)/generated
PROBES ?= $(COMPAT_DIR)/probes
PROBE_JOBS ?= $(shell nproc 2>/dev/null || echo 2)

override OUT := $(abspath $(OUT))
override PROBES := $(abspath $(PROBES))
override KDIR := $(abspath $(KDIR))

# Pass CC on only if the user chose it; make's built-in default "cc" would
# override the compiler the kernel's own Makefile selects.  The stamp
# names make's CC whatever its origin.
ifeq ($(origin CC),command line)
export PROBE_CC := $(CC)
else
unexport PROBE_CC
endif
export PROBE_STAMP_CC := $(CC)
export PROBE_MAKE := $(MAKE)
export KDIR OUT PROBES PROBE_JOBS KEEP_PROBE_BUILD COMPAT_FORCE_FALSE

SHELL := /bin/sh

.PHONY: all force stamp summary clean

# "+": run under make -n too, as a recursive make would be.
all force:
	+@$(SHELL) $(COMPAT_DIR)/probe.sh $@

stamp summary clean:
	@$(SHELL) $(COMPAT_DIR)/probe.sh $@
