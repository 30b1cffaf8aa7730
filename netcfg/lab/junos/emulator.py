"""Juniper Junos over NETCONF (the RPCs PyEZ and NAPALM's `junos` driver send).

State: one shared candidate, the committed configuration and a commit history (rollback N),
an exclusive lock owned by a NETCONF session (released when it disconnects), and a
`commit confirmed` timer that re-commits the previous configuration unless confirmed.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

import asyncssh
from lxml import etree

from netcfg.lab.clock import Timer
from netcfg.lab.device import DeviceSpec, Dropped, Emulator, LabContext
from netcfg.lab.faults import FaultKind
from netcfg.lab.junos import oper as junos_oper
from netcfg.lab.junos.config import (
    JNode,
    JunosSyntaxError,
    apply_set,
    compare,
    from_xml,
    merge,
    new_root,
    parse_text,
    to_text,
    to_xml,
)
from netcfg.lab.junos.netconf import BASE_11, Framing
from netcfg.lab.junos.yang import JunosYang
from netcfg.lab.oper import Wiring, wiring_of

JUNOS_NS = "http://xml.juniper.net/junos/23.4R1/junos"
DEFAULT_VERSION = "23.4R1.10"
DEFAULT_INTERFACES = [f"et-0/0/{i}" for i in range(8)]
_SESSION_IDS = itertools.count(20000)
OTHER_USER = -1  # lock owner id of the operator injected by the lock_held fault


@dataclass
class Commit:
    tree: JNode
    time: float
    user: str
    comment: str | None
    seq: int


class RpcFailure(Exception):
    """An rpc-error to send back (inside `wrapper` when the NOS puts it there)."""

    def __init__(self, message: str, bad: str | None = None, path: str | None = None,
                 wrapper: str | None = None, tag: str = "operation-failed") -> None:
        super().__init__(message)
        self.message, self.bad, self.path, self.wrapper, self.tag = message, bad, path, wrapper, tag

    def xml(self) -> str:
        info = f"<error-info><bad-element>{escape(self.bad)}</bad-element></error-info>" \
            if self.bad else ""
        path = f"<error-path>{escape(self.path)}</error-path>" if self.path else ""
        err = (f"<rpc-error><error-type>protocol</error-type><error-tag>{self.tag}</error-tag>"
               f"<error-severity>error</error-severity>{path}{info}"
               f"<error-message>{escape(self.message)}</error-message></rpc-error>")
        if self.wrapper == "load-configuration-results":
            return f"<{self.wrapper}>{err}<load-error-count>1</load-error-count></{self.wrapper}>"
        return f"<{self.wrapper}>{err}</{self.wrapper}>" if self.wrapper else err


def _date(t: float) -> str:
    return dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


class JunosEmulator(Emulator):
    nos = "junos"
    napalm_driver = "junos"

    def __init__(self, spec: DeviceSpec, ctx: LabContext, address: str) -> None:
        super().__init__(spec, ctx, address)
        self.version = spec.version or DEFAULT_VERSION
        self.interfaces = spec.interfaces or DEFAULT_INTERFACES
        text = spec.startup_config or default_config(spec.name, spec.username)
        self.committed = parse_text(text)
        self.candidate = self.committed.copy()
        self.history: list[Commit] = [Commit(self.committed.copy(), self.clock.time(), "root",
                                             None, 0)]
        self._seq = itertools.count(1)
        self.lock_owner: int | None = None
        self.confirm_timer: Timer | None = None
        self._sessions: dict[Any, int] = {}
        self.yang = JunosYang.from_options(spec.options)

    async def start(self) -> None:
        await self.serve_ssh("netconf", subsystems={"netconf": self._netconf},
                             on_disconnect=self._disconnected)

    # --- stores ----------------------------------------------------------------------------------
    @property
    def hostname(self) -> str:
        node = self.committed.find(["system", "host-name"])
        return node.value if node is not None and node.value else self.spec.name

    def running_config(self) -> str:
        return to_text(self.committed)

    def startup_config(self) -> str:
        return to_text(self.committed)  # Junos commits are persistent

    def candidate_config(self) -> str | None:
        return None if self._clean() else to_text(self.candidate)

    def _clean(self) -> bool:
        return to_text(self.candidate) == to_text(self.committed)

    def on_reboot(self) -> None:
        if self.confirm_timer is not None:
            self.confirm_timer.cancel()
            self._expire_confirm()
        self.candidate = self.committed.copy()
        self.lock_owner = None

    def on_fault_armed(self, fault: Any) -> None:
        if fault.kind == FaultKind.LOCK_HELD:
            self.lock_owner = OTHER_USER
        elif fault.kind == FaultKind.STALE_SESSION:
            apply_set(self.candidate, "set system time-zone Etc/UTC")

    def on_faults_cleared(self) -> None:
        if self.lock_owner == OTHER_USER:
            self.lock_owner = None

    def napalm_kwargs(self) -> dict[str, Any]:
        return {"hostname": self.address, "username": self.spec.username,
                "password": self.spec.password, "timeout": 10,
                "optional_args": {"port": self.listeners["netconf"].port}}

    # --- NETCONF session --------------------------------------------------------------------------
    def _disconnected(self, conn: Any) -> None:
        sid = self._sessions.pop(conn, None)
        if sid is not None and self.lock_owner == sid:
            self.lock_owner = None

    async def _netconf(self, process: asyncssh.SSHServerProcess) -> None:
        sid = next(_SESSION_IDS)
        self._sessions[process.get_extra_info("connection")] = sid
        framing = Framing(process)
        base11 = self.spec.options.get("netconf_1_1", True)
        framing.hello(sid, base11)
        hello = await framing.read()
        if hello is None:
            return
        framing.chunked = base11 and BASE_11.encode() in hello
        while True:
            message = await framing.read()
            if message is None:
                return
            try:
                rpc = etree.fromstring(message)
            except etree.XMLSyntaxError:
                continue
            await self.gate("request")
            reply, close = self._dispatch(rpc, sid)
            framing.write(reply)
            if close:
                process.exit(0)
                return

    def _dispatch(self, rpc: etree._Element, sid: int) -> tuple[str, bool]:
        mid = rpc.get("message-id", "")
        ops = [c for c in rpc if isinstance(c.tag, str)]
        name = etree.QName(ops[0]).localname if ops else ""
        self.record("netconf", name)
        close = name == "close-session"
        try:
            handler = getattr(self, "rpc_" + name.replace("-", "_"), None)
            oper = wiring_of(self.spec.options)  # operational state (netcfg/lab/junos/oper.py)
            if handler is None and oper is not None and ops:
                handler = _oper_rpc(self, oper, name, ops[0])
            if handler is None and not close:
                raise RpcFailure("syntax error", bad=name)
            body = "<ok/>" if close or handler is None else handler(ops[0], sid)
        except RpcFailure as e:
            body = e.xml()
        head = (f'<rpc-reply xmlns="urn:ietf:params:xml:ns:netconf:base:1.0" '
                f'xmlns:junos="{JUNOS_NS}" message-id="{escape(mid)}">')
        return head + body + "</rpc-reply>", close

    # --- operational RPCs -------------------------------------------------------------------------
    def rpc_get_system_uptime_information(self, op: etree._Element, sid: int) -> str:
        now, boot = self.clock.time(), self.boot_time
        last = self.history[0].time
        return (f"<system-uptime-information><current-time><date-time junos:seconds=\"{int(now)}\">"
                f"{_date(now)}</date-time></current-time><system-booted-time>"
                f"<date-time junos:seconds=\"{int(boot)}\">{_date(boot)}</date-time>"
                f"<time-length junos:seconds=\"{int(now - boot)}\">{int(now - boot)}</time-length>"
                f"</system-booted-time><last-configured-time>"
                f"<date-time junos:seconds=\"{int(last)}\">{_date(last)}</date-time>"
                f"</last-configured-time></system-uptime-information>")

    def rpc_get_software_information(self, op: etree._Element, sid: int) -> str:
        model = self.spec.model or "qfx5240-64od"
        return (f"<software-information><host-name>{escape(self.hostname)}</host-name>"
                f"<product-model>{model}</product-model><product-name>{model}</product-name>"
                f"<junos-version>{self.version}</junos-version><package-information>"
                f"<name>junos</name><comment>JUNOS OS Evolved [{self.version}]</comment>"
                f"</package-information></software-information>")

    def rpc_get_chassis_inventory(self, op: etree._Element, sid: int) -> str:
        return (f'<chassis-inventory><chassis junos:style="inventory"><name>Chassis</name>'
                f"<serial-number>LAB{abs(hash(self.name)) % 10**8:08d}</serial-number>"
                f"<description>{self.spec.model or 'QFX5240-64OD'}</description></chassis>"
                f"</chassis-inventory>")

    def rpc_get_route_engine_information(self, op: etree._Element, sid: int) -> str:
        up = int(self.uptime)
        return (f"<route-engine-information><route-engine><slot>0</slot>"
                f"<mastership-state>master</mastership-state><status>OK</status>"
                f"<model>RE-{self.spec.model or 'QFX5240'}</model>"
                f'<up-time junos:seconds="{up}">{up} seconds</up-time>'
                f"</route-engine></route-engine-information>")

    def rpc_get_interface_information(self, op: etree._Element, sid: int) -> str:
        wanted = op.findtext("{*}interface-name") or op.findtext("interface-name")
        parts = []
        for i, name in enumerate(self.interfaces):
            if wanted and name != wanted:
                continue
            node = self.committed.find(["interfaces", name])
            desc = node.get("description") if node is not None else None
            mtu = node.get("mtu") if node is not None else None
            down = node is not None and node.get("disable") is not None
            oper = wiring_of(self.spec.options)
            link = not down and (oper is None or junos_oper.link_up(self, oper, name))
            parts.append(
                f"<physical-interface><name>{name}</name>"
                f"<admin-status>{'down' if down else 'up'}</admin-status>"
                f"<oper-status>{'up' if link else 'down'}</oper-status>"
                + (f"<description>{escape(desc.value or '')}</description>" if desc else "")
                + f"<mtu>{mtu.value if mtu else '1514'}</mtu><speed>400Gbps</speed>"
                f"<current-physical-address>00:00:5e:00:53:{i % 256:02x}</current-physical-address>"
                f'<interface-flapped junos:seconds="{int(self.uptime)}">'
                f"{int(self.uptime)}</interface-flapped></physical-interface>")
        return f"<interface-information>{''.join(parts)}</interface-information>"

    # --- configuration RPCs -----------------------------------------------------------------------
    def rpc_lock_configuration(self, op: etree._Element, sid: int) -> str:
        if self.lock_owner not in (None, sid):
            who = "operator terminal p0 (pid 4242)" if self.lock_owner == OTHER_USER \
                else f"netconf session {self.lock_owner}"
            raise RpcFailure(f"configuration database locked by:\n  {who} on since "
                             f"{_date(self.boot_time)}\n  exclusive [edit]", tag="lock-denied")
        if self.lock_owner is None and not self._clean():
            raise RpcFailure("configuration database modified", tag="lock-denied")
        self.lock_owner = sid
        return "<ok/>"

    def rpc_unlock_configuration(self, op: etree._Element, sid: int) -> str:
        if self.lock_owner == sid:
            self.lock_owner = None
        return "<ok/>"

    def _check_writable(self, sid: int, wrapper: str | None = None) -> None:
        if self.lock_owner not in (None, sid):
            raise RpcFailure("configuration database locked by another session",
                             wrapper=wrapper, tag="lock-denied")

    def rpc_load_configuration(self, op: etree._Element, sid: int) -> str:
        wrapper = "load-configuration-results"
        self._check_writable(sid, wrapper)
        fault = self.apply_fault("load")
        if fault is not None and fault.kind == FaultKind.COMMIT_ERROR:
            raise RpcFailure(fault.message or "load failed", wrapper=wrapper)
        if op.get("rollback") is not None:
            index = int(op.get("rollback") or 0)
            if index >= len(self.history):
                raise RpcFailure(f"rollback {index}: no such configuration", wrapper=wrapper)
            self.candidate = self.history[index].tree.copy()
            return f"<{wrapper}><ok/></{wrapper}>"
        action = op.get("action", "merge")
        fmt = op.get("format", "xml")
        try:
            if action == "set" or fmt == "set" or _child(op, "configuration-set") is not None:
                text = _child_text(op, "configuration-set")
                work = self.candidate.copy()
                for line in text.splitlines():
                    if line.strip() and not line.strip().startswith("#"):
                        apply_set(work, line.strip())
                self.candidate = work
                return f"<{wrapper}><ok/></{wrapper}>"
            if fmt == "text" or _child(op, "configuration-text") is not None:
                update = parse_text(_child_text(op, "configuration-text"))
            elif (element := _child(op, "configuration")) is not None:
                update = from_xml(element)
            else:
                raise RpcFailure("syntax error, expecting <configuration>", wrapper=wrapper)
        except JunosSyntaxError as e:
            raise RpcFailure(e.message, bad=e.bad, path=f"[edit {' '.join(e.path)}]".replace(
                "[edit ]", "[edit]"), wrapper=wrapper) from None
        if action == "override":
            self.candidate = update
        else:
            self.candidate = merge(self.candidate, update)
        return f"<{wrapper}><ok/></{wrapper}>"

    def rpc_get_configuration(self, op: etree._Element, sid: int) -> str:
        if op.get("compare") == "rollback":
            index = int(op.get("rollback") or 0)
            base = self.history[min(index, len(self.history) - 1)].tree
            diff = compare(base, self.candidate)
            return (f"<configuration-information><configuration-output>{escape(diff)}"
                    f"</configuration-output></configuration-information>")
        tree = self.candidate if op.get("database", "candidate") == "candidate" else self.committed
        if op.get("format") == "text":
            return f"<configuration-text>{escape(to_text(tree))}</configuration-text>"
        xml = to_xml(tree)
        wanted = _child(op, "configuration")
        if wanted is not None and len(wanted):
            xml = _filter(xml, wanted)
        xml.set(f"{{{JUNOS_NS}}}commit-seconds", str(int(self.history[0].time)))
        return etree.tostring(xml).decode()

    def rpc_commit_configuration(self, op: etree._Element, sid: int) -> str:
        wrapper = "commit-results"
        self._check_writable(sid, wrapper)
        self._check_schema(wrapper)
        if _child(op, "check") is not None:
            return f"<{wrapper}><routing-engine><name>re0</name><commit-check-success/>" \
                   f"</routing-engine></{wrapper}>"
        missing = _missing_mandatory(self.candidate)
        if missing is not None:
            raise RpcFailure(f"Missing mandatory statement: '{missing}'", path="[edit system]",
                             wrapper=wrapper)
        partitions = _partition_error(self.candidate)
        if partitions is not None:
            raise RpcFailure(partitions[1], path=partitions[0], wrapper=wrapper)
        confirming = self.confirm_timer is not None
        fault = self.apply_fault("confirm" if confirming else "commit")
        if fault is not None and fault.kind == FaultKind.COMMIT_ERROR:
            raise RpcFailure(fault.message or "commit failed", wrapper=wrapper)
        if self.confirm_timer is not None:
            self.confirm_timer.cancel()
            self.confirm_timer = None
        comment = _child_text(op, "log") or None
        if _child(op, "confirmed") is not None:
            minutes = int(_child_text(op, "confirm-timeout") or 10)
            comment = f"commit confirmed, rollback in {minutes}mins"
            self.confirm_timer = self.clock.call_later(minutes * 60, self._expire_confirm)
        self._commit(self.candidate, comment)
        if fault is not None and fault.kind == FaultKind.DROP_AFTER_APPLY:
            raise Dropped()
        return (f'<{wrapper}><routing-engine junos:style="normal"><name>re0</name>'
                f"<commit-success/><commit-revision-information><new-db-revision>"
                f"{self._revision(self.history[0])}</new-db-revision>"
                f"</commit-revision-information></routing-engine></{wrapper}>")

    def _check_schema(self, wrapper: str) -> None:
        """The candidate against Juniper's YANG for the release, where the lab has it: the
        first statement it refuses fails the commit (and `commit check`)."""
        if self.yang is None:
            return
        errors = self.yang.errors(to_text(self.candidate))
        if errors:
            _, where, message = errors[0]
            raise RpcFailure(message, path=f"[edit {where}]" if where else None,
                             wrapper=wrapper)

    def user_configured(self, username: str) -> bool:
        return self.committed.find(["system", "login", f"user {username}"]) is not None

    def _commit(self, tree: JNode, comment: str | None) -> None:
        self.committed = tree.copy()
        self.candidate = tree.copy()
        self.history.insert(0, Commit(tree.copy(), self.clock.time(), self.spec.username,
                                      comment, next(self._seq)))
        del self.history[50:]

    def _expire_confirm(self) -> None:
        """Commit confirmed not confirmed in time: commit rollback 1 again."""
        self.confirm_timer = None
        previous = self.history[1].tree if len(self.history) > 1 else new_root()
        self._commit(previous, None)

    def _revision(self, commit: Commit) -> str:
        return f"re0-{int(commit.time)}-{commit.seq}"

    def rpc_get_commit_revision_information(self, op: etree._Element, sid: int) -> str:
        last = self.history[0]
        comment = f"<comment>{escape(last.comment)}</comment>" if last.comment else ""
        return (f"<commit-revision-information><revision>{self._revision(last)}</revision>"
                f'<date-time junos:seconds="{int(last.time)}">{_date(last.time)}</date-time>'
                f"<user>{escape(last.user)}</user><client>netconf</client>{comment}"
                f"</commit-revision-information>")

    def rpc_open_configuration(self, op: etree._Element, sid: int) -> str:
        raise RpcFailure("private and exclusive configuration databases are not emulated")


def _oper_rpc(dev: JunosEmulator, oper: Wiring, name: str,
              op: etree._Element) -> Callable[[etree._Element, int], str] | None:
    """A handler for an operational RPC the lab's state answers (None: not one)."""
    body = junos_oper.rpc(dev, oper, name, op)
    return None if body is None else (lambda _op, _sid: body)


def _child(op: etree._Element, name: str) -> etree._Element | None:
    return next((c for c in op if isinstance(c.tag, str) and etree.QName(c).localname == name),
                None)


def _child_text(op: etree._Element, name: str) -> str:
    el = _child(op, name)
    return (el.text or "") if el is not None else ""


def _filter(config: etree._Element, wanted: etree._Element) -> etree._Element:
    """Keep only the subtrees of `config` named in the filter `wanted` (like a subtree filter)."""
    out = etree.Element("configuration")

    def walk(src: etree._Element, filt: etree._Element, dst: etree._Element) -> None:
        for f in filt:
            if not isinstance(f.tag, str):
                continue
            tag = etree.QName(f).localname
            for s in src:
                if isinstance(s.tag, str) and etree.QName(s).localname == tag:
                    if len(f):
                        d = etree.SubElement(dst, tag)
                        walk(s, f, d)
                    else:
                        dst.append(etree.fromstring(etree.tostring(s)))

    walk(config, wanted, out)
    return out


def default_config(hostname: str, username: str) -> str:
    """What a freshly installed switch has: its name, root's password and one login.
    The hashes are placeholders (not any real password)."""
    return (f"system {{\n    host-name {hostname};\n"
            f"    root-authentication {{\n        encrypted-password \"{_LAB_HASH}\";\n    }}\n"
            f"    login {{\n        user {username} {{\n            class super-user;\n"
            f"            authentication {{\n"
            f"                encrypted-password \"{_LAB_HASH}\";\n"
            f"            }}\n        }}\n    }}\n}}\n")


_LAB_HASH = "$6$netcfglab$" + "0" * 86


def _partition_error(tree: JNode) -> tuple[str, str] | None:
    """Juniper's `buffer-partition (Ingress)` and `(Egress)` pages: "The percentages you
    configure for the three ... shared buffer partitions must total exactly 100 percent. If the
    total ... is not 100 percent, the system returns a commit error and does not commit the
    configuration." A direction without partitions keeps the switch's default split. (The
    message's wording is the lab's; Juniper's page quotes none.)"""
    for direction in ("ingress", "egress"):
        node = tree.find(["class-of-service", "shared-buffer", direction])
        parts = [c for c in (node.children or []) if c.name.startswith("buffer-partition ")] \
            if node is not None else []
        if not parts:
            continue
        total = 0
        for part in parts:
            percent = part.get("percent")
            total += int(percent.value or 0) if percent is not None else 0
        if total != 100:
            return (f"[edit class-of-service shared-buffer {direction}]",
                    f"{direction} shared buffer partitions total {total} percent, not 100")
    return None


def _missing_mandatory(tree: JNode) -> str | None:
    """Junos refuses to commit a configuration without a root password."""
    return None if tree.find(["system", "root-authentication"]) is not None \
        else "root-authentication"

