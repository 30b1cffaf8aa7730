"""`netcfg graph` stays readable on large fabrics: a tier wider than the row limit is folded
into groups named by what they hold, every cable is still drawn (once per group pair), the
legend says what was folded, and a small fabric keeps one node per device."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from netcfg.cli import main
from netcfg.deadlock.draw import MAX_ROW
from netcfg.validate import validate

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def _draw(tmp_path: Path, inventory: str) -> ET.Element:
    out = tmp_path / f"{inventory}.svg"
    result = CliRunner().invoke(main, ["graph", str(ROOT / "inventories" / inventory),
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    return ET.parse(out).getroot()


def test_a_large_fabric_is_folded_by_su_and_loses_no_cable(tmp_path):
    svg = _draw(tmp_path, "gpu2048")
    fabric = validate(ROOT / "inventories" / "gpu2048").fabric
    assert fabric is not None
    labels = [t.text or "" for t in svg.iter(f"{SVG}text")]
    groups = [t for t in labels if re.fullmatch(r"\d+ (hosts|leaves) SU\d+", t)]
    hosts = sum(int(t.split()[0]) for t in groups if " hosts " in t)
    leaves = sum(int(t.split()[0]) for t in groups if " leaves " in t)
    assert hosts == len(fabric.hosts())  # every host is in a group, none dropped
    assert leaves == sum(1 for d in fabric.switches() if d.role == "leaf")
    drawn = sum(int((ln.findtext(f"{SVG}title") or "0 ").split()[0])
                for ln in svg.iter(f"{SVG}line"))
    assert drawn == len(fabric.links)
    assert any(t.startswith("folded") and "by SU" in t for t in labels)
    # one row per tier, none wider than the limit
    rows: dict[str, int] = {}
    for c in svg.iter(f"{SVG}circle"):
        rows[c.get("cy", "")] = rows.get(c.get("cy", ""), 0) + 1
    assert max(rows.values()) <= MAX_ROW
    assert float(svg.get("width", "0")) <= 90 * MAX_ROW


def test_a_small_fabric_draws_every_device(tmp_path):
    svg = _draw(tmp_path, "example")
    fabric = validate(ROOT / "inventories" / "example").fabric
    assert fabric is not None
    assert sum(1 for _ in svg.iter(f"{SVG}circle")) == len(fabric.devices)
    assert not any((t.text or "").startswith("folded") for t in svg.iter(f"{SVG}text"))
