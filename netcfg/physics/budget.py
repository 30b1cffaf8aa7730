"""Buffer budget of one switch: reserved headroom, shared headroom pool, what stays shared.

Shared-buffer admission is dynamic (SAI SHARED_DYNAMIC_TH): a queue or PG may grow while it
holds less than alpha times the free pool, so with M queues congested at once each settles at
alpha*B/(1 + M*alpha) (shared/specs/headroom.md section 5). That limit is where a lossless PG
sends XOFF and where ECN has to act before it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from netcfg.physics import ieee, sonic_spectrum
from netcfg.physics.result import Headroom
from netcfg.topology.fabric import Device, Port


@dataclass(slots=True)
class Budget:
    device: Device
    buffer: int
    cell: int
    pgs: int  # lossless priority groups per lossless port
    alpha: float
    congested: int
    ports: list[tuple[Port, Headroom]] = field(default_factory=list, repr=False)
    shp_ratio: int | None = None
    reserved: int = 0
    shp_pool: int = 0
    #: percent of the shared buffer the lossless PGs and queues draw on: 100 where the NOS
    #: keeps one shared pool, the lossless pool's share where it splits the buffer by percent
    lossless_pool: int = 100
    #: what the NOS keeps back before any pool beyond the PGs' headroom (SONiC's Spectrum
    #: reserves); where `buffer` ("" = the catalog's ASIC buffer) and that come from
    nos_reserved: int = 0
    source: str = ""
    reserves_source: str = ""

    @property
    def shared(self) -> int:
        return self.buffer - self.reserved - self.shp_pool - self.nos_reserved

    @property
    def lossless_shared(self) -> int:
        """The part of the shared buffer the lossless PGs and queues draw on."""
        return self.shared * self.lossless_pool // 100

    @property
    def queue_limit(self) -> int:
        """Steady-state dynamic limit of one queue/PG with `congested` of them busy."""
        if self.lossless_shared <= 0:
            return 0
        return int(self.alpha * self.lossless_shared / (1 + self.congested * self.alpha))

    def costliest(self, n: int = 5) -> list[tuple[Port, Headroom]]:
        return sorted(self.ports, key=lambda ph: (-ph[1].size, ph[0].name))[:n]


def budget(device: Device, ports: list[tuple[Port, Headroom]], *, buffer: int, cell: int,
           model: str, pgs: int, dynamic_threshold: int, congested: int,
           shp_ratio: int | None, lossless_pool: int = 100, nos_reserved: int = 0,
           source: str = "", reserves_source: str = "") -> Budget:
    b = Budget(device, buffer, cell, pgs, 2.0 ** dynamic_threshold, congested, ports, shp_ratio,
               lossless_pool=lossless_pool, nos_reserved=nos_reserved, source=source,
               reserves_source=reserves_source)
    b.reserved = pgs * sum(h.size for _, h in ports)
    if shp_ratio is not None and ports:
        xoff_total = pgs * sum(h.xoff for _, h in ports)
        if model == sonic_spectrum.MODEL:
            b.shp_pool = sonic_spectrum.shared_headroom_pool(xoff_total, len(ports), shp_ratio)
        else:
            b.shp_pool = ieee.shared_headroom_pool(xoff_total, shp_ratio, cell)
    return b
