"""Effective per-device/per-port values that cascade fabric -> role -> device -> port.

Each value comes with the intent path that decided it, so `explain` can cite the file:line and
renderers use the very same resolution.
"""

from __future__ import annotations

from typing import Any, Literal

from netcfg.intent.overrides import matching_keys
from netcfg.intent.reach import link_class_medium
from netcfg.intent.yamlsrc import PathKey
from netcfg.topology.fabric import Device, Fabric, Link, Port

Sourced = tuple[Any, PathKey]
WATCHDOG_FIELDS = ("enabled", "detection", "restoration", "action")


def watchdog(fabric: Fabric, device: Device, port: Port | None = None) -> dict[str, Sourced]:
    """PFC watchdog settings in effect on a device (or one of its ports)."""
    intent = fabric.loaded.intent
    base = ("qos", "pfc", "watchdog")
    wd = intent.qos.pfc.watchdog
    out: dict[str, Sourced] = {f: (getattr(wd, f), base + (f,)) for f in WATCHDOG_FIELDS}
    out["poll_interval"] = (wd.poll_interval, base + ("poll_interval",))
    layers: list[tuple[PathKey, Any]] = []
    ov = intent.overrides
    if device.role in ov.roles:
        layers.append((("overrides", "roles", device.role), ov.roles[device.role]))
    for key in reversed(matching_keys(ov.devices, device.name)) if ov.devices else []:
        layers.append((("overrides", "devices", key), ov.devices[key]))
    if port is not None and ov.ports:
        for key in reversed(matching_keys(ov.ports, port.id)):
            layers.append((("overrides", "ports", key), ov.ports[key]))
    for where, settings in layers:
        if settings.pfc_watchdog is None:
            continue
        for f in WATCHDOG_FIELDS:
            value = getattr(settings.pfc_watchdog, f)
            if value is not None:
                out[f] = (value, where + ("pfc_watchdog", f))
    return out


def max_paths(fabric: Fabric, dev: Device) -> int:
    """BGP maximum-paths: the intent's value, else the uplink count, else (top tier) the
    widest bundle of parallel links to one neighbour."""
    configured = fabric.loaded.intent.routing.max_paths
    if configured is not None:
        return configured
    up = sum(1 for p in dev.ports if p.peer and p.peer.device.tier > dev.tier)
    if up:
        return up
    bundles: dict[str, int] = {}
    for p in dev.ports:
        if p.peer is not None:
            bundles[p.peer.device.name] = bundles.get(p.peer.device.name, 0) + 1
    return max(bundles.values(), default=1)


#: the intent's link tier between two switch roles
LINK_TIER: dict[frozenset[str], Literal["leaf_spine", "spine_core"]] = {
    frozenset({"leaf", "spine"}): "leaf_spine", frozenset({"spine", "core"}): "spine_core"}


def bfd(fabric: Fabric, role: str, peer_role: str) -> tuple[int, int] | None:
    """BFD interval (ms) and multiplier of the sessions between `role` and `peer_role`
    switches, or None where the intent turns it off: `routing.bfd`, then its link tier's."""
    base = fabric.loaded.intent.routing.bfd
    link = LINK_TIER.get(frozenset({role, peer_role}))
    tier = base.tiers.get(link) if link else None
    enabled, interval, multiplier = base.enabled, base.interval, base.multiplier
    if tier is not None:
        enabled = enabled if tier.enabled is None else tier.enabled
        interval = interval if tier.interval is None else tier.interval
        multiplier = multiplier if tier.multiplier is None else tier.multiplier
    if not enabled or interval is None or multiplier is None:
        return None
    return int(interval // 1000), multiplier


def cnp_marking(intent: Any) -> dict[str, Sourced]:
    """DSCP and 802.1p priority NICs put on CNPs: the intent's `dcqcn.np` values, else the
    CNP class's first DSCP and its traffic class (so switch and NIC agree by construction)."""
    np_ = intent.dcqcn.np
    cls_name = intent.qos.cnp_class
    cls = intent.qos.classes.get(cls_name)
    base = ("qos", "classes", cls_name)
    out: dict[str, Sourced] = {}
    if np_.cnp_dscp is not None:
        out["cnp_dscp"] = (np_.cnp_dscp, ("dcqcn", "np", "cnp_dscp"))
    else:
        out["cnp_dscp"] = (cls.dscp[0] if cls and cls.dscp else None, base + ("dscp",))
    if np_.cnp_802p_prio is not None:
        out["cnp_802p_prio"] = (np_.cnp_802p_prio, ("dcqcn", "np", "cnp_802p_prio"))
    else:
        out["cnp_802p_prio"] = (cls.traffic_class if cls else None, base + ("traffic_class",))
    return out


def link_medium(fabric: Fabric, link: Link) -> Sourced:
    """Cable medium of a link (dac/aec/fiber, None = unknown) and the intent path that says so.

    Rail-optimized links take their tier's link class; explicit links their own `medium`,
    else `link_defaults.medium`.
    """
    return link_class_medium(fabric.loaded.intent.topology, link.source)
