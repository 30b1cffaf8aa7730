"""An NVIDIA Cumulus Linux (NVUE) configuration as values: what `build(plan)` returns and the
section templates in templates/cumulus/ print as the NVUE startup document. Values are in
NVUE's units and spellings (link MTU, `400G`, hash-field names); free text is raw (the
templates quote it as JSON strings, valid YAML double-quoted scalars)."""

from __future__ import annotations

from dataclasses import dataclass

from netcfg.intent.model import Banners, Gnmi
from netcfg.render.plan import Bfd, SnmpAgent
from netcfg.vendors.cumulus.releases import Spelling


@dataclass(frozen=True, slots=True)
class Interface:
    name: str
    description: str
    speed: str  # 400G
    mtu: int  # link MTU
    address: str | None
    pfc_profile: str | None
    ecn_profile: str | None
    watchdog: bool


@dataclass(frozen=True, slots=True)
class Neighbor:
    address: str
    remote_as: int
    #: `peer-group <group>`: the group of its tier, whose settings (BFD) it inherits
    peer_group: str | None
    #: `description`: the peer and its port
    description: str
    #: `password` (TCP MD5) with the session-key placeholder
    keyed: bool = False


@dataclass(frozen=True, slots=True)
class PeerGroup:
    """`vrf default router bgp peer-group <name>`: the sessions toward one tier of peers and
    the BFD they share (5.14: `bfd enable on` and the timers on the group; 5.15: `bfd profile
    <name>`, the `router bfd profile` of the same name holding the timers)."""

    name: str
    bfd: Bfd | None


@dataclass(frozen=True, slots=True)
class BfdProfile:
    """5.15 `router bfd profile <name>`: one per peer group with BFD."""

    name: str
    bfd: Bfd


@dataclass(frozen=True, slots=True)
class Bgp:
    asn: int
    router_id: str
    aspath_ignore: bool
    ebgp_multipaths: int
    networks: tuple[str, ...]
    peer_groups: tuple[PeerGroup, ...]
    neighbors: tuple[Neighbor, ...]
    #: empty where the release sets BFD timers on the peer group itself
    bfd_profiles: tuple[BfdProfile, ...]
    #: `timers keepalive <s>` and `timers hold <s>` on every peer group (and on a neighbour
    #: in none): NVUE reference, BGP, `vrf <v> router bgp peer-group <id> timers keepalive
    #: (1-65535|none|auto)` and `... timers hold (3-65535|none|auto)`, unchanged in 5.15
    keepalive: int
    hold: int


@dataclass(frozen=True, slots=True)
class Scheduler:
    traffic_class: int
    mode: str  # strict | dwrr
    bw_percent: int | None


@dataclass(frozen=True, slots=True)
class PfcProfile:
    """`qos pfc <name>`: the priorities, PAUSE both ways, and the cable length Cumulus derives
    the thresholds and the reserve from (NVIDIA QoS page 5.14, PFC: "let Cumulus Linux
    configure the settings dynamically")."""

    name: str
    switch_priorities: tuple[int, ...]
    #: `cable-length` in whole metres (1-100000; NVUE's default is 10)
    cable_length: int


@dataclass(frozen=True, slots=True)
class TrafficPool:
    """`qos traffic-pool <name> memory-percent <n>`."""

    name: str  # default-lossless | default-lossy
    memory_percent: int


@dataclass(frozen=True, slots=True)
class EcnQueue:
    traffic_class: int
    min_threshold: int  # bytes
    max_threshold: int
    probability: int


@dataclass(frozen=True, slots=True)
class EcnProfile:
    name: str
    queues: tuple[EcnQueue, ...]


@dataclass(frozen=True, slots=True)
class PfcWatchdog:
    polling_interval_ms: int
    robustness: int


@dataclass(frozen=True, slots=True)
class Breakout:
    """`interface <parent> link breakout <mode>`: the split ports exist only after it."""

    parent: str  # swp1
    mode: str  # 2x


@dataclass(frozen=True, slots=True)
class CumulusConfig:
    #: the release's NVUE words (netcfg/vendors/cumulus/releases.py)
    words: Spelling
    hostname: str
    #: NVUE ecmp-hash field -> hashed
    ecmp_hash: tuple[tuple[str, bool], ...]
    hash_seed: int
    loopback: str
    management_address: str | None
    management_gateway: str | None
    #: NTP servers, through the management VRF `mgmt`
    ntp_servers: tuple[str, ...]
    #: `ntp listen <interface>`, NVIDIA's NTP source interface ("Specify the NTP Source
    #: Interface", 5.14 and 5.15 NTP pages): eth0 where the intent sends NTP from the
    #: management interface (management.ntp_source), None to leave the switch's own
    ntp_listen: str | None
    dns_servers: tuple[str, ...]
    #: `system syslog server <server> vrf mgmt` (5.13 and later)
    syslog_servers: tuple[str, ...]
    #: management.telemetry (intent models: names and numbers the templates print as given)
    gnmi: Gnmi | None
    #: `system message pre-login|post-login` (management.banners login, motd)
    banners: Banners | None
    #: `system aaa user <name> hashed-password <hash> role <role>`
    users: tuple[tuple[str, str, str], ...]
    #: the SNMP agent: `system snmp-server` listening on the management address in VRF mgmt,
    #: location, contact, a read-only community (NVIDIA Cumulus Linux 5.14 user guide,
    #: Configure SNMP); None without a management address to listen on
    snmp: SnmpAgent | None
    #: the gNMI server's and SNMP agent's listening address: the switch's management address
    management_ip: str | None
    breakouts: tuple[Breakout, ...]
    interfaces: tuple[Interface, ...]
    bgp: Bgp
    #: the QoS mapping, egress-queue-mapping and egress-scheduler profile name
    qos_profile: str
    dscp_to_switch_priority: tuple[tuple[int, int], ...]
    switch_priority_to_traffic_class: tuple[tuple[int, int], ...]
    schedulers: tuple[Scheduler, ...]
    #: empty where no port runs PFC (the switch keeps 100 % lossy)
    traffic_pools: tuple[TrafficPool, ...]
    pfc_profiles: tuple[PfcProfile, ...]
    ecn_profiles: tuple[EcnProfile, ...]
    pfc_watchdog: PfcWatchdog
