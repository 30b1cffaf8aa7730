"""SONiC's dynamic-buffer headroom model for NVIDIA Spectrum, restated to the byte.

Same inputs, same xon/xoff/size as SONiC's buffer manager (`sonic-net/sonic-swss`
`cfgmgr/buffer_headroom_mellanox.lua`), including the 8-lane, shared-headroom-pool and
Spectrum-4/5/6 terms. Arithmetic is IEEE double, like the Lua, and rounding is to 1 KiB.
Worked examples: `shared/specs/headroom-sonic-spectrum.md`, checked in
tests/test_headroom_spectrum.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from netcfg.physics.result import Headroom, Step, fmt

#: Pause quanta the peer may still send after a PFC frame, by speed in Mb/s (802.3 Annex 31B
#: as tabulated in the SONiC Lua plugin; note 905 at 800G where NVIDIA's NIC driver has 1810).
PAUSE_QUANTA: dict[int, int] = {
    800_000: 905, 400_000: 905, 200_000: 453, 100_000: 394, 50_000: 147, 40_000: 118,
    25_000: 80, 10_000: 67, 1_000: 2, 100: 1,
}
SPEED_OF_LIGHT = 198_000_000  # m/s in the cable, as the Lua uses
MIN_PACKET = 64
COMPENSATION = 2048
SPC6_EXTRA = 18432
MODEL = "sonic_spectrum"


@dataclass(frozen=True, slots=True)
class SpectrumAsic:
    """ASIC_TABLE constants (`platform/mellanox/asic_table.j2`)."""

    generation: int
    cell: int  # bytes
    pipeline_latency_kib: float = 19.0
    mac_phy_delay_kib: float = 0.8
    peer_response_time_kib: float = 3.8


def ceil_k(x: float) -> int:
    return math.ceil(x / 1024) * 1024


def worst_case_cells(cell: int) -> int:
    """Buffer bytes per byte of a 64-byte packet, rounded up as the Lua does."""
    if cell > 128:
        return math.ceil(cell / MIN_PACKET)
    return math.ceil(2 * cell / (1 + cell))


def headroom(asic: SpectrumAsic, speed: int, cable_m: float, port_mtu: int = 9100,
             lanes: int = 4, lossless_mtu: int = 1024, small_packet_percentage: int = 50,
             gearbox_delay: float = 0, shared_headroom_pool: bool = False) -> Headroom:
    """xon, xoff and reserved size in bytes for one lossless PG of one port (speed in Mb/s)."""
    steps: list[Step] = []

    def step(name: str, value: float, formula: str, unit: str = "B") -> float:
        steps.append(Step(name, value, formula, unit))
        return value

    p_kib = asic.pipeline_latency_kib
    pipeline = 1024 * p_kib
    overhead = 0
    if lanes == 8:
        pipeline = step("pipeline", 2 * pipeline,
                        f"2 · 1024 · pipeline_latency = 2 · 1024 · {fmt(p_kib)} KiB (8-lane port)")
        overhead = int(step("8-lane overhead", port_mtu, f"port MTU {port_mtu} (8-lane port)"))
    else:
        step("pipeline", pipeline, f"1024 · pipeline_latency = 1024 · {fmt(p_kib)} KiB")
    mac_phy = step("mac/phy delay", 1024 * asic.mac_phy_delay_kib,
                   f"1024 · mac_phy_delay = 1024 · {fmt(asic.mac_phy_delay_kib)} KiB")
    quanta = PAUSE_QUANTA.get(speed)
    if quanta is not None:
        peer_resp = step("peer response", quanta * 512 / 8,
                         f"{quanta} pause quanta · 512 bit / 8")
    else:
        peer_resp = step("peer response", 1024 * asic.peer_response_time_kib,
                         f"1024 · peer_response_time = 1024 · {fmt(asic.peer_response_time_kib)}"
                         f" KiB (no pause-quanta entry for {speed} Mb/s)")
    tile = 0.0
    if asic.generation in (4, 5):
        tile = step("tile", speed / 1000 * 120 / 8,
                    f"{fmt(speed / 1000)} Gb/s · 120 / 8 (Spectrum-{asic.generation})")
    w = worst_case_cells(asic.cell)
    step("worst-case cells", w, (f"ceil(cell / 64) = ceil({asic.cell} / 64)" if asic.cell > 128
                                 else f"ceil(2 · cell / (1 + cell)), cell {asic.cell}"), "x")
    p = small_packet_percentage
    b = 100 * MIN_PACKET / ((p * MIN_PACKET + (100 - p) * lossless_mtu) / 100)
    step("small-packet bytes", b, f"100 · 64 / ((spp · 64 + (100 − spp) · M_l) / 100), "
         f"spp {p}, M_l {lossless_mtu}", "%")
    occ = step(
        "occupancy", (100 - b + b * w) / 100, f"(100 − {fmt(b)} + {fmt(b)} · {w}) / 100", "x"
    )
    gearbox = 0.0
    if gearbox_delay:
        gearbox = step("gearbox", speed * gearbox_delay / (8 * 1024),
                       f"{speed} Mb/s · {fmt(gearbox_delay)} / (8 · 1024)")
    cable = step("cable", 2 * cable_m * speed * 1e9 / SPEED_OF_LIGHT / 8000,
                 f"2 · {fmt(cable_m)} m · {speed} Mb/s · 1e9 / {SPEED_OF_LIGHT} m/s / 8000")
    prop = step("propagation", port_mtu + cable + 2 * gearbox + mac_phy + peer_resp + tile,
                f"port MTU {port_mtu} + cable {fmt(cable)} + 2 · gearbox {fmt(gearbox)} + "
                f"mac/phy {fmt(mac_phy)} + peer {fmt(peer_resp)} + tile {fmt(tile)}")
    xoff = ceil_k(lossless_mtu + prop * occ)
    step("xoff", xoff, f"ceil_1KiB(M_l {lossless_mtu} + {fmt(prop)} · {fmt(occ)})")
    if asic.generation == 6:
        xoff += SPC6_EXTRA
        step("xoff", xoff, f"+ {SPC6_EXTRA} (Spectrum-6)")
    worst = ceil_k(lossless_mtu + prop * w)
    if not shared_headroom_pool and p != 100 and xoff + COMPENSATION < worst:
        xoff += COMPENSATION
        step("xoff", xoff, f"+ {COMPENSATION} compensation (worst case {worst} exceeds "
             f"xoff + {COMPENSATION})")
    xon = ceil_k(pipeline)
    step("xon", xon, f"ceil_1KiB(pipeline {fmt(pipeline)})")
    if shared_headroom_pool:
        size = ceil_k(xon)
        step("size", size, "xon (shared headroom pool holds the xoff part)")
    else:
        size = ceil_k(xoff + xon + overhead)
        step("size", size, f"ceil_1KiB(xoff {xoff} + xon {xon} + overhead {overhead})")
    return Headroom(xon=xon, xoff=xoff, size=size, model=MODEL, steps=tuple(steps))


#: SONiC keeps this much per lossless port out of the shared headroom pool
#: (`cfgmgr/buffer_pool_mellanox.lua`, shared/specs/headroom-sonic-spectrum.md).
SHP_PORT_RESERVE = 10240
SHP_MINIMUM = 655360
def shared_headroom_pool(xoff_total: int, lossless_ports: int, ratio: int) -> int:
    """SONiC's shared headroom pool size: the PGs' xoff over the oversubscription ratio."""
    size = math.ceil((xoff_total - lossless_ports * SHP_PORT_RESERVE) / ratio)
    return size if size > 0 else SHP_MINIMUM
