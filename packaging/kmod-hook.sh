#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel hook of kmod-mpt3sas-chainpool, installed as
# /usr/lib/kernel/install.d/45-kmod-mpt3sas-chainpool.install and run by
# kernel-install as "add KVER ENTRY_DIR IMAGE", before dracut's plugin.
# RHEL's kernel-core has already run weak-modules --add-kernel KVER, which
# links the kmod into KVER when every symbol it needs has the same CRC
# there.  When it did not, say so once: KVER boots its own mpt3sas.  Where
# that driver lacks a present HBA, the packages' shared rules
# (hba-rules.sh, beside the package's pci-ids) warn before the reboot.

[ "${1:-}" = add ] && [ -n "${2:-}" ] || exit 0
kver=$2
for d in extra weak-updates; do
	[ -e "/lib/modules/$kver/$d/mpt3sas-chainpool/mpt3sas.ko" ] && exit 0
done
built=
for f in /lib/modules/*/extra/mpt3sas-chainpool/mpt3sas.ko; do
	[ -e "$f" ] || continue
	f=${f#/lib/modules/}
	built="$built${built:+ }${f%%/*}"
done
echo "kmod-mpt3sas-chainpool: kernel $kver lacks symbols with the CRCs the module" \
	"needs (built for ${built:-no kernel}): $kver keeps its own mpt3sas until a" \
	"kmod-mpt3sas-chainpool built for it is installed" >&2
rules=/usr/share/kmod-mpt3sas-chainpool/hba-rules.sh
if [ -f "$rules" ]; then
	NAME=mpt3sas-chainpool
	# shellcheck source=packaging/hba-rules.sh
	. "$rules"
	no_driver "$kver" "kmod-mpt3sas-chainpool does not fit its kABI" \
		"install kmod-mpt3sas-chainpool built for $kver (make kmod KVER=$kver), or mpt3sas-chainpool-dkms"
fi
exit 0
