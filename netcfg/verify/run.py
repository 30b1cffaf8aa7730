"""The fleet loop of `netcfg verify`: per switch, the config check (what `netcfg diff`
computes) and the state checks (collect + checks), with bounded concurrency.

At fleet size (docs/verify.md, "Cost"): one login per switch serves both the config check
and the state reading; each switch's SSH host keys are looked up in a known_hosts file
holding that switch's own entries (a lab's or an operator's file names every switch, and
the SSH client parses the whole file on every login: read whole, thousands of switches made
that quadratic); each switch's state is dropped once its checks are made, and its report is
kept compressed until the result is read, one switch at a time.

Exit codes follow DESIGN.md's CLI contract: 0 every check holds (warnings pass, as lint's do
under --fail-on error), 1 findings, 4 a switch could not be verified (its failure is also
reported as a VFY020 finding, beside the others).
"""

from __future__ import annotations

import pickle
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, overload

from netcfg.deploy.connect import Connection, DeviceError
from netcfg.deploy.engine import Desired, Options, diff_device, pool
from netcfg.deploy.engine import Result as DiffResult
from netcfg.deploy.targets import Target
from netcfg.findings import Finding
from netcfg.render.plan import DevicePlan
from netcfg.vendors import vendor
from netcfg.verify import checks
from netcfg.verify.checks import Check
from netcfg.verify.collect import DeviceState, collect, read_state

if TYPE_CHECKING:
    from netcfg.deploy.runs import State
    from netcfg.render.plan import PlanBuilder
    from netcfg.topology.fabric import Device, Fabric
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


class Reports(Sequence[DeviceReport]):
    """Switch reports kept compressed (a few KB a switch instead of its checks as objects),
    each unpacked when read: a fleet's result never holds every switch's checks at once
    until a caller asks for them all (`VerifyResult.checks`)."""

    def __init__(self, reports: Iterable[DeviceReport] = ()) -> None:
        self._packed: list[bytes] = []
        #: per switch, kept unpacked: whether it could not be verified, its failed checks
        #: (what the exit code and the findings need, without unpacking every report again)
        self._failed: list[tuple[bool, list[Check]]] = []
        #: the switches that could not be verified, by name (the summary names them)
        self._unverified: list[str] = []
        self._total = 0
        for report in reports:
            self.append(report)

    def append(self, report: DeviceReport) -> None:
        self.add(packed(report))

    def add(self, kept: Packed) -> None:
        """A report packed already (`packed(report)`)."""
        self._packed.append(kept.report)
        self._failed.append((kept.unverified, kept.failed))
        if kept.unverified:
            self._unverified.append(kept.device)
        self._total += kept.checks

    def failed(self) -> list[Check]:
        return [c for _, failed in self._failed for c in failed]

    def total(self) -> int:
        """How many checks the reports hold."""
        return self._total

    def unverified(self) -> bool:
        """Some switch could not be verified."""
        return any(errors for errors, _ in self._failed)

    def unverified_devices(self) -> list[str]:
        return list(self._unverified)

    def __len__(self) -> int:
        return len(self._packed)

    @overload
    def __getitem__(self, index: int) -> DeviceReport: ...

    @overload
    def __getitem__(self, index: slice) -> list[DeviceReport]: ...

    def __getitem__(self, index: int | slice) -> DeviceReport | list[DeviceReport]:
        if isinstance(index, slice):
            return [_unpack(b) for b in self._packed[index]]
        return _unpack(self._packed[index])

    def __iter__(self) -> Iterator[DeviceReport]:
        return (_unpack(b) for b in self._packed)


@dataclass(frozen=True)
class Packed:
    """One switch's report packed, with what the result's summary needs of it."""

    report: bytes
    unverified: bool
    failed: list[Check]
    checks: int
    device: str = ""


def packed(report: DeviceReport) -> Packed:
    return Packed(zlib.compress(pickle.dumps(report, pickle.HIGHEST_PROTOCOL), 1),
                  bool(report.errors), [c for c in report.checks if not c.ok],
                  len(report.checks), report.device)


def _unpack(packed: bytes) -> DeviceReport:
    report: DeviceReport = pickle.loads(zlib.decompress(packed))  # noqa: S301 - our own bytes
    return report


@dataclass
class VerifyResult:
    fabric: str
    #: the intent file findings point at (code scanning needs a file)
    file: str | None
    #: per switch (a list, or `Reports` from verify_fleet: unpacked one at a time)
    devices: Sequence[DeviceReport]
    seconds: float = 0.0

    def checks(self) -> list[Check]:
        return [c for d in self.devices for c in d.checks]

    def total(self) -> int:
        """len(checks()), without making every check at once (a fleet's are millions)."""
        if isinstance(self.devices, Reports):
            return self.devices.total()
        return sum(len(d.checks) for d in self.devices)

    def unverified_devices(self) -> list[str]:
        """The switches that could not be verified (no report unpacked to name them)."""
        if isinstance(self.devices, Reports):
            return self.devices.unverified_devices()
        return [d.device for d in self.devices if d.errors]

    def failed(self) -> list[Check]:
        if isinstance(self.devices, Reports):
            return self.devices.failed()
        return [c for c in self.checks() if not c.ok]

    def findings(self) -> list[Finding]:
        """Every failed check as a lint-shaped Finding, at the intent file."""
        return [Finding(c.rule, c.severity, c.message, file=self.file, device=c.device,
                        interface=c.interface) for c in self.failed()]

    @property
    def exit_code(self) -> int:
        """4 a switch could not be verified; 1 a check of severity error failed (warnings,
        like lint's under --fail-on error, are reported but pass); 0 otherwise."""
        if (self.devices.unverified() if isinstance(self.devices, Reports)
                else any(d.errors for d in self.devices)):
            return EXIT_DEVICE
        return EXIT_FINDINGS if any(c.severity == "error" for c in self.failed()) else 0


def verify_device(target: Target, plan: DevicePlan, desired: Desired, opts: Options,
                  state: State | None, interval: float = 0.0,
                  max_pauses: int = 0, origins: dict[str, int] | None = None,
                  bounds: checks.PrefixBounds | None = None) -> DeviceReport:
    """Config check, then the state checks, over one connection (a second one for the state
    when the config check failed on the way: the first may be in no state to go on)."""
    start = time.perf_counter()
    report = DeviceReport(target.name, target.nos)
    got: DeviceState | None = None
    try:
        with Connection(target, opts.timeout) as driver:
            diff: DiffResult = diff_device(target, desired, opts, state, driver)
            if diff.status in ("drift", "unchanged"):
                got = _read(report, lambda: read_state(driver, target, interval))
    except DeviceError as exc:
        if exc.stage != "connect":
            raise  # pragma: no cover - read_state and diff_device report their own
        diff = DiffResult(target.name, "unreachable", error=exc.message, stage=exc.stage)
    if diff.status in ("drift", "unchanged"):
        report.checks += checks.config(target.name, diff.status, diff.meaning, diff.diff)
    else:
        _error(report, f"config check: {diff.stage}: {diff.error}")
        if diff.status == "unreachable":
            report.seconds = time.perf_counter() - start
            return report
        got = _read(report, lambda: collect(target, opts.timeout, interval))
    if got is not None:
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


def _read(report: DeviceReport, read: Callable[[], DeviceState]) -> DeviceState | None:
    """The switch's state, or None with the failure reported (VFY020)."""
    try:
        return read()
    except DeviceError as exc:
        _error(report, f"{exc.stage}: {exc.message}")
        return None


def _error(report: DeviceReport, message: str) -> None:
    report.errors.append(message)
    report.checks.append(Check("VFY020", report.device, None, False, message))


def verify_fleet(targets: list[Target], plans: Mapping[str, DevicePlan],
                 desired: Mapping[str, Desired], opts: Options, state: State | None,
                 fabric: str, file: str | None,
                 progress: Callable[[object], None] | None = None, interval: float = 0.0,
                 max_pauses: int = 0, origins: dict[str, int] | None = None,
                 bounds: checks.PrefixBounds | None = None) -> VerifyResult:
    start = time.perf_counter()
    #: each switch's report, packed as soon as it is made, with its failed checks
    by_name: dict[str, Packed] = {}

    def one(t: Target) -> DiffResult:
        report = verify_device(t, plans[t.name], desired[t.name], opts, state, interval,
                               max_pauses, origins, bounds)
        by_name[t.name] = packed(report)
        return DiffResult(t.name, "verified")

    # each login reads a known_hosts of its switch's own lines (netcfg/deploy/known_hosts.py)
    pool(targets, one, opts.workers, progress)
    reports = Reports()
    for t in targets:
        if t.name in by_name:
            reports.add(by_name.pop(t.name))
    return VerifyResult(fabric, file, reports, time.perf_counter() - start)


def verify_validated(validation: Validation, connect: Path, devices: tuple[str, ...] = (),
                     roles: tuple[str, ...] = (), workers: int = 16, timeout: int = 60,
                     state: Path | None = None, base: Path | None = None,
                     file: str | None = None, interval: float = 0.0,
                     max_pauses: int = 0) -> VerifyResult:
    """`netcfg verify` for a validated intent and a devices file (`api.verify`). Raises
    TargetError for a selection or devices file that cannot be used."""
    from netcfg.deploy.desired import LazyDesired
    from netcfg.deploy.targets import TargetError, from_devices_file, select, with_trust
    from netcfg.render.plan import PlanBuilder

    fabric, physics = validation.fabric, validation.physics
    assert fabric is not None and physics is not None
    chosen = select(fabric, devices, roles)
    if not chosen:
        raise TargetError("no switch matches the selection")
    targets = with_trust(from_devices_file(fabric, chosen, connect))
    desired = LazyDesired(fabric, physics, chosen, None, base, state)
    builder = PlanBuilder(fabric, physics)
    plans = Plans(builder, chosen)
    return verify_fleet(targets, plans, desired, Options(timeout=timeout, workers=workers),
                        state, fabric.name, file, None, interval, max_pauses,
                        peer_origins(builder, plans), prefix_bounds(fabric, set(plans)))


class Plans(Mapping[str, DevicePlan]):
    """The selected switches' plans, each built when asked and not held: a fleet's workers
    need one switch's at a time (the configs rendered from them likewise: LazyDesired)."""

    def __init__(self, builder: PlanBuilder, devices: Iterable[Device]) -> None:
        self.builder = builder
        self._devices = {d.name: d for d in devices}
        self._lock = threading.Lock()

    def __getitem__(self, name: str) -> DevicePlan:
        with self._lock:
            return self.builder.plan(self._devices[name])

    def __iter__(self) -> Iterator[str]:
        return iter(self._devices)

    def __len__(self) -> int:
        return len(self._devices)


def peer_origins(builder: PlanBuilder, plans: Mapping[str, DevicePlan]) -> dict[str, int]:
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
