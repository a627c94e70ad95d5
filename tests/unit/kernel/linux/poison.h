/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stand-in: every kernel header of the unit tests is kshim.h. */
#include "../kshim.h"
