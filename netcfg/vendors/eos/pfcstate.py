"""EOS's own PFC, queue-drop and ECN state, read over eAPI as JSON (NAPALM's `cli` with
`encoding="json"`; each command at the revision ANTA's tests ask for, since an eAPI model's
shape depends on its revision):

- `show priority-flow-control counters` (revision 3): `interfaceCounters` -> port ->
  `rxFrames`, `txFrames`: PFC frames of all priorities together (ANTA
  VerifyInterfacesPFCCounters);
- `show interfaces counters queue detail` (revision 1): `egressQueueCounters.interfaces` ->
  port -> `ucastQueues.trafficClasses` -> `TC<n>` (or a range `TC<a>-<b>` the platform counts
  together) -> `dropPrecedences` -> `DP<n>` (or a range) -> `droppedPackets` (ANTA
  VerifyInterfacesEgressQueueDrops);
- `show qos interfaces ecn counters queue` (revision 1): `intfQueueCounters` -> port ->
  `queueCounters` -> queue -> ECN-marked packets as a string, `"-"` where ECN is not
  configured on the queue (ANTA VerifyInterfacesECNCounters: "ECN not configured for this
  queue").

The parsers are tested on the eAPI outputs of ANTA's own unit tests
(tests/verify/fixtures/anta/). EOS's traffic class n is netcfg's priority n and queue n.

Not read: the PFC watchdog's state per queue and PFC enabled per priority as the switch runs
it (`show priority-flow-control` and its `watchdog` views): no published capture of their
eAPI JSON was found to test a parser on (docs/verify.md), so VFY010/VFY011 are not verifiable
on EOS.
"""

from __future__ import annotations

import re
from typing import Any

from netcfg.verify.pfc import PfcCounters, PfcState

PFC_COUNTERS = {"cmd": "show priority-flow-control counters", "revision": 3}
QUEUE_DROPS = {"cmd": "show interfaces counters queue detail", "revision": 1}
ECN_COUNTERS = {"cmd": "show qos interfaces ecn counters queue", "revision": 1}
COMMANDS = (PFC_COUNTERS, QUEUE_DROPS, ECN_COUNTERS)

NOT_VERIFIABLE = (("VFY010, VFY011", "the PFC watchdog's state per queue (`show "
                   "priority-flow-control`): no published capture of its eAPI JSON"),)

_RANGE = re.compile(r"^[A-Z]+(\d+)(?:-(\d+))?$")


def _numbers(key: str) -> range:
    """`TC3` -> 3; `TC0-2` -> 0, 1, 2 (a group EOS counts together)."""
    m = _RANGE.match(key)
    if m is None:
        return range(0)
    first = int(m.group(1))
    return range(first, int(m.group(2) or first) + 1)


def pfc_frames(data: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Port -> (PFC frames received, sent)."""
    return {port: (int(c.get("rxFrames", 0)), int(c.get("txFrames", 0)))
            for port, c in (data.get("interfaceCounters") or {}).items()}


def queue_drops(data: dict[str, Any]) -> dict[str, dict[int, int]]:
    """Port -> unicast traffic class -> packets dropped, every drop precedence together; a
    range of classes counted together gives each class of it the range's count."""
    out: dict[str, dict[int, int]] = {}
    ports = (data.get("egressQueueCounters") or {}).get("interfaces") or {}
    for port, detail in ports.items():
        classes = ((detail.get("ucastQueues") or {}).get("trafficClasses") or {})
        mine = out.setdefault(port, {})
        for key, tc in classes.items():
            dropped = sum(int(dp.get("droppedPackets", 0))
                          for dp in (tc.get("dropPrecedences") or {}).values())
            for n in _numbers(key):
                mine[n] = dropped
    return out


def ecn_queues(data: dict[str, Any]) -> dict[str, dict[int, bool]]:
    """Port -> queue -> ECN marking configured (its counter is a number, not `-`)."""
    return {port: {int(q): str(v).strip() != "-"
                   for q, v in (c.get("queueCounters") or {}).items() if str(q).isdigit()}
            for port, c in (data.get("intfQueueCounters") or {}).items()}


def parse(outputs: list[dict[str, Any]]) -> PfcState:
    """The three commands' JSON (in COMMANDS' order) as one reading."""
    frames, drops, ecn = outputs
    return PfcState(None, PfcCounters(), queue_drops(drops), pfc_frames(frames),
                    ecn_queues(ecn), NOT_VERIFIABLE)


def read(driver: Any) -> PfcState:
    got = driver.cli(list(COMMANDS), encoding="json")
    return parse([got[str(c)] for c in COMMANDS])
