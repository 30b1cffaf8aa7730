"""NAPALM driver for community SONiC, over SSH (netmiko `linux`: SONiC's management plane is a
Debian shell) with SFTP for files.

SONiC has no candidate datastore and no commit-confirm, so this driver keeps the candidate on
the client and builds the rest from SONiC's generic config updater (GCU):

* replace: upload the whole CONFIG_DB JSON, check it with `config replace --dry-run`, commit
  with `config replace` (GCU computes and orders the patch and validates it against YANG).
* merge: the candidate is a partial CONFIG_DB (fields set, nothing removed) or an RFC 6902
  patch; it becomes a JSON patch applied with `config apply-patch`. `config load` would write
  the file straight into CONFIG_DB without YANG validation or dependency ordering, and cannot
  be dry-run, so it is not used.
* compare: client-side diff of `show runningconfiguration all` and the candidate, one line per
  `TABLE|key|field`.
* commit-confirm: `config checkpoint`, apply, then a transient systemd timer on the switch
  (`systemd-run --on-active=N --unit=netcfg-revert config rollback <checkpoint>`), so the
  revert happens even if this process dies; confirm stops the timer. `config save` runs only
  once a commit is final, so a reboot before the confirm comes back to the old configuration.
"""

from __future__ import annotations

import copy
import json
import re
import time
from typing import Any

from napalm.base import NetworkDriver as _NapalmDriver
from napalm.base.exceptions import (
    CommandErrorException,
    CommitConfirmException,
    CommitError,
    ConnectionClosedException,
    ConnectionException,
    LockError,
    MergeConfigException,
    ReplaceConfigException,
)
from napalm.base.netmiko_helpers import netmiko_args
from netmiko import ConnectHandler

from netcfg.deploy.drivers import linuxstate
from netcfg.deploy.drivers.shell import Framed, NoAnswer, close_session, send_line
from netcfg.deploy.secrets import mask

CANDIDATE_FILE = "/tmp/netcfg-candidate.json"
PATCH_FILE = "/tmp/netcfg-patch.json"
SAVED_CONFIG = "/etc/sonic/config_db.json"
REVERT_UNIT = "netcfg-revert"

def merge_into(running: dict[str, Any], partial: dict[str, Any]) -> dict[str, Any]:
    """What a partial CONFIG_DB does to `running` under merge semantics: fields set, keys added,
    nothing removed."""
    out = copy.deepcopy(running)
    for table, entries in partial.items():
        into = out.setdefault(table, {})
        for key, fields in entries.items():
            into.setdefault(key, {}).update(copy.deepcopy(fields))
    return out


def _pointer(*tokens: str) -> str:
    return "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens)


def json_patch(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """RFC 6902 operations turning CONFIG_DB `old` into `new`, at table/key/field level."""
    ops: list[dict[str, Any]] = []
    for table in old.keys() - new.keys():
        ops.append({"op": "remove", "path": _pointer(table)})
    for table, entries in new.items():
        if table not in old:
            ops.append({"op": "add", "path": _pointer(table), "value": entries})
            continue
        for key in old[table].keys() - entries.keys():
            ops.append({"op": "remove", "path": _pointer(table, key)})
        for key, fields in entries.items():
            before = old[table].get(key)
            if before is None:
                ops.append({"op": "add", "path": _pointer(table, key), "value": fields})
                continue
            for field in before.keys() - fields.keys():
                ops.append({"op": "remove", "path": _pointer(table, key, field)})
            for field, value in fields.items():
                if field not in before:
                    ops.append({"op": "add", "path": _pointer(table, key, field), "value": value})
                elif before[field] != value:
                    ops.append({"op": "replace", "path": _pointer(table, key, field),
                                "value": value})
    return ops


def _show(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def config_diff(old: dict[str, Any], new: dict[str, Any]) -> str:
    """Readable diff: `+`/`-`/`~` lines of `TABLE|key|field`, sorted, "" when equal."""
    lines: list[str] = []
    for table in sorted(old.keys() | new.keys()):
        a, b = old.get(table, {}), new.get(table, {})
        for key in sorted(a.keys() | b.keys()):
            fa, fb = a.get(key), b.get(key)
            if fa == fb:
                continue
            where = f"{table}|{key}"
            if fa is None and not fb:
                lines.append(f"+ {where}")
            elif fb is None and not fa:
                lines.append(f"- {where}")
            for field in sorted((fa or {}).keys() | (fb or {}).keys()):
                va, vb = (fa or {}).get(field), (fb or {}).get(field)
                if va == vb:
                    continue
                if va is None:
                    lines.append(f"+ {where}|{field}: {_show(vb)}")
                elif vb is None:
                    lines.append(f"- {where}|{field}: {_show(va)}")
                else:
                    lines.append(f"~ {where}|{field}: {_show(va)} -> {_show(vb)}")
    return "\n".join(lines) + "\n" if lines else ""


class SonicDriver(_NapalmDriver):
    """NAPALM driver for community SONiC (platform name `netcfg_sonic`)."""

    platform = "netcfg_sonic"

    def __init__(self, hostname: str, username: str, password: str, timeout: int = 60,
                 optional_args: dict[str, Any] | None = None) -> None:
        self.hostname, self.username, self.password, self.timeout = \
            hostname, username, password, timeout
        args = dict(optional_args or {})
        self.device_type = args.pop("device_type", "linux")
        self.netmiko_optional_args = netmiko_args(args)
        self.netmiko_optional_args["port"] = int(args.get("port", 22))
        strict = bool(args.get("ssh_strict", True))
        self.netmiko_optional_args["ssh_strict"] = strict
        if strict:
            known = args.get("known_hosts")
            self.netmiko_optional_args["system_host_keys"] = known is None
            if known is not None:
                self.netmiko_optional_args.update(alt_host_keys=True, alt_key_file=str(known))
        #: a replace keeps the switch's own tables (SonicDeploy.device_local and
        #: device_owned: management, AAA, SNMP, the hardware's metadata, the buffer pools), so
        #: plain NAPALM `load_replace_candidate` with a rendered file cannot lock anyone out;
        #: `keep_device_local: False` replaces them too
        self.keep_local = bool(args.get("keep_device_local", True))
        self.force_no_enable = True  # every command that needs root says `sudo` itself
        self.device: Any = None
        self._candidate: dict[str, Any] | None = None
        self._patch: list[dict[str, Any]] | None = None  # merge candidate
        self._pending_checkpoint: str | None = None
        self._last_checkpoint: str | None = None
        #: the box has no buffer pools (a factory CONFIG_DB): commit runs `config qos reload`
        self._qos_reload = False

    # --- connection ------------------------------------------------------------------------------
    def _clean(self, text: str) -> str:
        return mask(text, self.password)

    def open(self) -> None:
        # ConnectHandler directly (not _netmiko_open): NAPALM's helper replaces netmiko's
        # reason (host key unknown, refused, timeout) with a bare "Cannot connect"
        try:
            self.device = ConnectHandler(device_type=self.device_type, host=self.hostname,
                                         username=self.username, password=self.password,
                                         timeout=self.timeout, **self.netmiko_optional_args)
        except Exception as e:  # netmiko/paramiko: auth, host key, refused, timeout
            raise ConnectionException(self._clean(
                f"Cannot connect to {self.hostname}: {type(e).__name__}: {e}".strip())) from None
        self._netmiko_device = self.device

    def close(self) -> None:
        device, self.device, self._netmiko_device = self.device, None, None
        if device is not None:
            close_session(device)

    def is_alive(self) -> dict[str, bool]:
        conn = getattr(self.device, "remote_conn", None)
        transport = getattr(conn, "transport", None)
        return {"is_alive": bool(transport is not None and transport.is_active())}

    def _run(self, command: str) -> tuple[str, int]:
        """Run one shell line; (output, exit status)."""
        if self.device is None:
            raise ConnectionException("not connected: call open() first")
        framed = Framed(command)
        try:
            # read up to this line's own status and the prompt after it; a stray prompt
            # earlier in the channel cannot end the read (no extra prompt probe per command)
            prompt = re.escape(self.device.base_prompt) + r"[$#]"
            out = send_line(self.device, framed.line, framed.until(prompt), max(self.timeout, 1))
        except NoAnswer:
            raise ConnectionClosedException(self._clean(
                f"{self.hostname}: no answer to `{command}` within {self.timeout} s")) from None
        except Exception as e:  # noqa: BLE001 - connection gone
            raise ConnectionClosedException(
                self._clean(f"{self.hostname}: `{command}` failed: {type(e).__name__}: {e}")) \
                from None
        got = framed.split(out)
        if got is None:
            raise ConnectionClosedException(f"{self.hostname}: no exit status from `{command}`")
        return got

    def _must(self, command: str, error: type[Exception]) -> str:
        out, status = self._run(command)
        if status != 0:
            raise error(self._clean(f"{self.hostname}: `{command}` exited {status}: {out.strip()}"))
        return out

    def _upload(self, path: str, text: str, error: type[Exception]) -> None:
        try:
            sftp = self.device.remote_conn_pre.open_sftp()
            try:
                with sftp.open(path, "w") as f:
                    f.write(text)
            finally:
                sftp.close()
        except Exception as e:  # noqa: BLE001
            raise error(self._clean(f"{self.hostname}: upload of {path} failed: {e}")) from None

    def _running(self) -> dict[str, Any]:
        out = self._must("show runningconfiguration all", CommitError)
        try:
            db = json.loads(out)
        except ValueError as e:
            raise CommitError(self._clean(
                f"{self.hostname}: unreadable running configuration ({e}; it starts with "
                f"{out[:60]!r})")) from None
        db.pop("bgpraw", None)  # FRR text, not CONFIG_DB
        return db

    # --- getters ------------------------------------------------------------------------------
    def get_facts(self) -> dict[str, Any]:
        version = self._must("show version", CommitError)
        fields = dict(re.findall(r"^([A-Za-z][A-Za-z ]+?):\s*(.*)$", version, re.M))
        uptime = float(self._must("cat /proc/uptime", CommitError).split()[0])
        db = self._running()
        meta = db.get("DEVICE_METADATA", {}).get("localhost", {})
        hostname = meta.get("hostname") or self._must("hostname", CommitError).strip()
        return {
            "uptime": uptime, "vendor": "SONiC",
            "os_version": fields.get("SONiC Software Version", ""),
            "serial_number": fields.get("Serial Number", ""),
            "model": fields.get("HwSKU", meta.get("hwsku", "")),
            "hostname": hostname, "fqdn": hostname,
            "interface_list": _natural(db.get("PORT", {})),
        }

    def get_interfaces(self) -> dict[str, dict[str, Any]]:
        status = self._must("show interfaces status", CommitError)
        oper = {}
        for line in status.splitlines()[2:]:
            cols = line.split()
            if len(cols) >= 9:
                oper[cols[0]] = cols[7] == "up"
        db = self._running()
        mac = db.get("DEVICE_METADATA", {}).get("localhost", {}).get("mac", "")
        out = {}
        for name in _natural(db.get("PORT", {})):
            port = db["PORT"][name]
            out[name] = {
                "is_up": oper.get(name, False),
                "is_enabled": port.get("admin_status", "down") == "up",
                "description": port.get("description", ""),
                "last_flapped": -1.0,
                "speed": float(port.get("speed", 0)),
                "mtu": int(port.get("mtu", 9100)),
                "mac_address": mac,
            }
        return out

    def get_bgp_neighbors(self) -> dict[str, Any]:
        """FRR's own summary (SONiC's routing stack is FRR in the bgp container; `show ip bgp
        summary` of sonic-utilities asks vtysh the same), read by linuxstate."""
        out = self._must(linuxstate.BGP_SUMMARY, CommandErrorException)
        try:
            return linuxstate.bgp_neighbors(out)
        except ValueError as exc:
            raise CommandErrorException(self._clean(f"{self.hostname}: {exc}")) from None

    def get_lldp_neighbors_detail(self, interface: str = "") -> dict[str, list[dict[str, Any]]]:
        """lldpd's JSON (SONiC's lldp container runs lldpd; `show lldp neighbors` of
        sonic-utilities runs `sudo lldpctl`, here with lldpctl's JSON format)."""
        out = self._must(linuxstate.LLDP_NEIGHBORS, CommandErrorException)
        try:
            got = linuxstate.lldp_neighbors_detail(out)
        except ValueError as exc:
            raise CommandErrorException(self._clean(f"{self.hostname}: {exc}")) from None
        return {k: v for k, v in got.items() if not interface or k == interface}

    def get_config(self, retrieve: str = "all", full: bool = False, sanitized: bool = False,
                   format: str = "text") -> dict[str, str]:
        result = {"running": "", "startup": "", "candidate": ""}
        if retrieve in ("all", "running"):
            result["running"] = _dump(self._running())
        if retrieve in ("all", "startup"):
            result["startup"] = self._must(f"cat {SAVED_CONFIG}", CommitError).strip() + "\n"
        if retrieve in ("all", "candidate"):
            result["candidate"] = _dump(self._target()) if self._has_candidate() else ""
        return result

    def cli(self, commands: list[str], encoding: str = "text") -> dict[str, str]:
        if encoding != "text":
            raise NotImplementedError(f"{encoding} is not a supported encoding")
        return {c: self._run(c)[0] for c in commands}

    # --- candidate ------------------------------------------------------------------------------
    def _has_candidate(self) -> bool:
        return self._candidate is not None or self._patch is not None

    def _target(self) -> dict[str, Any]:
        if self._candidate is not None:
            return self._candidate
        return _apply_ops(self._running(), self._patch or [])

    @staticmethod
    def _read(filename: str | None, config: str | None, error: type[Exception]) -> Any:
        if (filename is None) == (config is None):
            raise error("give exactly one of filename or config")
        if filename is not None:
            with open(filename) as f:
                config = f.read()
        try:
            return json.loads(config or "")
        except ValueError as e:
            raise error(f"the candidate is not JSON: {e}") from None

    def load_replace_candidate(self, filename: str | None = None,
                               config: str | None = None) -> None:
        target = self._read(filename, config, ReplaceConfigException)
        if not isinstance(target, dict):
            raise ReplaceConfigException("a replace candidate is a whole CONFIG_DB JSON object")
        running = self._running()
        refusal = fit(running, target)
        if refusal is not None:
            raise ReplaceConfigException(f"{self.hostname}: {refusal}")
        if self.keep_local:
            from netcfg.vendors import vendor

            try:
                target = json.loads(vendor("sonic").deploy.keep_device_local(
                    json.dumps(running), json.dumps(target)))
            except CommitError as exc:
                raise ReplaceConfigException(str(exc)) from None
        for table in ("BUFFER_POOL", "BUFFER_PROFILE"):
            if running.get(table) and not target.get(table):
                # GCU never removes the pools or the profiles as a whole either
                # (gcu_field_operation_validators.conf.json): a file without any (a factory
                # config put back) keeps the box's
                target = {**target, table: running[table]}
        self.discard_config()
        # GCU never adds a pool (gcu_field_operation_validators.conf.json allows only
        # `replace` of three BUFFER_POOL sizes), and a factory CONFIG_DB has none: SONiC's own
        # `config qos reload` writes the SKU's at commit; until then the dry-run checks
        # everything but the tables that need them
        needs_pools = not running.get("BUFFER_POOL") and bool(target.get("BUFFER_POOL"))
        checked = {t: v for t, v in target.items() if t not in POOL_TABLES} if needs_pools \
            else target
        self._upload(CANDIDATE_FILE, _dump(checked), ReplaceConfigException)
        self._must(f"sudo config replace --dry-run {CANDIDATE_FILE}", ReplaceConfigException)
        if needs_pools:
            self._upload(CANDIDATE_FILE, _dump(target), ReplaceConfigException)
        self._candidate, self._qos_reload = target, needs_pools

    def load_merge_candidate(self, filename: str | None = None,
                             config: str | None = None) -> None:
        data = self._read(filename, config, MergeConfigException)
        self.discard_config()
        if isinstance(data, list):
            patch = data
        elif isinstance(data, dict) and all(isinstance(v, dict) for v in data.values()):
            running = self._running()
            patch = json_patch(running, merge_into(running, data))
        else:
            raise MergeConfigException("a merge candidate is a partial CONFIG_DB object or an "
                                       "RFC 6902 patch (a list)")
        self._upload(PATCH_FILE, json.dumps(patch, indent=2), MergeConfigException)
        self._must(f"sudo config apply-patch --dry-run {PATCH_FILE}", MergeConfigException)
        self._patch = patch

    def compare_config(self) -> str:
        if not self._has_candidate():
            return ""
        running = self._running()
        target = self._candidate if self._candidate is not None else \
            _apply_ops(running, self._patch or [])
        return config_diff(running, target)

    def discard_config(self) -> None:
        had = self._has_candidate()
        self._candidate = self._patch = None
        self._qos_reload = False
        if had and self.device is not None:
            self._run(f"rm -f {CANDIDATE_FILE} {PATCH_FILE}")

    # --- commit ------------------------------------------------------------------------------
    def has_pending_commit(self) -> bool:
        out, status = self._run(f"systemctl is-active {REVERT_UNIT}.timer")
        return status == 0 and out.strip() == "active"

    def commit_config(self, message: str = "", revert_in: int | None = None) -> None:
        if not self._has_candidate():
            raise CommitError("nothing to commit: load a candidate first")
        if revert_in is not None and (not isinstance(revert_in, int) or revert_in <= 0):
            raise CommitConfirmException(f"revert_in must be a positive number of seconds, "
                                         f"got {revert_in!r}")
        if self.has_pending_commit():
            if self._pending_checkpoint is None:
                raise LockError(f"{self.hostname}: another commit-confirm is pending "
                                f"({REVERT_UNIT}.timer is active); refusing to commit over it")
            raise CommitError("a commit is pending confirmation: confirm or roll it back first")
        if self._candidate is not None and self._qos_reload:
            self._install_pools()
        checkpoint = f"netcfg-{int(time.time() * 1000)}"
        self._must(f"sudo config checkpoint {checkpoint}", CommitError)
        if revert_in is not None:
            # armed before the change: a connection lost during or right after the apply still
            # leaves the switch a timer that puts the checkpoint back
            out, status = self._run(f"sudo systemd-run --on-active={revert_in} "
                                    f"--unit={REVERT_UNIT} config rollback {checkpoint}")
            if status != 0:
                raise CommitConfirmException(self._clean(
                    f"{self.hostname}: could not arm the revert timer, nothing applied: "
                    f"{out.strip()}"))
        try:
            if self._candidate is not None:
                self._must(f"sudo config replace {CANDIDATE_FILE}", CommitError)
            else:
                self._must(f"sudo config apply-patch {PATCH_FILE}", CommitError)
        except CommitError:
            if revert_in is not None:  # nothing applied: the timer has nothing to undo
                self._run(f"sudo systemctl stop {REVERT_UNIT}.timer")
            raise
        self._candidate = self._patch = None
        if revert_in is not None:
            self._pending_checkpoint = checkpoint
            return
        self._finish(checkpoint)

    def _install_pools(self) -> None:
        """SONiC's own buffer and QoS templates for the box's SKU (`config qos reload`), then
        the candidate takes the pools they wrote (GCU refuses any other): before the
        checkpoint, so a rollback keeps them."""
        assert self._candidate is not None
        self._must("sudo config qos reload", CommitError)
        pools = self._running().get("BUFFER_POOL")
        if not pools:
            raise CommitError(f"{self.hostname}: `config qos reload` wrote no buffer pools for "
                              "this SKU; the file's buffer tables need them")
        self._candidate["BUFFER_POOL"] = pools
        self._upload(CANDIDATE_FILE, _dump(self._candidate), CommitError)
        self._qos_reload = False

    def _finish(self, checkpoint: str) -> None:
        """The commit is final: persist it and keep its checkpoint for rollback()."""
        self._must("sudo config save -y", CommitError)
        if self._last_checkpoint and self._last_checkpoint != checkpoint:
            self._run(f"sudo config delete-checkpoint {self._last_checkpoint}")
        self._last_checkpoint, self._pending_checkpoint = checkpoint, None

    def _timer_checkpoint(self) -> str:
        """The checkpoint the pending revert timer will restore (from its unit's command)."""
        out, _ = self._run(f"systemctl status {REVERT_UNIT}.timer")
        found = re.search(r"config rollback (\S+)", out)
        if found is None:
            raise CommitError(f"{self.hostname}: cannot tell which checkpoint the pending "
                              f"revert timer restores")
        return found.group(1)

    def confirm_commit(self) -> None:
        if not self.has_pending_commit():
            raise CommitError("No pending commit-confirm found (the revert timer is not active)")
        out, status = self._run(f"sudo systemctl stop {REVERT_UNIT}.timer")
        if status != 0:
            raise CommitError(self._clean(f"{self.hostname}: confirm failed: {out.strip()}"))
        checkpoint = self._pending_checkpoint
        if checkpoint is None:  # confirmed from another driver object: nothing to remember
            self._must("sudo config save -y", CommitError)
            return
        self._finish(checkpoint)

    def rollback(self) -> None:
        if self.has_pending_commit():
            # the checkpoint is the timer's own: a driver that did not commit (a new
            # connection after the old one was lost) reverts the pending commit as well
            checkpoint = self._pending_checkpoint or self._timer_checkpoint()
            # the rollback first, the timer after: a rollback the switch refuses leaves the
            # timer armed to put the same checkpoint back (stopped first, a failure here left
            # the switch at the new config for good)
            self._must(f"sudo config rollback {checkpoint}", CommitError)
            self._run(f"sudo systemctl stop {REVERT_UNIT}.timer")
            self._pending_checkpoint = None
            return
        if self._last_checkpoint is None:
            raise CommitError("nothing to roll back: no commit was made by this driver")
        self._must(f"sudo config rollback {self._last_checkpoint}", CommitError)
        self._must("sudo config save -y", CommitError)
        self._run(f"sudo config delete-checkpoint {self._last_checkpoint}")
        self._last_checkpoint = None


#: the tables whose entries name a buffer pool or profile
POOL_TABLES = frozenset({"BUFFER_POOL", "BUFFER_PROFILE", "BUFFER_PG", "BUFFER_QUEUE",
                         "BUFFER_PORT_INGRESS_PROFILE_LIST", "BUFFER_PORT_EGRESS_PROFILE_LIST"})


def fit(running: dict[str, Any], target: dict[str, Any]) -> str | None:
    """Why the box cannot take `target` by a replace, in one line, or None.

    The port layout (each port's name and lane count) is the SKU's, chosen at install
    (`sonic-cfggen -H -k <SKU>` from the SKU's port_config.ini/hwsku.json); a port the box
    does not run, or runs on other lanes, means another SKU or a breakout, which netcfg does
    not push (docs/render-sonic.md). The buffer
    model is the box's too: netcfg never changes it through a replace."""
    ours = running.get("PORT") or {}
    theirs = target.get("PORT") or {}
    meta = running.get("DEVICE_METADATA", {}).get("localhost", {})
    wanted = target.get("DEVICE_METADATA", {}).get("localhost", {})
    sku = meta.get("hwsku", "its SKU")
    missing = [n for n, p in theirs.items() if n not in ours
               or _width(ours[n]) != _width(p)]
    if missing:
        return (f"the switch runs {sku} ({len(ours)} ports), whose ports do not include "
                f"{', '.join(_natural(missing)[:3])}{' ...' if len(missing) > 3 else ''} as this "
                "file has them: install the file's SKU first; netcfg does not break ports out")
    model, needed = meta.get("buffer_model"), wanted.get("buffer_model")
    if model and needed and model != needed:
        return (f"the switch runs the {model} buffer model and this file is for the {needed} "
                "one; netcfg never changes the model through a replace")
    return None


def _width(port: dict[str, Any]) -> int:
    """How many lanes a port has (its breakout: 8 lanes 1x800G, 4 lanes 2x400G, ...)."""
    return len(str(port.get("lanes", "")).split(","))


def _apply_ops(db: dict[str, Any], patch: list[dict[str, Any]]) -> dict[str, Any]:
    """Apply the add/remove/replace operations of a CONFIG_DB patch (for compare only; the
    switch applies the real thing)."""
    out = copy.deepcopy(db)
    for op in patch:
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in op["path"].split("/")[1:]]
        node = out
        for token in tokens[:-1]:
            node = node.setdefault(token, {})
        if op["op"] == "remove":
            node.pop(tokens[-1], None)
        elif op["op"] in ("add", "replace"):
            node[tokens[-1]] = copy.deepcopy(op["value"])
    return out


def _natural(names: Any) -> list[str]:
    return sorted(names, key=lambda n: [int(p) if p.isdigit() else p
                                        for p in re.split(r"(\d+)", n)])


def _dump(db: dict[str, Any]) -> str:
    return json.dumps(db, indent=4, sort_keys=True) + "\n"
