#!/usr/bin/env python3
"""Time to derive PFC headroom for every lossless switch port, the buffer budget of every
switch and the buffer/ECN/DCQCN checks, per bundled inventory.

Target (physics issue): every port of the 32,768-GPU inventory in at most 1 s.
The fabric is built first and not timed; each inventory runs in a fresh child process.
Usage: python benchmarks/bench_physics.py [--repeat N]
"""

from __future__ import annotations

import json
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from benchmarks import childrun  # noqa: E402


def child(path: str, repeat: int) -> None:
    from netcfg.intent.load import load_intent
    from netcfg.physics import derive
    from netcfg.physics.checks import check
    from netcfg.topology import build_fabric

    fabric = build_fabric(load_intent(path))
    derive_s, check_s = [], []
    physics = None
    for _ in range(repeat):
        physics = None  # free the previous run before timing the next
        t = time.perf_counter()
        physics = derive(fabric)
        derive_s.append(time.perf_counter() - t)
        t = time.perf_counter()
        findings = check(physics)
        check_s.append(time.perf_counter() - t)
        assert not [f for f in findings if f.severity == "error"], [f.text() for f in findings]
    assert physics is not None
    print(json.dumps({
        "ports": len(physics.ports), "switches": len(physics.budgets),
        "distinct": len(physics.headroom._memo),
        "derive_s": statistics.median(derive_s), "check_s": statistics.median(check_s),
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def main() -> None:
    header = False
    for name, r, _ in childrun.run(__file__, __doc__, child, default_repeat=5):
        if not header:
            print(f"{'inventory':<12} {'switches':>8} {'lossless ports':>15} {'distinct':>9} "
                  f"{'derive s':>9} {'checks s':>9} {'peak MiB':>9}")
            header = True
        print(f"{name:<12} {r['switches']:>8} {r['ports']:>15} {r['distinct']:>9} "
              f"{r['derive_s']:>9.3f} {r['check_s']:>9.3f} {r['peak_mib']:>9.1f}")


if __name__ == "__main__":
    main()
