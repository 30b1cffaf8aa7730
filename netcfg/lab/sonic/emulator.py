"""Community SONiC reached over SSH: a Debian login shell (`admin@leaf1:~$`) serving the SONiC CLI
commands a configuration push uses, with SCP/SFTP into the switch's file system.

State: the running CONFIG_DB (what `show runningconfiguration all` prints), the saved
`/etc/sonic/config_db.json` (what a reboot or `config reload` loads), GCU checkpoints under
`/etc/sonic/checkpoints/`, uploaded files, and transient systemd timers (`systemd-run
--on-active`) that run a command on the lab clock. SONiC has no commit-confirm of its own; the
timer is how a client arranges one.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from netcfg.lab.clock import Timer
from netcfg.lab.device import DeviceSpec, Dropped, Emulator, LabContext
from netcfg.lab.faults import FaultKind
from netcfg.lab.sonic import buffermgr, schema
from netcfg.lab.sonic.factory import Factory, merge_under
from netcfg.lab.sonic.gcu import GcuError, apply_patch, check_target
from netcfg.lab.sonic.shell import SonicShell
from netcfg.lab.sonic.sku import Platform
from netcfg.lab.sonic.yang import YangValidator

DEFAULT_VERSION = "SONiC.202405.0-20240531"
DEFAULT_INTERFACES = [f"Ethernet{i}" for i in range(0, 32, 4)]
DEFAULT_MODEL = "ACS-SN5600"
#: the SKU of the built-in factory (no vendor-data folder): the platform's 2 x 400G SKU, whose
#: port names the lab's default interfaces are
BUILTIN_SKU = {"SN5600": "Mellanox-SN5600-O128", "DCS-7060X6-64PE": "Arista-7060X6-64PE-O128S2"}
PLATFORM = "x86_64-nvidia_sn5600-r0"
CHECKPOINT_DIR = "/etc/sonic/checkpoints"
SAVED_CONFIG = "/etc/sonic/config_db.json"
#: the operator's commit-confirm timer a `lock_held` fault leaves armed
FOREIGN_UNIT = "netcfg-revert"


class CommandFailed(Exception):
    """A command that exits non-zero; `output` is what it printed, `status` its exit code."""

    def __init__(self, output: str, status: int = 1) -> None:
        super().__init__(output)
        self.output, self.status = output, status


@dataclass
class TransientTimer:
    """A `systemd-run --on-active` unit: `command` runs as root when the lab clock reaches it."""

    unit: str
    command: list[str]
    timer: Timer
    owner: str = "netcfg"


def _click_failure(command: str, usage: str, message: str) -> CommandFailed:
    """How a click command of the SONiC CLI reports `ctx.fail(...)` (exit status 2)."""
    return CommandFailed(f"Usage: config {command} [OPTIONS] {usage}\n"
                         f'Try "config {command} -h" for help.\n\nError: {message}', 2)


#: BUFFER_POOL and BUFFER_PROFILE of the 2 x 400G SKUs' t1 templates (sonic-buildimage
#: 086b03bd: Mellanox-SN5600-O128 via ACS-SN5600/buffers_defaults_{t1,objects}.j2, and
#: Arista-7060X6-64PE-O128S2/buffers_defaults_t1.j2), for a lab without the SKU files
FACTORY_BUFFERS: dict[str, dict[str, Any]] = {
    "SN5600": {
        "BUFFER_POOL": {
            "ingress_lossless_pool": {"size": "52161690", "type": "ingress", "mode": "dynamic"},
            "ingress_lossy_pool": {"size": "52161690", "type": "ingress", "mode": "dynamic"},
            "egress_lossless_pool": {"size": "158229504", "type": "egress", "mode": "dynamic"},
            "egress_lossy_pool": {"size": "52161690", "type": "egress", "mode": "dynamic"}},
        "BUFFER_PROFILE": {
            "ingress_lossless_profile": {"pool": "ingress_lossless_pool", "size": "0",
                                         "dynamic_th": "7"},
            "ingress_lossy_profile": {"pool": "ingress_lossy_pool", "size": "0",
                                      "dynamic_th": "3"},
            "egress_lossless_profile": {"pool": "egress_lossless_pool", "size": "0",
                                        "dynamic_th": "7"},
            "egress_lossy_profile": {"pool": "egress_lossy_pool", "size": "9216",
                                     "dynamic_th": "7"},
            "q_lossy_profile": {"pool": "egress_lossy_pool", "size": "0", "dynamic_th": "3"}}},
    "DCS-7060X6-64PE": {
        "BUFFER_POOL": {
            "ingress_lossless_pool": {"size": "166115492", "type": "ingress", "mode": "dynamic",
                                      "xoff": "29423360"},
            "egress_lossless_pool": {"size": "166115492", "type": "egress", "mode": "dynamic"}},
        "BUFFER_PROFILE": {
            "ingress_lossy_profile": {"pool": "ingress_lossless_pool", "size": "0",
                                      "static_th": "167546528"},
            "egress_lossy_profile": {"pool": "egress_lossless_pool", "size": "1778",
                                     "dynamic_th": "0"},
            "egress_lossless_profile": {"pool": "egress_lossless_pool", "size": "0",
                                        "static_th": "167546528"}}},
}


class SonicEmulator(Emulator):
    nos = "sonic"
    napalm_driver = "netcfg_sonic"

    def __init__(self, spec: DeviceSpec, ctx: LabContext, address: str) -> None:
        super().__init__(spec, ctx, address)
        self.version = spec.version or DEFAULT_VERSION
        self.interfaces = spec.interfaces or DEFAULT_INTERFACES
        self.root = Path(ctx.workdir) / f"{spec.name}.fs"
        for folder in ("tmp", "home/" + spec.username, "etc/sonic/checkpoints"):
            (self.root / folder).mkdir(parents=True, exist_ok=True)
        self.yang = YangValidator.from_options(spec.options)
        self.hardware = Platform.from_spec(spec.model, spec.options)
        self.factory = Factory.of(spec.model, spec.options)
        #: the SKU the box was installed with (factory.py: the platform's default unless told)
        self.sku = self.factory.choose(str(spec.options.get("hwsku", "")), spec.interfaces)
        #: what the buffer manager computed (APPL_DB): BUFFER_POOL_TABLE sizes, lossless
        #: BUFFER_PROFILE_TABLE entries of the dynamic model (buffermgr.py)
        self.appl: dict[str, dict[str, dict[str, str]]] = {}
        #: no factory folder: the built-in minimum stands in for SONiC's first boot
        self.builtin = False
        startup = json.loads(spec.startup_config) if spec.startup_config else self.factory_config()
        self.running: dict[str, Any] = startup
        self.timers: dict[str, TransientTimer] = {}
        if (spec.options.get("qos_reload") or self.builtin) and not spec.startup_config:
            # a switch in service: someone ran `config qos reload` once and saved (the
            # built-in factory is always one: the lab's own minimum, not SONiC's first boot)
            self.qos_reload()
        self.buffermgrd()
        self.write_file(SAVED_CONFIG, _dump(self.running))

    # --- identity ---------------------------------------------------------------------------------
    @property
    def hostname(self) -> str:
        return str(self.running.get("DEVICE_METADATA", {}).get("localhost", {})
                   .get("hostname", self.spec.name))

    @property
    def mac(self) -> str:
        n = sum(self.spec.name.encode()) % 256
        return f"1c:34:da:{n:02x}:00:01"

    def factory_config(self) -> dict[str, Any]:
        """What the freshly installed switch runs: SONiC's own first-boot CONFIG_DB of its SKU
        (factory.py), with this box's MAC; without the vendor-data folder a minimal built-in
        one (the box's identity, its ports, the build's buffer model), which the log says."""
        db = self.factory.first_boot(self.sku)
        if db is not None:
            db["DEVICE_METADATA"]["localhost"]["mac"] = self.mac
            self.record("factory", f"first-boot CONFIG_DB of {self.sku} "
                        "(factory/sonic/<SKU>/configdb_after_first_boot.json)")
            return db
        self.record("factory", "no factory folder: a minimal built-in CONFIG_DB with the "
                    "SKU's buffers")
        self.builtin = True
        return self.builtin_factory()

    def builtin_factory(self) -> dict[str, Any]:
        """The minimal CONFIG_DB of a lab without SONiC's files: hostname, ports as the device
        lists them (2 x 400G layout of the platform where the SKU files are), no
        MGMT_INTERFACE; the SKU's buffer pools and profiles are added as `config qos reload`
        would (a switch in service, unlike SONiC's first boot, which has none)."""
        sku = str(self.spec.options.get("hwsku", "")) or BUILTIN_SKU.get(
            self.spec.model or "SN5600", BUILTIN_SKU["SN5600"])
        ports = {}
        for index, name in enumerate(self.interfaces):
            first = int(name.removeprefix("Ethernet"))
            ports[name] = {"alias": f"etp{index + 1}", "index": str(index + 1),
                           "lanes": ",".join(str(first + i) for i in range(4)),
                           "speed": "400000", "mtu": "9100", "admin_status": "up"}
            layout = self.hardware.layout(name, 4) if self.hardware is not None else None
            if layout is not None:  # the platform's own layout at 2x400G
                ports[name].update(lanes=layout.lanes, alias=layout.alias, index=layout.index)
                fec = self.hardware.fec.get((name, "400000"))  # type: ignore[union-attr]
                if fec is not None:
                    ports[name]["fec"] = fec
        self.sku = sku
        return {
            "DEVICE_METADATA": {"localhost": {
                "hostname": self.spec.name, "hwsku": sku,
                "platform": self.hardware.name if self.hardware is not None else PLATFORM,
                "mac": self.mac, "type": "LeafRouter",
                "buffer_model": self.factory.boot_model(sku),
                "default_pfcwd_status": "disable"}},
            "PORT": ports,
            "FLEX_COUNTER_TABLE": {"PFCWD": {"FLEX_COUNTER_STATUS": "enable"},
                                   "QUEUE": {"FLEX_COUNTER_STATUS": "enable"},
                                   "PORT": {"FLEX_COUNTER_STATUS": "enable"}},
        }

    def qos_reload(self) -> None:
        """`config qos reload`: SONiC renders the SKU's buffer and QoS templates into CONFIG_DB
        (the factory folder's qos_buffers.<model>.json; without it the SKU's BUFFER_POOL and
        BUFFER_PROFILE only). On Mellanox it also sets `buffer_model dynamic`."""
        sku = str(self.running.get("DEVICE_METADATA", {}).get("localhost", {})
                  .get("hwsku", self.sku))
        rendered = self.factory.qos_reload(sku)
        if rendered is not None:
            model, tables = rendered
        else:
            model = "dynamic" if self.factory.asic == "mellanox" else "traditional"
            tables = self.factory_buffers(self.running.get("PORT", {}))
            if model == "dynamic":
                for name, pool in tables.get("BUFFER_POOL", {}).items():
                    if name != "egress_lossless_pool":
                        pool.pop("size", None)
        self.running = merge_under(self.running, tables)
        self.running["DEVICE_METADATA"]["localhost"]["buffer_model"] = model
        self.buffermgrd()

    def factory_buffers(self, ports: dict[str, Any]) -> dict[str, Any]:
        """BUFFER_POOL and BUFFER_PROFILE as the SKU's own templates install them: rendered
        from the platform's files where the lab has them, else those tables of the 2 x 400G
        SKU's t1 template, as published (FACTORY_BUFFERS)."""
        hw = self.hardware
        if hw is not None and hw.sku_400g is not None:
            tables = hw.buffer_tables(hw.sku_400g, "LeafRouter", ports)
            return {t: tables[t] for t in ("BUFFER_POOL", "BUFFER_PROFILE") if t in tables}
        return copy.deepcopy(FACTORY_BUFFERS.get(self.spec.model, FACTORY_BUFFERS["SN5600"]))

    # --- lab interface ----------------------------------------------------------------------------
    async def start(self) -> None:
        await self.serve_ssh("ssh", shell=lambda: SonicShell(self), files=self.root)

    def running_config(self) -> str:
        return _dump(self.running)

    def startup_config(self) -> str:
        return self.read_file(SAVED_CONFIG)

    def candidate_config(self) -> str | None:
        """SONiC keeps no candidate: the client builds it. What is pending on the box is a
        commit-confirm timer; while one runs this returns the configuration it would restore."""
        for t in self.timers.values():
            if t.command[:2] == ["config", "rollback"] and len(t.command) > 2:
                path = f"{CHECKPOINT_DIR}/{t.command[2]}.cp.json"
                if self.exists(path):
                    return self.read_file(path)
        return None

    def on_reboot(self) -> None:
        for t in self.timers.values():
            t.timer.cancel()
        self.timers.clear()  # transient units do not survive a reboot
        self.config_reload()

    def on_fault_armed(self, fault: Any) -> None:
        if fault.kind == FaultKind.LOCK_HELD:
            # another operator's commit-confirm is running: its revert timer holds the unit
            self.arm_timer(FOREIGN_UNIT, 3600, ["config", "rollback", "operator-change"],
                           owner="operator")
        elif fault.kind == FaultKind.STALE_SESSION:
            # a client that died mid-push left its candidate file and checkpoint behind
            self.write_file("/tmp/netcfg-candidate.json", '{"PORT": {}}')
            self.write_file(f"{CHECKPOINT_DIR}/netcfg-stale.cp.json", _dump(self.running))

    def on_faults_cleared(self) -> None:
        t = self.timers.get(FOREIGN_UNIT)
        if t is not None and t.owner == "operator":
            t.timer.cancel()
            del self.timers[FOREIGN_UNIT]

    def napalm_kwargs(self) -> dict[str, Any]:
        return {"hostname": self.address, "username": self.spec.username,
                "password": self.spec.password, "timeout": 10,
                "optional_args": {"port": self.listeners["ssh"].port,
                                  "known_hosts": str(self.ctx.trust.known_hosts_path)}}

    # --- file system ------------------------------------------------------------------------------
    def path(self, name: str) -> Path:
        """Map a path on the switch to the lab's directory (relative = the user's home)."""
        base = Path("/") / "home" / self.spec.username
        full = Path(os.path.normpath(base / name)) if not name.startswith("/") else \
            Path(os.path.normpath(name))
        return self.root / str(full).lstrip("/")

    def exists(self, name: str) -> bool:
        return self.path(name).is_file()

    def read_file(self, name: str) -> str:
        return self.path(name).read_text()

    def write_file(self, name: str, content: str) -> None:
        target = self.path(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)

    def delete_file(self, name: str) -> None:
        self.path(name).unlink(missing_ok=True)

    def checkpoints(self) -> list[str]:
        folder = self.path(CHECKPOINT_DIR)
        return sorted(p.name.removesuffix(".cp.json") for p in folder.glob("*.cp.json"))

    # --- CONFIG_DB operations (called by the shell) -----------------------------------------------
    def validate(self, target: dict) -> None:
        """SONiC's YANG models where the lab has them (the whole set: what they refuse is
        refused, nothing else), else the emulator's own subset (schema.py); then the
        hardware."""
        if self.yang is not None:
            self.yang.validate(target)
        else:
            schema.validate(target)
        if self.hardware is not None:
            self.hardware.check(target)

    def modelled(self) -> frozenset[str]:
        """The tables GCU may touch: those with a YANG model."""
        return frozenset(self.yang.tables) if self.yang is not None else frozenset(schema.TABLES)

    def gcu_apply(self, target: dict, dry_run: bool, command: str, usage: str) -> str:
        """Check and (unless dry-run) make `target` the running CONFIG_DB, as GCU does."""
        phase = "load" if dry_run else ("rollback" if command == "rollback" else "commit")
        fault = self.apply_fault(phase)
        if fault is not None and fault.kind == FaultKind.COMMIT_ERROR:
            raise _click_failure(command, usage, fault.message or
                                 "Failed to apply patch: orchagent did not answer")
        try:
            check_target(self.running, target, self.validate if self.spec.strict else _no_check,
                         self.modelled() if self.spec.strict else None)
        except GcuError as e:
            raise _click_failure(command, usage, str(e)) from None
        if not dry_run:
            self.running = target
            self.buffermgrd()
        if fault is not None and fault.kind == FaultKind.DROP_AFTER_APPLY:
            raise Dropped()
        return ""

    def patch_target(self, patch: list) -> dict:
        try:
            return apply_patch(self.running, patch)
        except GcuError as e:
            raise _click_failure("apply-patch", "PATCH_FILE_PATH", str(e)) from None

    def config_load(self, db: dict) -> None:
        """`config load`: sonic-cfggen --write-to-db, a field-wise merge with no YANG check."""
        fault = self.apply_fault("commit")
        if fault is not None and fault.kind == FaultKind.COMMIT_ERROR:
            raise CommandFailed(fault.message or "Error: failed to write to CONFIG_DB")
        for table, entries in db.items():
            if not isinstance(entries, dict):
                continue
            into = self.running.setdefault(table, {})
            for key, fields in entries.items():
                into.setdefault(key, {}).update(fields if isinstance(fields, dict) else {})
        self.buffermgrd()
        if fault is not None and fault.kind == FaultKind.DROP_AFTER_APPLY:
            raise Dropped()

    def buffermgrd(self) -> None:
        """The buffer manager reacting to the new CONFIG_DB (buffermgr.py): traditional, it
        re-points lossless PGs at the SKU's pg_profile_lookup.ini profiles; dynamic, it
        computes the lossless profiles and the pools' sizes. Either way `appl` holds the
        pools as created (a pool without a size in the traditional model is not)."""
        meta = self.running.get("DEVICE_METADATA", {}).get("localhost", {})
        model = meta.get("buffer_model", "traditional")
        asic = self.hardware.asic if self.hardware is not None else self.factory.asic
        if model == "dynamic":
            self.appl, log = buffermgr.run_dynamic(self.running, asic, self.asic_table())
        else:
            log = []
            if self.hardware is not None:
                lookup = self.hardware.pg_lookup(str(meta.get("hwsku", "")))
                log = buffermgr.run(self.running, lookup, self.hardware.asic)
            self.appl, more = buffermgr.traditional_pools(self.running)
            log += more
        for line in log:
            self.record("buffermgrd", line)

    def asic_table(self) -> dict[str, str]:
        """STATE_DB ASIC_TABLE as SONiC's platform/mellanox/asic_table.j2 renders it for this
        platform (next to the device tree), else the Spectrum-4 row (buffermgr.SPECTRUM4)."""
        root = self.spec.options.get("sku_dir")
        folder = Path(root).parent / "platform" / "mellanox" if root else None
        platform = str(self.running.get("DEVICE_METADATA", {}).get("localhost", {})
                       .get("platform", PLATFORM))
        return buffermgr.asic_constants(folder, platform)

    def config_reload(self) -> None:
        """`config reload -y`: CONFIG_DB flushed, /etc/sonic/init_cfg.json and the saved file
        written over it (sonic-cfggen -j init_cfg.json -j config_db.json), then the
        daemons."""
        self.running = merge_under(self.factory.init_cfg(), json.loads(self.startup_config()))
        self.buffermgrd()

    def save(self) -> None:
        self.write_file(SAVED_CONFIG, _dump(self.running))

    def arm_timer(self, unit: str, seconds: float, command: list[str],
                  owner: str = "netcfg") -> None:
        def fire() -> None:
            self.timers.pop(unit, None)
            self.record("systemd", f"{unit}.service: {' '.join(command)}")
            try:
                self.run_as_root(command)
            except (CommandFailed, Dropped):
                pass
        self.timers[unit] = TransientTimer(unit, command, self.clock.call_later(seconds, fire),
                                           owner)

    def run_as_root(self, argv: list[str]) -> str:
        """What a systemd unit runs: only the SONiC `config` commands make sense there."""
        from netcfg.lab.sonic.shell import run_config
        return run_config(self, argv[1:]) if argv[:1] == ["config"] else ""


def _no_check(target: dict) -> None:
    """Lenient lab (DeviceSpec.strict=False): accept any table and field."""


def _dump(db: dict) -> str:
    return json.dumps(db, indent=4, sort_keys=True) + "\n"


def parse_duration(text: str) -> float:
    """systemd time span: `300`, `300s`, `5min`, `1h 30min`."""
    units = {"": 1, "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hr": 3600, "d": 86400}
    total = 0.0
    parts = re.findall(r"(\d+(?:\.\d+)?)\s*([a-z]*)", text)
    if not parts or re.sub(r"[\d.\sa-z]", "", text):
        raise ValueError(text)
    for value, unit in parts:
        if unit not in units:
            raise ValueError(text)
        total += float(value) * units[unit]
    return total


def split_commands(line: str) -> list[tuple[str, str]]:
    """Split a shell line on `;`, `&&` and `||` outside quotes: [(connector, command), ...]."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    out: list[tuple[str, str]] = []
    current: list[str] = []
    connector = ";"
    for token in lexer:
        if token in (";", "&&", "||"):
            out.append((connector, shlex.join(current)))
            connector, current = token, []
        else:
            current.append(token)
    out.append((connector, shlex.join(current)))
    return [(c, cmd) for c, cmd in out if cmd]
