"""An Arista EOS configuration as values (the pyavd `eos_cli_config_gen` idea): what
`build(plan)` returns and templates/eos/device.j2 prints, section by section. Values are in
EOS's units and spellings (seconds as EOS writes them, `400g-8`, hash-field keywords); the CLI
syntax lives only in the templates."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from netcfg.intent.model import Banners, CloudVision, Gnmi
from netcfg.render.plan import AaaServers, SnmpAgent
from netcfg.vendors.common import Bgp, EcnMark


@dataclass(frozen=True, slots=True)
class TxQueue:
    """A unicast transmit queue: strict priority, or ETS with a bandwidth percent."""

    number: int
    strict: bool
    bandwidth_percent: int | None
    ecn: EcnMark | None


@dataclass(frozen=True, slots=True)
class PortWatchdog:
    """The PFC watchdog of one port: on, its own action and timers where they differ."""

    action: str | None  # drop | notify-only
    timeout: str | None  # seconds
    recovery: str | None  # seconds


@dataclass(frozen=True, slots=True)
class PortQos:
    """A routed port's QoS lines: DSCP trust, PFC on its lossless priorities, its watchdog and
    its transmit queues (templates/eos/port_qos.j2). They are most of a port's block and the
    same on most ports of a switch (the ports of one speed share their ECN thresholds and
    watchdog), so build() keeps one per distinct set and the template renders each once."""

    #: `uc-tx-queue` on XGS (Trident/Tomahawk), `tx-queue` elsewhere
    tx_queue: str
    pfc_priorities: tuple[int, ...]
    watchdog: PortWatchdog | None
    queues: tuple[TxQueue, ...]


class Interface(NamedTuple):
    """A routed port. A named tuple, not a dataclass like the rest: a switch has dozens, and
    a tuple is made at half the cost and unpacked by the template's loop without an
    attribute lookup per field."""

    name: str
    description: str
    speed: str  # rate and lanes: 400g-8
    ip_mtu: int
    address: str | None
    #: the port's QoS lines: its index in EosConfig.port_qos
    qos: int


@dataclass(frozen=True, slots=True)
class Watchdog:
    """Switch-wide PFC watchdog defaults."""

    timeout: str  # seconds
    recovery: str  # seconds
    polling: str  # seconds
    action: str | None  # drop | no-drop


@dataclass(frozen=True, slots=True)
class QueueProfile:
    """`platform trident mmu queue profile`: one ingress profile for the whole switch."""

    name: str
    threshold: str  # alpha: 1/128 .. 8
    headroom: int  # bytes
    resume: int  # bytes


@dataclass(frozen=True, slots=True)
class EosConfig:
    hostname: str
    model: str
    role: str
    management_vrf: str
    management_address: str | None
    management_gateway: str | None
    ntp_servers: tuple[str, ...]
    #: `ntp local-interface vrf <mgmt> Management1` (AVD ntp.j2)
    ntp_source: bool
    dns_servers: tuple[str, ...]
    #: `logging vrf <mgmt> host <server>` and `logging trap <level>` (AVD's logging.j2 forms)
    syslog_servers: tuple[str, ...]
    syslog_trap: str | None
    #: the SNMP agent (location, contact, whether a read-only community is set)
    snmp: SnmpAgent | None
    #: management.telemetry (intent models: names and numbers the templates print as given)
    gnmi: Gnmi | None
    cloudvision: CloudVision | None
    #: `banner login|motd` + the text + `EOF` (AVD banners.j2)
    banners: Banners | None
    #: `username <name> privilege <p> role <role> secret sha512 <hash placeholder>` (AVD
    #: local-users.j2)
    users: tuple[tuple[str, int, str, str], ...]
    #: TACACS+ or RADIUS servers (AVD tacacs-servers.j2 / radius-server.j2, aaa-server-groups,
    #: aaa-authentication.j2, ip-tacacs|radius-source-interfaces.j2)
    aaa: AaaServers | None
    loopback: str
    queue_profile: QueueProfile | None
    interfaces: tuple[Interface, ...]
    #: the distinct QoS blocks of the ports, in the order of the first port with each
    port_qos: tuple[PortQos, ...]
    lldp: bool
    #: `uc-tx-queue` on XGS (Trident/Tomahawk), `tx-queue` elsewhere
    tx_queue: str
    #: traffic class -> the DSCP values EOS collapses into one map line
    dscp_to_tc: tuple[tuple[int, tuple[int, ...]], ...]
    traffic_classes: tuple[int, ...]
    watchdog: Watchdog
    hash_fields: tuple[str, ...]
    bgp: Bgp
    #: `neighbor <group> maximum-routes <n>` on every peer group (AVD router-bgp.j2): the
    #: prefixes a session may carry before EOS tears it down (EOS's own default is 12,000)
    maximum_routes: int
    #: `neighbor <group> timers <keepalive> <hold>` on every peer group, in seconds (AVD
    #: router-bgp.j2 `peer_groups[].timers`; EOS's own 60/180 where the file states none)
    bgp_timers: tuple[int, int]
    #: `update wait-install`: advertise a prefix only once it is in hardware (AVD
    #: router-bgp.j2, eos_designs' default for the underlay)
    wait_install: bool
