"""The Nornir integration with the real nornir and nornir_napalm packages against the lab: the
NetcfgInventory plugin found by its entry point, nornir_napalm's own `napalm_get` on every NOS
through the inventory's connection options, and netcfg's render, diff and push tasks taking a
fresh lab fabric to the intent and back to nothing to do."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("nornir", reason="the nornir extra is not installed")
pytest.importorskip("nornir_napalm", reason="the nornir extra is not installed")

from nornir import InitNornir  # noqa: E402
from nornir_napalm.plugins.tasks import napalm_get  # noqa: E402

from netcfg.nornir import netcfg_diff, netcfg_push, netcfg_render  # noqa: E402

from .deploy_cases import (  # noqa: E402
    BY_NOS,
    MULTIVENDOR,
    PASSWORD,
    SHARED,
    devices_file,
    specs,
)

NAMES = sorted(BY_NOS.values())


def served(make_lab, tmp_path, names):
    """Nornir on the NetcfgInventory of a lab serving `names` of the multivendor fabric."""
    lab = make_lab(*specs(names))
    lab.advance(30)
    path = devices_file(lab, tmp_path)
    return lab, InitNornir(
        inventory={"plugin": "NetcfgInventory",
                   "options": {"path": str(MULTIVENDOR), "connect": str(path), "devices": names,
                               "state": str(tmp_path / "state"), "timeout": 20}},
        runner={"plugin": "threaded", "options": {"num_workers": len(names)}},
        logging={"enabled": False})


@pytest.fixture
def nr(make_lab, tmp_path):
    _, nornir = served(make_lab, tmp_path, NAMES)
    yield nornir
    nornir.close_connections()


def test_the_inventory_is_the_fabric(nr):
    assert sorted(nr.inventory.hosts) == NAMES
    hosts = nr.inventory.hosts
    assert {hosts[BY_NOS[nos]].platform for nos in BY_NOS} == {
        "netcfg_eos", "netcfg_junos", "netcfg_nxos", "netcfg_sonic", "netcfg_cumulus"}
    assert hosts[BY_NOS["eos"]].has_parent_group("role_leaf")
    assert hosts[BY_NOS["junos"]].has_parent_group("nos_junos")
    assert len(nr.filter(role="leaf").inventory.hosts) == 3


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


def test_render_diff_push_then_nothing_to_do(nr):
    rendered = nr.run(task=netcfg_render)
    assert all(name in r[0].result for name, r in rendered.items())
    drift = nr.run(task=netcfg_diff)
    assert not drift.failed and all(r[0].changed for r in drift.values())
    pushed = nr.run(task=netcfg_push)
    assert not pushed.failed, {h: r[0].result for h, r in pushed.items() if r.failed}
    assert {r[0].result["status"] for r in pushed.values()} == {"confirmed"}
    clean = nr.run(task=netcfg_diff)
    assert not clean.failed and not any(r[0].changed for r in clean.values())
    for r in list(pushed.values()) + list(clean.values()):
        assert PASSWORD not in str(r[0].result)


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
