"""What each NOS can express, checked at validate time: a feature the intent asks for that a
device's NOS cannot configure is an error naming the device and the intent line, never a
silently dropped line. The facts live with each NOS module (`CAPABILITIES`, with sources)."""

from __future__ import annotations

from netcfg.findings import Finding, Rule
from netcfg.render import nos as nos_modules
from netcfg.topology import effective
from netcfg.topology.fabric import Device, Fabric

RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("CAP001", "error", "ECMP hash field not supported by a device's NOS",
         "the field would be silently left out of the hash", "render capability table"),
    Rule("CAP002", "error", "PFC watchdog action not supported by a device's NOS",
         "the watchdog would act differently from the intent", "render capability table"),
    Rule("CAP003", "error", "ECMP mode not supported by a device's NOS",
         "flowlet or per-packet balancing would silently fall back to static hashing",
         "render capability table"),
    Rule("CAP004", "warning", "per-port headroom needed where the NOS sets one value",
         "ports with shorter cables then reserve the largest port's headroom", "render "
         "capability table"),
    Rule("CAP005", "warning", "ECMP hash seed not applied on a device's NOS",
         "the switch keeps its own seed; tiers may hash alike and polarize",
         "render capability table"),
    Rule("CAP006", "error", "per-port PFC watchdog setting the NOS sets only switch-wide",
         "the port's watchdog would act with the switch's value instead of the override",
         "render capability table"),
)}

#: every watchdog field a port override may set
WATCHDOG_FIELDS = ("enabled", "detection", "restoration", "action")


def capabilities(nos: str) -> dict | None:
    try:
        return nos_modules.module(nos).CAPABILITIES
    except ModuleNotFoundError:
        return None


def check(fabric: Fabric, physics: object | None = None) -> list[Finding]:
    li = fabric.loaded
    ecmp = li.intent.ecmp
    by_nos: dict[str, list[Device]] = {}
    for dev in fabric.switches():
        by_nos.setdefault(fabric.platform(dev).nos, []).append(dev)
    out: list[Finding] = []
    for nos, devices in sorted(by_nos.items()):
        caps = capabilities(nos)
        if caps is None:
            continue
        first, more = devices[0].name, len(devices) - 1
        where = f"{first}" + (f" and {more} more {nos} switches" if more else "")
        for i, fld in enumerate(ecmp.fields):
            if fld not in caps["hash_fields"]:
                out.append(li.finding("CAP001", f"{nos} cannot hash on {fld} ({where}); it "
                                      f"hashes on: {', '.join(sorted(caps['hash_fields']))}",
                                      ("ecmp", "fields", i), device=first))
        if ecmp.mode not in caps["ecmp_modes"]:
            out.append(li.finding("CAP003", f"{nos} has no {ecmp.mode} ECMP mode ({where}); "
                                  f"modes: {', '.join(sorted(caps['ecmp_modes']))}",
                                  ("ecmp", "mode"), device=first))
        seen: set[tuple] = set()
        for dev in devices:
            action, path = effective.watchdog(fabric, dev)["action"]
            if action not in caps["watchdog_actions"] and path not in seen:
                seen.add(path)
                out.append(li.finding("CAP002", f"{nos} has no PFC watchdog action '{action}' "
                                      f"({dev.name}); actions: "
                                      f"{', '.join(sorted(caps['watchdog_actions']))}",
                                      path, device=dev.name))
        out += _seed(li, fabric, nos, caps.get("hash_seed", True), devices, where)
        out += _port_watchdog(li, fabric, nos, caps.get("watchdog_per_port", WATCHDOG_FIELDS),
                              devices)
        if not caps["per_port_headroom"] and physics is not None:
            ports = getattr(physics, "ports", {})
            for dev in devices:
                sizes = {ports[p].size for p in dev.ports if p in ports}
                if len(sizes) > 1:
                    out.append(li.finding(
                        "CAP004", f"{dev.name} needs {len(sizes)} different PFC headroom sizes "
                        f"but {nos} sets one for all ports: the largest ({max(sizes)} B) is used",
                        ("platforms", dev.role), severity="warning", device=dev.name))
                    break
    return out


def _seed(li, fabric: Fabric, nos: str, cap: bool | dict[str, int], devices: list[Device],
          where: str) -> list[Finding]:
    """`hash_seed`: True (rendered), False (no verified command), or the seed per role that
    the NOS derives itself (SONiC: from the device type), so only other seeds are lost."""
    if cap is True:
        return []
    if cap is False:
        return [li.finding("CAP005", f"{nos} has no verified ECMP hash seed command ({where}): "
                           "the seeds in ecmp.seeds are not rendered, the switches keep their "
                           "own", ("ecmp", "seeds"), severity="warning", device=devices[0].name)]
    out, seen = [], set()
    for dev in devices:
        fixed = cap.get(dev.role)
        if dev.ecmp_seed is None or dev.ecmp_seed == fixed:
            continue
        path = dev.origin.get("ecmp_seed", ("ecmp", "seeds"))
        if path in seen:
            continue
        seen.add(path)
        out.append(li.finding("CAP005", f"{nos} derives the ECMP hash seed from the device "
                              f"type: {dev.name} gets {fixed}, not {dev.ecmp_seed}", path,
                              severity="warning", device=dev.name))
    return out


def _port_watchdog(li, fabric: Fabric, nos: str, per_port: tuple[str, ...] | set[str],
                   devices: list[Device]) -> list[Finding]:
    """Port overrides of watchdog fields the NOS only sets for the whole switch."""
    if not fabric.loaded.intent.overrides.ports or set(WATCHDOG_FIELDS) <= set(per_port):
        return []
    out, seen = [], set()
    for dev in devices:
        base = effective.watchdog(fabric, dev)
        for port in dev.ports:
            if not port.lossless or port.peer is None:
                continue
            got = effective.watchdog(fabric, dev, port)
            for f in WATCHDOG_FIELDS:
                (value, path), (default, _) = got[f], base[f]
                if f in per_port or value == default or path in seen:
                    continue
                seen.add(path)
                out.append(li.finding(
                    "CAP006", f"{nos} sets the PFC watchdog {f} only for the whole switch: "
                    f"{port.id} asks for {value}, {dev.name} has {default}; per port it sets "
                    f"only {', '.join(x for x in WATCHDOG_FIELDS if x in per_port)}", path,
                    device=dev.name))
    return out
