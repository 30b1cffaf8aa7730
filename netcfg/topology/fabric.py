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
    #: the fabric the device is in (set when Fabric.devices takes it): server_prefixes asks
    #: it which addresses other devices hold
    fabric: Fabric | None = field(default=None, repr=False)
    #: server_prefixes' answer, made the first time it is asked (validate's checks and the
    #: plan each ask it; addresses are final once the fabric is built)
    _prefixes: tuple[list[str], list[str]] | None = field(default=None, init=False,
                                                          repr=False)

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
        them and no address of another device), as text in address order: a leaf whose 32
        server /31s are consecutive owns one /26. A subnet that would be a block of its own
        (the last /31 of an odd count) takes the other half of its aligned /30 along where no
        device holds an address and the /30 lies in addressing.host_links (Fabric.
        spare_halves): a leaf of 15 servers whose 16th /31 is free owns one /27 as well. A
        block never covers another device's address, so announcing it cannot pull in another
        switch's traffic."""
        if self._prefixes is None:
            self._prefixes = self._server_prefixes()
        subnets, blocks = self._prefixes
        return list(subnets), list(blocks)  # the caller's own lists, as when made here

    def _server_prefixes(self) -> tuple[list[str], list[str]]:
        # a port's address is a /31 (Port.ip): its network is the address without its last
        # bit; a server's port is on a device of tier 0 (not Device.is_switch)
        nets = {(p.address & 0xFFFFFFFE, 31) for p in self.ports
                if p.address is not None and p.peer is not None and p.peer.device.tier <= 0}
        subnets, blocks = prefixes.collapse(nets)
        if self.fabric is not None and any(b.endswith("/31") for b in blocks):
            alone = set(blocks)
            spare = self.fabric.spare_halves(
                [n for n, _ in nets if f"{prefixes.dotted(n)}/31" in alone])
            if spare:
                blocks = prefixes.collapse(nets | {(n, 31) for n in spare})[1]
        return subnets, blocks

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


class Devices(dict[str, Device]):
    """Fabric.devices: the devices by name. A device put in learns its fabric (Device.fabric),
    so that what only the whole addressing plan knows (which /31s no device holds) can be
    asked of one device (Device.server_prefixes)."""

    __slots__ = ("fabric",)

    def __init__(self, fabric: Fabric) -> None:
        super().__init__()
        self.fabric = fabric

    def __setitem__(self, name: str, dev: Device) -> None:
        dev.fabric = self.fabric
        super().__setitem__(name, dev)


@dataclass(slots=True, eq=False)
class Fabric:
    name: str
    loaded: LoadedIntent = field(repr=False)
    catalog: Catalog = field(repr=False)
    devices: dict[str, Device] = field(default_factory=dict, repr=False)
    links: list[Link] = field(default_factory=list, repr=False)
    #: the /31s (network address as an int) in which some device holds an address, gathered
    #: the first time spare_halves needs them (addresses are final once the fabric is built)
    _held: frozenset[int] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        given, self.devices = self.devices, Devices(self)
        for name, dev in given.items():
            self.devices[name] = dev

    def spare_halves(self, lone: list[int]) -> list[int]:
        """For each lone server /31 (its network address as an int), the other half of the
        /30 it is aligned in, where no device holds an address (either end of any link, a
        loopback, a management address or gateway) and the /30 lies inside
        addressing.host_links: what its leaf may announce along with it. Where another
        leaf's /31 is there (one server per leaf: runs of one are not aligned) the subnet
        stays alone."""
        if self._held is None:
            self._held = frozenset(self._holding())
        pool = self.loaded.intent.addressing.host_links
        first = int(pool.network_address)
        last = first + pool.num_addresses - 1
        return [n ^ 2 for n in lone
                if first <= n & ~3 and (n | 3) <= last and n ^ 2 not in self._held]

    def _holding(self) -> set[int]:
        """The /31s (network address as an int) holding an address of some device."""
        held: set[int] = set()
        for d in self.devices.values():
            held.update(p.address & ~1 for p in d.ports if p.address is not None)
            if d.loopback is not None:
                held.add(d.loopback & ~1)
            for text in (d.management, d.management_gateway):
                if text:
                    held.add(int(ipaddress.IPv4Interface(text).ip) & ~1)
        return held

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
