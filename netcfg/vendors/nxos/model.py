"""A Cisco NX-OS configuration as values: what `build(plan)` returns and the section templates
in templates/nxos/ print. Values are in NX-OS's units and spellings (IP MTU, system class
names, watchdog multipliers of the poll interval); the CLI syntax lives only in the
templates."""

from __future__ import annotations

from dataclasses import dataclass

from netcfg.intent.model import Gnmi
from netcfg.render.plan import AaaServers, Bfd, SnmpAgent
from netcfg.vendors.common import Bgp, EcnMark


@dataclass(frozen=True, slots=True)
class LoadSharing:
    """`ip load-sharing`: which address and port halves are hashed, and the seed."""

    address: str  # source-destination | source | destination | "" (not hashed)
    port: str
    universal_id: int


@dataclass(frozen=True, slots=True)
class Watchdog:
    """The switch's PFC watchdog: poll interval (ms) and multiples of it."""

    interval_ms: int
    shutdown_multiplier: int
    restore_multiplier: int


@dataclass(frozen=True, slots=True)
class ClassMap:
    """A `class-map type qos` matching DSCP values, and the qos-group it sets."""

    name: str
    dscp: tuple[int, ...]
    qos_group: int


@dataclass(frozen=True, slots=True)
class OutputQueue:
    """A system egress queue class: strict priority, or a share of the remaining bandwidth."""

    name: str
    #: `priority level N` for a strict queue, None for a DWRR one
    priority_level: int | None
    bandwidth_remaining: int
    ecn: EcnMark | None
    #: WRED averaging weight of the ECN marking (0: the instantaneous queue depth)
    ecn_weight: int


@dataclass(frozen=True, slots=True)
class QueuingPolicy:
    name: str
    queues: tuple[OutputQueue, ...]


@dataclass(frozen=True, slots=True)
class NoDropClass:
    """A network-qos class paused on its CoS."""

    name: str
    cos: int


@dataclass(frozen=True, slots=True)
class NetworkQos:
    name: str
    mtu: int
    no_drop: tuple[NoDropClass, ...]
    default_class: str


@dataclass(frozen=True, slots=True)
class Interface:
    name: str
    description: str
    speed: int  # Mb/s
    ip_mtu: int
    address: str | None
    pfc: bool
    watchdog: bool
    #: detection in polls where the port's differs from the switch's
    watchdog_multiplier: int | None
    #: the port's own egress policy where its ECN differs from the system one
    queuing: str | None
    #: BFD timers of the BGP session over the port (NX-OS times single-hop BFD per interface)
    bfd: Bfd | None = None


@dataclass(frozen=True, slots=True)
class BreakoutLine:
    """`interface breakout module M port P map <speed>g-<n>x`: the split ports EthernetM/P/1..n
    exist only after it (Cisco Nexus 9000 NX-OS Interfaces Configuration Guide 10.6(x), ch. 3)."""

    module: int
    ports: str  # "1-8,17" (NX-OS port list)
    map: str  # "400g-2x"


@dataclass(frozen=True, slots=True)
class NxosConfig:
    hostname: str
    model: str
    role: str
    lldp: bool
    jumbomtu: int
    breakouts: tuple[BreakoutLine, ...]
    load_sharing: LoadSharing
    watchdog: Watchdog
    class_maps: tuple[ClassMap, ...]
    classify_policy: str
    default_qos_group: int
    queuing_policies: tuple[QueuingPolicy, ...]
    system_queuing: str
    network_qos: NetworkQos
    interfaces: tuple[Interface, ...]
    loopback: str
    management_address: str | None
    management_gateway: str | None
    ntp_servers: tuple[str, ...]
    #: `ntp source-interface mgmt0`
    ntp_source: bool
    dns_servers: tuple[str, ...]
    #: `logging server <server> <0-7> use-vrf management`
    syslog_servers: tuple[str, ...]
    syslog_level: int | None
    #: the SNMP agent (location, contact, whether a read-only community is set)
    snmp: SnmpAgent | None
    #: management.telemetry (intent models: names and numbers the templates print as given)
    gnmi: Gnmi | None
    #: TACACS+ or RADIUS servers and their group (Cisco Nexus 9000 NX-OS Security
    #: Configuration Guide: "Configuring TACACS+", "Configuring RADIUS", "Configuring AAA")
    aaa: AaaServers | None
    #: `username <name> password 5 <SHA-256 hash placeholder> role <role>`: the logins whose
    #: SHA-256 hash the intent names (management.users.<n>.sha256)
    users: tuple[tuple[str, str, str], ...]
    bgp: Bgp
    #: `timers <keepalive> <hold>` in every peer template, in seconds (cisco.nxos
    #: bgp_templates; NX-OS's own 60/180 where the file states none)
    bgp_timers: tuple[int, int]
    #: `banner motd <d>` + the text + `<d>`: (delimiter, text) of the pre-login banner
    banner_motd: tuple[str, str] | None = None
