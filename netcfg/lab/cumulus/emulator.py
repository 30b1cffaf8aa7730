"""NVIDIA Cumulus Linux over SSH: a bash-like login shell that runs NVUE's `nv` commands.

State: numbered revisions (NVUE's revision store), the applied revision, the startup
configuration (auto-save: saved on every apply, as from Cumulus Linux 5.9), one pending
revision per user, and an `nv config apply --confirm` timer on the lab clock that re-applies
the previous revision unless `--confirm-yes` arrives first. Files uploaded by SFTP/SCP land in
the user's home directory, where `nv config replace|patch <file>` read them.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from netcfg.lab.clock import Timer
from netcfg.lab.cumulus import config as cfg
from netcfg.lab.cumulus import factory
from netcfg.lab.cumulus.schema import Leaf, SchemaError, release, validate, walk
from netcfg.lab.device import DeviceSpec, Dropped, Emulator, LabContext
from netcfg.lab.faults import FaultKind
from netcfg.lab.oper import Wiring, run_linux_state, wiring_of

DEFAULT_VERSION = "5.15.0"
DEFAULT_MODEL = "MSN5600"
DEFAULT_INTERFACES = [f"swp{i}" for i in range(1, 9)]
OTHER_USER = "operator"  # the user the lock_held fault pretends is applying
_CONFIRM_DEFAULT = 600.0  # `--confirm` without a time: ten minutes


class NvError(Exception):
    """An `nv` command failure: the text NVUE prints."""


@dataclass
class Revision:
    rev: int
    tree: cfg.Tree
    user: str
    state: str = "pending"  # pending | apply | confirm | applied | applied_and_saved | detached
    date: float | None = None
    message: str = ""
    apply_count: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def _date(t: float | None) -> str:
    if t is None:
        return ""
    return dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _duration(spec: str) -> float:
    """`--confirm` time: `300s`, `10m`, `1h`; a bare number means minutes."""
    m = re.fullmatch(r"(\d+)([smh]?)", spec)
    if not m:
        raise NvError(f"Error: Invalid confirm time '{spec}' (use <N>[s|m|h])")
    return int(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "": 60}[m.group(2)]


class CumulusEmulator(Emulator):
    nos = "cumulus"
    napalm_driver = "netcfg_cumulus"

    def __init__(self, spec: DeviceSpec, ctx: LabContext, address: str) -> None:
        super().__init__(spec, ctx, address)
        self.version = spec.version or DEFAULT_VERSION
        self.release = release(self.version)
        self.interfaces = spec.interfaces or DEFAULT_INTERFACES
        self.home = Path(ctx.workdir) / f"{spec.name}-home"
        self.home.mkdir(parents=True, exist_ok=True)
        self.factory = factory.load(spec.options)
        startup = factory.first_boot(self.factory, self.release, spec.name, spec.username)
        if spec.startup_config:
            startup = {}
            cfg.apply_ops(startup, cfg.parse_document(spec.startup_config))
        #: why the management port is out of reach (None: it answers): factory.management
        self.cut_off: str | None = None
        if spec.strict:
            validate(startup, self.release)
        self.revisions: dict[int, Revision] = {}
        self._next_rev = 1
        first = self._new_revision(startup, "root")
        first.state, first.date, first.message = "applied_and_saved", self.clock.time(), \
            "Initial configuration"
        first.apply_count = 1
        self.applied_rev = first.rev
        self.startup = copy.deepcopy(startup)
        self.pending: dict[str, int] = {}
        self.confirm: tuple[int, int, Timer] | None = None  # (rev, previous rev, timer)
        self.record("boot", "factory configuration: " + (
            "the given startup configuration" if spec.startup_config else self.factory.source))

    async def start(self) -> None:
        await self.serve_ssh("ssh", shell=lambda: NvueShell(self), files=self.home)

    # --- stores ----------------------------------------------------------------------------------
    @property
    def applied(self) -> cfg.Tree:
        return self.revisions[self.applied_rev].tree

    @property
    def hostname(self) -> str:
        return str(self.applied.get("system", {}).get("hostname") or self.spec.name)

    def running_config(self) -> str:
        return cfg.show(self.applied, self._header())

    def startup_config(self) -> str:
        return cfg.show(self.startup, self._header())

    def candidate_config(self) -> str | None:
        rev = self.pending.get(self.spec.username)
        if rev is None or self.revisions[rev].tree == self.applied:
            return None
        return cfg.show(self.revisions[rev].tree, self._header())

    def _header(self) -> cfg.Tree:
        return {"model": self.spec.model or DEFAULT_MODEL, "nvue-api-version": "nvue_v1",
                "rev-id": 1.0, "version": f"Cumulus Linux {self.version}"}

    def on_reboot(self) -> None:
        if self.confirm is not None:
            self.confirm[2].cancel()
            self.revisions[self.confirm[0]].state = "confirm_fail"
            self.confirm = None
        for rev in self.pending.values():
            self.revisions[rev].state = "detached"
        self.pending.clear()
        boot = self._new_revision(copy.deepcopy(self.startup), "root")
        boot.state, boot.date, boot.message = "applied_and_saved", self.clock.time(), \
            "Startup configuration"
        self.applied_rev = boot.rev
        self._check_management()

    def on_fault_armed(self, fault: Any) -> None:
        if fault.kind == FaultKind.LOCK_HELD:
            rev = self._new_revision(copy.deepcopy(self.applied), OTHER_USER)
            rev.state = "apply"
            self.pending[OTHER_USER] = rev.rev
        elif fault.kind == FaultKind.STALE_SESSION:
            rev = self._pending_for(self.spec.username)
            cfg.set_tree(rev.tree, {"system": {"timezone": "Etc/UTC"}})

    def on_faults_cleared(self) -> None:
        rev = self.pending.pop(OTHER_USER, None)
        if rev is not None:
            self.revisions[rev].state = "detached"

    def napalm_kwargs(self) -> dict[str, Any]:
        return {"hostname": self.address, "username": self.spec.username,
                "password": self.spec.password, "timeout": 10,
                "optional_args": {"port": self.listeners["ssh"].port,
                                  "known_hosts": str(self.ctx.trust.known_hosts_path)}}

    # --- revisions --------------------------------------------------------------------------------
    def _new_revision(self, tree: cfg.Tree, user: str) -> Revision:
        rev = Revision(self._next_rev, tree, user)
        self.revisions[rev.rev] = rev
        self._next_rev += 1
        return rev

    def _pending_for(self, user: str) -> Revision:
        rev = self.pending.get(user)
        if rev is None:
            new = self._new_revision(copy.deepcopy(self.applied), user)
            self.pending[user] = new.rev
            return new
        return self.revisions[rev]

    def _resolve(self, name: str, user: str) -> Revision | cfg.Tree:
        if name == "applied":
            return self.revisions[self.applied_rev]
        if name == "startup":
            return self.startup
        if name == "empty":
            return {}
        if name == "pending":
            return self._pending_for(user)
        if name.isdigit() and int(name) in self.revisions:
            return self.revisions[int(name)]
        raise NvError(f"Error: Revision '{name}' not found")

    def _tree_of(self, name: str, user: str) -> cfg.Tree:
        found = self._resolve(name, user)
        return found.tree if isinstance(found, Revision) else found

    # --- configuration operations -----------------------------------------------------------------
    def load_file(self, user: str, path: str, replace: bool) -> str:
        self.record("ssh", f"nv config {'replace' if replace else 'patch'} {path}")
        file = self._file(path)
        ops = cfg.parse_document(file.read_text())
        fault = self.apply_fault("load")
        if fault is not None and fault.kind == FaultKind.COMMIT_ERROR:
            raise NvError(f"Error: {fault.message or 'configuration load failed'}")
        rev = self._pending_for(user)
        tree: cfg.Tree = {} if replace else copy.deepcopy(rev.tree)
        for op, body in ops:
            if op == "command":
                self._command_into(tree, body["line"])
            else:
                cfg.apply_ops(tree, [(op, body)])
        self._validate(tree, rev.rev)
        rev.tree = tree
        return ""

    def _file(self, path: str) -> Path:
        rel = path
        for prefix in (f"/home/{self.spec.username}/", "~/", "/"):
            if rel.startswith(prefix):
                rel = rel[len(prefix):]
                break
        target = (self.home / rel).resolve()
        if self.home.resolve() not in target.parents or not target.is_file():
            raise NvError(f"Error: File '{path}' not found")
        return target

    def _validate(self, tree: cfg.Tree, rev: int) -> None:
        if not self.spec.strict:
            return
        try:
            validate(tree, self.release)
        except SchemaError as e:
            raise NvError(f"Error: Invalid config [rev_id: {rev}]\n  {e}") from None

    def _command_into(self, tree: cfg.Tree, line: str) -> None:
        words = shlex.split(line)
        op, path = words[1], words[2:]
        node, used = walk(path, self.release)
        if op == "unset":
            if used != len(path) and self.spec.strict:
                raise NvError(f"Error: Invalid Command: {' '.join(words[1:])}")
            cfg.unset_tree(tree, cfg.path_tree(path, None))
            return
        if isinstance(node, Leaf) or not self.spec.strict:
            if used != len(path) - 1 and self.spec.strict:
                raise NvError(f"Error: Invalid Command: {' '.join(words[1:])}")
            value: Any = path[-1]
            value = int(value) if value.isdigit() else value
            cfg.set_tree(tree, cfg.path_tree(path[:-1], value))
        elif used == len(path):
            cfg.set_tree(tree, cfg.path_tree(path, {}))
        else:
            raise NvError(f"Error: Invalid Command: {' '.join(words[1:])}")

    def nv_set(self, user: str, line: str) -> str:
        rev = self._pending_for(user)
        tree = copy.deepcopy(rev.tree)
        self._command_into(tree, line)
        self._validate(tree, rev.rev)
        rev.tree = tree
        return ""

    def detach(self, user: str) -> str:
        rev = self.pending.pop(user, None)
        if rev is not None:
            self.revisions[rev].state = "detached"
        return ""

    def apply(self, user: str, target: str | None, confirm: float | None, message: str) -> str:
        if self.confirm is not None:
            raise NvError(f"Error: Revision {self.confirm[0]} is pending confirmation; confirm it "
                          "(--confirm-yes) or roll it back (--confirm-no) first")
        busy = [r for r in self.revisions.values() if r.state == "apply" and r.user != user]
        if busy:
            raise NvError(f"Error: Unable to apply: revision {busy[0].rev} is being applied by "
                          f"{busy[0].user}")
        if target is None:
            if user not in self.pending:
                raise NvError("Error: No pending configuration to apply")
            rev = self.revisions[self.pending[user]]
            phase = "commit"
        else:
            tree = copy.deepcopy(self._tree_of(target, user))
            rev = self._new_revision(tree, user)
            rev.message = f"Apply revision {target}"
            phase = "rollback"
        self._validate(rev.tree, rev.rev)
        self._check_login_user(rev.tree)
        fault = self.apply_fault(phase)
        if fault is not None and fault.kind == FaultKind.COMMIT_ERROR:
            raise NvError(f"Error: {fault.message or 'apply failed'}")
        previous = self.applied_rev
        self.pending.pop(user, None)
        rev.date, rev.message = self.clock.time(), message or rev.message or \
            f"Config update by {user}"
        rev.apply_count += 1
        self.applied_rev = rev.rev
        if confirm is not None:
            rev.state = "confirm"
            timer = self.clock.call_later(confirm, lambda: self._confirm_expired(rev.rev))
            self.confirm = (rev.rev, previous, timer)
        else:
            rev.state = "applied_and_saved"
            self.startup = copy.deepcopy(rev.tree)
        if self._check_management() or (fault is not None
                                         and fault.kind == FaultKind.DROP_AFTER_APPLY):
            raise Dropped()
        return f"applied [rev_id: {rev.rev}]"

    def _check_management(self) -> bool:
        """Cut the management port off, or give it back, as the applied revision says
        (factory.management): True where this apply cut it off. Connections in progress drop
        and new ones are refused, as on a switch whose eth0 left `mgmt`; the log says why."""
        reason = factory.management(self.applied, self.release)
        was, self.cut_off = self.cut_off, reason
        if reason is not None and was is None:
            self.record("mgmt", f"management lost: {reason}")
            self._shut_listeners()
            return True
        if reason is None and was is not None:
            self.record("mgmt", "management reachable again: eth0 in vrf mgmt")
            if not self.booting and not self._refusing:
                self._spawn(self._open_listeners())
        return False

    async def _open_listeners(self) -> None:
        if self.cut_off is None:
            await super()._open_listeners()

    def user_configured(self, username: str) -> bool:
        """The login exists in the applied revision (`system aaa user`)."""
        return username in ((self.applied.get("system") or {}).get("aaa") or {}).get("user", {})

    def _check_login_user(self, tree: cfg.Tree) -> None:
        users = tree.get("system", {}).get("aaa", {}).get("user", {})
        if self.spec.username not in users:
            raise NvError(f"Error: Cannot delete user '{self.spec.username}': the user is "
                          "logged in")

    def confirm_yes(self) -> str:
        if self.confirm is None:
            raise NvError("Error: No revision is pending confirmation")
        fault = self.apply_fault("confirm")
        if fault is not None and fault.kind == FaultKind.COMMIT_ERROR:
            raise NvError(f"Error: {fault.message or 'confirm failed'}")
        rev, _, timer = self.confirm
        timer.cancel()
        self.confirm = None
        self.revisions[rev].state = "applied_and_saved"
        self.startup = copy.deepcopy(self.revisions[rev].tree)
        if fault is not None and fault.kind == FaultKind.DROP_AFTER_APPLY:
            raise Dropped()
        return f"applied [rev_id: {rev}]"

    def confirm_no(self) -> str:
        if self.confirm is None:
            raise NvError("Error: No revision is pending confirmation")
        self.confirm[2].cancel()
        self._confirm_expired(self.confirm[0])
        return "rolled back"

    def _confirm_expired(self, rev: int) -> None:
        if self.confirm is None or self.confirm[0] != rev:
            return
        _, previous, _ = self.confirm
        self.confirm = None
        self.revisions[rev].state = "confirm_fail"
        back = self._new_revision(copy.deepcopy(self.revisions[previous].tree), "root")
        back.state, back.date = "applied_and_saved", self.clock.time()
        back.message = f"Rollback of revision {rev}: not confirmed"
        back.apply_count = 1
        self.applied_rev = back.rev
        self.startup = copy.deepcopy(back.tree)
        self.record("timer", f"confirm expired: revision {rev} rolled back to {previous}")
        self._check_management()

    def confirm_status(self) -> str:
        if self.confirm is None:
            return "No revision is pending confirmation"
        left = max(0, int(round(self.confirm[2].due - self.clock.time())))
        return f"Revision {self.confirm[0]}: {left} seconds left to confirm"

    # --- show -------------------------------------------------------------------------------------
    def revision_table(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for rev in self.revisions.values():
            out[str(rev.rev)] = {
                "state": rev.state, "user": rev.user, "type": "CLI",
                "apply-id": f"rev_{rev.rev}_apply_{rev.apply_count}" if rev.apply_count else "",
                "apply-date": _date(rev.date), "reason": "Config update",
                "message": rev.message}
        return out

    def show_system(self) -> dict[str, Any]:
        return {"hostname": self.hostname, "build": f"Cumulus Linux {self.version}",
                "product-name": "Cumulus Linux", "product-release": self.version,
                "uptime": int(self.uptime), "timezone":
                    self.applied.get("system", {}).get("timezone", "Etc/UTC")}

    def show_platform(self) -> dict[str, Any]:
        return {"manufacturer": "Mellanox", "product-name": self.spec.model or DEFAULT_MODEL,
                "serial-number": f"MT{abs(hash(self.name)) % 10**10:010d}",
                "system-mac": "44:38:39:00:00:01"}

    def show_interfaces(self) -> dict[str, Any]:
        configured = self.applied.get("interface", {})
        # with the lab's wiring a port is up when its link is (netcfg/lab/oper.py)
        wiring = wiring_of(self.spec.options)
        if wiring is None:
            return self._interfaces(configured, None)
        with wiring.answering():
            return self._interfaces(configured, wiring)

    def _interfaces(self, configured: dict[str, Any], wiring: Wiring | None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        names = ["lo", "eth0"] + [n for n in self.interfaces if n not in ("lo", "eth0")]
        names += [n for n in configured if n not in names and "-" not in n and "," not in n]
        for i, name in enumerate(names):
            conf = configured.get(name, {})
            link = conf.get("link", {}) if isinstance(conf, dict) else {}
            down = link.get("state") == "down"
            kind = conf.get("type") or ("loopback" if name == "lo" else
                                        "eth" if name.startswith("eth") else "swp")
            oper_down = down or (kind == "swp" and wiring is not None
                                 and not wiring.link_up(self.name, name))
            out[name] = {"type": kind,
                         "description": conf.get("description", ""),
                         "link": {"admin-status": "down" if down else "up",
                                  "oper-status": "down" if oper_down else "up",
                                  "mtu": link.get("mtu", 65536 if name == "lo" else 9216),
                                  "speed": link.get("speed", "400G") if kind == "swp" else
                                  ("1G" if kind == "eth" else ""),
                                  "mac": f"44:38:39:00:01:{i % 256:02x}",
                                  "last-change-uptime": int(self.uptime)}}
        return out


class NvueShell:
    """One login: bash prompt, `nv` commands, a yes/no question when `-y` is missing."""

    def __init__(self, device: CumulusEmulator) -> None:
        self.device = device
        self.user = device.spec.username
        self.closed = False
        self._question: str | None = None

    def banner(self) -> str:
        return (f"Linux {self.device.hostname} 6.1.0-cl-1-amd64 #1 SMP Debian x86_64\n"
                f"Welcome to NVIDIA Cumulus (R) Linux (R)\n\n")

    def prompt(self) -> str:
        if self._question:
            return "Are you sure? [y/N] "
        return f"{self.user}@{self.device.hostname}:mgmt:~$ "

    async def handle(self, line: str) -> str:
        dev = self.device
        if self._question is not None:
            pending, self._question = self._question, None
            if line.strip().lower() not in ("y", "yes"):
                return "Declined apply after warnings"
            return self._run(shlex.split(pending) + ["-y"])
        line = line.strip()
        if not line:
            return ""
        dev.record("ssh", line)
        try:
            words = shlex.split(line)
        except ValueError as e:
            return f"-bash: syntax error: {e}"
        if words[0] in ("exit", "logout"):
            self.closed = True
            return ""
        wiring = wiring_of(dev.spec.options)  # operational state: netcfg/lab/oper.py
        if wiring is not None and (got := run_linux_state(wiring, dev.name, words)) is not None:
            return got  # FRR's and lldpd's JSON, as Cumulus Linux runs both
        if words[0] != "nv":
            return f"-bash: {words[0]}: command not found"
        if words[1:3] == ["config", "apply"] and not {"-y", "--y", "--assume-yes",
                                                      "--confirm-yes", "--confirm-no",
                                                      "--confirm-status"} & set(words):
            self._question = line
            return "Warning: The following files will be changed and reloaded by NVUE."
        return self._run(words)

    def _run(self, words: list[str]) -> str:
        try:
            return self._nv(words[1:])
        except NvError as e:
            return str(e)
        except (cfg.DocumentError, SchemaError) as e:
            return f"Error: {e}"

    def _nv(self, args: list[str]) -> str:
        dev = self.device
        fmt = _option(args, "-o", "--output") or "auto"
        if not args:
            raise NvError("Error: Missing command; try 'nv --help'")
        verb = args[0]
        if verb in ("set", "unset"):
            return dev.nv_set(self.user, "nv " + " ".join(shlex.quote(a) for a in args))
        if verb == "show":
            return self._show(args[1:], fmt)
        if verb != "config" or len(args) < 2:
            raise NvError(f"Error: Invalid Command: {' '.join(args)}")
        sub, rest = args[1], args[2:]
        if sub in ("replace", "patch"):
            if not rest:
                raise NvError(f"Error: usage: nv config {sub} <nvue-file>")
            return dev.load_file(self.user, rest[0], replace=sub == "replace")
        if sub == "diff":
            revs = [a for a in rest if not a.startswith("-")]
            if len(revs) == 2:
                old, new = dev._tree_of(revs[0], self.user), dev._tree_of(revs[1], self.user)
            else:
                rev = dev.pending.get(self.user)
                new = dev.revisions[rev].tree if rev is not None else dev.applied
                old = dev.applied
            return cfg.render_ops(cfg.diff(old, new), "yaml" if fmt == "auto" else fmt)
        if sub == "show":
            name = _option(rest, "-r", "--rev") or "applied"
            return cfg.show(dev._tree_of(name, self.user), dev._header(),
                            "yaml" if fmt == "auto" else fmt)
        if sub == "apply":
            if "--confirm-yes" in rest:
                return dev.confirm_yes()
            if "--confirm-no" in rest:
                return dev.confirm_no()
            if "--confirm-status" in rest:
                return dev.confirm_status()
            message = _option(rest, "-m", "--message") or ""
            confirm: float | None = None
            if "--confirm" in rest:
                i = rest.index("--confirm")
                nxt = rest[i + 1] if i + 1 < len(rest) else ""
                if re.fullmatch(r"\d+[smh]?", nxt):
                    confirm = _duration(nxt)
                    del rest[i + 1]
                else:
                    confirm = _CONFIRM_DEFAULT
                rest.remove("--confirm")
            targets = [a for a in rest if not a.startswith("-")]
            return dev.apply(self.user, targets[0] if targets else None, confirm, message)
        if sub == "detach":
            return dev.detach(self.user)
        if sub in ("revision", "history"):
            table = dev.revision_table()
            if fmt == "json":
                return json.dumps(table, indent=2)
            rows = [f"{'Rev ID':<8}{'State':<20}{'Apply Date':<21}{'User':<10}Message"]
            rows += [f"{k:<8}{v['state']:<20}{v['apply-date']:<21}{v['user']:<10}{v['message']}"
                     for k, v in table.items()]
            return "\n".join(rows)
        if sub == "save":
            dev.startup = copy.deepcopy(dev.applied)
            return "saved"
        if sub == "delete":
            for a in rest:
                gone = dev.revisions.get(int(a)) if a.isdigit() else None
                if gone is None or gone.rev == dev.applied_rev or gone.state == "confirm":
                    raise NvError(f"Error: Revision '{a}' cannot be deleted")
                del dev.revisions[gone.rev]
                dev.pending = {u: r for u, r in dev.pending.items() if r != gone.rev}
            return ""
        raise NvError(f"Error: Invalid Command: config {sub}")

    def _show(self, path: list[str], fmt: str) -> str:
        dev = self.device
        target = [p for p in path if not p.startswith("-")]
        if target == ["system"]:
            data: Any = dev.show_system()
        elif target == ["platform"]:
            data = dev.show_platform()
        elif target == ["interface"]:
            data = dev.show_interfaces()
        elif len(target) == 2 and target[0] == "interface":
            data = dev.show_interfaces().get(target[1])
            if data is None:
                raise NvError(f"Error: The requested item does not exist: interface {target[1]}")
        else:
            raise NvError(f"Error: Invalid Command: show {' '.join(path)}")
        if fmt == "json":
            return json.dumps(data, indent=2)
        return cfg.dump_yaml(data)


def _option(args: list[str], short: str, long: str) -> str | None:
    """Remove `-o json` / `--output=json` style options from `args` and return the value."""
    for i, a in enumerate(args):
        if a in (short, long) and i + 1 < len(args):
            value = args[i + 1]
            del args[i:i + 2]
            return value
        if a.startswith(long + "="):
            del args[i]
            return a.split("=", 1)[1]
    return None
