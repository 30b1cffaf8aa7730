"""A switch's PFC and queue state as verify compares it with the plan: the watchdog per
lossless queue, PFC frames per port and priority, drops per queue. A NOS that can show them
reads them with its own commands (`Vendor.read_pfc`); NAPALM has no getter for any of them."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class WatchedQueue:
    status: str  # operational | stormed | N/A
    storms_detected: int
    storms_restored: int
    tx_drop: int
    rx_drop: int


@dataclass
class PfcCounters:
    """Port -> PFC frames per priority 0-7, received and sent."""

    rx: dict[str, list[int]] = field(default_factory=dict)
    tx: dict[str, list[int]] = field(default_factory=dict)


@dataclass
class PfcState:
    """One reading of a switch's PFC and queue state. A part a NOS cannot show (or netcfg has
    no published capture of to test its parser on) is None, and its checks are not run:
    the NOS's reader says which in `not_verifiable`."""

    #: (port, queue) -> the watchdog's state of that queue
    watchdog: dict[tuple[str, int], WatchedQueue] | None
    #: PFC frames per port and priority
    pfc: PfcCounters
    #: port -> unicast queue -> packets dropped
    drops: dict[str, dict[int, int]]
    #: port -> PFC frames (received, sent) of all priorities together, where the NOS counts
    #: them per port only (EOS `show priority-flow-control counters`)
    port_frames: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: port -> queue -> ECN marking configured there; None where not read
    ecn: dict[str, dict[int, bool]] | None = None
    #: what this NOS's reader cannot verify: (rules, why), said in every report
    not_verifiable: tuple[tuple[str, str], ...] = ()
