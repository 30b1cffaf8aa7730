"""PFC, queue-drop and ECN state of EOS, parsed from the eAPI outputs of ANTA's own unit
tests (tests/verify/fixtures/anta/, Apache-2.0, with their source), and the checks on them.
Expected values are written by hand from the fixtures."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from netcfg.verify import checks
from netcfg.verify.collect import DeviceState
from netcfg.verify.pfc import PfcCounters, PfcState
from netcfg.verify.readers import eos

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
