"""`netcfg verify` at fleet size: after a push, every switch's state against its plan, against
emulated switches of all five NOSes served by `netcfg lab` in a separate process (with the
lab's operational state), each command a subprocess as a user runs it.

    python benchmarks/bench_verify.py [--switches 200] [--workers 16] [--interval 1]

The fleet is bench_deploy's (the deploy tests' five-NOS inventory with as many pods as
needed). Reported: the push that sets the fleet up, then verify (exit 0 expected: SONiC and
Cumulus BGP/LLDP are VFY019 warnings), its checks and the peak memory of the verify process.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_deploy import ROOT, fleet_inventory  # noqa: E402 - the same fleet


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--switches", type=int, default=200)
    ap.add_argument("--workers", type=int, default=16)
    ap.add_argument("--interval", type=float, default=1.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="netcfg-bench-") as tmp:
        inventory = fleet_inventory(Path(tmp), args.switches)
        devices = Path(tmp) / "lab-devices.yaml"
        lab = subprocess.Popen([sys.executable, "-m", "netcfg", "lab", str(inventory),
                                "--limit", str(args.switches), "--out", str(devices)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            while not devices.exists():
                if lab.poll() is not None:
                    sys.exit(f"lab failed: {lab.communicate()[1]}")
                time.sleep(0.1)
            served = yaml.safe_load(devices.read_text())["devices"]
            mix = Counter(d["nos"] for d in served.values())
            print(f"lab: {len(served)} switches "
                  f"({', '.join(f'{n} {c}' for n, c in sorted(mix.items()))})", flush=True)
            common = [str(inventory), "--connect", str(devices), "--state", str(Path(tmp) / "s"),
                      "--workers", str(args.workers)]
            for name in sorted(served):
                common += ["--device", name]
            start = time.perf_counter()
            push = subprocess.run([sys.executable, "-m", "netcfg", "push", *common, "--canary",
                                   "0", "--batch-size", "1000", "--allow-disruptive",
                                   "--allow-removal", "*"], capture_output=True, text=True,
                                  cwd=ROOT)
            print(f"push {time.perf_counter() - start:6.1f} s  exit {push.returncode}",
                  flush=True)
            start = time.perf_counter()
            verify = subprocess.run([sys.executable, "-m", "netcfg", "verify", *common,
                                     "--interval", str(args.interval), "--format", "json"],
                                    capture_output=True, text=True, cwd=ROOT)
            seconds = time.perf_counter() - start
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            try:
                doc = json.loads(verify.stdout)
                summary = doc["summary"]
            except (json.JSONDecodeError, KeyError):
                summary = verify.stderr[-2000:]
            print(f"verify {seconds:6.1f} s  exit {verify.returncode}  {summary}  "
                  f"(peak RSS of the largest child so far {peak:.0f} MiB)", flush=True)
        finally:
            lab.send_signal(signal.SIGINT)
            lab.communicate(timeout=60)
    print(f"machine: {os.cpu_count()} CPUs", flush=True)


if __name__ == "__main__":
    main()
