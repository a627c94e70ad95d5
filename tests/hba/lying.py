#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Plug and unplug lying controllers when the guest asks for them.

    tests/hba/lying.py SERIAL_LOG QMP_SOCKET DISK [TIMEOUT]

Follows the guest's serial log (tests/hba/guest/hba-lying) and answers on
the guest's QMP socket (tests/vm/run.sh --qmp):

    hba-lying: PLUG N PROPS   blockdev-add of DISK as node lieN-disk, then
                              device_add sas3008,id=lieN,bus=rp1,PROPS
                              (driver= in PROPS: another chip) and a
                              scsi-hd on its bus (phy 0)
    hba-lying: UNPLUG N       device_del lieN, QEMU's DEVICE_DELETED, and
                              blockdev-del of the node
    hba-lying: DONE           the guest asks for nothing more

Prints a line per request; exits 0 when every request was carried out
and the guest said DONE, 1 when QEMU refused one, 2 when the guest or
QEMU went away first.
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from unplug import QMP, guarded  # noqa: E402  (the same QMP client)

REQUEST = re.compile(rb"hba-lying: (PLUG (\d+) (\S+)|UNPLUG (\d+)|DONE)\r?$")


def lines(log, deadline):
    """The serial log's complete lines, as they come."""
    pos = 0
    part = b""
    while time.monotonic() < deadline:
        try:
            with open(log, "rb") as f:
                f.seek(pos)
                chunk = f.read()
        except FileNotFoundError:
            chunk = b""
        pos += len(chunk)
        part += chunk
        *done, part = part.split(b"\n")
        for line in done:
            yield line
        if not chunk:
            time.sleep(0.2)


def plug(qmp, n, props, disk):
    dev = f"lie{n}"
    qmp.command("blockdev-add", **{"driver": "raw", "node-name": f"{dev}-disk",
                                   "file": {"driver": "file", "filename": disk}})
    args = {"driver": "sas3008", "id": dev, "bus": "rp1"}   # PROPS may set it
    for prop in props.split(","):
        if prop and prop != "default":
            key, _, value = prop.partition("=")
            args[key] = value
    qmp.command("device_add", **args)
    qmp.command("device_add", driver="scsi-hd", id=f"{dev}-hd", drive=f"{dev}-disk",
                bus=f"{dev}.0", **{"scsi-id": 0})


def unplug(qmp, n, deadline):
    dev = f"lie{n}"
    qmp.command("device_del", id=dev)
    if not qmp.wait_event("DEVICE_DELETED", dev, min(deadline, time.monotonic() + 120)):
        raise RuntimeError(f"no DEVICE_DELETED for {dev} within 120 s")
    qmp.command("blockdev-del", **{"node-name": f"{dev}-disk"})


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    log, path, disk = sys.argv[1:4]
    deadline = time.monotonic() + (float(sys.argv[4]) if len(sys.argv) == 5 else 3600)

    def serve():
        qmp = None
        done = 0
        for line in lines(log, deadline):
            m = REQUEST.search(line)
            if not m:
                continue
            if m.group(1) == b"DONE":
                print(f"lying: {done} requests carried out, the guest is done")
                return 0
            if qmp is None:
                qmp = QMP(path, deadline)
            if m.group(2):
                plug(qmp, int(m.group(2)), m.group(3).decode(), disk)
                print(f"lying: plugged lie{int(m.group(2))} ({m.group(3).decode()})")
            else:
                unplug(qmp, int(m.group(4)), deadline)
                print(f"lying: unplugged lie{int(m.group(4))}")
            sys.stdout.flush()
            done += 1
        print(f"lying: {done} requests carried out, the guest never said DONE")
        return 2

    return guarded("lying", serve)


if __name__ == "__main__":
    sys.exit(main())
