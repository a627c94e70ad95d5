# SPDX-License-Identifier: GPL-2.0-or-later
#
# Packaging targets, included by the top-level Makefile:
#
#   make dist       build/pkg/mpt3sas-chainpool-<version>.tar.gz, the DKMS
#                   source tree for /usr/src/mpt3sas-chainpool-<version>/
#   make packages   the tarball, the Debian package (.deb) and the RHEL
#                   family package (.rpm), all in build/pkg/
#   make srpm       mpt3sas-chainpool-<version>-1.src.rpm: the tarball and
#                   its spec (rpmbuild -ta builds the same from the tarball)
#   make kmod KVER=<release> [KDIR=<build tree>]
#                   kmod-mpt3sas-chainpool for that RHEL kernel (a kABI-
#                   tracking kmod, packaging/rpm/build.sh --kmod), in
#                   build/pkg/; SIGN_KEY= SIGN_CERT= sign the module
#   make repo REPO_KEY=<gpg key> [REPO_URL=<where build/repo/ is served>]
#                   build/repo/: the packages, and the kmods make kmod
#                   built, as a signed dnf and apt repository, with the
#                   .repo file and apt sources stanza (packaging/repo.sh)
#
# CP_RELEASE=cp9 builds another release than src/VERSION (test upgrades);
# DKMS_KERNEL_MIN / DKMS_KERNEL_MAX change the supported kernel series
# (default: packaging/kernel-min and newer); PKG_DIR changes the output
# directory.

PKG_DIR ?= build/pkg
export CP_RELEASE DKMS_KERNEL_MIN DKMS_KERNEL_MAX REPO_KEY REPO_URL

dist: tree
	packaging/dist.sh build/tree $(PKG_DIR)

packages: dist | deps-packages
	packaging/deb/build.sh $(PKG_DIR)
	packaging/rpm/build.sh $(PKG_DIR)

srpm: dist | deps-packages
	packaging/rpm/build.sh --srpm $(PKG_DIR)

# KVER, or the release of the tree KDIR names
kmod: dist | deps-packages
	packaging/rpm/build.sh --kmod "$(or $(KVER),$(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null))" $(PKG_DIR)

repo: packages | deps-repo
	packaging/repo.sh $(PKG_DIR) build/repo

.PHONY: dist packages srpm kmod repo
