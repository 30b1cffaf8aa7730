"""Open a NAPALM driver for a target with verification on, and name every failure plainly.

Each driver takes its trust settings differently (pyeapi an SSLContext, NX-API a `verify`
path, PyEZ an ssh_config plus a host-key flag NAPALM does not expose, netmiko known_hosts);
this module is the one place that knows how. Drivers raise their transports' own exceptions
(pyeapi, PyEZ, requests, netmiko, paramiko); `describe()` turns any of them into one line
without credentials.
"""

from __future__ import annotations

import ssl
import tempfile
from pathlib import Path
from typing import Any

import napalm
from napalm.base import NetworkDriver

from netcfg.deploy.secrets import redact
from netcfg.deploy.targets import Target


class DeviceError(Exception):
    """A step failed on one device; `stage` says which (connect, load, commit, ...)."""

    def __init__(self, device: str, stage: str, message: str) -> None:
        super().__init__(f"{device}: {stage} failed: {message}")
        self.device, self.stage, self.message = device, stage, message


def describe(exc: BaseException) -> str:
    """One line naming the error type and its text, with any password scrubbed."""
    text = " ".join(str(exc).split()) or repr(exc)
    return redact(f"{type(exc).__name__}: {text}")[:500]


def driver_kwargs(target: Target, timeout: int, workdir: Path) -> dict[str, Any]:
    """Constructor arguments for the target's NAPALM driver class."""
    args: dict[str, Any] = {"port": target.port}
    if target.nos == "eos":
        args["transport"] = "https"
        if target.verify_tls:
            args["context"] = ssl.create_default_context(cafile=target.ca_file)
        else:
            ctx = ssl.create_default_context()
            ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
            args["context"] = ctx
    elif target.nos == "nxos":
        args["transport"] = "https"
        args["ssl_verify"] = (target.ca_file or True) if target.verify_tls else False
        # the replace candidate goes up by SCP over netmiko (host key checked like any SSH);
        # netmiko's own 10 s reads are too short for a busy switch or runner
        args["ssh_strict"] = target.check_host_keys
        args["read_timeout_override"] = timeout
        if target.known_hosts:
            args.update(system_host_keys=False, alt_host_keys=True,
                        alt_key_file=target.known_hosts)
        ssh_port = target.ports.get("ssh", 22)
        if ssh_port != 22:  # NAPALM always says 22; netmiko then takes Port from ssh_config
            config = workdir / f"{target.name}.ssh_config"
            config.write_text(f"Host {target.host}\n  Port {ssh_port}\n")
            args["ssh_config_file"] = str(config)
    elif target.nos == "junos":
        if target.check_host_keys and target.known_hosts:
            config = workdir / f"{target.name}.ssh_config"
            config.write_text(f"Host *\n  UserKnownHostsFile {target.known_hosts}\n")
            args["ssh_config_file"] = str(config)
    else:
        args["ssh_strict"] = target.check_host_keys
        args["read_timeout_override"] = timeout
        if target.known_hosts:
            args["known_hosts"] = target.known_hosts
    return {"hostname": target.host, "username": target.login.username,
            "password": target.login.password.reveal(), "timeout": timeout,
            "optional_args": args}


def make_driver(target: Target, timeout: int, workdir: Path) -> NetworkDriver:
    cls = napalm.get_network_driver(target.driver)
    driver = cls(**driver_kwargs(target, timeout, workdir))
    if target.nos == "junos":
        # NAPALM's junos driver builds PyEZ's Device without `hostkey_verify` (PyEZ default:
        # off); the documented Device option is set here so known_hosts is enforced
        driver.device._hostkey_verify = target.check_host_keys
    return driver


class Connection:
    """An opened driver that is always closed in the thread that opened it."""

    def __init__(self, target: Target, timeout: int = 60) -> None:
        self.target = target
        self._tmp = tempfile.TemporaryDirectory(prefix="netcfg-ssh-")
        self.driver = make_driver(target, timeout, Path(self._tmp.name))

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
