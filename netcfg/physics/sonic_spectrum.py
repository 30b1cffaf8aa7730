"""SONiC's dynamic-buffer headroom model for NVIDIA Spectrum, restated to the byte.

Same inputs, same xon/xoff/size as SONiC's buffer manager (`sonic-net/sonic-swss`
`cfgmgr/buffer_headroom_mellanox.lua`), including the 8-lane, shared-headroom-pool and
Spectrum-4/5/6 terms. Arithmetic is IEEE double, like the Lua, and rounding is to 1 KiB.
Worked examples: `shared/specs/headroom-sonic-spectrum.md`, checked in tests/test_headroom_spectrum.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Pause quanta the peer may still send after a PFC frame, by speed in Mb/s (802.3 Annex 31B
#: as tabulated in the SONiC Lua plugin).
PAUSE_QUANTA: dict[int, int] = {
    800_000: 905, 400_000: 905, 200_000: 453, 100_000: 394, 50_000: 147, 40_000: 118,
    25_000: 80, 10_000: 67, 1_000: 2, 100: 1,
}
SPEED_OF_LIGHT = 198_000_000  # m/s in the cable, as the Lua uses
MIN_PACKET = 64
COMPENSATION = 2048
SPC6_EXTRA = 18432


@dataclass(frozen=True, slots=True)
class SpectrumAsic:
    """ASIC_TABLE constants (`platform/mellanox/asic_table.j2`)."""

    generation: int
    cell: int  # bytes
    pipeline_latency_kib: float = 19.0
    mac_phy_delay_kib: float = 0.8
    peer_response_time_kib: float = 3.8


@dataclass(frozen=True, slots=True)
class Headroom:
    xon: int
    xoff: int
    size: int


def ceil_k(x: float) -> int:
    return math.ceil(x / 1024) * 1024


def worst_case_cells(cell: int) -> int:
    """Cells one 64-byte packet may occupy."""
    if cell > 128:
        return math.ceil(cell / MIN_PACKET)
    return math.ceil(2 * cell / (1 + cell))


def headroom(asic: SpectrumAsic, speed: int, cable_m: float, port_mtu: int = 9100,
             lanes: int = 4, lossless_mtu: int = 1024, small_packet_percentage: int = 50,
             gearbox_delay: float = 0, shared_headroom_pool: bool = False) -> Headroom:
    """xon, xoff and reserved size in bytes for one lossless PG of one port (speed in Mb/s)."""
    pipeline = 1024 * asic.pipeline_latency_kib
    overhead = 0
    if lanes == 8:
        pipeline = 2 * pipeline
        overhead = port_mtu
    mac_phy = 1024 * asic.mac_phy_delay_kib
    quanta = PAUSE_QUANTA.get(speed)
    peer_resp = quanta * 512 / 8 if quanta is not None else 1024 * asic.peer_response_time_kib
    tile = speed / 1000 * 120 / 8 if asic.generation in (4, 5) else 0
    w = worst_case_cells(asic.cell)
    p = small_packet_percentage
    b = 100 * MIN_PACKET / ((p * MIN_PACKET + (100 - p) * lossless_mtu) / 100)
    occ = (100 - b + b * w) / 100
    gearbox = speed * gearbox_delay / (8 * 1024) if gearbox_delay else 0
    cable = 2 * cable_m * speed * 1e9 / SPEED_OF_LIGHT / 8000
    prop = port_mtu + cable + 2 * gearbox + mac_phy + peer_resp + tile
    xoff = ceil_k(lossless_mtu + prop * occ)
    if asic.generation == 6:
        xoff += SPC6_EXTRA
    if (not shared_headroom_pool and p != 100
            and xoff + COMPENSATION < ceil_k(lossless_mtu + prop * w)):
        xoff += COMPENSATION
    xon = ceil_k(pipeline)
    size = ceil_k(xon) if shared_headroom_pool else ceil_k(xoff + xon + overhead)
    return Headroom(xon=xon, xoff=xoff, size=size)
