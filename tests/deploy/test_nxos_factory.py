"""An NX-OS switch fresh from the factory, pushed to by netcfg: every planned port comes up,
the switch's own sections survive the replace, a second push changes nothing, a file that
leaves routed ports at their default is reverted, and a queuing or network-qos change waits
for --allow-disruptive.

Outside truth: the factory configuration and the defaults the lab applies are
../shared/factory/nxos/running-config.factory-10.x.reconstructed.txt and the NX-OS table of
../shared/factory/DEFAULTS.md. That factory file is only INFERRED (assembled from lines that
public 9.3/10.x captures share; no capture of an N9364E-SG2 exists), and so is the lab's
default mode (L3) of a port with no mode line; the routed-port default (`shutdown`) is
observed and from Cisco's own cisco.nxos collection. The lines this test expects to survive
are read from that file, not from netcfg. The queuing gate rests on Cisco's Nexus 9000 QoS
guide 10.5(x), "Configuring Queuing and Scheduling": "Changes are disruptive." (quoted in
docs/render-nxos.md). Every change is named only once a port is in service (the gate's one
policy, docs/deploy.md): the factory switch's first push, its breakout included, is not
(tests/deploy/test_disruptive.py)."""

from __future__ import annotations

import dataclasses
import threading

import napalm
import pytest

from netcfg.deploy.engine import Options, diff_device, push_device
from netcfg.deploy.runs import Run

from .deploy_cases import BY_NOS, SHARED, desired_with, fleet, multivendor, specs

needs_shared = pytest.mark.skipif(SHARED is None,
                                  reason="needs ../shared/factory (vendor data)")

OPTS = Options(timeout=20, revert_in=300)
ALLOW = Options(timeout=20, revert_in=300, allow_disruptive=True)

#: the ETS shares of the multivendor intent (50/50) moved to 60/40: a queuing policy change
QOS_CHANGE = """qos:
  classes:
    roce: {dscp: [26], traffic_class: 3, lossless: true, scheduling: {mode: ets, weight: 60}}
    cnp: {dscp: [48], traffic_class: 6, scheduling: {mode: strict}}
    best-effort: {dscp: [0], traffic_class: 0, scheduling: {mode: ets, weight: 40}}
"""


def _factory_lines(name: str, *prefixes: str) -> list[str]:
    """Lines of the vendor factory file that start with one of `prefixes`, for switch `name`
    (the file's `<switchname>`)."""
    assert SHARED is not None
    text = (SHARED / "factory" / "nxos" / "running-config.factory-10.x.reconstructed.txt"
            ).read_text()
    return [line.rstrip().replace("<switchname>", name) for line in text.splitlines()
            if line.startswith(prefixes)]


@needs_shared
def test_the_replace_target_keeps_the_switchs_own_sections():
    """The candidate of a replace is a complete configuration (Cisco's configuration-replace
    guide: the file "should not be a partial configuration"): the factory switch's own
    sections netcfg does not render are taken from its running config by the preserve
    policy, so the replace removes none of them; `feature scp-server` (the operator's day-0
    step, which NAPALM's upload needs) stays."""
    from netcfg.deploy.desired import desired_configs
    from netcfg.deploy.preserve import keep
    from netcfg.deploy.sections import compare
    from netcfg.deploy.targets import select
    from netcfg.vendors import vendor

    name = BY_NOS["nxos"]
    assert SHARED is not None
    running = (SHARED / "factory" / "nxos" / "running-config.factory-10.x.reconstructed.txt"
               ).read_text().replace("<switchname>", name)
    running = running.replace("hostname ", "feature nxapi\nfeature scp-server\nhostname ", 1)
    result = multivendor()
    assert result.fabric is not None and result.physics is not None
    rendered = desired_configs(result.fabric, result.physics,
                               select(result.fabric, (name,)))[name].text
    adapter = vendor("nxos").deploy
    kept = keep(adapter, running, rendered, adapter.policy())
    own = _factory_lines(name, "copp profile", "boot nxos", "rmon event", "line ", "vdc ",
                         "  limit-resource", "icam ", "ip domain-lookup", "vlan 1")
    assert len(own) >= 14
    assert all(line in kept.text.splitlines() for line in own + ["feature scp-server"])
    change = compare(kept.running, adapter.sections(kept.text))
    assert change.unmanaged == []
    assert not [key for key in change.removed if not key.startswith("interface Ethernet")]


def _up(dev) -> dict[str, bool]:  # noqa: ANN001 - a LabDevice
    driver = napalm.get_network_driver("nxos")(**dev.napalm())
    driver.open()
    try:
        return {n: i["is_up"] for n, i in driver.get_interfaces().items()}
    finally:
        driver.close()


@needs_shared
def test_a_factory_switch_comes_up_keeps_its_own_and_gates_queuing(make_lab, tmp_path):
    name = BY_NOS["nxos"]
    lab = make_lab(*specs([name], factory=True))
    lab.advance(30)
    dev = lab[name]
    f = fleet(lab, [name], tmp_path)
    target, desired = f.targets[0], f.desired[name]
    fabric = multivendor().fabric
    assert fabric is not None
    planned = {p.name for p in fabric.devices[name].ports}
    own = _factory_lines(name, "copp profile", "boot nxos", "rmon event", "line ", "vdc ",
                         "  limit-resource", "icam ")
    assert len(own) >= 12  # copp, boot, 5 rmon, 2 lines, vdc and its 5 limits, icam

    running = dev.running_config()
    assert all(line in running for line in own)
    # the split ports appear with the breakout; the factory's own cages are routed ports at
    # their default (the default mode is inferred), so nothing is up
    assert not any(_up(dev).get(port, False) for port in planned)

    run = Run(tmp_path / "state")
    first = push_device(target, desired, run, ALLOW, threading.Event())
    assert first.status == "confirmed", first
    assert first.sections is not None
    assert {"boot", "copp profile", "feature scp-server", "rmon"} <= set(first.sections.preserved)
    up = _up(dev)
    assert all(up.get(port) for port in planned), sorted(p for p in planned if not up.get(p))
    running = dev.running_config()
    assert all(line in running for line in own)
    assert "feature scp-server" in running and "feature nxapi" in running

    # the switch still takes NAPALM's upload (feature scp-server stayed): nothing to change
    again = push_device(target, desired, run, OPTS, threading.Event())
    assert again.status == "unchanged", again

    # a file that leaves the routed ports at their default shuts them: the post-check sees
    # the links that were up go down, and the switch goes back
    bare = dataclasses.replace(desired, text=desired.text.replace("  no shutdown\n", ""))
    assert bare.text != desired.text
    shut = push_device(target, bare, run, ALLOW, threading.Event())
    assert (shut.status, shut.stage) == ("reverted", "post-check"), shut
    assert "interfaces down after the commit" in (shut.error or "")
    up = _up(dev)
    assert all(up.get(port) for port in planned)

    # the ETS shares change: NETCFG-OUT, applied in system qos, is rewritten
    qos = desired_with(tmp_path, name, QOS_CHANGE)
    why = ("changes queuing policy `NETCFG-OUT` (system qos) (NX-OS: a queuing policy change "
           "is disruptive, traffic on all ports of the type is briefly lost)")
    drift = diff_device(target, qos, OPTS)
    assert drift.sections is not None and drift.sections.disruptive == [why]
    assert f"disruptive: {why}" in drift.sections.summary()
    refused = push_device(target, qos, run, OPTS, threading.Event())
    assert (refused.status, refused.stage) == ("failed", "disruptive"), refused
    assert "--allow-disruptive" in (refused.error or "")
    assert "bandwidth remaining percent 60" not in dev.running_config()
    allowed = push_device(target, qos, run, ALLOW, threading.Event())
    assert allowed.status == "confirmed", allowed
    assert "    bandwidth remaining percent 60" in dev.running_config()
    events = [e for e in run.events() if e.device == name]
    assert [e.detail["disrupts"] for e in events if e.event == "refused"] == [[why]]

    # the network-qos classes' MTU changes (the only 4-space `mtu` lines: interfaces have 2):
    # the system-level no-drop policy is rewritten, refused without --allow-disruptive
    nq = dataclasses.replace(qos, text=qos.text.replace("    mtu 9216\n", "    mtu 9100\n"))
    assert nq.text != qos.text
    nq_why = ("changes network-qos policy `NETCFG-NQ` (system qos) (NX-OS: the system-level "
              "network-qos policy sets the no-drop classes of all ports; a change is treated "
              "as disruptive like a queuing change)")
    drift = diff_device(target, nq, OPTS)
    assert drift.sections is not None and drift.sections.disruptive == [nq_why]
    refused = push_device(target, nq, run, OPTS, threading.Event())
    assert (refused.status, refused.stage) == ("failed", "disruptive"), refused
    assert "    mtu 9100" not in dev.running_config()
    allowed = push_device(target, nq, run, ALLOW, threading.Event())
    assert allowed.status == "confirmed", allowed
    assert "    mtu 9100" in dev.running_config()


def test_queuing_changes_are_named_where_the_switch_applies_them():
    """Hand-written configs: a policy's classes changed, another policy on a port, a port's
    policy dropped; a first policy on a switch that runs none; an unchanged one."""
    from netcfg.vendors import vendor

    adapter = vendor("nxos").deploy
    why = ("(NX-OS: a queuing policy change is disruptive, traffic on all ports of the type "
           "is briefly lost)")
    policy = ("policy-map type queuing OUT\n  class type queuing c-out-8q-q3\n"
              "    bandwidth remaining percent {}\n")
    system = "system qos\n  service-policy type queuing output OUT\n"
    port = ("interface Ethernet1/{}\n  mtu 9216\n  service-policy type queuing output {}\n"
            "  no shutdown\n")
    running = adapter.sections(policy.format(50) + "policy-map type queuing P\n"
                               + system + port.format(1, "P") + port.format(2, "P"))
    same = adapter.sections(policy.format(50) + "policy-map type queuing P\n"
                            + system + port.format(1, "P") + port.format(2, "P"))
    assert adapter.disruptive(running, same) == []
    changed = adapter.sections(policy.format(60) + "policy-map type queuing P\n" + system
                               + port.format(1, "OUT") + "interface Ethernet1/2\n  mtu 9216\n")
    assert adapter.disruptive(running, changed) == [
        f"changes queuing policy `OUT` (system qos) {why}",
        f"changes queuing policy `P` (2 ports) {why}"]
    factory = adapter.sections("hostname s1\ninterface Ethernet1/1\n  mtu 9216\n")
    assert adapter.disruptive(factory, running) == []
    # the same switch with a port in service, on NX-OS's default queuing: the first policy
    serving = adapter.sections("hostname s1\ninterface Ethernet1/1\n  no shutdown\n")
    assert adapter.disruptive(serving, running) == [
        f"applies queuing policy `OUT` (system qos) in place of NX-OS's default {why}"]


def test_network_qos_changes_are_named():
    """Hand-written configs: the network-qos policy's pause CoS changed, another policy
    applied, a first policy on a switch in service; unchanged, and on a factory switch, none."""
    from netcfg.vendors import vendor

    adapter = vendor("nxos").deploy
    why = ("(NX-OS: the system-level network-qos policy sets the no-drop classes of all "
           "ports; a change is treated as disruptive like a queuing change)")
    nq = ("policy-map type network-qos {}\n  class type network-qos c-8q-nq3\n    mtu 9216\n"
          "    pause pfc-cos {}\n")
    system = "system qos\n  service-policy type network-qos {}\n"
    port = "interface Ethernet1/1\n  no shutdown\n"
    running = adapter.sections(nq.format("NQ", 3) + system.format("NQ") + port)
    assert adapter.disruptive(running, adapter.sections(
        nq.format("NQ", 3) + system.format("NQ") + port)) == []
    assert adapter.disruptive(running, adapter.sections(
        nq.format("NQ", 4) + system.format("NQ") + port)) == [
        f"changes network-qos policy `NQ` (system qos) {why}"]
    assert adapter.disruptive(running, adapter.sections(
        nq.format("NQ2", 3) + system.format("NQ2") + port)) == [
        f"changes network-qos policy `NQ` (system qos) {why}"]
    assert adapter.disruptive(adapter.sections(port), running) == [
        f"applies network-qos policy `NQ` (system qos) in place of NX-OS's default {why}"]
    factory = adapter.sections("interface Ethernet1/1\n  mtu 9216\n")
    assert adapter.disruptive(factory, adapter.sections(nq.format("NQ", 3)
                                                        + system.format("NQ"))) == []
