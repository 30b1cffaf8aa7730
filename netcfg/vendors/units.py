"""Unit conversions more than one NOS needs, in one place."""

from __future__ import annotations

import math


def whole_polls(ms: int, poll_ms: int) -> int:
    """A PFC watchdog time as whole poll intervals (NX-OS multipliers, Junos detection, NVUE
    robustness): at least one, and never shorter than asked, since a watchdog that fires early
    takes a long but legitimate pause for a storm and drops lossless traffic."""
    return max(1, math.ceil(ms / poll_ms))
