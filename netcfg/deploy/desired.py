"""What each selected device should run: rendered from the intent now, or the files a GitOps
review approved (`--configs DIR`, as written by `netcfg render`). Either way the meaning-level
facts come from the intent's plan, so drift and post-checks speak of PFC, ECN and DSCP."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path

from netcfg.deploy.engine import Desired
from netcfg.deploy.preserve import device_wins
from netcfg.deploy.runs import State
from netcfg.deploy.secrets import CredentialError, Secret, remember_shapes
from netcfg.fsutil import UnreadableFile, read_regular
from netcfg.intent.yamlsrc import MAX_FILE_BYTES
from netcfg.physics import Physics
from netcfg.render.engine import Hashes, file_name, render_plan
from netcfg.render.plan import AAA_KEY, SESSION_KEY, SNMP_COMMUNITY, PlanBuilder
from netcfg.topology.fabric import Device, Fabric
from netcfg.vendors import vendor


def with_history(desired: dict[str, Desired], state: State) -> dict[str, Desired]:
    """Each device's Desired with the config netcfg last left on it (runs.last_written), so
    that a section netcfg wrote there and the intent dropped is removed, not kept as the
    device's own (netcfg/deploy/preserve.py)."""
    from dataclasses import replace

    from netcfg.deploy.runs import last_written

    files = last_written(state)
    return {name: replace(d, written=files.get(name)) for name, d in desired.items()}


class DesiredError(Exception):
    """A config to deploy is missing or unreadable."""


def desired_configs(fabric: Fabric, physics: Physics, devices: list[Device],
                    configs: Path | None = None, base: Path | None = None) -> dict[str, Desired]:
    """`base`: the inventory directory (a session key's file is relative to it)."""
    make = DesiredMaker(fabric, physics, configs, base)
    return {dev.name: make(dev) for dev in devices}


class DesiredMaker:
    """One device's Desired as `desired_configs` makes each: its plan, its config rendered
    (or read from `configs`), the hash and the secrets filled."""

    def __init__(self, fabric: Fabric, physics: Physics, configs: Path | None = None,
                 base: Path | None = None) -> None:
        self.fabric, self.configs = fabric, configs
        self.builder = PlanBuilder(fabric, physics)
        self.secrets = _Placeholders(fabric, base)
        self.root = Hashes(fabric)

    def __call__(self, dev: Device) -> Desired:
        fabric, configs = self.fabric, self.configs
        plan = self.builder.plan(dev)
        if configs is None:
            text = render_plan(plan)
        else:
            path = configs / file_name(plan)
            try:  # bounded as the intent is: a FIFO or /dev/zero is refused, not read on
                text = read_regular(path, MAX_FILE_BYTES).decode("utf-8")
            except UnreadableFile as exc:
                raise DesiredError(f"{dev.name}: cannot read {path}: {exc.reason}") from None
            except UnicodeDecodeError:
                raise DesiredError(f"{dev.name}: cannot read {path}: not UTF-8") from None
        try:  # rendered here (files `netcfg render` wrote have the hash filled in)
            text = self.root.fill(text)
        except CredentialError as exc:
            raise DesiredError(str(exc)) from None
        stored = text  # kept at rest with the placeholders (runs/*/candidate)
        text = self.secrets.fill(text)
        if stored != text:  # what stands where a secret goes is masked, whoever's it is
            remember_shapes(stored)
        nos = vendor(plan.nos)
        return Desired(text, nos.expected(plan), partial(nos.read, plan=plan),
                       device_wins=device_wins(fabric.loaded.intent),
                       preserve=tuple(fabric.loaded.intent.management.preserve),
                       stored=stored if stored != text else None)


class LazyDesired(Mapping[str, Desired]):
    """`with_history(desired_configs(...), state)` for a command that needs one device's at a
    time (verify: gpu32768's 2,560 configs and plans held together are about 0.7 GiB). Every
    device's is made once here and dropped, so a config that cannot be made (a file missing,
    a secret unreadable) still stops the command before any device is touched; each is made
    again when asked, and not kept. The fleet's workers ask from their threads: one is made
    at a time."""

    def __init__(self, fabric: Fabric, physics: Physics, devices: list[Device],
                 configs: Path | None = None, base: Path | None = None,
                 state: State | None = None) -> None:
        from netcfg.deploy.runs import last_written

        self._make = DesiredMaker(fabric, physics, configs, base)
        self._devices = {d.name: d for d in devices}
        self._written = last_written(state) if state is not None else None
        self._lock = threading.Lock()
        for dev in devices:
            self._make(dev)

    def __getitem__(self, name: str) -> Desired:
        with self._lock:
            made = self._make(self._devices[name])
        if self._written is None:
            return made
        return replace(made, written=self._written.get(name))

    def __iter__(self) -> Iterator[str]:
        return iter(self._devices)

    def __len__(self) -> int:
        return len(self._devices)


class _Placeholders:
    """Fills the placeholders rendered files hold where a secret goes (a BGP session's key,
    the SNMP community, the TACACS+ or RADIUS key) with the secret the intent names: read only
    now, once, and only where a file holds its placeholder; `redact` then masks it in every
    diff, error and journal line.
    A missing or malformed reference is a DesiredError naming the intent entry, never the
    value."""

    def __init__(self, fabric: Fabric, base: Path | None) -> None:
        self.fabric, self.base = fabric, base
        self._read: dict[str, Secret] = {}

    def fill(self, text: str) -> str:
        for placeholder in (SESSION_KEY, SNMP_COMMUNITY, AAA_KEY):
            if placeholder in text:
                if placeholder not in self._read:
                    self._read[placeholder] = self._secret(placeholder)
                text = text.replace(placeholder, self._read[placeholder].reveal())
        return text

    def _secret(self, placeholder: str) -> Secret:
        from netcfg.deploy.secrets import aaa_key, session_key, snmp_community

        management = self.fabric.loaded.intent.management
        #: placeholder -> (the intent's reference, where it lives, how it is read)
        sources = {
            SESSION_KEY: (self.fabric.loaded.intent.routing.authentication,
                          "routing.authentication", session_key),
            SNMP_COMMUNITY: (management.snmp.community if management.snmp else None,
                             "management.snmp.community", snmp_community),
            AAA_KEY: (management.aaa.key if management.aaa else None, "management.aaa.key",
                      aaa_key),
        }
        ref, where, read = sources[placeholder]
        if ref is None:
            raise DesiredError(f"the configs hold {placeholder} placeholders but the intent has "
                               f"no {where} to fill them from")
        try:
            return read(ref, self.base)
        except CredentialError as exc:
            raise DesiredError(str(exc)) from None
