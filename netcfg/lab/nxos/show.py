"""NX-OS `show` commands: structured bodies with the keys NX-API returns (and NAPALM reads:
`TABLE_x`/`ROW_x` tables, `kern_uptm_*`), and the text forms of the file/checkpoint commands."""

from __future__ import annotations

import hashlib
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from netcfg.lab.nxos.emulator import NxosEmulator


def version(dev: NxosEmulator) -> dict[str, Any]:
    up = int(dev.uptime)
    return {
        "header_str": "Cisco Nexus Operating System (NX-OS) Software\n",
        "bios_ver_str": "05.47",
        "nxos_ver_str": dev.version,
        "sys_ver_str": dev.version,
        "nxos_file_name": f"bootflash:///nxos64-cs.{dev.version}.M.bin",
        "chassis_id": f"{dev.model} Chassis",
        "cpu_name": "Intel(R) Xeon(R) CPU D-1530 @ 2.40GHz",
        "memory": 32718644,
        "mem_type": "kB",
        "proc_board_id": dev.serial,
        "host_name": dev.hostname,
        "bootflash_size": 115805708,
        "kern_uptm_days": up // 86400,
        "kern_uptm_hrs": up % 86400 // 3600,
        "kern_uptm_mins": up % 3600 // 60,
        "kern_uptm_secs": up % 60,
        "rr_reason": "Reset Requested by CLI command reload",
        "manufacturer": "Cisco Systems, Inc.",
    }


def version_text(dev: NxosEmulator) -> str:
    v = version(dev)
    return (f"Cisco Nexus Operating System (NX-OS) Software\n\nSoftware\n"
            f"  NXOS: version {dev.version}\n\nHardware\n  cisco Nexus9000 {dev.model} Chassis\n"
            f"  Processor Board ID {dev.serial}\n\n  Device name: {dev.hostname}\n"
            f"Kernel uptime is {v['kern_uptm_days']} day(s), {v['kern_uptm_hrs']} hour(s), "
            f"{v['kern_uptm_mins']} minute(s), {v['kern_uptm_secs']} second(s)\n")


def inventory(dev: NxosEmulator) -> dict[str, Any]:
    return {"TABLE_inv": {"ROW_inv": [
        {"name": "Chassis", "desc": f"Nexus9000 {dev.model} Chassis", "productid": dev.model,
         "vendorid": "V01", "serialnum": dev.serial},
        {"name": "Slot 1", "desc": f"{dev.model} Supervisor", "productid": dev.model,
         "vendorid": "V01", "serialnum": dev.serial},
    ]}}


def interfaces(dev: NxosEmulator) -> dict[str, Any]:
    rows = []
    for name, settings in dev.interface_table():
        shut = settings.get("shutdown", False)
        row: dict[str, Any] = {
            "interface": name,
            "state": "down" if shut else "up",
            "admin_state": "down" if shut else "up",
            "desc": settings.get("description", ""),
            "eth_hw_addr": dev.mac(name),
            "eth_mtu": settings.get("mtu", "1500"),
            "eth_link_flapped": "never" if shut else "00:10:00",
        }
        if "speed" in settings and settings["speed"].isdigit():
            row["eth_bw"] = int(settings["speed"]) * 1000  # speed in Mb/s, bandwidth in kb/s
        elif not name.startswith("Ethernet"):
            row["eth_bw"] = 8000000
        else:
            row["eth_bw"] = 400000000
        if not name.startswith(("Ethernet", "mgmt")):
            row.pop("eth_hw_addr")
            row.pop("eth_link_flapped")
        rows.append(row)
    return {"TABLE_interface": {"ROW_interface": rows}}


def hostname(dev: NxosEmulator) -> dict[str, Any]:
    return {"hostname": dev.hostname}


def dir_listing(dev: NxosEmulator, name: str | None) -> str:
    """`dir bootflash:[name]`: size, date, name; then usage (netmiko parses both)."""
    files = dev.bootflash_files()
    if name is not None:
        if name not in files:
            raise FileNotFoundError(name)
        files = {name: files[name]}
    lines = []
    for fname, (size, mtime) in sorted(files.items()):
        stamp = time.strftime("%b %d %H:%M:%S %Y", time.gmtime(mtime))
        lines.append(f"{size:>12}    {stamp}  {fname}")
    used = sum(size for size, _ in dev.bootflash_files().values()) + 4_000_000_000
    total = 116_526_366_720
    lines += ["", "Usage for bootflash://sup-local", f" {used} bytes used",
              f" {total - used} bytes free", f" {total} bytes total"]
    return "\n".join(lines) + "\n"


def md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def clock(dev: NxosEmulator) -> str:
    now = dev.clock.time()
    return time.strftime("%H:%M:%S.000 UTC %a %b %d %Y", time.gmtime(now)) + \
        "\nTime source is NTP\n"


def _short(name: str) -> str:
    return name.replace("Ethernet", "Eth", 1) if name.startswith("Ethernet") else name


def interface_status(dev: NxosEmulator) -> str:
    """`show interface status`: one row per port (NAPALM's `nxos_ssh` takes the first column)."""
    rule = "-" * 80
    lines = [rule, f"{'Port':<13} {'Name':<18} {'Status':<9} {'Vlan':<9} {'Duplex':<7} "
             f"{'Speed':<7} Type", rule]
    for name, settings in dev.interface_table():
        if not name.startswith(("Ethernet", "mgmt", "port-channel", "loopback", "Vlan")):
            continue
        desc = (settings.get("description") or "--")[:18]
        status = "disabled" if settings.get("shutdown") else "connected"
        speed = settings.get("speed", "auto")
        lines.append(f"{_short(name):<13} {desc:<18} {status:<9} {'routed':<9} {'full':<7} "
                     f"{speed:<7} --")
    return "\n".join(lines) + "\n"


def hosts(dev: NxosEmulator) -> str:
    """`show hosts`: the DNS settings (the default-domain line only when one is configured)."""
    lines = ["DNS lookup enabled"]
    for node in dev.running.children:
        t = node.line.split()
        if t[:2] == ["ip", "domain-name"] and len(t) > 2:
            lines.append(f"Default domain for vrf:default is {t[2]}")
    lines += ["Name/address lookup uses domain service", "Name servers are 255.255.255.255"]
    return "\n".join(lines) + "\n"
