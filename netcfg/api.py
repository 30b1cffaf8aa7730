"""netcfg as a library: what the command line does, as typed functions that return objects.

For Ansible modules, Nornir tasks, notebooks and tests (docs/api.md). Everything works on an
intent held in memory as well as on an inventory on disk, and nothing here writes a file:

    fabric = api.load("inventories/example")          # or api.from_yaml(text) / from_data(dict)
    fabric.findings                                     # validation findings, as objects
    api.device_config(fabric, "leaf-su1-r1")            # the rendered config, as text
    api.device_plan(fabric, "leaf-su1-r1")              # the DevicePlan the config renders from

A function that needs a valid intent raises `InvalidIntent` (holding the findings) when it
is not; `load`, `from_yaml` and `from_data` never raise for bad input.

The names below (`__all__`) are the stable surface: their signatures change only with a new
major version. Everything else in the package is internal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict

import yaml

from netcfg.findings import Finding
from netcfg.validate import Validation, validate, validate_loaded

if TYPE_CHECKING:  # the heavy modules load when a function needs them, not on import
    from netcfg.deadlock.check import Report
    from netcfg.lint.run import LintResult
    from netcfg.render.plan import DevicePlan
    from netcfg.topology.fabric import Device
    from netcfg.verify.run import VerifyResult

__all__ = [
    "Fabric", "InvalidIntent", "load", "from_yaml", "from_data", "device_names", "device_plan",
    "device_config", "configs", "explain", "deadlock", "lint", "ExplainRow", "ExplainSection",
    "ExplainValue", "verify",
]

#: a value `explain` shows: what the intent, a default or a derivation gave (as YAML data)
ExplainValue: TypeAlias = (
    "str | int | float | bool | None | list[ExplainValue] | dict[str, ExplainValue]")


class ExplainRow(TypedDict):
    """One effective value: its name, the value, and where it came from (file:line:col, a
    default, or a formula)."""

    key: str
    value: ExplainValue
    source: str


class ExplainSection(TypedDict):
    """A titled group of rows (`netcfg explain` prints one table per section)."""

    title: str
    rows: list[ExplainRow]


class InvalidIntent(Exception):
    """The intent has errors, so nothing can be built from it; `findings` says where."""

    def __init__(self, findings: list[Finding]) -> None:
        self.findings = findings
        errors = [f for f in findings if f.severity == "error"]
        first = errors[0].text() if errors else "no fabric"
        super().__init__(f"{len(errors)} error(s) in the intent; first: {first}")


@dataclass
class Fabric:
    """A loaded intent: its findings, and (when valid) the built fabric and its physics."""

    validation: Validation

    @property
    def ok(self) -> bool:
        """No error a waiver of the intent does not accept."""
        return self.validation.ok

    @property
    def findings(self) -> list[Finding]:
        """Findings that count (errors, warnings, notes), located at file:line:column."""
        return list(self.validation.findings)

    @property
    def waived(self) -> list[Finding]:
        """Findings the intent's waivers accept."""
        return [c.finding for c in self.validation.waived]

    @property
    def name(self) -> str | None:
        fabric = self.validation.fabric
        return fabric.name if fabric is not None else None

    def _built(self) -> Validation:
        if not self.ok or self.validation.fabric is None or self.validation.physics is None:
            raise InvalidIntent(self.validation.findings)
        return self.validation


def load(path: str | Path) -> Fabric:
    """Validate an inventory on disk (a directory with fabric.yaml, or the file)."""
    return Fabric(validate(path))


def from_yaml(fabric: str, devices: str | None = None, root: str | Path = ".") -> Fabric:
    """Validate an intent held as text: fabric.yaml's, and devices.yaml's if there is one.
    Findings name those files with line and column. `root` is where file references of the
    intent (credential files, a root-password hash file) resolve, when rendering reads them."""
    from netcfg.intent.load import load_intent_text

    return Fabric(validate_loaded(lambda: load_intent_text(fabric, devices, root)))


def from_data(fabric: Mapping[str, Any], devices: Mapping[str, Any] | None = None,
              root: str | Path = ".") -> Fabric:
    """Validate an intent held as Python data (what `yaml.safe_load` of the files gives). A
    value YAML cannot hold (a set, an object) is a finding, like any other mistake."""
    try:
        texts = [yaml.safe_dump(dict(part), sort_keys=False) if part is not None else None
                 for part in (fabric, devices)]
    except yaml.representer.RepresenterError as exc:
        kind = type(exc.args[1]).__name__ if len(exc.args) > 1 else "value"
        return Fabric(Validation(None, [Finding.at(
            "SCH003", f"the intent holds a {kind}, which is not YAML data (use mappings, "
            "lists, strings, numbers and booleans)", None)]))
    return from_yaml(texts[0] or "", texts[1], root)


def device_names(fabric: Fabric) -> list[str]:
    """The switches of the fabric, in name order."""
    built = fabric._built()
    assert built.fabric is not None
    return sorted(d.name for d in built.fabric.switches())


def _device(fabric: Fabric, name: str) -> Device:
    built = fabric._built()
    assert built.fabric is not None
    device = built.fabric.devices.get(name)
    if device is None or device.role == "host":
        raise KeyError(f"no switch {name!r} in fabric {fabric.name}")
    return device


def device_plan(fabric: Fabric, name: str) -> DevicePlan:
    """The DevicePlan of one switch: every value its config states, derived once (netcfg's
    structured config; `netcfg explain` shows where each came from)."""
    from netcfg.render.plan import PlanBuilder

    built = fabric._built()
    assert built.fabric is not None and built.physics is not None
    return PlanBuilder(built.fabric, built.physics).plan(_device(fabric, name))


def device_config(fabric: Fabric, name: str) -> str:
    """The rendered config of one switch, as `netcfg render` writes it. A root-password hash
    the intent references is read from its environment variable or file here."""
    from netcfg.render.engine import Hashes, render_plan

    built = fabric._built()
    assert built.fabric is not None
    return Hashes(built.fabric).fill(render_plan(device_plan(fabric, name)))


def configs(fabric: Fabric, with_hosts: bool = True) -> dict[str, str]:
    """Every rendered file (relative path -> text), as `netcfg render --out DIR` would lay
    them out, without writing them and without the deadlock gate (call `deadlock` first)."""
    from netcfg.render.engine import render_files

    built = fabric._built()
    assert built.fabric is not None and built.physics is not None
    switches = sorted(built.fabric.switches(), key=lambda d: d.name)
    return render_files(built.fabric, built.physics, switches, with_hosts=with_hosts)


def explain(fabric: Fabric, name: str, port: str | None = None) -> list[ExplainSection]:
    """Every effective value of a switch (or one of its ports) and where it came from."""
    from netcfg.explain import explain as run

    built = fabric._built()
    assert built.fabric is not None
    device = _device(fabric, name)
    chosen = None
    if port is not None:
        chosen = next((p for p in device.ports if p.name == port), None)
        if chosen is None:
            raise KeyError(f"{name} has no port {port!r}")
    return [ExplainSection(title=s.title, rows=[ExplainRow(key=r.key, value=r.value,
                                                           source=r.source) for r in s.rows])
            for s in run(built.fabric, device, chosen, built.physics)]


def deadlock(fabric: Fabric, failures: int = 0, model: str | None = None) -> Report:
    """The PFC deadlock proof (a Report: `verdict`, cycles with witnesses, `findings`), under
    up to `failures` simultaneous link failures."""
    from netcfg.deadlock.check import check

    built = fabric._built()
    assert built.fabric is not None
    return check(built.fabric, failures=failures, model=model)


def lint(source: Fabric | str | Path, failures: int = 0,
         deadlock: bool = True) -> LintResult:
    """Every rule of `netcfg lint` (a LintResult: `results` with waivers applied, `failing
    (fail_on)`). Takes an inventory path, or a Fabric (also one loaded from texts or data)."""
    from netcfg.lint.run import lint as run

    if isinstance(source, Fabric):
        return run(None, failures=failures, deadlock=deadlock, validation=source.validation)
    return run(source, failures=failures, deadlock=deadlock)


def verify(source: Fabric | str | Path, connect: str | Path, devices: tuple[str, ...] = (),
           roles: tuple[str, ...] = (), workers: int = 16, timeout: int = 60,
           state: str | Path | None = None, interval: float = 0.0,
           max_pauses: int = 0) -> VerifyResult:
    """`netcfg verify`: each selected switch's operational state against its plan, through
    the devices file `connect` (e.g. the one `netcfg lab` writes). A VerifyResult: `devices`
    with their checks, `failed()`, `findings()` (lint-shaped), `exit_code` (0, 1 or 4).
    `state`: the run directory diff's device locks live in (None: no lock is taken);
    `interval`, `max_pauses`: as `--interval` and `--max-pauses`."""
    from netcfg.verify.run import verify_validated

    fabric = source if isinstance(source, Fabric) else load(source)
    fabric._built()  # raises InvalidIntent for an intent that has errors
    base = None if isinstance(source, Fabric) else Path(source)
    if base is not None and not base.is_dir():
        base = base.parent
    file = None if base is None else str(base / "fabric.yaml")
    return verify_validated(fabric.validation, Path(connect), tuple(devices), tuple(roles),
                            workers, timeout, None if state is None else Path(state), base,
                            file, interval, max_pauses)
