"""The wheel as a user installs it: built by pip from the source tree, it carries the templates
and every data file, and renders, validates and lints the bundled inventories from outside
the repository (the editable install the other tests use would hide a missing file)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel pip builds from the source tree (the build requirements come from the
    package index)."""
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                            str(out), str(ROOT)], capture_output=True, text=True, timeout=600)
    if built.returncode != 0 and "Could not find a version" in built.stderr + built.stdout:
        pytest.skip("pip cannot reach a package index for the build requirements")
    assert built.returncode == 0, built.stdout + built.stderr
    return next(out.glob("*.whl"))


@pytest.fixture(scope="module")
def installed(wheel: Path) -> Path:
    """The wheel, unpacked as pip would install it (a wheel's files go to site-packages as
    they are)."""
    target = wheel.parent / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment outside the repository with the wheel installed by pip as
    a user installs it: the base install, no extra."""
    env = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True, timeout=300)
    done = subprocess.run([str(env / "bin" / "pip"), "install", "-q", "--no-compile",
                           "--disable-pip-version-check", str(wheel)], capture_output=True,
                          text=True, timeout=600, env=_clean_env())
    if done.returncode != 0 and "Could not find a version" in done.stderr + done.stdout:
        pytest.skip("pip cannot reach a package index for the dependencies")
    assert done.returncode == 0, done.stdout + done.stderr
    return env


def _clean_env() -> dict[str, str]:
    """The environment without a path to the repository (the tests' own PYTHONPATH)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


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
    import netcfg

    meta = next(installed.glob("netcfg_roce-*.dist-info")) / "METADATA"
    built = re.search(r"^Version: (\S+)$", meta.read_text(), re.M)
    newest = re.search(r"^## (\d+\.\d+\.\d+)", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert built and newest
    assert built.group(1) == netcfg.__version__ == newest.group(1)


def test_the_distribution_is_netcfg_roce(wheel, installed):
    """`netcfg` in the package index is an unrelated project: the wheel is netcfg-roce, the
    import package and the command keep the name netcfg."""
    import netcfg

    assert wheel.name == f"netcfg_roce-{netcfg.__version__}-py3-none-any.whl"
    meta = (next(installed.glob("netcfg_roce-*.dist-info")) / "METADATA").read_text()
    assert "\nName: netcfg-roce\n" in meta
    assert (installed / "netcfg" / "__init__.py").is_file()
    points = (next(installed.glob("netcfg_roce-*.dist-info")) / "entry_points.txt").read_text()
    assert "netcfg = netcfg.entry:main" in points


def readme_first_command() -> list[list[str]]:
    """The `netcfg` invocations of the README's first command (its first shell line)."""
    first = re.search(r"```sh\n(.*)\n", (ROOT / "README.md").read_text())
    assert first, "README.md has no sh block"
    calls = [shlex.split(part) for part in first.group(1).split("&&")]
    return [call[1:] for call in calls if call[0].endswith("bin/netcfg")]


def test_a_fresh_venv_runs_the_readmes_first_command(venv, tmp_path):
    """pip installs the wheel in a new virtual environment; its `netcfg` command, run in a
    directory holding only a copy of the example inventory, does what the README's first
    command does (validate, prove, render)."""
    import netcfg

    calls = readme_first_command()
    assert [c[0] for c in calls] == ["validate", "deadlock", "render"]
    shutil.copytree(ROOT / "inventories" / "example", tmp_path / "inventories" / "example")
    command = venv / "bin" / "netcfg"
    version = subprocess.run([str(command), "--version"], capture_output=True, text=True,
                             cwd=tmp_path, env=_clean_env(), timeout=120)
    assert version.stdout.strip() == f"netcfg, version {netcfg.__version__}", version.stderr
    for call in calls:
        done = subprocess.run([str(command), *call], capture_output=True, text=True,
                              cwd=tmp_path, env=_clean_env(), timeout=600)
        assert done.returncode == 0, (call, done.stdout, done.stderr)
    where = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import netcfg; print(netcfg.__file__)"], capture_output=True,
                           text=True, cwd=tmp_path, env=_clean_env(), timeout=120)
    assert Path(where.stdout.strip()).is_relative_to(venv)
    configs = tmp_path / "configs" / "example"
    assert len([p for p in configs.rglob("*") if p.is_file()]) >= 10


USER_SCRIPT = '''\
"""A user's script against the installed netcfg, checked by mypy --strict."""
from pathlib import Path

from netcfg import api


def main(inventory: Path) -> int:
    fabric = api.load(inventory)
    if not fabric.ok:
        for finding in fabric.findings:
            print(finding.text())
        return 1
    first = api.device_names(fabric)[0]
    reveal_type(fabric)
    reveal_type(fabric.findings)
    reveal_type(api.device_names(fabric))
    reveal_type(api.device_plan(fabric, first))
    reveal_type(api.device_plan(fabric, first).qos.pfc_priorities)
    reveal_type(api.device_config(fabric, first))
    reveal_type(api.configs(fabric))
    reveal_type(api.explain(fabric, first)[0]["rows"][0]["source"])
    reveal_type(api.deadlock(fabric))
    reveal_type(api.deadlock(fabric).verdict)
    reveal_type(api.lint(fabric))
    reveal_type(api.from_yaml("fabric: {}"))
    reveal_type(api.from_data({"fabric": {}}))
    reveal_type(api.verify(fabric, "devices.yaml"))
    verdict: int = api.deadlock(fabric).verdict
    return 0 if verdict else 1
'''

#: what mypy must reveal, line by line (the functions' documented return types, docs/api.md)
REVEALED = [
    "netcfg.api.Fabric",
    "list[netcfg.findings.Finding]",
    "list[str]",
    "netcfg.render.plan.DevicePlan",
    "tuple[int, ...]",
    "str",
    "dict[str, str]",
    "str",
    "netcfg.deadlock.check.Report",
    "str",
    "netcfg.lint.run.LintResult",
    "netcfg.api.Fabric",
    "netcfg.api.Fabric",
    "netcfg.verify.run.VerifyResult",
]


def test_mypy_strict_checks_a_user_script_against_the_installed_wheel(venv, tmp_path):
    """The wheel ships py.typed (PEP 561), so mypy reads the installed package's types: a
    user's script passes --strict, each API function's result is the concrete type (an
    `Any` would be revealed as such and would let the wrong annotation below pass)."""
    mypy = pytest.importorskip("mypy", reason="mypy comes with the lint extra")
    assert mypy
    script = tmp_path / "user.py"
    script.write_text(USER_SCRIPT)
    (tmp_path / "mypy.ini").write_text("[mypy]\n")
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", "mypy.ini",
         "--python-executable", str(venv / "bin" / "python"), "--cache-dir", ".cache",
         "user.py"], capture_output=True, text=True, cwd=tmp_path, env=_clean_env(),
        timeout=600)
    lines = checked.stdout.splitlines()
    revealed = [re.search(r'Revealed type is "(.*)"', line) for line in lines]
    assert [m.group(1) for m in revealed if m] == REVEALED, checked.stdout
    errors = [line for line in lines if ": error:" in line]
    # the one mistake of the script, and only it: a str is not an int
    assert len(errors) == 1, checked.stdout
    assert 'Incompatible types in assignment (expression has type "str", variable has type ' \
        '"int")' in errors[0]
    assert list(venv.glob("lib/python*/site-packages/netcfg/py.typed"))


#: what pip must not have installed with the base (the deploy extra's packages)
EXTRA_ONLY = ("napalm", "netmiko", "asyncssh", "aiohttp", "paramiko", "nornir", "distributed")


def test_the_base_install_lints_and_names_the_extra_a_command_needs(venv, tmp_path):
    """Without extras: no NAPALM, netmiko, asyncssh, aiohttp, Nornir or Dask is installed,
    lint runs (validate, deadlock and render run in the README test), and each command that
    talks to switches refuses in one line naming the extra, exit 2 (usage), before any work."""
    python = str(venv / "bin" / "python")
    found = subprocess.run([python, "-c", "import importlib.util as u; print(' '.join(m for m "
                            f"in {EXTRA_ONLY!r} if u.find_spec(m)))"], capture_output=True,
                           text=True, env=_clean_env(), cwd=tmp_path, timeout=120)
    assert found.returncode == 0 and found.stdout.strip() == "", found.stdout + found.stderr

    shutil.copytree(ROOT / "inventories" / "multivendor", tmp_path / "multivendor")
    command = str(venv / "bin" / "netcfg")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([command, *args], capture_output=True, text=True,
                              cwd=tmp_path, env=_clean_env(), timeout=600)

    linted = run("lint", "multivendor", "--format", "json")
    assert linted.returncode == 0, linted.stdout + linted.stderr
    assert json.loads(linted.stdout)["fabric"] == "multivendor"
    for name, extra in [("push", "deploy"), ("diff", "deploy"), ("rollback", "deploy"),
                        ("lab", "deploy"), ("verify", "verify")]:
        refused = run(name, "multivendor")
        assert refused.returncode == 2, (name, refused.stdout, refused.stderr)
        assert refused.stdout == ""
        assert refused.stderr.count("\n") == 1, refused.stderr
        assert refused.stderr.startswith(f"netcfg {name} needs the {extra} extra")
        assert refused.stderr.rstrip().endswith(f"pip install 'netcfg-roce[{extra}]'")
    helped = run("push", "--help")
    assert helped.returncode == 0 and "Usage:" in helped.stdout
