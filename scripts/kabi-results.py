#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""make kabi-report: for each RHEL release with a kABI stablelist in
RHEL_FIXTURES/kabi/ (8.10, 9.4, 9.6, 10.0), the symbols mpt3sas.ko imports
that the list lacks (packaging/kabi-report.sh, as the kmod build prints
it), and the module's objects that import each, into
build/kabi/results.json (stamped; make docs-results takes it to
docs/results/).  It reads the modules make matrix built: a release
without a kernel bundle of its own (9.6) is checked with the module of
the newest bundle of its major release (9.4)."""
import glob
import json
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RHEL = os.environ.get("RHEL_FIXTURES",
                      os.path.join(TOP, "..", "shared", "rhel"))
OUT = os.path.join(TOP, "build", "kabi", "results.json")


def rel_key(rel):
    return tuple(int(x) for x in rel.split("."))


def undefined(obj):
    out = subprocess.run(["nm", "-u", obj], capture_output=True, text=True,
                         check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def main():
    lists = sorted((os.path.basename(p).rsplit(".el", 1)[1], p) for p in
                   glob.glob(os.path.join(RHEL, "kabi",
                                          "Module.kabi_x86_64.el*")))
    if not lists:
        sys.exit(f"kabi-results.py: no stablelists in {RHEL}/kabi")
    built = {os.path.basename(os.path.dirname(p))[2:] for p in
             glob.glob(os.path.join(TOP, "build", "modules", "el*",
                                    "mpt3sas.ko"))}
    records = []
    for rel, path in sorted(lists, key=lambda i: rel_key(i[0])):
        major = rel.split(".")[0]
        mine = sorted((b for b in built if b.split(".")[0] == major
                       and rel_key(b) <= rel_key(rel)), key=rel_key)
        if not mine:
            print(f"kabi-results.py: no module built for el{major} "
                  f"(make matrix): el{rel} left out", file=sys.stderr)
            continue
        series = "el" + mine[-1]
        ko = os.path.join(TOP, "build", "modules", series, "mpt3sas.ko")
        objdir = os.path.dirname(glob.glob(os.path.join(
            TOP, "build", "modules-obj", series, "*", "mpt3sas.ko"))[0])
        objs = [o for o in glob.glob(os.path.join(objdir, "**", "*.o"),
                                     recursive=True)
                if not o.endswith(("/mpt3sas.o", ".mod.o"))]
        with tempfile.NamedTemporaryFile("w", suffix=".list") as sl:
            # kernel-abi-stablelists' layout
            sl.write(f"[rhel{major}_x86_64_stablelist]\n")
            with open(path) as f:
                for line in f:
                    sl.write("\t" + line.split("\t")[1] + "\n")
            sl.flush()
            report = subprocess.run(
                [os.path.join(TOP, "packaging", "kabi-report.sh"), ko,
                 sl.name], capture_output=True, text=True,
                check=True).stdout.splitlines()
        imports = int(report[0].split(": ")[-1].split()[0])
        kernel = report[0].split("built for ")[1].split(":")[0]
        grey = [s for s in report if not s.startswith("#")]
        by_obj = {o: undefined(o) for o in objs}
        records.append({
            "series": series, "kernel": kernel, "release": rel,
            "imports": imports,
            "outside": [{"symbol": s, "objects": sorted(
                os.path.relpath(o, objdir)
                for o, u in by_obj.items() if s in u)} for s in grey]})
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump({"records": records}, f, indent=1)
        f.write("\n")
    print(f"kabi: {os.path.relpath(OUT, TOP)}")


if __name__ == "__main__":
    main()
