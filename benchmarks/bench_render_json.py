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

#: run in a fresh interpreter: the command's steps, each timed
PHASES = """
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from netcfg.deadlock import gate
from netcfg.outdir import write_owned
from netcfg.render import engine
from netcfg.validate import validate
t1 = time.perf_counter()
v = validate(sys.argv[1])
t2 = time.perf_counter()
assert gate.passes(v.fabric, False, lambda line: None)
t3 = time.perf_counter()
pool = {"workers": engine.workers_available()} if hasattr(engine, "workers_available") else {}
files = engine.render_files(v.fabric, v.physics, engine.select(v.fabric), **pool)
t4 = time.perf_counter()
write_owned(Path(sys.argv[2]), v.fabric.name, files)
t5 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "validate": t2 - t1, "gate": t3 - t2, "render": t4 - t3,
                  "write": t5 - t4}))
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
    print("  in-process (wall): " + ", ".join(f"{k} {v:.2f} s" for k, v in phases.items()))
    print(f"ratio render / parse: {render / parsed['seconds']:.1f}x wall, "
          f"{render_cpu / parsed['cpu']:.1f}x CPU (target at most 3x)")


if __name__ == "__main__":
    main()
