"""`netcfg push` interrupted (Ctrl-C) mid-batch: every device ends at its old or its new config
and the journal says which. A push killed (SIGKILL) at each step is test_kill_invariants.py's."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from .cli_cases import ROOT
from .deploy_cases import MULTIVENDOR, devices_file, specs


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
    # said once, from the signal handler, whatever the progress bar was writing then
    assert err.count("netcfg: stopping: devices in flight are confirmed or reverted") == 1, err
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
