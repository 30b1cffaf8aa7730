"""`validate`: load + schema + references + topology expansion, as one function returning data."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from netcfg.findings import Finding, IntentError
from netcfg.intent.checks import check_fabric, check_intent
from netcfg.intent.load import load_intent
from netcfg.physics import Physics, derive
from netcfg.physics.checks import check as check_physics
from netcfg.topology import build_fabric
from netcfg.topology.fabric import Fabric
from netcfg.vendors.checks import check as check_capabilities


@dataclass
class Validation:
    fabric: Fabric | None
    findings: list[Finding] = field(default_factory=list)
    physics: Physics | None = None

    @property
    def ok(self) -> bool:
        return self.fabric is not None and not any(f.severity == "error" for f in self.findings)


def validate(path: str | Path) -> Validation:
    """Everything `netcfg validate` checks; never raises for bad input."""
    try:
        loaded = load_intent(path)
        findings = check_intent(loaded)
        if any(f.severity == "error" for f in findings):
            return Validation(None, findings)
        fabric = build_fabric(loaded)
    except IntentError as exc:
        return Validation(None, exc.findings)
    findings += check_fabric(fabric)
    if any(f.severity == "error" for f in findings):
        return Validation(fabric, findings)
    physics = derive(fabric)
    findings += check_physics(physics)
    findings += check_capabilities(fabric, physics)
    return Validation(fabric, findings, physics)
