// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stand-in for chainpool_test.ko, to test tests/vm/run.sh on its own: DMA
 * (coherent, a dma_pool, a round trip through QEMU's "edu" device and the
 * IOMMU if any), reported as KTAP.
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/delay.h>

#define EDU_REG_ID	0x00
#define EDU_REG_DMA_SRC	0x80
#define EDU_REG_DMA_DST	0x88
#define EDU_REG_DMA_CNT	0x90
#define EDU_REG_DMA_CMD	0x98
#define EDU_CMD_START	0x1
#define EDU_CMD_TO_RAM	0x2
#define EDU_BUF_ADDR	0x40000
#define EDU_DMA_BITS	28	/* the device's default DMA mask */

#define BUF_SIZE	4096
#define DMA_LEN		2048	/* QEMU 7.2's edu rejects a full 4 KiB transfer */
#define POOL_BLOCKS	1024
#define POOL_BLOCK_SIZE	128

enum { T_PROBE, T_COHERENT, T_DMA_ROUNDTRIP, T_DMA_POOL, T_COUNT };
static const char *const test_names[T_COUNT] = {
	"edu_probe", "dma_alloc_coherent", "edu_dma_roundtrip", "dma_pool",
};

static int results[T_COUNT];	/* 0: not run, 1: pass, -1: fail */
static char diag[T_COUNT][96];

static void __iomem *edu_regs;

static void set_result(int t, bool ok, const char *why)
{
	results[t] = ok ? 1 : -1;
	if (!ok && why)
		strscpy(diag[t], why, sizeof(diag[t]));
}

static int edu_dma(u64 src, u64 dst, u32 len, u32 cmd)
{
	int i;

	writeq(src, edu_regs + EDU_REG_DMA_SRC);
	writeq(dst, edu_regs + EDU_REG_DMA_DST);
	writeq(len, edu_regs + EDU_REG_DMA_CNT);
	writeq(cmd | EDU_CMD_START, edu_regs + EDU_REG_DMA_CMD);
	for (i = 0; i < 300; i++) {	/* QEMU completes after 100 ms */
		if (!(readq(edu_regs + EDU_REG_DMA_CMD) & EDU_CMD_START))
			return 0;
		usleep_range(10000, 11000);
	}
	return -ETIMEDOUT;
}

static void test_coherent_and_dma(struct device *dev)
{
	dma_addr_t a_dma, b_dma;
	u8 *a, *b;
	int i, ret;

	a = dma_alloc_coherent(dev, BUF_SIZE, &a_dma, GFP_KERNEL);
	b = dma_alloc_coherent(dev, BUF_SIZE, &b_dma, GFP_KERNEL);
	if (!a || !b) {
		set_result(T_COHERENT, false, "allocation failed");
		goto out;
	}
	if (((a_dma | b_dma) + BUF_SIZE - 1) >> EDU_DMA_BITS) {
		set_result(T_COHERENT, false, "DMA address beyond the device mask");
		goto out;
	}
	set_result(T_COHERENT, true, NULL);

	for (i = 0; i < BUF_SIZE; i++)
		a[i] = (u8)(i * 7 + 3);
	memset(b, 0, BUF_SIZE);
	ret = edu_dma(a_dma, EDU_BUF_ADDR, DMA_LEN, 0);
	if (!ret)
		ret = edu_dma(EDU_BUF_ADDR, b_dma + BUF_SIZE - DMA_LEN, DMA_LEN, EDU_CMD_TO_RAM);
	if (ret)
		set_result(T_DMA_ROUNDTRIP, false, "device DMA timed out");
	else
		set_result(T_DMA_ROUNDTRIP, !memcmp(a, b + BUF_SIZE - DMA_LEN, DMA_LEN),
			   "data read back differs");
out:
	if (a)
		dma_free_coherent(dev, BUF_SIZE, a, a_dma);
	if (b)
		dma_free_coherent(dev, BUF_SIZE, b, b_dma);
}

static void test_dma_pool(struct device *dev)
{
	static void *vaddr[POOL_BLOCKS];
	static dma_addr_t daddr[POOL_BLOCKS];
	struct dma_pool *pool;
	bool ok = true;
	int i, n;

	pool = dma_pool_create("vmtest", dev, POOL_BLOCK_SIZE, 16, 0);
	if (!pool) {
		set_result(T_DMA_POOL, false, "dma_pool_create failed");
		return;
	}
	for (n = 0; n < POOL_BLOCKS; n++) {
		vaddr[n] = dma_pool_alloc(pool, GFP_KERNEL, &daddr[n]);
		if (!vaddr[n]) {
			set_result(T_DMA_POOL, false, "dma_pool_alloc failed");
			ok = false;
			break;
		}
		if ((daddr[n] & 15) || (daddr[n] >> EDU_DMA_BITS)) {
			set_result(T_DMA_POOL, false, "misaligned or out-of-mask block");
			ok = false;
		}
		memset(vaddr[n], n & 0xff, POOL_BLOCK_SIZE);
	}
	for (i = 0; i < n; i++)
		dma_pool_free(pool, vaddr[i], daddr[i]);
	dma_pool_destroy(pool);
	if (ok)
		set_result(T_DMA_POOL, true, NULL);
}

static int edu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	u32 ident;
	int ret;

	ret = pci_enable_device(pdev);
	if (ret)
		goto fail;
	ret = pci_request_region(pdev, 0, "vmtest-edu");
	if (ret)
		goto disable;
	edu_regs = pci_iomap(pdev, 0, 0);
	if (!edu_regs) {
		ret = -ENOMEM;
		goto release;
	}
	pci_set_master(pdev);
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(EDU_DMA_BITS));
	if (ret)
		goto unmap;
	ident = readl(edu_regs + EDU_REG_ID);
	if ((ident & 0xffff) != 0x00ed) {
		ret = -ENODEV;
		goto unmap;
	}
	pr_info("# vmtest: edu %s rev %#x, DMA via %s\n", pci_name(pdev), ident >> 16,
		device_iommu_mapped(dev) ? "IOMMU" : "direct mapping");
	set_result(T_PROBE, true, NULL);

	test_coherent_and_dma(dev);
	test_dma_pool(dev);
	return 0;

unmap:
	pci_iounmap(pdev, edu_regs);
	edu_regs = NULL;
release:
	pci_release_region(pdev, 0);
disable:
	pci_disable_device(pdev);
fail:
	set_result(T_PROBE, false, "probe failed");
	return ret;
}

static void edu_remove(struct pci_dev *pdev)
{
	pci_iounmap(pdev, edu_regs);
	edu_regs = NULL;
	pci_release_region(pdev, 0);
	pci_disable_device(pdev);
}

static const struct pci_device_id edu_ids[] = {
	{ PCI_DEVICE(0x1234, 0x11e8) },	/* QEMU's edu */
	{ }
};
MODULE_DEVICE_TABLE(pci, edu_ids);

static struct pci_driver edu_driver = {
	.name = "vmtest_edu",
	.id_table = edu_ids,
	.probe = edu_probe,
	.remove = edu_remove,
};

static int __init vmtest_init(void)
{
	int t, ret;

	ret = pci_register_driver(&edu_driver);
	if (ret)
		return ret;
	if (!results[T_PROBE])
		set_result(T_PROBE, false, "no edu device (QEMU -device edu)");

	pr_info("KTAP version 1\n");
	pr_info("1..%d\n", T_COUNT);
	for (t = 0; t < T_COUNT; t++) {
		if (results[t] > 0)
			pr_info("ok %d %s\n", t + 1, test_names[t]);
		else if (results[t] < 0)
			pr_info("not ok %d %s # %s\n", t + 1, test_names[t], diag[t]);
		else
			pr_info("ok %d %s # SKIP earlier step failed\n", t + 1, test_names[t]);
	}
	return 0;
}

static void __exit vmtest_exit(void)
{
	pci_unregister_driver(&edu_driver);
}

module_init(vmtest_init);
module_exit(vmtest_exit);
MODULE_DESCRIPTION("tests/vm self-test: DMA on QEMU's edu device, KTAP output");
MODULE_LICENSE("GPL");
