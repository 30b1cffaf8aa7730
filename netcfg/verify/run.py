"""The fleet loop of `netcfg verify`: per switch, the config check (what `netcfg diff`
computes) and the state checks (collect + checks), with bounded concurrency.

Exit codes follow DESIGN.md's CLI contract: 0 every check holds (warnings pass, as lint's do
under --fail-on error), 1 findings, 4 a switch could not be verified (its failure is also
reported as a VFY020 finding, beside the others).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from netcfg.deploy.connect import DeviceError
from netcfg.deploy.engine import Desired, Options, diff_device, pool
from netcfg.deploy.engine import Result as DiffResult
from netcfg.deploy.targets import Target
from netcfg.findings import Finding
from netcfg.render.plan import DevicePlan
from netcfg.vendors import vendor
from netcfg.verify import checks
from netcfg.verify.checks import Check
from netcfg.verify.collect import collect

if TYPE_CHECKING:
    from netcfg.deploy.runs import State
    from netcfg.render.plan import PlanBuilder
    from netcfg.topology.fabric import Fabric
    from netcfg.validate import Validation

EXIT_FINDINGS, EXIT_DEVICE = 1, 4

#: getter -> the NAPALM method named in a VFY020 message
GETTERS = {"interfaces": "get_interfaces", "lldp": "get_lldp_neighbors_detail",
           "bgp": "get_bgp_neighbors", "pfc": "PFC and queue state",
           "buffers": "buffer profiles"}


@dataclass
class DeviceReport:
    device: str
    nos: str
    checks: list[Check] = field(default_factory=list)
    #: why the switch (or part of it) could not be verified
    errors: list[str] = field(default_factory=list)
    #: what verify does not read on this switch (said in every report)
    not_checked: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class VerifyResult:
    fabric: str
    #: the intent file findings point at (code scanning needs a file)
    file: str | None
    devices: list[DeviceReport]
    seconds: float = 0.0

    def checks(self) -> list[Check]:
        return [c for d in self.devices for c in d.checks]

    def failed(self) -> list[Check]:
        return [c for c in self.checks() if not c.ok]

    def findings(self) -> list[Finding]:
        """Every failed check as a lint-shaped Finding, at the intent file."""
        return [Finding(c.rule, c.severity, c.message, file=self.file, device=c.device,
                        interface=c.interface) for c in self.failed()]

    @property
    def exit_code(self) -> int:
        """4 a switch could not be verified; 1 a check of severity error failed (warnings,
        like lint's under --fail-on error, are reported but pass); 0 otherwise."""
        if any(d.errors for d in self.devices):
            return EXIT_DEVICE
        return EXIT_FINDINGS if any(c.severity == "error" for c in self.failed()) else 0


def verify_device(target: Target, plan: DevicePlan, desired: Desired, opts: Options,
                  state: State | None, interval: float = 0.0,
                  max_pauses: int = 0, origins: dict[str, int] | None = None,
                  bounds: checks.PrefixBounds | None = None) -> DeviceReport:
    """Config check, then the state checks over a second connection."""
    start = time.perf_counter()
    report = DeviceReport(target.name, target.nos)
    diff: DiffResult = diff_device(target, desired, opts, state)
    if diff.status in ("drift", "unchanged"):
        report.checks += checks.config(target.name, diff.status, diff.meaning, diff.diff)
    else:
        _error(report, f"config check: {diff.stage}: {diff.error}")
        if diff.status == "unreachable":
            report.seconds = time.perf_counter() - start
            return report
    try:
        got = collect(target, opts.timeout, interval)
    except DeviceError as exc:
        _error(report, f"{exc.stage}: {exc.message}")
    else:
        for part, error in got.errors.items():
            _error(report, f"{GETTERS[part]}: {error}")
        for part in got.missing:
            report.checks.append(Check("VFY019", target.name, None, False,
                                       f"{GETTERS[part]} is not implemented by the "
                                       f"{target.driver} driver: not checked"))
        if got.pfc is None and "pfc" not in got.errors:
            why = vendor(target.nos).pfc_unverifiable
            report.not_checked.append(f"PFC and queue state: not verifiable on {target.nos} "
                                      f"({why})")
        else:
            parts = ((got.pfc.not_verifiable if got.pfc else ())
                     or vendor(target.nos).pfc_parts_unverifiable)
            report.not_checked += [f"{rules}: not verifiable on {target.nos} ({why})"
                                   for rules, why in parts]
            if interval <= 0:
                report.not_checked.append("pause frames and lossless drops (give --interval)")
        report.checks += checks.state_checks(plan, got, max_pauses, origins, bounds)
    report.seconds = time.perf_counter() - start
    return report


def _error(report: DeviceReport, message: str) -> None:
    report.errors.append(message)
    report.checks.append(Check("VFY020", report.device, None, False, message))


def verify_fleet(targets: list[Target], plans: dict[str, DevicePlan],
                 desired: dict[str, Desired], opts: Options, state: State | None,
                 fabric: str, file: str | None,
                 progress: Callable[[object], None] | None = None, interval: float = 0.0,
                 max_pauses: int = 0, origins: dict[str, int] | None = None,
                 bounds: checks.PrefixBounds | None = None) -> VerifyResult:
    start = time.perf_counter()
    by_name: dict[str, DeviceReport] = {}

    def one(t: Target) -> DiffResult:
        by_name[t.name] = verify_device(t, plans[t.name], desired[t.name], opts, state,
                                        interval, max_pauses, origins, bounds)
        return DiffResult(t.name, "verified")

    pool(targets, one, opts.workers, progress)
    return VerifyResult(fabric, file, [by_name[t.name] for t in targets if t.name in by_name],
                        time.perf_counter() - start)


def verify_validated(validation: Validation, connect: Path, devices: tuple[str, ...] = (),
                     roles: tuple[str, ...] = (), workers: int = 16, timeout: int = 60,
                     state: Path | None = None, base: Path | None = None,
                     file: str | None = None, interval: float = 0.0,
                     max_pauses: int = 0) -> VerifyResult:
    """`netcfg verify` for a validated intent and a devices file (`api.verify`). Raises
    TargetError for a selection or devices file that cannot be used."""
    from netcfg.deploy.desired import desired_configs, with_history
    from netcfg.deploy.targets import TargetError, from_devices_file, select, with_trust
    from netcfg.render.plan import PlanBuilder

    fabric, physics = validation.fabric, validation.physics
    assert fabric is not None and physics is not None
    chosen = select(fabric, devices, roles)
    if not chosen:
        raise TargetError("no switch matches the selection")
    targets = with_trust(from_devices_file(fabric, chosen, connect))
    desired = desired_configs(fabric, physics, chosen, None, base)
    if state is not None:
        desired = with_history(desired, state)
    builder = PlanBuilder(fabric, physics)
    plans = {d.name: builder.plan(d) for d in chosen}
    return verify_fleet(targets, plans, desired, Options(timeout=timeout, workers=workers),
                        state, fabric.name, file, None, interval, max_pauses,
                        peer_origins(builder, plans), prefix_bounds(fabric, set(plans)))


def peer_origins(builder: PlanBuilder, plans: dict[str, DevicePlan]) -> dict[str, int]:
    """How many prefixes each BGP peer of the selected switches originates (from its own
    plan; checks.originated)."""
    fabric = builder.fabric
    peers = {n.name for p in plans.values() for n in p.bgp.neighbors}
    return {name: checks.originated(plans[name] if name in plans
                                    else builder.plan(fabric.devices[name]))
            for name in sorted(peers) if name in fabric.devices}


def prefix_bounds(fabric: Fabric, names: set[str]) -> checks.PrefixBounds:
    """The most prefixes each session of the switches `names` may bring, by the plan and by
    their NOS's limit (lint's count, netcfg/lint/prefixes.py)."""
    from netcfg.lint import prefixes

    carried = {(s.receiver, s.sender): s.prefixes for s in prefixes.sessions(fabric, names)}
    limits = {name: (n, source) for name, (n, _, source) in prefixes.limits(fabric).items()
              if name in names}
    return checks.PrefixBounds(carried, limits)
