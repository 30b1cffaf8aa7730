"""ECN/WRED thresholds of a queue: the user's values, or defaults sized from the link.

Defaults (shared/specs/dcqcn-ecn-ecmp.md sections 3-4): Kmin = 0.6 x the bandwidth-delay
product of the design RTT and Kmax = 10 x Kmin, which at 400G and 5 us are exactly NVIDIA's
RoCE defaults (150 KB / 1,500 KB) and scale with the link so the marking band keeps its
place relative to the BDP; Kmax is then held below 80 % of the queue's dynamic limit, the
point where the ingress PG would send XOFF, so ECN acts before PFC. Pmax defaults to 5 %
(SONiC's AZURE_LOSSLESS profile; the DCQCN paper uses 1 %). Defaults are whole kilobytes,
which every NOS can write.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

from netcfg.intent.qos import Ecn
from netcfg.intent.yamlsrc import PathKey
from netcfg.physics.result import Step, fmt

KMIN_PER_BDP = 0.6
KMAX_PER_KMIN = 10
LIMIT_SHARE = 0.8
DEFAULT_PMAX = 5
KB = 1000


@dataclass(frozen=True, slots=True)
class EcnSetting:
    enabled: bool
    min: int = 0
    max: int = 0
    probability: int = 0
    #: field -> intent path the user set it at; absent = derived
    origin: tuple[tuple[str, PathKey], ...] = ()
    steps: tuple[Step, ...] = ()

    def source(self, name: str) -> PathKey | None:
        return dict(self.origin).get(name)

    def as_dict(self) -> dict[str, object]:
        return {"enabled": self.enabled, "min": self.min, "max": self.max,
                "probability": self.probability,
                "derived": [n for n in ("min", "max", "probability") if self.source(n) is None],
                "steps": [s.as_dict() for s in self.steps]}


def bdp(speed: int, rtt_us: float) -> float:
    """Bandwidth-delay product in bytes (speed in Mb/s)."""
    return speed * rtt_us / 8


def thresholds(ecn: Ecn, path: PathKey, speed: int, rtt_us: float,
               queue_limit: int) -> EcnSetting:
    """Effective Kmin/Kmax/Pmax of one class's queue on a port of `speed`."""
    if not ecn.enabled:
        return EcnSetting(False)
    steps: list[Step] = []
    origin: list[tuple[str, PathKey]] = []
    product = bdp(speed, rtt_us)
    steps.append(Step("bdp", product, f"{speed} Mb/s · {fmt(rtt_us)} us / 8"))
    if ecn.min is not None:
        kmin = ecn.min
        origin.append(("min", path + ("min",)))
    else:
        kmin = math.ceil(KMIN_PER_BDP * product / KB) * KB
        steps.append(Step("min", kmin, f"{KMIN_PER_BDP} · bdp {fmt(product)}, whole KB"))
    if ecn.max is not None:
        kmax = ecn.max
        origin.append(("max", path + ("max",)))
    else:
        kmax = KMAX_PER_KMIN * kmin
        cap = math.floor(LIMIT_SHARE * queue_limit / KB) * KB
        if kmax > cap:
            steps.append(Step("max", cap, f"{LIMIT_SHARE} · queue limit {queue_limit}, whole KB "
                              f"(below {KMAX_PER_KMIN} · min = {kmax}: ECN before PFC)"))
            kmax = cap
        else:
            steps.append(Step("max", kmax, f"{KMAX_PER_KMIN} · min {kmin} "
                              f"(below {LIMIT_SHARE} · queue limit {queue_limit})"))
    if ecn.max_probability is not None:
        pmax = ecn.max_probability
        origin.append(("probability", path + ("max_probability",)))
    else:
        pmax = DEFAULT_PMAX
        steps.append(Step("probability", pmax, "SONiC AZURE_LOSSLESS default", "%"))
    return EcnSetting(True, kmin, kmax, pmax, tuple(origin), tuple(steps))


#: fraction digits of a Junos `fill-level` (decimal64 in Juniper's configuration YANG,
#: junos-conf-class-of-service, drop-profiles interpolate fill-level, Junos OS Evolved 24.4R1)
FILL_LEVEL_DIGITS = 9


def fill_level(size: int, queue_buffer: int) -> Decimal:
    """`size` bytes as a percent of the queue buffer, to the schema's nine fraction digits
    (half-even), written without an exponent or trailing zeros: 150 KB of 15 MB -> 1."""
    exact = Decimal(100 * size) / Decimal(queue_buffer)
    level = exact.quantize(Decimal(1).scaleb(-FILL_LEVEL_DIGITS), rounding=ROUND_HALF_EVEN)
    return level.normalize() if level != level.to_integral() else level.to_integral()


def junos_fill_levels(kmin: int, kmax: int, queue_buffer: int) -> tuple[Decimal, Decimal] | None:
    """The two ECN thresholds as Junos drop-profile fill levels (percents of the queue's
    buffer); None if they cannot be told apart or fall outside (0, 100] percent."""
    if queue_buffer <= 0:
        return None
    lo, hi = fill_level(kmin, queue_buffer), fill_level(kmax, queue_buffer)
    if not 0 < lo < hi <= 100:
        return None
    return lo, hi
