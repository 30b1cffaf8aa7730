"""Nornir integration: an inventory built from a netcfg intent, and tasks that render, diff,
push, roll back and verify through netcfg's own engine (docs/nornir.md).

    from nornir import InitNornir
    nr = InitNornir(inventory={"plugin": "NetcfgInventory",
                               "options": {"path": "inventories/multivendor"}})
    nr.filter(role="leaf").run(task=netcfg_diff)
    nr.run(task=netcfg_push)          # one fleet push: one run, canary then batches

The inventory gives every switch of the fabric as a host: its management address and port,
the NAPALM driver of its NOS as `platform` (nornir_napalm's `napalm_get` and friends work as
they are), groups per role and NOS (`role_leaf`, `nos_eos`), the credentials netcfg resolves
(environment or 0600 file, or a `--connect` devices file) and NAPALM `optional_args` with
netcfg's trust settings (CA file, known_hosts, ports). Each host's `data` holds only plain
values (so `Inventory.dict()` serialises); the netcfg objects behind them (targets, rendered
configs, the state) stay with the inventory, which the tasks find through `data["netcfg"]`.

`netcfg_push` and `netcfg_rollback` are fleet tasks: the host tasks of one `nr.run` join one
fleet operation, which the first of them starts on all the run's hosts and the others wait
for. A push is then `netcfg push`'s: one run, its deadlock gate, canary, batches, stop and
roll back past `max_failures` (the engine's `push_fleet`); a rollback is `netcfg rollback`'s
(`runs.choose_rollback`, the engine's `restore_device`). Runs and locks live where `netcfg
push` keeps them (`state`, else NETCFG_STATE, else the fabric's default directory; a
postgresql:// URL is the team's shared state).
"""

from __future__ import annotations

import atexit
import itertools
import shutil
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nornir.core.inventory import (
    ConnectionOptions,
    Defaults,
    Group,
    Groups,
    Host,
    Hosts,
    Inventory,
    ParentGroups,
)
from nornir.core.task import Result, Task

from netcfg.deploy.engine import Options, diff_device
from netcfg.deploy.runs import State, open_state, prepare_state, private_dir
from netcfg.vendors import vendor

#: the key of each host's `data` that the tasks read (plain values only: see `_Shared`)
NETCFG = "netcfg"


class NetcfgInventoryError(Exception):
    """The intent or its devices cannot make an inventory (the message says why)."""


class FleetRefused(Exception):
    """A fleet push or rollback that did not start: nothing was touched (one line)."""


#: inventories loaded in this process, by the token their hosts' data carry: a host's data
#: must serialise (`Inventory.dict()`), so the objects behind it are found here. Nornir keeps
#: its hosts for the life of the program and drops the plugin: each load stays until exit.
_LOADED: dict[str, _Shared] = {}
_TOKENS = itertools.count(1)


class NetcfgInventory:
    """Nornir inventory plugin: the switches of a netcfg intent."""

    def __init__(self, path: str, connect: str | None = None, devices: list[str] | None = None,
                 ca_file: str | None = None, known_hosts: str | None = None,
                 state: str | None = None, timeout: int = 60) -> None:
        """`devices`: name globs (default every switch); `connect`: a devices file such as
        the one `netcfg lab` writes; `state`: where runs and locks live, as `netcfg push
        --state` (a directory or a postgresql:// URL; default NETCFG_STATE, else `netcfg
        push`'s default, so the two see each other's runs and locks)."""
        self.path = Path(path)
        self.devices = tuple(devices or ())
        self.connect = Path(connect) if connect else None
        self.ca_file, self.known_hosts = ca_file, known_hosts
        try:
            self.state: State = open_state(state, self.path)
        except ValueError as exc:
            raise NetcfgInventoryError(str(exc)) from None
        self.timeout = timeout

    def load(self) -> Inventory:
        from netcfg.deploy.connect import driver_kwargs
        from netcfg.deploy.desired import DesiredError, desired_configs
        from netcfg.deploy.targets import (
            TargetError,
            from_devices_file,
            from_intent,
            select,
            with_trust,
        )
        from netcfg.validate import validate

        result = validate(self.path)
        if not result.ok or result.fabric is None or result.physics is None:
            errors = [f.text() for f in result.findings if f.severity == "error"]
            raise NetcfgInventoryError(f"{self.path}: the intent is invalid: "
                                       + "; ".join(errors[:3]))
        fabric = result.fabric
        base = self.path if self.path.is_dir() else self.path.parent
        chosen = select(fabric, self.devices)
        if not chosen:
            raise NetcfgInventoryError(f"no switch of {self.path} matches {list(self.devices)}")
        try:
            targets = (from_devices_file(fabric, chosen, self.connect) if self.connect
                       else from_intent(fabric, chosen, base))
            targets = with_trust(targets, ca_file=self.ca_file, known_hosts=self.known_hosts)
            desired = desired_configs(fabric, result.physics, chosen, None, base)
        except (TargetError, DesiredError) as exc:
            raise NetcfgInventoryError(str(exc)) from None
        token = f"{self.path.name}-{next(_TOKENS)}"
        shared = _LOADED[token] = _Shared(fabric, result.physics, self.state,
                                          {t.name: t for t in targets}, desired)
        workdir = _workdir(self.state)
        groups = Groups()
        hosts = Hosts()
        for t in targets:
            parents = ParentGroups()
            for name in (f"role_{t.role}", f"nos_{t.nos}"):
                if name not in groups:
                    groups[name] = Group(name=name, data={})
                parents.append(groups[name])
            kwargs = driver_kwargs(t, self.timeout, workdir)
            # plain NAPALM tasks load unmerged files: netcfg's drivers keep the device's own
            # sections themselves then (the engine, which merges first, turns that off)
            kwargs["optional_args"].pop("keep_device_local", None)
            _plain_tls(kwargs["optional_args"], t)
            napalm = ConnectionOptions(extras={"optional_args": kwargs["optional_args"],
                                               "timeout": kwargs["timeout"]})
            hosts[t.name] = Host(
                name=t.name, hostname=t.host, port=t.port, username=t.login.username,
                password=t.login.password.reveal(), platform=_platform(t), groups=parents,
                data={"role": t.role, "nos": t.nos,
                      NETCFG: {"inventory": token, "fabric": fabric.name,
                               "path": str(self.path), "state": str(shared.state),
                               "driver": t.driver}},
                connection_options={"napalm": napalm})
        return Inventory(hosts=hosts, groups=groups, defaults=Defaults())


def _plain_tls(args: dict[str, Any], target: Any) -> None:
    """netcfg's NAPALM drivers take the TLS trust as plain values (`tls`: CA file, verify)
    and build pyeapi's SSLContext themselves, so the connection options serialise; another
    driver a devices file names keeps the SSLContext."""
    import ssl

    if isinstance(args.get("context"), ssl.SSLContext) and _platform(target).startswith(
            "netcfg_"):
        del args["context"]
        args["tls"] = {"ca_file": target.ca_file, "verify": target.verify_tls}


def _workdir(state: State) -> Path:
    """Where the ssh_config files some drivers are given live (NX-OS's SCP port, Junos's
    known_hosts): under a state directory, since Nornir keeps the hosts and drops the
    inventory plugin after `load` (a temporary directory went with it); for a PostgreSQL
    state, a private directory of the process, removed at its exit."""
    if isinstance(state, Path):  # made as a run makes it: 0700, ignoring itself in git
        return private_dir(prepare_state(state) / "nornir")
    where = Path(tempfile.mkdtemp(prefix="netcfg-nornir-"))
    atexit.register(shutil.rmtree, where, True)
    return where


@dataclass
class _Shared:
    """What the hosts of one inventory share: the fabric, its state, each host's target and
    rendered config, the plans netcfg_verify builds, and the fleet operations in progress."""

    fabric: Any
    physics: Any
    state: State
    targets: dict[str, Any]
    desired: dict[str, Any]
    plans: _Plans = field(init=False)
    fleets: _Fleets = field(init=False)

    def __post_init__(self) -> None:
        self.plans = _Plans(self.fabric, self.physics)
        self.fleets = _Fleets()


class _Fleet:
    """One fleet operation of one `nr.run`: the hosts it covers, their outcomes when done."""

    def __init__(self, nornir: Any, kind: tuple[Any, ...], members: list[str]) -> None:
        self.nornir, self.kind, self.members = nornir, kind, members
        self.waiting = set(members)  # host tasks of the run that have not joined yet
        self.done = threading.Event()
        self.outcome: dict[str, Result] = {}
        self.error: Exception | None = None


class _Fleets:
    """The host tasks of one `nr.run` meet here. Nornir runs a task once per host (each in a
    thread of its runner, or one after the other), and every task of one run sees the same
    Nornir object: the first task of a run starts the fleet operation on every host the run
    selects (the hosts of its inventory that Nornir has not marked failed) and performs it;
    the others wait for it and return their host's outcome. Once every member has joined,
    the next run of the same Nornir object starts a fleet of its own."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: list[_Fleet] = []

    def join(self, task: Task, kind: tuple[Any, ...],
             perform: Callable[[list[str]], dict[str, Result]]) -> Result:
        name = task.host.name
        with self._lock:
            fleet = next((f for f in self._open if f.nornir is task.nornir and f.kind == kind
                          and name in f.waiting), None)
            first = fleet is None
            if fleet is None:
                nornir = task.nornir
                members = sorted(h for h in nornir.inventory.hosts
                                 if h not in nornir.data.failed_hosts)
                if name not in members:
                    raise FleetRefused(
                        f"{name} is marked failed by an earlier Nornir run and is not part of "
                        "this fleet operation: nr.data.reset_failed_hosts() and run it again")
                fleet = _Fleet(nornir, kind, members)
                self._open.append(fleet)
            fleet.waiting.discard(name)
            if not fleet.waiting:
                self._open.remove(fleet)
        if first:
            try:
                fleet.outcome = perform(fleet.members)
            except Exception as exc:  # noqa: BLE001 - every member reports it
                fleet.error = exc
            finally:
                fleet.done.set()
        fleet.done.wait()
        if fleet.error is not None:
            raise fleet.error
        return fleet.outcome[name]


class _Plans:
    """Each host's DevicePlan and its peers' originated prefix counts, built once on first
    use (under a lock: Nornir's threaded runner asks from many hosts at once)."""

    def __init__(self, fabric: Any, physics: Any) -> None:
        self.fabric, self.physics = fabric, physics
        self._lock = threading.Lock()
        self._builder: Any = None

    def plan_and_origins(self, name: str) -> tuple[Any, dict[str, int]]:
        from netcfg.render.plan import PlanBuilder
        from netcfg.verify.run import peer_origins

        with self._lock:
            if self._builder is None:
                self._builder = PlanBuilder(self.fabric, self.physics)
            plan = self._builder.plan(self.fabric.devices[name])
            return plan, peer_origins(self._builder, {name: plan})


def _platform(target: Any) -> str:
    """The NAPALM driver plain NAPALM tasks use for this host: the NOS's driver that keeps
    the device's own logins and AAA in a replace (netcfg_eos, netcfg_nxos, netcfg_junos,
    netcfg_sonic, netcfg_cumulus), unless the devices file names another driver."""
    adapter = vendor(target.nos).deploy
    if target.driver == adapter.napalm_driver and adapter.plain_driver:
        return adapter.plain_driver
    return str(target.driver)


def _shared(task: Task) -> _Shared:
    data = task.host.data.get(NETCFG)
    shared = _LOADED.get(data.get("inventory", "")) if isinstance(data, dict) else None
    if shared is None or task.host.name not in shared.targets:
        raise NetcfgInventoryError(f"{task.host.name} is not from a NetcfgInventory")
    return shared


def netcfg_render(task: Task) -> Result:
    """The config netcfg renders for this host (what `netcfg render` writes)."""
    return Result(host=task.host, result=_shared(task).desired[task.host.name].text)


def netcfg_diff(task: Task, timeout: int = 60) -> Result:
    """The device's own diff against the rendered config, and the drift by meaning, under the
    device's shared lock (as `netcfg diff`). `changed` when the device differs."""
    from netcfg.deploy.desired import with_history

    shared, name = _shared(task), task.host.name
    desired = with_history({name: shared.desired[name]}, shared.state)[name]
    r = diff_device(shared.targets[name], desired, Options(timeout=timeout), shared.state)
    return Result(host=task.host, result=r.as_dict(), diff=r.diff, changed=r.status == "drift",
                  failed=r.status in ("failed", "unreachable", "skipped"))


#: a push's outcomes that fail its host (the fleet's restored devices among them)
_PUSH_FAILED = ("failed", "unreachable", "reverted", "skipped", "rolled-back")


def netcfg_push(task: Task, dry_run: bool | None = None, revert_in: int = 300,
                timeout: int = 60, allow_removal: tuple[str, ...] = (),
                allow_disruptive: bool = False, canary: int = 1, batch_size: int = 10,
                max_failures: int = 0, workers: int = 16,
                no_deadlock_check: bool = False) -> Result:
    """`netcfg push` of the hosts of this Nornir run, as one fleet and one run: the deadlock
    gate, then the canary alone, then batches; per device lock, backup, replace with the
    device's logins kept, commit with its revert timer, post-checks, confirm; past
    `max_failures` failed devices the run stops and restores the devices it changed. Each
    host's result is its device's outcome, with `run` (for `netcfg rollback --run` or
    `netcfg_rollback`) and `aborted`. `dry_run` (default Nornir's own dry-run setting)
    commits nothing."""
    shared = _shared(task)
    dry = task.is_dry_run(dry_run)
    opts = Options(timeout=timeout, revert_in=revert_in, dry_run=dry, workers=workers,
                   canary=canary, batch_size=batch_size, max_failures=max_failures,
                   allow_removal=tuple(allow_removal), allow_disruptive=allow_disruptive)
    kind = ("push", repr(opts), no_deadlock_check)
    return shared.fleets.join(task, kind,
                              lambda names: _push(shared, names, opts, no_deadlock_check, task))


def _push(shared: _Shared, names: list[str], opts: Options, skip_gate: bool,
          task: Task) -> dict[str, Result]:
    from netcfg.deadlock import gate
    from netcfg.deploy.desired import with_history
    from netcfg.deploy.engine import push_fleet
    from netcfg.deploy.runs import FleetBusy, Run

    said: list[str] = []
    if not gate.passes(shared.fabric, skip_gate, said.append):
        raise FleetRefused("the fabric can deadlock; no device was touched (see `netcfg "
                           "deadlock`; no_deadlock_check=True pushes anyway): "
                           + "; ".join(line for line in said if line.startswith("error"))[:500])
    targets = [shared.targets[n] for n in names]
    desired = with_history({n: shared.desired[n] for n in names}, shared.state)
    try:
        run = Run(shared.state, command="push --dry-run" if opts.dry_run else "push", live=True)
    except FleetBusy as busy:
        raise FleetRefused(busy.push_refusal()) from None
    try:
        run.record("-", "nornir", hosts=names)
        results, aborted = push_fleet(targets, desired, run, opts, threading.Event())
    finally:
        run.close()
    hosts = task.nornir.inventory.hosts
    out: dict[str, Result] = {}
    for r in results:
        out[r.device] = Result(
            host=hosts[r.device], result={**r.as_dict(), "run": run.id, "aborted": aborted},
            diff=r.diff, changed=r.status in ("confirmed", "changed"),
            failed=r.status in _PUSH_FAILED or (aborted and r.status != "unchanged"))
    for name in names:
        if name not in out:  # the run stopped before this device
            out[name] = Result(host=hosts[name], failed=True,
                               result={"device": name, "status": "not-started", "run": run.id,
                                       "aborted": aborted,
                                       "error": "the run stopped before this device"})
    return out


def netcfg_rollback(task: Task, run: str | None = None, timeout: int = 60,
                    workers: int = 16) -> Result:
    """`netcfg rollback` of the hosts of this Nornir run, as one fleet: the saved configs of
    run `run` (default the latest push that changed devices) put back on the hosts it
    changed, with the commit timer, check and confirm. Refused, every host failed with the
    one-line reason and nothing touched, while a push of the same state is running, or when
    the run changed none of the hosts. A host the run did not change is not touched (not
    failed, not changed)."""
    shared = _shared(task)
    opts = Options(timeout=timeout, workers=workers)
    return shared.fleets.join(task, ("rollback", run, repr(opts)),
                              lambda names: _rollback(shared, names, run, opts, task))


def _rollback(shared: _Shared, names: list[str], run_id: str | None, opts: Options,
              task: Task) -> dict[str, Result]:
    from netcfg.deploy.engine import pool, restore_device
    from netcfg.deploy.runs import RollbackRefused, choose_rollback

    try:
        run, devices, fleet = choose_rollback(shared.state, run_id, set(names))
    except RollbackRefused as exc:
        raise FleetRefused(str(exc)) from None
    try:  # no push of the state starts until the rollback is done
        run.record("-", "rollback", command="rollback", via="nornir")
        results = pool([shared.targets[n] for n in devices],
                       lambda t: restore_device(t, run.saved("backup", t.name) or "", run,
                                                opts), opts.workers)
    finally:
        fleet.release()
    hosts = task.nornir.inventory.hosts
    out = {r.device: Result(host=hosts[r.device], result={**r.as_dict(), "run": run.id},
                            changed=r.status == "rolled-back",
                            failed=r.status not in ("rolled-back", "unchanged"))
           for r in results}
    for name in names:
        out.setdefault(name, Result(host=hosts[name], result={
            "device": name, "status": "not-changed-by-run", "run": run.id}))
    return out


def netcfg_verify(task: Task, timeout: int = 60, interval: float = 0.0,
                  max_pauses: int = 0) -> Result:
    """Check this host as `netcfg verify` checks one switch (docs/verify.md): the config
    (what `netcfg diff` computes), then its state through NAPALM getters against its plan:
    LLDP neighbours, ports, BGP sessions and, where netcfg reads them, PFC and queues (with
    `interval`, counters read twice). The result lists every check; `failed` when a check of
    severity error failed or the switch could not be read."""
    from netcfg.verify.run import verify_device

    shared, name = _shared(task), task.host.name
    plan, origins = shared.plans.plan_and_origins(name)
    report = verify_device(shared.targets[name], plan, shared.desired[name],
                           Options(timeout=timeout), shared.state, interval, max_pauses,
                           origins)
    checks = [{"rule": c.rule, "severity": c.severity, "interface": c.interface, "ok": c.ok,
               "message": c.message} for c in report.checks]
    bad = bool(report.errors) or any(not c.ok and c.severity == "error" for c in report.checks)
    return Result(host=task.host, failed=bad,
                  result={"device": report.device, "nos": report.nos, "checks": checks,
                          "errors": report.errors, "not_checked": report.not_checked})
