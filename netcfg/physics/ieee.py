"""Generic IEEE 802.1Qbb headroom: every byte that can arrive after a PFC XOFF, in cells.

Terms (shared/specs/headroom.md section 1): the frame the receiver is sending when it decides
to pause (delays the PFC frame), the PFC frame, the cable both ways, PHY/MAC delay of both
ends, the sender's response time in pause quanta, and the frame the sender has started.
Frames on the wire carry 20 bytes of preamble/IPG that never reach the buffer, while a
buffer holds whole cells, so the wire bytes are scaled by the cell occupancy of the expected
packet mix and rounded up to whole cells. Constants come from the catalog with sources.
"""

from __future__ import annotations

import math

from netcfg.physics.result import Headroom, Step, fmt

MODEL = "ieee_8021qbb"
MIN_PACKET = 64


def round_cells(x: float, cell: int) -> int:
    return math.ceil(x / cell) * cell


def occupancy(cell: int, overhead: int, lossless_mtu: int,
              small_packet_percentage: int) -> tuple[float, float, float, float]:
    """Buffer bytes per wire byte for the packet mix: (occupancy, small, large, small share).

    A 64-byte packet is 84 bytes on the wire and one or more whole cells in the buffer; a
    typical lossless packet of `lossless_mtu` bytes likewise. Weighted by wire bytes.
    """
    small = math.ceil(MIN_PACKET / cell) * cell / (MIN_PACKET + overhead)
    large = math.ceil(lossless_mtu / cell) * cell / (lossless_mtu + overhead)
    p = small_packet_percentage
    small_wire = p * (MIN_PACKET + overhead)
    share = small_wire / (small_wire + (100 - p) * (lossless_mtu + overhead))
    return share * small + (1 - share) * large, small, large, share


def headroom(*, speed: int, cable_m: float, ns_per_m: float, mtu_local: int, mtu_peer: int,
             pause_quanta: int, interface_bits: int, cell: int, pfc_frame: int = 84,
             overhead: int = 20, lossless_mtu: int = 1024, small_packet_percentage: int = 50,
             shared_headroom_pool: bool = False) -> Headroom:
    """xon, xoff and reserved size in bytes for one lossless PG (speed in Mb/s)."""
    steps: list[Step] = []

    def step(name: str, value: float, formula: str, unit: str = "B") -> float:
        steps.append(Step(name, value, formula, unit))
        return value

    own = step("own frame", mtu_local + overhead, f"MTU {mtu_local} + {overhead} (preamble, IPG)")
    pfc = step("pfc frame", pfc_frame, "64-byte PFC frame + preamble, IPG")
    cable = step("cable", 2 * cable_m * ns_per_m * speed / 8000,
                 f"2 · {fmt(cable_m)} m · {fmt(ns_per_m)} ns/m · {speed} Mb/s / 8000")
    intf = step("phy/mac delay", interface_bits / 8, f"{interface_bits} bit times / 8")
    resp = step("peer response", pause_quanta * 64, f"{pause_quanta} pause quanta · 64")
    peer = step("peer frame", mtu_peer + overhead, f"peer MTU {mtu_peer} + {overhead}")
    raw = step("in flight", own + pfc + cable + intf + resp + peer,
               f"{fmt(own)} + {fmt(pfc)} + {fmt(cable)} + {fmt(intf)} + {fmt(resp)} + {fmt(peer)}")
    occ, small, large, share = occupancy(cell, overhead, lossless_mtu, small_packet_percentage)
    step("occupancy", occ,
         f"{fmt(share)} · {fmt(small)} (64 B packets, cell {cell}) + {fmt(1 - share)} · "
         f"{fmt(large)} ({lossless_mtu} B packets); {small_packet_percentage}% small packets",
         "x")
    xoff = round_cells(raw * occ, cell)
    step("xoff", xoff, f"round up to {cell} B cells ({fmt(raw)} · {fmt(occ)} = {fmt(raw * occ)})")
    xon = round_cells(max(mtu_local, mtu_peer), cell)
    step("xon", xon, f"one frame of hysteresis: MTU {max(mtu_local, mtu_peer)} in {cell} B cells")
    if shared_headroom_pool:
        size = xon
        step("size", size, "xon (shared headroom pool holds the xoff part)")
    else:
        size = xoff + xon
        step("size", size, f"xoff {xoff} + xon {xon}")
    return Headroom(xon=xon, xoff=xoff, size=size, model=MODEL, steps=tuple(steps))


def shared_headroom_pool(xoff_total: int, ratio: int, cell: int) -> int:
    """A pool for 1/ratio of the PGs' xoff headroom at once, in whole cells."""
    return round_cells(xoff_total / ratio, cell)
