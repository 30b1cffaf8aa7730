"""`netcfg diff/push/rollback` as a user runs them: subprocesses against `netcfg lab`, exit
codes per the CLI contract, the journal, and no password anywhere in what they leave behind."""

from __future__ import annotations

import json

import pytest
import yaml

from .cli_cases import netcfg, serve
from .deploy_cases import BY_NOS, MULTIVENDOR

DEVICES = sorted(BY_NOS.values())


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
    # the lab's NX-OS spine is fresh from the factory, no port up: splitting its cages takes
    # nothing down; the factory SONiC box runs every port (SONiC's first-boot CONFIG_DB) and
    # gets its pools from `config qos reload`, hence --allow-disruptive
    spine = next(line for line in drift.stdout.splitlines()
                 if line.startswith(f"{BY_NOS['nxos']}: "))
    assert "disruptive" not in spine
    assert "disruptive: installs the SKU's buffer pools" in drift.stdout
    pushed = netcfg("push", *common, "--allow-disruptive", "--format", "json", check=0)
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
                        "--allow-disruptive", "--format", "json", check=4)
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

        retry = json.loads(netcfg("push", *common, "--allow-disruptive", "--format", "json",
                                  check=0).stdout)
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
