"""FRR, the sixth vendor: what it renders is accepted by FRR's own parser (vtysh -C, the
outside truth), reads back as planned, and validate and push say what it does not do."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from render_cases import nos_plans, swapped

from netcfg.deploy.targets import TargetError, from_intent
from netcfg.render.engine import render_plan
from netcfg.render.facts import QosFacts
from netcfg.validate import validate
from netcfg.vendors import vendor

PLATFORM = "nvidia-sn5600-frr"
needs_vtysh = pytest.mark.skipif(shutil.which("vtysh") is None,
                                 reason="FRR's vtysh is not installed (apt install frr)")


@pytest.fixture(scope="module")
def fabric_path(tmp_path_factory) -> Path:
    return swapped(tmp_path_factory.mktemp("frr"), "example", PLATFORM)


@needs_vtysh
def test_every_file_passes_frrs_own_parser(fabric_path, tmp_path):
    for plan in nos_plans(fabric_path, "frr"):
        conf = tmp_path / f"{plan.hostname}.conf"
        conf.write_text(render_plan(plan))
        check = subprocess.run(["vtysh", "-C", "-f", str(conf)], capture_output=True,
                               text=True, timeout=60)
        assert check.returncode == 0, (plan.hostname, check.stdout, check.stderr)


def test_routing_reads_back_as_planned(fabric_path):
    frr = vendor("frr")
    for plan in nos_plans(fabric_path, "frr"):
        facts = frr.read_routing(render_plan(plan))
        assert frr.expected_routing(plan).differences(facts) == []
        # by hand: a leaf of the example has 32 spine sessions at 300 ms x 3
        if plan.role == "leaf":
            assert len(facts.bfd) == 32 and set(facts.bfd.values()) == {(300, 3)}


def test_a_missing_bfd_profile_or_group_line_is_caught(fabric_path):
    frr = vendor("frr")
    plan = nos_plans(fabric_path, "frr")[0]
    text = render_plan(plan)
    first = plan.bgp.neighbors[0]
    lone = text.replace(f" neighbor {first.address} peer-group {first.group}\n", "")
    assert frr.expected_routing(plan).differences(frr.read_routing(lone)) == [
        f"neighbour {first.address}: no BFD"]
    slow = text.replace("  receive-interval 300\n  transmit-interval 300\n",
                        "  receive-interval 1000\n  transmit-interval 1000\n")
    assert f"neighbour {first.address}: BFD 1000 ms x 3 instead of 300 ms x 3" in \
        frr.expected_routing(plan).differences(frr.read_routing(slow))


def test_validate_warns_that_frr_holds_routing_only(fabric_path):
    result = validate(fabric_path)
    assert result.ok
    cap012 = [f for f in result.findings if f.rule == "CAP012"]
    assert len(cap012) == 1 and cap012[0].severity == "warning"
    assert "no PFC" in cap012[0].message
    # the QoS capability rules do not apply to a file that holds no QoS
    assert not [f for f in result.findings if f.rule in ("CAP001", "CAP002", "CAP003")]
    assert vendor("frr").read("anything", nos_plans(fabric_path, "frr")[0]) == QosFacts()


def test_push_refuses_an_frr_device_in_one_line(fabric_path, monkeypatch):
    monkeypatch.setenv("NETCFG_PASSWORD", "not-used")
    result = validate(fabric_path)
    assert result.fabric is not None
    with pytest.raises(TargetError) as err:
        from_intent(result.fabric, result.fabric.switches()[:1], fabric_path.parent)
    assert "does not deploy to frr devices" in str(err.value)
    assert "\n" not in str(err.value)


def _timers_path(tmp: Path, timers: dict) -> Path:
    import yaml

    path = swapped(tmp, "example", PLATFORM)
    doc = yaml.safe_load(path.read_text())
    doc.setdefault("routing", {})["timers"] = timers
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def test_every_file_states_the_intents_bgp_timers(fabric_path, tmp_path):
    """`timers bgp <keepalive> <hold>` under `router bgp` (FRR bgpd, bgp_vty.c `timers bgp
    (0-65535) (0-65535)`: every neighbour's unless it or its group sets its own): the
    intent's defaults 3/9 s (docs/intent.md) on every file; 10/30 s where the intent says
    so, which FRR's own parser takes too."""
    for plan in nos_plans(fabric_path, "frr"):
        router = render_plan(plan).split("\nrouter bgp ", 1)[1].split("\nexit\n", 1)[0]
        assert "\n timers bgp 3 9\n" in router, plan.hostname
    other = nos_plans(_timers_path(tmp_path, {"keepalive": "10s", "hold": "30s"}), "frr")[0]
    text = render_plan(other)
    assert "\n timers bgp 10 30\n" in text and "timers bgp 3 9" not in text
    if shutil.which("vtysh") is not None:
        conf = tmp_path / "other.conf"
        conf.write_text(text)
        check = subprocess.run(["vtysh", "-C", "-f", str(conf)], capture_output=True,
                               text=True, timeout=60)
        assert check.returncode == 0, check.stdout + check.stderr
