"""`netcfg diff/push/rollback` as a user runs them: subprocesses against `netcfg lab`, exit
codes per the CLI contract, the journal, and no password anywhere in what they leave behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
import yaml
from lab_fixtures import Served, lab_process

from .deploy_cases import BY_NOS, MULTIVENDOR, SHARED, devices_file, specs

ROOT = Path(__file__).resolve().parents[2]
DEVICES = sorted(BY_NOS.values())


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


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One switch per NOS of the multivendor inventory."""
    tmp = tmp_path_factory.mktemp("lab")
    with serve(tmp, DEVICES) as lab:
        yield lab.devices, tmp


def test_walk_through_diff_push_rollback(served):
    devices, tmp = served
    state = tmp / "state"
    common = [str(MULTIVENDOR), "--connect", str(devices), "--state", str(state)]
    for name in DEVICES:
        common += ["--device", name]
    password = yaml.safe_load(devices.read_text())["devices"][DEVICES[0]]["password"]
    outputs = []

    drift = netcfg("diff", *common, check=3)
    assert all(f"{name}: drift" in drift.stdout for name in DEVICES)
    assert "PFC priority 3 off" in drift.stdout
    pushed = netcfg("push", *common, "--format", "json", check=0)
    report = json.loads(pushed.stdout)
    assert {d["device"]: d["status"] for d in report["devices"]} == dict.fromkeys(
        DEVICES, "confirmed")
    clean = netcfg("diff", *common, check=0)
    assert "0 with drift" in clean.stdout
    again = netcfg("push", *common, check=0)
    assert all(f"{name}: unchanged" in again.stdout for name in DEVICES)
    # no --run: the latest push that changed devices, not the no-op one just made
    back = netcfg("rollback", *common, check=0)
    assert f"rolling back run {report['run']}" in back.stderr
    assert f"{len(DEVICES)} restored, 0 failed" in back.stdout
    netcfg("diff", *common, check=3)
    twice = netcfg("rollback", *common, check=1)
    assert "rolled back already" in twice.stderr and "Traceback" not in twice.stderr
    listed = netcfg("runs", str(MULTIVENDOR), "--state", str(state), "--format", "json",
                    check=0)
    rows = {row["run"]: row for row in json.loads(listed.stdout)["runs"]}
    first = rows[report["run"]]
    assert first["command"] == "push" and first["changed"] == sorted(DEVICES)
    assert first["rolled_back"] == sorted(DEVICES)
    assert first["devices"] == {"rolled-back": len(DEVICES)}
    noop = [row for run, row in rows.items() if run > report["run"]
            and row["command"] == "push"]
    assert [row["changed"] for row in noop] == [[]]
    assert report["run"] in netcfg("runs", str(MULTIVENDOR), "--state", str(state),
                                   check=0).stdout
    outputs += [drift, pushed, clean, again, back, listed]

    journal = (state / "runs" / report["run"] / "journal.jsonl").read_text()
    events = [json.loads(line) for line in journal.splitlines()]
    assert [e["event"] for e in events if e["device"] == DEVICES[0]][-1] == "rolled-back"
    assert oct(state.stat().st_mode & 0o777) == "0o700"
    leaked = [str(p) for p in state.rglob("*") if p.is_file() and password in p.read_text()]
    assert not leaked
    for proc in outputs:
        assert password not in proc.stdout + proc.stderr


def test_failed_push_stops_and_rolls_back_then_a_retry_goes_through(tmp_path):
    """The docs' failed push: `netcfg lab --fault` makes the NX-OS spine (last in name order)
    refuse its first commit. The canary and the batches before it are confirmed, the failure
    stops the run, every confirmed device is restored, and the journal tells it in order. The
    retry (the fault fired once) confirms all; rollback then restores the saved configs."""
    failing = BY_NOS["nxos"]
    assert DEVICES[-1] == failing
    with serve(tmp_path, DEVICES, "--fault", f"{failing}=commit_error::1") as lab:
        devices = lab.devices
        state = tmp_path / "state"
        common = [str(MULTIVENDOR), "--connect", str(devices), "--state", str(state)]
        for name in DEVICES:
            common += ["--device", name]
        failed = netcfg("push", *common, "--canary", "1", "--batch-size", "2",
                        "--format", "json", check=4)
        report = json.loads(failed.stdout)
        assert report["aborted"] is True
        statuses = {d["device"]: d["status"] for d in report["devices"]}
        assert statuses == {**dict.fromkeys(DEVICES[:-1], "rolled-back"), failing: "failed"}
        assert "commit" in next(d["error"] for d in report["devices"] if d["device"] == failing)
        events = [json.loads(line) for line in
                  (state / "runs" / report["run"] / "journal.jsonl").read_text().splitlines()]
        order = [(e["device"], e["event"]) for e in events
                 if e["event"] in ("confirmed", "failed", "stop", "rolled-back")]
        stop = order.index(("-", "stop"))
        assert sorted(order[:stop]) == sorted(
            [(n, "confirmed") for n in DEVICES[:-1]] + [(failing, "failed")])
        assert sorted(order[stop + 1:]) == [(n, "rolled-back") for n in DEVICES[:-1]]
        netcfg("diff", *common, check=3)  # everything is back where it was

        retry = json.loads(netcfg("push", *common, "--format", "json", check=0).stdout)
        assert {d["status"] for d in retry["devices"]} == {"confirmed"}
        netcfg("diff", *common, check=0)
        back = netcfg("rollback", *common, "--run", retry["run"], check=0)
        assert f"{len(DEVICES)} restored, 0 failed" in back.stdout
        netcfg("diff", *common, check=3)


def test_unreachable_device_exits_4_and_the_others_are_reported(served, tmp_path):
    devices, _ = served
    broken = yaml.safe_load(devices.read_text())
    for endpoint in broken["devices"][DEVICES[0]]["endpoints"].values():
        endpoint["port"] = 1  # nothing listens there
    path = tmp_path / "devices.yaml"
    path.write_text(yaml.safe_dump(broken))
    path.chmod(0o600)
    proc = netcfg("diff", str(MULTIVENDOR), "--connect", str(path), "--device", DEVICES[0],
                  "--device", DEVICES[1], "--timeout", "5", check=4)
    assert f"{DEVICES[0]}: unreachable (connect:" in proc.stdout
    assert f"{DEVICES[1]}: drift" in proc.stdout


def test_a_world_readable_devices_file_is_refused(served, tmp_path):
    devices, _ = served
    path = tmp_path / "devices.yaml"
    path.write_text(devices.read_text())
    path.chmod(0o644)
    proc = netcfg("diff", str(MULTIVENDOR), "--connect", str(path), "--device", DEVICES[0],
                  check=1)
    assert "chmod 600" in proc.stderr


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


def test_a_driver_that_logs_tracebacks_prints_none(tmp_path):
    """pyeapi logs a dropped connection with `logger.exception`, which Python's last-resort
    handler prints as a traceback: netcfg's own one line is all the user sees."""
    name = BY_NOS["eos"]
    with serve(tmp_path, [name], "--fault", f"{name}=drop_before_apply:commit:1") as lab:
        proc = netcfg("push", str(MULTIVENDOR), "--connect", str(lab.devices), "--device",
                      name, "--state", str(tmp_path / "state"), check=4)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert f"{name}: failed (commit: " in proc.stdout and "runs its old config" in proc.stdout
    assert [line for line in proc.stderr.splitlines() if line.strip()
            and not line.startswith("run ")] == []
