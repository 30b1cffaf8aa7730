"""`netcfg push` killed (SIGKILL) at each step, or interrupted (Ctrl-C) mid-batch: every device
ends at its old or its new config and the next push finishes what was cut."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from .cli_cases import ROOT, netcfg
from .deploy_cases import BY_NOS, MULTIVENDOR, devices_file, specs


@pytest.mark.parametrize("nos, point", [("eos", "committed"), ("nxos", "committing"),
                                       ("nxos", "confirming"), ("sonic", "confirming")])
def test_a_killed_push_leaves_old_or_new_and_the_next_push_finishes(make_lab, tmp_path, nos,
                                                                    point):
    """SIGKILL once the journal shows `point` (every request slowed, so the kill lands inside
    the step): after the device's timer the switch runs its old or its new config, and the
    next push leaves it new with the startup config equal to the running one, also where the
    kill cut a confirm between its two device steps (NX-OS, SONiC)."""
    name = BY_NOS[nos]
    lab = make_lab(*specs([name]))
    dev = lab[name]
    before = _lines(dev.running_config())
    path = devices_file(lab, tmp_path)
    state = tmp_path / "state"
    dev.inject("slow", delay=0.3)  # every request: a wide window inside each step
    cmd = [sys.executable, "-m", "netcfg", "push", str(MULTIVENDOR), "--connect", str(path),
           "--device", name, "--state", str(state), "--revert-in", "120"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
    deadline = time.monotonic() + 180
    reached = False
    while not reached and time.monotonic() < deadline and proc.poll() is None:
        journals = list(state.glob("runs/*/journal.jsonl"))
        reached = bool(journals) and f'"event": "{point}"' in journals[0].read_text()
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    assert reached, f"the push never reached {point}"
    dev.clear_faults()
    lab.advance(121)  # the device's own timer has run out
    now = _lines(dev.running_config())
    again = netcfg(*cmd[3:], check=0)  # the lock of the killed process is free
    assert f"{name}: confirmed" in again.stdout or f"{name}: unchanged" in again.stdout
    if f"{name}: unchanged" in again.stdout:
        assert now != before  # it already ran the new config
    assert _lines(dev.startup_config()) == _lines(dev.running_config())


def _lines(config: str) -> list[str]:
    return [line.rstrip() for line in config.splitlines()
            if line.strip() and line.strip() != "end"
            and not line.lstrip().startswith(("!", "#", "version "))]


def test_ctrl_c_leaves_every_device_confirmed_or_reverted(make_lab, tmp_path):
    """SIGINT while the second batch is in flight: nothing new starts, the device being
    committed is reverted instead of confirmed, the canary is rolled back, the journal says so."""
    names = ["leaf-su1-r1", "leaf-su1-r2", "leaf-su1-r3"]
    lab = make_lab(*specs(names))
    before = {n: lab[n].running_config() for n in names}
    path = devices_file(lab, tmp_path)
    state = tmp_path / "state"
    for n in names[1:]:
        lab[n].inject("slow", delay=0.3)  # a wide window inside the second batch
    cmd = [sys.executable, "-m", "netcfg", "push", str(MULTIVENDOR), "--connect", str(path),
           "--state", str(state), "--canary", "1", "--batch-size", "2", "--format", "json"]
    for n in names:
        cmd += ["--device", n]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        journals = list(state.glob("runs/*/journal.jsonl"))
        text = journals[0].read_text() if journals else ""
        if text.count('"event": "committed"') >= 2:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 4, out + err
    report = json.loads(out)
    assert report["interrupted"] is True
    statuses = {d["device"]: d["status"] for d in report["devices"]}
    assert statuses[names[0]] == "rolled-back"
    assert set(statuses.values()) <= {"rolled-back", "reverted", "skipped", "confirmed"}
    journal = [json.loads(line) for line in
               next(state.glob("runs/*/journal.jsonl")).read_text().splitlines()]
    finals = {}
    for event in journal:
        if event["device"] in names and event["event"] in (
                "confirmed", "reverted", "rolled-back", "skipped", "unchanged", "failed"):
            finals[event["device"]] = event["event"]
    assert set(finals.values()) <= {"reverted", "rolled-back", "skipped"}, finals
    for n in names:
        lab[n].clear_faults()
    lab.advance(400)
    for n in names:
        assert _content(lab[n].running_config()) == _content(before[n]), n


def _content(config: str) -> list[str]:
    return [line for line in config.splitlines() if line.strip() and not line.startswith("!")]
