"""Deadlock checker figures: `python benchmarks/bench_deadlock.py [--quick] [--case N]`.

Prints wall time and peak RSS (each case in its own child process, so each peak is its own)
for: the 32,768-GPU inventory (no failures: configured model, bounce_on_failure; target for
the latter 30 s and 2 GiB), the 2,048-GPU inventory with
the graph built, its single-link-failure sweeps under `updown` (a proof) and
`bounce_on_failure` (incremental, every set and by symmetry; target: at most 60 s), and the
two-failure `bounce_on_failure` sweeps of the example and of gpu2048 (by symmetry).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from netcfg.deadlock.check import check  # noqa: E402
from netcfg.validate import validate  # noqa: E402

BOUNCE = "bounce_on_failure"
#: (label, inventory, check() keywords, heavy)
CASES = [
    ("gpu32768, configured model (updown)", "gpu32768", {}, False),
    ("gpu32768, bounce, no failure", "gpu32768", {"model": BOUNCE}, False),
    ("gpu2048, updown, graph built", "gpu2048", {"exhaustive": True}, False),
    ("gpu2048, updown, --failures 1", "gpu2048", {"failures": 1}, False),
    ("example, bounce, --failures 2 (symmetry)", "example",
     {"failures": 2, "model": BOUNCE}, False),
    ("gpu2048, bounce, --failures 1 (every set)", "gpu2048",
     {"failures": 1, "model": BOUNCE, "symmetry": False}, True),
    ("gpu2048, bounce, --failures 1 (symmetry)", "gpu2048",
     {"failures": 1, "model": BOUNCE}, True),
    ("gpu2048, bounce, --failures 2 (symmetry)", "gpu2048",
     {"failures": 2, "model": BOUNCE}, True),
]


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(label: str, inventory: str, **kw) -> None:
    t0 = time.perf_counter()
    fabric = validate(ROOT / "inventories" / inventory).fabric
    t1 = time.perf_counter()
    r = check(fabric, **kw)
    t2 = time.perf_counter()
    sweep = ""
    if r.sweep:
        s = r.sweep
        sweep = (f", sweep K={s['k']}: {s['checked']:,} checked for {s['represented']:,}/"
                 f"{s['sets']:,} sets, {s['cyclic_sets']:,} cyclic "
                 f"({s['method'].split(':')[0]}{', symmetry' if s['symmetry']['exact'] else ''})")
        if s["checked"] > 1:
            sweep += f", {1000 * (t2 - t1) / s['checked']:.1f} ms/set incl. start graph"
    print(f"{label:<44} build {t1 - t0:5.2f} s  check {t2 - t1:6.2f} s  "
          f"peak RSS {rss_mib():6.0f} MiB  {r.verdict}; {r.nodes} queues, {r.edges} edges"
          f"{sweep}", flush=True)


if __name__ == "__main__":
    if "--case" in sys.argv:
        label, inventory, kw, _heavy = CASES[int(sys.argv[sys.argv.index("--case") + 1])]
        run(label, inventory, **kw)
        sys.exit(0)
    for i, (_label, _inv, _kw, heavy) in enumerate(CASES):
        if heavy and "--quick" in sys.argv:
            continue
        subprocess.run([sys.executable, __file__, "--case", str(i)], check=True)
