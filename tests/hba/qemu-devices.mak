# Devices of `make qemu` (tests/hba/qemu.sh), built --without-default-devices:
# the q35 machine the VM harness boots, its intel-iommu, the edu test
# device of tests/vm, HPET as in the host's QEMU, the PCIe root port the HBA
# sits behind (hot-pluggable), and our SAS3008 (which selects the SCSI bus
# and scsi-hd).
CONFIG_Q35=y
CONFIG_PCIE_PORT=y
CONFIG_HPET=y
CONFIG_VTD=y
CONFIG_EDU=y
CONFIG_SAS3008_HBA=y
