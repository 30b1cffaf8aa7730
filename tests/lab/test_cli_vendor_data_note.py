"""`netcfg lab` without `--vendor-data` says that its switches are not the vendors' factory
ones, so a rehearsal of the docs' walk-throughs on the built-in states is not taken for one on
factory switches; with the folder it says nothing of the kind. Both runs stop at "no device to
serve" (a selection that matches nothing), before any emulator starts."""

from __future__ import annotations

import os
import subprocess
import sys

from lab_fixtures import ROOT

NOTE = ("note: no --vendor-data: each emulator boots from its own minimal factory state and "
        "checks its own tables only (docs/lab.md)")


def _lab(*options: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NETCFG_VENDOR_DATA"}
    return subprocess.run([sys.executable, "-m", "netcfg", "lab", "inventories/multivendor",
                           "--device", "no-such-switch", *options], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120)


def test_the_lab_says_when_it_runs_without_the_vendors_data(tmp_path):
    bare = _lab()
    assert bare.returncode == 1
    assert bare.stderr.splitlines()[0] == NOTE
    assert "netcfg: no device to serve" in bare.stderr
    with_folder = _lab("--vendor-data", str(tmp_path))
    assert with_folder.returncode == 1
    assert "--vendor-data" not in with_folder.stderr


def test_the_help_names_the_factory_part():
    text = subprocess.run([sys.executable, "-m", "netcfg", "lab", "--help"], capture_output=True,
                          text=True, cwd=ROOT, timeout=60).stdout
    assert "boot from (factory/;" in " ".join(text.split())
