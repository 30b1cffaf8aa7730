"""Shared fixtures: paths to the bundled inventories and a CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# the device-lab fixtures (make_lab, drivers) serve tests/lab and tests/deploy alike
pytest_plugins = ["lab_fixtures"]

ROOT = Path(__file__).resolve().parent.parent

# Python's bytecode cache, even where PYTHONDONTWRITEBYTECODE is set: the suite starts
# `netcfg` in a few hundred processes and six workers that each rewrite and import every
# test module, and without the cache each of them compiles netcfg and the tests from source
# again (about 5 s of CPU per worker, 0.2 s per `netcfg` process). The cache goes where
# Python puts it (`__pycache__/`, ignored by git); subprocesses inherit the setting.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
INVENTORIES = ROOT / "inventories"


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run `netcfg ARGS` in a subprocess, as a user would."""
    return subprocess.run([sys.executable, "-m", "netcfg.cli", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT, timeout=120)


@pytest.fixture
def cli():
    return run_cli


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The twin's tests first: `--dist loadfile` runs them in turn on one worker, the longest
    chain of the suite, so it starts while the other workers share the rest. (pytest-xdist
    would hand out files by their number of tests, most first, which put the twin's 13
    tests near the end and left one worker running them alone for the last 40 s:
    `--no-loadscope-reorder` in pyproject.toml keeps this order.)"""
    items.sort(key=lambda item: item.nodeid.split("::")[0] != "tests/test_twin.py")
