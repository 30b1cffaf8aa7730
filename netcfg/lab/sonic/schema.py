"""Which CONFIG_DB tables, keys and fields the SONiC emulator accepts, and their value types.

Written from SONiC's YANG models (sonic-buildimage `src/sonic-yang-models/yang-models`:
sonic-port, sonic-device_metadata, the QoS map, scheduler, WRED, queue, buffer, PFC watchdog,
cable-length and hash modules, plus sonic-interface, sonic-loopback-interface,
sonic-mgmt_interface, sonic-mgmt_port, sonic-bgp-neighbor and sonic-static-route) and the table
reference `doc/Configuration.md`. The generic config updater validates a whole target CONFIG_DB
against these models before it changes anything, so an unknown table, key shape, field or value
makes `config replace` / `config apply-patch` fail; this module reproduces that check without
libyang.
Only the tables a lossless RoCE fabric and the box's own management need are modelled; a table
outside the list counts as "without YANG models", which GCU refuses to touch.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: (value, whole config) -> error or None; the value is a string, or a list for a leaf-list
Check = Callable[[Any, dict], "str | None"]

NAME = r"[a-zA-Z0-9]{1}([-a-zA-Z0-9_]{0,31})"  # map/profile names (sonic-*-map.yang)


class SchemaError(Exception):
    """The target configuration does not satisfy the models (text as libyang/sonic_yang say it)."""


def enum(*values: str) -> Check:
    def check(v: str, db: dict) -> str | None:
        return (
            None if v in values else f'Invalid value "{v}" (expected one of {", ".join(values)}).'
        )

    return check


def integer(lo: int, hi: int) -> Check:
    def check(v: str, db: dict) -> str | None:
        if not re.fullmatch(r"-?[0-9]+", v):
            return f'Invalid type value "{v}".'
        if not lo <= int(v) <= hi:
            return f'Value "{v}" does not satisfy the range constraint ({lo}..{hi}).'
        return None
    return check


UINT8, UINT16, UINT32, UINT64 = (integer(0, 2**b - 1) for b in (8, 16, 32, 64))


def pattern(rx: str) -> Check:
    compiled = re.compile(rx)

    def check(v: str, db: dict) -> str | None:
        return (
            None
            if compiled.fullmatch(v)
            else f'Unsatisfied pattern - "{v}" does not conform to "{rx}".'
        )

    return check


def ref(table: str) -> Check:
    """A leafref to the key of another table (the referenced entry must exist)."""
    def check(v: str, db: dict) -> str | None:
        return None if v in db.get(table, {}) else \
            f'Invalid leafref value "{v}" - no existing target instance in {table}.'
    return check


def ref_or(table: str, *literals: str) -> Check:
    def check(v: str, db: dict) -> str | None:
        return None if v in literals else ref(table)(v, db)
    return check


def text(v: str, db: dict) -> str | None:
    return None


def boolean(v: str, db: dict) -> str | None:
    return None if v in ("true", "false") else f'Invalid boolean value "{v}".'


def ip_prefix(v: str, db: dict) -> str | None:
    try:
        ipaddress.ip_interface(v)
    except ValueError:
        return f'Invalid value "{v}" (not an IP prefix).'
    return None if "/" in v else f'Invalid value "{v}" (not an IP prefix).'


def ip_address(v: str, db: dict) -> str | None:
    try:
        ipaddress.ip_address(v)
    except ValueError:
        return f'Invalid value "{v}" (not an IP address).'
    return None


def port(v: str, db: dict) -> str | None:
    return ref("PORT")(v, db)


def leaflist(item: Check) -> Check:
    """A YANG leaf-list: a JSON list, or a comma-separated string as CONFIG_DB stores it."""
    def check(v: object, db: dict) -> str | None:
        items = v if isinstance(v, list) else str(v).split(",")
        for one in items:
            if not isinstance(one, str):
                return f'Invalid type value "{one}".'
            err = item(one.strip(), db)
            if err:
                return err
        return None
    return check


@dataclass(frozen=True)
class Table:
    """One CONFIG_DB table: how its keys split (`|`), its fields, and the mandatory ones.

    `keys` lists alternative key shapes (e.g. INTERFACE `name` and `name|prefix`). A "map" table
    (DSCP_TO_TC_MAP ...) has free field names checked by `map_key` / `map_value`. `containers`
    are fixed keys with their own fields (DEVICE_METADATA|localhost, SWITCH_HASH|GLOBAL).
    """

    keys: tuple[tuple[Check, ...], ...] = ()
    fields: dict[str, Check] = field(default_factory=dict)
    mandatory: frozenset[str] = frozenset()
    map_key: Check | None = None
    map_value: Check | None = None
    containers: dict[str, dict[str, Check]] = field(default_factory=dict)
    #: fields per key shape (index into `keys`), when shapes differ (INTERFACE name vs prefix)
    shape_fields: dict[int, dict[str, Check]] = field(default_factory=dict)


def _map(key_rx: str, value: Check) -> Table:
    return Table(keys=((pattern(NAME),),), map_key=pattern(key_rx), map_value=value)


_HASH_FIELDS = ("IN_PORT", "DST_MAC", "SRC_MAC", "ETHERTYPE", "VLAN_ID", "IP_PROTOCOL",
                "DST_IP", "SRC_IP", "L4_DST_PORT", "L4_SRC_PORT", "INNER_DST_MAC",
                "INNER_SRC_MAC", "INNER_ETHERTYPE", "INNER_IP_PROTOCOL", "INNER_DST_IP",
                "INNER_SRC_IP", "INNER_L4_DST_PORT", "INNER_L4_SRC_PORT", "IPV6_FLOW_LABEL")
_HASH_ALGOS = ("CRC", "XOR", "RANDOM", "CRC_32LO", "CRC_32HI", "CRC_CCITT", "CRC_XOR")
_DEVICE_TYPES = ("ToRRouter|LeafRouter|SpineChassisFrontendRouter|ChassisBackendRouter|ASIC|"
                 "MgmtToRRouter|MgmtLeafRouter|MgmtSpineRouter|SpineRouter|BackEndSpineRouter|"
                 "UpperSpineRouter|FabricSpineRouter|LowerSpineRouter|BackEndToRRouter|"
                 "BackEndLeafRouter|SonicHost|not-provisioned")
_PORT_NAME = r"Ethernet([0-9]{1,3})"
_TRUE_FALSE_LIST = pattern(r"((true|false),)*(true|false)")
_QUEUE_INDEX = r"(1[0-5]|[0-9])((-)(1[0-5]|[0-9]))?"
_WRED_THRESHOLDS = {f"{c}_{m}_threshold": UINT64
                    for c in ("green", "yellow", "red") for m in ("min", "max")}

TABLES: dict[str, Table] = {
    "DEVICE_METADATA": Table(containers={"localhost": {
        "hostname": text, "hwsku": text, "platform": text, "mac": pattern(
            r"[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}"),
        "type": pattern(_DEVICE_TYPES), "bgp_asn": UINT32, "deployment_id": UINT32,
        "buffer_model": pattern("dynamic|traditional"),
        "default_pfcwd_status": enum("disable", "enable"),
        "default_bgp_status": enum("up", "down"),
        "docker_routing_config_mode": pattern("separated|unified|split|split-unified"),
        "synchronous_mode": enum("enable", "disable"),
        "yang_config_validation": enum("enable", "disable"),
        "timezone": text, "asic_id": text, "bgp_router_id": text}}),
    "PORT": Table(keys=((pattern(_PORT_NAME),),), fields={
        "alias": text, "lanes": pattern(r"[0-9]+(,[0-9]+)*"), "description": text,
        "speed": integer(1, 1600000), "autoneg": pattern("on|off"), "mtu": integer(68, 9216),
        "index": UINT16, "admin_status": enum("up", "down"), "fec": pattern("rs|fc|none|auto"),
        "adv_speeds": text, "tpid": text, "pfc_asym": enum("on", "off")},
        mandatory=frozenset({"lanes", "speed"})),
    "MGMT_PORT": Table(keys=((pattern(r"eth[0-9]+"),),), fields={
        "alias": text, "speed": UINT32, "autoneg": enum("true", "false"), "description": text,
        "mtu": UINT16, "admin_status": enum("up", "down")}),
    "MGMT_INTERFACE": Table(keys=((pattern(r"eth[0-9]+"), ip_prefix),), fields={
        "gwaddr": ip_address, "forced_mgmt_routes": leaflist(text)}),
    "INTERFACE": Table(keys=((port,), (port, ip_prefix)), shape_fields={
        0: {"vrf_name": text, "nat_zone": UINT8, "mpls": enum("enable", "disable"),
            "ipv6_use_link_local_only": enum("enable", "disable"),
            "loopback_action": enum("drop", "forward"), "mac_addr": text},
        1: {"family": enum("IPv4", "IPv6"), "scope": enum("global", "local"),
            "secondary": boolean}}),
    "LOOPBACK_INTERFACE": Table(keys=((pattern(r"Loopback[0-9]{1,4}"),),
                                      (pattern(r"Loopback[0-9]{1,4}"), ip_prefix)),
                                shape_fields={0: {"vrf_name": text, "nat_zone": UINT8,
                                                  "admin_status": enum("up", "down")},
                                              1: {"family": enum("IPv4", "IPv6"),
                                                  "scope": enum("global", "local")}}),
    # sonic-static-route.yang (revision 2022-03-17): STATIC_ROUTE_TEMPLATE_LIST keyed by the
    # prefix alone, STATIC_ROUTE_LIST by VRF and prefix; per-next-hop values are comma lists
    "STATIC_ROUTE": Table(keys=((ip_prefix,), (pattern(r"default|mgmt|Vrf[a-zA-Z0-9_-]+"),
                                               ip_prefix)), shape_fields={
        0: {"nexthop": text, "ifname": text, "advertise": _TRUE_FALSE_LIST,
            "bfd": _TRUE_FALSE_LIST},
        1: {"nexthop": text, "ifname": text, "advertise": _TRUE_FALSE_LIST,
            "distance": pattern(r"((25[0-5]|2[0-4][0-9]|[0-1]?[0-9][0-9]?),)*"
                                r"(25[0-5]|2[0-4][0-9]|[0-1]?[0-9][0-9]?)"),
            "nexthop-vrf": pattern(r"((((Vrf[a-zA-Z0-9_-]+)|(default)|(mgmt)),)*"
                                   r"((Vrf[a-zA-Z0-9_-]+)|(default)|(mgmt)))?"),
            "blackhole": _TRUE_FALSE_LIST}}),
    "BGP_NEIGHBOR": Table(keys=((ip_address,),), fields={
        "asn": integer(1, 4294967295), "name": text, "local_addr": ip_address,
        "holdtime": UINT16, "keepalive": UINT16, "admin_status": enum("up", "down"),
        "nhopself": UINT8, "rrclient": UINT8}),
    "DSCP_TO_TC_MAP": _map(r"6[0-3]|[1-5][0-9]?|[0-9]?", integer(0, 255)),
    "DOT1P_TO_TC_MAP": _map(r"[0-7]?", integer(0, 255)),
    "TC_TO_QUEUE_MAP": _map(r"[0-9]|1[0-5]", pattern("[0-9]?")),
    "TC_TO_PRIORITY_GROUP_MAP": _map(r"[0-9]|1[0-5]", pattern("[0-7]?")),
    "TC_TO_DSCP_MAP": _map(r"[0-9]|1[0-5]", pattern(r"6[0-3]|[1-5][0-9]?|[0-9]?")),
    "MAP_PFC_PRIORITY_TO_QUEUE": _map(r"[0-7]?", pattern("[0-7]?")),
    "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": _map(r"[0-7]?", pattern("[0-7]?")),
    "PORT_QOS_MAP": Table(keys=((pattern(_PORT_NAME + "|global"),),), fields={
        "tc_to_pg_map": ref("TC_TO_PRIORITY_GROUP_MAP"), "tc_to_queue_map": ref("TC_TO_QUEUE_MAP"),
        "pfc_enable": pattern("([0-7](,[0-7])*)?"), "pfcwd_sw_enable": pattern("([0-7](,[0-7])*)?"),
        "pfc_to_queue_map": ref("MAP_PFC_PRIORITY_TO_QUEUE"),
        "pfc_to_pg_map": ref("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"),
        "dscp_to_tc_map": ref("DSCP_TO_TC_MAP"), "tc_to_dscp_map": ref("TC_TO_DSCP_MAP"),
        "dot1p_to_tc_map": ref("DOT1P_TO_TC_MAP"), "scheduler": ref("SCHEDULER")}),
    "SCHEDULER": Table(keys=((text,),), fields={
        "type": enum("DWRR", "WRR", "STRICT"), "weight": integer(1, 100),
        "priority": integer(0, 9), "meter_type": enum("packets", "bytes"), "cir": UINT64,
        "pir": UINT64, "cbs": UINT32, "pbs": UINT32}),
    "WRED_PROFILE": Table(keys=((pattern(NAME),),), fields={
        "ecn": enum("ecn_none", "ecn_green", "ecn_yellow", "ecn_red", "ecn_green_yellow",
                    "ecn_green_red", "ecn_yellow_red", "ecn_all"),
        "wred_green_enable": boolean, "wred_yellow_enable": boolean, "wred_red_enable": boolean,
        "green_drop_probability": integer(0, 100), "yellow_drop_probability": integer(0, 100),
        "red_drop_probability": integer(0, 100), **_WRED_THRESHOLDS}),
    "QUEUE": Table(keys=((pattern(_PORT_NAME + "|CPU"), pattern(_QUEUE_INDEX)),), fields={
        "scheduler": ref("SCHEDULER"), "wred_profile": ref("WRED_PROFILE")}),
    "BUFFER_POOL": Table(keys=((text,),), fields={
        "type": enum("ingress", "egress", "both"), "mode": enum("static", "dynamic"),
        "size": UINT64, "xoff": UINT64, "percentage": UINT8},
        mandatory=frozenset({"type", "mode"})),
    "BUFFER_PROFILE": Table(keys=((text,),), fields={
        "pool": ref("BUFFER_POOL"), "size": UINT64, "static_th": UINT64,
        "dynamic_th": integer(-8, 7), "xon": UINT64, "xoff": UINT64, "xon_offset": UINT64,
        "headroom_type": enum("static", "dynamic"), "packet_discard_action": enum("drop", "trim")},
        mandatory=frozenset({"pool", "size"})),
    "BUFFER_PG": Table(keys=((port, pattern("[0-7]((-)[0-7])?")),), fields={
        "profile": ref_or("BUFFER_PROFILE", "NULL")}),
    "BUFFER_QUEUE": Table(keys=((port, pattern(_QUEUE_INDEX)),), fields={
        "profile": ref("BUFFER_PROFILE")}),
    "BUFFER_PORT_INGRESS_PROFILE_LIST": Table(keys=((port,),), fields={
        "profile_list": leaflist(ref("BUFFER_PROFILE"))}),
    "BUFFER_PORT_EGRESS_PROFILE_LIST": Table(keys=((port,),), fields={
        "profile_list": leaflist(ref("BUFFER_PROFILE"))}),
    "CABLE_LENGTH": Table(keys=((pattern(NAME),),), map_key=port, map_value=pattern("[0-9]+m")),
    "PFC_WD": Table(keys=((pattern(_PORT_NAME + "|GLOBAL"),),), fields={
        "action": enum("drop", "forward", "alert"), "detection_time": integer(100, 5000),
        "restoration_time": integer(100, 60000), "pfc_stat_history": pattern("enable|disable"),
        "POLL_INTERVAL": integer(100, 1000)}),
    "LOSSLESS_TRAFFIC_PATTERN": Table(keys=((pattern(NAME),),), fields={
        "mtu": integer(1, 9216), "small_packet_percentage": integer(0, 100)},
        mandatory=frozenset({"mtu", "small_packet_percentage"})),
    "DEFAULT_LOSSLESS_BUFFER_PARAMETER": Table(keys=((pattern(NAME),),), fields={
        "default_dynamic_th": integer(-8, 7), "over_subscribe_ratio": UINT16},
        mandatory=frozenset({"default_dynamic_th"})),
    "SWITCH_HASH": Table(containers={"GLOBAL": {
        "ecmp_hash": leaflist(enum(*_HASH_FIELDS)), "lag_hash": leaflist(enum(*_HASH_FIELDS)),
        "ecmp_hash_algorithm": enum(*_HASH_ALGOS), "lag_hash_algorithm": enum(*_HASH_ALGOS)}}),
    # sonic-bgp-bbr.yang
    "BGP_BBR": Table(containers={"all": {"status": enum("enabled", "disabled")}}),
    # the management plane: sonic-ntp, sonic-dns, sonic-syslog, sonic-snmp,
    # sonic-system-aaa, sonic-system-tacacs, sonic-system-radius, sonic-banner
    "NTP": Table(containers={"global": {
        "src_intf": leaflist(text), "vrf": pattern("default|mgmt"),
        "authentication": enum("enabled", "disabled"), "dhcp": enum("enabled", "disabled"),
        "server_role": enum("enabled", "disabled"), "admin_state": enum("enabled", "disabled")}}),
    "NTP_SERVER": Table(keys=((text,),), fields={
        "association_type": enum("server", "pool"), "iburst": enum("on", "off"),
        "key": UINT8, "resolve_as": text, "admin_state": enum("enabled", "disabled"),
        "trusted": enum("yes", "no"), "version": integer(3, 4)}),
    "DNS_NAMESERVER": Table(keys=((ip_address,),)),
    "SYSLOG_SERVER": Table(keys=((ip_address,),), fields={
        "source": ip_address, "port": UINT16, "vrf": text, "filter": enum("include", "exclude"),
        "filter_regex": text, "protocol": enum("udp", "tcp"),
        "severity": enum("none", "debug", "info", "notice", "warn", "error", "crit")}),
    "SNMP": Table(containers={"CONTACT": {"Contact": text}, "LOCATION": {"Location": text}}),
    "SNMP_COMMUNITY": Table(keys=((pattern(r"[^ @\\'\"]{1,32}"),),), fields={
        "TYPE": enum("RO", "RW")}),
    "AAA": Table(keys=((enum("authentication", "authorization", "accounting"),),), fields={
        "login": text, "failthrough": boolean, "fallback": boolean, "debug": boolean,
        "trace": boolean}),
    "TACPLUS": Table(containers={"global": {
        "auth_type": enum("pap", "chap", "mschap", "login"), "timeout": integer(1, 60),
        "passkey": text, "key_encrypt": boolean, "src_intf": text}}),
    "TACPLUS_SERVER": Table(keys=((ip_address,),), fields={
        "priority": integer(1, 64), "tcp_port": UINT16, "timeout": integer(1, 60),
        "auth_type": enum("pap", "chap", "mschap", "login"), "passkey": text, "vrf": text,
        "key_encrypt": boolean}),
    "RADIUS": Table(containers={"global": {
        "passkey": text, "auth_type": enum("pap", "chap", "mschap"), "src_ip": ip_address,
        "nas_ip": ip_address, "statistics": boolean, "timeout": integer(1, 60),
        "retransmit": integer(0, 10)}}),
    "RADIUS_SERVER": Table(keys=((ip_address,),), fields={
        "auth_port": UINT16, "passkey": text, "auth_type": enum("pap", "chap", "mschap"),
        "priority": integer(1, 64), "timeout": integer(1, 60), "retransmit": integer(0, 10),
        "vrf": text, "src_intf": text}),
    "BANNER_MESSAGE": Table(containers={"global": {
        "state": enum("enabled", "disabled"), "login": text, "motd": text, "logout": text}}),
    "FLEX_COUNTER_TABLE": Table(keys=((pattern(r"[A-Z_]+"),),), fields={
        "FLEX_COUNTER_STATUS": enum("enable", "disable"), "FLEX_COUNTER_DELAY_STATUS": text,
        "POLL_INTERVAL": UINT32}),
}


def tables_without_models(db: dict) -> list[str]:
    return sorted(t for t in db if t not in TABLES)


def _check_entry(name: str, spec: Table, key: str, entry: object, db: dict) -> None:
    if not isinstance(entry, dict):
        raise SchemaError(f"Data Loading Failed\n{name}|{key}: an entry must be a JSON object")
    if key in spec.containers:
        fields = spec.containers[key]
        shape = None
    else:
        if not spec.keys:
            raise SchemaError(f"Data Loading Failed\nNo list in {name} matches key {key!r}")
        parts = key.split("|")
        shape = None
        problem = f"key {key!r} does not match any list of {name}"
        for i, checks in enumerate(spec.keys):
            if len(checks) != len(parts):
                continue
            errs = [c(p, db) for c, p in zip(checks, parts)]
            bad = next((e for e in errs if e), None)
            if bad is None:
                shape = i
                break
            problem = bad
        if shape is None:
            raise SchemaError(f"Data Loading Failed\n{name}|{key}: {problem}")
        fields = spec.shape_fields.get(shape, spec.fields)
    if spec.map_key is not None:
        for k, v in entry.items():
            err = spec.map_key(k, db) or (spec.map_value(str(v), db) if spec.map_value else None)
            if err:
                raise SchemaError(f"Data Loading Failed\n{name}|{key}|{k}: {err}")
        return
    unknown = [f for f in entry if f not in fields]
    if unknown:
        raise SchemaError(f"Data Loading Failed\nAll Keys are not parsed in {name}\n"
                          f"dict_keys({unknown!r})")
    for f, v in entry.items():
        if not isinstance(v, (str, list)):
            raise SchemaError(f"Data Loading Failed\n{name}|{key}|{f}: values are strings")
        err = fields[f](v, db)
        if err:
            raise SchemaError(f"Data Loading Failed\n{name}|{key}|{f}: {err}")
    missing = sorted(spec.mandatory - set(entry))
    if missing:
        raise SchemaError(f'Data Loading Failed\nMandatory node "{missing[0]}" instance does '
                          f"not exist in {name}|{key}.")


def validate(db: dict) -> None:
    """Raise SchemaError for the first violation in the modelled tables (others are skipped)."""
    if not isinstance(db, dict):
        raise SchemaError("Data Loading Failed\nthe configuration must be a JSON object")
    for name, entries in db.items():
        spec = TABLES.get(name)
        if spec is None:
            continue
        if not isinstance(entries, dict):
            raise SchemaError(f"Data Loading Failed\n{name}: a table must be a JSON object")
        for key, entry in entries.items():
            _check_entry(name, spec, key, entry, db)
    _check_wred_thresholds(db)


def _check_wred_thresholds(db: dict) -> None:
    """sonic-wred-profile `must`: each colour's max threshold >= its min threshold."""
    for entry in db.get("WRED_PROFILE", {}).values():
        for colour in ("green", "yellow", "red"):
            lo, hi = entry.get(f"{colour}_min_threshold"), entry.get(f"{colour}_max_threshold")
            if lo is not None and hi is not None and int(hi) < int(lo):
                raise SchemaError(f"Data Loading Failed\n{colour.capitalize()} max threshold must "
                                  f"be greater than or equal to min threshold")
