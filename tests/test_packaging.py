"""The package list in pyproject.toml is explicit (two packages also install under a NAPALM
community name), so it must list every package directory of the tree, no more."""

from __future__ import annotations

from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_directory_is_listed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapped = config.get("package-dir", {})
    data = {name for name, directory in mapped.items()
            if not (ROOT / directory / "__init__.py").exists()}  # templates/, data only
    listed = {name for name in config["packages"] if name not in mapped
              and not any(name.startswith(d + ".") for d in data)}
    tree = {".".join(init.parent.relative_to(ROOT).parts)
            for init in (ROOT / "netcfg").rglob("__init__.py")}
    assert listed == tree
    for name, directory in mapped.items():
        assert name in config["packages"]
        assert name in data or (ROOT / directory / "__init__.py").is_file(), name


def test_every_template_folder_is_installed() -> None:
    """templates/ goes into the wheel as netcfg/templates/ (tests/test_wheel.py builds it)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {"netcfg.templates"} | {f"netcfg.templates.{d.name}"
                                      for d in (ROOT / "templates").iterdir() if d.is_dir()}
    assert folders <= set(config["packages"])
    assert folders <= set(config["package-data"])
