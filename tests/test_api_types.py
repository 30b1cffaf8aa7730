"""`api.explain` promises its values are YAML data (`api.ExplainValue`): every value the
bundled inventories explain, on every switch and port, is one (mypy trusts the annotation,
so it must hold at run time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from netcfg import api

ROOT = Path(__file__).resolve().parent.parent


def yaml_data(value: object) -> bool:
    if value is None or isinstance(value, str | int | float | bool):
        return True
    if isinstance(value, list):
        return all(yaml_data(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and yaml_data(v) for k, v in value.items())
    return False


@pytest.mark.parametrize("inventory", ["example", "multivendor"])
def test_every_explained_value_is_yaml_data(inventory: str) -> None:
    fabric = api.load(ROOT / "inventories" / inventory)
    assert fabric.ok and fabric.validation.fabric is not None
    seen = 0
    for name in api.device_names(fabric):
        ports = [p.name for p in fabric.validation.fabric.devices[name].ports]
        for port in [None, *ports]:
            for section in api.explain(fabric, name, port):
                assert set(section) == {"title", "rows"} and isinstance(section["title"], str)
                for row in section["rows"]:
                    assert set(row) == {"key", "value", "source"}
                    assert isinstance(row["key"], str) and isinstance(row["source"], str)
                    assert yaml_data(row["value"]), (name, port, row)
                    seen += 1
    assert seen > 1000
