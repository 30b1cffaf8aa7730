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
    """One reading of a switch's PFC and queue state."""

    watchdog: dict[tuple[str, int], WatchedQueue]
    pfc: PfcCounters
    drops: dict[str, dict[int, int]]
