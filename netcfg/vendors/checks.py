"""What each NOS can express, checked at validate time: a feature the intent asks for that a
device's NOS cannot configure is an error naming the device and the intent line, never a
silently dropped line. The facts live with each vendor (`Vendor.capabilities`, with sources);
each vendor adds its own rules (`Vendor.check`)."""

from __future__ import annotations

from netcfg.findings import Finding, Rule, Severity
from netcfg.topology import effective
from netcfg.topology.fabric import Device, Fabric
from netcfg.vendors.base import WATCHDOG_FIELDS, Capabilities
from netcfg.vendors.registry import vendor

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
    Rule("CAP007", "error", "ECMP hash algorithm not rendered for a device's NOS",
         "the switch would keep its own algorithm while the intent names another",
         "render capability table"),
    Rule("CAP008", "error", "resilient ECMP hashing not rendered for a device's NOS",
         "a link failure would rehash every flow although the intent asks it not to",
         "render capability table"),
    Rule("CAP009", "warning", "server subnets not announced in BGP on a device's NOS",
         "GPUs behind that switch are reachable only from the switch itself",
         "render capability table"),
    Rule("CAP010", "info", "a planned value the device's NOS config does not state",
         "the switch keeps its own value for it, which netcfg did not derive",
         "render capability table"),
    Rule("CAP011", "warning", "BFD asked for where the device's NOS config renders none",
         "a failed link is noticed only when the BGP hold timer expires, seconds later",
         "render capability table"),
    Rule("CAP013", "warning", "session authentication asked for where the device's NOS "
         "config states no key", "the sessions to and from those switches run without TCP MD5 "
         "(a key on one end only would keep them down)", "render capability table"),
    Rule("CAP014", "warning", "a management gateway the device's NOS config does not route to",
         "the switch answers only its own management subnet: a push, NTP or syslog from beyond "
         "it fails", "render capability table"),
    Rule("CAP015", "error", "a shared headroom pool asked for where the device's NOS config "
         "cannot state one", "each lossless port would reserve only part of the headroom "
         "netcfg's physics needs, and PFC would drop", "render capability table"),
    Rule("CAP016", "info", "a root password hash where the device's NOS config states none",
         "the switch keeps its own root password; nothing is lost", "render capability table"),
    Rule("CAP017", "warning", "a file that its NOS refuses to commit on its own: Junos needs "
         "system root-authentication", "a switch given the file alone (ZTP, a reviewer's load "
         "override) refuses it; netcfg push keeps the device's own", "render capability table"),
    Rule("CAP018", "warning", "an ECMP hash field the device's NOS file cannot state",
         "no keyword for it is verified on that NOS: the switch's default decides whether it "
         "is hashed", "render capability table"),
    Rule("CAP019", "warning", "a rendered line no vendor text confirms",
         "if the NOS does not know the spelling, it refuses the whole file (a replace fails and "
         "changes nothing); the line stays until a source confirms or corrects it",
         "render capability table"),
    Rule("CAP020", "warning", "CNP not in the queue the NOS vendor's RoCE designs give it",
         "on NX-OS CNP then shares strict priority level 1 with q7, which carries the switch's "
         "control traffic, instead of having q7 as in Cisco's designs",
         "Cisco RoCE designs; NX-OS default queuing policy"),
    Rule("CAP021", "warning", "a management address without a gateway on NX-OS: the file "
         "states no management VRF route", "netcfg push keeps the switch's own `vrf context "
         "management` and its default route; the file alone as a configure replace target "
         "removes them and the switch answers only its management subnet",
         "Cisco configuration-replace guide; Nexus 9000 Fundamentals guide, management "
         "interface"),
    Rule("CAP027", "warning", "a management address without a gateway on Junos: the file "
         "moves no management instance or route", "netcfg push keeps the switch's own "
         "`system management-instance` and `routing-instances mgmt_junos` route; the file loaded "
         "alone (ZTP, load override) removes them and the switch answers only its management "
         "subnet", "Juniper, Management Interface in a Dedicated Instance"),
    Rule("CAP028", "warning", "ECN thresholds on Junos written as percents of a queue size "
         "no Juniper text states", "Junos marks at a fill level, a percent of the queue's "
         "fullness; netcfg converts its byte thresholds against the queue's dynamic limit, which "
         "no Juniper page names as the base, so marking may start far from the planned bytes",
         "Juniper fill-level page; Apstra 6.1 DCQCN configlet; AI JVD configlet"),
    Rule("CAP032", "warning", "a BGP keepalive Junos cannot state: it sends one every third "
         "of the hold time", "the Junos switches send keepalives less often than "
         "routing.timers asks (the hold time, and so failure detection, is as asked)",
         "Juniper, hold-time (Protocols BGP)"),
    Rule("LNK006", "error", "a frame size (MTU) the device's NOS file cannot state",
         "the NOS's `mtu` statement stops below it, so those ports take smaller packets than "
         "their peers and drop the rest (a brownfield fabric.l3_mtu above what a NOS takes)",
         "each NOS's MTU conversion (Vendor.reported_mtu; docs/render-<nos>.md)"),
    Rule("CAP012", "warning", "the device's NOS file holds routing only",
         "PFC, ECN, DSCP mapping, buffers and hashing must be configured on the box by other "
         "means, or the lossless class is not lossless there", "render capability table"),
)}

#: the plan's watchdog fields by the intent's names (effective.WATCHDOG_FIELDS)
_WATCHDOG_PLAN_FIELD = {"enabled": "enabled", "detection": "detection_ms",
                        "restoration": "restoration_ms", "action": "action"}


#: plan fields (and the Device attributes carrying them) that exist only when the intent asks
#: for them: CAP010 names one only where a switch has it, at the intent line that asks
OPTIONAL_INTENT = frozenset({"ntp_servers", "dns_servers", "syslog_servers",
                             "syslog_severity", "snmp", "gnmi", "cloudvision",
                             "banners", "users", "ntp_source", "aaa"})


def _one_headroom(caps: Capabilities) -> bool:
    """The NOS sets one headroom for the whole switch (CAP004). Where it sets none at all,
    the headroom is in its `unrendered` list and CAP010 says so instead."""
    return not caps.per_port_headroom and "qos.headroom_profiles[].xoff" not in caps.unrendered


def reported_fields(caps: Capabilities) -> dict[str, str]:
    """DevicePlan field -> the rule that reports it where the NOS does not render it: the
    capability rules above, and CAP010 for the vendor's `unrendered` list."""
    out = {path: "CAP010" for path in caps.unrendered}
    if caps.hash_seed != "configured":
        out["ecmp.seed"] = "CAP005"
    if not caps.resilient_hashing:
        out["ecmp.resilient"] = "CAP008"
    if _one_headroom(caps):
        for f in ("xon", "xoff", "size"):
            out[f"interfaces[].headroom.{f}"] = "CAP004"
    if not caps.bfd:
        for f in ("interval_ms", "multiplier"):
            out[f"bgp.groups[].bfd.{f}"] = "CAP011"
    if not caps.session_key:
        out["bgp.neighbors[].keyed"] = "CAP013"
    if not caps.management_route:
        out["management_gateway"] = "CAP014"
    if not caps.root_authentication:
        out["root_authentication"] = "CAP016"
    if not caps.bgp_keepalive:
        out["bgp.keepalive_s"] = "CAP032"
    for f in set(WATCHDOG_FIELDS) - caps.watchdog_per_port:
        out[f"interfaces[].watchdog.{_WATCHDOG_PLAN_FIELD[f]}"] = "CAP006"
    return out



def check(fabric: Fabric, physics: object | None = None) -> list[Finding]:
    li = fabric.loaded
    ecmp = li.intent.ecmp
    by_nos: dict[str, list[Device]] = {}
    for dev in fabric.switches():
        by_nos.setdefault(fabric.platform(dev).nos, []).append(dev)
    out: list[Finding] = []
    for nos, devices in sorted(by_nos.items()):
        caps = vendor(nos).capabilities
        first, where = devices[0].name, which_switches(nos, devices)
        out += _routing(li, fabric, nos, caps, devices, where)
        out += mtu_ceiling(li, nos, devices)
        out += _keepalive(li, nos, caps, devices, where)
        if caps.routing_only:
            out.append(li.finding(
                "CAP012", f"{nos} files hold routing only ({where}): netcfg renders no PFC, "
                "ECN, DSCP mapping, buffers or ECMP hashing for them; configure the lossless "
                "class on the box by other means", devices[0].platform_path,
                severity="warning", device=first))
            continue
        if caps.unverified_lines:
            platforms = sorted({d.platform or "" for d in devices})
            out.append(li.finding(
                "CAP019", f"{nos} config holds lines no vendor text confirms ({where}), "
                f"unverified on {', '.join(platforms)}: "
                + "; ".join(f"`{line}` ({why})" for line, why in caps.unverified_lines.items()),
                devices[0].platform_path, severity="warning", device=first))
        unstated = [(i, fld) for i, fld in enumerate(ecmp.fields)
                    if fld in caps.unstated_hash_fields]
        if unstated:
            i, fld = unstated[0]
            out.append(li.finding(
                "CAP018", f"{nos} config states no {fld} hash keyword ({where}): none is "
                "verified for it, so the switch hashes on it or not as it does by default "
                "(RoCEv2 is always UDP: its spread does not depend on the IP protocol)",
                ("ecmp", "fields", i), severity="warning", device=first))
        for i, fld in enumerate(ecmp.fields):
            if fld not in caps.hash_fields:
                out.append(li.finding("CAP001", f"{nos} cannot hash on {fld} ({where}); it "
                                      f"hashes on: {', '.join(sorted(caps.hash_fields))}",
                                      ("ecmp", "fields", i), device=first))
        if ecmp.mode not in caps.ecmp_modes:
            out.append(li.finding("CAP003", f"{nos} has no {ecmp.mode} ECMP mode ({where}); "
                                  f"modes: {', '.join(sorted(caps.ecmp_modes))}",
                                  ("ecmp", "mode"), device=first))
        seen: set[tuple] = set()
        for dev in devices:
            action, path = effective.watchdog(fabric, dev)["action"]
            if action not in caps.watchdog_actions and path not in seen:
                seen.add(path)
                out.append(li.finding("CAP002", f"{nos} has no PFC watchdog action '{action}' "
                                      f"({dev.name}); actions: "
                                      f"{', '.join(sorted(caps.watchdog_actions))}",
                                      path, device=dev.name))
        if ecmp.algorithm not in caps.hash_algorithms:
            out.append(li.finding("CAP007", f"{nos} does not render ECMP hash algorithm "
                                  f"{ecmp.algorithm} ({where}); rendered: "
                                  f"{', '.join(sorted(caps.hash_algorithms))}",
                                  ("ecmp", "algorithm"), device=first))
        shp = ("qos", "buffer", "shared_headroom_pool")
        if (li.intent.qos.buffer.shared_headroom_pool is not None
                and not caps.shared_headroom_pool and li.intent.qos.pfc_priorities()):
            out.append(li.finding("CAP015", f"{nos} config cannot state a shared headroom pool "
                                  f"({where}): each lossless port reserves its whole headroom "
                                  "there; leave qos.buffer.shared_headroom_pool out", shp,
                                  device=first))
        if ecmp.resilient and not caps.resilient_hashing:
            out.append(li.finding("CAP008", f"{nos} does not render resilient ECMP hashing "
                                  f"({where})", ("ecmp", "resilient"), device=first))
        for field_path, why in sorted(caps.unrendered.items()):
            asked = devices[0].platform_path
            if field_path in OPTIONAL_INTENT:
                having = [d for d in devices if getattr(d, field_path)]
                if not having:
                    continue  # the intent asks none of these switches for it: nothing unstated
                asked = having[0].origin.get(field_path, asked)  # the line that asks
            out.append(li.finding("CAP010", f"{nos} config does not state {field_path} ({where}): "
                                  f"{why}", asked, severity="info", device=first))
        out += _seed(li, fabric, nos, caps, devices, where)
        out += _port_watchdog(li, fabric, nos, caps.watchdog_per_port, devices)
        out += vendor(nos).check(fabric, devices, physics)
        if _one_headroom(caps) and physics is not None:
            ports = getattr(physics, "ports", {})
            for dev in devices:
                sizes = {ports[p].size for p in dev.ports if p in ports}
                if len(sizes) > 1:
                    out.append(li.finding(
                        "CAP004", f"{dev.name} needs {len(sizes)} different PFC headroom sizes "
                        f"but {nos} sets one for all ports: the largest ({max(sizes)} B) is used",
                        dev.platform_path, severity="warning", device=dev.name))
                    break
    return out


def _routing(li, fabric: Fabric, nos: str, caps: Capabilities, devices: list[Device],
             where: str) -> list[Finding]:
    """Server subnets the NOS cannot announce (CAP009), BFD it does not render (CAP011), and
    session keys it cannot state (CAP013)."""
    out = []
    if caps.server_subnets == "blocks":
        alone = [(d, lone) for d in devices if (lone := _lone_subnets(d))]
        if alone:
            dev, lone = alone[0]
            others = f" and {len(alone) - 1} more" if len(alone) > 1 else ""
            out.append(li.finding(
                "CAP009", f"{nos} announces server subnets only as blocks of several; on "
                f"{dev.name}{others} server subnets form no block ({', '.join(lone[:3])}"
                f"{' ...' if len(lone) > 3 else ''}), and the other half of the /30 around "
                "each holds another device's address (or lies outside addressing.host_links), "
                "so no block may cover it: the GPUs there are unreachable from other leaves "
                "(two or more servers per leaf avoid it)",
                dev.platform_path, severity="warning", device=dev.name))
    # the link tiers these switches have (both roles present in the fabric)
    roles, present = {d.role for d in devices}, {d.role for d in fabric.switches()}
    if not caps.bfd and any(effective.bfd(fabric, *sorted(pair)) for pair in effective.LINK_TIER
                            if pair & roles and pair <= present):
        out.append(li.finding(
            "CAP011", f"{nos} config renders no BFD for its BGP sessions ({where}): a failed "
            "link is noticed only when the BGP hold timer expires", ("routing", "bfd"),
            severity="warning", device=devices[0].name))
    if not caps.session_key and fabric.loaded.intent.routing.authentication is not None:
        out.append(li.finding(
            "CAP013", f"{nos} config states no BGP session key ({where}): the sessions to and "
            "from them run without authentication", ("routing", "authentication"),
            severity="warning", device=devices[0].name))
    root = fabric.loaded.intent.management.root_authentication
    if caps.root_authentication and root is None:
        out.append(li.finding(
            "CAP017", f"{nos} files hold no system root-authentication ({where}): loaded alone "
            "(ZTP, a reviewer's load override) the switch refuses to commit them; netcfg push "
            "keeps the device's own. Set management.root_authentication",
            devices[0].platform_path, severity="warning", device=devices[0].name))
    if not caps.root_authentication and root is not None:
        out.append(li.finding(
            "CAP016", f"{nos} config states no root password ({where}): the switch keeps its "
            "own (only a NOS that refuses a commit without one gets the hash)",
            ("management", "root_authentication"), severity="info", device=devices[0].name))
    gated = [d for d in devices if d.management_gateway]
    if not caps.management_route and gated:
        out.append(li.finding(
            "CAP014", f"{nos} config renders no management default route ({where}): "
            f"{caps.management_route_note}", ("management", "gateway"), severity="warning",
            device=gated[0].name))
    return out


def _seed(li, fabric: Fabric, nos: str, caps: Capabilities, devices: list[Device],
          where: str) -> list[Finding]:
    """`hash_seed`: configured (rendered), unsupported (no verified command), or by role: the
    NOS derives the seed itself (SONiC: from the device type), so only other seeds are lost."""
    if caps.hash_seed == "configured":
        return []
    if caps.hash_seed == "unsupported":
        return [li.finding("CAP005", f"{nos} has no verified ECMP hash seed command ({where}): "
                           "the seeds in ecmp.seeds are not rendered, the switches keep their "
                           "own", ("ecmp", "seeds"), severity="warning", device=devices[0].name)]
    out, seen = [], set()
    for dev in devices:
        fixed = caps.seed_by_role.get(dev.role)
        if dev.ecmp_seed is None or dev.ecmp_seed == fixed:
            continue
        path = dev.origin.get("ecmp_seed", ("ecmp", "seeds"))
        if path in seen:
            continue
        seen.add(path)
        alike = sorted(r for r, s in caps.seed_by_role.items() if s == fixed and r != dev.role)
        note = f", the same as every {'/'.join(alike)}: the tiers hash alike" if alike else ""
        out.append(li.finding("CAP005", f"{nos} derives the ECMP hash seed from the device "
                              f"type: {dev.name} gets {fixed}{note}, not {dev.ecmp_seed}", path,
                              severity="warning", device=dev.name))
    return out


def _port_watchdog(li, fabric: Fabric, nos: str, per_port: frozenset[str],
                   devices: list[Device]) -> list[Finding]:
    """Port overrides of watchdog fields the NOS only sets for the whole switch."""
    if not fabric.loaded.intent.overrides.ports or WATCHDOG_FIELDS <= per_port:
        return []
    out, seen = [], set()
    for dev in devices:
        base = effective.watchdog(fabric, dev)
        for port in dev.ports:
            if not port.lossless or port.peer is None:
                continue
            got = effective.watchdog(fabric, dev, port)
            settable = ", ".join(x for x in effective.WATCHDOG_FIELDS if x in per_port)
            for f in effective.WATCHDOG_FIELDS:
                (value, path), (default, _) = got[f], base[f]
                if f in per_port or value == default or path in seen:
                    continue
                seen.add(path)
                out.append(li.finding(
                    "CAP006", f"{nos} sets the PFC watchdog {f} only for the whole switch: "
                    f"{port.id} asks for {value}, {dev.name} has {default}; per port it sets "
                    f"only {settable}", path,
                    device=dev.name))
    return out


def _keepalive(li, nos: str, caps: Capabilities, devices: list[Device],
               where: str) -> list[Finding]:
    """CAP032 where the NOS states the hold time only (Juniper, `hold-time (Protocols BGP)`:
    "The hold time is three times the interval at which keepalive messages are sent") and the
    intent's keepalive is not a third of it: the switch sends one every hold/3 seconds."""
    timers = li.intent.routing.timers
    if caps.bgp_keepalive or timers.keepalive_s * 3 == timers.hold_s:
        return []
    return [li.finding(
        "CAP032", f"{nos} states no BGP keepalive ({where}): the file says the hold time "
        f"({timers.hold_s} s) and {nos} sends a keepalive every third of it "
        f"({timers.hold_s / 3:g} s), not every {timers.keepalive_s} s as routing.timers asks",
        ("routing", "timers", "keepalive"), severity="warning", device=devices[0].name)]


def _lone_subnets(dev: Device) -> list[str]:
    """Server subnets of `dev` that are a block of their own (no neighbour to merge with)."""
    subnets, blocks = dev.server_prefixes()
    known = set(subnets)
    return [b for b in blocks if b in known]


def without_gateway(fabric: Fabric, nos: str, devices: list[Device], rule: str, what: str,
                    severity: Severity = "warning") -> list[Finding]:
    """`rule` for the switches of `nos` with a management address but no gateway, whose
    file therefore states no management route (or, on SONiC, no management address at all),
    at the line that gives the first one its address: `what` says what the file leaves out
    and what the push keeps instead."""
    bare = [d for d in devices if d.management and d.management_gateway is None]
    if not bare:
        return []
    first = bare[0]
    path = (("devices", first.name, "management", "address")
            if first.name in fabric.loaded.intent.devices else ("addressing", "management"))
    return [fabric.loaded.finding(rule, f"{what} ({which_switches(nos, bare)}). Set "
                                  "management.gateway", path, severity=severity,
                                  device=first.name)]


def unstated(fabric: Fabric, nos: str, devices: list[Device], field: str,
             why: str) -> list[Finding]:
    """CAP010 for a plan field these switches of `nos` ask for (where a Device attribute of
    the same name is set) but their files cannot state as asked, at the intent line that
    asks: what a NOS's own check says when it renders a field only under a condition."""
    having = [d for d in devices if getattr(d, field)]
    if not having:
        return []
    return [fabric.loaded.finding("CAP010", f"{nos} config does not state {field} "
                                  f"({which_switches(nos, having)}): {why}",
                                  having[0].origin[field], severity="info",
                                  device=having[0].name)]


def unverified(fabric: Fabric, nos: str, devices: list[Device], line: str, why: str,
               path: tuple) -> list[Finding]:
    """CAP019 for a line these switches' files hold only where the intent asks for it (a
    RADIUS key, several strict-high queues, a banner of several lines) and that no vendor
    text confirms, at the intent line that asks: what a NOS's own check says, in the words
    the capability table's `unverified_lines` get."""
    if not devices:
        return []
    platforms = sorted({d.platform or "" for d in devices})
    return [fabric.loaded.finding(
        "CAP019", f"{nos} config holds a line no vendor text confirms "
        f"({which_switches(nos, devices)}), unverified on {', '.join(platforms)}: `{line}` "
        f"({why})", path, severity="warning", device=devices[0].name)]


def which_switches(nos: str, devices: list[Device]) -> str:
    """`leaf1` or `leaf1 and 7 more eos switches`: the switches a finding is about."""
    more = len(devices) - 1
    return devices[0].name + (f" and {more} more {nos} switches" if more else "")


def mtu_ceiling(li, nos: str, devices: list[Device]) -> list[Finding]:  # noqa: ANN001
    """LNK006: frames a NOS's `mtu` statement cannot state. The NOS's own conversion
    (Vendor.reported_mtu) is flat where it stops (a frame one byte smaller gives the same
    statement), so no NOS's ceiling is written here. One finding per intent line that sets
    the frame (fabric.mtu or l3_mtu, a role, device or port override)."""
    stated = vendor(nos).reported_mtu
    flat: dict[int, bool] = {}
    out: list[Finding] = []
    seen: set[tuple] = set()
    for dev in devices:
        frames = {port.mtu for port in dev.ports}
        for frame in frames - flat.keys():
            here = stated(frame)
            flat[frame] = here is not None and here == stated(frame - 1)
        if not any(flat[frame] for frame in frames):
            continue  # no port of the switch has a frame to report
        for port in dev.ports:
            frame = port.mtu
            if not flat[frame]:
                continue
            path = (port.origin or {}).get("mtu") or dev.origin.get("mtu") or ("fabric", "mtu")
            if (path, frame) in seen:
                continue
            seen.add((path, frame))
            out.append(li.finding(
                "LNK006", f"{nos} files cannot state {frame}-byte frames (IP MTU "
                f"{frame - 14}) on {port.id} ({which_switches(nos, devices)}): their `mtu` "
                f"stays at {stated(frame)}, the most {nos} takes, so these ports would drop the "
                "larger packets their peers send", path, device=dev.name, interface=port.name))
    return out
