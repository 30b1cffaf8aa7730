#!/usr/bin/env python3
"""`netcfg lint` time and peak memory for the bundled inventories, every rule included: load +
schema + physics + render capabilities, a DevicePlan per switch, the no-failure deadlock check
and the cross-device rules (target: 32,768 GPUs in at most 20 s).

Each inventory runs in a fresh child process so its peak RSS is its own; the stage times are
those of the fastest run; `first s` is the first run in a fresh process (cold caches),
`lint s` the median. Usage: python benchmarks/bench_lint.py [--repeat N]
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

STAGES = ("validate", "plans", "deadlock", "consistency")


def child(path: str, repeat: int) -> None:
    t0 = time.perf_counter()
    from netcfg.lint.run import lint

    import_s = time.perf_counter() - t0
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        result = lint(path)
        runs.append((time.perf_counter() - t, result))
    best_s, best = min(runs, key=lambda r: r[0])
    print(json.dumps({
        "import_s": import_s, "first_s": runs[0][0], "best_s": best_s,
        "median_s": statistics.median(r[0] for r in runs),
        "stages": best.seconds, "findings": len(best.results),
        "verdict": (best.deadlock or {}).get("verdict"),
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }))


def main() -> None:
    rows = list(childrun.run(__file__, __doc__, child, default_repeat=3))
    if not rows:
        return  # ran as a child
    print(f"{'inventory':<12} {'first s':>7} {'lint s':>7} " + " ".join(f"{s:>11}" for s in STAGES)
          + f" {'findings':>8} {'deadlock':>13} {'peak MiB':>9}")
    for name, r, _ in rows:
        stages = " ".join(f"{r['stages'].get(s, 0.0):>11.3f}" for s in STAGES)
        print(f"{name:<12} {r['first_s']:>7.2f} {r['median_s']:>7.2f} {stages} {r['findings']:>8} "
              f"{r['verdict'] or '-':>13} {r['peak_mib']:>9.0f}")


if __name__ == "__main__":
    main()
