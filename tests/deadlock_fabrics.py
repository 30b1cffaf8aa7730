"""Small generated fabrics the deadlock tests share (the bundled example, cut down)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

EXAMPLE = Path(__file__).resolve().parents[1] / "inventories" / "example"


def small_rail(tmp_path: Path, **topology: Any) -> Path:
    """2 SUs x 2 servers x 2 rails (2 GPUs, 2 ConnectX-7 NICs each), 2 spines, in
    `tmp_path`: one link per leaf and spine, so two failed links make bounces cyclic.
    `topology` replaces keys of the example's topology (planes, NIC, ...)."""
    data = yaml.safe_load((EXAMPLE / "fabric.yaml").read_text())
    data["topology"].update({"scalable_units": 2, "nodes_per_su": 2, "spines": 2,
                             "node": {"gpus": 2, "nics": 2, "nic": "connectx-7"}, **topology})
    (tmp_path / "fabric.yaml").write_text(yaml.safe_dump(data))
    return tmp_path
