"""Priority classes, PFC and its watchdog, ECN/WRED, DCQCN (NIC) and ECMP hashing."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from netcfg.intent.base import NAMED_KEYS, IntentModel, Name, Text
from netcfg.intent.units import Duration, Size


def _check_dscp(value: int) -> int:
    if not 0 <= value <= 63:
        raise PydanticCustomError(
            "dscp_range", "{value} is not a valid DSCP (0-63)", {"value": value}
        )
    return value


def _check_priority(value: int) -> int:
    if not 0 <= value <= 7:
        raise PydanticCustomError(
            "priority_range",
            "{value} is not a valid priority/traffic class (0-7)",
            {"value": value},
        )
    return value


Dscp = Annotated[int, AfterValidator(_check_dscp),
                 WithJsonSchema({"type": "integer", "minimum": 0, "maximum": 63})]
Priority = Annotated[int, AfterValidator(_check_priority),
                     WithJsonSchema({"type": "integer", "minimum": 0, "maximum": 7})]


class Scheduling(IntentModel):
    """Egress scheduling of the class's queue: strict priority or an ETS (DWRR) weight."""

    # the same rule as `_weight_matches_mode`, for editors and the schema
    model_config = {**IntentModel.model_config, "json_schema_extra": {
        "if": {"properties": {"mode": {"const": "ets"}}},
        "then": {"required": ["weight"]},
        "else": {"not": {"required": ["weight"]}},
    }}

    mode: Literal["strict", "ets"]
    weight: int | None = Field(None, ge=1, le=100, description="ETS bandwidth percent")

    @model_validator(mode="after")
    def _weight_matches_mode(self) -> Scheduling:
        if self.mode == "ets" and self.weight is None:
            raise PydanticCustomError("ets_weight", "mode 'ets' needs a weight (1-100 percent)")
        if self.mode == "strict" and self.weight is not None:
            raise PydanticCustomError("strict_weight", "mode 'strict' takes no weight")
        return self


class Ecn(IntentModel):
    """WRED/ECN marking on the class's egress queue (the DCQCN congestion point).

    Thresholds left out are derived from link speed and buffer (see `netcfg explain`).
    """

    enabled: bool = True
    min: Size | None = Field(None, description="Kmin: marking starts")
    max: Size | None = Field(None, description="Kmax: every packet marked")
    max_probability: int | None = Field(None, ge=1, le=100, description="Pmax, percent")


class QosClass(IntentModel):
    dscp: list[Dscp] = Field(description="DSCP values classified into this class")
    traffic_class: Priority = Field(description="traffic class = switch priority = queue")
    lossless: bool = Field(False, description="PFC-protected (no-drop)")
    scheduling: Scheduling
    ecn: Ecn | None = Field(None, description="default: on for lossless classes, off otherwise")
    description: Text | None = None


def default_classes() -> dict[str, QosClass]:
    """Industry defaults: RoCE on DSCP 26 -> TC3 lossless, CNP on DSCP 48 -> TC6 strict."""
    return {
        "roce": QosClass(dscp=[26], traffic_class=3, lossless=True,
                         scheduling=Scheduling(mode="ets", weight=50),
                         description="RoCEv2 data"),
        "cnp": QosClass(dscp=[48], traffic_class=6,
                        scheduling=Scheduling(mode="strict"),
                        description="RoCEv2 congestion notification"),
        "best-effort": QosClass(dscp=[], traffic_class=0,
                                scheduling=Scheduling(mode="ets", weight=50),
                                description="everything else"),
    }


class Watchdog(IntentModel):
    """PFC watchdog: detect a queue paused too long (pause storm, deadlock) and act."""

    enabled: bool = True
    detection: Duration = Field(200_000.0, description="paused this long -> storm")
    restoration: Duration = Field(200_000.0, description="storm-free this long -> restore")
    action: Literal["drop", "forward", "alert"] = "drop"
    poll_interval: Duration = Field(100_000.0, description="how often queues are polled")


class WatchdogOverride(IntentModel):
    """Watchdog settings for a role, device or port; unset keys keep the wider value."""

    enabled: bool | None = None
    detection: Duration | None = None
    restoration: Duration | None = None
    action: Literal["drop", "forward", "alert"] | None = None


class Pfc(IntentModel):
    priorities: list[Priority] | None = Field(
        None, description="PFC-enabled priorities; default: the lossless classes' traffic classes"
    )
    watchdog: Watchdog = Field(default_factory=Watchdog)


class TrafficPattern(IntentModel):
    """What lossless traffic looks like; sizes the cell-occupancy term of the headroom.

    Same meaning and defaults as SONiC's LOSSLESS_TRAFFIC_PATTERN (buffers_config.j2).
    """

    mtu: int = Field(1024, ge=64, le=9216, description="typical lossless packet size, bytes")
    small_packet_percentage: int = Field(
        50, ge=0, le=100, description="share of 64-byte packets among lossless packets, percent")


class SharedHeadroomPool(IntentModel):
    """Lossless PGs reserve only xon per port; their xoff headroom comes from one pool sized
    for `1/over_subscribe_ratio` of the ports pausing at once."""

    over_subscribe_ratio: int = Field(2, ge=1, le=64)


class Buffer(IntentModel):
    """Design assumptions for the buffer budget and ECN; every number is derived from these."""

    traffic_pattern: TrafficPattern = Field(default_factory=TrafficPattern)
    shared_headroom_pool: SharedHeadroomPool | None = Field(
        None, description="off by default: every lossless PG reserves its full headroom")
    dynamic_threshold: int = Field(
        0, ge=-7, le=7, description="shared-buffer alpha = 2^n for lossless PGs and queues")
    congested_queues: int = Field(
        8, ge=1, le=1024,
        description="queues congested at once on one switch (design incast); sizes the "
                    "dynamic limit ECN must stay below")
    min_shared_pool: int = Field(
        25, ge=0, le=95, description="percent of the buffer that must stay shared")
    lossless_pool: int = Field(
        50, ge=1, le=99,
        description="percent of the shared buffer in the lossless pool where the NOS splits "
                    "it into a lossless and a lossy pool by percent (Cumulus traffic pools); "
                    "default NVIDIA's 50")
    rtt: Duration = Field(5.0, description="base RTT of a short lossless path; ECN defaults "
                                           "are sized from its bandwidth-delay product")


class Qos(IntentModel):
    classes: dict[Name, QosClass] = Field(default_factory=default_classes, min_length=1,
                                          json_schema_extra=NAMED_KEYS)
    default_class: Name = Field("best-effort", description="class of DSCPs no class lists")
    roce_class: Name = Field("roce", description="class carrying RoCEv2 data")
    cnp_class: Name = Field("cnp", description="class carrying CNPs")
    pfc: Pfc = Field(default_factory=Pfc)
    buffer: Buffer = Field(default_factory=Buffer)

    def pfc_priorities(self) -> list[int]:
        if self.pfc.priorities is not None:
            return sorted(set(self.pfc.priorities))
        return sorted({c.traffic_class for c in self.classes.values() if c.lossless})

    def lossless_classes(self) -> list[str]:
        return [n for n, c in self.classes.items() if c.lossless]

    def ecn_of(self, name: str) -> Ecn:
        cls = self.classes[name]
        return cls.ecn if cls.ecn is not None else Ecn(enabled=cls.lossless)


class DcqcnReactionPoint(IntentModel):
    """mlx5 `roce_rp` parameters (sender NIC), in the firmware's own names and units.

    Defaults are the ConnectX firmware defaults (see docs/intent.md for sources).
    """

    rpg_time_reset: int = Field(300, ge=1, description="us between rate-increase events")
    rpg_byte_reset: int = Field(32767, ge=1, description="byte counter for increase events")
    rpg_threshold: int = Field(
        1, ge=1, le=31, description="increase events before fast recovery ends"
    )
    rpg_max_rate: int = Field(0, ge=0, description="Mb/s, 0 = line rate")
    rpg_ai_rate: int = Field(5, ge=1, description="additive-increase step, Mb/s")
    rpg_hai_rate: int = Field(50, ge=1, description="hyper-increase step, Mb/s")
    rpg_gd: int = Field(11, ge=1, le=15, description="decrease factor log2(Gd)")
    rpg_min_dec_fac: int = Field(50, ge=1, le=100, description="bound on one decrease, percent")
    rpg_min_rate: int = Field(1, ge=0, description="floor rate, Mb/s")
    rate_to_set_on_first_cnp: int = Field(0, ge=0, description="Mb/s, 0 = formula")
    dce_tcp_g: int = Field(1019, ge=0, le=1023, description="alpha EWMA weight (1024-scaled)")
    dce_tcp_rtt: int = Field(1, ge=1, description="alpha sampling window, us")
    rate_reduce_monitor_period: int = Field(4, ge=1, description="min us between decreases")
    initial_alpha_value: int = Field(1023, ge=0, le=1023, description="alpha at flow start")
    clamp_tgt_rate: int = Field(0, ge=0, le=1)
    clamp_tgt_rate_after_time_inc: int = Field(1, ge=0, le=1)


class DcqcnNotificationPoint(IntentModel):
    """mlx5 `roce_np` parameters (receiver NIC). CNP DSCP/priority default to the CNP class."""

    min_time_between_cnps: int = Field(2, ge=0, description="us between CNPs per QP")
    cnp_dscp: Dscp | None = None
    cnp_802p_prio: Priority | None = None


class Dcqcn(IntentModel):
    enabled: bool = Field(True, description="false = no DCQCN by design (receiver-driven CC)")
    design_note: Text | None = Field(
        None, description="required when disabled: what controls congestion instead")
    rp: DcqcnReactionPoint = Field(default_factory=DcqcnReactionPoint)
    np: DcqcnNotificationPoint = Field(default_factory=DcqcnNotificationPoint)


HashField = Literal[
    "src_ip", "dst_ip", "ip_proto", "l4_src_port", "l4_dst_port", "src_mac", "dst_mac",
    "ethertype", "vlan", "ingress_port", "ipv6_flow_label", "rocev2_dest_qp",
]
Tier = Literal["leaf", "spine", "core"]


#: netcfg's per-tier ECMP seeds: a different seed per tier, so that consecutive tiers do not
#: hash alike (polarize). Leaf and spine match SONiC's own (docker-orchagent switch.json.j2);
#: SONiC gives a core the spine's seed, which validate reports on SONiC cores (CAP005).
DEFAULT_SEEDS: dict[Tier, int] = {"leaf": 10, "spine": 25, "core": 40}
#: a hash seed is an unsigned 32-bit value (Linux net.ipv4.fib_multipath_hash_seed, which the
#: Spectrum driver programs); a NOS may accept less
HashSeed = Annotated[int, Field(ge=0, le=2**32 - 1)]


DEFAULT_HASH_FIELDS: tuple[HashField, ...] = ("src_ip", "dst_ip", "ip_proto", "l4_src_port",
                                              "l4_dst_port")


class Ecmp(IntentModel):
    fields: list[HashField] = Field(
        default_factory=lambda: list(DEFAULT_HASH_FIELDS),
        min_length=1,
    )
    algorithm: Literal["default", "crc16", "crc32", "xor"] = "default"
    seeds: dict[Tier, HashSeed] = Field(
        default_factory=lambda: dict(DEFAULT_SEEDS),
        description="hash seed per tier (tiers left out keep their default); "
                    "different seeds avoid polarization",
    )

    def seed(self, tier: str) -> int:
        return self.seeds.get(tier, DEFAULT_SEEDS.get(tier, 0))  # type: ignore[call-overload]
    mode: Literal["static", "flowlet", "per_packet"] = "static"
    flowlet_inactivity: Duration = Field(256.0, description="flowlet gap (flowlet mode)")
    resilient: bool = False
