#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Plug and unplug a guest's devices when the guest asks for it.

    tests/hba/hotplug.py SERIAL_LOG QMP_SOCKET DISK [TIMEOUT]

Follows the guest's serial log and answers on its QMP socket: "hba-...:
PLUG ID PROPS" plugs a sas3008 (driver= in PROPS: another chip) with id
ID and PROPS into rp1, with DISK on its phy 0; "UNPLUG ID" device_dels ID;
"DONE" ends.  Exits 0 when every request was carried out and the guest
said DONE, 1 when QEMU refused one, 2 when the guest or QEMU went away.
"""

import json
import re
import socket
import sys
import time

REQUEST = re.compile(rb"hba-[a-z]+: (PLUG (\S+) (\S+)|UNPLUG (\S+)|DONE)\r?$")


class QMP:
    def __init__(self, path, deadline):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(max(1.0, deadline - time.monotonic()))
        self.sock.connect(path)
        self.buf = b""
        self.events = []
        self.read()                     # the greeting
        self.command("qmp_capabilities")

    def read(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("QEMU closed the QMP socket")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def command(self, name, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            reply = self.read()
            if "event" in reply:
                self.events.append(reply)
            elif "error" in reply:
                raise RuntimeError(reply["error"].get("desc", str(reply)))
            elif "return" in reply:
                return reply["return"]

    def wait_event(self, name, device, deadline):
        while True:
            for ev in self.events:
                if ev["event"] == name and ev.get("data", {}).get("device") == device:
                    return True
            self.events = []
            self.sock.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                self.events.append(self.read())
            except socket.timeout:
                return False


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


def plug(qmp, dev, props, disk):
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


def unplug(qmp, dev, plugged, deadline):
    start = time.monotonic()
    qmp.command("device_del", id=dev)
    if not qmp.wait_event("DEVICE_DELETED", dev, min(deadline, start + 120)):
        raise RuntimeError(f"no DEVICE_DELETED for {dev} within 120 s")
    if dev in plugged:
        qmp.command("blockdev-del", **{"node-name": f"{dev}-disk"})
        plugged.discard(dev)
    return time.monotonic() - start


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    log, path, disk = sys.argv[1:4]
    deadline = time.monotonic() + (float(sys.argv[4]) if len(sys.argv) == 5 else 3600)

    def serve():
        qmp = None
        plugged = set()
        done = 0
        for line in lines(log, deadline):
            m = REQUEST.search(line)
            if not m:
                continue
            if m.group(1) == b"DONE":
                print(f"hotplug: {done} requests carried out, the guest is done")
                return 0
            if qmp is None:
                qmp = QMP(path, deadline)
            if m.group(2):
                dev, props = m.group(2).decode(), m.group(3).decode()
                plug(qmp, dev, props, disk)
                plugged.add(dev)
                print(f"hotplug: plugged {dev} ({props})")
            else:
                dev = m.group(4).decode()
                secs = unplug(qmp, dev, plugged, deadline)
                print(f"hotplug: unplugged {dev}, deleted {secs:.1f} s after device_del")
            sys.stdout.flush()
            done += 1
        print(f"hotplug: {done} requests carried out, the guest never said DONE")
        return 2

    try:
        return serve()
    except (OSError, EOFError) as e:
        print(f"hotplug: QMP: {e}")
        return 2
    except RuntimeError as e:
        print(f"hotplug: refused: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
