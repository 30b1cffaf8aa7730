#!/usr/bin/env python3
"""Load + validate + expand time and peak memory for the bundled inventories.

Targets (foundation issue): 32,768 GPUs in at most 2 s and 1 GiB; `netcfg validate
inventories/example` in at most 0.5 s wall including interpreter start.

Each inventory runs in a fresh child process so its peak RSS is its own.
Usage: python benchmarks/bench_validate.py [--repeat N]
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from benchmarks import childrun  # noqa: E402


def child(path: str, repeat: int) -> None:
    """Time validate() in this process (imports excluded, reported separately)."""
    t0 = time.perf_counter()
    from netcfg.validate import validate

    import_s = time.perf_counter() - t0
    times = []
    result = None
    for _ in range(repeat):
        t = time.perf_counter()
        result = validate(path)
        times.append(time.perf_counter() - t)
        assert result.ok, [f.text() for f in result.findings]
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    summary = result.fabric.summary() if result and result.fabric else {}
    print(
        json.dumps(
            {
                "import_s": import_s,
                "best_s": min(times),
                "median_s": statistics.median(times),
                "peak_mib": peak_kib / 1024,
                "summary": summary,
            }
        )
    )


def main() -> None:
    rows = list(childrun.run(__file__, __doc__, child, default_repeat=3))
    if not rows:
        return  # ran as a child
    print(f"{'inventory':<12} {'GPUs':>6} {'devices':>8} {'ports':>8} {'validate s':>11} "
          f"{'peak MiB':>9}")
    for name, r, _ in rows:
        s = r["summary"]
        devices = sum(v for k, v in s.items() if k not in ("links", "ports"))
        gpus = s.get("host", 0) * 8
        print(f"{name:<12} {gpus:>6} {devices:>8} {s['ports']:>8} {r['median_s']:>11.3f} "
              f"{r['peak_mib']:>9.1f}")
    walls = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "netcfg.cli", "validate", "inventories/example"],
                       cwd=ROOT, check=True, capture_output=True)
        walls.append(time.perf_counter() - t)
    print(f"\n`netcfg validate inventories/example` wall incl. interpreter start: "
          f"median {statistics.median(walls):.3f} s, best {min(walls):.3f} s (5 runs)")


if __name__ == "__main__":
    main()
