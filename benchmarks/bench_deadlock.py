"""Deadlock checker figures: `python benchmarks/bench_deadlock.py [--quick] [--case N]`.

Prints wall time and peak RSS (each case in its own child process, so each peak is its own)
for: the 32,768-GPU inventory (no failures: configured model, bounce_on_failure; target for
the latter 30 s and 2 GiB), the 2,048-GPU inventory with
the graph built, its single-link-failure sweeps under `updown` (a proof) and
`bounce_on_failure` (incremental, every set and by symmetry; target: at most 60 s), and the
two-failure `bounce_on_failure` sweeps of the example and of gpu2048 (by symmetry), a
generated 65,536-GPU inventory (gpu32768 with twice the scalable units and cores), the
single- and two-failure sweeps of gpu32768 and gpu65536 (decided modulo symmetry), and
sweeps on a local Dask cluster of two workers (the workers' peak RSS printed beside the
driver's).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from netcfg.deadlock.check import check  # noqa: E402
from netcfg.validate import validate  # noqa: E402

BOUNCE = "bounce_on_failure"
#: (label, inventory, check() keywords, heavy)
CASES = [
    ("gpu65536 (generated), configured model", "gpu65536", {}, False),
    ("gpu65536, bounce, no failure", "gpu65536", {"model": BOUNCE}, False),
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
    ("gpu2048, bounce, --failures 1 (every set, 2 workers)", "gpu2048",
     {"failures": 1, "model": BOUNCE, "symmetry": False, "workers": 2}, True),
    ("gpu32768, bounce, --failures 1 (symmetry)", "gpu32768",
     {"failures": 1, "model": BOUNCE}, True),
    ("gpu65536, bounce, --failures 1 (symmetry)", "gpu65536",
     {"failures": 1, "model": BOUNCE}, True),
    ("gpu32768, bounce, --failures 2 (symmetry)", "gpu32768",
     {"failures": 2, "model": BOUNCE}, True),
    ("gpu32768, bounce, --failures 2 (symmetry, 2 workers)", "gpu32768",
     {"failures": 2, "model": BOUNCE, "workers": 2}, True),
    ("gpu65536, bounce, --failures 2 (symmetry)", "gpu65536",
     {"failures": 2, "model": BOUNCE}, True),
    ("gpu65536, bounce, --failures 2 (symmetry, 2 workers)", "gpu65536",
     {"failures": 2, "model": BOUNCE, "workers": 2}, True),
]


@contextmanager
def inventory(name: str) -> Iterator[Path]:
    """A bundled inventory, or gpu65536 generated from gpu32768 into a temporary directory:
    256 scalable units in 64 pods, 1,024 cores (a 64-port three-tier Clos at its largest:
    64^3 / 4 ports)."""
    if name != "gpu65536":
        yield ROOT / "inventories" / name
        return
    text = (ROOT / "inventories" / "gpu32768" / "fabric.yaml").read_text()
    for old, new in (("name: gpu32768", "name: gpu65536"),
                     ("scalable_units: 128", "scalable_units: 256"), ("cores: 512", "cores: 1024"),
                     ("172.16.0.0/20", "172.16.0.0/19"), ("172.16.15.254", "172.16.31.254")):
        assert old in text, old
        text = text.replace(old, new)
    with tempfile.TemporaryDirectory(prefix="gpu65536-") as out:
        (Path(out) / "fabric.yaml").write_text(text)
        yield Path(out)


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(label: str, name: str, workers: int = 0, **kw) -> None:
    t0 = time.perf_counter()
    with inventory(name) as path:
        fabric = validate(path).fabric
    t1 = time.perf_counter()
    if workers:
        from netcfg.deadlock.cluster import pool

        with pool(workers=workers) as p:
            t1 = time.perf_counter()  # the cluster's start is not the check's
            r = check(fabric, pool=p, **kw)
    else:
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
          f"{sweep}{workers_rss(workers)}", flush=True)


def workers_rss(workers: int) -> str:
    """The largest worker's peak RSS (the workers are this process's descendants, ended)."""
    if not workers:
        return ""
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return f"; largest worker peak RSS {peak:.0f} MiB"


if __name__ == "__main__":
    if "--case" in sys.argv:
        label, name, kw, _heavy = CASES[int(sys.argv[sys.argv.index("--case") + 1])]
        run(label, name, **kw)
        sys.exit(0)
    for i, (_label, _inv, _kw, heavy) in enumerate(CASES):
        if heavy and "--quick" in sys.argv:
            continue
        subprocess.run([sys.executable, __file__, "--case", str(i)], check=True)
