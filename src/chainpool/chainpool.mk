# SPDX-License-Identifier: GPL-2.0-or-later
#
# chainpool's objects, for each Kbuild that links the allocator: the
# driver's (src/Kbuild) and the test and bench modules'.
chainpool-objs := chainpool.o
