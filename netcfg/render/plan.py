"""DevicePlan: one vendor-neutral structured config per device, built from the Fabric.

Every number and decision of a rendered config lives here (templates only add syntax), so
the five NOSes cannot disagree about the fabric. Units are netcfg's: bytes, Mb/s, ms for
timers, L2 frame MTU; each vendor converts in one place (`netcfg/vendors/`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from netcfg.intent.model import Aaa, Banners, CloudVision, Gnmi, Snmp
from netcfg.intent.raw import RawConfig, RawPiece
from netcfg.intent.units import format_length, format_speed
from netcfg.nos import facts
from netcfg.physics import Physics, lossless
from netcfg.physics.ecn import EcnSetting
from netcfg.physics.result import Headroom
from netcfg.platforms import Platform
from netcfg.render.pools import BufferPools, budget_pools
from netcfg.topology import effective
from netcfg.topology.fabric import Device, Fabric, Port, ipv4


@dataclass(frozen=True, slots=True)
class EcnProfile:
    """WRED/ECN marking of one queue; shared by the ports with equal thresholds."""

    name: str
    queue: int
    min: int  # bytes
    max: int  # bytes
    probability: int  # percent


@dataclass(frozen=True, slots=True)
class HeadroomProfile:
    """Lossless PG buffer profile (bytes), shared by the ports with equal numbers."""

    name: str
    xon: int
    xoff: int
    size: int
    dynamic_th: int  # alpha = 2^dynamic_th
    model: str


@dataclass(frozen=True, slots=True)
class Watchdog:
    enabled: bool
    detection_ms: int
    restoration_ms: int
    action: str  # drop | forward | alert


@dataclass(slots=True)
class Interface:
    name: str
    description: str
    speed: int  # Mb/s
    mtu: int  # L2 frame
    address: str | None  # "a.b.c.d/31"
    peer: str  # "device:port"
    peer_role: str
    lanes: int  # SerDes lanes behind the port
    cable_m: float
    lossless: bool
    pfc_priorities: tuple[int, ...]
    headroom: HeadroomProfile | None
    ecn: tuple[EcnProfile, ...]
    watchdog: Watchdog | None

    @property
    def cable(self) -> str:
        return format_length(self.cable_m)

    @property
    def speed_text(self) -> str:
        return format_speed(self.speed)


@dataclass(frozen=True, slots=True)
class Breakout:
    """A front-panel cage split into several ports: the NOS must be told before the split
    ports exist (NVUE `link breakout`, NX-OS `interface breakout`)."""

    cage: int  # 1-based
    #: the cage's own port name when unsplit (where the platform has a 1-port mode)
    parent: str | None
    ports: int  # split ports in the cage (the platform mode's per_cage)
    speed: int  # Mb/s per split port


def _bfd(timers: tuple[int, int] | None) -> Bfd | None:
    return Bfd(*timers) if timers else None


def group_name(peer_role: str) -> str:
    """The peer group of the sessions toward switches of `peer_role`."""
    return peer_role.upper()


@dataclass(frozen=True, slots=True)
class Bfd:
    """BFD on a BGP session: both intervals (transmit and required receive) and the count of
    missed packets that declares the session down."""

    interval_ms: int
    multiplier: int

    @property
    def detection_ms(self) -> int:
        return self.interval_ms * self.multiplier


@dataclass(frozen=True, slots=True)
class PeerGroup:
    """The sessions toward one tier of peers (named after their role: SPINE on a leaf),
    sharing what is set per tier: BFD."""

    name: str
    bfd: Bfd | None


# Hashed and compared by value as a frozen dataclass is, but not frozen: a frozen dataclass
# sets each field through object.__setattr__ (0.55 us a session against 0.16), and a spine
# has dozens of sessions. Nothing changes a plan's sessions once built.
@dataclass(unsafe_hash=True, slots=True)
class Neighbor:
    address: str
    remote_as: int
    name: str  # peer device
    interface: str  # local port the session runs over
    peer_port: str  # the peer's port at the other end
    group: str = ""  # its PeerGroup
    #: TCP MD5 on this session (routing.authentication, where both ends' NOS can state it);
    #: the files hold SESSION_KEY, the key itself is put in by `netcfg push`
    keyed: bool = False

    @property
    def description(self) -> str:
        """What the session is named after: the peer and its port."""
        return f"{self.name}:{self.peer_port}"


@dataclass(slots=True)
class Bgp:
    asn: int
    router_id: str
    maximum_paths: int
    multipath_relax: bool
    neighbors: list[Neighbor]
    #: one per tier of peers, in name order
    groups: list[PeerGroup]
    #: prefixes this switch originates: its loopback /32, then the subnet of every port facing
    #: a server (each exactly, so that every NOS finds it in its routing table to announce)
    networks: list[str]
    #: the same server subnets as the fewest CIDR blocks holding exactly them (Device.
    #: server_blocks): what a NOS that cannot announce connected subnets originates instead,
    #: as a discard route it announces (SONiC); a block of one subnet stays that subnet
    server_blocks: list[str]
    #: BGP keepalive and hold time of every session, whole seconds (routing.timers)
    keepalive_s: int
    hold_s: int
    #: prefixes the whole fabric originates at most (every switch's loopback and one subnet
    #: per server port): no session carries more, so a NOS sizes a per-session limit from it
    fabric_prefixes: int = 0

    def with_bfd(self) -> list[tuple[Neighbor, Bfd]]:
        """The sessions that run BFD, each with its group's timers."""
        by_group = {g.name: g.bfd for g in self.groups}
        return [(n, b) for n in self.neighbors if (b := by_group.get(n.group))]

    def port_bfd(self) -> dict[str, Bfd]:
        """Local port -> the BFD of the session over it (NOSes that time BFD per port)."""
        return {n.interface: b for n, b in self.with_bfd()}

    def bfd(self) -> dict[str, Bfd]:
        """Neighbour address -> its BFD."""
        return {n.address: b for n, b in self.with_bfd()}

    def merged_blocks(self) -> list[str]:
        """Server blocks that merge several subnets (a block of one subnet is that subnet)."""
        return [b for b in self.server_blocks if b not in self.networks]


@dataclass(frozen=True, slots=True)
class QosClass:
    name: str
    tc: int  # traffic class = switch priority = queue = PFC priority
    dscp: tuple[int, ...]
    lossless: bool
    mode: str  # strict | ets
    weight: int | None  # ETS percent


@dataclass(slots=True)
class Qos:
    classes: list[QosClass]
    dscp_to_tc: dict[int, int]  # all 64 code points
    default_tc: int
    pfc_priorities: tuple[int, ...]
    watchdog_poll_ms: int
    watchdog_default: Watchdog
    ecn_profiles: list[EcnProfile]
    headroom_profiles: list[HeadroomProfile]
    dynamic_th: int
    #: dynamic limit of one congested queue/PG (docs/physics.md section 4): the XOFF point ECN
    #: stays below, and the "queue buffer" Junos ECN fill levels are percentages of
    queue_limit: int
    #: shared buffer pools sized from the ASIC buffer and the reserved headroom
    pools: BufferPools
    #: qos.buffer.traffic_pattern (mtu, small_packet_percentage) the headroom was computed
    #: for: a NOS that computes headroom itself (SONiC's dynamic model) is given the same
    traffic_pattern: tuple[int, int] = (1024, 50)
    #: traffic class of the class that carries CNPs (qos.cnp_class; None: no such class): a
    #: NOS whose vendor puts CNP in a queue of its own moves it there (NX-OS: q7)
    cnp_tc: int | None = None

    def tc_to_pg(self, tc: int) -> int:
        """Lossless priorities get their own priority group (same number); the rest PG 0."""
        return tc if tc in self.pfc_priorities else 0


@dataclass(frozen=True, slots=True)
class Ecmp:
    fields: tuple[str, ...]
    seed: int
    algorithm: str
    mode: str  # static | flowlet | per_packet
    flowlet_inactivity_us: float
    resilient: bool


@dataclass(frozen=True, slots=True)
class SnmpAgent:
    """The switch's SNMP agent: sysLocation and sysContact (None: not stated) and whether a
    read-only community is configured (its value is put in by `netcfg push`)."""

    location: str | None
    contact: str | None
    community: bool


@dataclass(frozen=True, slots=True)
class AaaServers:
    """Where the switch asks who may log in (management.aaa): the protocol, the servers in
    order and the group's name; the key is AAA_KEY in the files until `netcfg push`."""

    protocol: str  # tacacs+ | radius
    servers: tuple[str, ...]
    group: str


@dataclass(slots=True)
class DevicePlan:
    hostname: str
    role: str
    nos: str
    platform: str
    #: the NOS release the file is for (the catalog's known releases of `nos`): spellings that
    #: differ between releases follow it
    release: str
    model: str
    management: str | None  # "a.b.c.d/len"
    #: next hop of the management VRF's default route (None: no route rendered)
    management_gateway: str | None
    loopback: str  # "a.b.c.d/32"
    mtu: int
    interfaces: list[Interface]
    #: the split cages the interfaces need, in cage order
    breakouts: list[Breakout]
    bgp: Bgp
    qos: Qos
    ecmp: Ecmp
    lldp: bool = True
    #: `management.root_authentication` is given: a NOS that needs root's password in the file
    #: writes ROOT_HASH where the hash goes, and rendering fills it in (render.engine)
    root_authentication: bool = False
    #: NTP servers, reached through the management VRF (management.ntp_servers, or a role or
    #: device override)
    ntp_servers: list[str] = field(default_factory=list)
    #: DNS name servers, reached through the management VRF (management.dns_servers, or an
    #: override)
    dns_servers: list[str] = field(default_factory=list)
    #: NTP requests leave from the management interface (management.ntp_source)
    ntp_source: bool = False
    #: syslog servers, reached through the management VRF (management.syslog_servers, or an
    #: override), and the least severe message they receive (RFC 5424 name; None: no servers)
    syslog_servers: list[str] = field(default_factory=list)
    syslog_severity: str | None = None
    #: the SNMP agent (management.snmp), None where the intent has none
    snmp: SnmpAgent | None = None
    #: the gNMI server and CloudVision's agent (management.telemetry), None where not asked
    gnmi: Gnmi | None = None
    cloudvision: CloudVision | None = None
    #: login and motd banners (management.banners), None where not asked
    banners: Banners | None = None
    #: logins (management.users): name -> role; each file holds user_hash(name) where the
    #: hash goes, filled in when files are written (render.engine.Hashes)
    users: dict[str, str] = field(default_factory=dict)
    #: the logins whose SHA-256 hash the intent names as well (management.users.<n>.sha256),
    #: for the NOSes that take only that form; a file holds user_hash(name, SHA256) for it
    sha256_users: tuple[str, ...] = ()
    #: the TACACS+ or RADIUS servers logins are asked of (management.aaa), None where not asked
    aaa: AaaServers | None = None
    #: the `raw_config` entries for this switch, in order: rendering puts them into the file
    #: as written (netcfg/vendors/raw.py)
    raw: list[RawPiece] = field(default_factory=list)

    @property
    def management_ip(self) -> str | None:
        """The management address without its prefix length: where the switch's agents
        listen and what its NTP and AAA servers see as its source."""
        return self.management.split("/")[0] if self.management else None


#: what the rendered files hold where the SNMP read-only community goes: `netcfg push` puts
#: the community `management.snmp.community` names there, as it does a session key
SNMP_COMMUNITY = "NETCFG-SNMP-COMMUNITY"

#: what the rendered files hold where the TACACS+ or RADIUS key goes (management.aaa.key):
#: `netcfg push` puts the key there, as it does a session key
AAA_KEY = "NETCFG-AAA-KEY"

#: the kind of user_hash a file holds where a login's SHA-256 hash goes (NX-OS)
SHA256 = "SHA256"


def user_hash(name: str, kind: str = "HASH") -> str:
    """What a file holds where login `name`'s password hash (`kind` SHA256: its SHA-256 hash)
    goes until rendering fills it in (render.engine.Hashes)."""
    return f"NETCFG-USER-{kind}-{name}"


#: a user_hash placeholder, whole (a login's name: intent.base.Name), so that login `ops` is
#: never filled into the start of `ops2`'s
USER_HASH = re.compile(r"NETCFG-USER-[A-Z0-9]+-[A-Za-z0-9][A-Za-z0-9_.\-]*")


#: what the rendered files hold where a BGP session's key goes: `netcfg push` replaces it with
#: the key routing.authentication names, so no rendered or committed file ever holds the key
SESSION_KEY = "NETCFG-SESSION-KEY"

#: what a config holds where root's password hash goes until rendering fills it in from the
#: reference `management.root_authentication` names (render.engine.Hashes)
ROOT_HASH = "NETCFG-ROOT-HASH"

#: what every rendered switch config classifies by
TRUST = "dscp"
#: headroom profiles are named `<prefix>_<speed>_<cable>` (SONiC's own pg_lossless_* form)
HEADROOM_PREFIX = "pg_lossless"

#: Plan fields that state a fact another field also states, in the form some NOS wants: a
#: NOS renders one of the two (tests/test_coverage.py follows the chain until one changes the
#: rendered text).
SAME_FACT_AS: dict[str, str] = {
    "mtu": "interfaces[].mtu",
    "interfaces[].peer": "interfaces[].description",
    "interfaces[].cable_m": "interfaces[].headroom.xoff",
    # the lane count follows from the speed and the platform's port modes
    "interfaces[].lanes": "interfaces[].speed",
    # a split cage's parent port is named after the cage; its ports' speed is theirs
    "breakouts[].cage": "breakouts[].parent",
    "breakouts[].speed": "interfaces[].speed",
    "interfaces[].lossless": "interfaces[].pfc_priorities",
    "interfaces[].pfc_priorities": "qos.pfc_priorities",
    "qos.pfc_priorities": "interfaces[].pfc_priorities",
    "qos.classes[].lossless": "qos.pfc_priorities",
    "qos.classes[].dscp": "qos.dscp_to_tc",
    "qos.dscp_to_tc": "qos.classes[].dscp",
    "qos.default_tc": "qos.dscp_to_tc",
    # a NOS announces the server subnets one by one or as blocks; both hold the same addresses
    "bgp.server_blocks": "bgp.networks",
    "bgp.networks": "bgp.server_blocks",
    "qos.watchdog_default.enabled": "interfaces[].watchdog.enabled",
    "qos.watchdog_default.detection_ms": "interfaces[].watchdog.detection_ms",
    "qos.watchdog_default.restoration_ms": "interfaces[].watchdog.restoration_ms",
    "qos.watchdog_default.action": "interfaces[].watchdog.action",
    "interfaces[].watchdog.enabled": "qos.watchdog_default.enabled",
    "interfaces[].watchdog.detection_ms": "qos.watchdog_default.detection_ms",
    "interfaces[].watchdog.restoration_ms": "qos.watchdog_default.restoration_ms",
    "interfaces[].watchdog.action": "qos.watchdog_default.action",
    "qos.dynamic_th": "qos.headroom_profiles[].dynamic_th",
    "qos.headroom_profiles[].dynamic_th": "qos.dynamic_th",
    "interfaces[].headroom.dynamic_th": "qos.dynamic_th",
    # a port's headroom is one of the switch's profiles (the same object)
    "interfaces[].headroom.xon": "qos.headroom_profiles[].xon",
    "interfaces[].headroom.xoff": "qos.headroom_profiles[].xoff",
    "interfaces[].headroom.size": "qos.headroom_profiles[].size",
    # the switch computes the queue limit itself from the dynamic threshold
    "qos.queue_limit": "qos.dynamic_th",
    "qos.pools.reserved": "qos.pools.total",
    "bgp.neighbors[].interface": "bgp.neighbors[].address",
    "bgp.router_id": "loopback",
}

#: Plan fields that identify or explain rather than configure (names of profiles that a NOS
#: without named objects writes inline; the model behind a headroom figure; the peer's role).
DESCRIPTIVE: dict[str, str] = {
    "role": "shown in the header comment where the NOS keeps one",
    "platform": "the catalog entry; the NOS facts come from it",
    "model": "shown in the header comment where the NOS keeps one",
    "interfaces[].peer_role": "selects the peer group where a NOS has them",
    "interfaces[].headroom.name": "a NOS without named buffer profiles writes values inline",
    "interfaces[].headroom.model": "which physics model gave the headroom (netcfg explain)",
    "qos.headroom_profiles[].name": "a NOS without named buffer profiles writes values inline",
    "qos.headroom_profiles[].model": "which physics model gave the headroom (netcfg explain)",
    "qos.ecn_profiles[].name": "a NOS without named ECN profiles writes values inline",
    "qos.classes[].name": "a NOS without named classes writes queues by number",
    "qos.cnp_tc": "which class carries CNPs: NX-OS moves it to q7 (Cisco's RoCE designs), "
                  "the other NOSes keep it in its class's queue",
    "bgp.fabric_prefixes": "sizes a per-session prefix limit where the NOS file states one "
                           "(EOS maximum-routes, never below its floor)",
}

#: Plan fields that mean something only while another field has a value.
MEANINGFUL_WHEN: dict[str, tuple[str, object]] = {
    "ecmp.flowlet_inactivity_us": ("ecmp.mode", "flowlet"),
    # where NTP requests leave from means something only with NTP servers
    "ntp_source": ("ntp_servers", ["192.0.2.123"]),
    # a NOS whose management entry needs its gateway (SONiC's MGMT_INTERFACE) states the
    # address only beside one
    "management": ("management_gateway", "198.51.100.254"),
}


# --------------------------------------------------------------------------- building


def _unique(name: str, profiles: Iterable[EcnProfile | HeadroomProfile]) -> str:
    """`name`, or `name_2`, `name_3`... when another profile (different numbers) has it."""
    taken = {p.name for p in profiles}
    candidate, i = name, 2
    while candidate in taken:
        candidate, i = f"{name}_{i}", i + 1
    return candidate


def _ms(us: float) -> int:
    return int(round(us / 1000))


def _breakouts(platform: Platform, interfaces: list[Interface],
               known: dict[tuple[str, int], Breakout | None] | None = None) -> list[Breakout]:
    """The cages whose ports run in a split mode (from the catalog's port naming). `known`
    holds what earlier devices of the same platform found per (port, speed): every switch of
    a platform has the same port names, so each is looked up once per fabric."""
    if known is None:
        known = {}
    split: dict[int, Breakout] = {}
    for i in interfaces:
        key = (i.name, i.speed)
        if key in known:
            b = known[key]
        else:
            found = platform.cage_of(i.name, i.speed)
            b = None
            if found is not None and found[1].per_cage > 1:
                cage, mode = found
                b = Breakout(cage, platform.native_port(cage), mode.per_cage, mode.speed)
            known[key] = b
        if b is not None and b.cage not in split:
            split[b.cage] = b
    return [split[c] for c in sorted(split)]


class PlanBuilder:
    """Builds DevicePlans; profiles shared across devices are computed once."""

    def __init__(self, fabric: Fabric, physics: Physics):
        self.fabric = fabric
        self.physics = physics
        self.intent = fabric.loaded.intent
        self._qos_base = self._qos_classes()
        self._watchdogs: dict[tuple[str, str | None], Watchdog] = {}
        #: per platform name: (port, speed) -> its split cage (what _breakouts found)
        self._cages: dict[str, dict[tuple[str, int], Breakout | None]] = {}
        #: per NOS: whether it can state a session key (keyed)
        self._session_key: dict[str, bool] = {}
        self._keyed: dict[tuple[str | None, str | None], bool] = {}
        self._fabric_prefixes: int | None = None
        cnp = self.intent.qos.classes.get(self.intent.qos.cnp_class)
        self._cnp_tc = None if cnp is None else cnp.traffic_class
        # the same for every switch of the fabric: the lossless priorities, the classes that
        # mark ECN (each intent lookup validates a model)
        self._pfc = tuple(self.intent.qos.pfc_priorities())
        self._ecn_classes = [c for c in self._qos_base[0]
                             if self.intent.qos.ecn_of(c.name).enabled]
        #: an address's /24 (address >> 8) -> its dotted quad's first three parts and dot
        #: ("10.0.1."): the addresses of a switch's ports lie in a few /24s, so a port's
        #: text is one lookup and the last number (topology.prefixes.dotted, 2-3 per port)
        self._head: dict[int, str] = {}

    def _head_of(self, address: int) -> str:
        """The first three parts of `address`'s dotted quad with the dot after them."""
        got = self._head[address >> 8] = ipv4(address & ~255)[:-1]
        return got

    def _qos_classes(self) -> tuple[list[QosClass], dict[int, int], int]:
        qos = self.intent.qos
        classes = [QosClass(n, c.traffic_class, tuple(c.dscp), c.lossless, c.scheduling.mode,
                            c.scheduling.weight) for n, c in qos.classes.items()]
        classes.sort(key=lambda c: c.tc)
        default_tc = qos.classes[qos.default_class].traffic_class
        dscp_to_tc = {d: default_tc for d in range(64)}
        for c in classes:
            for d in c.dscp:
                dscp_to_tc[d] = c.tc
        return classes, dscp_to_tc, default_tc

    def fabric_prefixes(self) -> int:
        """Bgp.fabric_prefixes, counted once per fabric."""
        if self._fabric_prefixes is None:
            self._fabric_prefixes = sum(
                1 + sum(1 for p in d.ports if p.peer is not None and not p.peer.device.is_switch)
                for d in self.fabric.switches())
        return self._fabric_prefixes

    def keyed(self, dev: Device, peer: Device) -> bool:
        """A session is authenticated when the intent asks and both ends' NOS can state a key:
        a key on one end only would keep the session down (CAP013 names the NOS without)."""
        if self.intent.routing.authentication is None:
            return False
        pair = (dev.platform, peer.platform)
        got = self._keyed.get(pair)
        if got is None:
            got = self._keyed[pair] = all(self._keys(self.fabric.platform(d).nos)
                                          for d in (dev, peer))
        return got

    def _keys(self, nos: str) -> bool:
        got = self._session_key.get(nos)
        if got is None:
            got = self._session_key[nos] = facts(nos).capabilities.session_key
        return got

    def watchdog(self, dev: Device, port: Port | None) -> Watchdog:
        if port is not None and not self.intent.overrides.ports:
            port = None  # no port overrides: every port has its device's watchdog
        key = (dev.name, port.name if port is not None else None)
        got = self._watchdogs.get(key)
        if got is None:
            got = self._watchdogs[key] = self._watchdog(dev, port)
        return got

    def _watchdog(self, dev: Device, port: Port | None) -> Watchdog:
        w = effective.watchdog(self.fabric, dev, port)
        return Watchdog(bool(w["enabled"][0]), _ms(w["detection"][0]),
                        _ms(w["restoration"][0]), str(w["action"][0]))

    def plan(self, dev: Device) -> DevicePlan:
        fabric, intent, phys = self.fabric, self.intent, self.physics
        platform = fabric.platform(dev)
        qos_i = intent.qos
        classes, dscp_to_tc, default_tc = self._qos_base
        pfc = self._pfc
        budget = phys.budgets[dev.name]
        dyn = qos_i.buffer.dynamic_threshold
        ecn_classes = self._ecn_classes
        ecn_profiles: dict[tuple, EcnProfile] = {}
        hr_profiles: dict[tuple, HeadroomProfile] = {}
        ecn_by_speed: dict[int, tuple[EcnProfile, ...]] = {}
        interfaces: list[Interface] = []
        neighbors: list[Neighbor] = []
        # SerDes lanes per port by speed (the platform's split modes); whole cage otherwise
        widths = {m.speed: platform.lanes_per_cage // m.per_cage for m in platform.modes}
        whole = platform.lanes_per_cage
        # without port overrides every lossless port has its device's watchdog (watchdog())
        port_watchdogs = bool(intent.overrides.ports)
        device_watchdog = self.watchdog(dev, None)
        authenticated = intent.routing.authentication is not None
        #: the peer group of each role of the switches beside this one (one per role)
        group_of: dict[str, str] = {}
        head = self._head
        headrooms = phys.ports
        no_pfc = not pfc
        keyed = self.keyed
        for port in dev.ports:
            peer = port.peer
            if peer is None:
                continue
            is_lossless = lossless(port) and not no_pfc
            hr = None
            if is_lossless:
                h: Headroom = headrooms[port]
                key = (h.xon, h.xoff, h.size)
                hr = hr_profiles.get(key)
                if hr is None:
                    name = _unique(f"{HEADROOM_PREFIX}_{format_speed(port.speed)}_"
                                   f"{format_length(port.cable)}", hr_profiles.values())
                    hr = hr_profiles[key] = HeadroomProfile(name, h.xon, h.xoff, h.size, dyn,
                                                            h.model)
            # ECN follows from the device and the port's speed (Physics.ecn): once per speed
            ecns = ecn_by_speed.get(port.speed)
            if ecns is None:
                found = []
                for c in ecn_classes:
                    e: EcnSetting = phys.ecn(port, c.name)
                    ecn_key = (c.tc, e.min, e.max, e.probability)
                    prof = ecn_profiles.get(ecn_key)
                    if prof is None:
                        name = _unique(
                            f"ecn_{c.name}_{format_speed(port.speed)}", ecn_profiles.values()
                        )
                        prof = EcnProfile(name, c.tc, e.min, e.max, e.probability)
                        ecn_profiles[ecn_key] = prof
                    found.append(prof)
                ecns = ecn_by_speed[port.speed] = tuple(found)
            peer_dev = peer.device
            peer_id = f"{peer_dev.name}:{peer.name}"  # Port.id
            watchdog = None
            if is_lossless:
                watchdog = self.watchdog(dev, port) if port_watchdogs else device_watchdog
            # Port.ip: the dotted quad's first three parts once per /24 (Builder._head)
            address = port.address
            ip = None
            if address is not None:
                first = head.get(address >> 8) or self._head_of(address)
                ip = f"{first}{address & 255}/31"
            # positional: a call with fourteen keywords costs three times as much, once per
            # port (fields in Interface's order: name, description, speed, mtu, address,
            # peer, peer_role, lanes, cable_m, lossless, pfc_priorities, headroom, ecn,
            # watchdog)
            interfaces.append(Interface(
                port.name, port.description or peer_id, port.speed, port.mtu, ip,
                peer_id, peer_dev.role, widths.get(port.speed, whole), port.cable,
                is_lossless, pfc if is_lossless else (), hr, ecns, watchdog))
            if peer_dev.tier == 0:  # not Device.is_switch: a server
                continue
            group = group_of.get(peer_dev.role)
            if group is None:
                group = group_of[peer_dev.role] = group_name(peer_dev.role)
            address = peer.address
            if address is not None and peer_dev.asn is not None:
                first = head.get(address >> 8) or self._head_of(address)
                neighbors.append(Neighbor(f"{first}{address & 255}", peer_dev.asn,
                                          peer_dev.name, port.name, peer.name, group,
                                          authenticated and keyed(dev, peer_dev)))
        wd = intent.qos.pfc.watchdog
        pools = budget_pools(budget)
        qos = Qos(
            classes=classes, dscp_to_tc=dscp_to_tc, default_tc=default_tc,
            pfc_priorities=pfc,
            watchdog_poll_ms=_ms(wd.poll_interval), watchdog_default=self.watchdog(dev, None),
            ecn_profiles=sorted(ecn_profiles.values(), key=lambda p: p.name),
            headroom_profiles=sorted(hr_profiles.values(), key=lambda p: p.name),
            dynamic_th=dyn, queue_limit=budget.queue_limit, pools=pools,
            traffic_pattern=(intent.qos.buffer.traffic_pattern.mtu,
                             intent.qos.buffer.traffic_pattern.small_packet_percentage),
            cnp_tc=self._cnp_tc)
        ecmp_i = intent.ecmp
        tier = dev.role if dev.role in ("leaf", "spine", "core") else "leaf"
        ecmp = Ecmp(tuple(ecmp_i.fields), dev.ecmp_seed if dev.ecmp_seed is not None
                    else ecmp_i.seed(tier), ecmp_i.algorithm, ecmp_i.mode,
                    ecmp_i.flowlet_inactivity, ecmp_i.resilient)
        loopback = f"{dev.loopback_ip}/32"
        subnets, blocks = dev.server_prefixes()
        bgp = Bgp(asn=dev.asn or 0, router_id=dev.loopback_ip or "0.0.0.0",
                  maximum_paths=effective.max_paths(fabric, dev), multipath_relax=True,
                  neighbors=neighbors,
                  groups=[PeerGroup(name, _bfd(effective.bfd(fabric, dev.role, role)))
                          for name, role in sorted((n, r) for r, n in group_of.items())],
                  networks=[loopback] + subnets, server_blocks=blocks,
                  keepalive_s=intent.routing.timers.keepalive_s,
                  hold_s=intent.routing.timers.hold_s,
                  fabric_prefixes=self.fabric_prefixes())
        return DevicePlan(
            hostname=dev.name, role=dev.role, nos=platform.nos, platform=dev.platform or "",
            release=dev.release, model=f"{platform.vendor} {platform.model}",
            management=dev.management, management_gateway=dev.management_gateway,
            loopback=loopback, mtu=dev.mtu,
            interfaces=interfaces,
            breakouts=_breakouts(platform, interfaces,
                                 self._cages.setdefault(dev.platform or "", {})),
            bgp=bgp, qos=qos,
            ecmp=ecmp,
            root_authentication=intent.management.root_authentication is not None,
            ntp_servers=list(dev.ntp_servers), dns_servers=list(dev.dns_servers),
            syslog_servers=list(dev.syslog_servers), syslog_severity=dev.syslog_severity,
            ntp_source=dev.ntp_source,
            snmp=_snmp(intent.management.snmp, dev.snmp_location),
            gnmi=intent.management.telemetry.gnmi if intent.management.telemetry else None,
            cloudvision=intent.management.telemetry.cloudvision
            if intent.management.telemetry else None,
            banners=intent.management.banners,
            users={name: u.role for name, u in sorted(intent.management.users.items())},
            sha256_users=tuple(sorted(name for name, u in intent.management.users.items()
                                      if u.sha256 is not None)),
            aaa=_aaa(intent.management.aaa),
            raw=[_raw_piece(i, intent.raw_config[i]) for i in dev.raw])


def _raw_piece(index: int, entry: RawConfig) -> RawPiece:
    return RawPiece(index, entry.at, entry.lines,
                    None if entry.merge is None else dict(entry.merge))


def _aaa(aaa: Aaa | None) -> AaaServers | None:
    if aaa is None:
        return None
    return AaaServers(aaa.protocol, tuple(str(s) for s in aaa.servers), aaa.group)


def _snmp(snmp: Snmp | None, location: str | None) -> SnmpAgent | None:
    if snmp is None:
        return None
    return SnmpAgent(location, snmp.contact, snmp.community is not None)
