"""Buffer physics: PFC headroom per port, buffer budget per switch, ECN per queue.

`derive(fabric)` computes every number once; `explain` prints how, `checks` judges them and
the renderers write them. Model docs: docs/physics.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from netcfg.intent.qos import Ecn
from netcfg.nos import PoolLayout, Switch, facts
from netcfg.physics.budget import Budget, budget
from netcfg.physics.ecn import EcnSetting, thresholds
from netcfg.physics.ports import HeadroomCalculator, lanes_of
from netcfg.physics.result import Headroom
from netcfg.topology.fabric import Device, Fabric, Port


@dataclass
class Physics:
    fabric: Fabric
    headroom: HeadroomCalculator
    #: lossless switch port -> headroom of each of its lossless PGs
    ports: dict[Port, Headroom] = field(default_factory=dict, repr=False)
    budgets: dict[str, Budget] = field(default_factory=dict, repr=False)
    _ecn: dict[tuple[str, int, str], EcnSetting] = field(default_factory=dict, repr=False)
    #: the thresholds by what they depend on (speed, class, the queue's dynamic limit): the
    #: switches alike (a role's leaves) share one
    _thresholds: dict[tuple[int, str, int], EcnSetting] = field(default_factory=dict,
                                                                repr=False)
    #: each class's ECN (QoS.ecn_of makes a model for a class that states none)
    _class_ecn: dict[str, Ecn] = field(default_factory=dict, repr=False)

    def ecn(self, port: Port, cls: str) -> EcnSetting:
        """ECN of class `cls`'s egress queue on a switch port."""
        key = (port.device.name, port.speed, cls)
        got = self._ecn.get(key)
        if got is None:
            limit = self.budgets[port.device.name].queue_limit
            alike = (port.speed, cls, limit)
            got = self._thresholds.get(alike)
            if got is None:
                qos = self.fabric.loaded.intent.qos
                ecn = self._class_ecn.get(cls)
                if ecn is None:
                    ecn = self._class_ecn[cls] = qos.ecn_of(cls)
                got = self._thresholds[alike] = thresholds(
                    ecn, ("qos", "classes", cls, "ecn"), port.speed, qos.buffer.rtt, limit)
            self._ecn[key] = got
        return got


def lossless(port: Port) -> bool:
    """PFC protects this switch port: a lossless link to a peer."""
    return port.lossless and port.peer is not None


def derive(fabric: Fabric) -> Physics:
    intent = fabric.loaded.intent
    buf = intent.qos.buffer
    pgs = len(intent.qos.pfc_priorities())
    calc = HeadroomCalculator(fabric)
    phys = Physics(fabric, calc)
    shp = buf.shared_headroom_pool
    layouts: dict[tuple, PoolLayout] = {}
    for dev in fabric.switches():
        platform = fabric.platform(dev)
        asic = fabric.catalog.asics[platform.asic]
        rows: list[tuple[Port, Headroom]] = calc.lossless_rows(dev) if pgs else []
        phys.ports.update(rows)
        layout = _layout(fabric, dev, len(rows), layouts)
        phys.budgets[dev.name] = budget(
            dev, rows, buffer=layout.buffer, cell=asic.cell, model=asic.headroom_model,
            pgs=pgs, dynamic_threshold=buf.dynamic_threshold, congested=buf.congested_queues,
            shp_ratio=shp.over_subscribe_ratio if shp is not None else None,
            lossless_pool=buf.lossless_pool if layout.lossless_pool else 100,
            nos_reserved=layout.reserved, source=layout.source,
            reserves_source=layout.reserves_source)
    return phys


def _layout(fabric: Fabric, dev: Device, lossless_ports: int,
            known: dict[tuple, PoolLayout]) -> PoolLayout:
    """How the device's NOS carves its ASIC's buffer (the NOS's facts know). The carving
    depends only on what Switch holds, so switches alike (a role's leaves) ask the NOS once:
    `known` keeps each answer by those fields."""
    platform = fabric.platform(dev)
    asic = fabric.catalog.asics[platform.asic]
    pairs: dict[int, tuple[int, int]] = {}  # speed -> (speed, lanes), one tuple per speed
    ports: list[tuple[int, int]] = []
    for p in dev.ports:
        if p.peer is not None:
            pair = pairs.get(p.speed)
            if pair is None:
                pair = pairs[p.speed] = (p.speed, lanes_of(fabric, p))
            ports.append(pair)
    switch = Switch(
        platform=dev.platform or "", role=dev.role, buffer=asic.buffer,
        pipeline_latency_kib=asic.spectrum.pipeline_latency_kib if asic.spectrum else None,
        ports=tuple(ports), lossless_ports=lossless_ports,
        shared_headroom_pool=fabric.loaded.intent.qos.buffer.shared_headroom_pool is not None)
    key = (platform.nos, switch)
    got = known.get(key)
    if got is None:
        got = known[key] = facts(platform.nos).pool_layout(switch)
    return got


__all__ = ["Budget", "Device", "EcnSetting", "Headroom", "Physics", "derive"]
