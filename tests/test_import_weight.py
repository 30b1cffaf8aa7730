"""The base install's commands load no package of an extra: validate, deadlock, render and
lint run in one process here, and afterwards none of NAPALM, netmiko, paramiko, asyncssh,
aiohttp, Nornir, Dask or psycopg is among the imported modules (a module-level import of one
of them on this path would break the base install: tests/test_wheel.py runs it for real)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import json, sys
from click.testing import CliRunner
from netcfg.cli import main
out = sys.argv[1]
codes = [CliRunner().invoke(main, args).exit_code for args in (
    ["validate", "inventories/multivendor"], ["deadlock", "inventories/multivendor"],
    ["render", "inventories/multivendor", "--out", out],
    ["lint", "inventories/multivendor", "--format", "sarif"])]
heavy = ("napalm", "netmiko", "paramiko", "asyncssh", "aiohttp", "nornir", "nornir_napalm",
         "distributed", "psycopg")
print(json.dumps({"codes": codes,
                  "loaded": sorted(m for m in sys.modules if m.split(".")[0] in heavy)}))
"""


def test_validate_deadlock_render_and_lint_import_no_extra(tmp_path):
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["codes"] == [0, 0, 0, 0]
    assert result["loaded"] == []
