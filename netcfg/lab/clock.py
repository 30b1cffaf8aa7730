"""Lab time: a clock that tests move by hand, or that follows the wall clock for `netcfg lab`.

Commit-confirm timers run for minutes on real devices; tests cannot wait that long. Every time
an emulator reports (uptime, commit deadlines, commit-log dates) and every timer it arms comes
from this clock, so NAPALM's own arithmetic (for example EOS `commitBy - uptime`) stays
consistent whichever way time moves. The clock is used from the lab's event loop only.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(order=True)
class Timer:
    """A callback due at a lab time; `cancel()` before it fires to disarm it."""

    due: float
    seq: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class VirtualClock:
    """Lab time in epoch seconds.

    Manual mode (tests): time stands still until `advance()`, which fires due timers in order.
    Real-time mode (`netcfg lab`): time also flows with the monotonic clock, and timers fire
    from the event loop when due. `advance()` works in both modes.
    """

    def __init__(self, realtime: bool = False, start: float | None = None) -> None:
        self.realtime = realtime
        # starts at the wall clock, so dates a client compares with its own clock make sense
        self._start = time.time() if start is None else start
        self._offset = 0.0
        self._t0 = time.monotonic()
        self._timers: list[Timer] = []
        self._seq = itertools.count()
        self._wake: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Attach the event loop that fires real-time timers."""
        self._loop = loop

    def time(self) -> float:
        """Current lab time (epoch seconds)."""
        flowing = time.monotonic() - self._t0 if self.realtime else 0.0
        return self._start + self._offset + flowing

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        """Run `callback` once `delay` lab seconds have passed."""
        timer = Timer(self.time() + max(0.0, delay), next(self._seq), callback)
        heapq.heappush(self._timers, timer)
        self._arm()
        return timer

    def advance(self, seconds: float) -> None:
        """Move lab time forward and fire every timer that falls due, earliest first."""
        if seconds < 0:
            raise ValueError("the lab clock cannot go backwards")
        target = self.time() + seconds
        # step through due timers so each callback sees the time it was due at
        while self._timers and self._timers[0].due <= target:
            timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self._offset += max(0.0, timer.due - self.time())
            timer.callback()
        self._offset += max(0.0, target - self.time())
        self._arm()

    def pending(self) -> int:
        """Number of armed timers (for tests and the control API)."""
        return sum(1 for t in self._timers if not t.cancelled)

    def _fire_due(self) -> None:
        self._wake = None
        self.advance(0.0)

    def _arm(self) -> None:
        if not self.realtime or self._loop is None:
            return
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        while self._timers and self._timers[0].cancelled:
            heapq.heappop(self._timers)
        if self._timers:
            delay = max(0.0, self._timers[0].due - self.time())
            self._wake = self._loop.call_later(delay, self._fire_due)

    def close(self) -> None:
        """Disarm everything (the lab is stopping)."""
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        self._timers.clear()
