/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A device and its messages.  The device carries the fake DMA allocator
 * (tests/unit/fake_dma.c) its coherent memory comes from; dev_err()s are
 * counted so tests can check that a bad call was reported.
 */
#ifndef KSHIM_LINUX_DEVICE_H
#define KSHIM_LINUX_DEVICE_H

#include <linux/printk.h>

struct fake_dma;

struct device {
	const char *init_name;
	struct fake_dma *fake_dma;
};

const char *dev_name(const struct device *dev);
__printf(2, 3) void _dev_err(const struct device *dev, const char *fmt, ...);
__printf(2, 3) void _dev_warn(const struct device *dev, const char *fmt, ...);

#define dev_err(dev, fmt, ...)	_dev_err(dev, fmt, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...)	_dev_warn(dev, fmt, ##__VA_ARGS__)

#endif
