"""The login shell of the SONiC emulator: a small bash (`;`, `&&`, `||`, `$?`, `sudo`) over the
commands a push needs: `show ...`, `config ...` (SONiC's click CLI), `systemd-run`,
`systemctl`, `cat`, `rm`, `hostname`. Anything else is `command not found`, as in bash.

Output texts follow sonic-utilities (`config/main.py`, `show/main.py`) and systemd.
"""

from __future__ import annotations

import datetime as dt
import json
import shlex
from typing import TYPE_CHECKING

from netcfg.lab.device import Dropped
from netcfg.lab.oper import Wiring, run_linux_state, wiring_of
from netcfg.lab.sonic import oper as sonic_oper

if TYPE_CHECKING:
    from netcfg.lab.sonic.emulator import SonicEmulator

ROOT_REQUIRED = "Root privileges are required for this operation"


class SonicShell:
    """One interactive SSH session as the admin user (passwordless sudo, as SONiC images set)."""

    def __init__(self, device: SonicEmulator) -> None:
        self.dev = device
        self.closed = False
        self.status = 0
        # bash prints the hostname it had at login; a hostname change shows at the next login
        self._prompt = f"{device.spec.username}@{device.hostname}:~$ "

    def banner(self) -> str:
        return (
            f"Linux {self.dev.hostname} 6.1.0-22-2-amd64 #1 SMP PREEMPT_DYNAMIC "
            "Debian 6.1.94-1 x86_64\n"
            "You are on\n  ____   ___  _   _ _  ____\n / ___| / _ \\| \\ | (_)/ ___|\n"
            " \\___ \\| | | |  \\| | | |\n  ___) | |_| | |\\  | | |___\n"
            " |____/ \\___/|_| \\_|_|\\____|\n\n"
            "-- Software for Open Networking in the Cloud --\n\n"
            "Unauthorized access and/or use are prohibited.\n"
            "All access and/or use are subject to monitoring.\n\n"
        )

    def prompt(self) -> str:
        return self._prompt

    async def handle(self, line: str) -> str:
        from netcfg.lab.sonic.emulator import CommandFailed, split_commands

        self.dev.record("ssh", line)
        if not line.strip():
            return ""
        try:
            commands = split_commands(line)
        except ValueError:
            self.status = 2
            return "-bash: syntax error: unexpected end of file"
        outputs: list[str] = []
        for connector, command in commands:
            if (connector == "&&" and self.status != 0) or (connector == "||" and self.status == 0):
                continue
            try:
                out = self.run(shlex.split(command))
                self.status = 0
            except CommandFailed as e:
                out, self.status = e.output, e.status
            if self.closed:
                return ""
            if out:
                outputs.append(out.rstrip("\n"))
        return "\n".join(outputs)

    def run(self, argv: list[str]) -> str:
        from netcfg.lab.sonic.emulator import CommandFailed

        root = False
        if argv[:1] == ["sudo"]:
            root, argv = True, argv[1:]
            if not argv:
                raise CommandFailed("usage: sudo -h | -K | -k | -V", 1)
        name = argv[0]
        if name in ("exit", "logout"):
            self.closed = True
            return ""
        if name == "echo":
            return " ".join(a.replace("$?", str(self.status)) for a in argv[1:])
        if name == "true":
            return ""
        if name == "false":
            raise CommandFailed("", 1)
        if name == "hostname":
            return self.dev.hostname
        wiring = wiring_of(self.dev.spec.options)  # operational state: lab/sonic/oper.py
        if wiring is not None and (got := sonic_oper.run(self.dev, wiring, argv)) is not None:
            return got
        if wiring is not None and (got := run_linux_state(wiring, self.dev.name, argv)) \
                is not None:
            return got  # FRR's and lldpd's JSON (netcfg/lab/oper.py)
        if name == "show":
            return run_show(self.dev, argv[1:])
        if name == "config":
            if not root:
                raise CommandFailed(ROOT_REQUIRED, 1)
            return run_config(self.dev, argv[1:])
        if name == "cat":
            return self._cat(argv[1:], root)
        if name == "rm":
            for path in (a for a in argv[1:] if not a.startswith("-")):
                if path.startswith("/etc/") and not root:
                    raise CommandFailed(f"rm: cannot remove '{path}': Permission denied", 1)
                self.dev.delete_file(path)
            return ""
        if name == "systemd-run":
            return self._systemd_run(argv[1:], root)
        if name == "systemctl":
            return self._systemctl(argv[1:], root)
        raise CommandFailed(f"-bash: {name}: command not found", 127)

    def _cat(self, paths: list[str], root: bool) -> str:
        from netcfg.lab.sonic.emulator import CommandFailed

        if paths == ["/proc/uptime"]:
            up = self.dev.uptime
            return f"{up:.2f} {up * 1.9:.2f}"
        out = []
        for path in paths:
            if not self.dev.exists(path):
                raise CommandFailed(f"cat: {path}: No such file or directory", 1)
            out.append(self.dev.read_file(path))
        return "".join(out)

    def _systemd_run(self, args: list[str], root: bool) -> str:
        from netcfg.lab.sonic.emulator import CommandFailed, parse_duration

        if not root:
            raise CommandFailed("Failed to start transient timer unit: Access denied", 1)
        unit, seconds, rest = None, None, list(args)
        while rest and rest[0].startswith("-"):
            opt = rest.pop(0)
            key, _, value = opt.partition("=")
            if key in ("--unit", "-u"):
                unit = value or (rest.pop(0) if rest else "")
            elif key == "--on-active":
                try:
                    seconds = parse_duration(value)
                except ValueError:
                    raise CommandFailed(f"Failed to parse timer value: {value}", 1) from None
            elif key not in ("--no-block", "--quiet", "-q", "--collect", "-G"):
                raise CommandFailed(f"systemd-run: unrecognized option '{opt}'", 1)
        if not rest:
            raise CommandFailed("Command line to execute required.", 1)
        if seconds is None:
            raise CommandFailed("systemd-run: only transient timers (--on-active) are "
                                "available here", 1)
        unit = (unit or f"run-u{len(self.dev.timers) + 100}").removesuffix(".service")
        if unit in self.dev.timers:
            raise CommandFailed(f"Failed to start transient timer unit: Unit {unit}.timer was "
                                "already loaded or has a fragment file.", 1)
        self.dev.arm_timer(unit, seconds, rest)
        return f"Running timer as unit: {unit}.timer\nWill run service as unit: {unit}.service"

    def _systemctl(self, args: list[str], root: bool) -> str:
        from netcfg.lab.sonic.emulator import CommandFailed

        words = [a for a in args if not a.startswith("-")]
        if len(words) != 2:
            raise CommandFailed("Too few arguments.", 1)
        verb, unit = words
        name = unit.removesuffix(".timer")
        timer = self.dev.timers.get(name) if unit.endswith(".timer") else None
        if verb == "is-active":
            if timer is None:
                raise CommandFailed("inactive", 3)
            return "active"
        if verb == "stop":
            if not root:
                raise CommandFailed(f"Failed to stop {unit}: Access denied", 1)
            if timer is None:
                raise CommandFailed(f"Failed to stop {unit}: Unit {unit} not loaded.", 5)
            fault = self.dev.apply_fault("confirm")
            if fault is not None and fault.kind.value == "commit_error":
                raise CommandFailed(fault.message or f"Failed to stop {unit}: Transaction failed",
                                    1)
            timer.timer.cancel()
            del self.dev.timers[name]
            if fault is not None and fault.kind.value == "drop_after_apply":
                raise Dropped()
            return ""
        if verb == "status":
            if timer is None:
                raise CommandFailed(f"Unit {unit} could not be found.", 4)
            left = max(0.0, timer.timer.due - self.dev.clock.time())
            return (f"● {unit} - /usr/bin/{' '.join(timer.command)}\n"
                    f"     Loaded: loaded (/run/systemd/transient/{unit}; transient)\n"
                    f"     Active: active (waiting)\n"
                    f"    Trigger: in {int(left)}s\n"
                    f"   Triggers: ● {name}.service")
        raise CommandFailed(f'Unknown command verb {verb}.', 1)


# --- show -----------------------------------------------------------------------------------------
def run_show(dev: SonicEmulator, args: list[str]) -> str:
    from netcfg.lab.sonic.emulator import CommandFailed

    if args == ["runningconfiguration", "all"]:
        return json.dumps({**dev.running, "bgpraw": _bgpraw(dev)}, indent=4, sort_keys=True)
    if args == ["version"]:
        return _version(dev)
    if args == ["interfaces", "status"]:
        return _interfaces_status(dev)
    raise CommandFailed(f"Usage: show [OPTIONS] COMMAND [ARGS]...\nTry \"show -h\" for help.\n\n"
                        f"Error: No such command \"{' '.join(args[:1])}\".", 2)


#: The FRR release of the lab's SONiC (202405: sonic-net/SONiC issues 1537 and 1565, "For
#: 202405 release, Nvidia owns that upgrade to 8.5.4").
FRR_VERSION = "8.5.4"
#: The defaults profile SONiC's FRR runs, which FRR's `show running-config` always prints
#: (lib/command.c: `frr defaults %s`): `traditional`. SONiC's templates write no `frr
#: defaults` line (dockers/docker-fpm-frr/frr, ../shared/sonic-skus), its supervisord starts
#: bgpd and zebra without `-F`, and its FRR is built by FRR's debian/rules without
#: `--enable-datacenter` (nor do SONiC's patches to that file that were read), so FRR's
#: configure default holds (configure.ac: DFLT_NAME="traditional"). docs/lab-sonic.md, "FRR".
FRR_PROFILE = "traditional"


def _bgpraw(dev: SonicEmulator) -> str:
    meta = dev.running.get("DEVICE_METADATA", {}).get("localhost", {})
    lines = ["Building configuration...", "", "Current configuration:", "!",
             f"frr version {FRR_VERSION}", f"frr defaults {FRR_PROFILE}",
             f"hostname {dev.hostname}", "!"]
    if "bgp_asn" in meta:
        lines.append(f"router bgp {meta['bgp_asn']}")
        for ip, nbr in sorted(dev.running.get("BGP_NEIGHBOR", {}).items()):
            lines.append(f" neighbor {ip} remote-as {nbr.get('asn', '')}")
        lines.append("exit")
    return "\n".join(lines + ["!", "end"]) + "\n"


def _version(dev: SonicEmulator) -> str:
    meta = dev.running.get("DEVICE_METADATA", {}).get("localhost", {})
    now = dt.datetime.fromtimestamp(dev.clock.time(), dt.timezone.utc)
    minutes = int(dev.uptime // 60)
    return "\n".join([
        "", f"SONiC Software Version: {dev.version}", "SONiC OS Version: 12",
        "Distribution: Debian 12.6", "Kernel: 6.1.0-22-2-amd64", "Build commit: 5ab1e6b2c",
        "Build date: Fri May 31 06:12:20 UTC 2024", "Built by: sonicbld@build",
        "", f"Platform: {meta.get('platform', '')}", f"HwSKU: {meta.get('hwsku', '')}",
        "ASIC: mellanox", "ASIC Count: 1", f"Serial Number: MT{sum(dev.name.encode()):06d}LAB",
        "Model Number: MSN5600", "Hardware Revision: A1",
        f"Uptime: {now:%H:%M:%S} up {minutes // 60}:{minutes % 60:02d},  1 user,  "
        "load average: 0.52, 0.61, 0.66",
        f"Date: {now:%a %d %b %Y %H:%M:%S}", "",
        "Docker images:",
        "REPOSITORY                    TAG                 IMAGE ID            SIZE",
        "docker-orchagent              latest              3f4e7d1a2b3c        330MB"])


def _interfaces_status(dev: SonicEmulator) -> str:
    wiring = wiring_of(dev.spec.options)
    if wiring is None:
        return _status_table(dev, None)
    with wiring.answering():
        return _status_table(dev, wiring)


def _status_table(dev: SonicEmulator, wiring: Wiring | None) -> str:
    ports = dev.running.get("PORT", {})
    rows = [("Interface", "Lanes", "Speed", "MTU", "FEC", "Alias", "Vlan", "Oper", "Admin",
             "Type", "Asym PFC")]
    for name in sorted(ports, key=lambda n: int(n.removeprefix("Ethernet") or 0)):
        p = ports[name]
        speed = int(p.get("speed", "0"))
        admin = p.get("admin_status", "down")
        # a link comes up only with a cable in the cage: the device's interfaces are the
        # cabled ones (a factory box's other ports are admin up but oper down)
        oper = admin if name in dev.interfaces else "down"
        if wiring is not None and name in dev.interfaces and oper == "up":
            # with the lab's wiring, up only while the link is (netcfg/lab/oper.py)
            oper = "up" if wiring.link_up(dev.name, name) else "down"
        rows.append((name, p.get("lanes", "N/A"), f"{speed // 1000}G" if speed else "N/A",
                     p.get("mtu", "9100"), p.get("fec", "N/A"), p.get("alias", name), "routed",
                     oper, admin, "QSFP-DD Double Density 8X Pluggable Transceiver", "N/A"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


# --- config ---------------------------------------------------------------------------------------
def run_config(dev: SonicEmulator, args: list[str]) -> str:
    from netcfg.lab.sonic.emulator import CHECKPOINT_DIR, CommandFailed, _click_failure

    if not args:
        raise CommandFailed("Usage: config [OPTIONS] COMMAND [ARGS]...", 2)
    sub, rest = args[0], args[1:]
    flags = {a for a in rest if a.startswith("-")}
    words = [a for a in rest if not a.startswith("-")]
    dry = bool(flags & {"-d", "--dry-run"})
    dry_note = "** DRY RUN EXECUTION **\n" if dry else ""

    def load_json(path: str, command: str, usage: str) -> object:
        if not dev.exists(path):
            raise _click_failure(command, usage,
                                 f"[Errno 2] No such file or directory: '{path}'")
        try:
            return json.loads(dev.read_file(path))
        except ValueError as e:
            raise _click_failure(command, usage, str(e)) from None

    if sub == "replace" and len(words) == 1:
        target = load_json(words[0], "replace", "TARGET_FILE_PATH")
        if not isinstance(target, dict):
            raise _click_failure("replace", "TARGET_FILE_PATH", "the target must be a JSON object")
        dev.gcu_apply(target, dry, "replace", "TARGET_FILE_PATH")
        return dry_note + "Config Replacer: Config replacement starting.\n" \
            "Config Replacer: Config replacement completed.\nConfig replaced successfully."
    if sub == "apply-patch" and len(words) == 1:
        patch = load_json(words[0], "apply-patch", "PATCH_FILE_PATH")
        if not isinstance(patch, list):
            raise _click_failure("apply-patch", "PATCH_FILE_PATH",
                                 "a JSON patch must be a list of operations")
        target = dev.patch_target(patch)
        dev.gcu_apply(target, dry, "apply-patch", "PATCH_FILE_PATH")
        return dry_note + "Patch Applier: localhost: Patch application starting.\n" \
            "Patch Applier: localhost: Patch application completed.\nPatch applied successfully."
    if sub == "checkpoint" and len(words) == 1:
        dev.write_file(f"{CHECKPOINT_DIR}/{words[0]}.cp.json", dev.running_config())
        return "Config Rollbacker: Config checkpoint starting.\n" \
            "Config Rollbacker: Config checkpoint completed.\nCheckpoint created successfully."
    if sub == "rollback" and len(words) == 1:
        path = f"{CHECKPOINT_DIR}/{words[0]}.cp.json"
        if not dev.exists(path):
            raise _click_failure("rollback", "CHECKPOINT_NAME",
                                 f"Checkpoint '{words[0]}' does not exist")
        dev.gcu_apply(json.loads(dev.read_file(path)), dry, "rollback", "CHECKPOINT_NAME")
        return dry_note + "Config Rollbacker: Config rollbacking starting.\n" \
            "Config Rollbacker: Config rollbacking completed.\nConfig rolled back successfully."
    if sub == "list-checkpoints":
        return json.dumps(dev.checkpoints(), indent=4)
    if sub == "delete-checkpoint" and len(words) == 1:
        path = f"{CHECKPOINT_DIR}/{words[0]}.cp.json"
        if not dev.exists(path):
            raise _click_failure("delete-checkpoint", "CHECKPOINT_NAME",
                                 f"Checkpoint '{words[0]}' does not exist")
        dev.delete_file(path)
        return "Checkpoint deleted successfully."
    if sub == "save" and not words:
        if not flags & {"-y", "--yes"}:
            raise CommandFailed(
                "Existing files will be overwritten, continue? [y/N]: \nAborted!", 1
            )
        dev.save()
        return "Running command: /usr/local/bin/sonic-cfggen -d --print-data > " \
            "/etc/sonic/config_db.json"
    if sub == "qos" and words == ["reload"]:
        dev.qos_reload()
        return "Running command: /usr/local/bin/sonic-cfggen -d -t " \
            "/usr/share/sonic/device/<platform>/<sku>/buffers_dynamic.json.j2,... --write-to-db"
    if sub == "load" and len(words) == 1 and flags & {"-y", "--yes"}:
        db = load_json(words[0], "load", "[FILENAME]")
        if not isinstance(db, dict):
            raise CommandFailed("Error: the file is not a CONFIG_DB dump", 1)
        dev.config_load(db)
        return f"Running command: /usr/local/bin/sonic-cfggen -j {words[0]} --write-to-db"
    if sub == "reload" and flags & {"-y", "--yes"} and not words:
        fault = dev.apply_fault("commit")
        if fault is not None and fault.kind.value == "commit_error":
            raise CommandFailed(fault.message or "Failed to reload configuration", 1)
        dev.config_reload()
        return "Acquired lock on /etc/sonic/reload.lock\nRunning command: " \
            "/usr/local/bin/sonic-cfggen -j /etc/sonic/config_db.json --write-to-db"
    raise CommandFailed(f"Usage: config [OPTIONS] COMMAND [ARGS]...\n"
                        f"Try \"config -h\" for help.\n\nError: No such command \"{sub}\".", 2)
