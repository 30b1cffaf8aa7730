"""Topology pictures with the dependency cycle highlighted: SVG (no extra dependency) and DOT.

Layout is by tier (highest tier on top), devices spread evenly in build order. A tier with
more than MAX_ROW devices is folded into groups (hosts and leaves by scalable unit, spines by
pod, then coarser while a row is still too wide): a group is one node labelled with what it
holds, a line between groups stands for all their cables (thicker for more, the count in its
tooltip), and the legend says what was folded. Nothing is dropped.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from netcfg.deadlock.check import Report
    from netcfg.topology.fabric import Device, Fabric

#: devices one row shows one by one; a wider tier is folded into groups
MAX_ROW = 32


def _cycle_arrows(report: Report) -> list[tuple[str, str]]:
    if not report.cycles:
        return []
    hops = report.cycles[0].hops
    return [(h["in_from"], h["switch"]) for h in hops]


def _plural(role: str) -> str:
    return "leaves" if role == "leaf" else f"{role}s"


def _group_keys(d: Device) -> list[tuple[str, str]]:
    """(key, label) from finest to coarsest grouping of a device when its tier is folded."""
    plane = f" plane {d.plane}" if d.plane > 1 else ""
    many = _plural(d.role)
    out = []
    if d.su is not None:
        out.append((f"{d.role}:{d.plane}:{d.pod}:{d.su}", f"{many} SU{d.su}{plane}"))
    out.append((f"{d.role}:{d.plane}:{d.pod}", f"{many} pod {d.pod}{plane}"))
    out.append((f"{d.role}:{d.plane}", f"{many}{plane}"))
    out.append((d.role, many))
    return out


@dataclass
class _Layout:
    #: node -> position; a node is a device name or a group key
    pos: dict[str, tuple[float, float]]
    #: node -> what its circle is labelled
    label: dict[str, str]
    #: device -> the node it is drawn as
    node: dict[str, str]
    width: float
    height: int
    #: "2048 hosts in 32 groups by SU" per folded tier
    folded: list[str]


def _layout(fabric: Fabric) -> _Layout:
    rows: dict[int, list[Device]] = {}
    for d in fabric.devices.values():
        rows.setdefault(d.tier, []).append(d)
    node: dict[str, str] = {}
    label: dict[str, str] = {}
    placed: dict[int, list[str]] = {}
    folded = []
    for tier, devices in rows.items():
        if len(devices) <= MAX_ROW:
            placed[tier] = [d.name for d in devices]
            node.update({d.name: d.name for d in devices})
            label.update({d.name: d.name for d in devices})
            continue
        for level in range(4):
            keys = [_group_keys(d)[min(level, len(_group_keys(d)) - 1)] for d in devices]
            if len({k for k, _ in keys}) <= MAX_ROW:
                break
        sizes = Counter(k for k, _ in keys)
        order: list[str] = []
        for d, (key, text) in zip(devices, keys, strict=True):
            node[d.name] = key
            if key not in label:
                order.append(key)
                label[key] = f"{sizes[key]} {text}"
        placed[tier] = order
        how = ("by SU" if "SU" in label[order[0]] else "by pod" if "pod" in label[order[0]]
               else "by plane" if "plane" in label[order[0]] else "into one")
        folded.append(f"{len(devices)} {_plural(devices[0].role)} in {len(order)} group(s) "
                      f"{how}")
    width = max(400.0, 90.0 * max(len(r) for r in placed.values()))
    tiers = sorted(placed, reverse=True)
    pos: dict[str, tuple[float, float]] = {}
    for row, tier in enumerate(tiers):
        names = placed[tier]
        step = width / (len(names) + 1)
        for i, n in enumerate(names):
            pos[n] = (step * (i + 1), 60 + 120 * row)
    return _Layout(pos, label, node, width, 120 * len(tiers) + 40, folded)


def to_svg(fabric: Fabric, report: Report) -> str:
    lay = _layout(fabric)
    pos, width, height = lay.pos, lay.width, lay.height
    arrows = [(lay.node[a], lay.node[b]) for a, b in _cycle_arrows(report)
              if a in lay.node and b in lay.node and lay.node[a] != lay.node[b]]
    hot = {frozenset(a) for a in arrows}
    failed = {frozenset((lay.node[a], lay.node[b])) for a, b in
              (tuple(f) for f in report.failures) if a in lay.node and b in lay.node}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height + 60}" '
           f'viewBox="0 0 {width:.0f} {height + 60}" font-family="sans-serif" font-size="12">',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
           'fill="#d62728"/></marker></defs>',
           f'<text x="10" y="20" font-size="14">{escape(fabric.name)}: {escape(report.verdict)}'
           f' ({escape(report.model)})</text>']
    cables: Counter[frozenset[str]] = Counter()
    lossy: set[frozenset[str]] = set()
    for link in fabric.links:
        key = frozenset((lay.node[link.a.device.name], lay.node[link.b.device.name]))
        if len(key) == 2:
            cables[key] += 1
            if not link.lossless:
                lossy.add(key)
    for key, count in cables.items():
        a, b = sorted(key)
        (x1, y1), (x2, y2) = pos[a], pos[b]
        style = f'stroke="#bbb" stroke-width="{1 + math.log2(count) / 2:.1f}"'
        if key in failed:
            style = 'stroke="#999" stroke-width="1.5" stroke-dasharray="5,4"'
        elif key in lossy:
            style = 'stroke="#9ecae1" stroke-width="1" stroke-dasharray="2,3"'
        if key not in hot:
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {style}>'
                       f'<title>{count} cable(s)</title></line>')
    for i, (a, b) in enumerate(arrows):
        (x1, y1), (x2, y2) = pos[a], pos[b]
        # shorten to stop at the node circle, offset sideways so both directions stay visible
        dx, dy = x2 - x1, y2 - y1
        norm = max((dx * dx + dy * dy) ** 0.5, 1.0)
        ox, oy = -dy / norm * 4, dx / norm * 4
        sx, sy = x1 + dx / norm * 16 + ox, y1 + dy / norm * 16 + oy
        ex, ey = x2 - dx / norm * 18 + ox, y2 - dy / norm * 18 + oy
        out.append(f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" '
                   'stroke="#d62728" stroke-width="2.5" marker-end="url(#arrow)"/>')
        out.append(f'<text x="{(sx + ex) / 2 + ox * 2:.1f}" y="{(sy + ey) / 2 + oy * 2:.1f}" '
                   f'fill="#d62728">{i + 1}</text>')
    in_cycle = {n for a in arrows for n in a}
    for name, (x, y) in pos.items():
        fill = "#fdd" if name in in_cycle else "#eef"
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="15" fill="{fill}" stroke="#333"/>')
        out.append(f'<text x="{x:.1f}" y="{y + 30:.1f}" text-anchor="middle">'
                   f'{escape(lay.label[name])}</text>')
    legend = "red arrows: example dependency cycle (hop order numbered); dashed: failed link"
    out.append(f'<text x="10" y="{height + 25}" fill="#555">{legend}</text>')
    if lay.folded:
        what = "; ".join(lay.folded)
        out.append(f'<text x="10" y="{height + 45}" fill="#555">folded (a node is a group, a '
                   f'line all its cables): {escape(what)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_dot(fabric: Fabric, report: Report) -> str:
    arrows = _cycle_arrows(report)
    hot = {frozenset(a) for a in arrows}
    failed = {frozenset(f) for f in report.failures}
    lines = [f'digraph "{fabric.name}" {{', "  rankdir=BT;"]
    for d in fabric.devices.values():
        lines.append(f'  "{d.name}" [label="{d.name}\\n{d.role}", rank={d.tier}];')
    for link in fabric.links:
        a, b = link.a.device.name, link.b.device.name
        key = frozenset((a, b))
        if key in hot:
            continue
        style = "dashed" if key in failed else "solid"
        lines.append(f'  "{a}" -> "{b}" [dir=none, style={style}, color=gray];')
    for i, (a, b) in enumerate(arrows):
        lines.append(f'  "{a}" -> "{b}" [color=red, penwidth=2.5, label="{i + 1}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"
