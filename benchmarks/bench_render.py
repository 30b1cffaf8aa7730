#!/usr/bin/env python3
"""Render speed: median time per 64-port device for each NOS, and intent-to-all-files for the
32,768-GPU inventory.

Targets (render issue): at most 3 ms median per 64-port device; the 32,768-GPU inventory from
intent to every file on disk in at most 30 s. Per-NOS figures render the example inventory's
switches (64 x 400G ports each) with every switch on that NOS's platform; the plan is built
first and only template rendering is timed. Usage: python benchmarks/bench_render.py
"""

from __future__ import annotations

import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

PLATFORM = {"eos": "arista-7060x6-eos", "nxos": "cisco-n9364e-sg2-nxos",
            "junos": "juniper-qfx5240-junos", "cumulus": "nvidia-sn5600-cumulus",
            "sonic": "nvidia-sn5600-sonic"}


def per_device(nos: str, repeat: int = 20) -> tuple[float, float, int]:
    """(median ms per device for the plan, median ms per device for the template, ports)."""
    from netcfg.render.engine import render_plan
    from netcfg.render.plan import PlanBuilder
    from netcfg.validate import validate

    text = (ROOT / "inventories" / "example" / "fabric.yaml").read_text()
    text = text.replace("nvidia-sn5600-cumulus", PLATFORM[nos])
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "fabric.yaml").write_text(text)
        v = validate(tmp)
        assert v.ok and v.fabric and v.physics, [f.text() for f in v.findings]
        builder = PlanBuilder(v.fabric, v.physics)
        leaf = v.fabric.devices["leaf-su1-r1"]
        plans, renders = [], []
        for _ in range(repeat):
            t = time.perf_counter()
            plan = builder.plan(leaf)
            plans.append(time.perf_counter() - t)
            t = time.perf_counter()
            render_plan(plan)
            renders.append(time.perf_counter() - t)
        return statistics.median(plans) * 1e3, statistics.median(renders) * 1e3, len(leaf.ports)


def whole(inventory: str) -> dict[str, float]:
    from netcfg.outdir import write_owned
    from netcfg.render.engine import render_files
    from netcfg.validate import validate

    t0 = time.perf_counter()
    v = validate(ROOT / "inventories" / inventory)
    t1 = time.perf_counter()
    assert v.fabric and v.physics
    files = render_files(v.fabric, v.physics, v.fabric.switches())
    t2 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        write_owned(Path(tmp) / "out", v.fabric.name, files)
    t3 = time.perf_counter()
    return {
        "validate": t1 - t0,
        "render": t2 - t1,
        "write": t3 - t2,
        "total": t3 - t0,
        "files": len(files),
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    from netcfg.vendors import names

    print(f"{'nos':<8} {'ports':>5} {'plan ms':>8} {'render ms':>10}")
    for nos in PLATFORM:
        if nos not in names():
            print(f"{nos:<8} (no vendor package)")
            continue
        plan_ms, render_ms, ports = per_device(nos)
        print(f"{nos:<8} {ports:>5} {plan_ms:>8.2f} {render_ms:>10.2f}")
    for inventory in ("example", "multivendor", "gpu32768"):
        try:
            r = whole(inventory)
        except ImportError as exc:
            print(f"{inventory}: {exc}")
            continue
        print(f"{inventory}: {r['files']} files, validate {r['validate']:.2f} s, render "
              f"{r['render']:.2f} s, write {r['write']:.2f} s, total {r['total']:.2f} s, "
              f"peak {r['peak_mib']:.0f} MiB")


if __name__ == "__main__":
    main()
