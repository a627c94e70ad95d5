# SPDX-License-Identifier: GPL-2.0-or-later
#
# Packaging targets, included by the top-level Makefile:
#
#   make dist       build/pkg/mpt3sas-chainpool-<version>.tar.gz, the DKMS
#                   source tree for /usr/src/mpt3sas-chainpool-<version>/
#   make packages   the tarball, the Debian package (.deb) and the RHEL
#                   family package (.rpm), all in build/pkg/
#
# CP_RELEASE=cp9 builds another release than src/VERSION (test upgrades);
# DKMS_KERNEL_MIN / DKMS_KERNEL_MAX change the supported kernel series
# (default: packaging/kernel-min and newer); PKG_DIR changes the output
# directory.

PKG_DIR ?= build/pkg
export CP_RELEASE DKMS_KERNEL_MIN DKMS_KERNEL_MAX

dist: tree
	packaging/dist.sh build/tree $(PKG_DIR)

packages: dist | deps-packages
	packaging/deb/build.sh $(PKG_DIR)
	packaging/rpm/build.sh $(PKG_DIR)

.PHONY: dist packages
