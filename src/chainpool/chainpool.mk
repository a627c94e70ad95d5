# SPDX-License-Identifier: GPL-2.0-or-later
#
# chainpool's objects, for each build that links the allocator: the
# driver's Kbuild (src/Kbuild), the test and bench modules' Kbuilds, and
# the user-space builds of tests/unit and bench/core, which build the core
# and the glue but not the module's parameters and debugfs.
chainpool-core-objs := chainpool_plan.o chainpool_table.o chainpool_core.o
chainpool-glue-objs := chainpool_grow.o chainpool.o
chainpool-objs := $(chainpool-core-objs) $(chainpool-glue-objs) \
		  chainpool_module.o
