"""Deploy state is keyed by the fabric's name, not the checkout's path: a push made from one
clone of the inventory is listed and rolled back from another clone, in another working
directory, with no `--state` (the default under $XDG_STATE_HOME), against `netcfg lab`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from netcfg.deploy.runs import default_state

from .cli_cases import serve
from .deploy_cases import BY_NOS, MULTIVENDOR


def test_the_default_state_is_the_fabrics_wherever_it_is_checked_out(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    one, two = tmp_path / "alice" / "multivendor", tmp_path / "ci" / "work" / "fabric"
    shutil.copytree(MULTIVENDOR, one)
    shutil.copytree(MULTIVENDOR, two)
    expected = tmp_path / "xdg" / "netcfg" / "fabrics" / "multivendor"  # fabric.name
    assert default_state(one) == default_state(two) == expected
    assert default_state(two / "fabric.yaml") == expected
    # a name that is no directory name (the schema refuses it too) and a missing file: the
    # checkout's own directory, as before
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "fabric.yaml").write_text("fabric: {name: ../../etc}\n")
    assert default_state(bad).parent == tmp_path / "xdg" / "netcfg"
    assert default_state(bad).name.startswith("bad-")
    (tmp_path / "new").mkdir()  # no fabric.yaml yet
    assert default_state(tmp_path / "new").name.startswith("new-")


def _netcfg(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)


def test_a_push_from_one_checkout_is_rolled_back_from_another(tmp_path):
    name = BY_NOS["eos"]
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "xdg")}
    alice, ci = tmp_path / "alice", tmp_path / "ci"
    for home in (alice, ci):
        shutil.copytree(MULTIVENDOR, home / "inventories" / "multivendor")
    with serve(tmp_path, [name]) as lab:
        args = ["inventories/multivendor", "--connect", str(lab.devices), "--device", name]
        pushed = _netcfg(alice, env, "push", *args, "--format", "json")
        assert pushed.returncode == 0, pushed.stdout + pushed.stderr
        run = json.loads(pushed.stdout)["run"]

        listed = _netcfg(ci, env, "runs", "inventories/multivendor", "--format", "json")
        assert listed.returncode == 0, listed.stderr
        shown = json.loads(listed.stdout)
        assert shown["state"] == str(tmp_path / "xdg" / "netcfg" / "fabrics" / "multivendor")
        assert [r["run"] for r in shown["runs"]] == [run]

        back = _netcfg(ci, env, "rollback", *args)
        assert back.returncode == 0, back.stdout + back.stderr
        assert f"rolling back run {run}" in back.stderr
        assert "1 restored, 0 failed" in back.stdout


def test_an_explicit_state_still_wins(tmp_path):
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "xdg")}
    listed = _netcfg(tmp_path, env, "runs", str(MULTIVENDOR), "--state", str(tmp_path / "mine"),
                     "--format", "json")
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout)["state"] == str(tmp_path / "mine")
