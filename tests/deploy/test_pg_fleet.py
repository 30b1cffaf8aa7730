"""A PostgreSQL state (a real server, as tests/deploy/test_pg_state.py starts it) under a live
push and under Nornir: a push holds its run's advisory lock while it runs, so a rollback from
any runner refuses until it ends, and a rollback holds the fabric's fleet lock alone, so no
push starts meanwhile; Nornir's inventory takes its state from NETCFG_STATE, and a
fleet push through it is one run in the database that `netcfg runs` lists."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from netcfg.deploy.runs import FleetBusy, FleetLock, RollbackRefused, Run, choose_rollback

from .cli_cases import ROOT
from .deploy_cases import MULTIVENDOR, devices_file, specs
from .test_pg_state import postgres  # noqa: F401 - the server fixture


def test_a_rollback_refuses_while_a_push_holds_its_run(postgres):  # noqa: F811
    from netcfg.deploy.state_pg import PgState

    pusher = PgState(postgres, "in-flight")  # a fabric of its own in the shared database
    live = Run(pusher, command="push", live=True)
    other = PgState(postgres, "in-flight")  # another runner: its own connections
    with pytest.raises(RollbackRefused) as refused:
        choose_rollback(other, None, {"leaf-su1-r1"})
    assert str(refused.value).startswith(
        f"a push of this fabric is still running: run {live.id} (pid {os.getpid()} on ")
    assert Run.open(other, live.id).in_flight()
    live.close()
    assert not Run.open(other, live.id).in_flight()
    with pytest.raises(RollbackRefused, match="changed a device; nothing to roll back"):
        choose_rollback(other, None, {"leaf-su1-r1"})
    # a rollback holds the fabric's fleet lock alone: no push starts, told who holds it
    rollback = FleetLock(other, exclusive=True).acquire()
    with pytest.raises(FleetBusy) as busy:
        Run(pusher, command="push", live=True)
    assert busy.value.push_refusal().startswith(
        f"a rollback of this fabric is running (pid {os.getpid()} on ")
    rollback.release()
    Run(pusher, command="push", live=True).close()


def test_nornir_takes_netcfg_state_and_pushes_one_run_there(postgres, make_lab, tmp_path,  # noqa: F811
                                                            monkeypatch):
    pytest.importorskip("nornir", reason="the nornir extra is not installed")
    from nornir import InitNornir

    from netcfg.nornir import netcfg_push, netcfg_rollback

    names = ["leaf-su1-r1", "leaf-su2-r5"]
    monkeypatch.setenv("NETCFG_STATE", postgres)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    lab = make_lab(*specs(names))
    lab.advance(30)
    connect = devices_file(lab, tmp_path)
    nr = InitNornir(inventory={"plugin": "NetcfgInventory",
                               "options": {"path": str(MULTIVENDOR), "connect": str(connect),
                                           "devices": names, "timeout": 20}},
                    runner={"plugin": "threaded", "options": {"num_workers": 2}},
                    logging={"enabled": False})
    try:
        host = nr.inventory.hosts[names[0]]
        assert host.data["netcfg"]["state"].startswith("postgresql://netcfg@/postgres?host=")
        assert host.data["netcfg"]["state"].endswith(" (fabric multivendor)")
        pushed = nr.run(task=netcfg_push)
        assert not pushed.failed, {h: r[0].result for h, r in pushed.items() if r.failed}
        run = {r[0].result["run"] for r in pushed.values()}
        assert len(run) == 1
        listed = subprocess.run([sys.executable, "-m", "netcfg", "runs", str(MULTIVENDOR),
                                 "--format", "json"], capture_output=True, text=True, cwd=ROOT,
                                env=os.environ, timeout=300)
        assert listed.returncode == 0, listed.stderr
        rows = json.loads(listed.stdout)["runs"]
        mine = [row for row in rows if row["run"] in run]
        assert [row["changed"] for row in mine] == [names]
        back = nr.run(task=netcfg_rollback)
        assert not back.failed, {h: r[0].result for h, r in back.items() if r.failed}
        assert {h: r[0].result["status"] for h, r in back.items()} == dict.fromkeys(
            names, "rolled-back")
    finally:
        nr.close_connections()
    assert not (tmp_path / "xdg" / "netcfg" / "fabrics").exists()  # no local state kept
