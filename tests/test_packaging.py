"""The package list in pyproject.toml is explicit (two packages also install under a NAPALM
community name), so it must list every package directory of the tree, no more."""

from __future__ import annotations

from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_directory_is_listed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapped = config.get("package-dir", {})
    listed = {name for name in config["packages"] if name not in mapped}
    tree = {".".join(init.parent.relative_to(ROOT).parts)
            for init in (ROOT / "netcfg").rglob("__init__.py")}
    assert listed == tree
    for name, directory in mapped.items():
        assert name in config["packages"]
        assert (ROOT / directory / "__init__.py").is_file(), name
