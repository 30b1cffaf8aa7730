"""The fabric intent: the one YAML document everything else is derived from."""

from __future__ import annotations

import ipaddress
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from netcfg.intent.base import (
    _TEXT_PATTERN,
    NAMED_KEYS,
    IntentModel,
    Name,
    NicName,
    PlatformName,
    Text,
    unsafe,
)
from netcfg.intent.qos import Dcqcn, Ecmp, Qos, WatchdogOverride
from netcfg.intent.raw import RawConfig
from netcfg.intent.units import Duration, Length, Speed
from netcfg.intent.waivers import Waiver

Role = Literal["host", "leaf", "spine", "core"]
SwitchRole = Literal["leaf", "spine", "core"]
ROLE_OF_TIER: dict[int, str] = {0: "host", 1: "leaf", 2: "spine", 3: "core"}


def _ipv4_network(value: Any) -> ipaddress.IPv4Network:
    if not isinstance(value, str):
        raise PydanticCustomError("prefix_type", "write the prefix as a string like '10.0.0.0/16'")
    try:
        return ipaddress.IPv4Network(value, strict=True)
    except ValueError as exc:
        raise PydanticCustomError(
            "prefix", "'{value}' is not an IPv4 prefix ({why})", {"value": value, "why": str(exc)}
        ) from None


def _ipv4_interface(value: Any) -> ipaddress.IPv4Interface:
    if not isinstance(value, str):
        raise PydanticCustomError(
            "address_type", "write the address as a string like '192.0.2.10/24'"
        )
    try:
        return ipaddress.IPv4Interface(value if "/" in value else value + "/32")
    except ValueError as exc:
        raise PydanticCustomError(
            "address", "'{value}' is not an IPv4 address ({why})", {"value": value, "why": str(exc)}
        ) from None


def _ipv4_address(value: Any) -> ipaddress.IPv4Address:
    if not isinstance(value, str):
        raise PydanticCustomError("host_type", "write the address as a string like '192.0.2.1'")
    try:
        return ipaddress.IPv4Address(value)
    except ValueError as exc:
        raise PydanticCustomError(
            "host", "'{value}' is not an IPv4 address ({why})", {"value": value, "why": str(exc)}
        ) from None


Host = Annotated[
    ipaddress.IPv4Address, BeforeValidator(_ipv4_address),
    WithJsonSchema({"type": "string", "examples": ["192.0.2.1"]}),
]
Prefix = Annotated[
    ipaddress.IPv4Network, BeforeValidator(_ipv4_network),
    WithJsonSchema({"type": "string", "examples": ["10.0.0.0/16"]}),
]
Address = Annotated[
    ipaddress.IPv4Interface, BeforeValidator(_ipv4_interface),
    WithJsonSchema({"type": "string", "examples": ["192.0.2.10/24"]}),
]


#: Intent fields that do not configure a switch, and what reads them instead; every other
#: field changes some DevicePlan or host NIC profile (tests/test_intent_coverage.py)
NOT_FOR_SWITCH_CONFIGS: dict[tuple[str, str], str] = {
    ("FabricMeta", "name"): "names the intent in messages",
    ("FabricMeta", "description"): "a note for people",
    ("NodeSpec", "gpus"): "inventory: the switches see the NICs (rails), not the GPUs",
    ("RailOptimized", "kind"): "selects the topology model",
    ("RailOptimized", "cross_rail"): "one value: traffic between rails crosses the spines",
    ("RailOptimized", "leaves"): "read with the intent: gives scalable_units, or is checked "
    "against them",
    ("QosClass", "description"): "a note for people",
    ("Settings", "description"): "a note for people, shown by netcfg explain",
    ("Dcqcn", "design_note"): "a note for people",
    ("Buffer", "min_shared_pool"): "a validate threshold (BUF002)",
    ("Routing", "protocol"): "one value: eBGP",
    ("Deadlock", "model"): "the deadlock proof (netcfg deadlock, lint, the render gate)",
    ("Deadlock", "max_bounces"): "the deadlock proof",
    ("Deadlock", "k"): "the deadlock proof",
    ("Deadlock", "max_hops"): "the deadlock proof",
    ("Deadlock", "traffic"): "the deadlock proof",
    ("Deadlock", "endpoints"): "the deadlock proof",
    ("Deadlock", "failures"): "the deadlock proof",
    ("Deadlock", "dead_hosts"): "the deadlock proof",
    ("Deadlock", "rules"): "the deadlock proof",
    ("Deadlock", "priority_rewrite"): "the deadlock proof",
    ("Credential", "username"): "deploy: how netcfg logs in",
    ("Credential", "username_env"): "deploy: how netcfg logs in",
    ("Credential", "password_env"): "deploy: how netcfg logs in",
    ("Credential", "file"): "deploy: how netcfg logs in",
    ("DeviceEntry", "credentials"): "deploy: how netcfg logs in",
    ("SessionKey", "password_env"): "deploy: the key push puts where the files hold a placeholder",
    ("SessionKey", "file"): "deploy: the key push puts where the files hold a placeholder",
    ("Management", "port"): "deploy: the port netcfg connects to",
    ("RootAuthentication", "on_push"): "deploy: whose root password a push leaves",
    ("ManagementNetwork", "preserve"): "deploy: the sections a push keeps of the switch's own",
    ("Intent", "waivers"): "lint",
}


#: the Ethernet header a frame adds to the IP packet it carries (destination, source,
#: EtherType; the FCS is not counted), as in netcfg/vendors/units.py
ETH_HEADER = 14


class FabricMeta(IntentModel):
    name: Name
    description: Text | None = None
    mtu: int = Field(9216, ge=1500, le=9216, description="L2 frame MTU of fabric links")
    l3_mtu: int | None = Field(
        None, ge=1500 - ETH_HEADER, le=9216, description="brownfield: the IP MTU the switches "
        "state on fabric ports today (EOS `mtu 9214`); the frame is then this plus the 14-byte "
        "header, in place of `mtu`")

    @model_validator(mode="after")
    def _one_mtu(self) -> FabricMeta:
        if (self.l3_mtu is not None and "mtu" in self.model_fields_set
                and self.mtu != self.l3_mtu + ETH_HEADER):
            raise PydanticCustomError(
                "mtu_pair", "fabric.mtu {mtu} and l3_mtu {l3} disagree: a frame carries an IP "
                "packet {header} bytes shorter ({l3} + {header} = {frame}); give one of the two",
                {"mtu": self.mtu, "l3": self.l3_mtu, "header": ETH_HEADER,
                 "frame": self.l3_mtu + ETH_HEADER, "at": ("l3_mtu",)})
        return self

    @property
    def frame(self) -> int:
        """The largest frame on fabric links: `mtu`, or `l3_mtu` plus the header."""
        return self.mtu if self.l3_mtu is None else self.l3_mtu + ETH_HEADER


# --------------------------------------------------------------------------- topology


Medium = Literal["dac", "aec", "fiber"]


class LinkClass(IntentModel):
    """Speed and cabling of one tier of links."""

    speed: Speed
    cable: Length = Field(description="cable length; drives PFC headroom")
    medium: Medium | None = Field(None, description="sets the propagation delay per metre")


class NodeSpec(IntentModel):
    """A GPU server: GPUs and scale-out NICs (NIC index = rail)."""

    gpus: int = Field(8, ge=1, le=144)
    nics: int = Field(8, ge=1, le=16, description="scale-out NICs per server = rails")
    nic: NicName = Field("connectx-7", description="NIC model from the platform catalog")


class Naming(IntentModel):
    """Device name templates. Placeholders: {plane} {pod} {su} {rail} {node} {index}, 1-based."""

    host: str = "gpu-su{su}-n{node}"
    leaf: str = "leaf-su{su}-r{rail}"
    spine: str = "spine{index}"
    core: str = "core{index}"


#: the most scalable units a rail-optimized topology may have
MAX_SCALABLE_UNITS = 4096


class RailOptimized(IntentModel):
    """Scalable units of servers, one leaf per rail (per plane) per SU, spines, optional core."""

    model_config = ConfigDict(**IntentModel.model_config,
                              json_schema_extra=lambda s: _su_or_leaves(s))

    kind: Literal["rail_optimized"]
    tiers: Literal[2, 3] = 2
    planes: int = Field(1, ge=1, le=4, description="independent copies of the fabric")
    scalable_units: int = Field(ge=1, le=MAX_SCALABLE_UNITS, description="SUs; each has one "
                                "leaf per rail and plane (may be left to `leaves`)")
    leaves: int | None = Field(None, ge=1, description="rail leaves in all, when asked for "
                               "directly: scalable_units x node.nics x planes")
    nodes_per_su: int = Field(ge=1, le=1024)
    node: NodeSpec = Field(default_factory=NodeSpec)
    leaf_uplinks: int | None = Field(None, ge=1, description="per leaf; default = down ports (1:1)")
    spines: int = Field(ge=1, description="per plane (2 tiers) or per pod and plane (3 tiers)")
    sus_per_pod: int | None = Field(None, ge=1, description="3 tiers: scalable units per pod")
    spine_uplinks: int | None = Field(None, ge=1, description="3 tiers: per spine; default 1:1")
    cores: int | None = Field(None, ge=1, description="3 tiers: core switches per plane")
    host_leaf: LinkClass
    leaf_spine: LinkClass
    spine_core: LinkClass | None = None
    # the one design netcfg models: traffic between rails crosses the spines (PXN and rail-only
    # designs would change the deadlock traffic and the twin's expected reachability)
    cross_rail: Literal["fabric"] = Field(
        "fabric", description="cross-rail traffic goes through the spines")
    naming: Naming = Field(default_factory=Naming)

    @model_validator(mode="before")
    @classmethod
    def _leaves_give_scalable_units(cls, data: Any) -> Any:
        """`leaves` asked for directly: the SUs that give that many, or, with both written,
        whether they agree. Leaves follow from SUs, NICs (rails) and planes, one leaf per rail
        and plane in every SU, so any other count is refused with that arithmetic."""
        if not isinstance(data, dict) or "leaves" not in data:
            return data
        leaves, planes = data["leaves"], data.get("planes", 1)
        node = data.get("node", {})
        nics = node.get("nics", 8) if isinstance(node, dict) else None
        sus = data.get("scalable_units")
        if not all(type(v) is int and v >= 1 for v in (leaves, planes, nics)):
            return data  # the fields' own checks say what is wrong with them
        per_su = nics * planes
        how = (f"each scalable unit has one leaf per rail ({nics} NICs per server: "
               f"node.nics) and plane ({planes}: planes), {per_su} per SU")
        if "scalable_units" in data:
            if type(sus) is int and sus * per_su != leaves:
                raise PydanticCustomError(
                    "leaf_count", "leaves: {leaves}, but {sus} scalable units give "
                    "{sus} x {nics} x {planes} = {got}: {how}; leave out one of the two",
                    {"leaves": leaves, "sus": sus, "nics": nics, "planes": planes,
                     "got": sus * per_su, "how": how, "at": ("leaves",)})
            return data
        if leaves % per_su:
            below = leaves // per_su * per_su
            near = " or ".join(str(n) for n in (below, below + per_su) if n)
            raise PydanticCustomError(
                "leaf_count", "{leaves} leaves are not a whole number of scalable units: "
                "{how}, so leaves = scalable_units x {per_su} ({near})",
                {"leaves": leaves, "how": how, "per_su": per_su, "near": near,
                 "at": ("leaves",)})
        most = MAX_SCALABLE_UNITS
        if leaves // per_su > most:
            raise PydanticCustomError(
                "leaf_count", "{leaves} leaves need {sus} scalable units ({how}); at most "
                "{most} are modelled, {top} leaves", {"leaves": leaves, "sus": leaves // per_su,
                                                      "how": how, "most": most,
                                                      "top": most * per_su, "at": ("leaves",)})
        return {**data, "scalable_units": leaves // per_su}


def _su_or_leaves(schema: dict[str, Any]) -> None:
    """The JSON Schema asks for `scalable_units` or `leaves`, as validate does."""
    required = schema.get("required", [])
    if "scalable_units" in required:
        required.remove("scalable_units")
        schema["anyOf"] = [{"required": ["scalable_units"]}, {"required": ["leaves"]}]


class ExplicitDevice(IntentModel):
    tier: int = Field(ge=0, le=3, description="0 host, 1 leaf, 2 spine, 3 core")
    role: Role | None = Field(None, description="default from the tier")
    platform: PlatformName | None = Field(None, description="default: platforms.<role>")
    nic: NicName | None = Field(None, description="hosts: NIC model (default connectx-7)")


def _short_link(value: Any) -> Any:
    """`[a, b]` is shorthand for `{ends: [a, b]}`."""
    return {"ends": value} if isinstance(value, list) else value


class ExplicitLink(IntentModel):
    ends: list[Name] = Field(min_length=2, max_length=2)
    lossless: bool = Field(True, description="PFC on the lossless priorities on this link")
    speed: Speed | None = None
    cable: Length | None = None
    medium: Medium | None = None
    ports: list[str] | None = Field(None, min_length=2, max_length=2,
                                    description="interface names at each end (default: assigned)")
    description: Text | None = None


class Explicit(IntentModel):
    """Devices with tiers and links written out: brownfield fabrics and odd shapes."""

    kind: Literal["explicit"]
    devices: dict[Name, ExplicitDevice] = Field(min_length=1, json_schema_extra=NAMED_KEYS)
    links: list[Annotated[ExplicitLink, BeforeValidator(_short_link)]]
    link_defaults: LinkClass = Field(
        default_factory=lambda: LinkClass.model_validate({"speed": "400G", "cable": "3m"}),
        description="speed and cable of links that do not say",
    )


Topology = Annotated[
    Annotated[RailOptimized, Tag("rail_optimized")] | Annotated[Explicit, Tag("explicit")],
    Discriminator(lambda v: v.get("kind") if isinstance(v, dict) else getattr(v, "kind", None)),
]


# --------------------------------------------------------------------------- routing


class Asns(IntentModel):
    """RFC 7938 eBGP: a private ASN per leaf, one per spine layer (per pod), one for the core."""

    leaf: Literal["unique", "shared"] = "unique"
    spine: Literal["shared", "per_pod", "unique"] = "per_pod"
    core: Literal["shared", "unique"] = "shared"
    leaf_base: int = Field(4_200_000_000, ge=1, le=4_294_967_294)
    spine_base: int = Field(4_200_100_000, ge=1, le=4_294_967_294)
    core_base: int = Field(4_200_200_000, ge=1, le=4_294_967_294)


class RoutingRule(IntentModel):
    """Ingress-aware forwarding override (static route, flooding, drop) for the deadlock model."""

    at: Name
    dst: Name
    in_from: Name = Field("any", description="ingress neighbour or 'any'")
    out_to: list[Name] | Literal["all_except_ingress"] = Field(
        description="next hops; [] drops; all_except_ingress floods"
    )


class TagOnBounce(IntentModel):
    kind: Literal["tag_on_bounce"]
    tags_to_priorities: list[int] = Field(min_length=1)


#: the two ends of a link, by device name (a failed link; a dateline channel, from -> to)
Link = Annotated[list[Name], Field(min_length=2, max_length=2)]


class IncrementOnChannel(IntentModel):
    kind: Literal["increment_on_channel"]
    channels: list[Link] = Field(
        min_length=1, description="dateline channels [from, to], each one direction of a "
        "link: a packet sent from `from` to `to` carries the next tag (the other direction "
        "is a channel of its own and needs its own entry)")
    tags_to_priorities: list[int] = Field(min_length=1)


PriorityRewrite = Annotated[
    Annotated[TagOnBounce, Tag("tag_on_bounce")]
    | Annotated[IncrementOnChannel, Tag("increment_on_channel")],
    Discriminator(lambda v: v.get("kind") if isinstance(v, dict) else getattr(v, "kind", None)),
]


class Deadlock(IntentModel):
    """How the deadlock checker models forwarding, and which failures it assumes."""

    model: Literal["auto", "updown", "shortest_path", "bounce_on_failure", "k_bounce",
                   "all_simple_paths"] = Field(
        "auto", description="auto: updown when spines share an ASN per pod, else shortest_path")
    max_bounces: int = Field(1, ge=0, le=8)
    k: int = Field(1, ge=0, le=8)
    max_hops: int = Field(6, ge=1, le=16)
    traffic: Literal["auto", "all_leaf_pairs", "all_host_pairs"] | list[list[Name]] = "auto"
    endpoints: Literal["host", "port"] = Field(
        "host", description="what a flow runs between: `host` (a server is one endpoint, its "
        "ports its ways in and out: servers whose ports sit in different planes are not "
        "counted as cut off, and a server sends nothing to itself) or `port` (every server "
        "port is an endpoint of its own)")
    failures: list[Link] = Field(default_factory=list, description="failed links [a, b]")
    dead_hosts: list[Name] = Field(default_factory=list)
    rules: list[RoutingRule] = Field(default_factory=list)
    priority_rewrite: PriorityRewrite | None = None


class BfdTimers(IntentModel):
    """BFD for the BGP sessions of one link tier; unset fields take `routing.bfd`'s."""

    enabled: bool | None = None
    interval: Duration | None = Field(
        None, description="transmit and receive interval, 50ms-10s in whole milliseconds")
    multiplier: int | None = Field(None, ge=2, le=50,
                                   description="intervals missed before the session is down")

    @field_validator("interval")
    @classmethod
    def _whole_ms(cls, v: float | None) -> float | None:
        if v is not None and (v % 1000 or not 50_000 <= v <= 10_000_000):
            raise ValueError("a BFD interval is whole milliseconds from 50ms to 10s")
        return v


class Bfd(BfdTimers):
    """BFD on the fabric's eBGP sessions (switch to switch): a failed link is detected in
    interval x multiplier instead of the BGP hold time (RFC 4271 suggests 90 s)."""

    enabled: bool | None = True
    interval: Duration | None = Field(300_000.0, description="transmit and receive interval")
    multiplier: int | None = Field(3, ge=2, le=50)
    tiers: dict[Literal["leaf_spine", "spine_core"], BfdTimers] = Field(
        default_factory=dict, description="per link tier: leaf_spine, spine_core")


class SessionKey(IntentModel):
    """TCP MD5 authentication (RFC 2385) of every fabric eBGP session. The key is named, never
    written: an environment variable, or a 0600 YAML file with a `password:` (as credentials).
    Rendered files hold a placeholder that `netcfg push` replaces with the key."""

    password_env: Name | None = None
    file: Text | None = Field(None, description="YAML file with mode 0600 holding password:")


class BgpTimers(IntentModel):
    """Keepalive and hold time of every fabric eBGP session, rendered on every NOS rather than
    left to five different defaults (60/180 s on most, 3/9 s on Cumulus). Where the NOS runs no
    BFD for BGP (SONiC), the hold time is what detects a failure that keeps the carrier up."""

    keepalive: Duration = Field(3_000_000.0, description="interval between KEEPALIVEs")
    hold: Duration = Field(9_000_000.0, description="no message for this long: session down")

    @field_validator("keepalive", "hold")
    @classmethod
    def _whole_seconds(cls, v: float) -> float:
        if v % 1_000_000 or not 1_000_000 <= v <= 65_535_000_000:
            raise ValueError("BGP timers are whole seconds from 1s to 65535s")
        return v

    @model_validator(mode="after")
    def _hold_covers_three_keepalives(self) -> BgpTimers:
        # RFC 4271 4.2: a hold time is zero or at least three seconds; 4.4: a keepalive of
        # one third of the hold time is reasonable. A fabric needs a hold time, so not zero.
        if self.hold < 3_000_000:
            raise ValueError("a BGP hold time is at least 3s (RFC 4271 4.2)")
        if self.keepalive * 3 > self.hold:
            raise ValueError("the BGP keepalive is at most a third of the hold time "
                             "(RFC 4271 4.4)")
        return self

    @property
    def keepalive_s(self) -> int:
        return int(self.keepalive // 1_000_000)

    @property
    def hold_s(self) -> int:
        return int(self.hold // 1_000_000)


class Routing(IntentModel):
    protocol: Literal["ebgp"] = "ebgp"
    asn: Asns = Field(default_factory=Asns)
    bfd: Bfd = Field(default_factory=Bfd)
    timers: BgpTimers = Field(default_factory=BgpTimers,
                              description="BGP keepalive and hold time of the fabric sessions")
    authentication: SessionKey | None = Field(
        None, description="TCP MD5 key of the fabric's BGP sessions, by reference")
    max_paths: int | None = Field(None, ge=1, le=1024, description="default: the uplink count")
    deadlock: Deadlock = Field(default_factory=Deadlock)


class Addressing(IntentModel):
    loopbacks: Prefix = Field(ipaddress.IPv4Network("10.0.0.0/16"), description="/32 per switch")
    fabric_links: Prefix = Field(ipaddress.IPv4Network("10.64.0.0/10"),
                                 description="/31 per switch-switch link")
    host_links: Prefix = Field(ipaddress.IPv4Network("10.128.0.0/10"),
                               description="/31 per NIC-leaf link")
    management: Prefix | None = Field(None, description="switch management addresses, in order")


# --------------------------------------------------------------------------- devices


class Credential(IntentModel):
    """Where a device login comes from: environment variables or a 0600 file. Never inline."""

    username: Text | None = None
    username_env: Name | None = None
    password_env: Name | None = None
    file: Text | None = Field(None, description="YAML/INI file with mode 0600")


#: syslog severities by their RFC 5424 names, most severe first (section 6.2.1: 0 emergency ...
#: 7 debug)
SyslogSeverity = Literal["emergency", "alert", "critical", "error", "warning", "notice",
                         "informational", "debug"]


class Management(IntentModel):
    address: Address
    port: int | None = Field(None, ge=1, le=65535)
    gateway: Host | None = Field(None, description="this switch's management default route "
                                 "(default: management.gateway)")


class Sha256Hash(IntentModel):
    """The SHA-256 crypt hash (`$5$`, as `openssl passwd -5` prints it) of a login's
    password, named, never written: NX-OS's `username ... password 5` takes that form, and
    a SHA-512 hash is longer than the 64 characters it allows."""

    hash_env: Name | None = None
    file: Text | None = Field(None, description="YAML file with mode 0600 holding hash:")


class LocalUser(IntentModel):
    """A login on every switch: its role, and the crypt hash of its password (SHA-512 `$6$`,
    as `openssl passwd -6` prints it: EOS's `secret sha512` takes no other), named, never
    written: an environment variable or a 0600 YAML file with a `hash:`. The password never
    reaches netcfg. NX-OS needs the same password's SHA-256 hash as well (`sha256`)."""

    role: Literal["admin", "operator"] = Field(
        description="admin: full rights (EOS and NX-OS network-admin, Junos super-user, NVUE "
        "system-admin); operator: read-only (network-operator, read-only, nvue-monitor)")
    hash_env: Name | None = None
    file: Text | None = Field(None, description="YAML file with mode 0600 holding hash:")
    sha256: Sha256Hash | None = Field(
        None, description="the same password's SHA-256 crypt hash, for NX-OS switches (without "
        "it they keep their own logins)")


class RootAuthentication(IntentModel):
    """Junos's `system root-authentication`, which Junos will not commit a configuration
    without: the crypt hash of root's password (MD5 `$1$`, SHA-256 `$5$` or SHA-512 `$6$`,
    what Junos itself stores), named, never written: an environment variable, or a 0600 YAML
    file with a `hash:`. The password itself never reaches netcfg."""

    hash_env: Name | None = None
    file: Text | None = Field(None, description="YAML file with mode 0600 holding hash:")
    on_push: Literal["keep_device", "replace"] = Field(
        "keep_device", description="keep_device: a push keeps the root password a switch "
        "already has (the rendered one serves a switch without one, ZTP and review); "
        "replace: a push sets the intent's")


class Snmp(IntentModel):
    """The switches' SNMP agent, answering in the management VRF: who runs the switch and
    where it is (`location` per role or device through overrides), and the SNMPv2c read-only
    community, by reference like every secret (the files hold a placeholder `netcfg push`
    fills)."""

    location: Text | None = Field(None, description="sysLocation (per role or device: "
                                  "overrides.*.snmp_location)")
    contact: Text | None = Field(None, description="sysContact")
    community: SessionKey | None = Field(
        None, description="SNMPv2c read-only community, by reference: password_env or a 0600 "
        "file with password:")


class Aaa(IntentModel):
    """Who may log in, asked of a TACACS+ or RADIUS server group through the management VRF.
    The switches' local logins always stay the fallback when no server answers (netcfg renders
    no order without them), so a server group that is down or wrong cannot lock anyone out."""

    protocol: Literal["tacacs+", "radius"] = Field(
        description="tacacs+ (TCP 49) or radius (UDP 1812)")
    servers: list[Host] = Field(min_length=1, max_length=8,
                                description="the servers, asked in order")
    key: SessionKey = Field(description="the servers' shared secret, by reference: "
                            "password_env or a 0600 file with password:")
    group: Name = Field("netcfg", description="the server group's name on the switches "
                        "(EOS, NX-OS)")


#: a collector `host:port` (TerminAttr's -cvaddr list)
HostPort = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9.\-]{0,252}:[0-9]{1,5}$",
                                max_length=260)]
#: a file on the switch (an absolute path, no blanks: it is written into a command line)
SwitchPath = Annotated[str, Field(pattern=r"^/[A-Za-z0-9._/\-]{1,250}$")]


class Gnmi(IntentModel):
    """The switches' gNMI server (OpenConfig streaming telemetry, dial-in), in the management
    VRF, on each NOS that has one."""

    port: int | None = Field(None, ge=1024, le=65535, description="default: the NOS's own "
                             "(EOS 6030, NX-OS 50051, Junos 32767, Cumulus 9339)")
    certificate: Name | None = Field(
        None, description="TLS: the name of a certificate (EOS: SSL profile, NX-OS: "
        "trustpoint, Junos: local certificate, Cumulus: certificate) already on the switches; "
        "required on Junos, whose gRPC server takes TLS only")


class CloudVision(IntentModel):
    """Arista CloudVision's streaming agent, TerminAttr (EOS only), in the management VRF."""

    addresses: list[HostPort] = Field(min_length=1, description="CloudVision `host:port`s")
    token_file: SwitchPath = Field(description="the onboarding token's file on the switch "
                                   "(`-cvauth=token,<file>`)")


def _check_banner(value: str) -> str:
    bad = unsafe(value, "\n")
    if bad is not None:
        raise PydanticCustomError(
            "unsafe_text", "a banner holds a control character ({char} at offset {offset}); "
            "only line breaks may appear in it", {"char": repr(bad[1]), "offset": bad[0]})
    return value.rstrip("\n")


#: a banner: printable lines (what each NOS refuses beyond that is its vendor's, at validate)
BannerText = Annotated[str, AfterValidator(_check_banner), Field(min_length=1, max_length=2000),
                       WithJsonSchema({"type": "string", "minLength": 1, "maxLength": 2000,
                                       "pattern": _TEXT_PATTERN.replace(
                                           "\u0000-\u001f", "\u0000-\u0009\u000b-\u001f", 1)})]


class Banners(IntentModel):
    """What a switch shows to whoever logs in: `login` before the login prompt (the legal
    notice), `motd` after login."""

    login: BannerText | None = None
    motd: BannerText | None = None


class Telemetry(IntentModel):
    """The telemetry agents a team runs on its switches."""

    gnmi: Gnmi | None = None
    cloudvision: CloudVision | None = None


class ManagementNetwork(IntentModel):
    """The switches' out-of-band network: the next hop of the management VRF's default route,
    so that the switch answers a push, NTP or syslog from beyond its own management subnet."""

    gateway: Host | None = Field(None, description="next hop of the management VRF's default "
                                 "route; inside every switch's management subnet, never "
                                 "handed to a switch from addressing.management")
    ntp_servers: list[Host] = Field(
        default_factory=list, description="NTP servers every switch syncs to through its "
        "management VRF, in order")
    dns_servers: list[Host] = Field(
        default_factory=list, description="DNS name servers every switch asks through its "
        "management VRF, in order")
    ntp_source: Literal["management"] | None = Field(
        None, description="management: NTP requests leave from the management interface's "
        "address (default: the switch chooses)")
    syslog_servers: list[Host] = Field(
        default_factory=list, description="syslog servers every switch sends its messages to "
        "through its management VRF (UDP 514), in order")
    syslog_severity: SyslogSeverity = Field(
        "informational", description="the least severe message the syslog servers receive "
        "(RFC 5424 names)")
    preserve: list[Text] = Field(
        default_factory=list, description="sections of the switches' own configuration a push "
        "keeps though the intent does not render them: section names or families, globs "
        "('ntp server', 'system syslog', 'NTP_SERVER', 'daemon *'); `netcfg diff --summary` "
        "shows each switch's")
    snmp: Snmp | None = Field(None, description="the switches' SNMP agent")
    aaa: Aaa | None = Field(None, description="TACACS+ or RADIUS servers for logins; the "
                            "switches' local logins stay the fallback")
    telemetry: Telemetry | None = Field(None, description="gNMI and CloudVision agents")
    banners: Banners | None = Field(None, description="login and motd banners")
    users: dict[Name, LocalUser] = Field(
        default_factory=dict, json_schema_extra=NAMED_KEYS,
        description="logins netcfg sets on every switch, by name; the switches' other logins "
        "stay as they are")
    root_authentication: RootAuthentication | None = Field(
        None, description="Junos: root's password hash, by reference (the files then commit "
        "on their own)")


class DeviceEntry(IntentModel):
    management: Management | None = None
    credentials: Name | None = None


# --------------------------------------------------------------------------- overrides


class Settings(IntentModel):
    """What a role or a device may override (device keys may be globs: `leaf-su1-*`)."""

    platform: PlatformName | None = None
    release: Text | None = Field(None, description="the NOS release these switches run "
                                 "(one the catalog knows for their NOS)")
    mtu: int | None = Field(None, ge=1500, le=9216)
    ecmp_seed: int | None = Field(None, ge=0)
    asn: int | None = Field(None, ge=1, le=4_294_967_294)
    description: Text | None = Field(
        None, description="a note for people, shown by `netcfg explain`; not rendered")
    pfc_watchdog: WatchdogOverride | None = None
    ntp_servers: list[Host] | None = Field(
        None, description="these switches' NTP servers instead of management.ntp_servers")
    dns_servers: list[Host] | None = Field(
        None, description="these switches' DNS name servers instead of management.dns_servers")
    syslog_servers: list[Host] | None = Field(
        None, description="these switches' syslog servers instead of management.syslog_servers")
    snmp_location: Text | None = Field(
        None, description="these switches' SNMP sysLocation instead of management.snmp.location")


class PortSettings(IntentModel):
    """What a port may override (keys `device:interface`, globs allowed)."""

    mtu: int | None = Field(None, ge=1500, le=9216)
    cable: Length | None = None
    description: Text | None = None
    lossless: bool | None = None
    pfc_watchdog: WatchdogOverride | None = None


class Overrides(IntentModel):
    roles: dict[SwitchRole, Settings] = Field(default_factory=dict)
    devices: dict[str, Settings] = Field(default_factory=dict)
    ports: dict[str, PortSettings] = Field(default_factory=dict, json_schema_extra={
        "propertyNames": {"pattern": "^[^:]+:.+$"}})  # `device:interface`, globs allowed


# --------------------------------------------------------------------------- root


class Intent(IntentModel):
    """One lossless RoCEv2 fabric."""

    fabric: FabricMeta
    topology: Topology
    platforms: dict[SwitchRole, PlatformName] = Field(default_factory=dict)
    releases: dict[Name, Text] = Field(
        default_factory=dict, description="NOS -> the release its switches run, where not the "
        "one their platform names in the catalog (e.g. cumulus: '5.14')")
    qos: Qos = Field(default_factory=Qos)
    dcqcn: Dcqcn = Field(default_factory=Dcqcn)
    ecmp: Ecmp = Field(default_factory=Ecmp)
    routing: Routing = Field(default_factory=Routing)
    addressing: Addressing = Field(default_factory=Addressing)
    management: ManagementNetwork = Field(default_factory=ManagementNetwork)
    credentials: dict[Name, Credential] = Field(default_factory=dict)
    devices: dict[Name, DeviceEntry] = Field(default_factory=dict)
    overrides: Overrides = Field(default_factory=Overrides)
    waivers: list[Waiver] = Field(default_factory=list, description="accepted lint findings")
    raw_config: list[RawConfig] = Field(
        default_factory=list, description="configuration netcfg does not model, copied into "
        "the rendered files of one NOS as written (netcfg/intent/raw.py)")
