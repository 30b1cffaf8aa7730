#!/usr/bin/env python3
"""gpu32768 from intent to every file on disk, against Python's `json` parsing the same files
back, in one run (both under the same machine load).

Rendering is `netcfg render inventories/gpu32768 --out DIR` as a user runs it (a fresh
interpreter: imports, validate, the deadlock gate, plans and templates on every core the
process may use, the all-or-nothing write), timed from outside. Parsing is `json.load` of
every .json file in DIR in a fresh interpreter, timed inside it (interpreter start not
counted). A breakdown of the render (validate, gate, render, write) is measured in-process
the same way the command runs them (a checkout from before the process pool renders in one
process). Each is given in wall time and in CPU time (user + system, the pool's workers
included): on a shared machine the CPU time changes far less than the wall time. Target
(render issue): render within 3x the parse.

    python benchmarks/bench_render_json.py [INVENTORY]
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

#: run in a fresh interpreter: parse every .json file below a directory, print seconds
PARSE = """
import json, sys, time
from pathlib import Path
files = sorted(Path(sys.argv[1]).rglob("*.json"))
t, c = time.perf_counter(), time.process_time()
size = 0
for f in files:
    with open(f, "rb") as fh:
        data = fh.read()
    size += len(data)
    json.loads(data)
print(json.dumps({"seconds": time.perf_counter() - t, "cpu": time.process_time() - c,
                  "files": len(files), "bytes": size}))
"""

#: run in a fresh interpreter: the command's steps, each timed (wall and CPU: CPU of this
#: process and of its finished workers)
PHASES = """
import json, os, sys, time
from pathlib import Path
def now():
    t = os.times()
    return time.perf_counter(), t.user + t.system + t.children_user + t.children_system
t0 = now()
from netcfg.deadlock import gate
from netcfg.render import engine, host
from netcfg.validate import validate
t1 = now()
v = validate(sys.argv[1])
t2 = now()
assert gate.passes(v.fabric, False, lambda line: None)
t3 = now()
devices = engine.select(v.fabric)
out = Path(sys.argv[2])
if hasattr(engine, "render_into"):  # workers write their files into DIR's staging directory
    from netcfg.outdir import write_staged
    hosts = host.render_hosts(v.fabric)
    names = [engine.switch_file(v.fabric, d) for d in devices] + list(hosts)
    marks = {}
    def fill(staging):
        engine.render_into(v.fabric, v.physics, devices, staging, hosts,
                           workers=engine.workers_available())
        marks["rendered"] = now()
    write_staged(out, v.fabric.name, names, fill)
    t4, t5 = marks["rendered"], now()
else:  # the texts come back to this process, which writes them
    from netcfg.outdir import write_owned
    pool = {"workers": engine.workers_available()} if hasattr(engine, "workers_available") else {}
    files = engine.render_files(v.fabric, v.physics, devices, **pool)
    t4 = now()
    write_owned(out, v.fabric.name, files)
    t5 = now()
marks = [t0, t1, t2, t3, t4, t5]
steps = ("import", "validate", "gate", "render", "write")
print(json.dumps({s: [b[0] - a[0], b[1] - a[1]] for s, a, b in zip(steps, marks, marks[1:])}))
"""


def main() -> None:
    inventory = ROOT / "inventories" / (sys.argv[1] if len(sys.argv) > 1 else "gpu32768")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        t, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-m", "netcfg.cli", "render", str(inventory), "--out",
                        str(out)], check=True, capture_output=True, cwd=ROOT)
        render = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the command and its workers
        render_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        parsed = json.loads(subprocess.run([sys.executable, "-c", PARSE, str(out)],
                                           check=True, capture_output=True,
                                           text=True).stdout)
        phases = json.loads(subprocess.run([sys.executable, "-c", PHASES, str(inventory),
                                            str(Path(tmp) / "again")], check=True,
                                           capture_output=True, text=True, cwd=ROOT).stdout)
    print(f"{inventory.name}: netcfg render --out {render:.2f} s wall, {render_cpu:.2f} s CPU"
          f" (a fresh interpreter, its workers included); json parse of its {parsed['files']} "
          f".json files ({parsed['bytes'] / 1e6:.0f} MB) {parsed['seconds']:.2f} s wall, "
          f"{parsed['cpu']:.2f} s CPU")
    print("  in-process (wall / CPU): " + ", ".join(f"{k} {w:.2f} / {c:.2f} s"
                                                   for k, (w, c) in phases.items()))
    print(f"ratio render / parse: {render / parsed['seconds']:.1f}x wall, "
          f"{render_cpu / parsed['cpu']:.1f}x CPU (target at most 3x)")


if __name__ == "__main__":
    main()
