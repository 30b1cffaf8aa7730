"""The wheel as a user installs it: built by pip from the source tree, it carries the templates
and every data file, and renders, validates and lints the bundled inventories from outside
the repository (the editable install the other tests use would hide a missing file)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, unpacked as pip would install it (a wheel's files go to site-packages as
    they are)."""
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                            str(out), str(ROOT)], capture_output=True, text=True, timeout=600)
    if built.returncode != 0 and "Could not find a version" in built.stderr + built.stdout:
        pytest.skip("pip cannot reach a package index for the build requirements")
    assert built.returncode == 0, built.stdout + built.stderr
    wheel = next(out.glob("*.whl"))
    target = out / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def netcfg(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`netcfg ARGS` importing only the unpacked wheel and the dependencies: `-S` keeps the
    editable install's path hook (a .pth file) out, so the repository is not on the path."""
    deps = sysconfig.get_paths()["purelib"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), deps])}
    return subprocess.run([sys.executable, "-S", "-m", "netcfg", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_wheel_carries_templates_and_data(installed):
    package = installed / "netcfg"
    templates = {p.relative_to(package / "templates").as_posix()
                 for p in (package / "templates").rglob("*.j2")}
    assert templates == {p.relative_to(ROOT / "templates").as_posix()
                         for p in (ROOT / "templates").rglob("*.j2")}
    for data in (ROOT / "netcfg").rglob("*"):
        if data.suffix in (".yaml", ".json") and "__pycache__" not in data.parts:
            assert (package / data.relative_to(ROOT / "netcfg")).is_file(), data


@pytest.mark.parametrize("inventory", ["example", "multivendor"])
def test_the_installed_wheel_renders_outside_the_repository(installed, tmp_path, inventory):
    probe = subprocess.run(
        [sys.executable, "-S", "-c", "import netcfg.render.engine as e; print(e.__file__); "
         "print(e.TEMPLATES)"], cwd=tmp_path, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(installed), sysconfig.get_paths()["purelib"]])})
    assert probe.returncode == 0, probe.stderr
    module, templates = probe.stdout.split()
    assert Path(module).is_relative_to(installed) and Path(templates).is_relative_to(installed)

    source = ROOT / "inventories" / inventory
    checked = netcfg(installed, tmp_path, "validate", str(source))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    out = tmp_path / "configs"
    rendered = netcfg(installed, tmp_path, "render", str(source), "--out", str(out))
    assert rendered.returncode == 0, rendered.stdout + rendered.stderr
    assert len([p for p in out.rglob("*") if p.is_file()]) >= 10
    linted = netcfg(installed, tmp_path, "lint", str(source), "--format", "sarif")
    assert linted.returncode in (0, 1) and "Traceback" not in linted.stderr


def test_the_wheel_carries_the_version_the_changelog_releases(installed):
    """pip's build reads the version from `netcfg.__version__` (pyproject's dynamic version):
    the wheel's metadata and the newest release heading of CHANGELOG.md name the same one."""
    import re

    import netcfg

    meta = next(installed.glob("netcfg-*.dist-info")) / "METADATA"
    built = re.search(r"^Version: (\S+)$", meta.read_text(), re.M)
    newest = re.search(r"^## (\d+\.\d+\.\d+)", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert built and newest
    assert built.group(1) == netcfg.__version__ == newest.group(1)
