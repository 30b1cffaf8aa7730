"""LNK005: a cable longer than its medium carries the link's signal.

A link class says `medium: dac` and `cable: 5m`; the catalog says how far each medium reaches
at each SerDes lane rate (`media:` in netcfg/platforms/catalog.yaml, a source per figure). The
lane rate is the port's speed over its lanes (400G on 4 of an 800G cage's 8 lanes is 100G a
lane), so a DAC that carries 25G lanes 5 m carries 100G lanes no more than 3 m. One warning
per intent line that sets the cable, at that line: the cable may be a longer part than the
sources list, so it is said, not refused (a waiver accepts it).

Like check_fabric, this takes the built fabric without importing its module (topology imports
intent)."""

from __future__ import annotations

from typing import Any

from netcfg.findings import Finding, Rule
from netcfg.intent.load import LoadedIntent
from netcfg.intent.units import format_length, format_speed
from netcfg.intent.yamlsrc import PathKey

RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("LNK005", "warning", "a cable longer than its medium reaches at the link's lane rate",
         "the link may not come up, or run with errors; the reach is the catalog's, from the "
         "standard or the cable vendor (a longer part may exist)",
         "netcfg/platforms/catalog.yaml (media); IEEE 802.3bj, 802.3cd; NVIDIA LinkX"),
)}


def link_class_medium(topology: Any, source: PathKey) -> tuple[str | None, PathKey]:
    """Cable medium of a link (dac/aec/fiber, None = unknown) and the intent path that says so,
    from the link's `source` (its link class): rail-optimized links take their tier's class,
    explicit links their own `medium`, else `link_defaults.medium`."""
    if len(source) == 3 and source[:2] == ("topology", "links"):
        own = topology.links[source[2]].medium
        if own is not None:
            return own, source + ("medium",)
        return topology.link_defaults.medium, ("topology", "link_defaults", "medium")
    if len(source) == 2 and source[0] == "topology":
        cls = getattr(topology, str(source[1]), None)
        return (cls.medium if cls is not None else None), source + ("medium",)
    return None, source + ("medium",)


def _cable_path(li: LoadedIntent, link: Any) -> PathKey:
    """The intent line that set this link's cable length: a port override, the link's own
    `cable`, `link_defaults.cable`, or its tier's link class."""
    for port in (link.a, link.b):
        if port.origin and "cable" in port.origin:
            return tuple(port.origin["cable"])
    src = tuple(link.source)
    if src[:2] == ("topology", "links"):
        if li.is_set(src + ("cable",)):
            return src + ("cable",)
        if li.is_set(("topology", "link_defaults", "cable")):
            return ("topology", "link_defaults", "cable")
        return src
    return src + ("cable",)


def lane_rate(fabric: Any, link: Any) -> tuple[Any, int, int] | None:
    """(port, lanes, Mb/s a lane) of the link's switch end with the fastest lanes (a link
    whose ends differ is bounded by the faster), None for a link between hosts."""
    ends = [(p, fabric.platform(p.device).lanes(p.speed)) for p in (link.a, link.b)
            if p.device.is_switch]
    if not ends:
        return None
    port, lanes = max(ends, key=lambda e: e[0].speed / e[1])
    return port, lanes, port.speed // lanes


def reach_of(fabric: Any, link: Any, medium: str | None) -> tuple[int, float, str] | None:
    """(Mb/s a lane, reach in metres, its source) of `medium` on this link, None where the
    catalog gives none (a medium or lane rate it does not list)."""
    entry = fabric.catalog.media.get(medium) if medium is not None else None
    if entry is None:
        return None
    rate = lane_rate(fabric, link)
    if rate is None or rate[2] not in entry.reach:
        return None
    return rate[2], entry.reach[rate[2]], entry.sources[rate[2]]


def check_reach(fabric: Any) -> list[Finding]:
    """LNK005 warnings: links whose cable is longer than the catalog says its medium reaches
    at the link's lane rate (the faster end's, where the two ends differ)."""
    li: LoadedIntent = fabric.loaded
    if not fabric.catalog.media:
        return []
    topology = li.intent.topology
    mediums: dict[PathKey, tuple[str | None, PathKey]] = {}
    groups: dict[tuple, list] = {}
    # reach_of depends on the medium and, per end, on the switch's platform (its lanes) and
    # the port's speed: links alike (every server link of a rail fabric) ask it once
    reaches: dict[tuple, tuple[int, float, str] | None] = {}
    for link in fabric.links:
        src = tuple(link.source)
        if src not in mediums:
            mediums[src] = link_class_medium(topology, src)
        medium = mediums[src][0]
        a, b = link.a, link.b
        da, db = a.device, b.device  # a switch is of tier 1 or more (Device.is_switch)
        alike = (medium, a.speed, da.platform if da.tier > 0 else None,
                 b.speed, db.platform if db.tier > 0 else None)
        if alike in reaches:
            got = reaches[alike]
        else:
            got = reaches[alike] = reach_of(fabric, link, medium)
        if got is None:
            continue  # no reach listed for this medium and lane rate
        cable = a.cable if a.cable >= b.cable else b.cable  # the longer end's
        if cable <= got[1]:
            continue
        key = (_cable_path(li, link), medium, got[0], cable)
        groups.setdefault(key, []).append((link, got))
    out = []
    for (path, medium, rate, cable), links in groups.items():
        link, (_, reach, source) = links[0]
        port, lanes, _ = lane_rate(fabric, link) or (link.a, 1, rate)
        such = "the link" if len(links) == 1 else f"{len(links)} links such as"
        out.append(li.finding(
            "LNK005", f"{format_length(cable)} of {medium} is longer than {medium} reaches at "
            f"{format_speed(rate)} a lane ({format_speed(port.speed)} on {lanes} lanes): "
            f"{format_length(reach)} ({source.split(':')[0]}); {such} {link.a.id} - "
            f"{link.b.id}: use a shorter cable or another medium (aec, fiber)", path,
            severity="warning", device=port.device.name, interface=port.name))
    return out
