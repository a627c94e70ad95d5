#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The PCI IDs our mpt3sas claims, from the driver's own table:
#
#   pci-ids.sh TREE_DIR     lines "vvvv:dddd FAMILY" (1000:0072 SAS2008)
#
# make dist writes them into the DKMS tree as pci-ids, which
# kernel-setup.sh compares with a kernel's own driver and with the HBAs
# present.  Read from the source (mpt3sas_pci_table and the MPI headers'
# defines), not from a built module: the list must be there before any
# build, and for a kernel where the build fails.  Fails on an entry whose
# IDs it cannot resolve, and on an empty table.

set -eu

tree=$1
{
	cat "$tree"/mpt3sas/mpi/mpi2_cnfg.h "$tree"/mpt3sas/mpt3sas_base.h
	echo '@@TABLE@@'
	sed -n '/mpt3sas_pci_table\[\] = {/,/^};/p' "$tree/mpt3sas/mpt3sas_scsih.c"
} | awk '
function hex4(x) {
	x = tolower(x)
	sub(/^0x/, "", x)
	while (length(x) < 4)
		x = "0" x
	return x
}
$1 == "#define" && $2 ~ /^MPI2[0-9]*_/ && $3 ~ /^\(0x[0-9A-Fa-f]+\)$/ {
	v = $3
	gsub(/[()]/, "", v)
	val[$2] = v
	next
}
/@@TABLE@@/ { t = 1; next }
t { line = line $0 }
END {
	n = split(line, e, "}")
	for (i = 1; i <= n; i++) {
		if (!match(e[i], /\{ *[A-Za-z0-9_]+, *[A-Za-z0-9_]+/))
			continue
		s = substr(e[i], RSTART + 1, RLENGTH - 1)
		gsub(/ /, "", s)
		split(s, p, ",")
		if (!(p[1] in val) || !(p[2] in val)) {
			print "pci-ids: cannot resolve " p[1] ", " p[2] > "/dev/stderr"
			bad = 1
			continue
		}
		name = p[2]
		sub(/^MPI2[0-9]*_(MFGPAGE_DEVID_)?/, "", name)
		sub(/_DEVID$/, "", name)
		sub(/_[0-9]$/, "", name)
		printf "%s:%s %s\n", hex4(val[p[1]]), hex4(val[p[2]]), name
		found++
	}
	if (!found) {
		print "pci-ids: no mpt3sas_pci_table entry found" > "/dev/stderr"
		bad = 1
	}
	exit bad
}'
