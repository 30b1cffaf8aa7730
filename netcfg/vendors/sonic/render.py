"""SONiC: a DevicePlan as CONFIG_DB (config_db.json), and config_db back into QoS facts.

All SONiC spellings and unit conversions live here, so the template only serialises the tables
`build()` returns (sorted keys: the same plan always gives the same bytes). Every config_db value
is a string (leaf-lists are JSON lists), thresholds are bytes, timers ms, as SONiC stores them.

Buffer model: the one a box of the file's SKU runs from its first boot (buffers.buffer_model),
never another. Dynamic (ACS-SN5600, Mellanox-SN5600-O128): lossless PGs without a profile and
the inputs SONiC's buffer manager computes their headroom from (LOSSLESS_TRAFFIC_PATTERN,
CABLE_LENGTH, DEFAULT_LOSSLESS_BUFFER_PARAMETER), pools without sizes: the headroom SONiC
computes is the one netcfg's physics computed with the same formula. Traditional: the lossless
profiles buffermgrd itself would make from the SKU's pg_profile_lookup.ini, with the SKU's
shared headroom pool and xon_offset.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import orjson

from netcfg.render.facts import Ecn, QosFacts, WatchdogFacts, facts_of
from netcfg.render.plan import DevicePlan, Interface
from netcfg.vendors.sonic import buffers, management, ports
from netcfg.vendors.sonic.capabilities import DEVICE_TYPES, HASH_ALGORITHMS, HASH_FIELDS
from netcfg.vendors.units import frame_size, ip_packet

#: PORT.mtu is the port's Linux MTU, the largest IP packet (sonic-swss cfgmgr/portmgr.cpp: `ip
#: link set dev <port> mtu <mtu>`); orchagent gives the ASIC PORT.mtu + 22 to leave room for the
#: header, one VLAN tag and the FCS (orchagent/portsorch.cpp setPortMtu, portsorch.h FCS_LEN and
#: VLAN_TAG_LEN). So PORT.mtu is the intent's frame less its header (units.ip_packet).

MAP = "NETCFG"  # name of the QoS maps (one set per device)
QUEUES = range(8)
LOSSLESS_POOL = "ingress_lossless_pool"
EGRESS_LOSSLESS_POOL = "egress_lossless_pool"
EGRESS_LOSSY_POOL = "egress_lossy_pool"
CABLE_TABLE = "AZURE"  # the name buffermgrd reads
#: qos_config.j2 (files/build_templates) writes PFC_PRIORITY_TO_PRIORITY_GROUP_MAP and
#: PORT_QOS_MAP pfc_to_pg_map only for these `platform_asic` values (FACTS.md section 3)
PFC_TO_PG_ASICS = frozenset({"mellanox", "barefoot"})


# --------------------------------------------------------------------------- conversions


def port_entry(plan: DevicePlan, iface: Interface) -> dict[str, str]:
    """lanes, alias, index and fec of a port, from the platform's own port table
    (netcfg/vendors/sonic/ports.py: platform.json and the SKUs' port_config.ini)."""
    _port_table(plan)
    return dict(_port_entry(plan.platform, iface.name, iface.lanes, iface.speed))


def _port_table(plan: DevicePlan) -> ports.PortTable:
    table = ports.table(plan.platform)
    if table is None:
        raise ValueError(f"{plan.hostname}: no SONiC port table for platform {plan.platform} "
                         f"(known: {', '.join(sorted(ports.PLATFORMS))})")
    return table


@lru_cache(maxsize=65536)
def _port_entry(platform: str, name: str, lanes: int, speed: int) -> dict[str, str]:
    """port_entry's values: the same for a port name on every switch of a platform, so
    looked up once (callers copy it; nothing may change the cached dict)."""
    table = ports.table(platform)
    assert table is not None  # port_entry and _device ask _port_table first
    entry = table.entry(name, lanes, speed)
    if "fec" not in entry and speed // max(lanes, 1) >= RS_FEC_PER_LANE:
        # SONiC's own port generator (sonic-config-engine portconfig.py, BreakoutCfg.
        # get_config()) writes `fec rs` on every port of 50G per lane or more when the SKU
        # files name none: what the box runs from its first boot (../shared/factory/sonic/
        # <SKU>/config_db.json, every SN5600 port); without it a replace would drop it
        entry["fec"] = "rs"
    return entry


@lru_cache(maxsize=65536)
def _port_row(platform: str, name: str, lanes: int, speed: int, mtu: int) -> dict[str, str]:
    """A PORT entry but its description: the same for a port of that speed and MTU on
    every switch of a platform (callers copy it; nothing may change the cached dict)."""
    return {**_port_entry(platform, name, lanes, speed), "speed": str(speed),
            "mtu": port_mtu(mtu), "admin_status": "up"}


#: Mb/s per lane from which SONiC's port generator sets RS-FEC (portconfig.py)
RS_FEC_PER_LANE = 50_000


def port_mtu(l2_mtu: int) -> str:
    return str(ip_packet(l2_mtu))


def cable(meters: float) -> str:
    """CABLE_LENGTH takes whole metres (`[0-9]+m`); round up so headroom never falls short."""
    return f"{math.ceil(meters)}m"


def scheduler_name(cls_name: str) -> str:
    return f"scheduler.{cls_name}"


def profile_name(name: str) -> str:
    return f"{name}_profile"


def _prios(prios: tuple[int, ...]) -> str:
    return ",".join(str(p) for p in prios)


# --------------------------------------------------------------------------- CONFIG_DB


def _device(plan: DevicePlan, sku: str, model: str) -> dict[str, Any]:
    meta = {"hostname": plan.hostname, "bgp_asn": str(plan.bgp.asn), "hwsku": sku,
            "type": DEVICE_TYPES[plan.role], "buffer_model": model,
            "docker_routing_config_mode": "separated"}
    out: dict[str, Any] = {"DEVICE_METADATA": {"localhost": meta}}
    out["LOOPBACK_INTERFACE"] = {"Loopback0": {}, f"Loopback0|{plan.loopback}": {}}
    if plan.management and plan.management_gateway:
        # sonic-mgmt_interface.yang: the entry's name is a leafref to MGMT_PORT, and its
        # ip_prefix and gwaddr must be of one family, so an entry needs both (without a
        # gateway nothing is rendered and the switch keeps its own eth0: CAP021).
        # gwaddr: interfaces.j2 (files/image_config/interfaces) adds the default route via it
        # to eth0's own table ("default", or mgmt's 6000), apart from the fabric's routes.
        # MGMT_PORT: admin_status up, as sonic-mgmt_port.yang's default and minigraph.py state
        out["MGMT_PORT"] = {"eth0": {"admin_status": "up", "alias": "eth0"}}
        out["MGMT_INTERFACE"] = {f"eth0|{plan.management}": {"gwaddr": plan.management_gateway}}
    port_table: dict[str, dict[str, str]] = {}
    intf: dict[str, dict[str, str]] = {}
    if plan.interfaces:
        _port_table(plan)  # a platform without a port table is refused, named
    for i in plan.interfaces:
        port_table[i.name] = {**_port_row(plan.platform, i.name, i.lanes, i.speed, i.mtu),
                              "description": i.description}
        if i.address:
            intf[i.name] = {}
            intf[f"{i.name}|{i.address}"] = {}
    out["PORT"], out["INTERFACE"] = port_table, intf
    local = {i.name: i.address.split("/")[0] for i in plan.interfaces if i.address}
    # keepalive/holdtime: sonic-bgp-common.yang sonic-bgp-cmn-neigh (uint16, seconds), which
    # bgpcfgd's bgpd/templates/general/instance.conf.j2 turns into `neighbor <ip> timers
    # <keepalive> <holdtime>` (unless they are 60/180, what it leaves to FRR's default)
    timers = {"keepalive": str(plan.bgp.keepalive_s), "holdtime": str(plan.bgp.hold_s)}
    out["BGP_NEIGHBOR"] = {
        n.address: {"asn": str(n.remote_as), "name": n.name, "local_addr": local[n.interface],
                    "admin_status": "up", **timers} for n in plan.bgp.neighbors}
    # bgpd.main.conf.j2 does not announce routed ports' subnets; bgpcfgd (managers_static_rt.py)
    # turns each STATIC_ROUTE into `ip route <prefix> blackhole tag 1` and announces tag-1
    # statics (`redistribute static route-map STATIC_ROUTE_FILTER`). The connected /31s inside
    # a block stay more specific, so traffic still reaches each NIC. A block of one subnet is
    # not announceable so (the connected route of the same prefix wins in zebra, the static is
    # never redistributed): CAP009 names those devices.
    if DEVICE_TYPES[plan.role] == "LeafRouter":
        # bgpd/templates/general/peer-group.conf.j2: a LeafRouter's PEER_V4/V6 get
        # `allowas-in 1` only with BGP_BBR status enabled (a ToRRouter's always, a
        # SpineRouter's never). Spines that share an ASN need it to take each other's routes
        # through the leaves (their own ASN is in the path); with an ASN of its own a spine
        # sees its ASN only on paths through itself, never its best
        out["BGP_BBR"] = {"all": {"status": "enabled"}}
    blocks = plan.bgp.merged_blocks()
    if blocks:
        out["STATIC_ROUTE"] = {f"default|{b}": {"blackhole": "true", "advertise": "true"}
                               for b in blocks}
    return out


def _qos(plan: DevicePlan) -> dict[str, Any]:
    q = plan.qos
    out: dict[str, Any] = {
        "DSCP_TO_TC_MAP": {MAP: {str(d): str(tc) for d, tc in sorted(q.dscp_to_tc.items())}},
        "TC_TO_QUEUE_MAP": {MAP: {str(t): str(t) for t in QUEUES}},
        "TC_TO_PRIORITY_GROUP_MAP": {MAP: {str(t): str(q.tc_to_pg(t)) for t in QUEUES}},
        "MAP_PFC_PRIORITY_TO_QUEUE": {MAP: {str(t): str(t) for t in QUEUES}},
        "SCHEDULER": {scheduler_name(c.name): ({"type": "STRICT"} if c.mode == "strict" else
                                               {"type": "DWRR", "weight": str(c.weight)})
                      for c in q.classes},
        "WRED_PROFILE": {e.name: {"ecn": "ecn_all", "wred_green_enable": "true",
                                  "green_min_threshold": str(e.min),
                                  "green_max_threshold": str(e.max),
                                  "green_drop_probability": str(e.probability)}
                         for e in q.ecn_profiles},
    }
    qos_map, queue, pfcwd = {}, {}, {}
    schedulers = [(c.tc, scheduler_name(c.name)) for c in q.classes]
    prios: dict[tuple[int, ...], str] = {}
    queue_rows: dict[tuple, list[tuple[str, tuple[tuple[str, str], ...]]]] = {}
    for i in plan.interfaces:
        entry = {"dscp_to_tc_map": MAP, "tc_to_queue_map": MAP, "tc_to_pg_map": MAP,
                 "pfc_to_queue_map": MAP}
        enable = prios.get(i.pfc_priorities)
        if enable is None:
            enable = prios[i.pfc_priorities] = _prios(i.pfc_priorities)
        if i.pfc_priorities:
            entry["pfc_enable"] = enable
        if i.watchdog is not None and i.watchdog.enabled:
            entry["pfcwd_sw_enable"] = enable
            pfcwd[i.name] = {"action": i.watchdog.action,
                             "detection_time": str(i.watchdog.detection_ms),
                             "restoration_time": str(i.watchdog.restoration_ms)}
        qos_map[i.name] = entry
        rows = queue_rows.get(i.ecn)
        if rows is None:  # the same for every port with these ECN profiles
            rows = queue_rows[i.ecn] = _queue_rows(schedulers, i.ecn)
        for suffix, fields in rows:
            queue[i.name + suffix] = dict(fields)
    if q.pfc_priorities and buffers.asic_type(plan.platform) in PFC_TO_PG_ASICS:
        out["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"] = {
            MAP: {str(p): str(q.tc_to_pg(p)) for p in q.pfc_priorities}}
        for i in plan.interfaces:
            if i.pfc_priorities:
                qos_map[i.name]["pfc_to_pg_map"] = MAP
    out["PORT_QOS_MAP"], out["QUEUE"] = qos_map, queue
    out["PFC_WD"] = {"GLOBAL": {"POLL_INTERVAL": str(q.watchdog_poll_ms)}, **pfcwd}
    return out


def _queue_rows(schedulers: list[tuple[int, str]], ecn_profiles: tuple
                ) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """A port's QUEUE rows as (key suffix, fields): each class's queue with its scheduler and
    its WRED profile where it has one, then ECN on a queue no class schedules."""
    ecn = {e.queue: e.name for e in ecn_profiles}
    rows: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    for tc, scheduler in schedulers:
        if tc in ecn:
            rows.append((f"|{tc}", (("scheduler", scheduler), ("wred_profile", ecn.pop(tc)))))
        else:
            rows.append((f"|{tc}", (("scheduler", scheduler),)))
    for qn, name in sorted(ecn.items()):
        rows.append((f"|{qn}", (("wred_profile", name),)))
    return rows


def device_layout(plan: DevicePlan) -> buffers.Layout:
    """The buffer layout of the device's SKU (named by the speed most of its ports run)."""
    return buffers.layout(plan.platform, buffers.main_speed([i.speed for i in plan.interfaces]),
                          DEVICE_TYPES[plan.role])


def model_of(plan: DevicePlan) -> str:
    """The buffer model of the box the file is for (its SKU's, from first boot)."""
    return buffers.buffer_model(plan.platform, device_layout(plan).sku)


#: the name the SKU templates give the dynamic model's tables (buffers_config.j2)
PATTERN_TABLE = "AZURE"


def lossless_profile_name(speed: int, cable_length: str) -> str:
    """buffermgrd's own name for a lossless PG profile (sonic-swss cfgmgr/buffermgr.cpp
    doSpeedUpdateTask: `pg_lossless_<PORT.speed>_<CABLE_LENGTH>_profile`). Named so, an
    existing profile is reused and a PG that already names it is left alone, so buffermgrd
    never replaces netcfg's headroom with its pg_profile_lookup.ini row."""
    return f"pg_lossless_{speed}_{cable_length}_profile"


def _pools(plan: DevicePlan, lay: buffers.Layout) -> dict[str, Any]:
    """The SKU's pools. On Spectrum netcfg sizes them as SONiC's pool rule would for its
    headroom (the egress lossless pool stays the SKU's buffer); elsewhere the SKU's sizes
    stand. The ingress lossless pool's xoff is netcfg's shared headroom pool, if any."""
    p = plan.qos.pools
    out = {name: dict(pool) for name, pool in lay.pools.items()}
    ingress = out[LOSSLESS_POOL]
    if p.headroom_pool:  # netcfg's shared headroom pool; else the SKU's own (its xoff)
        ingress["xoff"] = str(p.headroom_pool)
    if model_of(plan) == "dynamic":
        # buffers_dynamic.json.j2: the buffer manager sizes every pool but the egress
        # lossless one (cfgmgr/buffer_pool_mellanox.lua)
        for name, pool in out.items():
            if name != EGRESS_LOSSLESS_POOL:
                pool.pop("size", None)
        return out
    if buffers.asic_type(plan.platform) == "mellanox":  # Spectrum: sized by SONiC's rule
        percent = p.lossless_percent or 100
        lossless = math.ceil(p.shared * percent / 100)
        lossy = math.ceil(p.shared * (100 - percent) / 100) if percent < 100 else p.shared
        ingress["size"] = str(lossless)
        for name in lay.pools:
            if name not in (LOSSLESS_POOL, EGRESS_LOSSLESS_POOL):
                out[name]["size"] = str(lossy)
    return out


def _buffers(plan: DevicePlan) -> dict[str, Any]:
    q = plan.qos
    lay = device_layout(plan)
    profiles: dict[str, dict[str, str]] = {k: dict(v) for k, v in lay.profiles.items()}
    # one profile per (speed, cable) as buffermgrd names them; ports that share the name but
    # not the numbers (other MTU or lanes) get the largest of each, the safe side
    lossless: dict[str, dict[str, int]] = {}
    pg: dict[str, dict[str, str]] = {}
    queue: dict[str, dict[str, str]] = {}
    ingress_lists: dict[str, dict[str, str]] = {}
    egress_lists: dict[str, dict[str, str]] = {}
    lossless_ids = sorted(set(q.pfc_priorities))
    dynamic = model_of(plan) == "dynamic"
    lossy_queues = [n for n in buffers.PROFILED_QUEUES if n not in lossless_ids]
    lossy_ranges = buffers.ranges(lossy_queues)
    # a port's PG and queue ranges follow from its priorities alone: once per distinct set
    pfc_ranges: dict[tuple[int, ...], tuple[list[str], list[str]]] = {}
    # CABLE_LENGTH's text and the lossless profile's name: once per distinct length and speed
    cables = {m: cable(m) for m in {i.cable_m for i in plan.interfaces}}
    names: dict[tuple[int, float], str] = {}
    for i in plan.interfaces:
        for ids, name in lay.pgs.items():
            pg[f"{i.name}|{ids}"] = {"profile": name}
        for ids in lossy_ranges:
            queue[f"{i.name}|{ids}"] = {"profile": lay.lossy_queue}
        if lay.ingress_list:
            ingress_lists[i.name] = {"profile_list": lay.ingress_list}
        if lay.egress_list:
            egress_lists[i.name] = {"profile_list": lay.egress_list}
        h = i.headroom
        if h is None:
            continue
        name = names.get((i.speed, i.cable_m)) or names.setdefault(
            (i.speed, i.cable_m), lossless_profile_name(i.speed, cables[i.cable_m]))
        if not dynamic:
            worst = lossless.setdefault(name, {"xon": 0, "xoff": 0, "size": 0})
            for f, v in (("xon", h.xon), ("xoff", h.xoff), ("size", h.size)):
                worst[f] = max(worst[f], v)
        got = pfc_ranges.get(i.pfc_priorities)
        if got is None:
            got = pfc_ranges[i.pfc_priorities] = (
                buffers.ranges(sorted({q.tc_to_pg(p) for p in i.pfc_priorities})),
                buffers.ranges(list(i.pfc_priorities)))
        for ids in got[0]:
            # dynamic: NULL, the buffer manager computes the profile (buffermgrdyn.cpp)
            pg[f"{i.name}|{ids}"] = {"profile": "NULL" if dynamic else name}
        for ids in got[1]:
            queue[f"{i.name}|{ids}"] = {"profile": lay.lossless_queue}
    mode = lay.pools[LOSSLESS_POOL].get("mode", "dynamic")
    for name, worst in lossless.items():
        speed, length = name.split("_")[2:4]
        row = buffers.lookup_row(lay, int(speed), length)
        if row is not None:  # what buffermgrd creates from the SKU's ini (buffermgr.cpp)
            profiles[name] = {"pool": LOSSLESS_POOL, "xon": row["xon"], "xoff": row["xoff"],
                              "size": row["size"], f"{mode}_th": row["threshold"]}
            if row.get("xon_offset"):
                profiles[name]["xon_offset"] = row["xon_offset"]
            continue
        profiles[name] = {"pool": LOSSLESS_POOL, "xon": str(worst["xon"]),
                          "xoff": str(worst["xoff"]), "size": str(worst["size"]),
                          "dynamic_th": str(q.dynamic_th)}
    out: dict[str, Any] = {
        "BUFFER_POOL": _pools(plan, lay), "BUFFER_PROFILE": profiles, "BUFFER_PG": pg,
        "BUFFER_QUEUE": queue,
        "CABLE_LENGTH": {CABLE_TABLE: {i.name: cables[i.cable_m] for i in plan.interfaces}}}
    if dynamic:
        mtu, small = q.traffic_pattern
        out["LOSSLESS_TRAFFIC_PATTERN"] = {PATTERN_TABLE: {
            "mtu": str(mtu), "small_packet_percentage": str(small)}}
        out["DEFAULT_LOSSLESS_BUFFER_PARAMETER"] = {PATTERN_TABLE: {
            "default_dynamic_th": str(q.dynamic_th)}}
    if ingress_lists:
        out["BUFFER_PORT_INGRESS_PROFILE_LIST"] = ingress_lists
    if egress_lists:
        out["BUFFER_PORT_EGRESS_PROFILE_LIST"] = egress_lists
    return out


def _hash(plan: DevicePlan) -> dict[str, Any]:
    glob: dict[str, Any] = {"ecmp_hash": [HASH_FIELDS[f] for f in plan.ecmp.fields]}
    algorithm = HASH_ALGORITHMS[plan.ecmp.algorithm]
    if algorithm is not None:
        glob["ecmp_hash_algorithm"] = algorithm
    return {"SWITCH_HASH": {"GLOBAL": glob}}


class Tables(dict[str, Any]):
    """CONFIG_DB tables (ConfigDb), some of them also as the text to_json writes for them
    (`written`: table -> its `"TABLE": {...}` lines), where switches alike share them."""

    __slots__ = ("written",)

    def __init__(self, tables: dict[str, Any], written: dict[str, bytes]) -> None:
        super().__init__(tables)
        self.written = written


@dataclass(frozen=True, slots=True)
class _Shared:
    """What config_db makes of a switch's QoS and buffers, and of its SKU: the same for every
    switch whose ports have the same names, speeds, cables, priorities, headroom, ECN and
    watchdog on the same platform and role (most of a large fabric's leaves)."""

    sku: str
    model: str
    tables: dict[str, Any]
    written: dict[str, bytes]


#: _alike(plan) -> what those switches share: made once per kind of switch, in each process
_shared: dict[tuple[object, ...], _Shared] = {}
#: kinds of switch kept at most (a fabric has a few per platform and role)
SHARED_MAX = 256


def _alike(plan: DevicePlan) -> tuple[object, ...]:
    """Everything _qos, _buffers and the SKU read of a plan, as one value: two plans with
    the same give the same tables. A port's headroom, ECN profiles and watchdog are the
    plan's objects shared by its ports (PlanBuilder), each hashed once here by its place
    among the switch's distinct ones instead of once per port."""
    q = plan.qos
    place: dict[int, int] = {}
    distinct: list[object] = []
    rows = []
    for i in plan.interfaces:
        kinds = []
        for value in (i.headroom, i.ecn, i.watchdog):
            at = place.get(id(value))
            if at is None:
                at = place[id(value)] = len(distinct)
                distinct.append(value)
            kinds.append(at)
        rows.append((i.name, i.speed, i.cable_m, i.pfc_priorities, *kinds))
    return (plan.platform, plan.role, tuple(q.dscp_to_tc.items()), tuple(q.classes),
            q.pfc_priorities, tuple(q.ecn_profiles), q.watchdog_poll_ms, q.dynamic_th,
            q.traffic_pattern, q.pools, tuple(rows), tuple(distinct))


def _shared_of(plan: DevicePlan) -> _Shared:
    key = _alike(plan)
    got = _shared.get(key)
    if got is None:
        lay = device_layout(plan)
        tables = {**_qos(plan), **_buffers(plan)}
        got = _Shared(lay.sku, buffers.buffer_model(plan.platform, lay.sku), tables,
                      {name: _written(name, table) for name, table in tables.items()})
        if len(_shared) >= SHARED_MAX:
            _shared.clear()
        _shared[key] = got
    return got


def config_db(plan: DevicePlan) -> Tables:
    """Every table of the switch's CONFIG_DB. Its QoS and buffer tables are made once per kind
    of switch (_alike) and shared, as values and as text, by the switches of that kind: the
    result is read, never changed (to_json writes it)."""
    shared = _shared_of(plan)
    own = {**_device(plan, shared.sku, shared.model), **_hash(plan), **management.tables(plan)}
    clash = own.keys() & shared.tables.keys()
    if clash:
        raise AssertionError(f"tables made twice: {sorted(clash)}")
    return Tables({**own, **shared.tables}, shared.written)


#: CONFIG_DB as SONiC stores it: table -> key -> field -> value (strings, leaf-lists as
#: lists); SONiC's own schema (sonic-yang) types it, and tests validate it with libyang
ConfigDb = dict[str, dict[str, Any]]


#: config_db.json's form: keys sorted, two-space indent
JSON_FORM = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS


def _written(name: str, table: Any) -> bytes:
    """One table as to_json writes it inside the document: `  "NAME": {...}` (the lines
    between the document's braces, its indent included)."""
    return orjson.dumps({name: table}, option=JSON_FORM)[2:-2]


def to_json(db: ConfigDb) -> str:
    """config_db.json text: keys sorted, two-space indent (what Jinja's `tojson(indent=2)`
    printed, with orjson's encoder: the pure-Python indenting encoder took most of a large
    fabric's render time). Tables a Tables already holds as text (shared by switches alike)
    are not written again: the document is its tables' lines in key order, one after the
    other, as orjson writes a whole document."""
    written = db.written if isinstance(db, Tables) else {}
    if not written or not db:
        return orjson.dumps(db, option=JSON_FORM).decode()
    parts = [written.get(name) or _written(name, db[name]) for name in sorted(db)]
    return (b"{\n" + b",\n".join(parts) + b"\n}").decode()


def build(plan: DevicePlan) -> ConfigDb:
    """The plan as CONFIG_DB tables."""
    return config_db(plan)


# --------------------------------------------------------------------------- reading


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(",") if p.strip())


def read(text: str) -> QosFacts:
    """QoS facts of a config_db.json (rendered, or `sonic-cfggen -d --print-data`)."""
    db: dict[str, Any] = json.loads(text)
    ports: dict[str, dict] = db.get("PORT", {})
    qos_map: dict[str, dict] = db.get("PORT_QOS_MAP", {})
    f = QosFacts()
    maps = db.get("DSCP_TO_TC_MAP", {})
    used = sorted({m["dscp_to_tc_map"] for m in qos_map.values() if "dscp_to_tc_map" in m})
    if used:
        f.dscp_to_tc = {int(d): int(t) for d, t in maps.get(used[0], {}).items()}
    prios: set[int] = set()
    for name, m in qos_map.items():
        if m.get("pfc_enable"):
            f.pfc_ports[name] = _ints(m["pfc_enable"])
            prios.update(f.pfc_ports[name])
    f.lossless_priorities = tuple(sorted(prios))
    wred = db.get("WRED_PROFILE", {})
    for key, entry in db.get("QUEUE", {}).items():
        prof = wred.get(entry.get("wred_profile", ""))
        if prof is None or prof.get("ecn", "ecn_none") == "ecn_none":
            continue
        port, _, qn = key.partition("|")
        f.ecn.setdefault(port, {})[int(qn)] = Ecn(int(prof["green_min_threshold"]),
                                                  int(prof["green_max_threshold"]),
                                                  int(prof.get("green_drop_probability", 100)))
    for name, wd in db.get("PFC_WD", {}).items():
        if name != "GLOBAL" and qos_map.get(name, {}).get("pfcwd_sw_enable"):
            f.watchdog[name] = WatchdogFacts(int(wd["detection_time"]),
                                             int(wd["restoration_time"]), wd["action"])
    # the ports the file configures (each has a PORT_QOS_MAP entry); a port of the SKU the
    # fabric does not use stays as the switch has it (SonicDeploy: PORT|* kept)
    configured = set(qos_map) | {k.split("|")[0] for k in db.get("INTERFACE", {})}
    for name, p in ports.items():
        if "mtu" in p and name in configured:
            f.mtu[name] = frame_size(int(p["mtu"]))
    back = {v: k for k, v in HASH_FIELDS.items()}
    f.hash_fields = tuple(back[h] for h in db.get("SWITCH_HASH", {}).get("GLOBAL", {})
                          .get("ecmp_hash", []))
    return f


def expected(plan: DevicePlan) -> QosFacts:
    """SONiC expresses every fact exactly."""
    return facts_of(plan)
