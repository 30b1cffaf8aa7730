"""EOS PFC, queue-drop and ECN state for the lab, in the eAPI JSON ANTA's tests read (the
shapes of ANTA's unit-test outputs, tests/verify/fixtures/anta/; tests/verify compares them
key by key):

- `show priority-flow-control counters`: every Ethernet port, PFC frames received and sent;
  zero, except a port with a `pfc_storm` fault, which receives 1,000 frames on each of its
  lossless priorities between two readings (as the SONiC lab does);
- `show interfaces counters queue detail`: unicast and multicast traffic classes TC0-TC7 of
  every Ethernet port, drop precedence DP0; zero, except a port with `lossless_drops`, whose
  lossless classes drop 100 packets between two readings;
- `show qos interfaces ecn counters queue`: queues 0-7 of every Ethernet port, `"0"` where
  the running config has `random-detect ecn` under the port's `uc-tx-queue`, `"-"` (ECN not
  configured) elsewhere.

A port's lossless priorities are its `priority-flow-control priority N no-drop` lines
(priority n is traffic class n and queue n in the rendered config).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from netcfg.lab.oper import Wiring

if TYPE_CHECKING:
    from netcfg.lab.eos.emulator import EosEmulator

PAUSES_PER_READING = 1000
DROPS_PER_READING = 100


def _ports(dev: EosEmulator) -> dict[str, tuple[set[int], set[int]]]:
    """Ethernet port -> (lossless priorities, queues with ECN marking), from the running
    config."""
    out: dict[str, tuple[set[int], set[int]]] = {}
    for node in dev.running.children:
        toks = node.line.split()
        if len(toks) != 2 or toks[0].lower() != "interface" \
                or not toks[1].lower().startswith("ethernet"):
            continue
        lossless: set[int] = set()
        ecn: set[int] = set()
        for c in node.children:
            t = c.line.split()
            if t[:2] == ["priority-flow-control", "priority"] and t[3:] == ["no-drop"] \
                    and t[2].isdigit():
                lossless.add(int(t[2]))
            elif t[:1] in (["uc-tx-queue"], ["tx-queue"]) and len(t) == 2 and t[1].isdigit():
                if any(g.line.split()[:2] == ["random-detect", "ecn"] for g in c.children):
                    ecn.add(int(t[1]))
        out[toks[1]] = (lossless, ecn)
    return out


def _reading(wiring: Wiring, key: tuple[str, str, str]) -> int:
    """How many times this counter has been read (each reading moves a faulted counter)."""
    wiring.readings[key] = wiring.readings.get(key, 0) + 1
    return wiring.readings[key]


def pfc_counters(dev: EosEmulator, wiring: Wiring) -> dict[str, Any]:
    out = {}
    for port, (lossless, _) in _ports(dev).items():
        rx = 0
        if ("pfc_storm", dev.name, port) in wiring.pfc_faults:
            rx = _reading(wiring, ("pfc", dev.name, port)) * PAUSES_PER_READING * len(lossless)
        out[port] = {"rxFrames": rx, "txFrames": 0}
    return {"interfaceCounters": out}


def queue_detail(dev: EosEmulator, wiring: Wiring) -> dict[str, Any]:
    out = {}
    for port, (lossless, _) in _ports(dev).items():
        n = 0
        if ("lossless_drops", dev.name, port) in wiring.pfc_faults:
            n = _reading(wiring, ("drops", dev.name, port)) * DROPS_PER_READING

        def classes(drops: dict[int, int]) -> dict[str, Any]:
            return {"trafficClasses": {
                f"TC{tc}": {"dropPrecedences": {"DP0": {"droppedPackets": drops.get(tc, 0)}}}
                for tc in range(8)}}

        out[port] = {"ucastQueues": classes({tc: n for tc in lossless}),
                     "mcastQueues": classes({})}
    return {"egressQueueCounters": {"interfaces": out}}


def ecn_counters(dev: EosEmulator) -> dict[str, Any]:
    return {"intfQueueCounters": {
        port: {"queueCounters": {str(q): "0" if q in ecn else "-" for q in range(8)}}
        for port, (_, ecn) in _ports(dev).items()}}
