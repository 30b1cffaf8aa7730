"""Bounded inputs: `--configs` files, journals and intents are read with a bound, and a
journal that cannot be read is one line naming it while every other run still counts. Each
case runs the real `netcfg` in its own process (a hang ends the test at its timeout, it never
passes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from netcfg.deploy.runs import Run

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "inventories" / "example"


def netcfg(*args: str, code: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NETCFG_PASSWORD": "only-read-never-sent"}  # the example's login
    proc = subprocess.run([sys.executable, "-m", "netcfg", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60, env=env)
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return proc


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_diff_configs_refuses_a_fifo_or_an_endless_file_at_once(tmp_path, kind):
    configs = tmp_path / "configs"
    netcfg("render", str(EXAMPLE), "--out", str(configs), "--device", "spine1", code=0)
    target = configs / "spine1.yaml"  # the example's spine runs Cumulus (NVUE YAML)
    assert target.is_file()
    target.unlink()
    if kind == "fifo":
        os.mkfifo(target)  # no writer: reading it would block for ever
    else:
        target.symlink_to("/dev/zero")  # never ends
    refused = netcfg("diff", str(EXAMPLE), "--configs", str(configs), "--device", "spine1",
                     "--state", str(tmp_path / "state"), code=1)
    assert refused.stderr.strip() == (f"netcfg: spine1: cannot read {target}: is not a regular "
                                      "file (a device, FIFO or socket)")


def _state_with_an_empty_journal(tmp_path: Path) -> tuple[Path, Path, Run]:
    """A state holding a push that changed nothing and, older, a run killed before its first
    journal line (an empty journal.jsonl)."""
    state = tmp_path / "state"
    good = Run(state, command="push")
    good.record("spine1", "unchanged")
    empty = state / "runs" / "20200101T000000.000Z-0a0b0c" / "journal.jsonl"
    empty.parent.mkdir()
    empty.write_bytes(b"")
    return state, empty, good


def test_an_empty_journal_is_one_line_and_the_other_runs_still_count(tmp_path):
    state, empty, good = _state_with_an_empty_journal(tmp_path)
    warning = (f"warning: journal {empty} is unreadable: it holds no event (empty); remove the "
               "run or move it away")
    listed = netcfg("runs", str(EXAMPLE), "--state", str(state), "--format", "json", code=0)
    assert listed.stderr.strip() == warning
    assert [row["run"] for row in json.loads(listed.stdout)["runs"]] == [good.id]
    back = netcfg("rollback", str(EXAMPLE), "--state", str(state), code=1)
    assert back.stderr.strip().splitlines() == [
        warning, f"netcfg: no push under {state} changed a device; nothing to roll back "
                 "(`netcfg runs` lists the runs)"]
    named = netcfg("rollback", str(EXAMPLE), "--state", str(state), "--run",
                   empty.parent.name, code=1)
    assert named.stderr.strip().splitlines()[-1] == f"netcfg: {warning[len('warning: '):]}"
    # a push reads the runs (what it last wrote, cut confirms) and still runs: the spine is
    # a closed port on loopback, which is the device's failure (exit 4), not netcfg's
    connect = tmp_path / "devices.yaml"
    connect.write_text("devices:\n  spine1: {address: 127.0.0.1, username: u, password: p, "
                       "endpoints: {ssh: {proto: ssh, port: 1}}}\n")
    connect.chmod(0o600)
    pushed = netcfg("push", str(EXAMPLE), "--state", str(state), "--device", "spine1",
                    "--connect", str(connect), "--no-host-key-check", "--timeout", "1", code=4)
    assert pushed.stderr.splitlines()[0] == warning
    assert "spine1: unreachable" in pushed.stdout
    assert empty.read_bytes() == b""  # named, not removed or rewritten


def test_a_journal_broken_midway_is_named_and_a_fifo_is_never_read(tmp_path):
    """A journal that is no regular file (a FIFO blocks its reader for ever) is no run: never
    opened, not listed."""
    state = tmp_path / "state"
    good = Run(state, command="push")
    fifo = state / "runs" / "20200101T000000.000Z-0a0b0c" / "journal.jsonl"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    broken = state / "runs" / "20200102T000000.000Z-0a0b0c" / "journal.jsonl"
    broken.parent.mkdir()
    broken.write_text('{"time": 1, "device": "-", "event": "run"}\nnot json\n'
                      '{"time": 2, "device": "spine1", "event": "confirmed"}\n')
    listed = netcfg("runs", str(EXAMPLE), "--state", str(state), "--format", "json", code=0)
    assert listed.stderr.strip().splitlines() == [
        f"warning: journal {broken} is unreadable: line 2 is not JSON; move the run away to "
        "keep it"]
    assert [row["run"] for row in json.loads(listed.stdout)["runs"]] == [good.id]


def test_an_intent_of_millions_of_list_items_is_refused_while_parsing(tmp_path):
    """4,000,001 items in 8 MiB: refused at the 2,000,001st value (the bound, MAX_NODES in
    netcfg/intent/yamlsrc.py, 2,000,000) with a message about its size, not about aliases
    (there are none)."""
    intent = tmp_path / "fabric.yaml"
    intent.write_text("fabric: {name: big}\nitems: [" + "0," * 4_000_000 + "0]\n")
    assert intent.stat().st_size > 8 * 2**20 - 2**20
    refused = netcfg("validate", str(intent), code=1)
    line = refused.stdout.strip()
    assert line.startswith(f"error: {intent}:2:")
    assert "document has more than 2,000,000 values (list items, keys and scalars)" in line
    assert "alias" not in line and line.endswith("[YAML005]")
    # the 2,000,001st value: 7 come before the first item (the document's mapping, `fabric`,
    # its mapping, `name`, `big`, `items`, the list), so it is item 1,999,994, whose column is
    # 9 (after `items: [`) plus 2 per item before it
    column = int(line.split(":")[3])
    assert column == 9 + 2 * (2_000_001 - 7 - 1)
