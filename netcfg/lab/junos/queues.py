"""`show interfaces queue` for the lab's Junos switch, as text in the layout of a real
device's output (Cisco genieparser keeps one as test data: tests/verify/fixtures/genieparser/;
tests/verify compares the lab's queue blocks with it line by line): per physical interface a
header, then per egress queue (the committed `class-of-service forwarding-classes`, in queue
order) its queued, transmitted and dropped packets and bytes.

Traffic is not modelled: every count is zero, except a port with a `lossless_drops` fault,
whose no-loss queues tail-drop 100 packets between two readings (as the EOS and SONiC labs
do).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from netcfg.lab.oper import Wiring

if TYPE_CHECKING:
    from netcfg.lab.junos.emulator import JunosEmulator

DROPS_PER_READING = 100

#: the queue block's lines: (indent and label, unit, width of the rate column); None: a
#: heading line
_BLOCK: list[tuple[str, str | None, int]] = [
    ("  Queued:", None, 0),
    ("    Packets", "pps", 22), ("    Bytes", "bps", 22),
    ("  Transmitted:", None, 0),
    ("    Packets", "pps", 23), ("    Bytes", "bps", 22),
    ("    Tail-dropped packets", "pps", 22), ("    RED-dropped packets", "pps", 22),
    ("     Low", "pps", 22), ("     Medium-low", "pps", 22), ("     Medium-high", "pps", 22),
    ("     High", "pps", 22),
    ("    RED-dropped bytes", "bps", 22),
    ("     Low", "bps", 22), ("     Medium-low", "bps", 22), ("     Medium-high", "bps", 22),
    ("     High", "bps", 22),
]


def classes(dev: JunosEmulator) -> list[tuple[int, str, bool]]:
    """(queue, forwarding class, no-loss) of the committed forwarding classes."""
    out = []
    fc = dev.committed.find(["class-of-service", "forwarding-classes"])
    for c in (fc.children or []) if fc is not None else []:
        words = c.name.split()
        if words[:1] != ["class"] or len(words) != 2:
            continue
        fields = {g.name: g.value for g in c.children or []}
        queue = fields.get("queue-num")
        if queue is not None and queue.isdigit():
            out.append((int(queue), words[1], "no-loss" in fields))
    return sorted(out)


def queue_block(queue: int, name: str, tail_dropped: int = 0) -> list[str]:
    lines = [f"Queue: {queue}, Forwarding classes: {name}"]
    for label, unit, width in _BLOCK:
        if unit is None:
            lines.append(label)
            continue
        count = tail_dropped if label.strip() == "Tail-dropped packets" else 0
        lines.append(f"{label:<25}:{count:>22}{0:>{width}} {unit}")
    return lines


def show_interfaces_queue(dev: JunosEmulator, wiring: Wiring) -> str:
    from netcfg.lab.junos.oper import link_up

    fcs = classes(dev)
    lines = [""]
    interfaces = dev.committed.find(["interfaces"])
    nodes = (interfaces.children or []) if interfaces is not None else []
    split = {n.name.partition(":")[0] for n in nodes if ":" in n.name}
    for index, node in enumerate(nodes):
        port = node.name
        if "-" not in port or port.startswith(("lo", "em", "fxp", "re")) or port in split:
            continue  # physical ports only (et-, xe-, ge-); a channelized cage is its sub-ports
        enabled = node.get("disable") is None
        up = enabled and link_up(dev, wiring, port)
        lines.append(f"Physical interface: {port}, {'Enabled' if enabled else 'Disabled'}, "
                     f"Physical link is {'Up' if up else 'Down'}")
        lines.append(f"  Interface index: {1000 + index}, SNMP ifIndex: {500 + index}")
        desc = node.get("description")
        if desc is not None and desc.value:
            lines.append(f"  Description: {desc.value}")
        lines.append(f"Forwarding classes: 16 supported, {len(fcs)} in use")
        lines.append(f"Egress queues: 8 supported, {len(fcs)} in use")
        drops = 0
        if ("lossless_drops", dev.name, port) in wiring.pfc_faults:
            key = ("drops", dev.name, port)
            wiring.readings[key] = wiring.readings.get(key, 0) + 1
            drops = wiring.readings[key] * DROPS_PER_READING
        for queue, name, lossless in fcs:
            lines += queue_block(queue, name, drops if lossless else 0)
        lines.append("")
    return "\n".join(lines) + "\n"
