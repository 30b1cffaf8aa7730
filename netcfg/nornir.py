"""Nornir integration: an inventory built from a netcfg intent, and tasks that render, diff and
push one host through netcfg's own engine (docs/nornir.md).

    from nornir import InitNornir
    nr = InitNornir(inventory={"plugin": "NetcfgInventory",
                               "options": {"path": "inventories/multivendor"}})
    nr.filter(role="leaf").run(task=netcfg_diff)

The inventory gives every switch of the fabric as a host: its management address and port,
the NAPALM driver of its NOS as `platform` (nornir_napalm's `napalm_get` and friends work as
they are), groups per role and NOS (`role_leaf`, `nos_eos`), the credentials netcfg resolves
(environment or 0600 file, or a `--connect` devices file) and NAPALM `optional_args` with
netcfg's trust settings (CA file, known_hosts, ports). The tasks use what each host's data
holds (`netcfg_target`, `netcfg_desired`), so a push through Nornir keeps every per-device
guarantee of `netcfg push`: the device lock, the backup, the device-side revert timer, the
post-checks, the settled confirm and the journal. Fleet ordering (canary, batches, stop and
roll back past --max-failures) stays `netcfg push`'s; Nornir runs hosts as its runner does.
"""

from __future__ import annotations

import threading
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

from netcfg.deploy.engine import Options, diff_device, push_device
from netcfg.deploy.runs import Run, default_state, private_dir
from netcfg.vendors import vendor

#: what each host's `data` carries for the tasks
TARGET, DESIRED, STATE = "netcfg_target", "netcfg_desired", "netcfg_state"
#: the host's plan and its BGP peers' own announcements, for netcfg_verify (built when the
#: task first asks, so render, diff and push pay nothing for them)
PLANS = "netcfg_plans"


class NetcfgInventoryError(Exception):
    """The intent or its devices cannot make an inventory (the message says why)."""


class NetcfgInventory:
    """Nornir inventory plugin: the switches of a netcfg intent."""

    def __init__(self, path: str, connect: str | None = None, devices: list[str] | None = None,
                 ca_file: str | None = None, known_hosts: str | None = None,
                 state: str | None = None, timeout: int = 60) -> None:
        """`devices`: name globs (default every switch); `connect`: a devices file such as
        the one `netcfg lab` writes; `state`: where runs and locks live (default as `netcfg
        push`'s, so the two see each other's locks)."""
        self.path = Path(path)
        self.devices = tuple(devices or ())
        self.connect = Path(connect) if connect else None
        self.ca_file, self.known_hosts = ca_file, known_hosts
        self.state = Path(state) if state else default_state(self.path)
        self.timeout = timeout
        #: where the ssh_config files some drivers are given live (NX-OS's SCP port, Junos's
        #: known_hosts): under the state directory, since Nornir keeps the hosts and drops
        #: the inventory plugin after `load` (a temporary directory went with it)
        self._workdir = self.state / "nornir"

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
        groups = Groups()
        hosts = Hosts()
        plans = _Plans(fabric, result.physics)
        for t in targets:
            parents = ParentGroups()
            for name in (f"role_{t.role}", f"nos_{t.nos}"):
                if name not in groups:
                    groups[name] = Group(name=name, data={})
                parents.append(groups[name])
            kwargs = driver_kwargs(t, self.timeout, private_dir(self._workdir))
            # plain NAPALM tasks load unmerged files: netcfg's drivers keep the device's own
            # sections themselves then (the engine, which merges first, turns that off)
            kwargs["optional_args"].pop("keep_device_local", None)
            napalm = ConnectionOptions(extras={"optional_args": kwargs["optional_args"],
                                               "timeout": kwargs["timeout"]})
            hosts[t.name] = Host(
                name=t.name, hostname=t.host, port=t.port, username=t.login.username,
                password=t.login.password.reveal(), platform=_platform(t), groups=parents,
                data={"role": t.role, "nos": t.nos, TARGET: t, DESIRED: desired[t.name],
                      STATE: self.state, PLANS: plans},
                connection_options={"napalm": napalm})
        return Inventory(hosts=hosts, groups=groups, defaults=Defaults())


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


def _netcfg(task: Task) -> tuple[Any, Any, Path]:
    data = task.host.data
    if TARGET not in data:
        raise NetcfgInventoryError(f"{task.host.name} is not from a NetcfgInventory")
    return data[TARGET], data[DESIRED], data[STATE]


def netcfg_render(task: Task) -> Result:
    """The config netcfg renders for this host (what `netcfg render` writes)."""
    _, desired, _ = _netcfg(task)
    return Result(host=task.host, result=desired.text)


def netcfg_diff(task: Task, timeout: int = 60) -> Result:
    """The device's own diff against the rendered config, and the drift by meaning, under the
    device's shared lock (as `netcfg diff`). `changed` when the device differs."""
    target, desired, state = _netcfg(task)
    r = diff_device(target, desired, Options(timeout=timeout), state)
    return Result(host=task.host, result=r.as_dict(), diff=r.diff, changed=r.status == "drift",
                  failed=r.status in ("failed", "unreachable", "skipped"))


def netcfg_push(task: Task, dry_run: bool = False, revert_in: int = 300, timeout: int = 60,
                allow_removal: tuple[str, ...] = (), allow_disruptive: bool = False) -> Result:
    """Push this host as `netcfg push` pushes one device: lock, backup, replace with the
    device's logins kept, commit with its revert timer, post-checks, confirm; journaled in a
    run of its own under the inventory's state directory."""
    target, desired, state = _netcfg(task)
    run = Run(state, command="push --dry-run" if dry_run else "push")
    opts = Options(timeout=timeout, revert_in=revert_in, dry_run=dry_run,
                   allow_removal=allow_removal, allow_disruptive=allow_disruptive)
    r = push_device(target, desired, run, opts, threading.Event())
    return Result(host=task.host, result={**r.as_dict(), "run": run.id}, diff=r.diff,
                  changed=r.status in ("confirmed", "changed"),
                  failed=r.status in ("failed", "unreachable", "reverted", "skipped"))


def netcfg_verify(task: Task, timeout: int = 60, interval: float = 0.0,
                  max_pauses: int = 0) -> Result:
    """Check this host as `netcfg verify` checks one switch (docs/verify.md): the config
    (what `netcfg diff` computes), then its state through NAPALM getters against its plan:
    LLDP neighbours, ports, BGP sessions and, where netcfg reads them, PFC and queues (with
    `interval`, counters read twice). The result lists every check; `failed` when a check of
    severity error failed or the switch could not be read."""
    from netcfg.verify.run import verify_device

    target, desired, state = _netcfg(task)
    plan, origins = task.host.data[PLANS].plan_and_origins(target.name)
    report = verify_device(target, plan, desired, Options(timeout=timeout), state, interval,
                           max_pauses, origins)
    checks = [{"rule": c.rule, "severity": c.severity, "interface": c.interface, "ok": c.ok,
               "message": c.message} for c in report.checks]
    bad = bool(report.errors) or any(not c.ok and c.severity == "error" for c in report.checks)
    return Result(host=task.host, failed=bad,
                  result={"device": report.device, "nos": report.nos, "checks": checks,
                          "errors": report.errors, "not_checked": report.not_checked})
