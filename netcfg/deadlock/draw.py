"""Topology pictures with the dependency cycle highlighted: SVG (no extra dependency) and DOT.

Layout is by tier (highest tier on top), devices spread evenly in build order. Large fabrics
draw switches only, and hosts are left out, so the picture stays readable.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from netcfg.deadlock.check import Report
    from netcfg.topology.fabric import Fabric

MAX_HOSTS_DRAWN = 64


def _cycle_arrows(report: Report) -> list[tuple[str, str]]:
    if not report.cycles:
        return []
    hops = report.cycles[0].hops
    return [(h["in_from"], h["switch"]) for h in hops]


def _layout(fabric: Fabric) -> tuple[dict[str, tuple[float, float]], int, int]:
    hosts = fabric.hosts()
    show_hosts = len(hosts) <= MAX_HOSTS_DRAWN
    rows: dict[int, list[str]] = {}
    for d in fabric.devices.values():
        if d.tier > 0 or show_hosts:
            rows.setdefault(d.tier, []).append(d.name)
    width = max(400, 90 * max(len(r) for r in rows.values()))
    tiers = sorted(rows, reverse=True)
    height = 120 * len(tiers) + 40
    pos: dict[str, tuple[float, float]] = {}
    for row, tier in enumerate(tiers):
        names = rows[tier]
        step = width / (len(names) + 1)
        for i, n in enumerate(names):
            pos[n] = (step * (i + 1), 60 + 120 * row)
    return pos, width, height


def to_svg(fabric: Fabric, report: Report) -> str:
    pos, width, height = _layout(fabric)
    arrows = _cycle_arrows(report)
    hot = {frozenset(a) for a in arrows}
    failed = {frozenset(f) for f in report.failures}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height + 40}" '
           f'viewBox="0 0 {width:.0f} {height + 40}" font-family="sans-serif" font-size="12">',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
           'fill="#d62728"/></marker></defs>',
           f'<text x="10" y="20" font-size="14">{escape(fabric.name)}: {escape(report.verdict)}'
           f' ({escape(report.model)})</text>']
    for link in fabric.links:
        a, b = link.a.device.name, link.b.device.name
        if a not in pos or b not in pos:
            continue
        (x1, y1), (x2, y2) = pos[a], pos[b]
        key = frozenset((a, b))
        style = 'stroke="#bbb" stroke-width="1"'
        if key in failed:
            style = 'stroke="#999" stroke-width="1.5" stroke-dasharray="5,4"'
        elif not link.lossless:
            style = 'stroke="#9ecae1" stroke-width="1" stroke-dasharray="2,3"'
        if key not in hot:
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {style}/>')
    for i, (a, b) in enumerate(arrows):
        if a not in pos or b not in pos:
            continue
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
                   f'{escape(name)}</text>')
    legend = "red arrows: example dependency cycle (hop order numbered); dashed: failed link"
    out.append(f'<text x="10" y="{height + 25}" fill="#555">{legend}</text>')
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
