"""The Nornir integration with the real nornir and nornir_napalm packages against the lab: the
NetcfgInventory plugin found by its entry point, its `dict()` as JSON and YAML, nornir_napalm's
own `napalm_get` on every NOS through the inventory's connection options, and netcfg's render,
diff, push and rollback tasks: one Nornir push of five hosts is one run in canary and batch
order, which `netcfg rollback` (the command, in its own process) undoes on all five; a failing
canary stops the fleet before any other host; the state is the one NETCFG_STATE names."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import yaml

pytest.importorskip("nornir", reason="the nornir extra is not installed")
pytest.importorskip("nornir_napalm", reason="the nornir extra is not installed")

from nornir import InitNornir  # noqa: E402
from nornir_napalm.plugins.tasks import napalm_get  # noqa: E402

from netcfg.nornir import (  # noqa: E402
    netcfg_diff,
    netcfg_push,
    netcfg_render,
    netcfg_rollback,
)

from .cli_cases import ROOT  # noqa: E402
from .deploy_cases import (  # noqa: E402
    BY_NOS,
    MULTIVENDOR,
    PASSWORD,
    SHARED,
    devices_file,
    specs,
)

NAMES = sorted(BY_NOS.values())
#: name order, which a fleet push takes: the canary first, then batches
ORDER = ["core1", "leaf-su1-r1", "leaf-su2-r1", "leaf-su2-r5", "spine-pod1-1"]


def served(make_lab, tmp_path, names, state="default", workers=None):
    """Nornir on the NetcfgInventory of a lab serving `names` of the multivendor fabric;
    `state` None leaves the inventory's `state` option out (NETCFG_STATE or the default)."""
    lab = make_lab(*specs(names))
    lab.advance(30)
    path = devices_file(lab, tmp_path)
    options = {"path": str(MULTIVENDOR), "connect": str(path), "devices": names,
               "timeout": 20}
    if state is not None:
        options["state"] = str(tmp_path / "state") if state == "default" else state
    return lab, InitNornir(
        inventory={"plugin": "NetcfgInventory", "options": options},
        runner={"plugin": "threaded", "options": {"num_workers": workers or len(names)}},
        logging={"enabled": False})


@pytest.fixture
def nr(make_lab, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))  # the switch locks
    _, nornir = served(make_lab, tmp_path, NAMES)
    yield nornir
    nornir.close_connections()


def _journal(state, run):
    return [json.loads(line) for line in
            (state / "runs" / run / "journal.jsonl").read_text().splitlines()]


def test_the_inventory_is_the_fabric(nr):
    assert sorted(nr.inventory.hosts) == NAMES
    hosts = nr.inventory.hosts
    assert {hosts[BY_NOS[nos]].platform for nos in BY_NOS} == {
        "netcfg_eos", "netcfg_junos", "netcfg_nxos", "netcfg_sonic", "netcfg_cumulus"}
    assert hosts[BY_NOS["eos"]].has_parent_group("role_leaf")
    assert hosts[BY_NOS["junos"]].has_parent_group("nos_junos")
    assert len(nr.filter(role="leaf").inventory.hosts) == 3


def test_the_inventory_dict_serialises(nr, tmp_path):
    """`Inventory.dict()` goes through json and yaml.safe_dump as it is: each host's data
    holds plain values, the address and port are the lab's devices file's."""
    dumped = nr.inventory.dict()
    again = json.loads(json.dumps(dumped))
    assert yaml.safe_load(yaml.safe_dump(dumped)) == again
    served_by = yaml.safe_load((tmp_path / "lab-devices.yaml").read_text())["devices"]
    eos = again["hosts"][BY_NOS["eos"]]
    assert eos["hostname"] == served_by[BY_NOS["eos"]]["address"]
    assert eos["platform"] == "netcfg_eos" and eos["groups"] == ["role_leaf", "nos_eos"]
    data = eos["data"]
    assert (data["role"], data["nos"]) == ("leaf", "eos")
    assert {k: data["netcfg"][k] for k in ("fabric", "path", "state", "driver")} == {
        "fabric": "multivendor", "path": str(MULTIVENDOR), "state": str(tmp_path / "state"),
        "driver": "eos"}
    assert sorted(again["hosts"]) == NAMES
    # the inventory made the state directory as a run makes it: it ignores itself in git
    assert "*" in (tmp_path / "state" / ".gitignore").read_text().splitlines()


def test_napalm_get_works_on_every_nos_through_the_inventory(nr):
    """Each switch reports the hostname its own configuration holds: the lab's name for it,
    but a SONiC box not yet pushed to keeps the one SONiC's first boot gives it (the factory
    CONFIG_DB of its default SKU in ../shared/factory)."""
    result = nr.run(task=napalm_get, getters=["facts"])
    assert not result.failed, {h: r.exception for h, r in result.items() if r.failed}
    factory = (SHARED / "factory" / "sonic" / "ACS-SN5600" / "configdb_after_first_boot.json"
               if SHARED is not None else None)
    for name, multi in result.items():
        expected = name
        if name == BY_NOS["sonic"] and factory is not None and factory.is_file():
            expected = json.loads(factory.read_text())["DEVICE_METADATA"]["localhost"]["hostname"]
        assert multi[0].result["facts"]["hostname"] == expected


def test_one_fleet_push_is_one_run_that_netcfg_rollback_undoes(nr, tmp_path):
    """Five hosts, one `nr.run(task=netcfg_push)`: one run (one journal), the canary
    (core1, first by name) confirmed before any other host starts, then batches of two in
    name order; every host confirmed; a diff after it has nothing to do. `netcfg rollback`
    in its own process then restores all five from that run (not one), and the hosts drift
    again. The fleet's results name the run; no password appears in them."""
    rendered = nr.run(task=netcfg_render)
    assert all(name in r[0].result for name, r in rendered.items())
    drift = nr.run(task=netcfg_diff)
    assert not drift.failed and all(r[0].changed for r in drift.values())
    pushed = nr.run(task=netcfg_push, batch_size=2)
    assert not pushed.failed, {h: r[0].result for h, r in pushed.items() if r.failed}
    assert {r[0].result["status"] for r in pushed.values()} == {"confirmed"}
    state = tmp_path / "state"
    runs = sorted(p.name for p in (state / "runs").iterdir())
    assert len(runs) == 1
    assert {r[0].result["run"] for r in pushed.values()} == set(runs)
    events = _journal(state, runs[0])
    first = {}
    done = {}
    for i, e in enumerate(events):
        first.setdefault(e["device"], i)
        if e["event"] == "confirmed":
            done[e["device"]] = i
    assert done["core1"] < min(first[n] for n in ORDER[1:])  # the canary alone
    # then batch by batch: the first batch confirmed before the second starts
    assert max(done[n] for n in ORDER[1:3]) < min(first[n] for n in ORDER[3:])
    clean = nr.run(task=netcfg_diff)
    assert not clean.failed and not any(r[0].changed for r in clean.values())
    for r in list(pushed.values()) + list(clean.values()):
        assert PASSWORD not in str(r[0].result)

    connect = tmp_path / "lab-devices.yaml"
    selection = [arg for name in ORDER for arg in ("--device", name)]
    back = subprocess.run(
        [sys.executable, "-m", "netcfg", "rollback", str(MULTIVENDOR), "--connect",
         str(connect), "--state", str(state), *selection], capture_output=True, text=True,
        cwd=ROOT, env=os.environ, timeout=300)
    assert back.returncode == 0, back.stdout + back.stderr
    assert f"rolling back run {runs[0]}" in back.stderr
    assert "5 restored, 0 failed" in back.stdout
    again = nr.run(task=netcfg_diff)
    assert not again.failed and all(r[0].changed for r in again.values())

    # pushed again, then undone by the netcfg_rollback task: one rollback of that run
    second = nr.run(task=netcfg_push)
    assert not second.failed
    run = second["core1"][0].result["run"]
    assert run != runs[0]
    undone = nr.run(task=netcfg_rollback)
    assert not undone.failed, {h: r[0].result for h, r in undone.items() if r.failed}
    assert {h: (r[0].result["status"], r[0].result["run"]) for h, r in undone.items()} == {
        name: ("rolled-back", run) for name in ORDER}
    assert sorted(e["device"] for e in _journal(state, run)
                  if e["event"] == "rolled-back") == ORDER
    assert all(r[0].changed for r in nr.run(task=netcfg_diff).values())
    refused = nr.run(task=netcfg_rollback)
    assert all(r.failed for r in refused.values())
    assert {str(r[0].exception) for r in refused.values()} == {
        f"the latest push that changed devices, run {run}, is rolled back already; name an "
        "earlier run with --run (`netcfg runs` lists them)"}


def test_a_failing_canary_stops_the_fleet(make_lab, tmp_path, monkeypatch):
    """core1, first by name, is the canary; its commit is refused, which is more than
    max_failures 0: the run stops there, nothing else is touched (the journal names core1
    only) and every host of the Nornir run fails, with one run id."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    names = ["core1", "leaf-su1-r1", "leaf-su2-r5"]
    lab, nornir = served(make_lab, tmp_path, names)
    try:
        lab["core1"].inject("commit_error", message="error: hardware programming failed")
        result = nornir.run(task=netcfg_push)
        assert all(r.failed for r in result.values())
        statuses = {h: r[0].result["status"] for h, r in result.items()}
        assert statuses["core1"] in ("failed", "reverted")
        assert statuses["leaf-su1-r1"] == statuses["leaf-su2-r5"] == "not-started"
        run = result["core1"][0].result["run"]
        assert result["leaf-su1-r1"][0].result["run"] == run
        assert result["core1"][0].result["aborted"] is True
        touched = {e["device"] for e in _journal(tmp_path / "state", run)} - {"-"}
        assert touched == {"core1"}
    finally:
        nornir.close_connections()


def test_plain_napalm_replace_keeps_every_device_reachable(make_lab, tmp_path):
    """nornir_napalm's napalm_configure(replace=True) with the rendered file, no netcfg engine
    in between: the inventory's drivers (netcfg's SONiC and Cumulus drivers, and NAPALM's EOS,
    NX-OS and Junos drivers as netcfg_eos, netcfg_nxos, netcfg_junos) keep the switch's own
    users, root password and AAA inside load_replace_candidate, so the device still answers
    our login afterwards (NAPALM's own EOS driver locks it out, Junos refuses the file)."""
    from nornir_napalm.plugins.tasks import napalm_configure

    names = NAMES
    lab, nr = served(make_lab, tmp_path, names)
    try:
        rendered = nr.run(task=netcfg_render)

        def configure(task):
            return napalm_configure(task, configuration=rendered[task.host.name][0].result,
                                    replace=True)

        done = nr.run(task=configure)
        assert not done.failed, {h: r.exception for h, r in done.items() if r.failed}
        assert all(r[0].changed for r in done.values())
        nr.close_connections()
        for name in names:
            assert lab[name].do(lambda emu: emu.user_configured("netops")), name
        again = nr.run(task=napalm_get, getters=["facts"])  # a fresh login still works
        assert not again.failed
    finally:
        nr.close_connections()
