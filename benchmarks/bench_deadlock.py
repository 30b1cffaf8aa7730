"""Deadlock checker figures: `python benchmarks/bench_deadlock.py [--quick]`.

Prints wall time and peak RSS for: the 32,768-GPU inventory (no failures, configured model),
the 2,048-GPU inventory with the graph built, and its full single-link-failure sweep under
`updown` (a proof) and `bounce_on_failure` (incremental; target: at most 60 s).
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from netcfg.deadlock.check import check  # noqa: E402
from netcfg.validate import validate  # noqa: E402


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
        sweep = f", sweep K={r.sweep['k']}: {r.sweep['checked']}/{r.sweep['sets']} sets, " \
                f"{r.sweep['cyclic_sets']} cyclic ({r.sweep['method'].split(':')[0]})"
        if r.sweep["checked"] > 1:
            sweep += f", {1000 * (t2 - t1) / r.sweep['checked']:.1f} ms/set incl. start graph"
    print(f"{label:<44} build {t1 - t0:5.2f} s  check {t2 - t1:6.2f} s  "
          f"peak RSS {rss_mib():6.0f} MiB  {r.verdict}; {r.nodes} queues, {r.edges} edges"
          f"{sweep}")


if __name__ == "__main__":
    run("gpu32768, configured model (updown)", "gpu32768")
    run("gpu2048, updown, graph built", "gpu2048", exhaustive=True)
    run("gpu2048, updown, --failures 1", "gpu2048", failures=1)
    if "--quick" not in sys.argv:
        run("gpu2048, bounce_on_failure, --failures 1", "gpu2048", failures=1,
            model="bounce_on_failure")
