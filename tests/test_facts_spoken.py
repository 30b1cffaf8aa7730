"""Drift by meaning reads as a person writes values: `detection 200ms`, `150KB`, `3, 4`, never
a dataclass repr. Every expected line is written by hand from the facts the test states."""

from __future__ import annotations

from netcfg.render.facts import Ecn, QosFacts, WatchdogFacts, spoken

WANT = QosFacts(dscp_to_tc={26: 3, 48: 6}, lossless_priorities=(3,),
                pfc_ports={"Ethernet1": (3,)},
                ecn={"Ethernet1": {3: Ecn(150_000, 1_500_000, 5)},
                     "Ethernet2": {3: Ecn(150_000, 1_500_000, 5)}},
                watchdog={"Ethernet1": WatchdogFacts(200, 200, "drop"),
                          "Ethernet2": WatchdogFacts(200, 200, "drop")},
                mtu={"Ethernet1": 9216}, hash_fields=("src_ip", "dst_ip", "l4_src_port"))


def test_each_value_as_a_person_writes_it():
    assert spoken(WatchdogFacts(200, 200, "drop")) == \
        "detection 200ms, restoration 200ms, action drop"
    assert str(WatchdogFacts(200, 0, "drop")) == "detection 200ms, restoration none, action drop"
    assert f"{Ecn(150_000, 1_500_000, 5)}" == "min 150KB, max 1500KB, probability 5%"
    assert spoken(Ecn(153_600, 2_000_000, 20)) == "min 153600B, max 2MB, probability 20%"
    assert spoken((3, 4)) == "3, 4" and spoken(()) == "none" and spoken(None) == "none"
    assert spoken(frozenset({"b", "a"})) == "a, b" and spoken(True) == "yes"


def test_differences_name_only_what_differs():
    got = QosFacts(dscp_to_tc={26: 0}, lossless_priorities=(),
                   pfc_ports={"Ethernet1": (4,)},
                   ecn={"Ethernet1": {3: Ecn(100_000, 1_500_000, 5)}},
                   watchdog={"Ethernet1": WatchdogFacts(400, 0, "drop"),
                             "Ethernet3": WatchdogFacts(200, 200, "forward")},
                   mtu={"Ethernet1": 9100, "Ethernet3": 1500},
                   hash_fields=("dst_ip", "src_ip"))
    assert WANT.differences(got) == [
        "DSCP 26: traffic class 0 instead of 3",
        "DSCP 48: not mapped, the intent has traffic class 6",
        "lossless priorities none instead of 3",
        "Ethernet1: PFC priority 3 off",
        "Ethernet1: PFC priority 4 on, not in the intent",
        "Ethernet1: queue 3 ECN min 100KB instead of 150KB",
        "Ethernet2: queue 3 ECN off, the intent has min 150KB, max 1500KB, probability 5%",
        "Ethernet1: PFC watchdog detection 400ms instead of 200ms; restoration none instead "
        "of 200ms",
        "Ethernet2: PFC watchdog off, the intent has detection 200ms, restoration 200ms, "
        "action drop",
        "Ethernet3: PFC watchdog on (detection 200ms, restoration 200ms, action forward), not "
        "in the intent",
        "Ethernet1: MTU 9100 instead of 9216",
        "Ethernet3: MTU 1500, not in the intent",
        "ECMP hash fields dst_ip, src_ip instead of dst_ip, l4_src_port, src_ip",
    ]
    assert WANT.differences(WANT) == []
