"""Fault injection: what can go wrong with a device, and where in a conversation it strikes.

A fault is armed on one device and matched by the emulator at fixed points of its protocol
("phases"): `auth` when credentials are checked, `request` on every request or RPC, and the
configuration operations `load`, `commit`, `confirm`, `rollback`. Each emulator decides how a
fault looks on its wire (HTTP 401 vs SSH auth failure, closed socket, NOS error text), so the
client sees what a real device would cause.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class FaultKind(str, Enum):
    """The failures a push must survive."""

    AUTH_FAILURE = "auth_failure"  # credentials rejected
    REFUSED = "refused"  # nothing listens: connection refused
    SLOW = "slow"  # every matching reply is delayed by `delay` wall seconds
    HANG = "hang"  # the matching request is never answered (until the fault is cleared)
    DROP_BEFORE_APPLY = "drop_before_apply"  # connection closed, nothing applied
    DROP_AFTER_APPLY = "drop_after_apply"  # applied, then the connection closed without reply
    COMMIT_ERROR = "commit_error"  # the NOS rejects the operation with `message`
    LOCK_HELD = "lock_held"  # another user holds the configuration lock / session
    STALE_SESSION = "stale_session"  # a dead client left an open session or dirty candidate
    REBOOT_MID_COMMIT = "reboot_mid_commit"  # device reboots during the commit, comes back later


#: phases a fault may be bound to; "any" matches every phase but `auth`
PHASES = ("auth", "request", "load", "commit", "confirm", "rollback", "any")

#: faults that change device state when armed rather than waiting for a phase
STATEFUL = {FaultKind.REFUSED, FaultKind.LOCK_HELD, FaultKind.STALE_SESSION}

_DEFAULT_PHASE = {
    FaultKind.AUTH_FAILURE: "auth",
    FaultKind.SLOW: "request",
    FaultKind.HANG: "request",
    FaultKind.DROP_BEFORE_APPLY: "commit",
    FaultKind.DROP_AFTER_APPLY: "commit",
    FaultKind.COMMIT_ERROR: "commit",
    FaultKind.REBOOT_MID_COMMIT: "commit",
}


@dataclass
class Fault:
    """One armed fault. `times=None` keeps it until cleared; otherwise it fires that often."""

    kind: FaultKind
    phase: str = ""
    times: int | None = None
    delay: float = 0.0
    message: str | None = None
    #: lab seconds a rebooting device stays unreachable
    downtime: float = 120.0

    def __post_init__(self) -> None:
        self.kind = FaultKind(self.kind)
        if not self.phase:
            self.phase = _DEFAULT_PHASE.get(self.kind, "any")
        if self.phase not in PHASES:
            raise ValueError(f"unknown fault phase {self.phase!r}; allowed: {', '.join(PHASES)}")


class FaultPlan:
    """The faults armed on one device, consulted by its emulator at each phase."""

    def __init__(self) -> None:
        self.faults: list[Fault] = []

    def add(self, fault: Fault) -> None:
        self.faults.append(fault)

    def clear(self) -> None:
        self.faults.clear()

    def active(self, kind: FaultKind) -> Fault | None:
        """A stateful fault currently armed, without consuming it."""
        return next((f for f in self.faults if f.kind == kind), None)

    def take(self, phase: str, kinds: set[FaultKind] | None = None) -> Fault | None:
        """The first fault matching `phase` (and one of `kinds`), consuming one use of it."""
        for fault in self.faults:
            if kinds is not None and fault.kind not in kinds:
                continue
            if fault.kind in STATEFUL:
                continue
            if fault.phase == phase or (fault.phase == "any" and phase != "auth"):
                if fault.times is not None:
                    fault.times -= 1
                    if fault.times <= 0:
                        self.faults.remove(fault)
                return fault
        return None
