#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/hba/malformed.sh QEMU: malformed requests to the emulated SAS3008
# and MCPU endpoint through qtest (no guest): each must fault the IOC (with
# its code) or get an error status, a diag reset must bring it back, and
# QEMU must survive.  Prints KTAP and "N passed, N failed".

set -u
qemu=${1:?usage: $0 QEMU}
bar=0xe0000000
dir=$(mktemp -d)
trap 'rm -rf "$dir"; kill "$qpid" 2>/dev/null' EXIT
mkfifo "$dir/in"

"$qemu" -L /usr/share/qemu -L /usr/share/seabios -machine q35 -accel qtest \
	-qtest stdio -display none -nodefaults -trace sas3008_fault \
	-device sas3008,addr=04.0,id=hba -m 256M \
	-blockdev driver=null-co,node-name=n0,size=1048576 \
	-device scsi-hd,drive=n0,bus=hba.0,scsi-id=0 \
	-device mpi-switch-ep,addr=05.0,id=hba2 \
	-blockdev driver=null-co,node-name=n1,size=1048576 \
	-device scsi-hd,drive=n1,bus=hba2.0,scsi-id=0 <"$dir/in" >"$dir/out" 2>"$dir/err" &
qpid=$!
exec 3>"$dir/in"
# shellcheck source=tests/lib/ktap.sh
. "$(dirname "$0")/../lib/ktap.sh"
ktap_print_header

replies() { grep -c '^\(OK\|FAIL\|ERR\)' "$dir/out" 2>/dev/null; }
# send LINE: one qtest command, print its answer (works in a subshell too)
send() {
	local want
	want=$(($(replies) + 1))
	echo "$1" >&3
	for _ in $(seq 500); do
		[ "$(replies)" -ge "$want" ] && break
		sleep 0.01
	done
	sed -n '/^\(OK\|FAIL\|ERR\)/p' "$dir/out" | sed -n "${want}p"
}
# cfg OFFSET VALUE: config space of device $slot (04.0, then 05.0)
slot=4
cfg() { send "outl 0xcf8 $((0x80000000 | (slot << 11) | $1))" >/dev/null; send "outl 0xcfc $2" >/dev/null; }
wr() { send "writel $((bar + $1)) $2" >/dev/null; }
rd() { send "readl $((bar + $1))" | awk '{print $2}'; }
state() { printf '0x%08x' $(($(rd 0) & 0xf0000000)); }
doorbell() { printf '0x%08x' $(($(rd 0))); }
diag_reset() {
	local k
	for k in 0x0 0xf 0x4 0xb 0x2 0x7 0xd; do wr 0x04 $k; done
	wr 0x08 0x4
}
# read_frame ADDR WORD0: the head of a SCSI IO request at ADDR, a READ(10)
# of 512 bytes from device handle 9 with its SGL at 0x60; WORD0 carries
# the handle, the function and the ChainOffset
read_frame() {
	send "writel $1 $2" >/dev/null
	send "writel $(($1 + 0x14)) 0x00000018" >/dev/null     # SGLOffset0 0x60
	send "writel $(($1 + 0x1c)) 512" >/dev/null            # DataLength
	send "writel $(($1 + 0x24)) 10" >/dev/null             # CDB length
	send "writel $(($1 + 0x3c)) 0x02000000" >/dev/null     # read
	send "writel $(($1 + 0x40)) 0x00000028" >/dev/null     # READ(10)
}

# post_invalid_sgl QUEUE WHAT: post SMID 1 as a SCSI IO to handle 9; its
# SGL must be refused: the IOC stays OPERATIONAL and the head of the reply
# post queue at QUEUE is an address reply with IOCStatus INVALID_SGL
post_invalid_sgl() {
	local desc frame st
	wr 0xc0 $((1 << 16))
	wr 0xc4 $((9 << 16))
	ktap_test_result "$2: the IOC stays OPERATIONAL" [ "$(state)" = 0x20000000 ]
	desc=$(send "readq $1" | awk '{print $2}')
	ktap_test_result "  and posts an address reply" [ $((desc & 0xf)) = 1 ]
	frame=$((desc >> 32))
	st=$(send "readl $((frame + 0x0c))" | awk '{print $2}')
	ktap_test_result "  with IOCStatus INVALID_SGL" [ $(((st >> 16) & 0xffff)) = 3 ]
}

# handshake DWORDS...: returns the reply's 16-bit words, space separated
handshake() {
	local d out="" i
	wr 0x30 0
	wr 0x00 $(((0x42 << 24) | ($# << 16)))
	wr 0x30 0
	for d in "$@"; do wr 0x00 "$d"; done
	for i in $(seq 64); do
		[ $(($(rd 0x30) & 1)) = 1 ] || break
		[ $(($(rd 0x00) & 0x08000000)) != 0 ] || break
		out="$out $(($(rd 0x00) & 0xffff))"
		wr 0x30 0
	done
	wr 0x30 0
	echo "$out"
}

# ioc_init DEPTHS REQUEST POST FREE: IOC Init (18 dwords) with the reply
# post and free queue depths (DEPTHS: free << 16 | post) and the addresses
# of the request frames and the reply post and free queues
ioc_init() {
	handshake 0x02000004 0 0 0 0 0x01000000 0x00200000 "$1" \
		0 0 "$2" 0 "$3" 0 "$4" 0 0 0
}

# BAR 1 at $bar, memory and bus master on (device 04.0)
cfg 0x14 $bar
cfg 0x18 0
cfg 0x04 6
ktap_test_result "READY after reset" [ "$(state)" = 0x10000000 ]

wr 0x00 $((0x42 << 24))
ktap_test_result "handshake of 0 dwords: FAULT" [ "$(state)" = 0x40000000 ]
ktap_test_result "  with fault code 0x5302" [ "$(doorbell)" = 0x40005302 ]
diag_reset
ktap_test_result "diag reset: READY" [ "$(state)" = 0x10000000 ]

# post queue depth 17 (not a multiple of 16)
words=$(ioc_init 0x00100011 0xdead0000 0xdead1000 0xdead2000)
status=$(echo "$words" | awk '{print $8}')
ktap_test_result "IOC Init with a bad post queue depth: INVALID_FIELD" [ "${status:-x}" = 7 ]
ktap_test_result "  and still READY" [ "$(state)" = 0x10000000 ]

# IOC Init with garbage addresses (unbacked): accepted
init_unbacked() { ioc_init 0x00100010 0xdead0000 0xdead1000 0xdead2000 >/dev/null; }
init_unbacked
ktap_test_result "IOC Init with unbacked queues: OPERATIONAL" [ "$(state)" = 0x20000000 ]

wr 0xc0 0x00000008
wr 0xc4 0
ktap_test_result "descriptor with SMID 0: FAULT 0x5301" [ "$(doorbell)" = 0x40005301 ]
diag_reset
init_unbacked
wr 0xc0 $(((1 << 16) | 0x1e))
wr 0xc4 0
ktap_test_result "descriptor of an unknown type: FAULT 0x5302" [ "$(doorbell)" = 0x40005302 ]
diag_reset
init_unbacked
wr 0x6c $(((5 << 24) | 3))
ktap_test_result "reply post index of a queue that does not exist: FAULT 0x5303" \
	[ "$(doorbell)" = 0x40005303 ]
diag_reset

# a SCSI IO whose SGL chains to itself, in guest RAM at 1 MiB: frames of
# 128 bytes from 0x100000 (SMID 1 at 0x100080)
ioc_init 0x00100010 0x100000 0x200000 0x300000 >/dev/null
for i in $(seq 0 15); do
	send "writel $((0x300000 + 4 * i)) $((0x400000 + 128 * i))" >/dev/null
done
wr 0x48 15
wr 0x6c 0
f=0x100080
read_frame "$f" 0x00000009                               # no ChainOffset
# a chain element at 0x60 pointing at itself (0x100080 + 0x60)
send "writeq $((f + 0x60)) $((f + 0x60))" >/dev/null
send "writel $((f + 0x68)) 16" >/dev/null
send "writel $((f + 0x6c)) 0x80000000" >/dev/null
post_invalid_sgl 0x200000 "a self-referencing chain"

diag_reset
ktap_test_result "QEMU still answers: READY" [ "$(state)" = 0x10000000 ]

# The MCPU endpoint: its 4 MiB 32-bit memory BAR 1 at 0xe1000000
slot=5
bar=0xe1000000
cfg 0x14 $bar
cfg 0x04 6
ktap_test_result "mcpu: READY after reset" [ "$(state)" = 0x10000000 ]
words=$(handshake 0x03000000 0 0)
ktap_test_result "mcpu: IOC Facts of MPI 2.0, RequestCredit 32" \
	[ "$(echo "$words" | awk '{print $1, $13}')" = "512 32" ]
# IOC Init with a reply post queue as deep as the free queue (17), posting
# at 0x600000; the reply frames of the free queue above, cleared
ioc_init 0x00110011 0x100000 0x600000 0x300000 >/dev/null
ktap_test_result "mcpu: IOC Init with queues of 17: OPERATIONAL" [ "$(state)" = 0x20000000 ]
send "writel 0x40000c 0" >/dev/null
wr 0x48 16
wr 0x6c 0
# a SCSI IO frame in the BAR (SMID 1: 256 + 128) whose SGL chains (32-bit
# chain element at ChainOffset 0x60) to a segment in the BAR that holds a
# simple element and a chain back to itself (NextChainOffset 8 bytes)
f=$((bar + 0x180))
seg=$((bar + 0x10000))
read_frame "$f" 0x00180009                               # ChainOffset 0x18 dwords
send "writel $((f + 0x60)) 0x30020010" >/dev/null        # chain, next at 8, 16 bytes
send "writel $((f + 0x64)) $seg" >/dev/null
send "writel $seg 0x10000200" >/dev/null                 # simple, 512 bytes
send "writel $((seg + 4)) 0x500000" >/dev/null
send "writel $((seg + 8)) 0x30020010" >/dev/null         # chain to itself
send "writel $((seg + 12)) $seg" >/dev/null
post_invalid_sgl 0x600000 "mcpu: an MPI chain that loops"
diag_reset
ktap_test_result "mcpu: diag reset: READY" [ "$(state)" = 0x10000000 ]
ktap_test_result "QEMU is still running" kill -0 "$qpid"
# the trace event of each fault, with the code the Doorbell showed
ktap_test_result "faults 0x5301 to 0x5303 traced" \
	[ "$(grep -o 'sas3008_fault IOC fault 0x530[1-3]' "$dir/err" | sort -u | wc -l)" = 3 ]
clean_err() { ! grep -qiE 'assert|abort|segmentation' "$dir/err"; }
ktap_test_result "no assertion or crash on stderr" clean_err
# stop it before closing its input (qtest complains on a closed stdin)
kill "$qpid" 2>/dev/null
wait "$qpid" 2>/dev/null
exec 3>&-
ktap_print_plan
ktap_print_totals
echo "$KTAP_CNT_PASS passed, $KTAP_CNT_FAIL failed"
[ "$KTAP_CNT_FAIL" = 0 ]
