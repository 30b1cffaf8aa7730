"""Open a NAPALM driver for a target with verification on, and name every failure plainly.

Each driver takes its trust settings differently (pyeapi an SSLContext, NX-API a `verify` path, PyEZ
an ssh_config plus a host-key flag NAPALM does not expose, netmiko known_hosts); each vendor's
`DeployAdapter.driver_options` knows its own. Drivers raise their transports' own exceptions
(pyeapi, PyEZ, requests, netmiko, paramiko); `describe()` turns any of them into one line
without credentials.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import napalm
from napalm.base import NetworkDriver

from netcfg.deploy.known_hosts import login_known_hosts
from netcfg.deploy.secrets import redact
from netcfg.deploy.targets import Target


class DeviceError(Exception):
    """A step failed on one device; `stage` says which (connect, load, commit, ...)."""

    def __init__(self, device: str, stage: str, message: str) -> None:
        super().__init__(f"{device}: {stage} failed: {message}")
        self.device, self.stage, self.message = device, stage, message


def describe(exc: BaseException) -> str:
    """One line naming the error type and its text, with any password scrubbed. Drivers
    wrap the error that matters (PyEZ turns an unknown host key into ConnectRefusedError,
    NAPALM's NX-OS driver a certificate failure into "Cannot connect"): the root of the
    chain is added when the wrapper does not say it, and a trust failure is named as one."""
    root = _root(exc)
    line = _one(exc)
    if root is not exc and _one(root).split(": ", 1)[-1] not in line:
        line += f" (cause: {_one(root)})"
    trust = _trust_failure(root)
    return redact(f"{trust}: {line}" if trust else line)[:500]


def _one(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or repr(exc)
    return f"{type(exc).__name__}: {text}"


def _root(exc: BaseException) -> BaseException:
    seen = {id(exc)}
    while True:
        nxt = exc.__cause__ or exc.__context__
        if nxt is None or id(nxt) in seen:
            return exc
        seen.add(id(nxt))
        exc = nxt


def _trust_failure(root: BaseException) -> str:
    """What the error says about trust, named with the option that configures it."""
    import ssl

    text = str(root).lower()
    if isinstance(root, ssl.SSLCertVerificationError) or "certificate verify failed" in text:
        return "TLS certificate not trusted (give its CA with --ca-file)"
    if ("known_hosts" in text or "host key" in text
            or type(root).__name__ in ("SSHUnknownHostError", "BadHostKeyException")):
        return "SSH host key not trusted (add it to --known-hosts or ~/.ssh/known_hosts)"
    return ""


def driver_kwargs(target: Target, timeout: int, workdir: Path) -> dict[str, Any]:
    """Constructor arguments for the target's NAPALM driver class."""
    args: dict[str, Any] = {"port": target.port}
    args.update(target.adapter.driver_options(target, timeout, workdir))
    return {"hostname": target.host, "username": target.login.username,
            "password": target.login.password.reveal(), "timeout": timeout,
            "optional_args": args}


def make_driver(target: Target, timeout: int, workdir: Path) -> NetworkDriver:
    cls = napalm.get_network_driver(target.driver)
    driver = cls(**driver_kwargs(target, timeout, workdir))
    target.adapter.prepare(driver, target)
    return driver


def ssh_config(workdir: Path, target: Target, options: dict[str, str], host: str = "*") -> str:
    """Write an ssh_config for one target (paramiko reads it for netmiko and PyEZ); returns
    its path. Every value is quoted, and one that cannot be quoted (a double quote or a
    control character in it) is refused rather than written."""
    lines = [f"Host {_ssh_value(host, target)}"]
    lines += [f"  {key} {_ssh_value(value, target)}" for key, value in options.items()]
    path = workdir / f"{target.name}.ssh_config"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _ssh_value(value: str, target: Target) -> str:
    if '"' in value or any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise DeviceError(target.name, "connect", f"cannot write {value!r} into an ssh_config")
    return f'"{value}"'


class Connection:
    """An opened driver that is always closed in the thread that opened it."""

    def __init__(self, target: Target, timeout: int = 60) -> None:
        self.target = target
        self._tmp = tempfile.TemporaryDirectory(prefix="netcfg-ssh-")
        workdir = Path(self._tmp.name)
        # the SSH client parses its known_hosts whole on every login: give it the switch's
        # own lines (known_hosts.py), the same check at a fleet's size
        self.driver = make_driver(login_known_hosts(target, workdir), timeout, workdir)

    def __enter__(self) -> NetworkDriver:
        try:
            self.driver.open()
        except Exception as exc:  # noqa: BLE001 - every transport has its own exceptions
            self._cleanup()
            raise DeviceError(self.target.name, "connect", describe(exc)) from None
        return self.driver

    def __exit__(self, *exc: object) -> None:
        try:
            self.driver.close()
        except Exception:  # noqa: BLE001 - the device may have gone away; nothing to save
            pass
        self._cleanup()

    def _cleanup(self) -> None:
        if hasattr(self.driver, "config_session"):
            self.driver.config_session = None  # EOS: no abort attempt from a finaliser
        self._tmp.cleanup()
