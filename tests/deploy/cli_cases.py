"""`netcfg` as a user runs it, in its own process, and `netcfg lab` serving switches of the
multivendor inventory: shared by the deploy CLI tests."""

from __future__ import annotations

import subprocess
import sys
from contextlib import AbstractContextManager
from pathlib import Path

from lab_fixtures import Served, lab_process

from .deploy_cases import MULTIVENDOR, SHARED

ROOT = Path(__file__).resolve().parents[2]


def netcfg(*args: str, check: int | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    if check is not None:
        assert proc.returncode == check, proc.stdout + proc.stderr
    return proc


def serve(tmp: Path, names: list[str], *options: str) -> AbstractContextManager[Served]:
    """`netcfg lab` in its own process serving `names` of the multivendor inventory, checking
    against the vendors' own data where it is present."""
    args = list(options) + (["--vendor-data", str(SHARED)] if SHARED is not None else [])
    for name in names:
        args += ["--device", name]
    return lab_process(MULTIVENDOR, tmp / "devices.yaml", *args)


def fleet_args(inventory: Path, lab: Served, state: Path, names: list[str]) -> list[str]:
    """`PATH --connect DEVICES --state STATE --device NAME ...`: diff, push and rollback of
    the lab's switches `names`."""
    args = [str(inventory), "--connect", str(lab.devices), "--state", str(state)]
    for name in names:
        args += ["--device", name]
    return args


def refuses_a_missing_or_bad_secret(args: list[str], state: Path, variable: str, bad: str,
                                    rule: str, monkeypatch) -> None:  # noqa: ANN001
    """Without `variable`, and with the malformed `bad` in it, push stops before any device
    with one line naming the variable or the `rule` the value breaks, never the value, and
    leaves no run behind."""
    monkeypatch.delenv(variable, raising=False)
    missing = netcfg("push", *args, check=1)
    assert f"environment variable {variable} is not set" in missing.stderr
    assert not (state / "runs").exists() or not any((state / "runs").iterdir())
    monkeypatch.setenv(variable, bad)
    refused = netcfg("push", *args, check=1)
    assert rule in refused.stderr and bad not in refused.stderr
