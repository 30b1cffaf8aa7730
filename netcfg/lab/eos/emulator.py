"""Arista EOS over eAPI: JSON-RPC `runCmds` on HTTPS `/command-api`.

State: running and startup configuration, named configuration sessions (pending, with a commit
timer, completed), and a small flash file store (`flash:rollback-0`). Each HTTP request is a
fresh CLI context at exec level, as on EOS; commands run in order and stop at the first error,
earlier ones staying applied.
"""

from __future__ import annotations

import difflib
import json
import ssl
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from netcfg.lab.cfgtree import (
    ConfigError,
    ModalEditor,
    Node,
    parse_indented,
    render,
    set_heredoc,
)
from netcfg.lab.clock import Timer
from netcfg.lab.device import DeviceSpec, Dropped, Emulator, LabContext
from netcfg.lab.eos import show
from netcfg.lab.eos.factory import Factory, built_in, from_vendor
from netcfg.lab.eos.grammar import eos_grammar, section_key
from netcfg.lab.faults import FaultKind

GRAMMAR = eos_grammar()
#: Modes whose lines EOS prints deeper than its usual 3 spaces, and by how many: the lines of a
#: `platform trident mmu queue profile` at 4, as Arista's own renderer (pyavd's
#: eos_cli_config_gen `platform-trident` template, 2023 to 6.4) writes them; no capture of an
#: EOS `show running-config` of the section was found (docs/render-eos.md, "Indentation")
DEEPER_CHILDREN = {"mmu-profile": 1}
DEFAULT_VERSION = "4.31.2F"
DEFAULT_INTERFACES = [f"Ethernet{i}/1" for i in range(1, 9)]


class CliFailure(Exception):
    """A command that EOS refuses; `code` is the eAPI error code (1002 invalid, 1000 other)."""

    def __init__(self, message: str, code: int = 1000, summary: str = "could not run command"):
        super().__init__(message)
        self.message = message
        self.code = code
        self.summary = summary


@dataclass
class Session:
    name: str
    config: Node
    state: str = "pending"  # pending | pendingCommitTimer | completed
    commit_by: float | None = None  # uptime-relative deadline of a commit timer
    revert_to: Node | None = None
    timer: Timer | None = None
    user: str = "admin"


def _duration(text: str) -> int:
    h, m, s = (int(x) for x in text.split(":"))
    return h * 3600 + m * 60 + s


def _deepen(lines: list[str], root: Node) -> list[str]:
    """`lines` with the lines of each top-level block whose mode is in DEEPER_CHILDREN moved
    right by that many spaces (those modes open no sub-modes, so every indented line up to the
    next top-level one is the block's)."""
    extra = {n.line: DEEPER_CHILDREN[n.mode] for n in root.children
             if n.mode in DEEPER_CHILDREN}
    if not extra:
        return lines
    out: list[str] = []
    pad = 0
    for line in lines:
        if line[:1] not in ("", " "):
            pad = extra.get(line, 0)
        elif pad and line.startswith(" "):
            line = " " * pad + line
        out.append(line)
    return out


def version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int("".join(ch for ch in part if ch.isdigit()) or 0)
                 for part in version.split(".")[:3])


class EosEmulator(Emulator):
    nos = "eos"
    napalm_driver = "eos"

    def __init__(self, spec: DeviceSpec, ctx: LabContext, address: str) -> None:
        super().__init__(spec, ctx, address)
        self.version = spec.version or DEFAULT_VERSION
        self.interfaces = spec.interfaces or DEFAULT_INTERFACES
        factory_dir = spec.options.get("factory_dir")
        #: the factory state and BGP default (the vendor's, or the built-in minimum)
        self.factory: Factory = (
            from_vendor(factory_dir, spec.name, spec.username, _LAB_HASH, self.interfaces)
            if factory_dir else built_in(spec.name, spec.username, _LAB_HASH, self.interfaces))
        self.record("factory", self.factory.source)
        startup = spec.startup_config or self.default_config()
        self.running = parse_indented(startup, GRAMMAR, "config")
        # the factory file as the switch itself saves it (`write memory` prints the running
        # config); a given startup config is kept as given
        self.startup = spec.startup_config or self.render(self.running)
        self.sessions: dict[str, Session] = {}
        self.files: dict[str, str] = {}
        self._stale = 0

    def clean_config(self) -> Node:
        """What `rollback clean-config` leaves: the factory configuration without the day-0
        bootstrap (netcfg/lab/eos/factory.py), physical interfaces present."""
        root = parse_indented("\n".join(self.factory.clean) + "\n", GRAMMAR, "config")
        root.children += [Node(f"interface {name}", "if") for name in self.interfaces]
        return root

    def default_config(self) -> str:
        """What the switch boots with when the lab gives it no startup config: its factory
        configuration (the vendor's where the vendor-data folder has it) and the bootstrap."""
        return self.factory.config

    async def start(self) -> None:
        await self.serve_https("https", self._handle)

    def user_configured(self, username: str) -> bool:
        return any(node.tokens[:2] == ["username", username] for node in self.running.children)

    # --- stores -----------------------------------------------------------------------------------
    @property
    def hostname(self) -> str:
        for node in self.running.children:
            if node.tokens[:1] == ["hostname"] and len(node.tokens) > 1:
                return node.line.split()[1]
        return "localhost"

    def render(self, tree: Node) -> str:
        ordered = Node("", tree.mode, sorted(tree.children, key=lambda n: section_key(n.line)))
        lines = _deepen(render(ordered, 3, bang=True), ordered)
        head = [
            "! Command: show running-config",
            f"! device: {self.hostname} "
            f"({self.spec.model or 'DCS-7060X6-64PE'}, EOS-{self.version})",
            "!",
            "! boot system flash:/EOS.swi",
            "!",
        ]
        return "\n".join(head + lines + ["end"]) + "\n"

    def running_config(self) -> str:
        return self.render(self.running)

    def startup_config(self) -> str:
        return self.startup

    def candidate_config(self) -> str | None:
        open_ = [s for s in self.sessions.values() if s.state == "pending"]
        return self.render(open_[-1].config) if open_ else None

    def on_reboot(self) -> None:
        for s in self.sessions.values():
            if s.timer:
                s.timer.cancel()
        self.sessions.clear()
        self.running = parse_indented(self.startup, GRAMMAR, "config")

    def on_fault_armed(self, fault: Any) -> None:
        if fault.kind == FaultKind.LOCK_HELD:
            self.sessions["admin-cli"] = Session("admin-cli", self.running.copy(), user="operator")
        elif fault.kind == FaultKind.STALE_SESSION:
            self._stale += 1
            name = f"napalm_{100000 + self._stale}"
            self.sessions[name] = Session(name, self.running.copy())

    def on_faults_cleared(self) -> None:
        self.sessions.pop("admin-cli", None)

    def napalm_kwargs(self) -> dict[str, Any]:
        ctx = ssl.create_default_context(cafile=str(self.ctx.trust.ca_path))
        return {"hostname": self.address, "username": self.spec.username,
                "password": self.spec.password, "timeout": 10,
                "optional_args": {"transport": "https", "port": self.listeners["https"].port,
                                  "context": ctx}}

    # --- eAPI -------------------------------------------------------------------------------------
    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        if request.method == "HEAD" and request.path == "/command-api":
            # the endpoint check of Arista's own eAPI client (asynceapi Device.
            # check_api_endpoint, which ANTA runs): a HEAD answered 2xx
            return web.Response(status=200)
        if request.method != "POST" or request.path != "/command-api":
            return web.Response(status=404, text="Not Found")
        try:
            body = json.loads(await request.read())
        except ValueError:
            return _rpc({"jsonrpc": "2.0", "id": None,
                         "error": {"code": -32700, "message": "Parse error"}})
        rid = body.get("id")
        params = body.get("params") or {}
        if body.get("method") != "runCmds" or not isinstance(params.get("cmds"), list):
            return _rpc({"jsonrpc": "2.0", "id": rid,
                         "error": {"code": -32601, "message": "Method not found"}})
        fmt = params.get("format", "json")
        cli = Cli(self, fmt)
        results: list[Any] = []
        cmds = params["cmds"]
        for i, item in enumerate(cmds):
            text = item if isinstance(item, str) else str(item.get("cmd", ""))
            data = None if isinstance(item, str) else item.get("input")
            self.record("eapi", text)
            try:
                results.append(cli.run(text.strip(), data))
            except CliFailure as e:
                return _rpc({"jsonrpc": "2.0", "id": rid, "error": {
                    "code": e.code,
                    "message": f"CLI command {i + 1} of {len(cmds)} '{text}' failed: {e.summary}",
                    "data": results + [{"errors": [e.message]}]}})
        return _rpc({"jsonrpc": "2.0", "id": rid, "result": results})

    # --- session operations (called by the CLI) ---------------------------------------------------
    def commit(self, session: Session, timer: int | None) -> None:
        confirming = session.state == "pendingCommitTimer"
        phase = "confirm" if confirming else "commit"
        fault = self.apply_fault(phase)
        if fault is not None and fault.kind == FaultKind.COMMIT_ERROR:
            raise CliFailure(fault.message or "Commit failed: configuration rejected by agent")
        if confirming:
            if session.timer:
                session.timer.cancel()
            session.state, session.commit_by, session.timer = "completed", None, None
            session.revert_to = None
        elif session.state != "pending":
            raise CliFailure(f"Cannot commit session {session.name}: session is {session.state}")
        else:
            previous = self.running
            self.running = session.config.copy()
            if timer is None:
                session.state = "completed"
            else:
                session.state = "pendingCommitTimer"
                session.revert_to = previous
                session.commit_by = self.uptime + timer
                session.timer = self.clock.call_later(timer, lambda: self._expire(session))
        self._trim_completed()
        if fault is not None and fault.kind == FaultKind.DROP_AFTER_APPLY:
            raise Dropped()

    def _expire(self, session: Session) -> None:
        if session.state == "pendingCommitTimer" and session.revert_to is not None:
            self.running = session.revert_to
            session.state, session.revert_to, session.timer, session.commit_by = \
                "completed", None, None, None

    def abort(self, session: Session) -> None:
        if session.timer:
            session.timer.cancel()
        if session.state == "pendingCommitTimer" and session.revert_to is not None:
            self.running = session.revert_to
        self.sessions.pop(session.name, None)

    def _trim_completed(self) -> None:
        done = [n for n, s in self.sessions.items() if s.state == "completed"]
        for name in done[:-1]:  # maxSavedSessions 1
            del self.sessions[name]

    def session_diff(self, session: Session) -> str:
        before = self.render(self.running).splitlines()
        after = self.render(session.config).splitlines()
        diff = difflib.unified_diff(before, after, "system:/running-config",
                                    f"session:/{session.name}-session-config", lineterm="")
        return "\n".join(diff) + "\n"

    def replace_running(self, text: str) -> None:
        try:
            self.running = parse_indented(text, GRAMMAR, "config", strict=self.spec.strict)
        except ConfigError as e:
            raise CliFailure(f"Invalid input (at token {e.token or 0}: '{e.bad}')") from None


def _rpc(payload: dict[str, Any]) -> web.Response:
    return web.Response(text=json.dumps(payload), content_type="application/json")


class Cli:
    """One eAPI request's CLI context: exec mode, or config mode on running or a session."""

    def __init__(self, device: EosEmulator, fmt: str) -> None:
        self.dev = device
        self.fmt = fmt
        self.editor: ModalEditor | None = None
        self.session: Session | None = None

    def _ok(self) -> dict[str, Any]:
        return {"output": ""} if self.fmt == "text" else {}

    def run(self, text: str, data: str | None) -> Any:
        words = text.split()
        if not words:
            return self._ok()
        low = [w.lower() for w in words]
        if low[0] == "show":
            return show.run(self.dev, self, words, self.fmt)
        if self.editor is None:
            return self._exec(words, low)
        return self._config(text, words, low, data)

    # --- exec mode --------------------------------------------------------------------------------
    def _exec(self, words: list[str], low: list[str]) -> Any:
        dev = self.dev
        if low in (["enable"], ["disable"], ["end"], ["exit"]) or low[:2] == ["terminal", "length"]:
            return self._ok()
        if low in (["configure"], ["configure", "terminal"], ["config"]):
            self.editor = ModalEditor(GRAMMAR, dev.running, strict=dev.spec.strict, indexed=True)
            return self._ok()
        if low[:2] == ["configure", "session"]:
            return self._configure_session(words[2:], [w for w in low[2:]])
        if low[:2] == ["configure", "replace"] and len(words) >= 3:
            fault = dev.apply_fault("rollback")
            if fault is not None and fault.kind == FaultKind.COMMIT_ERROR:
                raise CliFailure(fault.message or "configure replace failed")
            source = words[2]
            if source == "clean-config":
                dev.running = dev.clean_config()
            else:
                text = dev.startup if source == "startup-config" else dev.files.get(source)
                if text is None:
                    raise CliFailure(f"Error: {source} (No such file or directory)")
                dev.replace_running(text)
            return self._ok()
        if low[0] == "copy" and len(words) == 3:
            return self._copy(words[1], words[2])
        if low in (["write"], ["write", "memory"]):
            return self._copy("running-config", "startup-config")
        raise CliFailure(f"Invalid input (at token 0: '{words[0]}')", 1002, "invalid command")

    def _copy(self, src: str, dst: str) -> Any:
        dev = self.dev
        text = {"running-config": dev.running_config(), "startup-config": dev.startup,
                "system:/running-config": dev.running_config()}.get(src, dev.files.get(src))
        if text is None:
            raise CliFailure(f"Error copying {src} to {dst} (No such file or directory)")
        if dst == "startup-config":
            dev.startup = text
        elif dst.startswith("flash:"):
            dev.files[dst] = text
        elif dst == "running-config":
            dev.replace_running(text)
        else:
            raise CliFailure(f"Invalid input (at token 2: '{dst}')", 1002, "invalid command")
        return {"output": "Copy completed successfully.\n"} if self.fmt == "text" else {}

    def _configure_session(self, words: list[str], low: list[str]) -> Any:
        dev = self.dev
        if not words:
            raise CliFailure("Incomplete command", 1002, "invalid command")
        name = words[0]
        action = low[1:]
        session = dev.sessions.get(name)
        if not action:
            if session is None or session.state == "completed":
                session = Session(name, dev.running.copy(), user=dev.spec.username)
                dev.sessions[name] = session
            self._enter_session(session)
            return self._ok()
        if session is None:
            raise CliFailure(f"% Session {name} does not exist")
        if action == ["commit"]:
            dev.commit(session, None)
        elif action[:2] == ["commit", "timer"] and len(action) == 3:
            dev.commit(session, _duration(action[2]))
        elif action == ["abort"]:
            dev.abort(session)
        else:
            raise CliFailure(f"Invalid input (at token 3: '{words[1]}')", 1002, "invalid command")
        return self._ok()

    def _enter_session(self, session: Session) -> None:
        self.session = session
        self.editor = ModalEditor(GRAMMAR, session.config, strict=self.dev.spec.strict,
                                  indexed=True)

    # --- config mode ------------------------------------------------------------------------------
    def _config(self, text: str, words: list[str], low: list[str],
                data: str | None = None) -> Any:
        assert self.editor is not None
        dev = self.dev
        if low == ["end"]:
            self.editor, self.session = None, None
            return self._ok()
        if low == ["exit"]:
            if not self.editor.exit():
                self.editor, self.session = None, None
            return self._ok()
        if low[0] == "comment":
            return self._ok()
        if " ".join(low) in GRAMMAR.heredocs:
            try:
                set_heredoc(self.editor, text, data or "")
            except ConfigError as e:
                raise CliFailure(f"Invalid input (at token {e.token or 0}: '{e.bad}')", 1002,
                                 "invalid command") from None
            return self._ok()
        if self.session is not None:
            if low == ["rollback", "clean-config"]:
                fault = dev.apply_fault("load")
                if fault is not None and fault.kind == FaultKind.COMMIT_ERROR:
                    raise CliFailure(fault.message or "rollback clean-config failed")
                self.session.config.children = dev.clean_config().children
                self.editor = ModalEditor(GRAMMAR, self.session.config, strict=dev.spec.strict,
                                          indexed=True)
                return self._ok()
            if low == ["commit"] or low[:2] == ["commit", "timer"]:
                dev.commit(self.session, _duration(low[2]) if len(low) == 3 else None)
                self.editor, self.session = None, None
                return self._ok()
            if low == ["abort"]:
                dev.abort(self.session)
                self.editor, self.session = None, None
                return self._ok()
        try:
            self.editor.apply(text)
        except ConfigError as e:
            if e.token is None:
                raise CliFailure("Incomplete command", 1002, "invalid command") from None
            raise CliFailure(f"Invalid input (at token {e.token}: '{e.bad}')", 1002,
                             "invalid command") from None
        return self._ok()


#: a placeholder hash for the default login (not any real password)
_LAB_HASH = "$6$netcfglab$" + "0" * 86
