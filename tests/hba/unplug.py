#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unplug a guest's device when the guest asks for it.

    tests/hba/unplug.py SERIAL_LOG QMP_SOCKET DEVICE_ID [TIMEOUT]

Waits for the guest line "hba-unplug: UNPLUG <bdf>" (tests/hba/guest/
hba-unplug) in the serial log, then sends device_del DEVICE_ID on the
guest's QMP socket (tests/vm/run.sh --qmp) and waits for QEMU's
DEVICE_DELETED event: the guest let the device go.  Prints one line and
exits 0 when the device was deleted, 1 when QEMU refused or never deleted
it, 2 when the guest never asked or QEMU went away first.
"""

import json
import os
import socket
import sys
import time


def wait_for_request(log, deadline):
    while time.monotonic() < deadline:
        try:
            with open(log, "rb") as f:
                if b"hba-unplug: UNPLUG " in f.read():
                    return True
        except FileNotFoundError:
            pass
        time.sleep(0.2)
    return False


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


def guarded(tag, body):
    """body()'s status; 2 if QMP failed, 1 if QEMU refused a command."""
    try:
        return body()
    except (OSError, EOFError) as e:
        print(f"{tag}: QMP: {e}")
        return 2
    except RuntimeError as e:
        print(f"{tag}: refused: {e}")
        return 1


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    log, path, device = sys.argv[1:4]
    timeout = float(sys.argv[4]) if len(sys.argv) == 5 else 600
    deadline = time.monotonic() + timeout
    if not wait_for_request(log, deadline):
        print(f"unplug {device}: the guest never asked for it")
        return 2

    def unplug():
        qmp = QMP(path, deadline)
        start = time.monotonic()
        qmp.command("device_del", id=device)
        if not qmp.wait_event("DEVICE_DELETED", device, min(deadline, start + 120)):
            print(f"unplug {device}: no DEVICE_DELETED within 120 s")
            return 1
        print(f"unplug {device}: deleted {time.monotonic() - start:.1f} s after device_del")
        return 0

    return guarded(f"unplug {device}", unplug)


if __name__ == "__main__":
    sys.exit(main())
