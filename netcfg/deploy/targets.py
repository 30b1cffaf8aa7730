"""Which devices a deploy command talks to, and how to reach them.

Connection details come from the intent (management address, `devices.yaml` port and
credentials, the platform's NOS) or, for a rehearsal, from the devices file `netcfg lab`
writes (`--connect FILE`), which also carries the lab's CA and known_hosts. Selection
(`--device`, `--role`, `--limit`) and sharding (`--shard I/N`) are deterministic, so N CI
runners split a fleet without talking to each other.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import yaml

from netcfg.deploy.secrets import CredentialError, Login, check_private, remember, resolve
from netcfg.fsutil import UnreadableFile, read_regular
from netcfg.topology.fabric import Device, Fabric
from netcfg.vendors import DeployAdapter, vendor


class TargetError(Exception):
    """The selection or a device's connection details are unusable."""


@dataclass(frozen=True)
class Target:
    """One switch to deploy to: identity, where it listens, who we log in as, what we trust."""

    name: str
    role: str
    nos: str
    driver: str
    host: str
    port: int
    login: Login = field(repr=False)
    #: other listeners by protocol (NX-OS: NX-API on https plus SSH/SCP for file upload)
    ports: dict[str, int] = field(default_factory=dict)
    #: CA bundle for TLS (None: the system store); verification is on unless verify_tls=False
    ca_file: str | None = None
    verify_tls: bool = True
    #: OpenSSH known_hosts for host-key checks (None: ~/.ssh/known_hosts)
    known_hosts: str | None = None
    check_host_keys: bool = True

    @property
    def adapter(self) -> DeployAdapter:
        """How this target's NOS is committed to (its vendor's deploy adapter)."""
        return vendor(self.nos).deploy


def _switch_nos(fabric: Fabric, device: Device) -> str:
    """The device's NOS, which netcfg must be able to deploy to (a NAPALM driver)."""
    nos = fabric.platform(device).nos
    if not vendor(nos).deploy.napalm_driver:
        raise TargetError(f"{device.name}: netcfg does not deploy to {nos} devices (no NAPALM "
                          f"driver); install its rendered file with the box's own tooling")
    return nos


def select(fabric: Fabric, devices: tuple[str, ...] = (), roles: tuple[str, ...] = (),
           limit: tuple[str, ...] = (), shard: tuple[int, int] | None = None) -> list[Device]:
    """Switches matching every given filter, in name order, then this runner's shard."""
    chosen = []
    for dev in sorted(fabric.switches(), key=lambda d: d.name):
        if devices and not any(fnmatchcase(dev.name, p) for p in devices):
            continue
        if roles and dev.role not in roles:
            continue
        if limit and not any(fnmatchcase(dev.name, p) for p in limit):
            continue
        chosen.append(dev)
    if shard is not None:
        index, count = shard
        chosen = [d for d in chosen if shard_of(d.name, count) == index]
    return chosen


def shard_of(name: str, count: int) -> int:
    """1-based shard of a device: a stable hash, so adding a device moves no other one."""
    digest = hashlib.sha256(name.encode()).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def parse_shard(text: str) -> tuple[int, int]:
    index, _, count = text.partition("/")
    try:
        i, n = int(index), int(count)
    except ValueError:
        raise TargetError(f"--shard must look like I/N (e.g. 2/4), not {text!r}") from None
    if not 1 <= i <= n:
        raise TargetError(f"--shard {text}: I must be between 1 and N")
    return i, n


def from_intent(fabric: Fabric, devices: list[Device], base: Path) -> list[Target]:
    """Targets for real devices: management address, port and credentials from the intent."""
    intent = fabric.loaded.intent
    logins: dict[str, Login] = {}
    out = []
    for dev in devices:
        entry = intent.devices.get(dev.name)
        cred_name = entry.credentials if entry and entry.credentials else _only(intent.credentials)
        if cred_name is None:
            raise TargetError(f"{dev.name}: no credentials (set devices.{dev.name}.credentials "
                              "in devices.yaml)")
        if cred_name not in logins:
            try:
                logins[cred_name] = resolve(cred_name, intent.credentials[cred_name], base)
            except CredentialError as exc:
                raise TargetError(str(exc)) from None
        if dev.management is None:
            raise TargetError(f"{dev.name}: no management address (addressing.management or "
                              f"devices.{dev.name}.management)")
        nos = _switch_nos(fabric, dev)
        port = (entry.management.port if entry and entry.management and entry.management.port
                else vendor(nos).deploy.default_port)
        out.append(Target(dev.name, dev.role, nos, vendor(nos).deploy.napalm_driver,
                          dev.management.split("/")[0], port, logins[cred_name]))
    return out


def _only(credentials: dict[str, Any]) -> str | None:
    return next(iter(credentials)) if len(credentials) == 1 else None


#: a devices file for 65,000 switches stays well below this
MAX_DEVICES_FILE_BYTES = 64 * 1024 * 1024


def from_devices_file(fabric: Fabric, devices: list[Device], path: Path) -> list[Target]:
    """Targets from a devices file such as the one `netcfg lab` writes (mode 0600 required)."""
    try:
        check_private(path)
        data = yaml.safe_load(read_regular(path, MAX_DEVICES_FILE_BYTES).decode("utf-8"))
    except CredentialError as exc:
        raise TargetError(str(exc)) from None
    except UnreadableFile as exc:
        raise TargetError(f"devices file {exc}") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise TargetError(f"cannot read devices file {path}: {type(exc).__name__}") from None
    entries = data.get("devices") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        raise TargetError(f"devices file {path} has no 'devices' mapping")
    out = []
    for dev in devices:
        entry = entries.get(dev.name)
        if entry is None:
            raise TargetError(f"{dev.name}: not in devices file {path} (is the lab serving it?)")
        missing = [k for k in ("address", "username", "password", "endpoints")
                   if not isinstance(entry, dict) or k not in entry]
        if missing:
            raise TargetError(f"{dev.name}: devices file {path} lacks {', '.join(missing)}")
        _check_values(entry, f"{dev.name}: devices file {path}")
        nos = _switch_nos(fabric, dev)
        if entry.get("nos", nos) != nos:
            raise TargetError(f"{dev.name}: devices file says {entry['nos']}, the intent {nos}")
        ports = _ports(entry["endpoints"], f"{dev.name}: devices file {path}")
        main = _main_port(nos, entry["endpoints"])
        out.append(Target(
            dev.name, dev.role, nos, entry.get("driver", vendor(nos).deploy.napalm_driver),
            str(entry["address"]), main,
            Login(str(entry["username"]), remember(str(entry["password"]))), ports,
            ca_file=entry.get("ca_file"), known_hosts=entry.get("known_hosts")))
    return out


#: C0 controls (newline, carriage return, tab, NUL, escape ...), DEL and C1 controls: a value
#: carrying one can end a line of an ssh_config netcfg writes and start a directive of its own
#: (ProxyCommand runs a local command), or forge a line of output
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _check_values(value: Any, where: str, key: str = "") -> None:
    """Refuse any string in a connect-file entry that holds a control character."""
    if isinstance(value, dict):
        for k, v in value.items():
            _check_values(k, where, key)
            _check_values(v, where, f"{key}.{k}" if key else str(k))
    elif isinstance(value, list):
        for item in value:
            _check_values(item, where, key)
    elif isinstance(value, str) and (bad := _CONTROL.search(value)):
        raise TargetError(f"{where}: {key or 'a key'} holds a control character "
                          f"({bad.group()!r}); refused")


def _ports(endpoints: Any, where: str) -> dict[str, int]:
    if not isinstance(endpoints, dict) or not endpoints:
        raise TargetError(f"{where}: endpoints must be a mapping of name -> {{proto, port}}")
    out = {}
    for name, ep in endpoints.items():
        port = ep.get("port") if isinstance(ep, dict) else None
        if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
            raise TargetError(f"{where}: endpoint {name} needs a port 1-65535, got {port!r}")
        out[str(name)] = port
    return out


def _main_port(nos: str, endpoints: dict[str, dict[str, Any]]) -> int:
    want = vendor(nos).deploy.protocol
    for ep in endpoints.values():
        if ep.get("proto") == want:
            return int(ep["port"])
    raise TargetError(f"no {want} endpoint for a {nos} device in the devices file")


def with_trust(targets: list[Target], *, ca_file: str | None = None,
               known_hosts: str | None = None, insecure_tls: bool = False,
               no_host_key_check: bool = False) -> list[Target]:
    """Apply the command line's trust options (explicit opt-outs only)."""
    _check_values({"ca_file": ca_file or "", "known_hosts": known_hosts or ""}, "command line")
    out = []
    for t in targets:
        out.append(replace(t, ca_file=ca_file or t.ca_file,
                           known_hosts=known_hosts or t.known_hosts,
                           verify_tls=t.verify_tls and not insecure_tls,
                           check_host_keys=t.check_host_keys and not no_host_key_check))
    _check_trust_files(out)
    return out


#: a CA bundle or known_hosts file larger than this is not one
TRUST_FILE_LIMIT = 16 * 2**20


def _check_trust_files(targets: list[Target]) -> None:
    """Every CA bundle and known_hosts file a target will use is a readable regular file,
    checked before any device is touched: a missing one would otherwise surface per device
    as a connection failure, deep in a driver's words."""
    from netcfg.fsutil import UnreadableFile, read_regular

    used = {(what, path) for t in targets for what, path, on in (
        ("CA file", t.ca_file, t.verify_tls), ("known_hosts file", t.known_hosts,
                                                t.check_host_keys)) if path and on}
    for what, path in sorted(used):
        try:
            read_regular(path, TRUST_FILE_LIMIT)
        except UnreadableFile as exc:
            raise TargetError(f"{what} {path}: {exc.reason}") from None
