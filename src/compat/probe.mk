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
#               does not need them (tests/compat/old-kernel-fallbacks.sh);
#               each name must be one of the probes.  The result says so
#               ("forced false") in compat_config.h and the summary.  A
#               make variable or an environment variable, so that it also
#               reaches this file through the tree's Makefile.
#
# Targets:
#   all (default)  probe when the stamp differs, i.e. when KDIR, its
#                  utsrelease.h, its .config/autoconf.h, CC, this file or a
#                  probe source changed, or compat_config.h is missing
#   force          probe unconditionally
#   summary        print the probe table of the last run
#   clean          remove the generated files
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
# the API in the probed form; tests/compat/old-kernel-fallbacks.sh forces
# every probe newer than packaging/kernel-min false from it.

COMPAT_DIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))

KDIR ?= /lib/modules/$(shell uname -r)/build
OUT ?= $(COMPAT_DIR)/generated
PROBES ?= $(COMPAT_DIR)/probes
PROBE_JOBS ?= $(shell nproc 2>/dev/null || echo 2)

override OUT := $(abspath $(OUT))
override PROBES := $(abspath $(PROBES))
override KDIR := $(abspath $(KDIR))

PROBE_BUILD := $(OUT)/.probe-build
CONFIG_H := $(OUT)/compat_config.h
SUMMARY := $(OUT)/compat_summary.txt

# Pass CC on only if the user chose it; make's built-in default "cc" would
# override the compiler the kernel's own Makefile selects.
ifeq ($(origin CC),command line)
PROBE_CC := CC="$(CC)"
endif

# Warnings that mean "this API is not what the probe expects" become errors;
# anything else (a noisy header on a new gcc) must not turn a probe false.
PROBE_CFLAGS := -Werror=implicit-function-declaration -Werror=implicit-int \
	-Werror=incompatible-pointer-types -Werror=int-conversion \
	-Werror=discarded-qualifiers -Werror=return-type

SHELL := /bin/sh

.PHONY: all force summary clean

all:
	@set -e; \
	stamp="$$($(MAKE) -s --no-print-directory -f $(COMPAT_DIR)/probe.mk stamp)"; \
	if [ -f $(CONFIG_H) ] && [ -f $(OUT)/.stamp ] && \
	   [ "$$stamp" = "$$(cat $(OUT)/.stamp)" ]; then \
		echo "  COMPAT  $(CONFIG_H) is up to date"; \
	else \
		$(MAKE) --no-print-directory -f $(COMPAT_DIR)/probe.mk force; \
	fi

# Everything that decides the probe results; printed, compared by "all".
.PHONY: stamp
stamp:
	@set -e; \
	test -d "$(KDIR)" || { echo "compat: KDIR $(KDIR) not found" >&2; exit 1; }; \
	echo "kdir=$(KDIR)"; \
	echo "cc=$(CC)"; \
	echo "force_false=$(sort $(COMPAT_FORCE_FALSE))"; \
	cat "$(KDIR)/include/generated/utsrelease.h" 2>/dev/null || echo "no-utsrelease"; \
	for f in "$(KDIR)/.config" "$(KDIR)/include/generated/autoconf.h"; do \
		if [ -f "$$f" ]; then cksum < "$$f"; else echo "no-$$f"; fi; \
	done; \
	cat $(COMPAT_DIR)/probe.mk $(PROBES)/*.c | cksum

force:
	@set -e; \
	test -f "$(KDIR)/Makefile" || { echo "compat: no kernel build directory at KDIR=$(KDIR)" >&2; exit 1; }; \
	stamp="$$($(MAKE) -s --no-print-directory -f $(COMPAT_DIR)/probe.mk stamp)"; \
	mkdir -p $(OUT); \
	rm -rf $(PROBE_BUILD); mkdir -p $(PROBE_BUILD); \
	printf '%s\n' '#include <linux/module.h>' \
		'static int __maybe_unused compat_sanity(void)' \
		'{' '	return 0;' '}' > $(PROBE_BUILD)/compat_sanity.c; \
	echo 'obj-m += compat_sanity.o' > $(PROBE_BUILD)/Kbuild; \
	echo 'ccflags-y += $(PROBE_CFLAGS)' >> $(PROBE_BUILD)/Kbuild; \
	names=; \
	for f in $(PROBES)/*.c; do \
		n=$$(basename "$$f" .c); \
		case "$$n" in *[!a-z0-9_]*|compat_sanity) \
			echo "compat: bad probe name $$n" >&2; exit 1;; esac; \
		cp "$$f" $(PROBE_BUILD)/; \
		echo "obj-m += $$n.o" >> $(PROBE_BUILD)/Kbuild; \
		names="$$names $$n"; \
	done; \
	for m in $(COMPAT_FORCE_FALSE); do \
		n=$$(echo "$${m#HAVE_}" | tr 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' 'abcdefghijklmnopqrstuvwxyz'); \
		case "$$m" in HAVE_*) ;; *) n=;; esac; \
		if [ -z "$$n" ] || [ ! -f "$(PROBES)/$$n.c" ]; then \
			echo "compat: COMPAT_FORCE_FALSE names $$m, which is no probe" >&2; \
			exit 1; \
		fi; \
	done; \
	echo "  COMPAT  probing $$(echo $$names | wc -w) kernel APIs in $(KDIR)"; \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		$(MAKE) -C $(KDIR) M=$(PROBE_BUILD) $(PROBE_CC) \
		KBUILD_MODPOST_WARN=1 -k -j$(PROBE_JOBS) modules \
		> $(OUT)/probe.log 2>&1 || true; \
	if [ ! -f $(PROBE_BUILD)/compat_sanity.o ]; then \
		echo "compat: the sanity probe did not build against $(KDIR);" >&2; \
		echo "compat: compiler or kernel build directory is broken:" >&2; \
		tail -n 30 $(OUT)/probe.log >&2; \
		exit 1; \
	fi; \
	uts=$$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' \
		"$(KDIR)/include/generated/utsrelease.h" 2>/dev/null); \
	tmp=$(CONFIG_H).tmp; stmp=$(SUMMARY).tmp; \
	{ \
		echo '/* SPDX-License-Identifier: GPL-2.0-or-later */'; \
		echo '/*'; \
		echo ' * Generated by compat/probe.mk - do not edit.'; \
		echo " * Kernel: $$uts"; \
		echo " * KDIR: $(KDIR)"; \
		if [ -n "$(strip $(COMPAT_FORCE_FALSE))" ]; then \
			echo ' * Test build: COMPAT_FORCE_FALSE turned probes off.'; \
		fi; \
		echo ' */'; \
		echo '#ifndef MPT3SAS_COMPAT_CONFIG_H'; \
		echo '#define MPT3SAS_COMPAT_CONFIG_H'; \
		echo; \
	} > $$tmp; \
	yes=0; no=0; \
	echo "compat probes for $$uts ($(KDIR)):" > $$stmp; \
	for n in $$names; do \
		m=HAVE_$$(echo "$$n" | tr 'abcdefghijklmnopqrstuvwxyz' 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'); \
		case " $(COMPAT_FORCE_FALSE) " in *" $$m "*) forced=1;; *) forced=;; esac; \
		if [ -n "$$forced" ]; then \
			echo "/* $$m forced false by COMPAT_FORCE_FALSE */" >> $$tmp; \
			printf '  %-44s no (forced)\n' $$m >> $$stmp; no=$$((no + 1)); \
		elif [ -f $(PROBE_BUILD)/$$n.o ]; then \
			echo "#define $$m 1" >> $$tmp; \
			printf '  %-44s yes\n' $$m >> $$stmp; yes=$$((yes + 1)); \
		else \
			echo "/* #undef $$m */" >> $$tmp; \
			printf '  %-44s no\n' $$m >> $$stmp; no=$$((no + 1)); \
		fi; \
	done; \
	{ echo; echo '#endif /* MPT3SAS_COMPAT_CONFIG_H */'; } >> $$tmp; \
	nforced=$$(echo $(COMPAT_FORCE_FALSE) | wc -w); \
	if [ "$$nforced" -gt 0 ]; then \
		echo "compat: $$nforced forced false by COMPAT_FORCE_FALSE" >> $$stmp; \
	fi; \
	echo "compat: $$uts: $$((yes + no)) probes, $$yes yes, $$no no" >> $$stmp; \
	mv -f $$tmp $(CONFIG_H); mv -f $$stmp $(SUMMARY); \
	echo "$$stamp" > $(OUT)/.stamp; \
	if [ "$(KEEP_PROBE_BUILD)" != 1 ]; then rm -rf $(PROBE_BUILD); fi; \
	if [ "$$nforced" -gt 0 ]; then forced=" ($$nforced forced false)"; else forced=; fi; \
	echo "  COMPAT  $$uts: $$yes of $$((yes + no)) APIs present$$forced -> $(CONFIG_H)"

summary:
	@cat $(SUMMARY)

clean:
	rm -rf $(PROBE_BUILD) $(CONFIG_H) $(SUMMARY) $(OUT)/probe.log $(OUT)/.stamp
