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

    python benchmarks/bench_render_json.py [INVENTORY] [--runs N]
"""

from __future__ import annotations

import json
import os
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


def one_run(inventory: Path, work: Path) -> None:
    """Render into `work`/out, parse it back, the phases into `work`/again; print the run."""
    out = work / "out"
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
                                        str(work / "again")], check=True,
                                       capture_output=True, text=True, cwd=ROOT).stdout)
    print(f"{inventory.name}: netcfg render --out {render:.2f} s wall, {render_cpu:.2f} s CPU"
          f" (a fresh interpreter, its workers included); json parse of its {parsed['files']} "
          f".json files ({parsed['bytes'] / 1e6:.0f} MB) {parsed['seconds']:.2f} s wall, "
          f"{parsed['cpu']:.2f} s CPU")
    print("  in-process (wall / CPU): " + ", ".join(f"{k} {w:.2f} / {c:.2f} s"
                                                   for k, (w, c) in phases.items()))
    print(f"ratio render / parse: {render / parsed['seconds']:.1f}x wall, "
          f"{render_cpu / parsed['cpu']:.1f}x CPU (target at most 3x)", flush=True)


def settled(tmp: Path, label: str) -> float:
    """Seconds one empty file's creation takes under `tmp` once the filesystem has settled:
    probed with 200 files every 2 s (at most a minute) until it is under 50 us. The probes'
    files stay until the end, so probing removes nothing."""
    probe = 0.0
    for attempt in range(30):
        folder = tmp / f"probe-{label}-{attempt}"
        folder.mkdir()
        t = time.perf_counter()
        for i in range(200):
            os.close(os.open(folder / str(i), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        probe = (time.perf_counter() - t) / 200
        if probe < 50e-6:
            break
        time.sleep(2)
    return probe


def main() -> None:
    """`[INVENTORY] [--runs N]` (gpu32768, 3 runs). Each run writes into a directory of its
    own, and all of them are removed after the last run, not between runs: removing a run's
    278 MB of files makes the kernel's next file creations wait for seconds where the
    filesystem discards freed blocks as it goes (ext4 mounted with `discard`, as on the
    2-core machine: an empty file's creation took 0.43 ms right after such a removal and
    0.02 ms otherwise), which measured that removal, not the render. Before each run the
    script waits until creating a file is fast again (`settled`) and prints how fast."""
    args = sys.argv[1:]
    runs = 3
    if "--runs" in args:
        at = args.index("--runs")
        runs = int(args[at + 1])
        del args[at:at + 2]
    inventory = ROOT / "inventories" / (args[0] if args else "gpu32768")
    os.sync()
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(runs):
            probe = settled(Path(tmp), str(run))
            state = "settled" if probe < 50e-6 else "not settled after a minute"
            print(f"run {run + 1}: an empty file's creation {probe * 1e6:.0f} us ({state})")
            one_run(inventory, Path(tmp) / f"run-{run}")


if __name__ == "__main__":
    main()
