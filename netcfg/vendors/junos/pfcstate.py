"""Junos's queue drops, read with the CLI command `show interfaces queue` through NAPALM's
`cli` (PyEZ sends it as a `<command format="text">` RPC): per physical interface, per egress
queue, `Tail-dropped packets` and `RED-dropped packets` (their first column: the count since
the counters were cleared; the second is a rate).

The parser is tested on a real device's output that Cisco's genieparser keeps as its test
data (tests/verify/fixtures/genieparser/, Apache-2.0). Junos's queue n is netcfg's priority n
(the file's `forwarding-classes class ... queue-num n no-loss pfc-priority n`).

Not read: PFC frames per priority, the PFC watchdog and ECN marking as the switch runs them:
no published capture of a switch's output with PFC or ECN on was found (docs/verify.md).
"""

from __future__ import annotations

import re
from typing import Any

from netcfg.verify.pfc import PfcCounters, PfcState

COMMAND = "show interfaces queue"

NOT_VERIFIABLE = (("VFY010, VFY011, VFY012, VFY021",
                   "PFC frames per priority, the PFC watchdog and ECN marking (`show "
                   "interfaces <port> extensive`, `show class-of-service interface`): no "
                   "published capture of a switch running PFC"),)

_PORT = re.compile(r"^Physical interface: ([^,\s]+)")
_QUEUE = re.compile(r"^Queue: (\d+)")
_DROPS = re.compile(r"^(Tail-dropped|RED-dropped) packets\s*:\s*(\d+)")


def queue_drops(text: str) -> dict[str, dict[int, int]]:
    """Port -> queue -> packets dropped (tail and RED together)."""
    out: dict[str, dict[int, int]] = {}
    port: str | None = None
    queue: int | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if m := _PORT.match(line):
            port, queue = m.group(1), None
            out.setdefault(port, {})
        elif (m := _QUEUE.match(line)) and port is not None:
            queue = int(m.group(1))
            out[port][queue] = 0
        elif (m := _DROPS.match(line)) and port is not None and queue is not None:
            out[port][queue] += int(m.group(2))
    return out


def read(driver: Any) -> PfcState:
    text = driver.cli([COMMAND])[COMMAND]
    return PfcState(None, PfcCounters(), queue_drops(text), {}, None, NOT_VERIFIABLE)
