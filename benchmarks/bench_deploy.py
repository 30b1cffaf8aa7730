"""Deploy at fleet size: `netcfg diff` and `netcfg push` (commit with revert timer, post-checks,
confirm) against 200 emulated switches of all five NOSes served by `netcfg lab` in a separate
process, each command a subprocess as a user runs it.

    python benchmarks/bench_deploy.py [--switches 200] [--workers 32] [--steps 2]
                                      [--known-hosts-lines 2560]

The fleet is the deploy tests' five-NOS inventory (tests/deploy/fleet) with as many pods as
needed: per pod 8 leaves (EOS, or SONiC + Cumulus) and 4 NX-OS spines, plus 8 Junos cores.
Targets (issue): diff of 200 devices <= 30 s, push <= 60 s on a 2-core machine.

Each step prints its wall time and its CPU time (user + system of the command's process and
its children, from the kernel's accounting of the waited-for child): on a machine others
share, wall times are noise and CPU times compare. `--steps N` runs only the first N steps.
`--known-hosts-lines N` hands every command (`--known-hosts`) the lab's known_hosts padded
with lines of other switches to N lines, as an operator's file naming a whole fleet is
(gpu32768 has 2,560 switches).
"""

from __future__ import annotations

import argparse
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

ROOT = Path(__file__).resolve().parent.parent
FLEET = ROOT / "tests" / "deploy" / "fleet" / "fabric.yaml"


def fleet_inventory(directory: Path, switches: int) -> Path:
    """The five-NOS fleet with enough pods for `switches` (12 switches per pod + 8 cores)."""
    intent = yaml.safe_load(FLEET.read_text())
    pods = max(1, -(-(switches - 8) // 12))
    intent["topology"]["scalable_units"] = pods
    intent["overrides"]["devices"] = {
        "leaf-su*[02468]-r[1-4]": {"platform": "arista-7060x6-sonic"},
        "leaf-su*[02468]-r[5-8]": {"platform": "nvidia-sn5600-cumulus"},
    }
    intent["overrides"].pop("ports", None)
    (directory / "fabric.yaml").write_text(yaml.safe_dump(intent, sort_keys=False))
    return directory


def padded_known_hosts(path: Path, lab_files: set[str], lines: int) -> Path:
    """The lab's known_hosts lines after lines of other switches (port 22, addresses of
    10.0.0.0/8 the lab never serves, the lab's first key), `lines` in all."""
    own = [line for f in sorted(lab_files) for line in Path(f).read_text().splitlines()]
    key = own[0].split(" ", 1)[1]
    others = [f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255} {key}"
              for i in range(1, max(0, lines - len(own)) + 1)]
    path.write_text("\n".join(others + own) + "\n")
    return path


def timed(args: list[str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall and CPU seconds of `netcfg ARGS` (the lab, not waited for yet, is not counted)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--switches", type=int, default=200)
    ap.add_argument("--workers", type=int, default=16)
    ap.add_argument("--steps", type=int, default=6, help="run only the first N steps")
    ap.add_argument("--known-hosts-lines", type=int, default=0,
                    help="pad the lab's known_hosts with other switches' lines to N lines")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="netcfg-bench-") as tmp:
        inventory = fleet_inventory(Path(tmp), args.switches)
        devices = Path(tmp) / "lab-devices.yaml"
        start = time.perf_counter()
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
            trusted = {d.get("known_hosts") for d in served.values()} - {None}
            keys = sum(len(Path(f).read_text().splitlines()) for f in trusted)
            print(
                f"lab: {len(served)} switches "
                f"({', '.join(f'{n} {c}' for n, c in sorted(mix.items()))})"
                f" up in {time.perf_counter() - start:.1f} s (separate process);"
                f" its known_hosts has {keys} lines"
                + (f" (padded to {args.known_hosts_lines})" if args.known_hosts_lines else "")
            )
            common = [str(inventory), "--connect", str(devices), "--state", str(Path(tmp) / "s"),
                      "--workers", str(args.workers)]
            if args.known_hosts_lines:
                common += ["--known-hosts", str(padded_known_hosts(
                    Path(tmp) / "known_hosts", trusted, args.known_hosts_lines))]
            for name in sorted(served):
                common += ["--device", name]
            steps = [
                ("diff (all drift)", ["diff", *common], 3),
                # the lab's NX-OS spines come from the factory: their first push splits
                # cages, which reloads the module (a greenfield deploy)
                ("push (commit timer, post-checks, confirm)",
                 ["push", *common, "--canary", "1", "--batch-size", "100",
                  "--allow-disruptive"], 0),
                ("diff (no drift)", ["diff", *common], 0),
                ("push again (nothing to do)", ["push", *common, "--batch-size", "200"], 0),
                ("rollback (restore the saved configs)", ["rollback", *common], 0),
                ("push, default canary 1 + batches of 10",
                 ["push", *common, "--allow-disruptive"], 0),
            ]
            for label, cmd, want in steps[:args.steps]:
                seconds, cpu, proc = timed(cmd)
                ok = "ok" if proc.returncode == want else f"EXIT {proc.returncode}"
                print(f"{label:45s} {seconds:6.1f} s  {cpu:6.1f} s CPU  {ok}", flush=True)
                if proc.returncode != want:
                    bad = [line for line in proc.stdout.splitlines()
                           if any(w in line for w in ("failed", "unreachable", "reverted"))]
                    print("\n".join(bad[-20:]), proc.stderr[-2000:], flush=True)
        finally:
            lab.send_signal(signal.SIGINT)
            lab.communicate(timeout=60)
    print(f"machine: {os.cpu_count()} CPUs", flush=True)


if __name__ == "__main__":
    main()
