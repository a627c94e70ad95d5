# SPDX-License-Identifier: GPL-2.0-or-later
#
# chainpool's objects, for each Kbuild that links the allocator: the
# driver's (src/Kbuild) and the test and bench modules'.
chainpool-objs := chainpool.o
# The compat shims chainpool.c needs on older kernels, for a module built
# outside the driver's tree (scripts/build-modules.sh sets CP_COMPAT*).
chainpool-compat-cflags = -include $(CP_COMPAT)/mpt3sas_compat.h -I$(CP_COMPAT_OUT)
