"""The expanded fabric: devices, ports, links and addresses. Pure data, no vendor syntax.

Every later stage (physics, deadlock, render, deploy) reads this. Objects use __slots__ and
addresses are kept as integers (formatted on demand) so a 32,768-GPU fabric (~200k ports) stays
small and fast to build.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from netcfg.topology import prefixes

if TYPE_CHECKING:
    from netcfg.intent.load import LoadedIntent
    from netcfg.platforms import Catalog, Nic, Platform


#: dotted quad of an IPv4 address kept as int (much faster than ipaddress for 200k ports)
ipv4 = prefixes.dotted


@dataclass(slots=True, eq=False)
class Port:
    device: Device = field(repr=False)
    name: str
    speed: int  # Mb/s
    cable: float  # metres
    lossless: bool = True
    mtu: int = 9216
    description: str | None = None
    address: int | None = None  # IPv4 as int, /31 (or None for unnumbered)
    peer: Port | None = field(default=None, repr=False)
    link: Link | None = field(default=None, repr=False)
    #: field -> intent path of the override that set it (only for overridden ports)
    origin: dict[str, tuple] | None = None

    @property
    def ip(self) -> str | None:
        return None if self.address is None else f"{ipv4(self.address)}/31"

    @property
    def id(self) -> str:
        return f"{self.device.name}:{self.name}"


@dataclass(slots=True, eq=False)
class Device:
    name: str
    role: str  # host | leaf | spine | core
    tier: int  # 0 host, 1 leaf, 2 spine, 3 core
    platform: str | None  # catalog platform (switches) or NIC (hosts)
    index: int  # 0-based position in build order among devices of its role
    plane: int = 1
    pod: int = 1
    su: int | None = None
    rail: int | None = None
    node: int | None = None
    ports: list[Port] = field(default_factory=list, repr=False)
    loopback: int | None = None
    asn: int | None = None
    mtu: int = 9216
    #: the NOS release the switch runs (its platform's, unless the intent pins another)
    release: str = ""
    ecmp_seed: int | None = None
    management: str | None = None
    #: next hop of the management VRF's default route (management.gateway or the device's)
    management_gateway: str | None = None
    description: str | None = None
    #: NTP and DNS servers the switch uses (management.*, or a role or device override)
    ntp_servers: list[str] = field(default_factory=list)
    dns_servers: list[str] = field(default_factory=list)
    #: NTP requests leave from the management interface (management.ntp_source)
    ntp_source: bool = False
    #: syslog servers (management.syslog_servers or an override) and the least severe message
    #: they get (None without servers)
    syslog_servers: list[str] = field(default_factory=list)
    syslog_severity: str | None = None
    #: an SNMP agent is configured (management.snmp), and its sysLocation
    #: (management.snmp.location or an override)
    snmp: bool = False
    snmp_location: str | None = None
    #: a gNMI server and CloudVision's agent are configured (management.telemetry)
    gnmi: bool = False
    cloudvision: bool = False
    #: a login or motd banner is configured (management.banners)
    banners: bool = False
    #: logins are configured (management.users)
    users: bool = False
    #: logins are asked of TACACS+ or RADIUS servers (management.aaa)
    aaa: bool = False
    #: the `raw_config` entries (their indexes, in order) that apply to this switch
    raw: list[int] = field(default_factory=list)
    #: field -> intent path that decided it (platform, mtu, ecmp_seed, ...); absent = default
    origin: dict[str, tuple] = field(default_factory=dict)

    @property
    def is_switch(self) -> bool:
        return self.tier > 0

    @property
    def platform_path(self) -> tuple:
        """The intent line that chose this device's platform (an override, else its role's)."""
        return self.origin.get("platform") or ("platforms", self.role)

    @property
    def loopback_ip(self) -> str | None:
        return None if self.loopback is None else ipv4(self.loopback)

    def server_prefixes(self) -> tuple[list[str], list[str]]:
        """(the subnets of the ports facing servers (GPU NICs), the fewest CIDR blocks holding
        exactly them and no other address), as text in address order: a leaf whose 32
        server /31s are consecutive owns one /26. A block never reaches past the leaf's own
        subnets, so announcing it cannot pull in another switch's traffic."""
        # a port's address is a /31 (Port.ip): its network is the address without its last bit
        return prefixes.collapse({(p.address & 0xFFFFFFFE, 31) for p in self.ports
                                  if p.address is not None and p.peer is not None
                                  and not p.peer.device.is_switch})

    def server_subnets(self) -> list[ipaddress.IPv4Network]:
        """server_prefixes' subnets as ipaddress networks (for the few callers that count
        addresses: explain)."""
        return [ipaddress.IPv4Network(s) for s in self.server_prefixes()[0]]

    def server_blocks(self) -> list[ipaddress.IPv4Network]:
        """server_prefixes' blocks as ipaddress networks."""
        return [ipaddress.IPv4Network(b) for b in self.server_prefixes()[1]]

    def port(self, name: str) -> Port | None:
        for p in self.ports:
            if p.name == name:
                return p
        return None


@dataclass(slots=True, eq=False)
class Link:
    a: Port
    b: Port
    lossless: bool = True
    #: intent path that defines this link's class (speed, cable, lossless)
    source: tuple = ()

    @property
    def kind(self) -> str:
        """`up`-ordered tier pair, e.g. `host-leaf`, `leaf-spine`, `leaf-leaf` (lateral)."""
        roles = sorted((self.a.device, self.b.device), key=lambda d: d.tier)
        return f"{roles[0].role}-{roles[1].role}"


@dataclass(slots=True, eq=False)
class Fabric:
    name: str
    loaded: LoadedIntent = field(repr=False)
    catalog: Catalog = field(repr=False)
    devices: dict[str, Device] = field(default_factory=dict, repr=False)
    links: list[Link] = field(default_factory=list, repr=False)

    def switches(self) -> list[Device]:
        return [d for d in self.devices.values() if d.tier > 0]

    def hosts(self) -> list[Device]:
        return [d for d in self.devices.values() if d.tier == 0]

    def by_role(self, role: str) -> list[Device]:
        return [d for d in self.devices.values() if d.role == role]

    def platform(self, device: Device) -> Platform:
        assert device.platform is not None and device.tier > 0
        return self.catalog.platforms[device.platform]

    def nic(self, device: Device) -> Nic:
        assert device.platform is not None and device.tier == 0
        return self.catalog.nics[device.platform]

    def summary(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for d in self.devices.values():
            counts[d.role] = counts.get(d.role, 0) + 1
        counts["links"] = len(self.links)
        counts["ports"] = sum(len(d.ports) for d in self.devices.values())
        return counts
