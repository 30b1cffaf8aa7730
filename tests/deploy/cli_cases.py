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
