"""Intent -> Fabric: expand the topology, address it, apply overrides, check feasibility."""

from __future__ import annotations

from fnmatch import fnmatchcase

from netcfg.intent.base import suggest
from netcfg.intent.load import LoadedIntent
from netcfg.intent.model import Explicit, Settings
from netcfg.intent.overrides import is_glob, matching_keys
from netcfg.intent.yamlsrc import PathKey
from netcfg.nos import facts, names
from netcfg.platforms import Catalog, load_catalog
from netcfg.topology.addressing import assign_addresses, assign_asns
from netcfg.topology.build import FabricBuilder
from netcfg.topology.explicit import ExplicitBuilder
from netcfg.topology.fabric import Device, Fabric, Link, Port
from netcfg.topology.rail import RailBuilder

__all__ = ["Device", "Fabric", "Link", "Port", "build_fabric"]


def build_fabric(loaded: LoadedIntent, catalog: Catalog | None = None) -> Fabric:
    """Expand the intent into devices, ports and links; raise IntentError on any finding."""
    catalog = catalog or load_catalog()
    cls = ExplicitBuilder if isinstance(loaded.intent.topology, Explicit) else RailBuilder
    builder: FabricBuilder = cls(loaded, catalog)
    builder.build()
    builder.fail_if_errors()
    _device_settings(builder)
    _raw_config(builder)
    _banners(builder)
    _port_settings(builder)
    builder.fail_if_errors()
    assign_asns(builder)
    assign_addresses(builder)
    builder.fail_if_errors()
    return builder.fabric


def _device_settings(b: FabricBuilder) -> None:
    """Role then device overrides onto each switch (mtu, seed, asn applied later, text, NTP,
    DNS and syslog servers, SNMP location)."""
    intent = b.intent
    roles = intent.overrides.roles
    devices = intent.overrides.devices
    for key in devices:
        if not is_glob(key) and key not in b.fabric.devices:
            b.error("REF003", f"overrides.devices names '{key}', which is not a device"
                    f"{suggest(key, tuple(b.fabric.devices))}",
                    ("overrides", "devices", key), key=True)
    for dev in b.fabric.switches():
        made = dev.mtu  # the frame its ports were made with (FabricBuilder.switch_ports)
        platform = b.catalog.platforms[dev.platform or ""]
        nos = platform.nos
        dev.release = intent.releases.get(nos, platform.release)
        if nos in intent.releases:
            dev.origin["release"] = ("releases", nos)
        dev.ecmp_seed = intent.ecmp.seed(dev.role)
        dev.origin["ecmp_seed"] = ("ecmp", "seeds", dev.role)
        dev.origin["mtu"] = ("fabric", "mtu" if intent.fabric.l3_mtu is None else "l3_mtu")
        for servers in ("ntp_servers", "dns_servers", "syslog_servers"):
            setattr(dev, servers, [str(h) for h in getattr(intent.management, servers)])
            dev.origin[servers] = ("management", servers)
        layers: list[tuple[PathKey, Settings]] = (
            [(("overrides", "roles", dev.role), roles[dev.role])] if dev.role in roles else [])
        if devices:
            layers += [(("overrides", "devices", k), devices[k])
                       for k in reversed(matching_keys(devices, dev.name))]
        snmp = intent.management.snmp
        if snmp is not None:
            dev.snmp = True
            dev.origin["snmp"] = ("management", "snmp")
        if intent.management.ntp_source == "management" and dev.ntp_servers:
            dev.ntp_source = True
            dev.origin["ntp_source"] = ("management", "ntp_source")
        if intent.management.users:
            dev.users = True
            dev.origin["users"] = ("management", "users")
        if intent.management.aaa is not None:
            dev.aaa = True
            dev.origin["aaa"] = ("management", "aaa")
        if intent.management.banners is not None:
            dev.banners = True
            dev.origin["banners"] = ("management", "banners")
        telemetry = intent.management.telemetry
        for agent in ("gnmi", "cloudvision"):
            if telemetry is not None and getattr(telemetry, agent) is not None:
                setattr(dev, agent, True)
                dev.origin[agent] = ("management", "telemetry", agent)
        if snmp is not None and snmp.location is not None:
            dev.snmp_location = snmp.location
            dev.origin["snmp_location"] = ("management", "snmp", "location")
        for where, s in layers:
            for field in ("release", "mtu", "ecmp_seed", "description", "asn", "snmp_location"):
                if getattr(s, field) is not None:
                    setattr(dev, field, getattr(s, field))
                    dev.origin[field] = where + (field,)
            for field in ("ntp_servers", "dns_servers", "syslog_servers"):
                if getattr(s, field) is not None:
                    setattr(dev, field, [str(h) for h in getattr(s, field)])
                    dev.origin[field] = where + (field,)
        if dev.syslog_servers:
            dev.syslog_severity = intent.management.syslog_severity
            dev.origin["syslog_severity"] = ("management", "syslog_severity")
        if dev.mtu != made:  # an override changed the frame: its ports follow
            for port in dev.ports:
                port.mtu = dev.mtu
    _check_releases(b)


def _raw_config(b: FabricBuilder) -> None:
    """Each `raw_config` entry onto the switches of its NOS it selects, after its vendor has
    checked its form and lines (SCH005 at the entry: a line that would leave configuration
    mode or close netcfg's own blocks is an injection, not configuration)."""
    for i, entry in enumerate(b.intent.raw_config):
        where = ("raw_config", i)
        if entry.nos not in names():
            b.error("SCH003", f"raw_config names NOS '{entry.nos}', which netcfg does not "
                    f"render{suggest(entry.nos, names())}", where + ("nos",))
            continue
        nos = facts(entry.nos)
        refusal = nos.raw_refusal(entry.lines, entry.merge)
        if refusal is not None:
            b.error("SCH005", f"raw_config for {entry.nos}: {refusal}",
                    where + (("lines",) if entry.lines is not None else ("merge",)))
            continue
        for dev in b.fabric.switches():
            if b.catalog.platforms[dev.platform or ""].nos != entry.nos:
                continue
            if entry.roles and dev.role not in entry.roles:
                continue
            if entry.devices and not any(fnmatchcase(dev.name, g) for g in entry.devices):
                continue
            dev.raw.append(i)


def _banners(b: FabricBuilder) -> None:
    """Each banner as the NOSes of the fabric's switches can carry it (SCH005 at the banner:
    a line a NOS's loader would drop or end the banner on)."""
    banners = b.intent.management.banners
    if banners is None:
        return
    noses = sorted({b.catalog.platforms[d.platform or ""].nos for d in b.fabric.switches()})
    for which in ("login", "motd"):
        text = getattr(banners, which)
        for nos in noses if text is not None else ():
            refusal = facts(nos).banner_refusal(text)
            if refusal is not None:
                b.error("SCH005", f"management.banners.{which} on {nos}: {refusal}",
                        ("management", "banners", which))
                break


def _check_releases(b: FabricBuilder) -> None:
    """Every release named is one the catalog knows for the NOS it applies to (REF006, once
    per intent line, listing the known releases)."""
    for nos in b.intent.releases:
        if nos not in b.catalog.releases:
            b.error("REF006", f"releases names NOS '{nos}', which the catalog does not know"
                    f"{suggest(nos, tuple(b.catalog.releases))}; known: "
                    f"{', '.join(sorted(b.catalog.releases))}", ("releases", nos), key=True)
    reported: set[tuple] = set()
    for dev in b.fabric.switches():
        nos = b.catalog.platforms[dev.platform or ""].nos
        reason = b.catalog.check_release(nos, dev.release)
        where = dev.origin.get("release")
        if reason and where is not None and (where, nos) not in reported:
            reported.add((where, nos))
            b.error("REF006", f"{reason} (for {dev.name})", where)


def _port_settings(b: FabricBuilder) -> None:
    ports_ov = b.intent.overrides.ports
    if not ports_ov:
        return
    exact: dict[tuple[str, str], str] = {}
    globs = []
    for key in ports_ov:
        dev_name, sep, port_name = key.partition(":")
        if not sep or not dev_name or not port_name:
            b.error("SCH003", f"port override key '{key}' must be 'device:interface'",
                    ("overrides", "ports", key), key=True)
            continue
        if is_glob(key):
            globs.append(key)
            continue
        dev = b.fabric.devices.get(dev_name)
        if dev is None or dev.port(port_name) is None:
            what = "device" if dev is None else "interface"
            b.error("REF003", f"overrides.ports names '{key}': no such {what}",
                    ("overrides", "ports", key), key=True)
            continue
        exact[(dev_name, port_name)] = key
    for dev in b.fabric.devices.values():
        for port in dev.ports:
            keys = matching_keys(globs, port.id) if globs else []
            hit = exact.get((dev.name, port.name))
            if hit:
                keys = [hit] + keys
            for key in reversed(keys):
                s = ports_ov[key]
                where = ("overrides", "ports", key)
                for field in ("mtu", "cable", "description", "lossless"):
                    if getattr(s, field) is not None:
                        setattr(port, field, getattr(s, field))
                        port.origin = port.origin or {}
                        port.origin[field] = where + (field,)
                # cable length and PFC are properties of the link: both ends follow
                if s.cable is not None and port.peer is not None:
                    port.peer.cable = s.cable
                if s.lossless is not None and port.link is not None:
                    port.link.lossless = port.link.a.lossless = port.link.b.lossless = s.lossless
