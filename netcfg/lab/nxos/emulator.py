"""Cisco NX-OS: NX-API JSON-RPC on HTTPS `/ins`, and an SSH CLI with SCP into `bootflash:`.

NAPALM's `nxos` driver needs both: NX-API for every command, SSH + SCP to upload the candidate
of a replace (always to port 22; see `napalm_kwargs` for how the lab reaches a device's own SSH
port without root). State: running and startup configuration, bootflash (a real directory,
so SCP writes land where `dir`, `show file ... md5sum`, `checkpoint file` and `rollback` look),
named checkpoints, and a pending `configure replace ... commit-timeout` with its revert timer on
the lab clock.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from netcfg.lab.cfgtree import ConfigError, Node
from netcfg.lab.clock import Timer
from netcfg.lab.device import DeviceSpec, Dropped, Emulator, LabContext
from netcfg.lab.faults import Fault, FaultKind
from netcfg.lab.nxos.cli import INVALID, Cli, CliError
from netcfg.lab.nxos.config import (
    admin_up,
    body,
    checkpoint_text,
    ensure_interfaces,
    parse,
    show_running,
)
from netcfg.lab.nxos.factory import Factory, built_in, from_vendor

DEFAULT_VERSION = "10.3(4a)"
DEFAULT_MODEL = "N9K-C9364D-GX2A"
DEFAULT_INTERFACES = [f"Ethernet1/{i}" for i in range(1, 9)]
MAX_CHECKPOINTS = 10
LOCKED = "Another checkpoint, rollback or copy operation is in progress. Please try later."


@dataclass
class Checkpoint:
    text: str
    created: float
    user: str
    description: str = ""


@dataclass
class PendingReplace:
    """A `configure replace ... commit-timeout` waiting for `configure replace commit`."""

    previous: Node
    timer: Timer
    deadline: float
    source: str


class NxosEmulator(Emulator):
    nos = "nxos"
    napalm_driver = "nxos"
    needs_own_address = True

    def __init__(self, spec: DeviceSpec, ctx: LabContext, address: str) -> None:
        super().__init__(spec, ctx, address)
        factory_dir = spec.options.get("factory_dir")
        #: the factory state and interface defaults (the vendor's, or the built-in minimum)
        self.factory: Factory = (from_vendor(factory_dir, spec.name, spec.username)
                                 if factory_dir else built_in(spec.name, spec.username))
        self.version = spec.version or self.factory.version or DEFAULT_VERSION
        self.model = spec.model or DEFAULT_MODEL
        self.serial = f"FDO{abs(hash(spec.name)) % 10**8:08d}"
        self.interfaces = list(spec.interfaces or DEFAULT_INTERFACES)
        if "mgmt0" not in self.interfaces:
            self.interfaces.append("mgmt0")
        self.files_root = Path(ctx.workdir) / f"{spec.name}.files"
        self.bootflash = self.files_root / "bootflash:"
        self.bootflash.mkdir(parents=True, exist_ok=True)
        self.running = self.load_tree(spec.startup_config or self.default_config(), strict=False)
        self.save_startup()  # kept in the switch's own form, as `copy running startup` writes it
        self.changed = self.clock.time()
        self.checkpoints: dict[str, Checkpoint] = {}
        self.checkpoint_files: set[str] = set()
        self.pending_replace: PendingReplace | None = None
        #: a drop-after-apply fault fired: close the connection once the command has run
        self.pending_drop = False
        self.ssh_config = Path(ctx.workdir) / f"{spec.name}.ssh_config"
        self.record("factory", self.factory.source)

    def default_config(self) -> str:
        return self.factory.config

    async def start(self) -> None:
        await self.serve_https("https", self._nxapi)
        ssh = await self.serve_ssh("ssh", shell=lambda: NxosShell(self), files=self.files_root,
                                   files_served=self.file_server_on)
        # NAPALM forces the SCP/SSH port to 22; netmiko maps 22 to the real port from this file
        self.ssh_config.write_text(f"Host {self.address}\n  Port {ssh.port}\n")

    # --- stores -----------------------------------------------------------------------------------
    @property
    def hostname(self) -> str:
        for node in self.running.children:
            if node.tokens[:1] in (["hostname"], ["switchname"]) and len(node.tokens) > 1:
                return node.line.split()[1]
        return "switch"

    def load_tree(self, text: str, strict: bool) -> Node:
        """A configuration file as the running tree it would give (raises ConfigError)."""
        root = parse(text, strict=strict)
        root.children = [c for c in root.children if c.tokens[:1] != ["version"]]
        return ensure_interfaces(root, self.interfaces)

    def set_running(self, tree: Node) -> None:
        # in place: open configuration sessions keep editing the live tree
        self.running.children = tree.children
        self.config_changed()

    def config_changed(self) -> None:
        self.changed = self.clock.time()

    def running_text(self) -> str:
        return show_running(self.running, self.version, self.changed, self.clock.time())

    def running_config(self) -> str:
        return self.running_text()

    def startup_config(self) -> str:
        return self.startup

    def startup_text(self) -> str:
        return ("\n!Command: show startup-config\n"
                f"!Startup config saved at: {time.strftime('%a %b %d %H:%M:%S %Y')}\n"
                f"!Time: {time.strftime('%a %b %d %H:%M:%S %Y')}\n\n"
                f"version {self.version} Bios:version 05.47\n" + self.startup)

    def save_startup(self) -> None:
        self.startup = "\n".join(body(self.running)) + "\n"

    def candidate_config(self) -> str | None:
        path = self.bootflash / "candidate_config.txt"
        return path.read_text() if path.exists() else None

    def on_reboot(self) -> None:
        self._cancel_replace()
        self.running = self.load_tree(self.startup, strict=False)
        self.config_changed()

    def on_fault_armed(self, fault: Fault) -> None:
        if fault.kind == FaultKind.STALE_SESSION:
            # a client died mid-change: its candidate and diff files stay on bootflash, and its
            # `configure replace ... commit-timeout` is still pending (it reverts when it expires)
            stale = "!stale candidate of a client that went away\nhostname stale\n"
            (self.bootflash / "candidate_config.txt").write_text(stale)
            (self.bootflash / "sot_file").write_text(checkpoint_text(
                self.running, self.version, self.clock.time()))
            if self.pending_replace is None:
                self._arm_replace(self.running.copy(), 600, "bootflash:candidate_config.txt")

    def napalm_kwargs(self) -> dict[str, Any]:
        trust = self.ctx.trust
        return {"hostname": self.address, "username": self.spec.username,
                "password": self.spec.password, "timeout": 10,
                "optional_args": {
                    "transport": "https", "port": self.listeners["https"].port,
                    "ssl_verify": str(trust.ca_path),
                    # netmiko (SSH + SCP of load_replace_candidate): host key checked against
                    # the lab's known_hosts; port from the SSH config file (NAPALM says 22)
                    "ssh_strict": True, "system_host_keys": False, "alt_host_keys": True,
                    "alt_key_file": str(trust.known_hosts_path),
                    "ssh_config_file": str(self.ssh_config),
                }}

    def file_server_on(self, kind: str, suffix: str = "-server") -> bool:
        """Whether the switch runs `kind` now ("scp" or "sftp" for its file servers): NX-OS
        runs its SCP and SFTP servers only with `feature scp-server` / `feature sftp-server`
        (NAPALM's nxos docs: "The features nxapi server scp-server must be enabled"), so a
        running config without `feature scp-server` refuses NAPALM's upload of the next
        replace file."""
        from netcfg.lab.nxos.config import features

        return f"{kind}{suffix}" in features(self.running)

    # --- interfaces (show interface) --------------------------------------------------------------
    def interface_table(self) -> list[tuple[str, dict[str, Any]]]:
        """Each interface's settings; `shutdown` is its admin state under the NX-OS defaults
        (netcfg/lab/nxos/factory.py): a routed port without `no shutdown` is down."""
        rows = []
        for node in self.running.children:
            if node.mode != "if":
                continue
            settings: dict[str, Any] = {}
            for c in node.children:
                t = c.line.split()
                if t[0] == "description":
                    settings["description"] = c.line.split(None, 1)[1]
                elif t[0] in ("mtu", "speed") and len(t) == 2:
                    settings[t[0]] = t[1]
            settings["shutdown"] = not admin_up(node, self.running, self.factory.l3_enabled)
            rows.append((node.line.split()[1], settings))
        return rows

    def mac(self, name: str) -> str:
        n = abs(hash((self.name, name))) % (1 << 24)
        return f"00fe.c8{n >> 16:02x}.{n & 0xffff:04x}"

    # --- bootflash --------------------------------------------------------------------------------
    def file_name(self, token: str, allow_root: bool = False) -> str | None:
        name = token
        if ":" in name:
            fs, _, name = name.partition(":")
            if fs.lower() != "bootflash":
                raise CliError(f"No such file or directory: {token}")
        name = name.lstrip("/")
        if not name:
            if allow_root:
                return None
            raise CliError(f"No such file or directory: {token}")
        if "/" in name or name in (".", ".."):
            raise CliError(f"No such file or directory: {token}")
        return name

    def _path(self, token: str) -> Path:
        name = self.file_name(token)
        assert name is not None
        return self.bootflash / name

    def read_file(self, token: str) -> bytes:
        path = self._path(token)
        if not path.is_file():
            raise CliError(f"No such file or directory: {token}")
        return path.read_bytes()

    def write_file(self, token: str, text: str) -> None:
        path = self._path(token)
        path.write_text(text)
        self.checkpoint_files.discard(path.name)

    def delete_file(self, token: str) -> None:
        path = self._path(token)
        if not path.is_file():
            raise CliError(f"No such file or directory: {token}")
        path.unlink()
        self.checkpoint_files.discard(path.name)

    def bootflash_files(self) -> dict[str, tuple[int, float]]:
        out = {}
        for entry in os.scandir(self.bootflash):
            if entry.is_file():
                st = entry.stat()
                out[entry.name] = (st.st_size, st.st_mtime)
        return out

    # --- faults at configuration operations -------------------------------------------------------
    def exclusive(self, operation: str) -> None:
        """Checkpoint, rollback and copy run start are one-user-at-a-time on NX-OS."""
        if self.faults.active(FaultKind.LOCK_HELD) is not None:
            raise CliError(LOCKED)

    def _fault(self, phase: str, failure: str) -> None:
        fault = self.apply_fault(phase)
        if fault is None:
            return
        if fault.kind == FaultKind.COMMIT_ERROR:
            raise CliError(fault.message or failure)
        if fault.kind == FaultKind.DROP_AFTER_APPLY:
            self.pending_drop = True

    def commit_gate(self, cli: Cli) -> None:
        """The first configuration line of a CLI context is where its change takes effect."""
        self._fault("commit", "% Configuration rejected by the system")

    # --- checkpoints, rollback, configure replace -------------------------------------------------
    def save_checkpoint(self, name: str | None, description: str) -> None:
        if name is None:
            n = 1
            while f"user-checkpoint-{n}" in self.checkpoints:
                n += 1
            name = f"user-checkpoint-{n}"
        if name in self.checkpoints:
            raise CliError(f"Checkpoint name '{name}' already exists")
        if len(self.checkpoints) >= MAX_CHECKPOINTS:
            raise CliError("Maximum number of checkpoints reached; delete one with "
                           "'no checkpoint <name>'")
        self.checkpoints[name] = Checkpoint(
            checkpoint_text(self.running, self.version, self.clock.time()), self.clock.time(),
            self.spec.username, description)

    def save_checkpoint_file(self, token: str) -> None:
        path = self._path(token)
        path.write_text(checkpoint_text(self.running, self.version, self.clock.time()))
        self.checkpoint_files.add(path.name)

    def checkpoint_summary(self) -> str:
        lines = ["User Checkpoint Summary", "-" * 80]
        for i, (name, cp) in enumerate(self.checkpoints.items(), 1):
            stamp = time.strftime("%a, %H:%M:%S %d %b %Y", time.gmtime(cp.created))
            lines += [f"{i}) {name}:", f"Created by {cp.user}", f"Created at {stamp}",
                      f"Size is {len(cp.text.encode()):,} bytes",
                      f"Description: {cp.description or 'None'}", ""]
        lines += ["", "System Checkpoint Summary", "-" * 80]
        return "\n".join(lines) + "\n"

    def source_tree(self, kind: str, name: str | None) -> Node:
        """A side of `show diff rollback-patch`: read as NX-OS would, without rejecting."""
        if kind == "running-config":
            return self.running.copy()
        if kind == "startup-config":
            return self.load_tree(self.startup, strict=False)
        assert name is not None
        if kind == "checkpoint":
            if name not in self.checkpoints:
                raise CliError(f"Checkpoint '{name}' does not exist")
            return self.load_tree(self.checkpoints[name].text, strict=False)
        return self.load_tree(self.read_file(name).decode(errors="replace"), strict=False)

    def _strict_tree(self, text: str, failure: str) -> Node:
        try:
            return self.load_tree(text, strict=self.spec.strict)
        except ConfigError as e:
            raise CliError("Collecting Running-Config\n#Generating Rollback Patch\n"
                           f"Executing Rollback Patch\n`{e.line.strip()}`\n{INVALID}\n"
                           f"{failure}") from None

    def rollback(self, kind: str, name: str, best_effort: bool = False) -> str:
        self.exclusive("rollback")
        if kind == "checkpoint":
            if name not in self.checkpoints:
                raise CliError(f"Checkpoint '{name}' does not exist")
            text = self.checkpoints[name].text
            phase = "rollback"
        else:
            text = self.read_file(name).decode(errors="replace")
            # rolling back to one of the device's own checkpoints is a rollback; to anything
            # else (a candidate uploaded by a client) it is how a replace is committed
            phase = "rollback" if self.file_name(name) in self.checkpoint_files else "commit"
        self._fault(phase, "Rollback failed.")
        if best_effort:
            tree = self.load_tree(text, strict=False)
        else:
            tree = self._strict_tree(text, "Rollback failed.")
        self.set_running(tree)
        return ("Note: Applying config parallelly may fail Rollback verification\n"
                "Collecting Running-Config\n#Generating Rollback Patch\nExecuting Rollback Patch\n"
                "Generating Running-config for verification\nGenerating Patch for verification\n"
                "Verification is Successful.\n\nRollback completed successfully.\n")

    def configure_replace(self, source: str, timeout: int | None) -> str:
        self.exclusive("configure replace")
        if self.pending_replace is not None:
            raise CliError("Configure replace is pending a commit: run 'configure replace commit'"
                           " or wait for the commit timer")
        text = self.read_file(source).decode(errors="replace")
        self._fault("commit", "Configure replace failed.")
        previous = self.running.copy()
        self.set_running(self._strict_tree(text, "Configure replace failed. Restored the "
                                                 "original configuration."))
        if timeout is not None:
            self._arm_replace(previous, timeout, source)
            return ("Configure replace completed successfully. Please run "
                    f"'configure replace commit' within {timeout} seconds to keep the new "
                    "configuration, else it is rolled back when the commit timer expires.\n")
        return ("Configure replace completed successfully. Please run 'show config-replace log "
                "exec' to see if there is any configuration that requires reload to take effect.\n")

    def _arm_replace(self, previous: Node, timeout: int, source: str) -> None:
        timer = self.clock.call_later(timeout, self._replace_expired)
        self.pending_replace = PendingReplace(previous, timer, self.clock.time() + timeout, source)

    def _replace_expired(self) -> None:
        pending, self.pending_replace = self.pending_replace, None
        if pending is not None:
            self.set_running(pending.previous)
            self.record("timer", "configure replace commit timer expired: rolled back")

    def _cancel_replace(self) -> None:
        if self.pending_replace is not None:
            self.pending_replace.timer.cancel()
            self.pending_replace = None

    def replace_commit(self) -> str:
        if self.pending_replace is None:
            raise CliError("There is no configure replace operation pending a commit")
        self._fault("confirm", "Configure replace commit failed.")
        self._cancel_replace()
        return "Configure replace commit completed successfully.\n"

    def replace_status(self) -> str:
        pending = self.pending_replace
        if pending is None:
            return "Configure replace: no operation pending commit\n"
        left = max(0, int(pending.deadline - self.clock.time()))
        return (f"Configure replace: pending commit\nSource: {pending.source}\n"
                f"Commit timeout: {left} seconds remaining\n")

    # --- NX-API -----------------------------------------------------------------------------------
    async def _nxapi(self, request: web.BaseRequest) -> web.StreamResponse:
        if not self.file_server_on("nxapi", ""):
            # NX-API runs only with `feature nxapi` (NAPALM's nxos docs: the device and every
            # checkpoint file pushed must have it): a switch without it does not answer
            raise Dropped()
        if request.method != "POST" or request.path != "/ins":
            return web.Response(status=404, text="Not Found")
        try:
            payload = json.loads(await request.read())
        except ValueError:
            return _rpc({"jsonrpc": "2.0", "id": None,
                         "error": {"code": -32700, "message": "Parse error"}})
        batch = payload if isinstance(payload, list) else [payload]
        cli = Cli(self, implicit_config=True)
        replies: list[dict[str, Any]] = []
        for item in batch:
            reply = self._nxapi_one(cli, item)
            replies.append(reply)
            if "error" in reply:  # NX-API's default: stop-on-error
                break
        if self.pending_drop:
            self.pending_drop = False
            raise Dropped()
        return _rpc(replies if isinstance(payload, list) else replies[0])

    def _nxapi_one(self, cli: Cli, item: Any) -> dict[str, Any]:
        rid = item.get("id") if isinstance(item, dict) else None
        if not isinstance(item, dict) or not isinstance(item.get("params"), dict):
            return {"jsonrpc": "2.0", "id": rid,
                    "error": {"code": -32600, "message": "Invalid request"}}
        method = item.get("method")
        if method not in ("cli", "cli_ascii"):
            return {"jsonrpc": "2.0", "id": rid,
                    "error": {"code": -32601, "message": "Method not found"}}
        cmd = str(item["params"].get("cmd", ""))
        result: Any = None
        try:
            for part in [p.strip() for p in cmd.split(" ;")] if " ;" in cmd else [cmd.strip()]:
                self.record("nxapi", part)
                result = cli.run(part, structured=method == "cli")
        except CliError as e:
            return {"jsonrpc": "2.0", "id": rid, "error": {
                "code": -32602, "message": "Invalid params",
                "data": {"msg": e.message if e.message.endswith("\n") else e.message + "\n"}}}
        if result is None or result == "":
            body = None
        elif method == "cli_ascii":
            body = {"msg": result}
        else:
            body = {"body": result}
        return {"jsonrpc": "2.0", "id": rid, "result": body}


def _rpc(payload: Any) -> web.Response:
    return web.Response(text=json.dumps(payload), content_type="application/json-rpc")


class NxosShell:
    """One SSH CLI session (netmiko's `cisco_nxos`): `hostname# ` prompt, configuration mode
    prompts like `hostname(config-if)# `, errors with the `^` marker line."""

    def __init__(self, dev: NxosEmulator) -> None:
        self.dev = dev
        self.cli = Cli(dev, implicit_config=False)
        self.closed = False

    def banner(self) -> str:
        return ("Cisco Nexus Operating System (NX-OS) Software\n"
                "TAC support: http://www.cisco.com/tac\n")

    def prompt(self) -> str:
        return self.cli.prompt()

    async def handle(self, line: str) -> str:
        dev = self.dev
        dev.record("ssh", line)
        words = line.split()
        if words and words[0].lower() == "exit" and self.cli.editor is None:
            self.closed = True
            return ""
        prompt = self.cli.prompt()
        try:
            output = self.cli.run(line)
        except CliError as e:
            output = e.message
            if e.token is not None:
                offset = _token_offset(line, e.token)
                output = " " * (len(prompt) + offset) + "^\n" + output
        if dev.pending_drop:
            dev.pending_drop = False
            raise Dropped()
        return output if isinstance(output, str) else json.dumps(output)


def _token_offset(line: str, token: int) -> int:
    pos = 0
    for i, word in enumerate(line.split()):
        pos = line.index(word, pos)
        if i == token:
            return pos
        pos += len(word)
    return len(line.rstrip()) + 1


def factory_config(name: str, username: str, factory_dir: str | None = None) -> str:
    """What a switch fresh from the factory runs (netcfg/lab/nxos/factory.py): the vendor's
    factory configuration from `factory_dir` (the vendor-data folder's factory part), else
    the built-in minimum; no cage split (a `DeviceSpec.startup_config` of a switch in service
    adds to it)."""
    if factory_dir:
        return from_vendor(factory_dir, name, username).config
    return built_in(name, username).config
