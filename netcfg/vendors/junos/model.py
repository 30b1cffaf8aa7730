"""A Junos OS Evolved configuration as values: what `build(plan)` returns and the section
templates in templates/junos/ print. Strings are raw (the templates quote them with the
`junos_string` filter); numbers are in Junos's units (media MTU, fill-level percents, PFC
code points as 3-bit strings)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from netcfg.intent.model import Gnmi
from netcfg.render.plan import AaaServers, Bfd, SnmpAgent


@dataclass(frozen=True, slots=True)
class Channelized:
    """A cage split into sub-ports (`et-0/0/N:M`)."""

    port: str
    sub_ports: int
    speed: str  # 400g


@dataclass(frozen=True, slots=True)
class Interface:
    name: str
    description: str
    media_mtu: int
    address: str | None
    scheduler_map: str
    #: congestion-notification profile of a lossless port
    cnp: str | None


@dataclass(frozen=True, slots=True)
class Neighbor:
    address: str
    peer_as: int
    description: str
    #: `authentication-key` (TCP MD5) with the session-key placeholder
    keyed: bool = False


@dataclass(frozen=True, slots=True)
class BgpGroup:
    """eBGP sessions to one peer role."""

    name: str
    neighbors: tuple[Neighbor, ...]
    bfd: Bfd | None


@dataclass(frozen=True, slots=True)
class ForwardingClass:
    name: str
    queue: int
    lossless: bool


@dataclass(frozen=True, slots=True)
class ClassifierEntry:
    forwarding_class: str
    code_points: tuple[str, ...]  # 6-bit DSCP strings


@dataclass(frozen=True, slots=True)
class PfcWatchdog:
    poll_interval_ms: int
    detection_polls: int
    recovery_ms: int


@dataclass(frozen=True, slots=True)
class CongestionProfile:
    name: str
    watchdog: PfcWatchdog | None


@dataclass(frozen=True, slots=True)
class FlowControlQueue:
    code_point: str  # 3-bit IEEE 802.1p
    queue: int


@dataclass(frozen=True, slots=True)
class DropProfile:
    name: str
    fill_min: Decimal  # percent of the queue buffer, up to nine fraction digits
    fill_max: Decimal
    probability_at_min: int  # percent: marking starts at fill_min from this
    probability: int  # percent at fill_max


@dataclass(frozen=True, slots=True)
class Scheduler:
    name: str
    strict: bool
    transmit_percent: int | None
    drop_profile: str | None  # with ECN marking
    #: `shaping-rate percent N` of a strict-high queue (render.STRICT_SHAPING), else None
    shaping_percent: int | None = None


@dataclass(frozen=True, slots=True)
class SchedulerMap:
    name: str
    entries: tuple[tuple[str, str], ...]  # (forwarding class, scheduler)


@dataclass(frozen=True, slots=True)
class SharedBuffer:
    """`class-of-service shared-buffer ingress|egress buffer-partition <name> { percent N; }`:
    the switch-wide split of the shared buffer, (partition, percent) in order."""

    ingress: tuple[tuple[str, int], ...]
    egress: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class DynamicLoadBalancing:
    mode: str  # flowlet | per-packet
    inactivity_us: int | None


@dataclass(frozen=True, slots=True)
class JunosConfig:
    hostname: str
    #: `system root-authentication encrypted-password`: the placeholder rendering fills with
    #: the hash (plan.ROOT_HASH), or None where the intent gives none
    root_hash: str | None
    #: `system ntp server <address>` (`routing-instance mgmt_junos` with a management gateway)
    ntp_servers: tuple[str, ...]
    #: `system ntp source-address <management address>` (junos-conf-system ntp source-address)
    ntp_source: str | None
    dns_servers: tuple[str, ...]
    #: `system syslog host <server> { any <level>; }` (junos-conf-system syslog-object)
    syslog_servers: tuple[str, ...]
    syslog_level: str | None
    #: `system login user <name> { class <c>; authentication { encrypted-password <hash>; } }`
    users: tuple[tuple[str, str, str], ...]
    #: `system login message` (before login) and `announcement` (after login), as the intent
    #: writes them; the template escapes them (facts.banner)
    login_message: str | None
    announcement: str | None
    #: `system tacplus-server|radius-server <server> { secret <key>; source-address <mgmt>; }`
    #: and `system authentication-order [ tacplus|radius password ]` (junos-conf-system)
    aaa: AaaServers | None
    #: the management interface's address without its prefix length: what NTP and the AAA
    #: servers see as the switch's source
    management_ip: str | None
    #: the SNMP agent (location, contact, whether a read-only community is set)
    snmp: SnmpAgent | None
    #: management.telemetry (intent models: names and numbers the templates print as given)
    gnmi: Gnmi | None
    #: the header comment (model and role), safe inside /* */
    banner: str
    channelized: tuple[Channelized, ...]
    interfaces: tuple[Interface, ...]
    loopback: str
    management_interface: str
    management_address: str | None
    #: next hop of the management default route: with one, `system management-instance`
    #: puts the management port in the `mgmt_junos` instance and the route goes there
    #: (`routing-instances mgmt_junos routing-options static route 0.0.0.0/0 next-hop ...`);
    #: the management agents (NTP, DNS, syslog, AAA) then name that instance
    management_gateway: str | None
    #: `mgmt_junos` where the gateway puts management in its own instance, else None
    management_instance: str | None
    router_id: str
    asn: int
    ecmp_policy: str
    export_policy: str
    bgp_groups: tuple[BgpGroup, ...]
    #: `hold-time <s>` in every BGP group (Juniper, `hold-time (Protocols BGP)`: the hold
    #: time is three times the keepalive interval, so Junos states no keepalive of its own)
    hold_time: int
    multipath_multiple_as: bool
    originated: tuple[str, ...]
    lldp: bool
    classifier: str
    classifier_entries: tuple[ClassifierEntry, ...]
    forwarding_classes: tuple[ForwardingClass, ...]
    pfc_code_points: tuple[str, ...]
    flow_control_queues: tuple[FlowControlQueue, ...]
    congestion_profiles: tuple[CongestionProfile, ...]
    drop_profiles: tuple[DropProfile, ...]
    #: the lossless partitions of the shared buffer, None where no class is lossless
    shared_buffer: SharedBuffer | None
    schedulers: tuple[Scheduler, ...]
    scheduler_maps: tuple[SchedulerMap, ...]
    dynamic_load_balancing: DynamicLoadBalancing | None
    hash_keys: tuple[str, ...]
