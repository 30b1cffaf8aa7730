"""EOS `show` commands: JSON models with the keys NAPALM's getters read, and the text forms
NAPALM asks for (running/startup/session config, session diffs)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from netcfg.lab.eos.emulator import Cli, EosEmulator


def run(dev: EosEmulator, cli: Cli, words: list[str], fmt: str) -> Any:
    from netcfg.lab.eos import oper as eos_oper
    from netcfg.lab.eos.emulator import CliFailure, version_tuple
    from netcfg.lab.oper import wiring_of

    low = [w.lower() for w in words]
    args = low[1:]
    text: str | None = None
    data: dict[str, Any] | None = None
    oper = wiring_of(dev.spec.options)  # operational state (netcfg/lab/eos/oper.py)
    if oper is not None and (got := eos_oper.show(dev, oper, args)) is not None:
        data = got
    elif args == ["version"]:
        data = _version(dev)
        text = (f"Arista {data['modelName']}\nSoftware image version: {dev.version}\n"
                f"Serial number: {data['serialNumber']}\nUptime: {int(dev.uptime)} seconds\n")
    elif args == ["hostname"]:
        data = {"hostname": dev.hostname, "fqdn": dev.hostname}
        text = f"Hostname: {dev.hostname}\nFQDN:     {dev.hostname}\n"
    elif args in (["interfaces"], ["interface"]):
        data = {"interfaces": _interfaces(dev)}
        if oper is not None:
            eos_oper.interfaces(dev, oper, data["interfaces"])
    elif args[:1] == ["running-config"] and set(args[1:]) <= {"all", "sanitized"}:
        text = dev.running_config()
        data = _tree_json(dev.running)
    elif args == ["startup-config"]:
        text = dev.startup
    elif args[:2] == ["session-config", "named"] and len(args) >= 3:
        session = dev.sessions.get(words[3])
        if session is None:
            raise CliFailure(f"% Session {words[3]} does not exist")
        text = dev.session_diff(session) if args[3:4] == ["diffs"] else dev.render(session.config)
    elif args[:2] == ["configuration", "sessions"] and args[2:] in ([], ["detail"]):
        data = _sessions(
            dev, detail=bool(args[2:]), new_shape=version_tuple(dev.version) >= (4, 32)
        )
    elif args[:2] == ["lldp", "neighbors"]:
        data = {"lldpNeighbors": [], "tablesLastChangeTime": 0.0, "tablesAgeOuts": 0,
                "tablesInserts": 0, "tablesDeletes": 0, "tablesDrops": 0}
    else:
        raise CliFailure(f"Invalid input (at token 1: '{words[1] if len(words) > 1 else ''}')",
                         1002, "invalid command")
    if fmt == "text":
        if text is None:
            text = _as_text(data)
        return {"output": text}
    if data is None:
        raise CliFailure("This is an unconverted command", 1003, "unconverted command")
    return data


def _version(dev: EosEmulator) -> dict[str, Any]:
    return {
        "modelName": dev.spec.model or "DCS-7060X6-64PE",
        "internalVersion": f"{dev.version}-lab",
        "systemMacAddress": "00:1c:73:00:00:01",
        "serialNumber": f"LAB{abs(hash(dev.name)) % 10**8:08d}",
        "memTotal": 32000000,
        "memFree": 24000000,
        "version": dev.version,
        "architecture": "x86_64",
        "isIntlVersion": False,
        "internalBuildId": "00000000-0000-0000-0000-000000000000",
        "hardwareRevision": "11.00",
        "mfgName": "Arista",
        "uptime": dev.uptime,
        # NAPALM subtracts this from its own clock: express boot time on the wall clock
        "bootupTimestamp": time.time() - dev.uptime,
    }


def _iface_config(dev: EosEmulator, name: str) -> dict[str, str]:
    for node in dev.running.children:
        if node.tokens == ["interface", name.lower()]:
            settings: dict[str, str] = {}
            for c in node.children:
                toks = c.line.split()
                settings[toks[0].lower()] = " ".join(toks[1:])
            return settings
    return {}


def _interfaces(dev: EosEmulator) -> dict[str, Any]:
    names = list(dev.interfaces)
    for node in dev.running.children:
        toks = node.line.split()
        if toks[0].lower() == "interface" and len(toks) == 2 and toks[1] not in names:
            names.append(toks[1])
    result: dict[str, Any] = {}
    for i, name in enumerate(names):
        cfg = _iface_config(dev, name)
        down = "shutdown" in cfg
        physical = name.lower().startswith("ethernet")
        result[name] = {
            "name": name,
            "description": cfg.get("description", ""),
            "interfaceStatus": "disabled" if down else "connected",
            "lineProtocolStatus": "down" if down else "up",
            "mtu": int(cfg.get("mtu", "1500") or 1500),
            "bandwidth": 400_000_000_000 if physical else 0,
            "physicalAddress": f"00:1c:73:00:{i // 256:02x}:{i % 256:02x}",
            "lastStatusChangeTimestamp": time.time() - dev.uptime,
            "forwardingModel": "routed" if "no" in cfg and cfg["no"] == "switchport"
            else "bridged",
            "interfaceAddress": [],
            "hardware": "ethernet" if physical else "loopback",
        }
    return result


def _sessions(dev: EosEmulator, detail: bool, new_shape: bool) -> dict[str, Any]:
    sessions: dict[str, Any] = {}
    timer_session = None
    for name, s in dev.sessions.items():
        entry: dict[str, Any] = {"state": s.state, "completedTime": 0, "commitUser": s.user,
                                 "description": "", "instances": {}}
        if s.state == "pendingCommitTimer":
            timer_session = s
            if detail:
                entry["commitBy"] = s.commit_by
        sessions[name] = entry
    data: dict[str, Any] = {"sessions": sessions, "maxSavedSessions": 1, "maxOpenSessions": 5}
    if new_shape and timer_session is not None:
        data["commitTimerSessionName"] = timer_session.name
        data["commitTimerExpireTime"] = timer_session.commit_by
    return data


def _tree_json(root: Any) -> dict[str, Any]:
    def cmds(node: Any) -> dict[str, Any]:
        return {c.line: ({"cmds": cmds(c), "comments": []} if c.mode else None)
                for c in node.children}

    return {"cmds": cmds(root), "header": ["! device: lab"]}


def _as_text(data: dict[str, Any] | None) -> str:
    import json

    return json.dumps(data, indent=2) + "\n"
