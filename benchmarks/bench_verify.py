"""`netcfg verify` at fleet size: after a push, every switch's state against its plan, against
emulated switches served by `netcfg lab` in a separate process (with the lab's operational
state), each command a subprocess as a user runs it.

    python benchmarks/bench_verify.py [--switches 200] [--workers 16] [--interval 1] [--runs 1]
    python benchmarks/bench_verify.py --inventory inventories/gpu32768 [--device GLOB ...]
        [--format json|junit|sarif|text] [--vendor-data ../shared]

The fleet is bench_deploy's (the deploy tests' five-NOS inventory with as many pods as
needed), or with --inventory every switch of that inventory (gpu32768: its 2,560 SONiC
switches; its 4,096 servers are not verified), or the ones --device selects. Reported: the
lab's start, the push that sets the fleet up, then per verify run (exit 0 expected: every
check holds) its wall time, the CPU time of the verify process and of the lab process over
that run (the machine is shared: CPU time is the figure to compare), the verify process's
peak RSS, the lab's RSS, the checks and the load average.
"""

from __future__ import annotations

import argparse
import json
import mmap
import os
import shutil
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

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def memory(pid: int, key: str) -> float:
    """VmRSS or VmHWM (peak) of a running process, MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def run_verify(args: list[str]) -> tuple[float, float, float, int, str]:
    """(wall s, CPU s, peak RSS MiB, exit code, stderr) of one `netcfg verify` process."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([sys.executable, "-m", "netcfg", "verify", *args],
                                stdout=subprocess.DEVNULL, stderr=err, cwd=ROOT)
        peak = cpu = 0.0
        while proc.poll() is None:
            try:  # the peak and CPU are read while it lives: ru_maxrss of children is
                peak = max(peak, memory(proc.pid, "VmHWM"))  # the push's too
                cpu = cpu_seconds(proc.pid)
            except (OSError, IndexError, ValueError):
                pass
            time.sleep(0.2)
        wall = time.perf_counter() - start
        err.seek(0)
        return wall, cpu, peak, proc.returncode, err.read()


def failed_rules(report: Path) -> str:
    """The JSON report's findings counted by rule, read from the findings alone (the
    report's last key: the whole document of a fleet is gigabytes)."""
    try:
        with open(report, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as m:
            at = m.rfind(b'\n  "findings": ')
            found = json.loads(b"{" + m[at:])["findings"]
    except (OSError, ValueError, KeyError):
        return "(no findings read)"
    count = Counter(f["rule"] for f in found)
    return "failed: " + (", ".join(f"{r} {n}" for r, n in sorted(count.items())) or "none")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--switches", type=int, default=200)
    ap.add_argument("--inventory", type=Path, help="verify every switch of this inventory")
    ap.add_argument("--device", action="append", default=[],
                    help="with --inventory: only matching switches (glob, repeatable)")
    ap.add_argument("--workers", type=int, default=16)
    ap.add_argument("--interval", type=float, default=1.0)
    ap.add_argument("--runs", type=int, default=1, help="verify runs after the one push")
    ap.add_argument("--format", default="json", help="verify's --format (json: every check)")
    ap.add_argument("--vendor-data", type=Path,
                    help="the lab's --vendor-data (the SKUs' own files: ../shared)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="netcfg-bench-") as tmp:
        if args.inventory is not None:
            inventory = Path(tmp) / "inventory"
            shutil.copytree(args.inventory, inventory)
            serve = [x for d in args.device for x in ("--device", d)]
        else:
            inventory = fleet_inventory(Path(tmp), args.switches)
            serve = ["--limit", str(args.switches)]
        if args.vendor_data is not None:
            serve += ["--vendor-data", str(args.vendor_data.resolve())]
        devices = Path(tmp) / "lab-devices.yaml"
        start = time.perf_counter()
        lab = subprocess.Popen([sys.executable, "-m", "netcfg", "lab", str(inventory), *serve,
                                "--out", str(devices)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            while not devices.exists():
                if lab.poll() is not None:
                    sys.exit(f"lab failed: {lab.communicate()[1]}")
                time.sleep(0.1)
            served = yaml.safe_load(devices.read_text())["devices"]
            mix = Counter(d["nos"] for d in served.values())
            print(f"lab: {len(served)} switches "
                  f"({', '.join(f'{n} {c}' for n, c in sorted(mix.items()))}) up in "
                  f"{time.perf_counter() - start:.1f} s, {cpu_seconds(lab.pid):.1f} s CPU, "
                  f"RSS {memory(lab.pid, 'VmRSS'):.0f} MiB", flush=True)
            common = [str(inventory), "--connect", str(devices), "--state", str(Path(tmp) / "s"),
                      "--workers", str(args.workers)]
            for name in sorted(served):
                common += ["--device", name]
            # (each login reads its switch's own known_hosts lines: netcfg/deploy/known_hosts.py)
            pushing = common
            start = time.perf_counter()
            push = subprocess.run([sys.executable, "-m", "netcfg", "push", *pushing, "--canary",
                                   "0", "--batch-size", "1000", "--allow-disruptive",
                                   "--allow-removal", "*"], capture_output=True, text=True,
                                  cwd=ROOT)
            print(f"push {time.perf_counter() - start:6.1f} s  exit {push.returncode}"
                  + (f"  {push.stderr[-500:]}" if push.returncode else ""), flush=True)
            report = Path(tmp) / "verify.out"
            for run in range(1, args.runs + 1):
                load = os.getloadavg()[0]
                lab_cpu = cpu_seconds(lab.pid)
                wall, cpu, peak, code, err = run_verify(
                    [*common, "--interval", str(args.interval), "--format", args.format,
                     "--output", str(report)])
                lab_cpu = cpu_seconds(lab.pid) - lab_cpu
                summary = err.strip().splitlines()[-1] if err.strip() else ""
                if args.format == "json":
                    summary += "  " + failed_rules(report)
                print(f"verify run {run}: {wall:6.1f} s wall, CPU {cpu:6.1f} s verify + "
                      f"{lab_cpu:6.1f} s lab, peak RSS {peak:.0f} MiB (lab "
                      f"{memory(lab.pid, 'VmRSS'):.0f} MiB), exit {code}, load "
                      f"{load:.1f}->{os.getloadavg()[0]:.1f}  {summary}", flush=True)
        finally:
            lab.send_signal(signal.SIGINT)
            lab.communicate(timeout=600)
    print(f"machine: {os.cpu_count()} CPUs", flush=True)


if __name__ == "__main__":
    main()
