"""PFC, queue-drop and ECN state of EOS, parsed from the eAPI outputs of ANTA's own unit
tests (tests/verify/fixtures/anta/, Apache-2.0, with their source), and the checks on them.
Expected values are written by hand from the fixtures."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from netcfg.vendors.eos import pfcstate as eos
from netcfg.verify import checks
from netcfg.verify.collect import DeviceState
from netcfg.verify.pfc import PfcCounters, PfcState

ANTA = Path(__file__).parent / "fixtures" / "anta"


def _load(name: str) -> Any:
    return json.loads((ANTA / name).read_text())


def test_eos_pfc_counters_as_anta_captures_them():
    # VerifyInterfacesPFCCounters "failure": 3/1/1 received 1, 3/2/1 sent 2, 3/3/1 received
    # 2, 3/4/1 sent 1
    assert eos.pfc_frames(_load("show_priority-flow-control_counters.json")) == {
        "Ethernet3/1/1": (1, 0), "Ethernet3/2/1": (0, 2), "Ethernet3/3/1": (2, 0),
        "Ethernet3/4/1": (0, 1)}


def test_eos_ecn_queues_as_anta_captures_them():
    # VerifyInterfacesECNCounters "failure": "-" on 10/28/1 queue 0 and 10/16/1 queue 2
    got = eos.ecn_queues(_load("show_qos_interfaces_ecn_counters_queue.json"))
    assert got == {"Ethernet10/28/1": {0: False, 1: True, 2: True},
                   "Ethernet10/20/1": {0: True, 1: True, 2: True},
                   "Ethernet10/16/1": {0: True, 1: True, 2: False},
                   "Ethernet10/3/1": {0: True, 1: True, 2: True}}


def test_eos_queue_drops_as_anta_captures_them():
    # VerifyInterfacesEgressQueueDrops "failure": unicast Ethernet1 TC0 dropped 2, Ethernet2
    # TC1 2; the multicast drops (Ethernet1 TC1 3, Ethernet2 TC0 3) are not unicast queues
    got = eos.queue_drops(_load("show_interfaces_counters_queue_detail.json"))
    assert got == {"Ethernet1": {0: 2, 1: 0}, "Ethernet2": {0: 0, 1: 2}}
    # "success-traffic-claas-and-dp-range": the platform counts TC0-2 (and DP0-2) together
    ranged = eos.queue_drops(_load("show_interfaces_counters_queue_detail_ranges.json"))
    assert ranged == {"Ethernet1": {0: 0, 1: 0, 2: 0}, "Ethernet2": {0: 0, 1: 0, 2: 0}}


def _port(name: str, ecn_queue: int | None = 1) -> SimpleNamespace:
    ecn = () if ecn_queue is None else (SimpleNamespace(queue=ecn_queue, min=150000,
                                                        max=1500000),)
    return SimpleNamespace(name=name, lossless=True, pfc_priorities=(1,), ecn=ecn,
                           watchdog=SimpleNamespace(enabled=True))


def test_eos_checks_on_anta_captures():
    """A plan with priority and queue 1 lossless (and ECN-marked) on Ethernet1 and Ethernet2,
    read twice: the first reading the captures, the second written by hand from them
    (Ethernet1 received 3 more PFC frames and dropped 4 more on TC1). ECN on queue 1 is
    configured on 10/20/1 and 10/28/1; the plan's queue 2 on 10/16/1 is not."""
    frames = eos.pfc_frames({"interfaceCounters": {"Ethernet1": {"rxFrames": 1, "txFrames": 0},
                                                   "Ethernet2": {"rxFrames": 0,
                                                                 "txFrames": 2}}})
    drops = eos.queue_drops(_load("show_interfaces_counters_queue_detail.json"))
    ecn = eos.ecn_queues(_load("show_qos_interfaces_ecn_counters_queue.json"))
    first = PfcState(None, PfcCounters(), drops, frames, ecn)
    after = PfcState(None, PfcCounters(), {"Ethernet1": {0: 2, 1: 0 + 4},
                                           "Ethernet2": {0: 0, 1: 2}},
                     {"Ethernet1": (1 + 3, 0), "Ethernet2": (0, 2)}, ecn)
    plan = SimpleNamespace(hostname="leaf1", interfaces=[
        _port("Ethernet1", None), _port("Ethernet2", None), _port("Ethernet10/20/1"),
        _port("Ethernet10/28/1"), _port("Ethernet10/16/1", 2), _port("Ethernet9", 1)])
    found = checks.pfc(plan, DeviceState(pfc=first, pfc_after=after, interval=2), 0)
    failed = {(c.rule, c.interface): c.message for c in found if not c.ok}
    assert failed == {
        ("VFY012", "Ethernet1"):
            "3 PFC pause frame(s) received on the port (all priorities) in 2 s (more than 0)",
        ("VFY013", "Ethernet1"): "4 packet(s) dropped on lossless queue 1 in 2 s",
        ("VFY021", "Ethernet10/16/1"):
            "queue 2: ECN marking not configured (planned 150000-1500000 bytes)",
        ("VFY021", "Ethernet9"): "queue 1: the switch shows no ECN state for the port"}
    passed = {(c.rule, c.interface) for c in found if c.ok}
    assert passed == {("VFY012", "Ethernet2"), ("VFY013", "Ethernet2"),
                      ("VFY021", "Ethernet10/20/1"), ("VFY021", "Ethernet10/28/1")}
    # no watchdog state is read on EOS: VFY010/VFY011 are not run
    assert not [c for c in found if c.rule in ("VFY010", "VFY011")]


SONIC = Path(__file__).parent / "fixtures" / "sonic-utilities"


def test_sonic_buffer_profiles_as_sonic_utilities_prints_them():
    # show_buffer_information_output: four pools, then ingress_lossy_profile and
    # headroom_profile (xon 18432, xoff 32768, size 51200)
    from netcfg.vendors.sonic import buffershow as sonic_buffers

    got = sonic_buffers.parse((SONIC / "show_buffer_information.txt").read_text())
    assert got["pools"]["egress_lossless_pool"] == {"mode": "dynamic", "size": "13945824",
                                                    "type": "egress"}
    assert sorted(got["pools"]) == ["egress_lossless_pool", "egress_lossy_pool",
                                    "ingress_lossless_pool", "ingress_lossy_pool"]
    assert got["profiles"] == {
        "ingress_lossy_profile": {"dynamic_th": "3", "pool": "ingress_lossy_pool",
                                  "size": "0"},
        "headroom_profile": {"dynamic_th": "0", "pool": "ingress_lossless_pool",
                             "xon": "18432", "xoff": "32768", "size": "51200"}}


def test_the_lab_prints_sonic_buffer_information_byte_for_byte():
    from netcfg.lab.sonic.buffershow import section
    from netcfg.vendors.sonic import buffershow as sonic_buffers

    text = (SONIC / "show_buffer_information.txt").read_text()
    got = sonic_buffers.parse(text)
    printed = "".join(section("Pool", n, f) for n, f in got["pools"].items()) + "".join(
        section("Profile", n, f) for n, f in got["profiles"].items())
    assert printed == text


def test_headroom_check_on_sonic_utilities_output():
    """Three lossless ports whose profile is the capture's headroom_profile (xoff 32768)
    with netcfg deriving xoff 32768 (equal: holds) and 40960 (more: fails), and one whose
    profile is not programmed."""
    from netcfg.vendors.sonic import buffershow as sonic_buffers

    profiles = sonic_buffers.parse((SONIC / "show_buffer_information.txt").read_text())
    state = DeviceState(buffers=profiles["profiles"])

    def port(name: str, xoff: int) -> SimpleNamespace:
        return SimpleNamespace(name=name, lossless=True, headroom=SimpleNamespace(
            xon=18432, xoff=xoff, size=18432 + xoff))

    plan = SimpleNamespace(hostname="leaf1", nos="sonic", interfaces=[
        port("Ethernet0", 32768), port("Ethernet4", 40960), port("Ethernet8", 32768)])
    names = {"Ethernet0": "headroom_profile", "Ethernet4": "headroom_profile",
             "Ethernet8": "pg_lossless_400000_5m_profile"}
    found = checks.headroom(plan, state, lambda i: names[i.name])
    assert [(c.interface, c.ok, c.message) for c in found] == [
        ("Ethernet0", True, "headroom_profile programmed with xon 18432, xoff 32768, size "
         "51200; netcfg derives xon 18432, xoff 32768, size 51200"),
        ("Ethernet4", False, "headroom_profile programmed with xon 18432, xoff 32768, size "
         "51200; netcfg derives xon 18432, xoff 40960, size 59392: the programmed xoff is "
         "below it"),
        ("Ethernet8", False, "lossless PG profile pg_lossless_400000_5m_profile is not "
         "programmed (netcfg derives xon 18432, xoff 32768, size 51200)")]
    assert {c.rule for c in found} == {"VFY024"}


GENIE = Path(__file__).parent / "fixtures" / "genieparser"


def test_junos_queue_drops_as_a_real_junos_prints_them():
    # genieparser's capture: ge-0/0/2 (an MX) with queues 0-4 (Bronze, Platinum, Gold,
    # Network-Control, Silver), nothing tail- or RED-dropped; queue 0 queued 1,470,816,406
    # packets (not a drop)
    from netcfg.lab.junos.queues import queue_block
    from netcfg.vendors.junos import pfcstate as junos

    got = junos.queue_drops((GENIE / "junos_show_interfaces_queue.txt").read_text())
    assert got == {"ge-0/0/2": {0: 0, 1: 0, 2: 0, 3: 0, 4: 0}}
    # a block the lab prints with 7 tail drops on queue 3 (its layout is the capture's,
    # test_verify_lab): read back as 7
    text = "Physical interface: et-0/0/1, Enabled, Physical link is Up\n" + "\n".join(
        queue_block(3, "roce", 7))
    assert junos.queue_drops(text) == {"et-0/0/1": {3: 7}}
