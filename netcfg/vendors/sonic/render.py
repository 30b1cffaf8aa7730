"""SONiC: a DevicePlan as CONFIG_DB (config_db.json), and config_db back into QoS facts.

All SONiC spellings and unit conversions live here, so the template only serialises the tables
`build()` returns (sorted keys: the same plan always gives the same bytes). Every config_db value
is a string (leaf-lists are JSON lists), thresholds are bytes, timers ms, as SONiC stores them.

Buffer model "traditional": netcfg writes the lossless PG profiles itself, with the numbers the
physics layer computed (on Spectrum, SONiC's own dynamic-buffer formula to the byte), instead of
leaving buffermgrd to look them up in the SKU's pg_profile_lookup.ini.
"""

from __future__ import annotations

import json
import math
from typing import Any

from netcfg.render.facts import Ecn, QosFacts, WatchdogFacts, facts_of
from netcfg.render.plan import DevicePlan, Interface
from netcfg.vendors.sonic import ports

#: orchagent sets SAI_PORT_ATTR_MTU = PORT.mtu + 22 (Ethernet header 14, one VLAN tag 4, FCS 4):
#: sonic-net/sonic-swss orchagent/port.h (DEFAULT_MTU comment) and portsorch setPortMtu.
MTU_OVERHEAD = 22

#: netcfg hash field -> sonic-hash.yang `hash-field` enum (SWITCH_HASH|GLOBAL ecmp_hash).
HASH_FIELDS: dict[str, str] = {
    "src_ip": "SRC_IP", "dst_ip": "DST_IP", "ip_proto": "IP_PROTOCOL",
    "l4_src_port": "L4_SRC_PORT", "l4_dst_port": "L4_DST_PORT", "src_mac": "SRC_MAC",
    "dst_mac": "DST_MAC", "ethertype": "ETHERTYPE", "vlan": "VLAN_ID", "ingress_port": "IN_PORT",
    "ipv6_flow_label": "IPV6_FLOW_LABEL",
}

#: netcfg algorithm -> sonic-hash.yang `hash-algorithm` enum; "default" leaves the ASIC's own.
HASH_ALGORITHMS: dict[str, str | None] = {
    "default": None, "crc16": "CRC", "crc32": "CRC_32LO", "xor": "XOR"}

#: DEVICE_METADATA type per role; orchagent's switch.json.j2 derives the ECMP hash seed from the
#: type (no seed leaf in CONFIG_DB), so the type is how a per-tier seed reaches the ASIC.
DEVICE_TYPES: dict[str, str] = {"leaf": "LeafRouter", "spine": "SpineRouter",
                                "core": "UpperSpineRouter"}


MAP = "NETCFG"  # name of the QoS maps (one set per device)
QUEUES = range(8)
LOSSLESS_POOL = "ingress_lossless_pool"
EGRESS_LOSSLESS_POOL = "egress_lossless_pool"
EGRESS_LOSSY_POOL = "egress_lossy_pool"
EGRESS_LOSSLESS_PROFILE = "egress_lossless_profile"
CABLE_TABLE = "AZURE"  # the name buffermgrd reads


# --------------------------------------------------------------------------- conversions


def port_entry(plan: DevicePlan, iface: Interface) -> dict[str, str]:
    """lanes, alias, index and fec of a port, from the platform's own port table
    (netcfg/vendors/sonic/ports.py: platform.json and the SKUs' port_config.ini)."""
    table = ports.table(plan.platform)
    if table is None:
        raise ValueError(f"{plan.hostname}: no SONiC port table for platform {plan.platform} "
                         f"(known: {', '.join(sorted(ports.PLATFORMS))})")
    return table.entry(iface.name, iface.lanes, iface.speed)


def port_mtu(l2_mtu: int) -> str:
    return str(l2_mtu - MTU_OVERHEAD)


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


def _device(plan: DevicePlan) -> dict[str, Any]:
    meta = {"hostname": plan.hostname, "bgp_asn": str(plan.bgp.asn),
            "type": DEVICE_TYPES.get(plan.role, "LeafRouter"), "buffer_model": "traditional",
            "docker_routing_config_mode": "separated"}
    out: dict[str, Any] = {"DEVICE_METADATA": {"localhost": meta}}
    out["LOOPBACK_INTERFACE"] = {"Loopback0": {}, f"Loopback0|{plan.loopback}": {}}
    if plan.management:
        # gwaddr: interfaces.j2 (files/image_config/interfaces) adds the default route via it
        # to eth0's own table ("default", or mgmt's 6000), apart from the fabric's routes
        out["MGMT_INTERFACE"] = {f"eth0|{plan.management}": (
            {"gwaddr": plan.management_gateway} if plan.management_gateway else {})}
    port_table: dict[str, dict[str, str]] = {}
    intf: dict[str, dict[str, str]] = {}
    for i in plan.interfaces:
        port_table[i.name] = {**port_entry(plan, i), "speed": str(i.speed),
                              "mtu": port_mtu(i.mtu), "description": i.description,
                              "admin_status": "up"}
        if i.address:
            intf[i.name] = {}
            intf[f"{i.name}|{i.address}"] = {}
    out["PORT"], out["INTERFACE"] = port_table, intf
    local = {i.name: i.address.split("/")[0] for i in plan.interfaces if i.address}
    out["BGP_NEIGHBOR"] = {
        n.address: {"asn": str(n.remote_as), "name": n.name, "local_addr": local[n.interface],
                    "admin_status": "up"} for n in plan.bgp.neighbors}
    # bgpd.main.conf.j2 does not announce routed ports' subnets; bgpcfgd (managers_static_rt.py)
    # turns each STATIC_ROUTE into `ip route <prefix> blackhole tag 1` and announces tag-1
    # statics (`redistribute static route-map STATIC_ROUTE_FILTER`). The connected /31s inside
    # a block stay more specific, so traffic still reaches each NIC. A block of one subnet is
    # not announceable so (the connected route of the same prefix wins in zebra, the static is
    # never redistributed): CAP009 names those devices.
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
    for i in plan.interfaces:
        entry = {"dscp_to_tc_map": MAP, "tc_to_queue_map": MAP, "tc_to_pg_map": MAP,
                 "pfc_to_queue_map": MAP}
        if i.pfc_priorities:
            entry["pfc_enable"] = _prios(i.pfc_priorities)
        if i.watchdog is not None and i.watchdog.enabled:
            entry["pfcwd_sw_enable"] = _prios(i.pfc_priorities)
            pfcwd[i.name] = {"action": i.watchdog.action,
                             "detection_time": str(i.watchdog.detection_ms),
                             "restoration_time": str(i.watchdog.restoration_ms)}
        qos_map[i.name] = entry
        ecn = {e.queue: e.name for e in i.ecn}
        for c in q.classes:
            queue[f"{i.name}|{c.tc}"] = {"scheduler": scheduler_name(c.name)}
            if c.tc in ecn:
                queue[f"{i.name}|{c.tc}"]["wred_profile"] = ecn.pop(c.tc)
        for qn, name in sorted(ecn.items()):  # ECN on a queue no class schedules
            queue[f"{i.name}|{qn}"] = {"wred_profile": name}
    out["PORT_QOS_MAP"], out["QUEUE"] = qos_map, queue
    out["PFC_WD"] = {"GLOBAL": {"POLL_INTERVAL": str(q.watchdog_poll_ms)}, **pfcwd}
    return out


def _pools(plan: DevicePlan) -> dict[str, Any]:
    """The traditional buffer model takes every pool size (and the shared headroom pool as
    the ingress pool's xoff) from CONFIG_DB; one ingress pool carries lossless and lossy PGs."""
    p = plan.qos.pools
    ingress: dict[str, str] = {"type": "ingress", "mode": "dynamic", "size": str(p.shared)}
    if p.headroom_pool:
        ingress["xoff"] = str(p.headroom_pool)
    return {LOSSLESS_POOL: ingress,
            EGRESS_LOSSLESS_POOL: {"type": "egress", "mode": "dynamic", "size": str(p.total)},
            EGRESS_LOSSY_POOL: {"type": "egress", "mode": "dynamic", "size": str(p.shared)}}


def _buffers(plan: DevicePlan) -> dict[str, Any]:
    q = plan.qos
    lossless = [i for i in plan.interfaces if i.headroom is not None]
    if not lossless:
        return {"BUFFER_POOL": _pools(plan)}
    profiles = {profile_name(h.name): {"pool": LOSSLESS_POOL, "xon": str(h.xon),
                                       "xoff": str(h.xoff), "size": str(h.size),
                                       "dynamic_th": str(h.dynamic_th)}
                for h in q.headroom_profiles}
    # SONiC's own egress lossless profile (buffers_defaults_t*.j2): no reserve, alpha 2^7.
    profiles[EGRESS_LOSSLESS_PROFILE] = {"pool": EGRESS_LOSSLESS_POOL, "size": "0",
                                         "dynamic_th": "7"}
    pg, bq = {}, {}
    for i, headroom in ((i, i.headroom) for i in lossless if i.headroom is not None):
        for p in i.pfc_priorities:
            pg[f"{i.name}|{q.tc_to_pg(p)}"] = {"profile": profile_name(headroom.name)}
            bq[f"{i.name}|{p}"] = {"profile": EGRESS_LOSSLESS_PROFILE}
    return {
        "BUFFER_POOL": _pools(plan),
        "BUFFER_PROFILE": profiles, "BUFFER_PG": pg, "BUFFER_QUEUE": bq,
        "CABLE_LENGTH": {CABLE_TABLE: {i.name: cable(i.cable_m) for i in plan.interfaces}},
    }


def _hash(plan: DevicePlan) -> dict[str, Any]:
    glob: dict[str, Any] = {"ecmp_hash": [HASH_FIELDS[f] for f in plan.ecmp.fields]}
    algorithm = HASH_ALGORITHMS[plan.ecmp.algorithm]
    if algorithm is not None:
        glob["ecmp_hash_algorithm"] = algorithm
    return {"SWITCH_HASH": {"GLOBAL": glob}}


def config_db(plan: DevicePlan) -> dict[str, Any]:
    return {**_device(plan), **_qos(plan), **_buffers(plan), **_hash(plan)}


#: CONFIG_DB as SONiC stores it: table -> key -> field -> value (strings, leaf-lists as
#: lists); SONiC's own schema (sonic-yang) types it, and tests validate it with libyang
ConfigDb = dict[str, dict[str, Any]]


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
    for name, p in ports.items():
        if "mtu" in p:
            f.mtu[name] = int(p["mtu"]) + MTU_OVERHEAD
    back = {v: k for k, v in HASH_FIELDS.items()}
    f.hash_fields = tuple(back[h] for h in db.get("SWITCH_HASH", {}).get("GLOBAL", {})
                          .get("ecmp_hash", []))
    return f


def expected(plan: DevicePlan) -> QosFacts:
    """SONiC expresses every fact exactly."""
    return facts_of(plan)
