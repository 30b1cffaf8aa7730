"""Headroom of every lossless switch port, from the port's own physical facts.

Inputs per port: speed, cable length and medium (from its link), MTU of both ends, lanes
(from the platform's port mode), and the ASIC's model and constants (catalog). Ports with
the same inputs share one result, which keeps a 200k-port fabric fast.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from netcfg.nos import facts
from netcfg.physics import ieee, sonic_spectrum
from netcfg.physics.result import Headroom
from netcfg.platforms import Asic, Catalog
from netcfg.topology import effective
from netcfg.topology.fabric import Device, Fabric, Port


@dataclass(frozen=True, slots=True)
class PortInputs:
    """Everything headroom depends on; equal inputs give equal headroom."""

    asic: str
    speed: int  # Mb/s
    cable: float  # m
    medium: str | None
    mtu_local: int
    mtu_peer: int
    lanes: int
    lossless_mtu: int
    small_packet_percentage: int
    shared_headroom_pool: bool


def lanes_of(fabric: Fabric, port: Port) -> int:
    """SerDes lanes behind the port: the cage's lanes split among the ports of its mode."""
    platform = fabric.platform(port.device)
    mode = platform.mode_for(port.speed)
    per_cage = mode.per_cage if mode is not None else 1
    return platform.lanes_per_cage // per_cage


def compute(catalog: Catalog, x: PortInputs) -> Headroom:
    """Run the ASIC's headroom model on one set of inputs."""
    asic: Asic = catalog.asics[x.asic]
    if asic.headroom_model == "sonic_spectrum":
        k = asic.spectrum
        assert k is not None  # the catalog schema requires it for this model
        spc = sonic_spectrum.SpectrumAsic(
            generation=asic.generation, cell=asic.cell,
            pipeline_latency_kib=k.pipeline_latency_kib, mac_phy_delay_kib=k.mac_phy_delay_kib,
            peer_response_time_kib=k.peer_response_time_kib)
        return sonic_spectrum.headroom(
            spc, x.speed, x.cable, port_mtu=max(x.mtu_local, x.mtu_peer), lanes=x.lanes,
            lossless_mtu=x.lossless_mtu, small_packet_percentage=x.small_packet_percentage,
            shared_headroom_pool=x.shared_headroom_pool)
    phys = catalog.physics
    return ieee.headroom(
        speed=x.speed, cable_m=x.cable,
        ns_per_m=phys.propagation_ns_per_m.get(x.medium or "default",
                                               phys.propagation_ns_per_m["default"]),
        mtu_local=x.mtu_local, mtu_peer=x.mtu_peer,
        pause_quanta=per_speed(phys.pause_quanta, x.speed),
        interface_bits=per_speed(phys.interface_delay_bits, x.speed),
        cell=asic.cell, pfc_frame=phys.pfc_frame, overhead=phys.frame_overhead,
        lossless_mtu=x.lossless_mtu, small_packet_percentage=x.small_packet_percentage,
        shared_headroom_pool=x.shared_headroom_pool)


def per_speed(table: dict[int, int], speed: int) -> int:
    """The table's value at this speed, else at the next faster speed (the larger, safe side)."""
    if speed in table:
        return table[speed]
    faster = [s for s in table if s > speed]
    return table[min(faster)] if faster else table[max(table)]


class HeadroomCalculator:
    """Headroom per port, memoised per distinct input set (and per link class and port mode
    for the lookups that feed the inputs)."""

    def __init__(self, fabric: Fabric):
        self.fabric = fabric
        buf = fabric.loaded.intent.qos.buffer
        self._pattern = (buf.traffic_pattern.mtu, buf.traffic_pattern.small_packet_percentage,
                         buf.shared_headroom_pool is not None)
        self._memo: dict[tuple, Headroom] = {}
        self._medium: dict[tuple, str | None] = {}
        self._lanes: dict[tuple[str, int], int] = {}
        self._whole_metres: dict[str | None, bool] = {}

    def cable(self, port: Port) -> float:
        """The cable length the headroom is computed for: rounded up to whole metres where
        the NOS states lengths so (its config and netcfg's numbers then agree)."""
        platform = port.device.platform
        whole = self._whole_metres.get(platform)
        if whole is None:
            nos = self.fabric.platform(port.device).nos
            whole = self._whole_metres[platform] = facts(nos).capabilities.whole_metre_cables
        return float(math.ceil(port.cable)) if whole else port.cable

    def inputs(self, port: Port) -> PortInputs:
        dev = port.device
        lanes = self._lanes.get((dev.platform, port.speed))  # type: ignore[arg-type]
        if lanes is None:
            lanes = self._lanes[(dev.platform, port.speed)] = lanes_of(self.fabric, port)  # type: ignore[index]
        link = port.link
        medium = None
        if link is not None:
            if link.source in self._medium:
                medium = self._medium[link.source]
            else:
                medium = self._medium[link.source] = effective.link_medium(self.fabric, link)[0]
        peer_mtu = port.peer.mtu if port.peer is not None else port.mtu
        mtu, spp, shp = self._pattern
        return PortInputs(self.fabric.catalog.platforms[dev.platform].asic,  # type: ignore[index]
                          port.speed, self.cable(port), medium, port.mtu, peer_mtu, lanes, mtu,
                          spp, shp)

    def lossless_rows(self, dev: Device) -> list[tuple[Port, Headroom]]:
        """(port, headroom) of each lossless port of a switch (`physics.lossless`), in port
        order: what `__call__` gives each, with what is the same for every port of the
        switch (its platform, whether cables count in whole metres) looked up once."""
        platform = dev.platform
        whole = self._whole_metres.get(platform)
        if whole is None and dev.ports:
            self.cable(dev.ports[0])
            whole = self._whole_metres[platform]
        memo = self._memo
        rows = []
        for port in dev.ports:
            peer = port.peer
            if not port.lossless or peer is None:
                continue
            link = port.link
            key = (platform, port.speed, float(math.ceil(port.cable)) if whole else port.cable,
                   link.source if link is not None else None, port.mtu, peer.mtu)
            got = memo.get(key)
            if got is None:
                got = memo[key] = compute(self.fabric.catalog, self.inputs(port))
            rows.append((port, got))
        return rows

    def __call__(self, port: Port) -> Headroom:
        # Platform, speed, cable, link class (-> medium) and both MTUs decide every input,
        # so a plain tuple of them is the memo key (cheaper than building PortInputs).
        peer = port.peer
        link = port.link
        key = (port.device.platform, port.speed, self.cable(port),
               link.source if link is not None else None, port.mtu,
               peer.mtu if peer is not None else port.mtu)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = compute(self.fabric.catalog, self.inputs(port))
        return got
