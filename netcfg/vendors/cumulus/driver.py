"""NAPALM driver for NVIDIA Cumulus Linux (NVUE) over SSH, on netmiko.

NAPALM ships no NVUE driver. This one keeps NVUE's own model: a candidate is the user's
*pending revision*, filled by uploading an NVUE YAML file (SFTP) and running
`nv config replace|patch <file>`; `compare_config` is `nv config diff`; a commit is
`nv config apply -y`, and a commit with `revert_in` is `nv config apply --confirm <N>s -y`, so
the revert timer runs on the switch and fires even if this process dies. Plain NAPALM code
finds it as `napalm.get_network_driver("netcfg_cumulus")`.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import uuid
from typing import Any

import paramiko
from napalm.base import NetworkDriver as _NetworkDriver
from napalm.base.exceptions import (
    CommandErrorException,
    CommitConfirmException,
    CommitError,
    ConnectionException,
    LockError,
    MergeConfigException,
    ReplaceConfigException,
)
from napalm.base.netmiko_helpers import netmiko_args
from netmiko import ConnectHandler
from netmiko.exceptions import NetmikoAuthenticationException, NetmikoTimeoutException

from netcfg.deploy.drivers import linuxstate
from netcfg.deploy.drivers.shell import NoAnswer, after_echo, close_session, send_line
from netcfg.deploy.secrets import mask

#: prompt of a Cumulus login shell (`cumulus@leaf01:mgmt:~$`); matched instead of netmiko's
#: remembered prompt, which goes stale when an apply or a confirm timeout changes the hostname
PROMPT = r"[\w.-]+@[\w.-]+(:\w+)?:[^\s]*[$#] ?$"
CANDIDATE_FILE = "netcfg-candidate-{}.yaml"
_CONFIRM_STATES = {"confirm"}
_BUSY_STATES = {"apply", "confirm"}


class CumulusDriver(_NetworkDriver):
    """NVUE over netmiko (`cumulus_linux`); see docs/driver-cumulus.md."""

    platform = "netcfg_cumulus"

    def __init__(self, hostname: str, username: str, password: str, timeout: int = 60,
                 optional_args: dict[str, Any] | None = None) -> None:
        self.hostname, self.username, self.password = hostname, username, password
        self.timeout = timeout
        self.optional_args = dict(optional_args or {})
        self.device: Any = None
        self._netmiko_device: Any = None
        self._loaded: str | None = None  # "replace" | "merge" while a candidate is pending
        self._rollback_rev: str | None = None  # applied revision before our last commit
        self.netmiko_optional_args = self._netmiko_args()

    def _netmiko_args(self) -> dict[str, Any]:
        args = netmiko_args(self.optional_args)
        args.setdefault("port", int(self.optional_args.get("port", 22)))
        strict = bool(self.optional_args.get("ssh_strict", True))
        args["ssh_strict"] = strict
        known = self.optional_args.get("known_hosts")
        if strict:
            if known:
                args.update(alt_host_keys=True, alt_key_file=str(known),
                            system_host_keys=False)
            else:
                args.update(system_host_keys=True)
        return args

    # --- connection ---------------------------------------------------------------------------
    def open(self) -> None:
        known = self.optional_args.get("known_hosts")
        if self.netmiko_optional_args["ssh_strict"] and known and not os.path.isfile(known):
            raise ConnectionException(f"known_hosts file {known} does not exist")
        try:
            self.device = self._netmiko_device = ConnectHandler(
                device_type="cumulus_linux", host=self.hostname, username=self.username,
                password=self.password, timeout=self.timeout, **self.netmiko_optional_args)
        except NetmikoAuthenticationException as e:
            raise ConnectionException(self._scrub(f"Authentication to {self.hostname} failed: "
                                                  f"{e}")) from None
        except (NetmikoTimeoutException, ConnectionException) as e:
            raise ConnectionException(self._scrub(f"Cannot connect to {self.hostname}: "
                                                  f"{e}")) from None
        except paramiko.SSHException as e:
            raise ConnectionException(self._scrub(f"SSH to {self.hostname} failed (host key "
                                                  f"not trusted?): {e}")) from None
        except OSError as e:
            raise ConnectionException(self._scrub(f"Cannot connect to {self.hostname}: "
                                                  f"{e}")) from None

    def close(self) -> None:
        device, self.device, self._netmiko_device = self.device, None, None
        if device is not None:
            close_session(device)

    def is_alive(self) -> dict[str, bool]:
        if self.device is None:
            return {"is_alive": False}
        return {"is_alive": bool(self.device.is_alive())}

    # --- transport helpers ---------------------------------------------------------------------
    def _scrub(self, text: str) -> str:
        return mask(text, self.password)

    def _send(self, command: str, exc: type[Exception] | None = CommandErrorException) -> str:
        """Run one shell command; NVUE's `Error:` output becomes `exc` with the device text
        (None: return the text, as `cli` does)."""
        if self.device is None:
            raise ConnectionException("not connected; call open() first")
        try:
            out = after_echo(send_line(self.device, command, PROMPT, float(self.timeout)), command)
        except (OSError, EOFError, paramiko.SSHException) as e:
            raise ConnectionException(self._scrub(
                f"{self.hostname}: connection lost during '{command}' (the device may or may "
                f"not have acted on it): {e}")) from None
        except NoAnswer:
            raise ConnectionException(self._scrub(
                f"{self.hostname}: no answer to '{command}' within {self.timeout} s")) from None
        lines = out.rstrip().splitlines()
        if lines and re.search(PROMPT, lines[-1]):
            lines = lines[:-1]
        text = "\n".join(lines).strip("\n")
        if exc is not None and (re.search(r"^Error:", text, re.M) or text.startswith("-bash:")):
            raise exc(self._scrub(f"{self.hostname}: {command}: {text}"))
        return text

    def _json(self, command: str) -> Any:
        text = self._send(command)
        try:
            return json.loads(text)
        except ValueError:
            raise CommandErrorException(f"{self.hostname}: {command}: not JSON: "
                                        f"{text[:200]}") from None

    def _sftp(self) -> paramiko.SFTPClient:
        """An SFTP channel on the session's own SSH transport."""
        sftp = paramiko.SFTPClient.from_transport(self.device.remote_conn.get_transport())
        if sftp is None:
            raise paramiko.SSHException("the device opened no SFTP channel")
        return sftp

    def _upload(self, content: str) -> str:
        """Put `content` in the login user's home by SFTP; returns the file name."""
        name = CANDIDATE_FILE.format(uuid.uuid4().hex[:8])
        try:
            with self._sftp() as sftp:
                with sftp.open(name, "w") as f:
                    f.write(content)
        except (TimeoutError, OSError, EOFError, paramiko.SSHException) as e:
            raise ConnectionException(self._scrub(f"{self.hostname}: upload failed: {e}")) \
                from None
        return name

    def _remove(self, name: str) -> None:
        try:
            with self._sftp() as sftp:
                sftp.remove(name)
        except (OSError, EOFError, paramiko.SSHException):
            pass  # a leftover file in the home directory does no harm

    def _revisions(self) -> dict[str, Any]:
        data = self._json("nv config revision -o json")
        return data if isinstance(data, dict) else {}

    def _applied_rev(self, revisions: dict[str, Any]) -> str | None:
        applied = [k for k, v in revisions.items()
                   if str(v.get("state", "")).startswith("applied") or v.get("state") == "confirm"]
        return max(applied, key=_rev_order) if applied else None

    # --- getters -------------------------------------------------------------------------------
    def get_facts(self) -> dict[str, Any]:
        system = self._json("nv show system -o json")
        platform = self._json("nv show platform -o json")
        interfaces = self._json("nv show interface -o json")
        hostname = str(system.get("hostname", ""))
        return {
            "uptime": float(system.get("uptime", -1)),
            "vendor": "NVIDIA",
            "os_version": str(system.get("build") or system.get("product-release", "")),
            "serial_number": str(platform.get("serial-number", "")),
            "model": str(platform.get("product-name", "")),
            "hostname": hostname,
            "fqdn": hostname,
            "interface_list": sorted(interfaces, key=_natural),
        }

    def get_interfaces(self) -> dict[str, dict[str, Any]]:
        data = self._json("nv show interface -o json")
        out: dict[str, dict[str, Any]] = {}
        for name, info in data.items():
            link = info.get("link", {}) if isinstance(info, dict) else {}
            out[name] = {
                "is_up": link.get("oper-status") == "up",
                "is_enabled": link.get("admin-status", "up") == "up",
                "description": str(info.get("description", "")),
                "last_flapped": float(link.get("last-change-uptime", -1)),
                "speed": _speed_mbps(str(link.get("speed", ""))),
                "mtu": int(link.get("mtu", 0) or 0),
                "mac_address": str(link.get("mac", "")),
            }
        return out

    def get_bgp_neighbors(self) -> dict[str, Any]:
        """FRR's own summary through vtysh (Cumulus Linux routes with FRR; NVIDIA's BGP
        troubleshooting page gives vtysh's `... json` commands beside NVUE's), read by
        linuxstate. NVUE's `nv show vrf default router bgp neighbor -o json` is the other
        way; NVIDIA publishes its JSON only cut short, so it is not what netcfg parses."""
        try:
            return linuxstate.bgp_neighbors(self._send(linuxstate.BGP_SUMMARY))
        except ValueError as exc:
            raise CommandErrorException(self._scrub(f"{self.hostname}: {exc}")) from None

    def get_lldp_neighbors_detail(self, interface: str = "") -> dict[str, list[dict[str, Any]]]:
        """lldpd's JSON (Cumulus Linux's LLDP is lldpd, started at boot)."""
        try:
            got = linuxstate.lldp_neighbors_detail(self._send(linuxstate.LLDP_NEIGHBORS))
        except ValueError as exc:
            raise CommandErrorException(self._scrub(f"{self.hostname}: {exc}")) from None
        return {k: v for k, v in got.items() if not interface or k == interface}

    def get_config(self, retrieve: str = "all", full: bool = False, sanitized: bool = False,
                   format: str = "text") -> dict[str, str]:
        show = "nv config show" + (" --all" if full else "") + " -o yaml"
        result = {"running": "", "startup": "", "candidate": ""}
        if retrieve in ("all", "running"):
            result["running"] = self._send(show)
        if retrieve in ("all", "startup"):
            result["startup"] = self._send(show.replace("show", "show -r startup", 1))
        if retrieve in ("all", "candidate") and self._loaded:
            result["candidate"] = self._send(show.replace("show", "show -r pending", 1))
        if sanitized:
            for key, text in result.items():
                result[key] = re.sub(r"((hashed-)?password|secret|key): .*", r"\1: <removed>",
                                     text)
        return result

    # --- candidates ----------------------------------------------------------------------------
    def _check_lock(self) -> None:
        for rev, info in self._revisions().items():
            if info.get("state") in _BUSY_STATES and info.get("user") != self.username:
                raise LockError(f"{self.hostname}: revision {rev} is being applied by "
                                f"{info.get('user')} (state {info.get('state')})")

    def _load(self, mode: str, filename: str | None, config: str | None) -> None:
        exc = ReplaceConfigException if mode == "replace" else MergeConfigException
        if (filename is None) == (config is None):
            raise exc("give exactly one of filename or config")
        if filename is not None:
            with open(filename) as f:
                config = f.read()
        assert config is not None
        self._check_lock()
        if mode == "replace" and self.optional_args.get("keep_device_local", True):
            # the switch's users, eth0, mgmt VRF and NVIDIA's other factory sections stay
            # (CumulusDeploy.device_local), so plain NAPALM replace with a rendered file cannot
            # lock anyone out (`keep_device_local: False` replaces them)
            from netcfg.vendors import vendor

            config = vendor("cumulus").deploy.keep_device_local(
                self._send("nv config show -o yaml", exc), config)
        # start from the applied revision: park whatever a dead client left pending
        self._send("nv config detach", exc)
        name = self._upload(config)
        try:
            self._send(f"nv config {'replace' if mode == 'replace' else 'patch'} "
                       f"{shlex.quote(name)}", exc)
        except exc:
            self._send("nv config detach")
            raise
        finally:
            self._remove(name)
        self._loaded = mode

    def load_replace_candidate(self, filename: str | None = None,
                               config: str | None = None) -> None:
        self._load("replace", filename, config)

    def load_merge_candidate(self, filename: str | None = None,
                             config: str | None = None) -> None:
        self._load("merge", filename, config)

    def compare_config(self) -> str:
        if not self._loaded:
            return ""
        return self._send("nv config diff").strip()

    def discard_config(self) -> None:
        self._send("nv config detach")
        self._loaded = None

    # --- commit, confirm, rollback ------------------------------------------------------------
    def commit_config(self, message: str = "", revert_in: int | None = None) -> None:
        if not self._loaded:
            raise CommitError(f"{self.hostname}: no candidate loaded")
        revisions = self._revisions()
        if any(v.get("state") in _CONFIRM_STATES for v in revisions.values()):
            raise CommitError("Pending commit confirm already in process!")
        previous = self._applied_rev(revisions)
        command = "nv config apply"
        if revert_in is not None:
            if int(revert_in) < 1:
                raise CommitError("revert_in must be at least 1 second")
            command += f" --confirm {int(revert_in)}s"
        if message:
            command += f" -m {shlex.quote(message)}"
        self._send(command + " -y", CommitError)
        self._loaded = None
        self._rollback_rev = previous

    def has_pending_commit(self) -> bool:
        return any(v.get("state") in _CONFIRM_STATES for v in self._revisions().values())

    def confirm_commit(self) -> None:
        if not self.has_pending_commit():
            raise CommitConfirmException("No pending commit-confirm found!")
        self._send("nv config apply --confirm-yes", CommitConfirmException)

    def rollback(self) -> None:
        if self.has_pending_commit():
            self._send("nv config apply --confirm-no", CommitError)
            return
        if self._rollback_rev is None:
            raise CommitError(f"{self.hostname}: nothing to roll back (no commit by this driver)")
        self._send(f"nv config apply {self._rollback_rev} -y", CommitError)
        self._rollback_rev = None

    # --- cli ------------------------------------------------------------------------------------
    def cli(self, commands: list[str], encoding: str = "text") -> dict[str, str]:
        if encoding != "text":
            raise NotImplementedError(f"{encoding} is not a supported encoding")
        # like NAPALM's other drivers, the device's own text comes back, errors included
        return {command: self._send(command, None) for command in commands}


def _rev_order(rev: str) -> tuple[int, str]:
    return (int(rev), "") if rev.isdigit() else (-1, rev)


def _natural(name: str) -> list[Any]:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def _speed_mbps(text: str) -> float:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([MGT])", text)
    if not m:
        return -1.0
    return float(m.group(1)) * {"M": 1, "G": 1000, "T": 1_000_000}[m.group(2)]
